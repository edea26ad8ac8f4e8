// SPDX-License-Identifier: GPL-2.0
/* util.c - allocation, strings and files for trace-analysis. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void oom(void)
{
	fputs("trace-analysis: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	va_end(ap);
	return s;
}

void grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 8;

	if (need <= *cap)
		return;
	while (n < need)
		n *= 2;
	*arr = xrealloc(*arr, n * size);
	*cap = n;
}

void sbuf_add(struct sbuf *b, const char *s, size_t n)
{
	GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void sbuf_puts(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

void sbuf_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	sbuf_add(b, s, (size_t)n);
	free(s);
}

char *sbuf_steal(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void sbuf_free(struct sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

char *trim(char *s)
{
	size_t n;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
		     s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

bool parse_u64(const char *s, int base, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end)
		return false;
	*out = v;
	return true;
}

/*
 * A dmesg line trace_boot wrote ("trace_boot: ..."): its message (trimmed,
 * in place), else NULL.  The one test of what counts as a trace_boot error,
 * for the report's list and verdict's count.  "Event G:E not found, kept
 * until a module adds it" (kernel series patch "tracing/boot: Apply the
 * settings of module events when the module is loaded") is a notice, not
 * an error: boot_status lists those settings as pending.
 */
char *dmesg_trace_boot_error(char *line)
{
	char *p = strstr(line, "trace_boot: ");

	if (!p || strstr(p, ", kept until a module adds it"))
		return NULL;
	return trim(p + 12);
}
