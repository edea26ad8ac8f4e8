// SPDX-License-Identifier: GPL-2.0
/*
 * check.c - verify a bundle against an expectations file.
 *
 * One expectation per line, '#' starts a comment:
 *
 *	bootconfig loaded
 *	applied [KEY-GLOB]            every (matching) setting applied (not
 *	                              failed, pending or not reported)
 *	failed KEY-GLOB               a matching setting failed
 *	pending KEY-GLOB              a matching setting waits for a module
 *	event GROUP:EVENT [>= N] [in BUFFER]   records in trace.dat
 *	kprobe NAME [>= N]            hits in kprobe_profile
 *	hist GROUP:EVENT [>= N] [in BUFFER]    a readable histogram, N entries
 *	hist-key GROUP:EVENT KEY-GLOB [in BUFFER]  a row whose key matches
 *	initcalls [>= N]              initcall rows (trace.dat or histogram)
 *	initcall FUNC                 FUNC in an initcall table
 *	no-data-loss [in BUFFER]      no overrun, drop, gap, full hist, silence
 *	data-loss [KIND] [in BUFFER]  some loss (KIND: see README.md)
 *	tracefs FILE LINE-GLOB [in BUFFER]  a line of the dumped tracefs file
 *	file PATH LINE-GLOB           a line of a bundle file (dmesg, ...)
 *	cmdline WORD-GLOB             a kernel parameter in proc/cmdline
 *	init-arg WORD-GLOB            an argument for init (after " -- ")
 *	function FUNC-GLOB [>= N] [in BUFFER]  function tracer records
 *	only-functions GLOB[,GLOB...] [in BUFFER]  and no other function
 *	cpus CPU-LIST [>= N] [in BUFFER]  records in trace.dat, all on
 *	                              these CPUs (a tracing_cpumask applied)
 *	not EXPECTATION               met when EXPECTATION is not
 *
 * A word in double quotes may contain spaces ("ret < 0").
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cli.h"
#include "ktap.h"
#include "util.h"

struct exp {
	char *w[8];
	size_t nw;
	bool negate;		/* "not EXPECTATION" */
	uint64_t min;		/* ">= N", default 1 */
	const char *buffer;	/* "in BUFFER", or NULL: any */
	unsigned int line;
};

/*
 * unknown: what the expectation needs could not be read (trace.dat not read
 * to its end, proc/cmdline missing), so it is unmet, "not" or not; error:
 * because a file of the bundle is there but unreadable (exit 2).
 */
struct result {
	bool ok;
	bool unknown;
	bool error;
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
	return (struct result){ .ok = ok, .detail = detail };
}

static struct result unknown(char *detail)
{
	return (struct result){ .unknown = true, .detail = detail };
}

/*
 * @r, from trace.dat's records, when trace.dat was read to its end; else
 * unknown (a missing trace.dat has no records, which would meet any "not
 * event ..."), with why and what was read.
 */
static struct result from_trace(const struct analysis *a, struct result r)
{
	char *d;

	if (analysis_losses_known(a))
		return r;
	d = xasprintf("unknown: %s; read: %s", a->trace_error ?
		      a->trace_error : "trace.dat was not read to its end",
		      r.detail);
	free(r.detail);
	return unknown(d);
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

/* A setting that is not applied: failed, pending or not reported. */
static bool not_applied(const struct setting *s)
{
	return s->status == SET_FAILED || s->status == SET_PENDING ||
	       s->status == SET_NOT_REPORTED;
}

/* applied [GLOB], failed GLOB, pending GLOB */
static struct result x_applied(const struct analysis *a, const struct exp *e,
			       enum set_status want)
{
	const char *glob = e->nw > 1 ? e->w[1] : "*";
	size_t i, n = 0, bad = 0, nst[SET_NSTATUS] = { 0 };
	const struct setting *first_bad = NULL, *first_want = NULL;

