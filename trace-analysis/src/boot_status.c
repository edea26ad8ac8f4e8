// SPDX-License-Identifier: GPL-2.0
/* boot_status.c - parse tracefs/boot_status (see boot_status.h). */
#include <stdlib.h>
#include <string.h>

#include "boot_status.h"
#include "util.h"

/* The last occurrence of @needle in @s, or NULL. */
static const char *last_str(const char *s, const char *needle)
{
	const char *p, *last = NULL;

	for (p = strstr(s, needle); p; p = strstr(p + 1, needle))
		last = p;
	return last;
}

/* ` = "VALUE"[ # NOTE]`: a value may hold quotes; the note never does. */
static void parse_value(struct bs_line *l, const char *v)
{
	const char *end = last_str(v, "\" # ");
	size_t n = strlen(v);

	if (end) {
		l->value = xstrndup(v, (size_t)(end - v));
		l->note = xstrdup(end + 4);
	} else if (n && v[n - 1] == '"') {
		l->value = xstrndup(v, n - 1);
	} else {
		l->value = xstrdup(v);	/* no closing quote: keep it all */
	}
}

static void parse_line(struct bs_line *l, const char *t)
{
	const char *sp = strchr(t, ' '), *k, *rest;

	l->text = xstrdup(t);
	if (!sp || sp == t || !sp[1] || sp[1] == ' ') {
		l->word = xstrdup("");
		return;
	}
	l->word = xstrndup(t, (size_t)(sp - t));
	k = sp + 1;
	rest = k + strcspn(k, " ");
	l->key = xstrndup(k, (size_t)(rest - k));
	if (!strncmp(rest, " = \"", 4))
		parse_value(l, rest + 4);
	else if (!strncmp(rest, " # ", 3))
		l->note = xstrdup(rest + 3);
	else if (*rest)
		l->note = xstrdup(rest + 1);	/* unknown shape: keep it */
}

void bs_parse(const char *text, struct bs_file *bs)
{
	unsigned int lineno = 0;
	const char *p = text, *nl;

	memset(bs, 0, sizeof(*bs));
	while (p && *p) {
		char *t;

		nl = strchr(p, '\n');
		t = nl ? xstrndup(p, (size_t)(nl - p)) : xstrdup(p);
		lineno++;
		if (*trim(t)) {
			struct bs_line *l;

			bs->lines = xrealloc(bs->lines,
					     (bs->n + 1) * sizeof(*bs->lines));
			l = &bs->lines[bs->n++];
			memset(l, 0, sizeof(*l));
			l->lineno = lineno;
			parse_line(l, trim(t));
		}
		free(t);
		p = nl ? nl + 1 : NULL;
	}
}

void bs_free(struct bs_file *bs)
{
	size_t i;

	for (i = 0; i < bs->n; i++) {
		free(bs->lines[i].word);
		free(bs->lines[i].key);
		free(bs->lines[i].value);
		free(bs->lines[i].note);
		free(bs->lines[i].text);
	}
	free(bs->lines);
	memset(bs, 0, sizeof(*bs));
}
