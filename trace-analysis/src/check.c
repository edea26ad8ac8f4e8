// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - verify a bundle against an expectations file.
 *
 * One expectation per line, '#' starts a comment:
 *
 *	bootconfig loaded
 *	applied [KEY-GLOB]            every (matching) setting applied
 *	failed KEY-GLOB               a matching setting failed
 *	event GROUP:EVENT [>= N] [in BUFFER]   records in trace.dat
 *	kprobe NAME [>= N]            hits in kprobe_profile
 *	hist GROUP:EVENT [>= N] [in BUFFER]    a readable histogram, N entries
 *	hist-key GROUP:EVENT KEY-GLOB [in BUFFER]  a row whose key matches
 *	initcalls [>= N]              initcall rows (trace.dat or histogram)
 *	initcall FUNC                 FUNC in an initcall table
 *	no-data-loss [in BUFFER]      no overrun, drop, gap, full hist, silence
 *	data-loss [KIND] [in BUFFER]  some loss (KIND: see README.md)
 */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "util.h"

struct exp {
	char *w[8];
	size_t nw;
	uint64_t min;		/* ">= N", default 1 */
	const char *buffer;	/* "in BUFFER", or NULL: any */
	unsigned int line;
};

struct result {
	bool ok;
	char *detail;
};

static bool buffer_is(const struct exp *e, const struct instance *in)
{
	return !e->buffer || !strcmp(e->buffer, inst_label(in));
}

static bool split_ge(const char *s, char *g, char *ev, size_t n)
{
	const char *c = strchr(s, ':');

	if (!c || c == s || !c[1] || (size_t)(c - s) >= n ||
	    strlen(c + 1) >= n)
		return false;
	memcpy(g, s, (size_t)(c - s));
	g[c - s] = '\0';
	strcpy(ev, c + 1);
	return true;
}

static struct result res(bool ok, char *detail)
{
	return (struct result){ ok, detail };
}

static struct result x_event(const struct analysis *a, const struct exp *e)
{
	char g[128], ev[128];
	uint64_t n = 0;
	size_t i, j;

	if (!split_ge(e->w[1], g, ev, sizeof(g)))
		return res(false, xasprintf("'%s' is not GROUP:EVENT", e->w[1]));
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		if (!buffer_is(e, in))
			continue;
		for (j = 0; j < in->ncounts; j++)
			if (in->counts[j].name &&
			    !fnmatch(g, in->counts[j].system, 0) &&
			    !fnmatch(ev, in->counts[j].name, 0))
				n += in->counts[j].count;
	}
	return res(n >= e->min, xasprintf("%" PRIu64 " records", n));
}

static struct result x_kprobe(const struct analysis *a, const struct exp *e)
{
	size_t i;

	for (i = 0; i < a->nkprobes; i++)
		if (!strcmp(a->kprobes[i].name, e->w[1]))
			return res(a->kprobes[i].hits >= e->min,
				   xasprintf("%" PRIu64 " hits",
					     a->kprobes[i].hits));
	return res(false, xstrdup("no such kprobe"));
}

static struct result x_hist(const struct analysis *a, const struct exp *e,
			    const char *keyglob)
{
	char g[128], ev[128];
	size_t i, j, k, r;
	bool found = false;
	uint64_t entries = 0;

	if (!split_ge(e->w[1], g, ev, sizeof(g)))
		return res(false, xasprintf("'%s' is not GROUP:EVENT", e->w[1]));
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; buffer_is(e, in) && j < in->nevents; j++) {
			const struct ev_state *s = &in->events[j];

			if (strcmp(s->system, g) || strcmp(s->name, ev) ||
			    !s->has_hist)
				continue;
			if (s->hist_error)
				return res(false, xasprintf("unreadable: %s",
							    s->hist_error));
			found = true;
			for (k = 0; k < s->hist.n; k++) {
				const struct hist *h = &s->hist.hists[k];

				entries += h->nentries;
				for (r = 0; keyglob && r < h->nentries; r++) {
					char *t = hist_entry_key_text(
						&h->entries[r]);
					bool m = !fnmatch(keyglob, t, 0);

					free(t);
					if (m)
						return res(true, xstrdup(
							"key present"));
				}
			}
		}
	}
	if (!found)
		return res(false, xstrdup("no histogram"));
	if (keyglob)
		return res(false, xasprintf("no key matches '%s'", keyglob));
	return res(entries >= e->min, xasprintf("%" PRIu64 " entries",
						entries));
}