	for (i = 0; i < a->nsettings; i++) {
		const struct setting *s = &a->settings[i];

		if (fnmatch(glob, s->key, 0))
			continue;
		n++;
		nst[s->status]++;
		if (s->status == want && !first_want)
			first_want = s;
		if (not_applied(s)) {
			bad++;
			if (!first_bad)
				first_bad = s;
		}
	}
	if (want != SET_APPLIED)
		return res(first_want != NULL, first_want ?
			   xasprintf("%s: %s", first_want->key,
				     first_want->detail) :
			   xasprintf("%zu settings match, none %s", n,
				     set_status_name(want)));
	if (!n)
		return res(false, xasprintf("no setting matches '%s'", glob));
	if (e->nw == 1 && a->nunattributed)
		return res(false, xasprintf("error: %s", a->unattributed[0]));
	if (!bad)
		return res(true, xasprintf("%zu applied", n));
	if (bad == nst[SET_FAILED])
		return res(false, xasprintf("%zu failed, first %s: %s", bad,
			   first_bad->key, first_bad->detail));
	return res(false, xasprintf("%zu not applied (%zu failed, %zu pending, "
		   "%zu not reported), first %s (%s): %s", bad,
		   nst[SET_FAILED], nst[SET_PENDING], nst[SET_NOT_REPORTED],
		   first_bad->key, set_status_name(first_bad->status),
		   first_bad->detail));
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
	if (!first && !analysis_losses_known(a))
		return unknown(xstrdup("unknown: trace.dat could not be "
				       "read to its end"));
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

/*
 * The text of bundle file @rel (no way out of the bundle) in *@text, or
 * NULL and a result: unmet when it is absent,
 * an error when it is there but unreadable.
 */
static bool bundle_lines(const struct analysis *a, const char *rel,
			 char **text, struct result *r)
{
	enum bf_status st = BF_ABSENT;
	char *why = NULL;

	*text = NULL;
	if (!strstr(rel, "..") && rel[0] != '/')
		st = bundle_read_file(a->path, rel, 64 << 20, text, NULL, &why);
	if (st == BF_OK)
		return true;
	if (st == BF_UNREADABLE) {
		*r = unknown(xasprintf("%s: cannot read: %s", rel, why));
		r->error = true;
	} else {
		*r = res(false, xasprintf("%s: missing", rel));
	}
	free(why);
	return false;
}

/* Is there a line in @rel matching @glob (trailing blanks ignored)? */
static struct result x_file(const struct analysis *a, const char *rel,
			    const char *glob)
{
	char *text, *line, *next;
	struct result r;
	size_t n = 0;

	/* a file the bundle does not have has no line: "not" is met */
	if (!bundle_lines(a, rel, &text, &r))
		return r;
	for (line = text; line; line = next) {
		size_t len;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		len = strlen(line);
		while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' ||
			       line[len - 1] == '\r'))
			line[--len] = '\0';
		n++;
		if (!fnmatch(glob, line, 0)) {
			char *d = xasprintf("%s: \"%.60s\"", rel, line);

			free(text);
			return res(true, d);
		}
	}
	free(text);
	return res(false, xasprintf("%s: no line of %zu matches", rel, n));
}

static struct result x_tracefs(const struct analysis *a, const struct exp *e)
{
	char *rel = e->buffer && strcmp(e->buffer, "top") ?
		    xasprintf("tracefs/instances/%s/%s", e->buffer, e->w[1]) :
		    xasprintf("tracefs/%s", e->w[1]);
	struct result r = x_file(a, rel, e->w[2]);

	free(rel);
	return r;
}

/* A word of proc/cmdline before (kernel) or after (init) " -- ". */
static struct result x_cmdline(const struct analysis *a, const struct exp *e,
			       bool init)
{
	char *text, *save = NULL, *t;
	bool after = false;
	struct result r;

	/* every bundle has it: without it nothing is known */
	if (a->cmdline_error) {
		r = unknown(xstrdup(a->cmdline_error));
		r.error = true;
		return r;
	}
	if (!a->cmdline) {
		r = res(false, xstrdup("proc/cmdline: missing"));
		r.unknown = true;
		return r;
	}
	text = xstrdup(a->cmdline);
	for (t = strtok_r(text, " \t\n", &save); t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		if (!after && !strcmp(t, "--")) {
			after = true;
			continue;
		}
		if (after == init && !fnmatch(e->w[1], t, 0)) {
			r = res(true, xasprintf("%s", t));
			free(text);
			return r;
		}
	}
	free(text);
	return res(false, xasprintf("no %s matches", init ?
		   "init argument (after --)" : "kernel parameter"));
}

static bool glob_list_match(const char *list, const char *name)
{
	char *copy = xstrdup(list), *save = NULL, *g;
	bool m = false;

	for (g = strtok_r(copy, ",", &save); g && !m;
	     g = strtok_r(NULL, ",", &save))
		m = !fnmatch(trim(g), name, 0);
	free(copy);
	return m;
}

