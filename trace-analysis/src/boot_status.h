/* SPDX-License-Identifier: GPL-2.0 */
/*
 * boot_status.h - the kernel's tracefs/boot_status (kernel series patch
 * 0010): one line per setting trace_boot handled, in the order it handled
 * them (per value for arrays),
 *
 *	WORD KEY[ = "VALUE"][ # NOTE]
 *
 * WORD is "applied", "failed" (NOTE: the reason, as in the error_log),
 * "pending" (kept for a module not loaded yet) or a word a later kernel
 * adds; KEY is the full bootconfig key.  A later line about the same
 * setting supersedes an earlier one (a pending setting applied when its
 * module loads).
 */
#ifndef TA_BOOT_STATUS_H
#define TA_BOOT_STATUS_H

#include <stdbool.h>
#include <stddef.h>

struct bs_line {
	char *word;		/* status word; "" for a line not understood */
	char *key;		/* full bootconfig key, or NULL */
	char *value;		/* NULL when the line has none */
	char *note;		/* after " # ", or NULL */
	char *text;		/* the line as the kernel wrote it */
	unsigned int lineno;	/* 1-based */
	bool claimed;		/* a setting of the config accounts for it */
};

struct bs_file {
	struct bs_line *lines;
	size_t n;
};

/* Parse the text of tracefs/boot_status (never fails). */
void bs_parse(const char *text, struct bs_file *bs);
void bs_free(struct bs_file *bs);

#endif /* TA_BOOT_STATUS_H */
