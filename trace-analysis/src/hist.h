/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hist.h - parser for the text of tracefs events/GROUP/EVENT/hist files.
 *
 * A hist file holds one histogram per hist trigger of the event:
 *
 *	# event histogram
 *	#
 *	# trigger info: hist:keys=func.sym,lat:vals=hitcount,lat:sort=lat:size=2048 [active]
 *	#
 *
 *	{ func: [ffffffff81f4a3b0] pci_init    , lat:        1234 } hitcount:          1  lat:       1234
 *
 *	Totals:
 *	    Hits: 150
 *	    Entries: 150
 *	    Dropped: 0
 *
 * Keys are printed by type: numbers, .hex, .sym / .sym-offset
 * ("[addr] symbol"), .execname ("comm[pid]"), .syscall ("name[nr]"),
 * .log2 ("~ 2^N"), .buckets ("~ A-B"), strings (padded to 50 columns) and
 * stacktraces (one frame per line).  Values are "name: N", ".hex" values
 * in hex, ".percent" values "name (%): P.PP" and ".graph" values a bar.
 * onmax()/onchange() handlers add "\tmax: N  var: N" lines after an entry.
 */
#ifndef TA_HIST_H
#define TA_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum hist_key_kind {
	HK_NUMBER,	/* decimal number */
	HK_HEX,		/* .hex */
	HK_SYM,		/* .sym: num = address, text = symbol */
	HK_SYM_OFFSET,	/* .sym-offset: text = "symbol+0xoff/0xsize" */
	HK_EXECNAME,	/* .execname: num = pid, text = comm */
	HK_SYSCALL,	/* .syscall: num = syscall number, text = name */
	HK_LOG2,	/* .log2: num = exponent */
	HK_BUCKET,	/* .buckets=N: num .. num2 */
	HK_STRING,	/* text = the string, padding removed */
	HK_STACK,	/* text = frames joined by ";" */
};

struct hist_key {
	char *name;
	enum hist_key_kind kind;
	char *text;	/* printed value, trimmed (see the kinds) */
	uint64_t num;
	uint64_t num2;
};

enum hist_val_kind { HV_NUMBER, HV_PERCENT, HV_GRAPH };

struct hist_val {
	char *name;
	enum hist_val_kind kind;
	uint64_t num;		/* HV_NUMBER; HV_PERCENT: percent * 100 */
	bool error;		/* HV_PERCENT printed as [ERROR] */
};

struct hist_entry {
	struct hist_key *keys;
	size_t nkeys;
	uint64_t hitcount;
	struct hist_val *vals;	/* without hitcount */
	size_t nvals;
	char *extra;		/* handler lines ("max: 10  x: 3"), or NULL */
	unsigned int line;	/* where the entry starts (1-based) */
};

struct hist {
	char *trigger;		/* the trigger info, without " [active]" */
	char *name;		/* hist:NAME:keys=..., or NULL */
	bool paused;		/* [paused] instead of [active] */
	char **key_specs;	/* keys= of the trigger, e.g. "func.sym" */
	size_t nkey_specs;
	char **val_specs;	/* vals= of the trigger, e.g. "hitcount" */
	size_t nval_specs;
	struct hist_entry *entries;
	size_t nentries;
	size_t cap;
	char *snapshot;		/* "Snapshot taken" details, or NULL */
	bool have_totals;
	uint64_t hits;		/* Totals: */
	uint64_t total_entries;
	uint64_t dropped;
};

struct hist_set {
	struct hist *hists;
	size_t n;
	size_t cap;
};

struct hist_error {
	unsigned int line;	/* 1-based; 0 when not about one line */
	char msg[200];
};

/*
 * Parse @len bytes at @buf (need not be NUL-terminated).  Returns 0 and
 * fills @out (free with hist_set_free()), or -EINVAL with @err describing
 * the first problem: text that is no part of the format, a histogram
 * without its Totals (a truncated file), an entry count that disagrees with
 * Totals, or no histogram at all.
 */
int hist_parse(const char *buf, size_t len, struct hist_set *out,
	       struct hist_error *err);
void hist_set_free(struct hist_set *hs);

const struct hist_key *hist_entry_key(const struct hist_entry *e,
				      const char *name);
const struct hist_val *hist_entry_val(const struct hist_entry *e,
				      const char *name);
/* Name of a key spec without its modifier: "func.sym" -> "func". */
char *hist_spec_field(const char *spec);
const char *hist_key_kind_name(enum hist_key_kind k);
/* The key printed as one line of text (e.g. "pci_init, 1234"). */
char *hist_entry_key_text(const struct hist_entry *e);

#endif /* TA_HIST_H */
