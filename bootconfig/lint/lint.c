// SPDX-License-Identifier: GPL-2.0
/*
 * lint.c - walk a parsed config and check every key against the trace_boot
 * grammar (grammar.c) and the kernel's knowledge (knowledge.c).
 *
 * Positions: a node's text offset is where its word or value starts in the
 * input (libbootconfig keeps the kernel's layout: offsets into a copy of
 * the input).  A quoted value is reported at its opening quote.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "knowledge.h"
#include "lint.h"

#define MAX_BUF_LEN	256	/* trace_boot.c's buffer, NUL included */
#define PAGE_SIZE	4096
#define MAX_DEFS	256

struct def {
	const char *group;	/* "kprobes" or "synthetic" */
	const char *name;
	const struct bconf_node *fields;	/* synthetic: first value */
	const struct bconf_node *node;		/* ftrace[.instance.X].event.G.E */
};

struct ctx {
	const struct bconf *bc;
	const char *buf;
	size_t len;
	const struct lint_knowledge *k;
	struct lint_result *r;
	struct def defs[MAX_DEFS];
	int ndefs;
	int oom;
};

/* --- diagnostics ------------------------------------------------------ */

static void position(const struct ctx *c, size_t off, unsigned int *line,
		     unsigned int *col)
{
	size_t i, start = 0;

	*line = 1;
	if (off > c->len)
		off = c->len;
	for (i = 0; i < off; i++) {
		if (c->buf[i] == '\n') {
			(*line)++;
			start = i + 1;
		}
	}
	*col = (unsigned int)(off - start) + 1;
}

static struct lint_diag *add_diag(struct lint_result *r)
{
	if (r->count == r->alloc) {
		size_t n = r->alloc ? r->alloc * 2 : 16;
		struct lint_diag *d = realloc(r->diags, n * sizeof(*d));

		if (!d)
			return NULL;
		r->diags = d;
		r->alloc = n;
	}
	memset(&r->diags[r->count], 0, sizeof(r->diags[0]));
	return &r->diags[r->count++];
}

static char *key_of(const struct bconf_node *n)
{
	char buf[BCONF_KEYLEN_MAX * 2];

	if (n && bconf_node_is_value(n))
		n = bconf_node_parent(n);
	if (!n || bconf_compose_key_raw(n, NULL, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return strdup(buf);
}

__attribute__((format(printf, 6, 7)))
static void diag_at(struct ctx *c, size_t off, const struct bconf_node *n,
		    enum lint_severity sev, const char *rule,
		    const char *fmt, ...)
{
	struct lint_diag *d = add_diag(c->r);
	va_list ap;
	int ret;

	if (!d) {
		c->oom = 1;
		return;
	}
	d->severity = sev;
	d->rule = rule;
	position(c, off, &d->line, &d->col);
	d->key = key_of(n);
	va_start(ap, fmt);
	ret = vasprintf(&d->msg, fmt, ap);
	va_end(ap);
	if (ret < 0)
		d->msg = NULL;
	if (!d->key || !d->msg) {
		free(d->key);
		free(d->msg);
		c->r->count--;
		c->oom = 1;
		return;
	}
	if (sev == LINT_ERROR)
		c->r->errors++;
	else if (sev == LINT_WARNING)
		c->r->warnings++;
	else
		c->r->notes++;
}

/* The offset of a node, at the opening quote of a quoted value. */
static size_t node_at(const struct ctx *c, const struct bconf_node *n)
{
	size_t off;

	if (!n)
		return 0;
	off = bconf_node_offset(n);

	if (bconf_node_is_value(n) && off > 0 && off <= c->len &&
	    (c->buf[off - 1] == '"' || c->buf[off - 1] == '\''))
		off--;
	return off;
}

#define diag(c, n, sev, rule, ...) \
	diag_at(c, node_at(c, n), n, sev, rule, __VA_ARGS__)

/* The closest of @n candidates to @word (edit distance <= 2), or NULL. */
static const char *closest(const char *word, const char *const *cand,
			   const size_t *clen, int n)
{
	unsigned int best = 3, d;
	const char *res = NULL;
	char tmp[128];
	int i;

	for (i = 0; i < n; i++) {
		size_t l = clen ? clen[i] : strlen(cand[i]);

		if (l >= sizeof(tmp))
			continue;
		memcpy(tmp, cand[i], l);
		tmp[l] = '\0';
		d = lint_distance(word, tmp, 2);
		if (d < best && d < strlen(word)) {
			best = d;
			res = cand[i];
		}
	}
	return res;
}

unsigned int lint_distance(const char *a, const char *b, unsigned int max)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	unsigned int row[128], prev, tmp, best;

	if (lb >= 128 || la >= 128)
		return max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		row[j] = (unsigned int)j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = (unsigned int)i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
			if (row[j] < best)
				best = row[j];
		}
		if (best > max)
			return max + 1;
	}
	return row[lb] > max ? max + 1 : row[lb];
}

/* --- values -------------------------------------------------------------- */

static bool long_is_error(const struct ctx *c)
{
	return c->k != NULL;
}

/* A setting of @len bytes (NUL excluded) in trace_boot's 256-byte buffer. */
static void check_len(struct ctx *c, const struct bconf_node *v, size_t len,
		      const char *what)
{
	if (len + 1 <= MAX_BUF_LEN || lint_knowledge_long_settings(c->k))
		return;
	if (long_is_error(c))
		diag(c, v, LINT_ERROR, "long-setting",
		     "%s is %zu bytes: kernel %s has trace_boot's 256-byte limit (without the boottrace series) and fails it",
		     what, len, lint_knowledge_key(c->k));
	else
		diag(c, v, LINT_WARNING, "long-setting",
		     "%s is %zu bytes: kernels without the boottrace series fail settings over 255 bytes",
		     what, len);
}

static const struct def *find_def(const struct ctx *c, const char *group,
				  const char *name)
{
	int i;

	for (i = 0; i < c->ndefs; i++)
		if (!strcmp(c->defs[i].group, group) &&
		    !strcmp(c->defs[i].name, name))
			return &c->defs[i];
	return NULL;
}

static bool event_exists(const struct ctx *c, const char *group,
			 const char *name)
{
	if (find_def(c, group, name))
		return true;
	return c->k && kn_event(c->k, group, name);
}

/*
 * A group that is not there at boot: events of a module.  Kernels with the
 * series' module-events patch keep the settings until the module loads;
 * others fail them.  Returns true when reported.
 */
