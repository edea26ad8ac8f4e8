// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - compare two bundles and gate regressions.
 *
 * Every comparable number becomes a metric with a name:
 *	initcall:FUNC                 duration in us (trace.dat, else the
 *	                              latency histogram; repeated names summed)
 *	total:initcalls               sum of all initcall durations, us
 *	event:BUFFER:GROUP:EVENT      records in trace.dat
 *	hist:BUFFER:GROUP:EVENT:KEY   hitcount of one histogram row
 * A metric regresses when it grows by more than its absolute limit AND by
 * more than its percent limit.  Limits come from the first matching line
 * of the thresholds file, then the built-in defaults (see README.md).
 * With normalisation (default when a boot ran under TCG) B's initcall
 * durations are first scaled to A's speed.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "ktap.h"
#include "util.h"

struct rule {
	char *pattern;
	bool ignore;
	uint64_t abs;		/* in the metric's unit */
	double pct;
	unsigned int line;	/* 0: built-in */
};

static const struct {
	const char *pattern, *spec;
} defaults[] = {
	{ "initcall:*", "abs=20ms pct=50" },
	{ "total:*", "abs=200ms pct=30" },
	{ "event:*", "ignore" },
	{ "hist:*", "ignore" },
};

enum mstat { M_OK, M_REGRESSION, M_IGNORED, M_ADDED, M_REMOVED };

struct metric {
	char *name;
	const char *unit;
	bool in_a, in_b;
	uint64_t a, b;
	enum mstat st;
	const struct rule *rule;
};

struct mset {
	struct metric *m;
	size_t n, cap;
};

static struct metric *get(struct mset *s, const char *name, const char *unit)
{
	size_t i;

	for (i = 0; i < s->n; i++)	/* sets are small (< 10k) */
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	GROW(s->m, s->cap, s->n + 1);
	memset(&s->m[s->n], 0, sizeof(s->m[0]));
	s->m[s->n].name = xstrdup(name);
	s->m[s->n].unit = unit;
	return &s->m[s->n++];
}

static void put(struct mset *s, const char *name, const char *unit, bool b,
		uint64_t v)
{
	struct metric *m = get(s, name, unit);

	if (b) {
		m->in_b = true;
		m->b += v;
	} else {
		m->in_a = true;
		m->a += v;
	}
}

static bool is_measure(const struct hist_key *k)
{
	return k->kind == HK_NUMBER || k->kind == HK_LOG2 ||
	       k->kind == HK_BUCKET;
}

/*
 * The identity of a histogram row across boots: its keys without the
 * measured ones.  In keys=func.sym,lat the lat is what the boot measured
 * (every boot has other values), so the row is func's; numeric keys count
 * as measured only next to a key that names something (symbol, string,
 * comm, syscall).  Rows that fall together are summed.
 */
static char *row_identity(const struct hist_entry *e)
{
	struct sbuf b = { 0 };
	bool named = false;
	size_t i;

	for (i = 0; i < e->nkeys; i++)
		named |= !is_measure(&e->keys[i]) && e->keys[i].kind != HK_HEX;
	if (!named)
		return hist_entry_key_text(e);
	for (i = 0; i < e->nkeys; i++) {
		const struct hist_key *k = &e->keys[i];

		if (is_measure(k))
			continue;
		if (b.len)
			sbuf_puts(&b, ", ");
		if (k->kind == HK_EXECNAME || k->kind == HK_SYSCALL)
			sbuf_printf(&b, "%s[%llu]", k->text,
				    (unsigned long long)k->num);
		else
			sbuf_puts(&b, k->text ? k->text : "");
	}
	return sbuf_steal(&b);
}

