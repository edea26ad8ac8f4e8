/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - allocation, strings and files for trace-analysis.
 *
 * Allocation failures end the program with a message (a report that runs out
 * of memory has nothing useful left to say).
 */
#ifndef TA_UTIL_H
#define TA_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Reading a whole file and writing a JSON string are libbootconfig's
 * (bconf_read_file(), bconf_json_string()), shared with bootconfig and lint.
 */
#include <bootconfig.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *@arr (of *@cap elements of @size bytes) to hold at least @need. */
void grow(void **arr, size_t *cap, size_t need, size_t size);
#define GROW(arr, cap, need) \
	grow((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* A growable string. */
struct sbuf {
	char *s;
	size_t len;
	size_t cap;
};

void sbuf_add(struct sbuf *b, const char *s, size_t n);
void sbuf_puts(struct sbuf *b, const char *s);
void sbuf_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The string (never NULL); ownership moves to the caller. */
char *sbuf_steal(struct sbuf *b);
void sbuf_free(struct sbuf *b);

/* Trim spaces and tabs (and newlines) at both ends, in place. */
char *trim(char *s);
/* The message of a kernel-log line from trace_boot, or NULL. */
char *dmesg_trace_boot_error(char *line);
/* Parse a whole unsigned decimal (or base @base) number; false if not one. */
bool parse_u64(const char *s, int base, uint64_t *out);

#endif /* TA_UTIL_H */