static bool unknown_module_event(struct ctx *c, const struct bconf_node *ev,
				 const struct bconf_node *n, const char *group,
				 const char *name)
{
	const struct lint_knowledge *k = c->k;
	bool kept = strstr(k->series, "Apply-the-settings-of-module-events");
	char mod[128];

	if (!kn_module_event(k, group, NULL, mod, sizeof(mod))) {
		if (!kept)
			return false;
		diag(c, n, LINT_WARNING, "module-event",
		     "kernel %s has no event group '%s' at boot and none of its modules defines it: the kernel keeps these settings for a module that may never come (misspelt?)",
		     k->key, group);
		return true;
	}
	if (strcmp(name, "*") && !kn_module_event(k, group, name, mod, sizeof(mod))) {
		diag(c, ev, LINT_ERROR, "event",
		     "module %s of kernel %s has no event %s:%s", mod, k->key,
		     group, name);
		return true;
	}
	if (kept)
		diag(c, n, LINT_NOTE, "module-event",
		     "event group '%s' comes with module %s: the kernel applies these settings when it is loaded",
		     group, mod);
	else
		diag(c, n, LINT_ERROR, "module-event",
		     "event group '%s' comes with module %s, not loaded when trace_boot runs: kernel %s fails these settings (the series' module-events patch keeps them)",
		     group, mod, k->key);
	return true;
}

/* Report an event group kernel knowledge @c->k lacks, with a did-you-mean. */
static void unknown_group(struct ctx *c, const struct bconf_node *n,
			  const char *group)
{
	const struct lint_knowledge *k = c->k;
	const char *cand[1024], *best;
	int nc = 0;
	size_t i;

	for (i = 0; i < k->nevents && nc < 1024; i++)
		if (!nc || strcmp(cand[nc - 1], k->events[i].group))
			cand[nc++] = k->events[i].group;
	best = closest(group, cand, NULL, nc);
	diag(c, n, LINT_ERROR, "event",
	     "kernel %s has no event group '%s'%s%s%s",
	     k->key, group, best ? ": did you mean '" : "",
	     best ? best : "", best ? "'?" : "");
}