static void add_bundle(struct mset *s, const struct analysis *an, bool b,
		       bool use_trace)
{
	const struct initcall *ic = use_trace ? an->initcalls :
				    an->hist_initcalls;
	size_t n = use_trace ? an->ninitcalls : an->nhist_initcalls;
	size_t i, j, k, r;
	uint64_t total = 0;
	char *name;

	for (i = 0; i < n; i++) {
		if (!ic[i].finished)
			continue;	/* no duration to compare */
		name = xasprintf("initcall:%s", ic[i].func);
		put(s, name, "us", b, ic[i].dur_ns / 1000);
		total += ic[i].dur_ns / 1000;
		free(name);
	}
	if (n)
		put(s, "total:initcalls", "us", b, total);
	for (i = 0; i < an->ninst; i++) {
		const struct instance *in = &an->inst[i];

		for (j = 0; j < in->ncounts; j++) {
			if (!in->counts[j].name)
				continue;
			name = xasprintf("event:%s:%s:%s", inst_label(in),
					 in->counts[j].system,
					 in->counts[j].name);
			put(s, name, "records", b, in->counts[j].count);
			free(name);
		}
		for (j = 0; j < in->nevents; j++) {
			const struct ev_state *ev = &in->events[j];

			for (k = 0; k < ev->hist.n; k++) {
				const struct hist *h = &ev->hist.hists[k];

				for (r = 0; r < h->nentries; r++) {
					char *key = row_identity(
						&h->entries[r]);

					name = xasprintf("hist:%s:%s:%s:%s",
							 inst_label(in),
							 ev->system, ev->name,
							 key);
					put(s, name, "hits", b,
					    h->entries[r].hitcount);
					free(name);
					free(key);
				}
			}
		}
	}
}

/* "20ms", "1.5s", "300us", "1000" (the metric's unit) */
static bool parse_abs(const char *s, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v < 0)
		return false;
	if (!strcmp(end, "s"))
		v *= 1e6;
	else if (!strcmp(end, "ms"))
		v *= 1e3;
	else if (strcmp(end, "us") && *end)
		return false;
	*out = (uint64_t)(v + 0.5);
	return true;
}

static char *parse_spec(struct rule *r, char *spec)
{
	char *save = NULL, *t;
	bool any = false;

	r->abs = 0;
	r->pct = 0;
	for (t = strtok_r(spec, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		char *end;

		any = true;
		if (!strcmp(t, "ignore")) {
			r->ignore = true;
		} else if (!strncmp(t, "abs=", 4)) {
			if (!parse_abs(t + 4, &r->abs))
				return xasprintf("'%s': abs= takes a number "
						 "with an optional unit us, ms "
						 "or s", t);
		} else if (!strncmp(t, "pct=", 4)) {
			r->pct = strtod(t + 4, &end);
			if (end == t + 4 || *end || r->pct < 0)
				return xasprintf("'%s': pct= takes a "
						 "non-negative number", t);
		} else {
			return xasprintf("'%s': expected abs=N, pct=N or "
					 "ignore", t);
		}
	}
	return any ? NULL : xstrdup("a pattern needs abs=, pct= or ignore");
}

static int load_rules(const char *path, struct rule **out, size_t *n)
{
	char *text = NULL, *line, *next, *err;
	unsigned int lineno = 0;
	size_t i, cap = 0;
	int r;

	if (path) {
		r = bconf_read_file(path, 1 << 20, &text, NULL);
		if (r) {
			fprintf(stderr, "trace-analysis: %s: cannot read: %s\n",
				path, strerror(-r));
			return -1;
		}
	}
	for (line = text; line; line = next) {
		struct rule ru = { 0 };
		char *t, *sp;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		t = trim(line);
		if (!*t)
			continue;
		sp = strpbrk(t, " \t");
		ru.pattern = xstrndup(t, sp ? (size_t)(sp - t) : strlen(t));
		ru.line = lineno;
		err = parse_spec(&ru, sp ? sp : (char *)"");
		if (err) {
			fprintf(stderr, "trace-analysis: %s:%u: %s\n", path,
				lineno, err);
			free(err);
			free(ru.pattern);
			free(text);
			return -1;
		}
		GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = ru;
	}
	free(text);
	for (i = 0; i < ARRAY_SIZE(defaults); i++) {
		struct rule ru = { 0 };
		char *spec = xstrdup(defaults[i].spec);

		ru.pattern = xstrdup(defaults[i].pattern);
		free(parse_spec(&ru, spec));
		free(spec);
		GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = ru;
	}
	return 0;
}

static const struct rule *rule_for(const struct rule *rules, size_t n,
				   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!fnmatch(rules[i].pattern, name, 0))
			return &rules[i];
	return NULL;
}