/* function FUNC-GLOB / only-functions GLOB,GLOB... */
static struct result x_function(const struct analysis *a, const struct exp *e,
				bool only)
{
	uint64_t n = 0, other = 0;
	const char *bad = NULL;
	size_t i, j;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; buffer_is(e, in) && j < in->nfuncs; j++) {
			const struct func_count *f = &in->funcs[j];

			if (glob_list_match(e->w[1], f->name)) {
				n += f->count;
			} else {
				other += f->count;
				if (!bad)
					bad = f->name;
			}
		}
	}
	if (!only)
		return res(n >= e->min, xasprintf("%" PRIu64 " records", n));
	if (bad)
		return res(false, xasprintf("%" PRIu64 " records of other "
			   "functions, e.g. %s", other, bad));
	return res(n >= e->min, xasprintf("%" PRIu64 " records, all match",
		   n));
}

/*
 * Whether @cpu is in @list, a CPU list as the kernel prints it ("0",
 * "0-3,8"); -1 when @list is not one.
 */
static int cpulist_has(const char *list, unsigned long cpu)
{
	const char *p = list;
	unsigned long lo, hi;
	char *end;
	int in = 0;

	for (;;) {
		if (!isdigit((unsigned char)*p))
			return -1;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			if (!isdigit((unsigned char)end[1]))
				return -1;
			hi = strtoul(end + 1, &end, 10);
		}
		if (hi < lo || hi > 1 << 16)
			return -1;
		in |= cpu >= lo && cpu <= hi;
		if (!*end)
			return in;
		if (*end != ',')
			return -1;
		p = end + 1;
	}
}

/* cpus CPU-LIST: records, and none on a CPU outside the list */
static struct result x_cpus(const struct analysis *a, const struct exp *e)
{
	uint64_t n = 0, other = 0, bad_n = 0;
	size_t i, cpu, bad_cpu = 0;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (cpu = 0; buffer_is(e, in) && cpu < in->npercpu; cpu++) {
			uint64_t r = in->percpu[cpu].records;

			if (cpulist_has(e->w[1], cpu) > 0) {
				n += r;
			} else if (r) {
				other += r;
				if (!bad_n) {
					bad_n = r;
					bad_cpu = cpu;
				}
			}
		}
	}
	if (other)
		return res(false, xasprintf("%" PRIu64 " of %" PRIu64
			   " records on other CPUs, e.g. %" PRIu64
			   " on CPU %zu", other, n + other, bad_n, bad_cpu));
	if (!n)
		return res(false, xstrdup("no records"));
	return res(n >= e->min, xasprintf("%" PRIu64 " records, none on "
		   "other CPUs than %s", n, e->w[1]));
}

static struct result evaluate(const struct analysis *a, const struct exp *e)
{
	const char *c = e->w[0];
	struct result r;
	const char *st;

	if (!strcmp(c, "bootconfig")) {
		st = analysis_meta(a, "bootconfig_status");
		return res(st && !strcmp(st, e->w[1]),
			   xasprintf("bootconfig_status=%s", st ? st : "?"));
	}
	if (!strcmp(c, "applied"))
		return x_applied(a, e, SET_APPLIED);
	if (!strcmp(c, "failed"))
		return x_applied(a, e, SET_FAILED);
	if (!strcmp(c, "pending"))
		return x_applied(a, e, SET_PENDING);
	if (!strcmp(c, "event"))
		return from_trace(a, x_event(a, e));
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
	if (!strcmp(c, "tracefs"))
		return x_tracefs(a, e);
	if (!strcmp(c, "file"))
		return x_file(a, e->w[1], e->w[2]);
	if (!strcmp(c, "cmdline") || !strcmp(c, "init-arg"))
		return x_cmdline(a, e, c[0] == 'i');
	if (!strcmp(c, "function") || !strcmp(c, "only-functions"))
		return from_trace(a, x_function(a, e, c[0] == 'o'));
	if (!strcmp(c, "cpus"))
		return from_trace(a, x_cpus(a, e));
	/* a row of the histogram's table proves it; its absence does not */
	r = x_initcall(a, e);
	return r.ok ? r : from_trace(a, r);
}