/* Report an unknown GROUP:EVENT at @n, with a did-you-mean. */
static void unknown_event(struct ctx *c, const struct bconf_node *n,
			  const char *group, const char *name)
{
	const struct lint_knowledge *k = c->k;
	const struct bconf_node *ev = n;
	const char *cand[1024];
	const char *best;
	int nc = 0;
	size_t i;

	if (!strcmp(group, "kprobes") || !strcmp(group, "synthetic")) {
		diag(c, n, LINT_ERROR, "event",
		     "no %s event '%s': the config does not define it (%s)",
		     group, name, !strcmp(group, "kprobes") ?
		     "ftrace.event.kprobes.NAME.probes" :
		     "ftrace.event.synthetic.NAME.fields");
		return;
	}
	if (!k)
		return;
	if (!kn_has_group(k, group) && !find_def(c, group, name) &&
	    strcmp(group, "kprobes") && strcmp(group, "synthetic")) {
		if (!bconf_node_is_value(n) && bconf_node_parent(n))
			n = bconf_node_parent(n);	/* at the group's word */
		if (!unknown_module_event(c, ev, n, group, name))
			unknown_group(c, n, group);
		return;
	}
	for (i = 0; i < k->nevents && nc < 1024; i++)
		if (!strcmp(k->events[i].group, group))
			cand[nc++] = k->events[i].name;
	best = closest(name, cand, NULL, nc);
	diag(c, n, LINT_ERROR, "event",
		     "kernel %s has no event %s:%s%s%s%s", k->key, group, name,
		     best ? ": did you mean '" : "", best ? best : "",
		     best ? "'?" : "");
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static void check_events_list(struct ctx *c, const struct bconf_node *v)
{
	for (; v; v = bconf_value_next(v)) {
		const char *s = bconf_node_data(v), *colon;
		char group[128];

		check_len(c, v, strlen(s), "the event name");
		if (*s == '!')
			s++;
		if (!c->k || is_glob(s) || !*s)
			continue;
		colon = strchr(s, ':');
		if (!colon) {
			size_t i;

			for (i = 0; i < c->k->nevents; i++)
				if (!strcmp(c->k->events[i].name, s) ||
				    !strcmp(c->k->events[i].group, s))
					break;
			if (i == c->k->nevents && !find_def(c, "kprobes", s) &&
			    !find_def(c, "synthetic", s))
				diag(c, v, LINT_ERROR, "event",
				     "kernel %s has no event or event group '%s'",
				     c->k->key, s);
			continue;
		}
		if ((size_t)(colon - s) >= sizeof(group))
			continue;
		memcpy(group, s, (size_t)(colon - s));
		group[colon - s] = '\0';
		if (!strcmp(colon + 1, "") || !strcmp(colon + 1, "*")) {
			if (!kn_has_group(c->k, group) && strcmp(group, "kprobes") &&
			    strcmp(group, "synthetic"))
				unknown_event(c, v, group, "*");
			continue;
		}
		if (!event_exists(c, group, colon + 1))
			unknown_event(c, v, group, colon + 1);
	}
}

/* bconf_memparse(), as trace_boot reads buffer_size. */
static void check_size(struct ctx *c, const struct bconf_node *v)
{
	const char *s = bconf_node_data(v), *end;
	unsigned long long n;

	if (!bconf_memparse(s, &n, &end)) {
		diag(c, v, LINT_ERROR, "buffer-size",
		     "buffer_size '%s' is not a size: use bytes or a K/M/G suffix, e.g. 1M",
		     s);
		return;
	}
	if (*end && strcmp(end, "B") && strcmp(end, "b") && strcmp(end, "iB"))
		diag(c, v, LINT_WARNING, "buffer-size",
		     "buffer_size '%s': the kernel ignores '%s' after the size",
		     s, end);
	if (n < PAGE_SIZE)
		diag(c, v, LINT_ERROR, "buffer-size",
		     "buffer_size '%s' is %llu bytes, below the kernel's minimum of one page (4096): the kernel reports 'Buffer size is too small'",
		     s, n);
}

/* cpumask_parse(): hex digit groups of at most 8, separated by commas. */
static void check_cpumask(struct ctx *c, const struct bconf_node *v)
{
	const char *s = bconf_node_data(v), *p;
	int group = 0;

	for (p = s; *p; p++) {
		if (*p == ',' && group) {
			group = 0;
			continue;
		}
		if (!isxdigit((unsigned char)*p) || ++group > 8)
			break;
	}
	if (*p || !group)
		diag(c, v, LINT_ERROR, "cpumask",
		     "cpumask '%s' is not a hex CPU mask (e.g. 3 for CPUs 0-1, or ff,ffffffff)",
		     s);
}

static void check_tracing_on(struct ctx *c, const struct bconf_node *v)
{
	const char *s = bconf_node_data(v), *p = s;

	if (*p == '+')
		p++;
	if (*p && strspn(p, "0123456789") == strlen(p))
		return;
	if (!*s)
		return;
	diag(c, v, LINT_ERROR, "tracing-on",
	     "tracing_on '%s' is not a number: the kernel fails to parse it ('Failed to set tracing on'); use 0 or 1",
	     s);
}

static void check_in_list(struct ctx *c, const struct bconf_node *v,
			  const struct klist *l, const char *rule,
			  const char *what, const char *name, const char *note)
{
	const char *best;

	if (!c->k || !*name || kn_in_list(l, name))
		return;
	best = closest(name, (const char *const *)l->items, NULL,
		       (int)l->count);
	diag(c, v, LINT_ERROR, rule, "kernel %s has no %s '%s'%s%s%s%s",
	     c->k->key, what, name, best ? ": did you mean '" : "",
	     best ? best : "", best ? "'?" : "", note);
}

static void check_options(struct ctx *c, const struct bconf_node *v)
{
	for (; v; v = bconf_value_next(v)) {
		const char *s = bconf_node_data(v);

		check_len(c, v, strlen(s), "the option");
		if (!strncmp(s, "no", 2) && c->k && !kn_in_list(&c->k->options, s))
			s += 2;
		check_in_list(c, v, c->k ? &c->k->options : NULL, "option",
			      "trace option", s,
			      " (tracer options cannot be set: trace_boot applies options before the tracer)");
	}
}

static void check_funcs(struct ctx *c, const struct bconf_node *v)
{
	for (; v; v = bconf_value_next(v)) {
		const char *s = bconf_node_data(v);

		if (!c->k || is_glob(s) || strchr(s, ':') || !*s ||
		    kn_has_symbol(c->k, s))
			continue;
		diag(c, v, LINT_ERROR, "ftrace-filter",
		     "kernel %s has no function '%s' (not in its System.map)",
		     c->k->key, s);
	}
}

static void check_probes(struct ctx *c, const struct bconf_node *v,
			 const char *event)
{
	for (; v; v = bconf_value_next(v)) {
		const char *s = bconf_node_data(v);
		char sym[256];
		size_t n = strcspn(s, " \t+%");
		const char *colon;

		check_len(c, v, strlen("p:kprobes/") + strlen(event) + 1 +
			  strlen(s), "the composed kprobe definition");
		if (!c->k || !n || n >= sizeof(sym) || isdigit((unsigned char)*s))
			continue;
		memcpy(sym, s, n);
		sym[n] = '\0';
		colon = strchr(sym, ':');
		if (colon)
			continue;	/* MODULE:SYMBOL: modules load later */
		if (!kn_has_symbol(c->k, sym))
			diag(c, v, LINT_ERROR, "kprobe-symbol",
			     "kernel %s has no function '%s' to probe (not in its System.map)",
			     c->k->key, sym);
	}
}

static void check_synth(struct ctx *c, const struct bconf_node *v,
			const char *event)
{
	const struct bconf_node *first = v;
	size_t len = strlen(event);

	for (; v; v = bconf_value_next(v))
		len += 2 + strlen(bconf_node_data(v));
	check_len(c, first, len, "the composed synthetic event definition");
}

/* The field named by a synthetic definition "TYPE NAME[N]". */
static bool synth_has_field(const struct bconf_node *v, const char *field)
{
	size_t n = strlen(field);

	for (; v; v = bconf_value_next(v)) {
		const char *s = bconf_node_data(v), *end = s + strcspn(s, "[;");
		const char *p;

		while (end > s && end[-1] == ' ')
			end--;
		p = end;
		while (p > s && p[-1] != ' ')
			p--;
		if ((size_t)(end - p) == n && !strncmp(p, field, n))
			return true;
	}
	return false;
}

/* Whether @s is one of the @n strings of @names. */
static bool in_names(const char *s, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return true;
	return false;
}

static bool common_field(const char *f)
{
	static const char *const names[] = {
		"common_pid", "common_type", "common_flags",
		"common_preempt_count", "common_cpu", "common_comm",
		"common_timestamp", "CPU", "COMM", "cpu", "comm",
	};

	return in_names(f, names, sizeof(names) / sizeof(names[0]));
}

/*
 * Check the field names of a filter: identifiers before an operator.  The
 * filter is value @v from @p on (a trigger's filter follows its "if").
 */
static void check_filter_text(struct ctx *c, const struct bconf_node *v,
			      const char *p, const char *group,
			      const char *event)
{
	const struct kevent *ke = c->k ? kn_event(c->k, group, event) : NULL;
	const struct def *d = find_def(c, group, event);
	const char *s = bconf_node_data(v);

	if (!ke && !(d && d->fields))
		return;
	while (*p) {
		const char *w, *q;
		char field[128];

		if (*p == '"' || *p == '\'') {
			q = strchr(p + 1, *p);
			p = q ? q + 1 : p + strlen(p);
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		w = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!*q || !strchr("=!<>~&", *q) || (q[0] == '&' && q[1] == '&') ||
		    (size_t)(p - w) >= sizeof(field))
			continue;
		memcpy(field, w, (size_t)(p - w));
		field[p - w] = '\0';
		if (common_field(field) || (ke && kn_event_has_field(ke, field)) ||
		    (d && synth_has_field(d->fields, field)))
			continue;
		diag_at(c, bconf_node_offset(v) + (size_t)(w - s), v, LINT_ERROR,
			"filter-field", "event %s:%s has no field '%s'",
			group, event, field);
	}
}

static void check_filter_fields(struct ctx *c, const struct bconf_node *v,
				const char *group, const char *event)
{
	check_filter_text(c, v, bconf_node_data(v), group, event);
}

/* --- histograms: compose like trace_boot_compose_hist_cmd() ------------ */

static size_t list_len(const struct bconf_node *h, const char *key)
{
	const struct bconf_node *v;
	size_t len = 0;

	if (!bconf_find_value(NULL, h, key, &v) || !v)
		return 0;
	len = 2 + strlen(key);
	for (; v; v = bconf_value_next(v))
		len += strlen(bconf_node_data(v)) + 1;
	return len - 1;
}

static size_t nospace_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += !isspace((unsigned char)*s);
	return n;
}

static size_t handler_len(const struct bconf_node *hn, const char *param)
{
	const struct bconf_node *k;
	size_t len = 0;

	for (k = bconf_node_subkey(hn); k; k = bconf_node_next(k)) {
		const char *w = bconf_node_data(k);
		const struct bconf_node *v;

		if (isdigit((unsigned char)*w)) {
			len += handler_len(k, param);
			continue;
		}
		if (!strcmp(w, param)) {
			v = bconf_node_value(k);
			len += 3 + strlen(bconf_node_data(hn)) +
			       (v ? strlen(bconf_node_data(v)) : 0);
		} else if (!strcmp(w, "trace") || !strcmp(w, "save") ||
			   !strcmp(w, "snapshot")) {
			len += 3 + strlen(w);
			for (v = bconf_node_value(k); v; v = bconf_value_next(v))
				len += strlen(bconf_node_data(v)) + 1;
		}
	}
	return len;
}

static bool hist_special(const char *f)
{
	static const char *const names[] = {
		"hitcount", "common_timestamp", "stacktrace",
		"common_stacktrace", "cpu", "common_cpu",
	};

	return in_names(f, names, sizeof(names) / sizeof(names[0]));
}

