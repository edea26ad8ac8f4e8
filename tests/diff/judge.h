/* SPDX-License-Identifier: GPL-2.0 */
/*
 * judge.h - how the differential test judges one input's two results
 * (RES_NFIELDS fields each, proto.h): the first field that differs, the
 * documented deliberate differences of our CLI (README.md), and how a
 * difference is shown.  The one place for this logic: bt-diff.c (the
 * generated test) and bootconfig/fuzz/fuzz_diff.c (the libFuzzer harness)
 * both include it.
 */
#ifndef BT_DIFF_JUDGE_H
#define BT_DIFF_JUDGE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"

#define DATA_MAX	32767	/* the kernel's XBC_DATA_MAX */

/*
 * The first field in which result B (ours) differs from result A (the
 * reference), -1 when none.  B's notes are findings unless A (the same
 * code) has them too; A's alone are the reference's own quirks.  A field
 * the reference does not know ("?") matches anything, as does our unknown
 * ("?") position or node count.
 */
static inline int res_first_diff(const struct sbuf *a, const struct sbuf *b)
{
	for (int i = 0; i < RES_NFIELDS; i++) {
		const struct sbuf *x = &a[i], *y = &b[i];

		if (i == RES_NOTE) {
			if (y->n && (x->n != y->n || memcmp(x->p, y->p, x->n)))
				return i;
			continue;
		}
		if ((i == RES_POS || i == RES_NODES) && !strcmp(y->p, "?"))
			continue;
		if (!strcmp(x->p, "?"))
			continue;	/* the reference cannot tell */
		if (x->n != y->n || memcmp(x->p, y->p, x->n))
			return i;
	}
	return -1;
}

static inline bool res_is(const struct sbuf *r, enum res_field f,
			  const char *v)
{
	return !strcmp(r[f].p, v);
}

static inline bool res_same(const struct sbuf *a, const struct sbuf *b,
			    enum res_field f)
{
	return a[f].n == b[f].n && !memcmp(a[f].p, b[f].p, a[f].n);
}

/* Trailer size field of `bootconfig -a` on the CLI runners' 7-byte initrd. */
static inline size_t res_apply_size(const char *buf, size_t len)
{
	size_t size = strnlen(buf, len) + 1, total = 7 + size + 20;

	return size + (((total + 3) & ~(size_t)3) - total);
}

/* Whether a byte other than NUL follows the first NUL of @buf. */
static inline bool res_nul_lost(const char *buf, size_t len)
{
	const char *nul = memchr(buf, '\0', len);

	while (nul && ++nul < buf + len)
		if (*nul)
			return true;
	return false;
}

/*
 * The documented deliberate differences of our CLI (README.md, the man
 * page), for A = the tree's tool and B = our bootconfig run on @buf by the
 * CLI runners.  Returns the difference's name when they differ exactly
 * that way and B does what we promise instead; NULL otherwise (then any
 * difference is a finding).
 */
static inline const char *res_deliberate(const char *buf, size_t len,
					 const struct sbuf *a,
					 const struct sbuf *b)
{
	if (b[RES_NOTE].n)
		return NULL;
	/* text after a NUL byte: upstream applies the text before it and
	 * drops the rest; ours refuses (a NUL followed by anything but NULs) */
	if (res_nul_lost(buf, len) &&
	    strstr(a[RES_APPLY].p, "outcome: applied") &&
	    res_is(b, RES_APPLY, "outcome: failed\n") && !b[RES_IMAGE].n &&
	    res_same(a, b, RES_STATUS) && res_same(a, b, RES_MSG) &&
	    res_same(a, b, RES_LIST) && res_same(a, b, RES_TREE))
		return "-a refuses text after a NUL byte";
	/* upstream cannot show or delete what it wrote here (its notes) */
	if (res_apply_size(buf, len) >= DATA_MAX &&
	    strstr(a[RES_APPLY].p, "outcome: applied") &&
	    strstr(b[RES_APPLY].p, "outcome: failed") && !b[RES_IMAGE].n &&
	    res_same(a, b, RES_STATUS) && res_same(a, b, RES_MSG) &&
	    res_same(a, b, RES_LIST) && res_same(a, b, RES_TREE))
		return "-a refuses a size the kernel refuses";
	if (a[RES_NOTE].n)
		return NULL;
	/* an empty file is an initrd without config: no "Error:" line */
	if (len == 0 && res_is(a, RES_MSG, "Config data is empty") &&
	    res_is(b, RES_STATUS, "ok") && !b[RES_LIST].n && !b[RES_TREE].n &&
	    !b[RES_LISTERR].n && res_same(a, b, RES_APPLY) &&
	    res_same(a, b, RES_IMAGE))
		return "empty file shows nothing";
	/* a 16-word key: upstream lists the keys before it, then says
	 * "Failed to compose key"; ours lists the same, then refuses with
	 * an explanation (no position) and exit 1 */
	if (res_is(a, RES_STATUS, "ok") &&
	    res_is(a, RES_LISTERR, "compose-error -34\n") &&
	    res_is(b, RES_STATUS, "err") && res_is(b, RES_LINE, "0") &&
	    res_same(a, b, RES_LIST) && res_same(a, b, RES_TREE) &&
	    res_same(a, b, RES_APPLY) && res_same(a, b, RES_IMAGE))
		return "-l refuses a key the kernel cannot compose";
	return NULL;
}

/* At most @max bytes of @p, escaped onto one line. */
static inline void res_put_escaped(FILE *f, const char *p, size_t n,
				   size_t max)
{
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	if (n > max)
		fprintf(f, "... (%zu bytes)", n);
}

/*
 * Both results, field by field: the status and message always, every
 * other field where they differ (and the reference's own notes).  A NULL
 * result is a side that died or hung.
 */
static inline void res_describe(FILE *f, const struct sbuf *a,
				const struct sbuf *b, size_t max)
{
	for (int i = 0; i < RES_NFIELDS; i++) {
		const struct sbuf *s[2] = { a, b };

		if (a && b && res_same(a, b, i) && i != RES_STATUS &&
		    i != RES_MSG && !(i == RES_NOTE && a[i].n))
			continue;
		for (int k = 0; k < 2; k++) {
			fprintf(f, "  %-17s %s: \"", k ? "" : res_field_name[i],
				k ? "B" : "A");
			if (s[k])
				res_put_escaped(f, s[k][i].p, s[k][i].n, max);
			else
				fputs("<runner died or hung>", f);
			fputs("\"\n", f);
		}
	}
}

#endif /* BT_DIFF_JUDGE_H */
