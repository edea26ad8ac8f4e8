/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proto.h - the pipe protocol between the differential driver (bt-diff)
 * and its runners.  See README.md.
 *
 * Request:  le32 flags, le32 length, length bytes of config.
 * Response: RES_NFIELDS times (le32 length, length bytes).
 */
#ifndef BT_DIFF_PROTO_H
#define BT_DIFF_PROTO_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define REQ_APPLY	1u	/* CLI runners: also apply/show/delete an initrd */
#define REQ_MAX		(1u << 20)

enum res_field {
	RES_STATUS,	/* "ok" or "err" */
	RES_MSG,	/* error message text, without position */
	RES_POS,	/* byte offset, "-1" for none, "?" when unknown */
	RES_LINE,	/* 1-based, "0" when no position */
	RES_COL,	/* 1-based, "0" when no position */
	RES_NODES,	/* node count ("?" when unknown) */
	RES_LIST,	/* `bootconfig -l` standard output */
	RES_LISTERR,	/* other diagnostics of -l on success, normalised */
	RES_TREE,	/* `bootconfig FILE` standard output */
	RES_APPLY,	/* `bootconfig -a` standard output + outcome */
	RES_IMAGE,	/* the trailer `bootconfig -a` appended */
	RES_NOTE,	/* runner-internal inconsistencies; must be empty */
	RES_NFIELDS
};

static const char *const res_field_name[RES_NFIELDS] = {
	"status", "message", "position", "line", "column", "nodes",
	"list output", "list diagnostics", "tree output", "apply output",
	"initrd image", "runner note",
};

struct sbuf {
	char *p;
	size_t n, cap;
};

static inline void sbuf_add(struct sbuf *b, const void *d, size_t n)
{
	if (b->n + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;

		while (cap < b->n + n + 1)
			cap *= 2;
		b->p = realloc(b->p, cap);
		if (!b->p)
			abort();
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->n, d, n);
	b->n += n;
	b->p[b->n] = '\0';
}

static inline void sbuf_str(struct sbuf *b, const char *s)
{
	sbuf_add(b, s, strlen(s));
}

static inline void sbuf_reset(struct sbuf *b)
{
	b->n = 0;
	sbuf_add(b, "", 0);
}

static inline int full_write(int fd, const void *buf, size_t n)
{
	const char *p = buf;

	while (n) {
		ssize_t r = write(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static inline void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static inline uint32_t get_le32(const unsigned char *p)
{
	return p[0] | (p[1] << 8) | (p[2] << 16) | ((uint32_t)p[3] << 24);
}

#endif /* BT_DIFF_PROTO_H */