/* The fields named by keys, values and sort: FIELD[.MODIFIER]... */
static void check_hist_fields(struct ctx *c, const struct bconf_node *h,
			      const char *group, const char *event)
{
	static const char *const lists[] = { "keys", "values", "sort" };
	const struct kevent *ke = c->k ? kn_event(c->k, group, event) : NULL;
	const struct def *d = find_def(c, group, event);
	const struct bconf_node *vars = bconf_find_node(NULL, h, "var"), *v;
	char f[128];
	size_t i, n;

	if (!ke && !(d && d->fields))
		return;
	for (i = 0; i < 3; i++) {
		if (!bconf_find_value(NULL, h, lists[i], &v))
			continue;
		for (; v; v = bconf_value_next(v)) {
			const char *s = bconf_node_data(v);

			n = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			if (!n || n >= sizeof(f) || (s[n] && s[n] != '.') ||
			    isdigit((unsigned char)*s))
				continue;	/* a variable, an expression */
			memcpy(f, s, n);
			f[n] = '\0';
			if (hist_special(f) || common_field(f) ||
			    (ke && kn_event_has_field(ke, f)) ||
			    (d && synth_has_field(d->fields, f)) ||
			    (vars && bconf_find_node(NULL, vars, f)))
				continue;
			diag(c, v, LINT_ERROR, "hist-field",
			     "event %s:%s has no field '%s' (hist %s): the kernel fails the hist trigger",
			     group, event, f, lists[i]);
		}
	}
	if (bconf_find_value(NULL, h, "filter", &v) && v)
		check_filter_fields(c, v, group, event);
}

static void check_hist(struct ctx *c, const struct bconf_node *h)
{
	static const char *const handlers[][2] = {
		{ "onmax", "var" }, { "onchange", "var" }, { "onmatch", "event" },
	};
	const struct bconf_node *n, *v, *e;
	const char *p;
	size_t len = 4, i;
	bool has_inst = false;

	for (n = bconf_node_subkey(h); n; n = bconf_node_next(n))
		if (isdigit((unsigned char)*bconf_node_data(n))) {
			check_hist(c, n);
			has_inst = true;
		}
	for (n = bconf_node_subkey(h); n; n = bconf_node_next(n))
		if (!isdigit((unsigned char)*bconf_node_data(n)))
			break;
	if (!bconf_find_node(NULL, h, "keys")) {
		/* Only numbered histograms below: each was checked above. */
		if (n || !has_inst)
			diag(c, h, LINT_ERROR, "hist-keys",
			     "this histogram has no 'keys': the kernel ignores it (hist requires keys)");
		return;
	}
	e = bconf_node_parent(h);
	if (e && isdigit((unsigned char)*bconf_node_data(h)))
		e = bconf_node_parent(e);
	if (e && bconf_node_parent(e))
		check_hist_fields(c, h, bconf_node_data(bconf_node_parent(e)),
				  bconf_node_data(e));
	len += list_len(h, "keys") + list_len(h, "values") + list_len(h, "sort");
	if ((p = bconf_find_value(NULL, h, "size", NULL)))
		len += 6 + strlen(p);
	if ((p = bconf_find_value(NULL, h, "name", NULL)))
		len += 6 + strlen(p);
	n = bconf_find_node(NULL, h, "var");
	for (n = n ? bconf_node_subkey(n) : NULL; n; n = bconf_node_next(n)) {
		v = bconf_node_value(n);
		len += 2 + strlen(bconf_node_data(n)) +
		       (v ? nospace_len(bconf_node_data(v)) : 0);
	}
	if (bconf_find_node(NULL, h, "pause") || bconf_find_node(NULL, h, "clear"))
		len += 6;
	else if (bconf_find_node(NULL, h, "continue"))
		len += 9;
	for (i = 0; i < 3; i++) {
		n = bconf_find_node(NULL, h, handlers[i][0]);
		if (n)
			len += handler_len(n, handlers[i][1]);
	}
	if ((p = bconf_find_value(NULL, h, "filter", NULL)))
		len += 4 + strlen(p);
	check_len(c, h, len, "the composed hist command");
}

/* --- trigger actions: trigger_process_regex() ---------------------------- */

#define SPACES		" \t\n\v\f\r"	/* skip_spaces(): isspace() */
#define MAX_TRIGGERS	64
#define NCMDS		(sizeof(trig_cmds) / sizeof(trig_cmds[0]))

enum trig_parse { TRIG_PLAIN, TRIG_ENABLE, TRIG_HIST };

/*
 * The kernel's trigger commands and their parse functions:
 * event_trigger_parse(), event_enable_trigger_parse() and the hist
 * parser (left to the kernel).  Two triggers of one type on an event
 * clash (EEXIST); for enable/disable, of one type and target event.
 */
static const struct {
	const char *name;
	enum trig_parse parse;
	const char *type;
} trig_cmds[] = {
	{ "traceoff", TRIG_PLAIN, "traceon/traceoff" },	/* did you mean: first */
	{ "traceon", TRIG_PLAIN, "traceon/traceoff" },
	{ "snapshot", TRIG_PLAIN, "snapshot" },
	{ "stacktrace", TRIG_PLAIN, "stacktrace" },
	{ "enable_event", TRIG_ENABLE, "enable_event/disable_event" },
	{ "disable_event", TRIG_ENABLE, "enable_event/disable_event" },
	{ "enable_hist", TRIG_ENABLE, "enable_hist/disable_hist" },
	{ "disable_hist", TRIG_ENABLE, "enable_hist/disable_hist" },
	{ "hist", TRIG_HIST, NULL },
};

/* The triggers the actions of one event have registered so far, in order. */
struct trig_set {
	struct {
		const char *type;
		char target[256];	/* SYSTEM:EVENT, "" but for enable/disable */
		const char *action;	/* the value that registered it */
	} t[MAX_TRIGGERS];
	int n;
};

/* kstrtoul(@s, 0, ...) of the @len bytes at @s, unsigned long of 64 bits. */
static int kernel_kstrtoul(const char *s, size_t len)
{
	const char *end = s + len, *p;
	unsigned long long v = 0;
	unsigned int base = 10, d;
	bool over = false;

	if (s < end && *s == '+')
		s++;
	if (s < end && *s == '0') {
		base = 8;
		if (end - s > 2 && tolower((unsigned char)s[1]) == 'x' &&
		    isxdigit((unsigned char)s[2])) {
			base = 16;
			s += 2;
		}
	}
	for (p = s; p < end; p++) {
		int ch = tolower((unsigned char)*p);

		if (ch >= '0' && ch <= '9')
			d = (unsigned int)(ch - '0');
		else if (ch >= 'a' && ch <= 'f')
			d = (unsigned int)(ch - 'a' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (ULLONG_MAX - d) / base)
			over = true;
		else
			v = v * base + d;
	}
	if (over)
		return -ERANGE;
	if (p == s)
		return -EINVAL;
	if (p < end && *p == '\n')
		p++;
	return p < end ? -EINVAL : 0;
}