static const struct {
	const char *name;
	size_t min_args, max_args;
} directives[] = {
	{ "bootconfig", 1, 1 }, { "applied", 0, 1 }, { "failed", 1, 1 },
	{ "pending", 1, 1 },
	{ "event", 1, 1 }, { "kprobe", 1, 1 }, { "hist", 1, 1 },
	{ "hist-key", 2, 2 }, { "initcalls", 0, 0 }, { "initcall", 1, 1 },
	{ "no-data-loss", 0, 0 }, { "data-loss", 0, 1 },
	{ "tracefs", 2, 2 }, { "file", 2, 2 }, { "cmdline", 1, 1 },
	{ "init-arg", 1, 1 }, { "function", 1, 1 },
	{ "only-functions", 1, 1 }, { "cpus", 1, 1 },
};

/*
 * The next word of *@s: blank-separated, or "double quoted".  *@start is
 * where it begins (its quote included), or where the error is.
 */
static char *next_word(char **s, char **start, char **err)
{
	char *p = *s, *w;

	while (*p == ' ' || *p == '\t')
		p++;
	*start = p;
	if (!*p)
		return NULL;
	if (*p == '"') {
		w = ++p;
		p = strchr(p, '"');
		if (!p) {
			*err = xstrdup("no closing '\"'");
			return NULL;
		}
	} else {
		w = p;
		p += strcspn(p, " \t");
	}
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* NULL when @kind names a kind of data loss, else the error message. */
static char *bad_loss_kind(const char *kind)
{
	struct sbuf b = { 0 };
	int k;

	for (k = 0; k < LOSS_NKINDS; k++)
		if (!strcmp(kind, loss_kind_name(k)))
			return NULL;
	sbuf_printf(&b, "'%s' is not a kind of data loss (", kind);
	for (k = 0; k < LOSS_NKINDS; k++)
		sbuf_printf(&b, "%s%s", k ? ", " : "", loss_kind_name(k));
	sbuf_puts(&b, ")");
	return sbuf_steal(&b);
}

/*
 * Parse one line into @e; returns an error message or NULL, with *@at
 * where in @line the error is.
 */
static char *parse_exp(char *line, struct exp *e, char **at)
{
	char *err = NULL, *t, *w0 = line, *word;
	size_t i, nargs;

	memset(e, 0, sizeof(*e));
	e->min = 1;
	while ((t = next_word(&line, at, &err))) {
		word = *at;
		if (!e->nw && !e->negate && !strcmp(t, "not")) {
			e->negate = true;
		} else if (!strcmp(t, ">=")) {
			t = next_word(&line, at, &err);
			if (!t || !parse_u64(t, 10, &e->min))
				return err ? err : xstrdup("'>=' needs a number");
		} else if (!strcmp(t, "in")) {
			t = next_word(&line, at, &err);
			if (!t) {
				*at = word;
				return xstrdup("'in' needs a buffer name "
					       "(top or an instance)");
			}
			e->buffer = t;
		} else if (e->nw < ARRAY_SIZE(e->w)) {
			if (!e->nw)
				w0 = word;
			e->w[e->nw++] = t;
		} else {
			return xstrdup("too many words");
		}
	}
	if (err)
		return err;
	*at = w0;
	if (!e->nw)
		return xstrdup("'not' needs an expectation");
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
		if (!strcmp(e->w[0], "cpus") && cpulist_has(e->w[1], 0) < 0) {
			*at = e->w[1];
			return xasprintf("'%s' is not a CPU list (such as 0 or "
					 "0-1,4)", e->w[1]);
		}
		if (!strcmp(e->w[0], "data-loss") && nargs) {
			*at = e->w[1];
			return bad_loss_kind(e->w[1]);
		}
		return NULL;
	}
	return xasprintf("unknown expectation '%s' (see README.md)", e->w[0]);
}

struct outcome {
	unsigned int line;
	char *expect;
	bool ok;
	char *detail;
	bool error;	/* an unreadable file */
};

static void print_results(const struct outcome *o, size_t n, const char *expect,
			  enum check_format fmt, FILE *f)
{
	size_t i, ok = 0;