static double pct_of(const struct metric *m)
{
	if (!m->a)
		return m->b ? 1e9 : 0;
	return ((double)m->b - (double)m->a) * 100.0 / (double)m->a;
}

static void judge(struct metric *m, const struct rule *rules, size_t n)
{
	m->rule = rule_for(rules, n, m->name);
	if (!m->rule || m->rule->ignore) {
		m->st = !m->in_a ? M_ADDED : !m->in_b ? M_REMOVED : M_IGNORED;
		return;
	}
	if (!m->in_b) {
		m->st = M_REMOVED;
		return;
	}
	if (m->b > m->a && m->b - m->a > m->rule->abs &&
	    pct_of(m) > m->rule->pct)
		m->st = M_REGRESSION;
	else
		m->st = m->in_a ? M_OK : M_ADDED;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/*
 * Under TCG every duration scales with the host's load.  The median of the
 * A/B ratios of initcalls that took at least 1 ms in both boots estimates
 * that factor without being moved by a few slow initcalls; B's initcall
 * durations are multiplied by it.  Returns the factor (1 if unknown).
 */
static double normalize(struct mset *s)
{
	double *r = xcalloc(s->n, sizeof(*r)), f = 1;
	size_t i, n = 0;
	uint64_t total = 0;

	for (i = 0; i < s->n; i++) {
		const struct metric *m = &s->m[i];

		if (!strncmp(m->name, "initcall:", 9) && m->in_a && m->in_b &&
		    m->a >= 1000 && m->b >= 1000)
			r[n++] = (double)m->a / (double)m->b;
	}
	if (n >= 5) {
		qsort(r, n, sizeof(*r), cmp_double);
		f = n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
	}
	free(r);
	for (i = 0; i < s->n; i++) {
		struct metric *m = &s->m[i];

		if (strncmp(m->name, "initcall:", 9))
			continue;
		m->b = (uint64_t)((double)m->b * f + 0.5);
		if (m->in_b)
			total += m->b;
	}
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->m[i].name, "total:initcalls") && s->m[i].in_b)
			s->m[i].b = total;
	return f;
}

static bool is_tcg(const struct analysis *a)
{
	const char *acc = analysis_meta(a, "accelerator");

	return acc && !strcmp(acc, "tcg");
}

static const char *stat_name(enum mstat s)
{
	static const char *const n[] = { "ok", "regression", "ignored",
					 "added", "removed" };

	return n[s];
}

static int64_t delta(const struct metric *m)
{
	return (int64_t)m->b - (int64_t)m->a;
}

static int cmp_delta(const void *x, const void *y)
{
	const struct metric *a = *(struct metric *const *)x;
	const struct metric *b = *(struct metric *const *)y;
	int64_t da = llabs(delta(a)), db = llabs(delta(b));

	if (a->st != b->st)
		return a->st == M_REGRESSION ? -1 :
		       b->st == M_REGRESSION ? 1 : 0;
	return da < db ? 1 : da > db ? -1 : strcmp(a->name, b->name);
}

static void text_metric(const struct metric *m, FILE *f)
{
	fprintf(f, "  %-10s %-50s %10" PRIu64 " -> %10" PRIu64 " %s (%+" PRId64,
		m->st == M_REGRESSION ? "REGRESSION" : stat_name(m->st),
		m->name, m->a, m->b, m->unit, delta(m));
	if (m->in_a && m->a)
		fprintf(f, ", %+.1f%%", pct_of(m));
	fputc(')', f);
	if (m->st == M_REGRESSION)
		fprintf(f, " > abs %" PRIu64 " %s and %.0f%% (%s, %s)",
			m->rule->abs, m->unit, m->rule->pct, m->rule->pattern,
			m->rule->line ? "thresholds file" : "built-in");
	fputc('\n', f);
}

/* Initcalls only one side has (e.g. initcall_blacklist=), by name. */
static void name_changes(struct metric **v, size_t n, enum mstat st,
			 const char *what, FILE *f)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->st != st || strncmp(v[i]->name, "initcall:", 9))
			continue;
		if (!k++)
			fprintf(f, "initcalls %s: ", what);
		else
			fputs(", ", f);
		fputs(v[i]->name + 9, f);
	}
	if (k)
		fputs("\n", f);
}

