// SPDX-License-Identifier: GPL-2.0
/*
 * hist.c - parser for tracefs hist files (see hist.h for the format).
 *
 * The parser works on a NUL-terminated copy, line by line.  An entry is a
 * logical record from its "{" line to the line holding "} hitcount:"
 * (stacktrace keys span lines), plus the handler lines starting with a tab.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "util.h"

struct parser {
	char *text;		/* NUL-terminated copy */
	char *pos;		/* start of the next line */
	unsigned int line;	/* number of the line last returned */
	struct hist_set *hs;
	struct hist_error *err;
};

static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	if (p->err) {
		p->err->line = line;
		va_start(ap, fmt);
		vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* The next line, NUL-terminated in place (without '\n'), or NULL at EOF. */
static char *next_line(struct parser *p)
{
	char *s = p->pos, *nl;

	if (!*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		p->pos = nl + 1;
	} else {
		p->pos = s + strlen(s);
	}
	p->line++;
	return s;
}

/* Look at the next line without consuming it: its first character. */
static char peek_char(const struct parser *p)
{
	return *p->pos;
}

static bool blank(const char *s)
{
	for (; *s; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

/* A short, printable excerpt of @s for error messages. */
static const char *excerpt(const char *s, char *buf, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && s[i] && i < 40; i++)
		buf[i] = isprint((unsigned char)s[i]) ? s[i] : '?';
	buf[i] = '\0';
	if (s[i] && i + 4 < size)
		strcpy(buf + i, "...");
	return buf;
}

char *hist_spec_field(const char *spec)
{
	const char *dot = strchr(spec, '.');

	return dot ? xstrndup(spec, (size_t)(dot - spec)) : xstrdup(spec);
}

static const char *spec_modifier(const char *spec)
{
	const char *dot = spec ? strchr(spec, '.') : NULL;

	return dot ? dot + 1 : "";
}

static void split_list(const char *s, char ***out, size_t *n)
{
	size_t cap = 0;
	const char *c;

	while (*s) {
		c = strchr(s, ',');
		if (!c)
			c = s + strlen(s);
		GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = xstrndup(s, (size_t)(c - s));
		s = *c ? c + 1 : c;
	}
}

/* "hist:[NAME:]keys=a.sym,b:vals=hitcount,x:sort=...:size=N [active]" */
static void parse_trigger(struct hist *h, const char *info)
{
	char *copy = xstrdup(info), *t = trim(copy), *part, *save = NULL;
	size_t n = strlen(t);

	if (n >= 9 && !strcmp(t + n - 9, " [paused]")) {
		h->paused = true;
		t[n - 9] = '\0';
	} else if (n >= 9 && !strcmp(t + n - 9, " [active]")) {
		t[n - 9] = '\0';
	}
	h->trigger = xstrdup(t);
	if (strncmp(t, "hist:", 5)) {
		free(copy);
		return;
	}
	for (part = strtok_r(t + 5, ":", &save); part;
	     part = strtok_r(NULL, ":", &save)) {
		if (!strncmp(part, "keys=", 5) && !h->key_specs)
			split_list(part + 5, &h->key_specs, &h->nkey_specs);
		else if (!strncmp(part, "vals=", 5) && !h->val_specs)
			split_list(part + 5, &h->val_specs, &h->nval_specs);
		else if (!strchr(part, '=') && !strchr(part, '(') &&
			 !h->name && !h->key_specs)
			h->name = xstrdup(part);
	}
	free(copy);
}

static struct hist *new_hist(struct hist_set *hs)
{
	GROW(hs->hists, hs->cap, hs->n + 1);
	memset(&hs->hists[hs->n], 0, sizeof(hs->hists[0]));
	return &hs->hists[hs->n++];
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/* Where ", IDENT:" starts at or after @s (before @end), or NULL. */
static const char *find_key_sep(const char *s, const char *end,
				const char *name)
{
	const char *q;

	for (; s + 2 < end; s++) {
		if (s[0] != ',' || s[1] != ' ')
			continue;
		q = s + 2;
		if (name) {
			size_t n = strlen(name);

			if ((size_t)(end - q) > n && !strncmp(q, name, n) &&
			    q[n] == ':')
				return s;
			continue;
		}
		while (q < end && is_ident(*q))
			q++;
		if (q > s + 2 && q < end && *q == ':')
			return s;
	}
	return NULL;
}

static bool parse_hex_bracket(const char *t, uint64_t *addr, const char **rest)
{
	const char *close = strchr(t, ']');
	char *num;
	bool ok;

	if (t[0] != '[' || !close || close == t + 1)
		return false;
	num = xstrndup(t + 1, (size_t)(close - t - 1));
	ok = parse_u64(num, 16, addr);
	free(num);
	*rest = close + 1;
	return ok;
}

/* "comm[   pid]" or "name  [ nr]": the bracketed number at the end. */
static bool parse_trailing_number(char *t, uint64_t *num)
{
	size_t n = strlen(t);
	char *open;

	if (!n || t[n - 1] != ']')
		return false;
	open = strrchr(t, '[');
	if (!open)
		return false;
	t[n - 1] = '\0';
	if (!parse_u64(trim(open + 1), 10, num)) {
		t[n - 1] = ']';
		return false;
	}
	*open = '\0';
	return true;
}

static void classify_stack(struct hist_key *k, const char *raw)
{
	struct sbuf b = { 0 };
	char *copy = xstrdup(raw), *line, *save = NULL, *t;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		t = trim(line);
		if (!*t)
			continue;
		if (b.len)
			sbuf_puts(&b, ";");
		sbuf_puts(&b, t);
	}
	free(copy);
	k->kind = HK_STACK;
	k->text = sbuf_steal(&b);
}

static void classify_key(struct hist_key *k, const char *raw, const char *mod)
{
	char *copy = xstrdup(raw), *t = trim(copy);
	const char *rest;
	unsigned long long a, b;
	int used = 0;

	if (raw[0] == '\n' || !strcmp(mod, "stacktrace") ||
	    !strcmp(k->name, "stacktrace") ||
	    !strcmp(k->name, "common_stacktrace")) {
		classify_stack(k, raw);
	} else if (parse_hex_bracket(t, &k->num, &rest)) {
		k->kind = (!strcmp(mod, "sym-offset") || strstr(rest, "+0x")) ?
			  HK_SYM_OFFSET : HK_SYM;
		while (*rest == ' ')
			rest++;
		k->text = xstrdup(rest);
		trim(k->text);
	} else if (sscanf(t, "~ 2^%llu%n", &a, &used) == 1 && !t[used]) {
		k->kind = HK_LOG2;
		k->num = a;
		k->text = xstrdup(t);
	} else if (sscanf(t, "~ %llu-%llu%n", &a, &b, &used) == 2 &&
		   !t[used]) {
		k->kind = HK_BUCKET;
		k->num = a;
		k->num2 = b;
		k->text = xstrdup(t);
	} else if (!strcmp(mod, "hex") && parse_u64(t, 16, &k->num)) {
		k->kind = HK_HEX;
		k->text = xstrdup(t);
	} else if (parse_u64(t, 10, &k->num)) {
		k->kind = HK_NUMBER;
		k->text = xstrdup(t);
	} else if (parse_trailing_number(t, &k->num)) {
		/* "comm[pid]" (.execname) or "name[nr]" (.syscall) */
		k->kind = !strcmp(mod, "syscall") ? HK_SYSCALL : HK_EXECNAME;
		k->text = xstrdup(trim(t));
	} else {
		size_t n = strlen(raw);

		while (n && raw[n - 1] == ' ')
			n--;
		k->kind = HK_STRING;
		k->text = xstrndup(raw, n);
	}
	free(copy);
}

/* The keys between "{ " and @kend ("} hitcount:"). */
static int parse_keys(struct parser *p, struct hist *h, struct hist_entry *e,
		      const char *s, const char *kend, unsigned int line)
{
	size_t cap = 0, i = 0;

	while (s < kend) {
		const char *want = i < h->nkey_specs ? h->key_specs[i] : NULL;
		const char *next = i + 1 < h->nkey_specs ?
				   h->key_specs[i + 1] : NULL;
		char *name, *next_name, *raw;
		const char *colon, *vend, *v;
		struct hist_key *k;

		colon = s;
		while (colon < kend && is_ident(*colon))
			colon++;
		if (colon == s || colon >= kend || *colon != ':')
			return fail(p, line, "entry key %zu: expected 'name:' "
				    "after '{'", i + 1);
		name = xstrndup(s, (size_t)(colon - s));
		v = colon + 1;
		if (*v == ' ')
			v++;
		next_name = next ? hist_spec_field(next) : NULL;
		if (h->nkey_specs && i + 1 == h->nkey_specs)
			vend = NULL;	/* the last key: up to the '}' */
		else
			vend = find_key_sep(v, kend, next_name);
		if (!vend && next_name)
			vend = find_key_sep(v, kend, NULL);
		free(next_name);
		if (!vend)
			vend = kend;
		raw = xstrndup(v, (size_t)(vend - v));
		/* the space before '}' is padding, not part of the value */
		if (vend == kend && raw[0] && raw[strlen(raw) - 1] == ' ')
			raw[strlen(raw) - 1] = '\0';
		GROW(e->keys, cap, e->nkeys + 1);
		k = &e->keys[e->nkeys++];
		memset(k, 0, sizeof(*k));
		k->name = name;
		{
			char *field = want ? hist_spec_field(want) : NULL;
			const char *mod = field && !strcmp(field, name) ?
					  spec_modifier(want) : "";

			classify_key(k, raw, mod);
			free(field);
		}
		free(raw);
		s = vend < kend ? vend + 2 : kend;
		i++;
	}
	if (!e->nkeys)
		return fail(p, line, "entry without keys");
	return 0;
}

static bool val_is(const struct hist *h, const char *name, const char *mod)
{
	size_t i, n = strlen(name);

	for (i = 0; i < h->nval_specs; i++)
		if (!strncmp(h->val_specs[i], name, n) &&
		    h->val_specs[i][n] == '.' &&
		    !strcmp(h->val_specs[i] + n + 1, mod))
			return true;
	return false;
}

static int parse_percent(struct hist_val *v, const char **sp)
{
	const char *s = *sp;
	unsigned int a, b;
	int used = 0;

	while (*s == ' ')
		s++;
	if (!strncmp(s, "[ERROR]", 7)) {
		v->error = true;
		*sp = s + 7;
		return 0;
	}
	if (sscanf(s, "%u.%2u%n", &a, &b, &used) != 2)
		return -1;
	v->num = (uint64_t)a * 100 + b;
	*sp = s + used;
	return 0;
}

static int parse_number_val(const struct hist *h, struct hist_val *v,
			    const char **sp)
{
	const char *s = *sp, *t;
	bool hex = val_is(h, v->name, "hex"), letters = false;
	char *tok;
	bool ok;

	while (*s == ' ')
		s++;
	for (t = s; isxdigit((unsigned char)*t); t++)
		letters |= !isdigit((unsigned char)*t);
	if (t == s || (*t && *t != ' ' && *t != '\t'))
		return -1;
	tok = xstrndup(s, (size_t)(t - s));
	ok = parse_u64(tok, hex || letters ? 16 : 10, &v->num);
	free(tok);
	*sp = t;
	return ok ? 0 : -1;
}

/* "hitcount: N  name: N  pct (%): P.PP  bar: ####" */
static int parse_vals(struct parser *p, struct hist *h, struct hist_entry *e,
		      const char *s, unsigned int line)
{
	size_t cap = 0;
	bool first = true;

	for (;;) {
		const char *colon;
		struct hist_val v = { 0 };
		size_t n;
		int r;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s)
			break;
		colon = strchr(s, ':');
		if (!colon || colon == s)
			return fail(p, line, "entry value: expected 'name: "
				    "number' after '}'");
		n = (size_t)(colon - s);
		if (n > 4 && !strncmp(colon - 4, " (%)", 4)) {
			v.name = xstrndup(s, n - 4);
			v.kind = HV_PERCENT;
			s = colon + 1;
			r = parse_percent(&v, &s);
		} else {
			v.name = xstrndup(s, n);
			s = colon + 1;
			if (*s == ' ')
				s++;
			if (*s == '#' || val_is(h, v.name, "graph")) {
				size_t k;

				v.kind = HV_GRAPH;
				for (k = 0; k < 20 && (*s == '#' || *s == ' ');
				     k++, s++)
					v.num += *s == '#';
				r = 0;
			} else {
				r = parse_number_val(h, &v, &s);
			}
		}
		if (r || strchr(v.name, ' ')) {
			char ex[64];

			excerpt(v.name, ex, sizeof(ex));
			free(v.name);
			return fail(p, line, "entry value '%s': not a number",
				    ex);
		}
		if (first) {
			first = false;
			if (strcmp(v.name, "hitcount")) {
				free(v.name);
				return fail(p, line, "entry: the first value "
					    "is not 'hitcount'");
			}
			e->hitcount = v.num;
			free(v.name);
			continue;
		}
		GROW(e->vals, cap, e->nvals + 1);
		e->vals[e->nvals++] = v;
	}
	if (first)
		return fail(p, line, "entry without 'hitcount'");
	return 0;
}

static void free_entry(struct hist_entry *e)
{
	size_t i;

	for (i = 0; i < e->nkeys; i++) {
		free(e->keys[i].name);
		free(e->keys[i].text);
	}
	for (i = 0; i < e->nvals; i++)
		free(e->vals[i].name);
	free(e->keys);
	free(e->vals);
	free(e->extra);
}

/* Handler lines after an entry: "\tmax:   N  var:   N". */
static void parse_extra(struct parser *p, struct hist_entry *e)
{
	struct sbuf b = { 0 };
	char *l;

	while (peek_char(p) == '\t' && strncmp(p->pos, "\ttriggering", 11)) {
		l = next_line(p);
		if (b.len)
			sbuf_puts(&b, "; ");
		sbuf_puts(&b, trim(l));
	}
	if (b.len)
		e->extra = sbuf_steal(&b);
	sbuf_free(&b);
}

static int parse_entry(struct parser *p, struct hist *h, char *first)
{
	unsigned int line = p->line;
	struct sbuf rec = { 0 };
	struct hist_entry e = { 0 };
	const char *kend = NULL, *q;
	int r;

	sbuf_puts(&rec, first);
	for (;;) {
		for (q = strstr(rec.s, "} hitcount:"); q;
		     q = strstr(q + 1, "} hitcount:"))
			kend = q;
		if (kend)
			break;
		first = next_line(p);
		if (!first) {
			sbuf_free(&rec);
			return fail(p, line, "entry not terminated: no "
				    "'} hitcount:' before the end (truncated?)");
		}
		sbuf_puts(&rec, "\n");
		sbuf_puts(&rec, first);
	}
	e.line = line;
	if (strncmp(rec.s, "{ ", 2) && strncmp(rec.s, "{ stack", 7)) {
		sbuf_free(&rec);
		return fail(p, line, "entry: expected '{ ' at the start");
	}
	r = parse_keys(p, h, &e, rec.s + 2, kend, line);
	if (!r)
		r = parse_vals(p, h, &e, kend + 1, line);
	sbuf_free(&rec);
	if (r) {
		free_entry(&e);
		return r;
	}
	parse_extra(p, &e);
	GROW(h->entries, h->cap, h->nentries + 1);
	h->entries[h->nentries++] = e;
	return 0;
}

static int parse_total(struct parser *p, const char *label, uint64_t *out)
{
	char *l = next_line(p), *t;
	size_t n = strlen(label);

	if (!l)
		return fail(p, p->line + 1, "Totals: missing '%s:' line "
			    "(truncated?)", label);
	t = trim(l);
	if (strncmp(t, label, n) || t[n] != ':' ||
	    !parse_u64(trim(t + n + 1), 10, out))
		return fail(p, p->line, "Totals: expected '%s: NUMBER'", label);
	return 0;
}

static int parse_totals(struct parser *p, struct hist *h)
{
	unsigned int line = p->line;
	int r;

	r = parse_total(p, "Hits", &h->hits);
	if (!r)
		r = parse_total(p, "Entries", &h->total_entries);
	if (!r)
		r = parse_total(p, "Dropped", &h->dropped);
	if (r)
		return r;
	if (h->total_entries != h->nentries)
		return fail(p, line, "Totals: Entries: %llu but %zu entries "
			    "were listed", (unsigned long long)h->total_entries,
			    h->nentries);
	h->have_totals = true;
	return 0;
}

static void parse_snapshot(struct parser *p, struct hist *h, const char *l)
{
	struct sbuf b = { 0 };

	sbuf_puts(&b, l);
	while (peek_char(p) && peek_char(p) != '\n' &&
	       strncmp(p->pos, "Totals:", 7)) {
		sbuf_puts(&b, "\n");
		sbuf_puts(&b, next_line(p));
	}
	free(h->snapshot);
	h->snapshot = sbuf_steal(&b);
}

static int parse_line(struct parser *p, struct hist **cur, char *l)
{
	struct hist *h = *cur;
	char ex[64];

	if (!strncmp(l, "# event histogram", 17)) {
		if (h && !h->have_totals)
			return fail(p, p->line, "a new histogram starts but the "
				    "previous one has no Totals (truncated?)");
		*cur = new_hist(p->hs);
		return 0;
	}
	if (!strncmp(l, "# trigger info:", 15)) {
		if (!h || h->trigger || h->nentries)
			return fail(p, p->line, "'# trigger info:' outside a "
				    "histogram header");
		parse_trigger(h, l + 15);
		return 0;
	}
	if (l[0] == '#')
		return 0;
	if (!h)
		return fail(p, p->line, "'%s': expected '# event histogram' "
			    "first", excerpt(l, ex, sizeof(ex)));
	if (h->have_totals)
		return fail(p, p->line, "'%s' after Totals",
			    excerpt(l, ex, sizeof(ex)));
	if (l[0] == '{')
		return parse_entry(p, h, l);
	if (!strncmp(l, "Snapshot taken", 14)) {
		parse_snapshot(p, h, l);
		return 0;
	}
	if (!strcmp(trim(l), "Totals:"))
		return parse_totals(p, h);
	return fail(p, p->line, "'%s': not a hist entry ('{ key: value } "
		    "hitcount: N'), comment or Totals",
		    excerpt(l, ex, sizeof(ex)));
}

int hist_parse(const char *buf, size_t len, struct hist_set *out,
	       struct hist_error *err)
{
	struct parser p = { 0 };
	struct hist *cur = NULL;
	char *l;
	int r = 0;

	memset(out, 0, sizeof(*out));
	if (err)
		memset(err, 0, sizeof(*err));
	p.hs = out;
	p.err = err;
	if (memchr(buf, '\0', len))
		return fail(&p, 0, "binary data (a NUL byte) in hist text");
	p.text = xstrndup(buf, len);
	p.pos = p.text;
	while (!r && (l = next_line(&p))) {
		if (blank(l))
			continue;
		r = parse_line(&p, &cur, l);
	}
	if (!r && !out->n)
		r = fail(&p, 0, "no histogram in the text (expected "
			 "'# event histogram')");
	if (!r && cur && !cur->have_totals)
		r = fail(&p, p.line, "histogram has no Totals at the end "
			 "(truncated?)");
	free(p.text);
	if (r)
		hist_set_free(out);
	return r;
}

static void free_list(char **l, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(l[i]);
	free(l);
}

void hist_set_free(struct hist_set *hs)
{
	size_t i, j;

	for (i = 0; i < hs->n; i++) {
		struct hist *h = &hs->hists[i];

		for (j = 0; j < h->nentries; j++)
			free_entry(&h->entries[j]);
		free(h->entries);
		free(h->trigger);
		free(h->name);
		free(h->snapshot);
		free_list(h->key_specs, h->nkey_specs);
		free_list(h->val_specs, h->nval_specs);
	}
	free(hs->hists);
	memset(hs, 0, sizeof(*hs));
}

const struct hist_key *hist_entry_key(const struct hist_entry *e,
				      const char *name)
{
	size_t i;

	for (i = 0; i < e->nkeys; i++)
		if (!strcmp(e->keys[i].name, name))
			return &e->keys[i];
	return NULL;
}

const struct hist_val *hist_entry_val(const struct hist_entry *e,
				      const char *name)
{
	size_t i;

	for (i = 0; i < e->nvals; i++)
		if (!strcmp(e->vals[i].name, name))
			return &e->vals[i];
	return NULL;
}

const char *hist_key_kind_name(enum hist_key_kind k)
{
	static const char *const names[] = {
		[HK_NUMBER] = "number", [HK_HEX] = "hex", [HK_SYM] = "sym",
		[HK_SYM_OFFSET] = "sym-offset", [HK_EXECNAME] = "execname",
		[HK_SYSCALL] = "syscall", [HK_LOG2] = "log2",
		[HK_BUCKET] = "bucket", [HK_STRING] = "string",
		[HK_STACK] = "stacktrace",
	};

	return (unsigned int)k < ARRAY_SIZE(names) ? names[k] : "?";
}

char *hist_entry_key_text(const struct hist_entry *e)
{
	struct sbuf b = { 0 };
	size_t i;

	for (i = 0; i < e->nkeys; i++) {
		const struct hist_key *k = &e->keys[i];

		if (i)
			sbuf_puts(&b, ", ");
		if (k->kind == HK_EXECNAME || k->kind == HK_SYSCALL)
			sbuf_printf(&b, "%s[%llu]", k->text,
				    (unsigned long long)k->num);
		else
			sbuf_puts(&b, k->text);
	}
	return sbuf_steal(&b);
}