/* event_trigger_parse_num(): the count, up to a ':'.  False when it fails. */
static bool check_count(struct ctx *c, const struct bconf_node *v,
			const char *s, size_t len, const char *cmd)
{
	size_t n = strcspn(s, ":");
	int ret;

	if (n > len)
		n = len;
	if (!n) {
		diag(c, v, LINT_ERROR, "action",
		     "'%s' has an empty count after its event: the kernel fails the action (drop the ':' or give a number)",
		     cmd);
		return false;
	}
	ret = kernel_kstrtoul(s, n);
	if (ret == -ERANGE)
		diag(c, v, LINT_ERROR, "action",
		     "the count '%.*s' of '%s' is too large for an unsigned long: the kernel fails the action",
		     (int)n, s, cmd);
	else if (ret)
		diag(c, v, LINT_ERROR, "action",
		     "the count '%.*s' of '%s' is not a number (decimal, 0x hex or 0 octal): the kernel fails the action",
		     (int)n, s, cmd);
	return !ret;
}

/*
 * set_trigger_filter(): "if FILTER", a filter of the event of the action.
 * @f runs to the end of the value.  False when the kernel fails it.
 */
static bool check_trigger_filter(struct ctx *c, const struct bconf_node *v,
				 const char *f, const char *const *w,
				 const char *cmd, bool count)
{
	unsigned int errors = c->r->errors;

	if (strcspn(f, " \t") != 2 || strncmp(f, "if", 2)) {
		diag(c, v, LINT_ERROR, "action",
		     "'%s' after '%s' is not %s'if FILTER': the kernel fails the action",
		     f, cmd, count ? "a count or " : "");
		return false;
	}
	if (!f[2] || !f[3 + strspn(f + 3, SPACES)]) {
		diag(c, v, LINT_ERROR, "action",
		     "no filter after 'if': the kernel fails the action");
		return false;
	}
	check_filter_text(c, v, f + 3, w[1], w[2]);
	return c->r->errors == errors;
}

/* Whether the event of the action (@w) exists when trace_boot applies it. */
static bool action_at_boot(const struct ctx *c, const char *const *w)
{
	return find_def(c, w[1], w[2]) || (c->k && kn_event(c->k, w[1], w[2]));
}

static int sibling_index(const struct bconf_node *n)
{
	const struct bconf_node *p = bconf_node_parent(n), *s;
	int i = 0;

	for (s = p ? bconf_node_subkey(p) : NULL; s && s != n; s = bconf_node_next(s))
		i++;
	return i;
}

/*
 * Whether trace_boot gets to event node @a (ftrace[.instance.X].event.G.E)
 * no later than to @b: the top level, then each instance; in each, the
 * groups and their events in the order of the config.
 */
static bool handled_before(const struct bconf_node *a,
			   const struct bconf_node *b)
{
	const struct bconf_node *n[2] = { a, b }, *inst;
	int key[2][3], i, j;

	for (i = 0; i < 2; i++) {
		inst = bconf_node_parent(bconf_node_parent(bconf_node_parent(n[i])));
		key[i][0] = inst && bconf_node_parent(inst) ?
			    1 + sibling_index(inst) : 0;
		key[i][1] = sibling_index(bconf_node_parent(n[i]));
		key[i][2] = sibling_index(n[i]);
	}
	for (j = 0; j < 3; j++)
		if (key[0][j] != key[1][j])
			return key[0][j] < key[1][j];
	return true;
}

/*
 * find_event_file() of SYSTEM:EVENT when the action is applied: an event
 * of the kernel at boot, or a kprobe/synthetic event the config defines
 * before.  False when reported.
 */
static bool check_target(struct ctx *c, const struct bconf_node *v,
			 const struct bconf_node *ev, const char *const *w,
			 const char *group, const char *name)
{
	const struct lint_knowledge *k = c->k;
	const struct def *later = NULL;
	unsigned int line, col;
	char mod[128];
	size_t i;

	if (!strcmp(group, "kprobes") || !strcmp(group, "synthetic")) {
		for (i = 0; i < (size_t)c->ndefs; i++) {
			if (strcmp(c->defs[i].group, group) ||
			    strcmp(c->defs[i].name, name))
				continue;
			if (handled_before(c->defs[i].node, ev))
				return true;
			later = &c->defs[i];
		}
		if (!later) {
			unknown_event(c, v, group, name);
			return false;
		}
		if (!action_at_boot(c, w))
			return true;
		position(c, bconf_node_offset(later->node), &line, &col);
		diag(c, v, LINT_ERROR, "action",
		     "%s event '%s' is defined after this event (line %u): trace_boot creates it only when it gets there, so this action does not find it (define it first)",
		     group, name, line);
		return false;
	}
	if (!k || kn_event(k, group, name))
		return true;
	if (kn_has_group(k, group) || kn_module_event(k, group, NULL, mod, sizeof(mod))) {
		if (kn_has_group(k, group) ||
		    !kn_module_event(k, group, name, mod, sizeof(mod))) {
			unknown_event(c, v, group, name);
			return false;
		}
		/* On a module event, the action waits for its module (0013). */
		if (!action_at_boot(c, w))
			return true;
		diag(c, v, LINT_ERROR, "action",
		     "event %s:%s comes with module %s, not loaded when trace_boot applies this action: the kernel does not find it",
		     group, name, mod);
		return false;
	}
	unknown_group(c, v, group);
	return false;
}

/* register_trigger(): one trigger per type (and target) on an event. */
static void trig_add(struct ctx *c, const struct bconf_node *v,
		     struct trig_set *set, const char *type, const char *target)
{
	int i;

	for (i = 0; i < set->n; i++) {
		if (strcmp(set->t[i].type, type) || strcmp(set->t[i].target, target))
			continue;
		diag(c, v, LINT_ERROR, "action",
		     "this event already has a trigger of kind %s%s%s ('%s'): the kernel fails a second one (File exists)",
		     type, *target ? " for " : "", target, set->t[i].action);
		return;
	}
	if (set->n == MAX_TRIGGERS)
		return;
	set->t[set->n].type = type;
	snprintf(set->t[set->n].target, sizeof(set->t[0].target), "%s", target);
	set->t[set->n++].action = bconf_node_data(v);
}

/* The '!' of an action: unregister the first trigger of the type (target). */
static void trig_remove(struct trig_set *set, const char *type,
			const char *target)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->t[i].type, type) && !strcmp(set->t[i].target, target))
			break;
	if (i == set->n)
		return;
	memmove(&set->t[i], &set->t[i + 1], (size_t)(set->n - i - 1) * sizeof(set->t[0]));
	set->n--;
}

/* event_trigger_parse(): [:COUNT] [if FILTER]; '!' removes, never fails. */
static void check_plain(struct ctx *c, const struct bconf_node *v,
			const char *const *w, struct trig_set *set,
			const char *cmd, const char *type, const char *next,
			bool remove)
{
	const char *filter = next;
	size_t n;

	if (remove) {
		trig_remove(set, type, "");
		return;
	}
	if (next && isdigit((unsigned char)*next)) {
		n = strcspn(next, " \t");
		if (!check_count(c, v, next, n, cmd))
			return;
		filter = next[n] ? next + n + 1 + strspn(next + n + 1, SPACES) : NULL;
		if (filter && !*filter)
			filter = NULL;
	}
	if (filter && !check_trigger_filter(c, v, filter, w, cmd, true))
		return;
	trig_add(c, v, set, type, "");
}