/* One KTAP test case per gated metric; the rest are skipped with why. */
static void ktap_out(struct metric **v, size_t n, size_t regs, FILE *f)
{
	size_t i;

	ktap_begin(f, "boottrace diff", n);
	for (i = 0; i < n; i++) {
		const struct metric *m = v[i];
		char *diag = NULL;

		if (m->in_a && m->in_b)
			diag = xasprintf("%" PRIu64 " -> %" PRIu64 " %s", m->a,
					 m->b, m->unit);
		if (m->st == M_REGRESSION) {
			free(diag);
			diag = xasprintf("%" PRIu64 " -> %" PRIu64 " %s, more "
					 "than abs %" PRIu64 " and %.0f%% (%s)",
					 m->a, m->b, m->unit, m->rule->abs,
					 m->rule->pct, m->rule->pattern);
		}
		ktap_case(f, i + 1, m->st != M_REGRESSION, m->name,
			  m->st == M_IGNORED ? "not gated" :
			  m->st == M_ADDED ? "added: only in B" :
			  m->st == M_REMOVED ? "removed: only in A" : NULL,
			  diag);
		free(diag);
	}
	ktap_end(f, "boottrace diff", !regs);
}

static void text_out(const struct analysis *a, const struct analysis *b,
		     struct metric **v, size_t n, size_t regs, const char *src,
		     double factor, FILE *f)
{
	size_t i, shown = 0, kinds[5] = { 0 };

	fprintf(f, "A  %s (%s, %s)\nB  %s (%s, %s)\ninitcalls from %s\n",
		a->path, analysis_meta(a, "kernel_release") ?: "?",
		analysis_meta(a, "created") ?: "?", b->path,
		analysis_meta(b, "kernel_release") ?: "?",
		analysis_meta(b, "created") ?: "?", src);
	if (factor > 0)
		fprintf(f, "B's initcall durations scaled by %.3f (median A/B "
			"ratio: the boots ran at different speeds)\n", factor);
	for (i = 0; i < n; i++)
		kinds[v[i]->st]++;
	fprintf(f, "metrics: %zu compared, %zu regressions, %zu added, %zu "
		"removed, %zu not gated\n\n", n, regs, kinds[M_ADDED],
		kinds[M_REMOVED], kinds[M_IGNORED]);
	for (i = 0; i < n; i++)
		if (v[i]->st == M_REGRESSION)
			text_metric(v[i], f);
	name_changes(v, n, M_REMOVED, "removed (in A, not in B)", f);
	name_changes(v, n, M_ADDED, "added (in B, not in A)", f);
	fprintf(f, "largest changes:\n");
	for (i = 0; i < n && shown < 25; i++) {
		if (v[i]->st == M_REGRESSION || !delta(v[i]))
			continue;
		text_metric(v[i], f);
		shown++;
	}
	fprintf(f, "\n%s\n", regs ? "result: REGRESSION (exit 1)" :
		"result: no regression");
}

