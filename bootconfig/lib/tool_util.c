// SPDX-License-Identifier: GPL-2.0
/*
 * tool_util.c - what the bootconfig CLI, lint and trace-analysis share
 * beyond the tree: reading a whole file, writing a JSON string, showing a
 * source line with a caret, where a node's text is in the input, what
 * text a NUL byte hides from the kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static bool shown_raw(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

BCONF_EXPORT void bconf_put_escaped(FILE *out, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (shown_raw(c) || c == '\t')
			fputc(c, out);
		else
			fprintf(out, "\\x%02x", c);
	}
}

BCONF_EXPORT size_t bconf_nul_tail(const char *buf, size_t len,
				   struct bconf_error *at)
{
	const char *nul = memchr(buf, '\0', len);
	size_t off, i;

	if (!nul)
		return 0;
	off = (size_t)(nul - buf);
	for (i = off + 1; i < len && !buf[i]; i++)
		;
	if (i == len)
		return 0;	/* NUL padding: nothing is lost */
	if (at) {
		memset(at, 0, sizeof(*at));
		bconf_locate(at, buf, off);
		at->msg = "a NUL byte before the end of the file: the kernel stops reading at this byte";
	}
	return len - off - 1;
}

/* Columns a byte takes in a diagnostic: 4 for \xNN (a tab counts as 1). */
static unsigned int shown_width(char c)
{
	return shown_raw((unsigned char)c) || c == '\t' ? 1 : 4;
}

/*
 * The bytes [*@ws, *@we) of the line [@start, @end) to quote for a caret
 * at byte @p: the whole line when it takes at most BCONF_SRC_WIDTH
 * columns, else a window of at most that many: up to BCONF_SRC_BEFORE
 * columns before the caret, the rest after it (before it too when the
 * line ends first).
 */
static void source_window(const char *buf, size_t start, size_t end,
			  size_t p, size_t *ws, size_t *we)
{
	unsigned int w = 0;
	size_t i;

	for (i = start; i < end && w <= BCONF_SRC_WIDTH; i++)
		w += shown_width(buf[i]);
	*ws = start;
	*we = end;
	if (w <= BCONF_SRC_WIDTH)
		return;
	w = 0;
	i = p;
	while (i > start && w + shown_width(buf[i - 1]) <= BCONF_SRC_BEFORE)
		w += shown_width(buf[--i]);
	*ws = i;
	i = p;
	while (i < end && w + shown_width(buf[i]) <= BCONF_SRC_WIDTH)
		w += shown_width(buf[i++]);
	*we = i;
	if (i < end)
		return;
	i = *ws;
	while (i > start && w + shown_width(buf[i - 1]) <= BCONF_SRC_WIDTH)
		w += shown_width(buf[--i]);
	*ws = i;
}

BCONF_EXPORT void bconf_show_source(FILE *out, const char *buf, size_t len,
				    unsigned int line, unsigned int col)
{
	size_t i = 0, start, end, p, ws, we;
	unsigned int l = 1;

	while (i < len && l < line) {
		if (buf[i++] == '\n')
			l++;
	}
	if (l != line || !line)
		return;
	start = i;
	for (end = start; end < len && buf[end] && buf[end] != '\n';)
		end++;
	if (!col)
		p = start;
	else if (col - 1 < end - start)
		p = start + col - 1;
	else
		p = end;	/* past the line: the caret after it */
	source_window(buf, start, end, p, &ws, &we);
	if (ws > start)
		fputs("...", out);
	bconf_put_escaped(out, buf + ws, we - ws);
	if (we < end)
		fputs("...", out);
	fputc('\n', out);
	/* the caret under the column: as wide as what was printed */
	if (ws > start)
		fputs("   ", out);
	for (i = ws; i < p; i++) {
		if (buf[i] == '\t')
			fputc('\t', out);
		else
			fputs(shown_raw((unsigned char)buf[i]) ? " " : "    ", out);
	}
	fputs("^\n", out);
}

BCONF_EXPORT int bconf_read_file(const char *path, size_t max, char **buf,
				 size_t *len)
{
	size_t n = 0, cap = 4096;
	char *b = NULL, *nb;
	ssize_t r;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		if (n + 1 >= cap || !b) {
			cap = b ? cap * 2 : cap;
			nb = realloc(b, cap);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			b = nb;
		}
		r = read(fd, b + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	b[n] = '\0';
	*buf = b;
	if (len)
		*len = n;
	return 0;
}

BCONF_EXPORT size_t bconf_node_offset(const struct bconf_node *node)
{
	return node->data & ~BCONF_VALUE_FLAG;
}

/* Length of the valid UTF-8 sequence at @p, or 0. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n, i;
	unsigned int cp;

	if (p[0] < 0xc2 || p[0] > 0xf4)
		return 0;
	n = p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : 4;
	cp = p[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

BCONF_EXPORT void bconf_json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t n;

	fputc('"', f);
	for (; *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); continue;
		case '\\': fputs("\\\\", f); continue;
		case '\n': fputs("\\n", f); continue;
		case '\t': fputs("\\t", f); continue;
		case '\r': fputs("\\r", f); continue;
		default: break;
		}
		if (*p < 0x20 || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (*p < 0x80) {
			fputc(*p, f);
		} else if ((n = utf8_len(p))) {
			fwrite(p, 1, n, f);
			p += n - 1;
		} else {
			fputs("\\ufffd", f);
		}
	}
	fputc('"', f);
}