/* event_enable_trigger_parse(): SYSTEM:EVENT[:COUNT] [if FILTER]. */
static void check_enable(struct ctx *c, const struct bconf_node *v,
			 const struct bconf_node *ev, const char *const *w,
			 struct trig_set *set, const char *cmd,
			 const char *type, const char *next, bool remove)
{
	char group[128], name[128], target[256];
	const char *e, *count = NULL, *filter = NULL;
	size_t n, gl, el;

	if (!next) {
		diag(c, v, LINT_ERROR, "action",
		     "'%s' needs SYSTEM:EVENT (e.g. '%s:sched:sched_switch'): the kernel fails the action",
		     cmd, cmd);
		return;
	}
	n = strcspn(next, " \t");
	gl = strcspn(next, ":");
	if (gl >= n) {
		diag(c, v, LINT_ERROR, "action",
		     "'%.*s' after '%s' is not SYSTEM:EVENT: the kernel fails the action",
		     (int)n, next, cmd);
		return;
	}
	e = next + gl + 1;
	el = strcspn(e, ":");
	if (el > n - gl - 1)
		el = n - gl - 1;
	if (e + el < next + n)
		count = e + el + 1;
	if (gl >= sizeof(group) || el >= sizeof(name))
		return;		/* no event has such a name */
	memcpy(group, next, gl);
	group[gl] = '\0';
	memcpy(name, e, el);
	name[el] = '\0';
	if (!gl || !el) {
		diag(c, v, LINT_ERROR, "action",
		     "'%.*s' after '%s' names no event (SYSTEM:EVENT): the kernel fails the action",
		     (int)n, next, cmd);
		return;
	}
	if (!check_target(c, v, ev, w, group, name))
		return;
	snprintf(target, sizeof(target), "%s:%s", group, name);
	if (remove) {
		trig_remove(set, type, target);
		return;
	}
	if (count && !check_count(c, v, count, (size_t)(next + n - count), cmd))
		return;
	if (next[n]) {
		filter = next + n + 1 + strspn(next + n + 1, SPACES);
		if (!*filter)
			filter = NULL;
	}
	if (filter && !check_trigger_filter(c, v, filter, w, cmd, false))
		return;
	trig_add(c, v, set, type, target);
}

/* One action, as trigger_process_regex() reads it on event @ev. */
static void check_action(struct ctx *c, const struct bconf_node *v,
			 const struct bconf_node *ev, const char *const *w,
			 struct trig_set *set)
{
	const char *s = bconf_node_data(v), *p, *next, *best, *names[NCMDS];
	char cmd[64];
	size_t n, i;
	bool remove;

	p = s + strspn(s, SPACES);
	n = strcspn(p, ": \t");
	next = p[n] ? p + n + 1 + strspn(p + n + 1, SPACES) : NULL;
	if (next && !*next)
		next = NULL;
	remove = *p == '!';
	if (remove) {
		p++;
		n--;
	}
	if (!n) {
		if (!*p && !remove)
			diag(c, v, LINT_ERROR, "action",
			     "the action is empty: the kernel fails it");
		else
			diag(c, v, LINT_ERROR, "action",
			     "the action '%s' names no trigger command: the kernel fails it",
			     s);
		return;
	}
	for (i = 0; i < NCMDS; i++)
		names[i] = trig_cmds[i].name;
	for (i = 0; i < NCMDS; i++)
		if (strlen(names[i]) == n && !strncmp(p, names[i], n))
			break;
	snprintf(cmd, sizeof(cmd), "%.*s", (int)n, p);
	if (i == NCMDS) {
		best = closest(cmd, names, NULL, (int)NCMDS);
		diag(c, v, LINT_ERROR, "action",
		     "'%.*s' is not a trigger command: the kernel fails the action%s%s%s",
		     (int)n, p, best ? "; did you mean '" : "",
		     best ? best : "", best ? "'?" : "");
		return;
	}
	if (!strcmp(cmd, "stacktrace") && c->k && c->k->options.count &&
	    !kn_in_list(&c->k->options, "stacktrace")) {
		diag(c, v, LINT_ERROR, "action",
		     "kernel %s has no stacktrace trigger (built without CONFIG_STACKTRACE: no 'stacktrace' option): the kernel fails the action",
		     c->k->key);
		return;
	}
	if (trig_cmds[i].parse == TRIG_PLAIN)
		check_plain(c, v, w, set, cmd, trig_cmds[i].type, next, remove);
	else if (trig_cmds[i].parse == TRIG_ENABLE)
		check_enable(c, v, ev, w, set, cmd, trig_cmds[i].type, next,
			     remove);
}

/* ftrace[.instance.X].event.GROUP.EVENT.actions, applied in order. */
static void check_actions(struct ctx *c, const struct bconf_node *key,
			  const char *const *w)
{
	struct trig_set *set = calloc(1, sizeof(*set));
	const struct bconf_node *v;

	if (!set) {
		c->oom = 1;
		return;
	}
	for (v = bconf_node_value(key); v; v = bconf_value_next(v))
		check_action(c, v, bconf_node_parent(key), w, set);
	free(set);
}

/* --- the walk ------------------------------------------------------------ */

static void check_value(struct ctx *c, const struct bconf_node *key,
			enum bconf_tvalue kind, const char *const *w, int n)
{
	const struct bconf_node *v = bconf_node_value(key);
	const char *s = v ? bconf_node_data(v) : NULL;

	if (kind == BCONF_TV_HIST) {
		if (n == 4)
			check_hist(c, key);
		return;
	}
	if (kind == BCONF_TV_FLAG) {
		if (s && *s)
			diag(c, v, LINT_WARNING, "value-ignored",
			     "'%s' takes no value: the kernel ignores '%s' (it acts on the key alone; remove the key to turn it off)",
			     w[n - 1], s);
		return;
	}
	if (!v)
		return;
	if (bconf_value_next(v) && (kind == BCONF_TV_TRACING_ON || kind == BCONF_TV_CLOCK ||
				    kind == BCONF_TV_SIZE || kind == BCONF_TV_CPUMASK ||
				    kind == BCONF_TV_TRACER || kind == BCONF_TV_FILTER ||
				    kind == BCONF_TV_ONE))
		diag(c, bconf_value_next(v), LINT_WARNING, "array",
		     "'%s' takes one value: the kernel uses only the first ('%s')",
		     w[n - 1], s);
	switch (kind) {
	case BCONF_TV_OPTIONS:
		check_options(c, v);
		break;
	case BCONF_TV_TRACING_ON:
		check_tracing_on(c, v);
		break;
	case BCONF_TV_CLOCK:
		check_in_list(c, v, c->k ? &c->k->clocks : NULL, "clock",
			      "trace clock", s, "");
		break;
	case BCONF_TV_SIZE:
		if (*s)
			check_size(c, v);
		break;
	case BCONF_TV_CPUMASK:
		if (*s)
			check_cpumask(c, v);
		break;
	case BCONF_TV_EVENTS:
		check_events_list(c, v);
		break;
	case BCONF_TV_TRACER:
		check_in_list(c, v, c->k ? &c->k->tracers : NULL, "tracer",
			      "tracer", s, "");
		break;
	case BCONF_TV_FUNCS:
		check_funcs(c, v);
		break;
	case BCONF_TV_PROBES:
		check_probes(c, v, w[2]);
		break;
	case BCONF_TV_SYNTH:
		check_synth(c, v, w[2]);
		break;
	case BCONF_TV_FILTER:
		check_len(c, v, strlen(s), "the filter");
		check_filter_fields(c, v, w[1], w[2]);
		break;
	case BCONF_TV_ACTIONS:
		for (; v; v = bconf_value_next(v))
			check_len(c, v, strlen(bconf_node_data(v)), "the action");
		check_actions(c, key, w);
		break;
	default:
		break;
	}
}