static struct result x_applied(const struct analysis *a, const struct exp *e,
			       bool want_fail)
{
	const char *glob = e->nw > 1 ? e->w[1] : "*";
	size_t i, n = 0, bad = 0;
	const struct setting *first_bad = NULL;

	for (i = 0; i < a->nsettings; i++) {
		const struct setting *s = &a->settings[i];

		if (fnmatch(glob, s->key, 0))
			continue;
		n++;
		if (s->status == SET_FAILED) {
			bad++;
			if (!first_bad)
				first_bad = s;
		}
	}
	if (want_fail)
		return res(bad > 0, bad ? xasprintf("%s: %s", first_bad->key,
			   first_bad->detail) : xasprintf("%zu settings match, "
			   "none failed", n));
	if (!n)
		return res(false, xasprintf("no setting matches '%s'", glob));
	if (e->nw == 1 && a->nunattributed)
		return res(false, xasprintf("error: %s", a->unattributed[0]));
	return res(!bad, bad ? xasprintf("%zu failed, first %s: %s", bad,
		   first_bad->key, first_bad->detail) :
		   xasprintf("%zu applied", n));
}

static struct result x_loss(const struct analysis *a, const struct exp *e,
			    bool want)
{
	const char *kind = want && e->nw > 1 ? e->w[1] : NULL;
	size_t i, n = 0;
	const struct loss *first = NULL;

	for (i = 0; i < a->nlosses; i++) {
		const struct loss *l = &a->losses[i];

		if (e->buffer && strcmp(e->buffer, l->instance))
			continue;
		if (kind && strcmp(kind, loss_kind_name(l->kind)))
			continue;
		n++;
		if (!first)
			first = l;
	}
	if (!first)
		return res(!want, xstrdup("no data loss"));
	return res(want, xasprintf("%zu findings, first: %s %s %s %" PRIu64,
		   n, loss_kind_name(first->kind), first->instance,
		   first->what, first->count));
}

static struct result x_initcall(const struct analysis *a, const struct exp *e)
{
	size_t i;

	if (!strcmp(e->w[0], "initcalls")) {
		size_t n = a->ninitcalls > a->nhist_initcalls ?
			   a->ninitcalls : a->nhist_initcalls;

		return res(n >= e->min, xasprintf("%zu initcalls", n));
	}
	for (i = 0; i < a->ninitcalls; i++)
		if (!strcmp(a->initcalls[i].func, e->w[1]))
			return res(true, xasprintf("%.3f ms",
				   a->initcalls[i].dur_ns / 1e6));
	for (i = 0; i < a->nhist_initcalls; i++)
		if (!strcmp(a->hist_initcalls[i].func, e->w[1]))
			return res(true, xasprintf("%" PRIu64 " us",
				   a->hist_initcalls[i].dur_ns / 1000));
	return res(false, xstrdup("not in the initcall tables"));
}

static struct result evaluate(const struct analysis *a, const struct exp *e)
{
	const char *c = e->w[0];
	const char *st;

	if (!strcmp(c, "bootconfig")) {
		st = analysis_meta(a, "bootconfig_status");
		return res(st && !strcmp(st, e->w[1]),
			   xasprintf("bootconfig_status=%s", st ? st : "?"));
	}
	if (!strcmp(c, "applied"))
		return x_applied(a, e, false);
	if (!strcmp(c, "failed"))
		return x_applied(a, e, true);
	if (!strcmp(c, "event"))
		return x_event(a, e);
	if (!strcmp(c, "kprobe"))
		return x_kprobe(a, e);
	if (!strcmp(c, "hist"))
		return x_hist(a, e, NULL);
	if (!strcmp(c, "hist-key"))
		return x_hist(a, e, e->w[2]);
	if (!strcmp(c, "no-data-loss"))
		return x_loss(a, e, false);
	if (!strcmp(c, "data-loss"))
		return x_loss(a, e, true);
	return x_initcall(a, e);
}