static void json_out(const struct analysis *a, const struct analysis *b,
		     struct metric **v, size_t n, size_t regs, const char *src,
		     double factor, FILE *f)
{
	size_t i;

	fputs("{\"schema\":\"boottrace-diff-1\",\"a\":", f);
	bconf_json_string(f, a->path);
	fputs(",\"b\":", f);
	bconf_json_string(f, b->path);
	fputs(",\"initcall_source\":", f);
	bconf_json_string(f, src);
	if (factor > 0)
		fprintf(f, ",\"scale\":%.6f", factor);
	else
		fputs(",\"scale\":null", f);
	fprintf(f, ",\"regressions\":%zu,\"metrics\":[", regs);
	for (i = 0; i < n; i++) {
		const struct metric *m = v[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		bconf_json_string(f, m->name);
		fprintf(f, ",\"unit\":\"%s\",\"status\":\"%s\"", m->unit,
			stat_name(m->st));
		if (m->in_a)
			fprintf(f, ",\"a\":%" PRIu64, m->a);
		if (m->in_b)
			fprintf(f, ",\"b\":%" PRIu64, m->b);
		fprintf(f, ",\"delta\":%" PRId64, delta(m));
		if (m->in_a && m->a)
			fprintf(f, ",\"pct\":%.2f", pct_of(m));
		if (m->rule && !m->rule->ignore)
			fprintf(f, ",\"limit_abs\":%" PRIu64 ",\"limit_pct\":"
				"%.2f", m->rule->abs, m->rule->pct);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

int diff_run(const struct analysis *a, const struct analysis *b,
	     const char *thresholds, int norm, enum diff_format fmt, FILE *f)
{
	double factor = -1;
	struct rule *rules = NULL;
	size_t nrules = 0, i, regs = 0;
	struct mset s = { 0 };
	struct metric **v;
	bool use_trace = a->ninitcalls && b->ninitcalls;
	const char *src = use_trace ? "trace.dat" :
			  a->nhist_initcalls && b->nhist_initcalls ?
			  "latency histogram" : "none (no common source)";

	if (load_rules(thresholds, &rules, &nrules))
		return 2;
	if (use_trace || (a->nhist_initcalls && b->nhist_initcalls)) {
		add_bundle(&s, a, false, use_trace);
		add_bundle(&s, b, true, use_trace);
	} else {
		add_bundle(&s, a, false, false);
		add_bundle(&s, b, true, false);
	}
	if (norm > 0 || (norm < 0 && (is_tcg(a) || is_tcg(b))))
		factor = normalize(&s);
	v = xcalloc(s.n, sizeof(*v));
	for (i = 0; i < s.n; i++) {
		judge(&s.m[i], rules, nrules);
		regs += s.m[i].st == M_REGRESSION;
		v[i] = &s.m[i];
	}
	qsort(v, s.n, sizeof(*v), cmp_delta);
	if (fmt == DIFF_JSON)
		json_out(a, b, v, s.n, regs, src, factor, f);
	else if (fmt == DIFF_KTAP)
		ktap_out(v, s.n, regs, f);
	else
		text_out(a, b, v, s.n, regs, src, factor, f);
	for (i = 0; i < s.n; i++)
		free(s.m[i].name);
	free(s.m);
	free(v);
	for (i = 0; i < nrules; i++)
		free(rules[i].pattern);
	free(rules);
	return regs ? 1 : 0;
}

static void diff_usage(FILE *f)
{
	fputs("usage: trace-analysis diff A B [--thresholds FILE] "
	      "[--[no-]normalize] [--json | --ktap]\n"
	      "\n"
	      "Per-initcall, per-event and per-hist-key differences of bundle "
	      "B against\n"
	      "bundle A; a difference beyond its threshold is a regression.\n"
	      "\n"
	      "  --thresholds FILE per-pattern thresholds (README.md)\n"
	      "  --normalize       scale B's initcall durations to A's speed "
	      "(median ratio);\n"
	      "                    the default when a bundle booted under TCG\n"
	      "  --no-normalize    compare raw durations\n"
	      "  --json            the comparison as JSON on stdout\n"
	      "  --ktap            KTAP version 1: one test case per metric "
	      "compared\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "Exit status: 0 no regression, 1 a regression, 2 an error.\n",
	      f);
}

int diff_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ktap", no_argument, NULL, 'k' },
		{ "thresholds", required_argument, NULL, 'T' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "no-normalize", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *thresholds = NULL;
	enum diff_format fmt = DIFF_TEXT;
	struct analysis a, b;
	int c, rc, norm = -1;
	bool bad;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': fmt = DIFF_JSON; break;
		case 'k': fmt = DIFF_KTAP; break;
		case 'T': thresholds = optarg; break;
		case 'N': norm = 1; break;
		case 'n': norm = 0; break;
		case 'h': diff_usage(stdout); return 0;
		default: return cli_usage_error("diff", "bad option");
		}
	}
	if (argc - optind != 2)
		return cli_usage_error("diff", "needs two bundles A B");
	if (cli_load(argv[optind], &a))
		return EXIT_ERROR;
	if (cli_load(argv[optind + 1], &b)) {
		analysis_free(&a);
		return EXIT_ERROR;
	}
	/* both bundles' problems are printed before giving up */
	bad = cli_bundle_errors(&a);
	bad = cli_bundle_errors(&b) || bad;
	if (bad)
		rc = EXIT_ERROR;
	else
		rc = diff_run(&a, &b, thresholds, norm, fmt, stdout);
	analysis_free(&a);
	analysis_free(&b);
	return rc;
}