/* An event node ftrace[.instance.X].event.GROUP.EVENT. */
static void check_event_node(struct ctx *c, const struct bconf_node *key,
			     const char *const *w)
{
	if (!strcmp(w[2], "enable"))
		return;
	if (!c->k && strcmp(w[1], "kprobes") && strcmp(w[1], "synthetic"))
		return;
	if (!strcmp(w[1], "kprobes") && bconf_find_node(NULL, key, "probes"))
		return;
	if (!strcmp(w[1], "synthetic") && bconf_find_node(NULL, key, "fields"))
		return;
	if (!event_exists(c, w[1], w[2]))
		unknown_event(c, key, w[1], w[2]);
}

static void unknown_key(struct ctx *c, const struct bconf_node *key,
			const char *const *w, int n)
{
	struct bconf_tkey_match m;
	const char *best;

	bconf_tkey_match(w, n - 1, &m);
	best = closest(w[n - 1], m.cand, m.cand_len, m.ncand);
	if (best) {
		size_t bl = 0;
		int i;

		for (i = 0; i < m.ncand; i++)
			if (m.cand[i] == best)
				bl = m.cand_len[i];
		diag(c, key, LINT_ERROR, "unknown-key",
		     "unknown key '%s': the kernel ignores it; did you mean '%.*s'?",
		     w[n - 1], (int)bl, best);
	} else {
		diag(c, key, LINT_ERROR, "unknown-key",
		     "unknown key '%s': trace_boot does not read it, the kernel ignores it",
		     w[n - 1]);
	}
}

static void walk(struct ctx *c, const struct bconf_node *key,
		 const char **w, int n)
{
	struct bconf_tkey_match m;
	const struct bconf_node *sub;

	if (n >= BCONF_DEPTH_MAX)
		return;
	bconf_tkey_match(w, n, &m);
	if (!m.full && !m.prefix) {
		unknown_key(c, key, w, n);
		return;
	}
	if (n == 3 && !strcmp(w[0], "event") && strcmp(w[2], "enable"))
		check_event_node(c, key, w);
	if (m.full)
		check_value(c, key, m.kind, w, n);
	else if (bconf_node_value(key) && *bconf_node_data(bconf_node_value(key)))
		diag(c, bconf_node_value(key), LINT_WARNING, "value-ignored",
		     "'%s' takes no value here: the kernel ignores '%s'",
		     w[n - 1], bconf_node_data(bconf_node_value(key)));
	for (sub = bconf_node_subkey(key); sub; sub = bconf_node_next(sub)) {
		w[n] = bconf_node_data(sub);
		walk(c, sub, w, n + 1);
	}
}

static void walk_instance(struct ctx *c, const struct bconf_node *root,
			  bool top)
{
	const struct bconf_node *sub, *inst;
	const char *w[BCONF_DEPTH_MAX + 1];

	for (sub = bconf_node_subkey(root); sub; sub = bconf_node_next(sub)) {
		if (top && !strcmp(bconf_node_data(sub), "instance")) {
			for (inst = bconf_node_subkey(sub); inst;
			     inst = bconf_node_next(inst))
				walk_instance(c, inst, false);
			continue;
		}
		w[0] = bconf_node_data(sub);
		walk(c, sub, w, 1);
	}
}

/* kprobe and synthetic events the config defines (they are global). */
static void collect_defs(struct ctx *c, const struct bconf_node *root)
{
	static const char *const kinds[][2] = {
		{ "kprobes", "probes" }, { "synthetic", "fields" },
	};
	const struct bconf_node *ev, *inst, *g, *e;
	int i;

	ev = bconf_find_node(NULL, root, "event");
	for (i = 0; ev && i < 2; i++) {
		g = bconf_find_node(NULL, ev, kinds[i][0]);
		for (e = g ? bconf_node_subkey(g) : NULL; e; e = bconf_node_next(e)) {
			const struct bconf_node *f = bconf_find_node(NULL, e, kinds[i][1]);

			if (!f || c->ndefs >= MAX_DEFS)
				continue;
			c->defs[c->ndefs].group = kinds[i][0];
			c->defs[c->ndefs].name = bconf_node_data(e);
			c->defs[c->ndefs].node = e;
			c->defs[c->ndefs++].fields = i ? bconf_node_value(f) : NULL;
		}
	}
	inst = bconf_find_node(NULL, root, "instance");
	if (inst && bconf_node_parent(root) == NULL)
		for (inst = bconf_node_subkey(inst); inst; inst = bconf_node_next(inst))
			collect_defs(c, inst);
}

static void check_kernel(struct ctx *c, const struct bconf_node *root)
{
	const struct bconf_node *leaf = NULL;
	char name[BCONF_KEYLEN_MAX];
	const char *kind;
	FILE *f;
	char *out = NULL;
	size_t outlen;

	f = open_memstream(&out, &outlen);
	if (f) {
		if (bconf_render_cmdline(c->bc, bconf_node_data(root), f) == -EINVAL &&
		    bconf_node_value(root))
			diag(c, bconf_node_value(root), LINT_ERROR, "cmdline",
			     "'%s' has a value of its own: the kernel then adds none of its parameters",
			     bconf_node_data(root));
		fclose(f);
		free(out);
	}
	if (strcmp(bconf_node_data(root), "kernel") || !c->k)
		return;
	while ((leaf = bconf_next_leaf(c->bc, root, leaf))) {
		if (bconf_compose_key_raw(leaf, root, name, sizeof(name)) <= 0 ||
		    strchr(name, '.'))
			continue;	/* MODULE.PARAM: not checked */
		kind = kn_param(c->k, name);
		if (!kind)
			diag(c, leaf, LINT_WARNING, "unknown-param",
			     "kernel %s has no parameter '%s': it passes it to init as an argument or environment variable",
			     c->k->key, name);
		else if (!strcmp(kind, "early"))
			diag(c, leaf, LINT_ERROR, "early-param",
			     "'%s' is an early parameter: the kernel parses it before it reads bootconfig, so it is ignored when the config comes from the initrd (put it on the kernel command line)",
			     name);
	}
}