static const struct {
	const char *name;
	size_t min_args, max_args;
} directives[] = {
	{ "bootconfig", 1, 1 }, { "applied", 0, 1 }, { "failed", 1, 1 },
	{ "event", 1, 1 }, { "kprobe", 1, 1 }, { "hist", 1, 1 },
	{ "hist-key", 2, 2 }, { "initcalls", 0, 0 }, { "initcall", 1, 1 },
	{ "no-data-loss", 0, 0 }, { "data-loss", 0, 1 },
};

/* Parse one line into @e; returns an error message or NULL. */
static char *parse_exp(char *line, struct exp *e)
{
	char *save = NULL, *t;
	size_t i, nargs;

	memset(e, 0, sizeof(*e));
	e->min = 1;
	for (t = strtok_r(line, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(t, ">=")) {
			t = strtok_r(NULL, " \t", &save);
			if (!t || !parse_u64(t, 10, &e->min))
				return xstrdup("'>=' needs a number");
		} else if (!strcmp(t, "in")) {
			t = strtok_r(NULL, " \t", &save);
			if (!t)
				return xstrdup("'in' needs a buffer name "
					       "(top or an instance)");
			e->buffer = t;
		} else if (e->nw < ARRAY_SIZE(e->w)) {
			e->w[e->nw++] = t;
		} else {
			return xstrdup("too many words");
		}
	}
	for (i = 0; i < ARRAY_SIZE(directives); i++) {
		if (strcmp(directives[i].name, e->w[0]))
			continue;
		nargs = e->nw - 1;
		if (nargs < directives[i].min_args ||
		    nargs > directives[i].max_args)
			return xasprintf("'%s' takes %zu to %zu arguments, "
					 "not %zu", e->w[0],
					 directives[i].min_args,
					 directives[i].max_args, nargs);
		return NULL;
	}
	return xasprintf("unknown expectation '%s' (see README.md)", e->w[0]);
}

int check_run(const struct analysis *a, const char *expect, bool json,
	      FILE *f)
{
	char *text, *line, *save = NULL, *err, *raw;
	unsigned int lineno = 0, ok = 0, bad = 0;
	int r = read_file(expect, 1 << 20, &text, NULL);

	if (r) {
		fprintf(stderr, "trace-analysis: %s: cannot read: %s\n", expect,
			strerror(-r));
		return 2;
	}
	if (json)
		fputs("{\"schema\":\"boottrace-check-1\",\"results\":[", f);
	for (line = text; line; line = save) {
		struct exp e;
		struct result x;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		if (!*trim(line))
			continue;
		raw = xstrdup(trim(line));
		err = parse_exp(trim(line), &e);
		if (err) {
			fprintf(stderr, "trace-analysis: %s:%u: %s\n", expect,
				lineno, err);
			free(err);
			free(raw);
			free(text);
			if (json)
				fputs("]}\n", f);
			return 2;
		}
		x = evaluate(a, &e);
		if (json) {
			fprintf(f, "%s{\"line\":%u,\"expect\":", ok + bad ?
				"," : "", lineno);
			json_str(f, raw);
			fprintf(f, ",\"ok\":%s,\"detail\":", x.ok ? "true" :
				"false");
			json_str(f, x.detail);
			fputc('}', f);
		} else {
			fprintf(f, "%-4s %-50s %s\n", x.ok ? "ok" : "FAIL", raw,
				x.detail);
		}
		ok += x.ok;
		bad += !x.ok;
		free(x.detail);
		free(raw);
	}
	free(text);
	if (json)
		fprintf(f, "],\"passed\":%u,\"failed\":%u}\n", ok, bad);
	else
		fprintf(f, "%u passed, %u failed\n", ok, bad);
	return bad ? 1 : 0;
}