	for (i = 0; i < n; i++)
		ok += o[i].ok;
	if (fmt == CHECK_KTAP) {
		char *suite = xasprintf("check %s", expect);

		ktap_begin(f, suite, n);
		for (i = 0; i < n; i++)
			ktap_case(f, i + 1, o[i].ok, o[i].expect, NULL,
				  o[i].detail);
		ktap_end(f, suite, ok == n);
		free(suite);
		return;
	}
	if (fmt == CHECK_JSON)
		fputs("{\"schema\":\"boottrace-check-1\",\"results\":[", f);
	for (i = 0; i < n; i++) {
		if (fmt == CHECK_TEXT) {
			fprintf(f, "%-4s %-50s %s\n", o[i].ok ? "ok" : "FAIL",
				o[i].expect, o[i].detail);
			continue;
		}
		fprintf(f, "%s{\"line\":%u,\"expect\":", i ? "," : "",
			o[i].line);
		bconf_json_string(f, o[i].expect);
		fprintf(f, ",\"ok\":%s,\"detail\":", o[i].ok ? "true" : "false");
		bconf_json_string(f, o[i].detail);
		fputc('}', f);
	}
	if (fmt == CHECK_JSON)
		fprintf(f, "],\"passed\":%zu,\"failed\":%zu}\n", ok, n - ok);
	else
		fprintf(f, "%zu passed, %zu failed\n", ok, n - ok);
}

/*
 * Every expectation is parsed and evaluated before anything is printed: a
 * bad line, or a file without any expectation, is an error (exit 2) with
 * no partial output.  An expectation whose file is unreadable is printed
 * unmet, and is an error too.
 */
int check_run(const struct analysis *a, const char *expect,
	      enum check_format fmt, FILE *f)
{
	char *text, *line, *save = NULL, *err, *at;
	unsigned int lineno = 0;
	struct outcome *o = NULL;
	size_t n = 0, cap = 0, i, bad = 0, unreadable = 0;
	int r = bconf_read_file(expect, 1 << 20, &text, NULL), rc = 0;

	if (r) {
		fprintf(stderr, "trace-analysis: %s: cannot read: %s\n", expect,
			strerror(-r));
		return 2;
	}
	for (line = text; line; line = save) {
		struct exp e;
		struct result x;
		char *raw;

		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		if (!*trim(line))
			continue;
		raw = xstrdup(trim(line));
		err = parse_exp(trim(line), &e, &at);
		if (err) {
			fprintf(stderr, "trace-analysis: %s:%u:%td: %s\n",
				expect, lineno, at - line + 1, err);
			free(err);
			free(raw);
			rc = 2;
			break;
		}
		x = evaluate(a, &e);
		if (e.negate)
			x.ok = !x.ok;
		if (x.unknown)
			x.ok = false;	/* "not" of what is unknown is too */
		if (x.error)
			unreadable++;
		GROW(o, cap, n + 1);
		o[n++] = (struct outcome){ lineno, raw, x.ok, x.detail, x.error };
		bad += !x.ok;
	}
	free(text);
	if (!rc && !n)
		rc = cli_usage_error("check", "%s: no expectation in it (only "
				     "blank lines and comments), so it would "
				     "pass whatever the bundle holds: list at "
				     "least one", expect);
	if (!rc) {
		print_results(o, n, expect, fmt, f);
		for (i = 0; i < n; i++)
			if (o[i].error)
				fprintf(stderr, "trace-analysis: %s: %s\n",
					a->path, o[i].detail);
		rc = unreadable ? EXIT_ERROR : bad ? EXIT_FINDING : 0;
	}
	for (i = 0; i < n; i++) {
		free(o[i].expect);
		free(o[i].detail);
	}
	free(o);
	return rc;
}

static void check_usage(FILE *f)
{
	fputs("usage: trace-analysis check BUNDLE EXPECT [--json | --ktap]\n"
	      "\n"
	      "Verify a bundle against an expectations file (one expectation "
	      "per line,\n"
	      "trace-analysis(1) lists them).\n"
	      "\n"
	      "  --json            the results as JSON on stdout\n"
	      "  --ktap            the results as KTAP version 1 (one test "
	      "case per\n"
	      "                    expectation; kunit.py parse reads it)\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "Exit status: 0 every expectation met, 1 some unmet, 2 an error "
	      "(bad EXPECT,\nnot a bundle).\n", f);
}

int check_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ktap", no_argument, NULL, 'k' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum check_format fmt = CHECK_TEXT;
	struct analysis a;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': fmt = CHECK_JSON; break;
		case 'k': fmt = CHECK_KTAP; break;
		case 'h': check_usage(stdout); return 0;
		default: return cli_usage_error("check", "bad option");
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("check", "needs BUNDLE and EXPECT");
	if (cli_load(argv[optind], &a))
		return EXIT_ERROR;
	rc = check_run(&a, argv[optind + 1], fmt, stdout);
	if (rc != EXIT_ERROR && cli_bundle_errors(&a))
		rc = EXIT_ERROR;	/* an unreadable part: nothing is sure */
	analysis_free(&a);
	return rc;
}