static void check_limits(struct ctx *c)
{
	const struct bconf_node *leaf = NULL;
	char buf[BCONF_KEYLEN_MAX * 2];
	size_t max = BCONF_DATA_MAX;

	/* Worst case: the NUL and 3 bytes of padding. */
	while (max && !bconf_trailer_size_ok((uint32_t)(max + 1 + 3)))
		max--;
	if (c->len > max)
		diag_at(c, max, NULL, LINT_ERROR, "size",
			"the config is %zu bytes: with its NUL and padding the kernel may refuse it (keep it to %zu bytes; the text from here on is too much)",
			c->len, max);
	if (c->k && strstr(c->k->series, "Allow-composing-keys"))
		return;
	while ((leaf = bconf_next_leaf(c->bc, NULL, leaf)))
		if (bconf_compose_key(leaf, NULL, buf, sizeof(buf)) == -ERANGE) {
			diag(c, leaf, LINT_ERROR, "key-depth",
			     "this key has %d words: the kernel cannot compose it, creates no /proc/bootconfig and drops every kernel.* parameter",
			     BCONF_DEPTH_MAX);
			break;
		}
}

static int cmp_diag(const void *a, const void *b)
{
	const struct lint_diag *x = a, *y = b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return 0;
}

/* One finding per place and message (a group shared by several events). */
static void drop_duplicates(struct lint_result *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->count; i++) {
		struct lint_diag *d = &r->diags[i];

		if (n && !cmp_diag(&r->diags[n - 1], d) &&
		    !strcmp(r->diags[n - 1].msg, d->msg)) {
			if (d->severity == LINT_ERROR)
				r->errors--;
			else if (d->severity == LINT_WARNING)
				r->warnings--;
			else
				r->notes--;
			free(d->key);
			free(d->msg);
			continue;
		}
		r->diags[n++] = *d;
	}
	r->count = n;
}

/*
 * UTF-16 (a byte order mark, or ASCII text with every other byte NUL in
 * its first 64 bytes): the name iconv(1) knows it by, or NULL.
 */
static const char *utf16_name(const unsigned char *p, size_t len)
{
	size_t i, n = (len < 64 ? len : 64) & ~(size_t)1;
	bool le = n >= 4, be = n >= 4;

	if (len >= 2 && ((p[0] == 0xff && p[1] == 0xfe) ||
			 (p[0] == 0xfe && p[1] == 0xff)))
		return "UTF-16";	/* iconv reads the mark */
	for (i = 0; i < n; i += 2) {
		le = le && p[i] && !p[i + 1];
		be = be && !p[i] && p[i + 1];
	}
	return le ? "UTF-16LE" : be ? "UTF-16BE" : NULL;
}

/*
 * What the kernel cannot read as the file means it: it reads bytes, as a
 * C string.  UTF-16 (returns true: no other check can read the text), a
 * UTF-8 byte order mark (taken as part of the first key), text after a
 * NUL byte (never read).
 */
static bool check_encoding(struct ctx *c, const char *buf, size_t len)
{
	const char *u16 = utf16_name((const unsigned char *)buf, len);
	struct bconf_error at;
	size_t lost;

	if (u16) {
		diag_at(c, 0, NULL, LINT_ERROR, "encoding",
			"the file is UTF-16: the kernel reads bytes, up to the first NUL byte (here %zu of the %zu bytes): convert the file to UTF-8/ASCII (iconv -f %s -t UTF-8)",
			c->len, len, u16);
		return true;
	}
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		diag_at(c, 0, NULL, LINT_ERROR, "encoding",
			"the file starts with a UTF-8 byte order mark, which the kernel reads as part of the first key: remove the byte order mark");
	lost = bconf_nul_tail(buf, len, &at);
	if (lost)
		diag_at(c, at.pos, NULL, LINT_ERROR, "nul-byte",
			"%s: %zu bytes after it are ignored", at.msg, lost);
	return false;
}

static const char skipped_msg[] =
	"events, event fields, kprobe and ftrace filter symbols, tracers, clocks, options and kernel parameters (no kernel knowledge: boottrace lint --kernel BUILD, or boottrace-lint --knowledge DIR)";

int bconf_lint(const char *buf, size_t len, const struct lint_knowledge *k,
	       struct lint_result *result)
{
	struct ctx *c = calloc(1, sizeof(*c));
	const struct bconf_node *root;
	struct bconf_error e;
	int ret;

	memset(result, 0, sizeof(*result));
	if (!c)
		return -ENOMEM;
	c->buf = buf;
	c->len = strnlen(buf, len);
	c->k = k;
	c->r = result;
	result->skipped = k ? NULL : skipped_msg;
	if (utf16_name((const unsigned char *)buf, len)) {
		/* the text the parser would see is not the file's */
		result->parse_failed = true;
		check_encoding(c, buf, len);
		ret = c->oom ? -ENOMEM : 0;
		free(c);
		return ret;
	}
	ret = bconf_parse(buf, len, (struct bconf **)&c->bc, &e);
	if (ret == -ENOMEM) {
		free(c);
		return ret;
	}
	if (ret < 0) {
		/* the parser's error first, then what it did not see */
		result->parse_failed = true;
		diag_at(c, e.pos, NULL, LINT_ERROR, "parse", "%s", e.msg);
		if (result->count) {
			result->diags[0].line = e.line;
			result->diags[0].col = e.col;
		}
		check_encoding(c, buf, len);
		ret = c->oom ? -ENOMEM : 0;
		free(c);
		return ret;
	}
	check_encoding(c, buf, len);
	for (root = bconf_root(c->bc); root; root = bconf_node_next(root))
		if (!strcmp(bconf_node_data(root), "ftrace"))
			collect_defs(c, root);
	for (root = bconf_root(c->bc); root; root = bconf_node_next(root)) {
		const char *w = bconf_node_data(root);

		if (!strcmp(w, "ftrace"))
			walk_instance(c, root, true);
		else if (!strcmp(w, "kernel") || !strcmp(w, "init"))
			check_kernel(c, root);
		else
			diag(c, root, LINT_WARNING, "top-level",
			     "the kernel ignores '%s' keys (it reads ftrace.*, kernel.* and init.*); user space can still read them in /proc/bootconfig",
			     w);
	}
	check_limits(c);
	if (result->count)
		qsort(result->diags, result->count, sizeof(result->diags[0]),
		      cmp_diag);
	drop_duplicates(result);
	bconf_free((struct bconf *)c->bc);
	ret = c->oom ? -ENOMEM : 0;
	free(c);
	return ret;
}

void lint_result_free(struct lint_result *r)
{
	size_t i;

	for (i = 0; i < r->count; i++) {
		free(r->diags[i].key);
		free(r->diags[i].msg);
	}
	free(r->diags);
	memset(r, 0, sizeof(*r));
}
