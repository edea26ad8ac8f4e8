// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - compare two bundles, or two sets of boots, and gate
 * regressions.
 *
 * Every comparable number becomes a metric with a name, one value per
 * boot:
 *	initcall:FUNC                 duration, start or end in us (--mode;
 *	                              trace.dat, else the latency histogram;
 *	                              repeated names summed / first / last)
 *	total:initcalls               sum of all initcall durations, us
 *	event:BUFFER:GROUP:EVENT      records in trace.dat
 *	hist:BUFFER:GROUP:EVENT:KEY   hitcount of one histogram row
 * A side's value is the median over its boots.  A metric regresses when
 * B's median exceeds A's by more than its absolute limit AND by more than
 * its percent limit AND, when both sides have at least two boots, the
 * Mann-Whitney U test (stats.h) gives p < alpha.  Limits come from the
 * first matching --threshold REGEX:PCT, then the thresholds file, then
 * the built-in defaults (see README.md).  With normalisation (default
 * when a boot ran under TCG) every boot's initcall values are first
 * scaled to A's speed.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "ktap.h"
#include "stats.h"
#include "util.h"

struct rule {
	char *pattern;
	bool ignore;
	bool is_re;		/* --threshold REGEX:PCT[:ABS] */
	bool has_abs;		/* is_re: ABS given, else the next rule's */
	regex_t re;
	uint64_t abs;		/* in the metric's unit */
	double pct;
	unsigned int line;	/* 0: built-in or command line */
};

static const struct {
	const char *pattern, *spec;
} defaults[] = {
	{ "initcall:*", "abs=20ms pct=50" },
	{ "total:*", "abs=200ms pct=30" },
	{ "event:*", "ignore" },
	{ "hist:*", "ignore" },
};

enum mstat { M_OK, M_REGRESSION, M_IGNORED, M_ADDED, M_REMOVED, M_NOISE };

enum { SA, SB };	/* the sides */

struct metric {
	char *name;
	const char *unit;
	double *v[2];		/* per boot; NAN where that boot has none */
	size_t n[2];		/* boots that have it */
	double med[2];		/* median over them */
	double p;		/* Mann-Whitney U, two-sided; NAN: not tested */
	enum mstat st;
	const struct rule *rule;
	uint64_t abs;		/* the limits that applied */
	double pct;
};

struct mset {
	struct metric *m;
	size_t n, cap;
	size_t boots[2];
};

enum op { OP_SUM, OP_MIN, OP_MAX };

static struct metric *get(struct mset *s, const char *name, const char *unit)
{
	struct metric *m;
	size_t i, k, side;

	for (i = 0; i < s->n; i++)	/* sets are small (< 10k) */
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	GROW(s->m, s->cap, s->n + 1);
	m = &s->m[s->n++];
	memset(m, 0, sizeof(*m));
	m->name = xstrdup(name);
	m->unit = unit;
	m->p = NAN;
	for (side = SA; side <= SB; side++) {
		m->v[side] = xcalloc(s->boots[side], sizeof(double));
		for (k = 0; k < s->boots[side]; k++)
			m->v[side][k] = NAN;
	}
	return m;
}

static void put(struct mset *s, const char *name, const char *unit,
		int side, size_t boot, double v, enum op op)
{
	double *x = &get(s, name, unit)->v[side][boot];

	if (isnan(*x))
		*x = v;
	else if (op == OP_SUM)
		*x += v;
	else if (op == OP_MIN ? v < *x : v > *x)
		*x = v;
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

static bool is_initcall(const struct metric *m)
{
	return !strncmp(m->name, "initcall:", 9);
}

static void add_bundle(struct mset *s, const struct analysis *an, int side,
		       size_t boot, bool use_trace, enum diff_mode mode)
{
	const struct initcall *ic = use_trace ? an->initcalls :
				    an->hist_initcalls;
	size_t n = use_trace ? an->ninitcalls : an->nhist_initcalls;
	size_t i, j, k, r;
	char *name;

	for (i = 0; i < n; i++) {
		uint64_t v = mode == MODE_START ? ic[i].start_ns :
			     mode == MODE_END ? ic[i].start_ns + ic[i].dur_ns :
			     ic[i].dur_ns;

		if (!ic[i].finished)
			continue;	/* no duration to compare */
		name = xasprintf("initcall:%s", ic[i].func);
		put(s, name, "us", side, boot, (double)(v / 1000),
		    mode == MODE_START ? OP_MIN : mode == MODE_END ? OP_MAX :
		    OP_SUM);
		free(name);
	}
	for (i = 0; i < an->ninst; i++) {
		const struct instance *in = &an->inst[i];

		for (j = 0; j < in->ncounts; j++) {
			if (!in->counts[j].name)
				continue;
			name = xasprintf("event:%s:%s:%s", inst_label(in),
					 in->counts[j].system,
					 in->counts[j].name);
			put(s, name, "records", side, boot,
			    (double)in->counts[j].count, OP_SUM);
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
					put(s, name, "hits", side, boot,
					    (double)h->entries[r].hitcount,
					    OP_SUM);
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

/* Parses @spec into @r; an error message, with *@at the word at fault. */
static char *parse_spec(struct rule *r, char *spec, char **at)
{
	char *save = NULL, *t;
	bool any = false;

	r->abs = 0;
	r->pct = 0;
	for (t = strtok_r(spec, " \t", &save); t;
	     t = strtok_r(NULL, " \t", &save)) {
		char *end;

		any = true;
		*at = t;
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
	char *text = NULL, *line, *next, *err, *at;
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
		at = t;
		err = parse_spec(&ru, sp ? sp : (char *)"", &at);
		if (err) {
			fprintf(stderr, "trace-analysis: %s:%u:%td: %s\n", path,
				lineno, at - line + 1, err);
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
		free(parse_spec(&ru, spec, &at));
		free(spec);
		GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = ru;
	}
	return 0;
}


/*
 * --threshold REGEX:PCT[:ABS], as the Collabora boot-time kselftest's
 * '^acpi_.*:50': REGEX (POSIX extended) on the initcall's function name,
 * or on the whole name of other metrics; ABS with its unit (us, ms, s),
 * else the limit the thresholds file or the defaults give.
 */
static char *parse_override(const char *arg, struct rule *r)
{
	char *s = xstrdup(arg), *c = strrchr(s, ':'), *end, *msg;
	int e;

	memset(r, 0, sizeof(*r));
	if (c && c > s && strpbrk(c + 1, "us") && parse_abs(c + 1, &r->abs)) {
		r->has_abs = true;
		*c = '\0';
		c = strrchr(s, ':');
	}
	if (!c || c == s) {
		free(s);
		return xasprintf("--threshold '%s': expected REGEX:PCT or "
				 "REGEX:PCT:ABS (e.g. '^acpi_.*:50')", arg);
	}
	*c = '\0';
	r->pct = strtod(c + 1, &end);
	if (end == c + 1 || *end || r->pct < 0) {
		free(s);
		return xasprintf("--threshold '%s': '%s' is not a percentage "
				 "(a non-negative number)", arg, c + 1);
	}
	e = regcomp(&r->re, s, REG_EXTENDED | REG_NOSUB);
	if (e) {
		char buf[256];

		regerror(e, &r->re, buf, sizeof(buf));
		msg = xasprintf("--threshold '%s': bad regex '%s': %s", arg, s,
				buf);
		free(s);
		return msg;
	}
	r->is_re = true;
	r->pattern = s;
	return NULL;
}

static void free_rules(struct rule *rules, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rules[i].is_re)
			regfree(&rules[i].re);
		free(rules[i].pattern);
	}
	free(rules);
}

/* Overrides first, then the file, then the defaults. */
static int get_rules(const struct diff_opts *o, struct rule **out, size_t *n)
{
	size_t i;
	char *err;

	*out = xcalloc(o->noverrides + 1, sizeof(**out));
	for (i = 0; i < o->noverrides; i++) {
		err = parse_override(o->overrides[i], &(*out)[i]);
		if (err) {
			fprintf(stderr, "trace-analysis diff: %s\n", err);
			free(err);
			free_rules(*out, i);
			*out = NULL;
			return -1;
		}
	}
	*n = i;
	if (load_rules(o->thresholds, out, n)) {
		free_rules(*out, *n);
		*out = NULL;
		return -1;
	}
	return 0;
}

static const char *subject(const char *name)
{
	return !strncmp(name, "initcall:", 9) ? name + 9 : name;
}

static const struct rule *rule_for(const struct rule *rules, size_t n,
				   const char *name, bool files_only)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (rules[i].is_re) {
			if (!files_only &&
			    !regexec(&rules[i].re, subject(name), 0, NULL, 0))
				return &rules[i];
		} else if (!fnmatch(rules[i].pattern, name, 0)) {
			return &rules[i];
		}
	}
	return NULL;
}

static double delta(const struct metric *m)
{
	return m->med[SB] - m->med[SA];
}

static double pct_of(const struct metric *m)
{
	if (!m->med[SA])
		return m->med[SB] ? 1e9 : 0;
	return delta(m) * 100.0 / m->med[SA];
}

/* The boots of @side that have @m, in @out; their count. */
static size_t present(const struct metric *m, size_t boots, int side,
		      double *out)
{
	size_t k, n = 0;

	for (k = 0; k < boots; k++)
		if (!isnan(m->v[side][k]))
			out[n++] = m->v[side][k];
	return n;
}

/* Medians and, where both sides have two boots or more, the U test. */
static void summarise(struct metric *m, const size_t boots[2])
{
	double *x = xcalloc(boots[SA] + 1, sizeof(*x));
	double *y = xcalloc(boots[SB] + 1, sizeof(*y));
	int side;

	m->n[SA] = present(m, boots[SA], SA, x);
	m->n[SB] = present(m, boots[SB], SB, y);
	if (m->n[SA] >= 2 && m->n[SB] >= 2)
		m->p = stats_mwu(y, m->n[SB], x, m->n[SA]).p;
	for (side = SA; side <= SB; side++)
		if (m->n[side])
			m->med[side] = stats_median(side == SA ? x : y,
						    m->n[side]);
	free(x);
	free(y);
}

static void judge(struct metric *m, const struct rule *rules, size_t n,
		  double alpha)
{
	const struct rule *fb;

	m->rule = rule_for(rules, n, m->name, false);
	if (!m->rule || m->rule->ignore) {
		m->st = !m->n[SA] ? M_ADDED : !m->n[SB] ? M_REMOVED : M_IGNORED;
		return;
	}
	m->abs = m->rule->abs;
	m->pct = m->rule->pct;
	if (m->rule->is_re && !m->rule->has_abs) {
		fb = rule_for(rules, n, m->name, true);
		m->abs = fb ? fb->abs : 0;
	}
	if (!m->n[SB]) {
		m->st = M_REMOVED;
		return;
	}
	if (!m->n[SA])
		m->st = M_ADDED;
	else if (delta(m) > (double)m->abs && pct_of(m) > m->pct)
		m->st = isnan(m->p) || m->p < alpha ? M_REGRESSION : M_NOISE;
	else
		m->st = M_OK;
}

/*
 * Under TCG every duration scales with the host's load.  The reference is
 * each initcall's median over A's boots; a boot's factor is the median of
 * reference/value over the initcalls that took at least 1 ms in both,
 * which a few slow initcalls cannot move (1 with fewer than 5 of them).
 * Every boot's initcall values, on both sides, are multiplied by its
 * factor; with one bundle each side that is A's 1 and B's median A/B.
 */
static void normalize(struct mset *s, double *factor[2])
{
	double *ref = xcalloc(s->n + 1, sizeof(*ref));
	double *r = xcalloc(s->n + 1, sizeof(*r));
	double *x = xcalloc(s->boots[SA] + 1, sizeof(*x));
	size_t i, k, n;
	int side;

	for (i = 0; i < s->n; i++) {
		n = is_initcall(&s->m[i]) ?
		    present(&s->m[i], s->boots[SA], SA, x) : 0;
		ref[i] = n ? stats_median(x, n) : NAN;
	}
	for (side = SA; side <= SB; side++) {
		for (k = 0; k < s->boots[side]; k++) {
			double f = 1;

			for (i = 0, n = 0; i < s->n; i++) {
				double v = s->m[i].v[side][k];

				if (!isnan(ref[i]) && ref[i] >= 1000 &&
				    !isnan(v) && v >= 1000)
					r[n++] = ref[i] / v;
			}
			if (n >= 5)
				f = stats_median(r, n);
			factor[side][k] = f;
			for (i = 0; i < s->n; i++)
				if (is_initcall(&s->m[i]))
					s->m[i].v[side][k] =
						round(s->m[i].v[side][k] * f);
		}
	}
	free(ref);
	free(r);
	free(x);
}

/* total:initcalls of each boot that has initcalls (after scaling). */
static void totals(struct mset *s)
{
	size_t i, k, n = s->n;
	int side;

	for (side = SA; side <= SB; side++)
		for (k = 0; k < s->boots[side]; k++) {
			double t = 0;
			bool any = false;

			for (i = 0; i < n; i++)
				if (is_initcall(&s->m[i]) &&
				    !isnan(s->m[i].v[side][k])) {
					t += s->m[i].v[side][k];
					any = true;
				}
			if (any)
				put(s, "total:initcalls", "us", side, k, t,
				    OP_SUM);
		}
}

static bool is_tcg(const struct analysis *a)
{
	const char *acc = analysis_meta(a, "accelerator");

	return acc && !strcmp(acc, "tcg");
}

static bool any_tcg(const struct bundle_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (is_tcg(&s->an[i]))
			return true;
	return false;
}

static const char *stat_name(enum mstat s)
{
	static const char *const n[] = { "ok", "regression", "ignored",
					 "added", "removed", "noise" };

	return n[s];
}

static const char *const mode_names[] = { "duration", "start", "end" };

static int cmp_delta(const void *x, const void *y)
{
	const struct metric *a = *(struct metric *const *)x;
	const struct metric *b = *(struct metric *const *)y;
	double da = fabs(delta(a)), db = fabs(delta(b));
	int ra = a->st == M_REGRESSION, rb = b->st == M_REGRESSION;

	if (ra != rb)
		return rb - ra;	/* regressions first */
	return da < db ? 1 : da > db ? -1 : strcmp(a->name, b->name);
}

/* "512846 -> 2512846 us, +1.2%" or what one side has */
static char *values_text(const struct metric *m)
{
	struct sbuf b = { 0 };

	sbuf_printf(&b, "%.0f -> %.0f %s (%+.0f", m->med[SA], m->med[SB],
		    m->unit, delta(m));
	if (m->n[SA] && m->med[SA])
		sbuf_printf(&b, ", %+.1f%%", pct_of(m));
	sbuf_puts(&b, ")");
	if (!isnan(m->p))
		sbuf_printf(&b, " p=%.4f", m->p);
	return sbuf_steal(&b);
}

static void text_metric(const struct metric *m, double alpha, FILE *f)
{
	fprintf(f, "  %-10s %-50s %10.0f -> %10.0f %s (%+.0f",
		m->st == M_REGRESSION ? "REGRESSION" : stat_name(m->st),
		m->name, m->med[SA], m->med[SB], m->unit, delta(m));
	if (m->n[SA] && m->med[SA])
		fprintf(f, ", %+.1f%%", pct_of(m));
	fputc(')', f);
	if (!isnan(m->p))
		fprintf(f, " p=%.4f", m->p);
	if (m->st == M_REGRESSION || m->st == M_NOISE)
		fprintf(f, " > abs %" PRIu64 " %s and %.0f%% (%s, %s)%s",
			m->abs, m->unit, m->pct, m->rule->pattern,
			m->rule->is_re ? "--threshold" :
			m->rule->line ? "thresholds file" : "built-in",
			m->st == M_NOISE ? ", but not significant" : "");
	if (m->st == M_NOISE)
		fprintf(f, " (alpha %g)", alpha);
	fputc('\n', f);
}

/* Initcalls only one side has (e.g. initcall_blacklist=), by name. */
static void name_changes(struct metric **v, size_t n, enum mstat st,
			 const char *what, FILE *f)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (v[i]->st != st || !is_initcall(v[i]))
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
		char *diag = NULL, *val;

		if (m->n[SA] && m->n[SB]) {
			val = values_text(m);
			if (m->st == M_REGRESSION || m->st == M_NOISE)
				diag = xasprintf("%s, more than abs %" PRIu64
						 " and %.0f%% (%s)%s", val,
						 m->abs, m->pct,
						 m->rule->pattern,
						 m->st == M_NOISE ?
						 ", not significant" : "");
			else
				diag = xstrdup(val);
			free(val);
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

static void side_text(const char *label, const struct bundle_set *s,
		      FILE *f)
{
	const struct analysis *a = &s->an[0];

	fprintf(f, "%s  %s (", label, s->path);
	if (s->is_set)
		fprintf(f, "set of %zu boots, ", s->n);
	fprintf(f, "%s, %s)\n", analysis_kernel_release(a) ?: "?",
		analysis_boot_started(a) ?: "?");
}

static void factors_text(const char *label, const double *fa, size_t n,
			 FILE *f)
{
	size_t k;

	fputs(label, f);
	for (k = 0; k < n; k++)
		fprintf(f, " %.3f", fa[k]);
}

struct diff_result {
	struct metric **v;
	size_t n, regs;
	const char *src;
	bool no_initcalls;	/* no boot has initcall durations */
	double *factor[2];	/* NULL: not normalised */
	size_t boots[2];
};

static void text_out(const struct bundle_set *a, const struct bundle_set *b,
		     const struct diff_result *r, const struct diff_opts *o,
		     FILE *f)
{
	size_t i, shown = 0, kinds[6] = { 0 };
	bool sets = a->is_set || b->is_set;

	side_text("A", a, f);
	side_text("B", b, f);
	fprintf(f, "initcalls from %s", r->src);
	if (o->mode != MODE_DURATION)
		fprintf(f, ", compared by %s time", mode_names[o->mode]);
	fputc('\n', f);
	if (r->factor[SA] && !sets) {
		fprintf(f, "B's initcall durations scaled by %.3f (median A/B "
			"ratio: the boots ran at different speeds)\n",
			r->factor[SB][0]);
	} else if (r->factor[SA]) {
		fputs("each boot's initcall values scaled to A's medians by",
		      f);
		factors_text(" A", r->factor[SA], r->boots[SA], f);
		factors_text("; B", r->factor[SB], r->boots[SB], f);
		fputc('\n', f);
	}
	if (sets)
		fprintf(f, "values are medians over the boots; a change "
			"counts when Mann-Whitney U gives p < %g\n", o->alpha);
	for (i = 0; i < r->n; i++)
		kinds[r->v[i]->st]++;
	fprintf(f, "metrics: %zu compared, %zu regressions, %zu added, %zu "
		"removed, %zu not gated", r->n, r->regs, kinds[M_ADDED],
		kinds[M_REMOVED], kinds[M_IGNORED]);
	if (sets)
		fprintf(f, ", %zu over a threshold but not significant",
			kinds[M_NOISE]);
	fputs("\n\n", f);
	for (i = 0; i < r->n; i++)
		if (r->v[i]->st == M_REGRESSION)
			text_metric(r->v[i], o->alpha, f);
	name_changes(r->v, r->n, M_REMOVED, "removed (in A, not in B)", f);
	name_changes(r->v, r->n, M_ADDED, "added (in B, not in A)", f);
	fprintf(f, "largest changes:\n");
	for (i = 0; i < r->n && shown < 25; i++) {
		if (r->v[i]->st == M_REGRESSION || !delta(r->v[i]))
			continue;
		text_metric(r->v[i], o->alpha, f);
		shown++;
	}
	fprintf(f, "\n%s%s\n", r->regs ? "result: REGRESSION (exit 1)" :
		"result: no regression", r->no_initcalls ? "; initcalls not "
		"compared: no boot has initcall durations (above)" : "");
}

/* A JSON number: integral values without a fraction. */
static void json_num(FILE *f, double v)
{
	if (v == floor(v) && fabs(v) < 1e15)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.3f", v);
}

static void json_values(FILE *f, const char *key, const double *v, size_t n)
{
	size_t k;

	fprintf(f, ",\"%s\":[", key);
	for (k = 0; k < n; k++) {
		if (k)
			fputc(',', f);
		if (isnan(v[k]))
			fputs("null", f);
		else
			json_num(f, v[k]);
	}
	fputc(']', f);
}

static void json_out(const struct bundle_set *a, const struct bundle_set *b,
		     const struct diff_result *r, const struct diff_opts *o,
		     FILE *f)
{
	size_t i;

	fputs("{\"schema\":\"boottrace-diff-1\",\"a\":", f);
	bconf_json_string(f, a->path);
	fputs(",\"b\":", f);
	bconf_json_string(f, b->path);
	fprintf(f, ",\"boots_a\":%zu,\"boots_b\":%zu,\"mode\":\"%s\","
		"\"alpha\":%g,\"initcall_source\":", a->n, b->n,
		mode_names[o->mode], o->alpha);
	bconf_json_string(f, r->src);
	if (r->factor[SA] && !a->is_set && !b->is_set)
		fprintf(f, ",\"scale\":%.6f", r->factor[SB][0]);
	else
		fputs(",\"scale\":null", f);
	if (r->factor[SA]) {
		json_values(f, "scale_a", r->factor[SA], r->boots[SA]);
		json_values(f, "scale_b", r->factor[SB], r->boots[SB]);
	}
	fprintf(f, ",\"regressions\":%zu,\"metrics\":[", r->regs);
	for (i = 0; i < r->n; i++) {
		const struct metric *m = r->v[i];

		fprintf(f, "%s{\"name\":", i ? "," : "");
		bconf_json_string(f, m->name);
		fprintf(f, ",\"unit\":\"%s\",\"status\":\"%s\"", m->unit,
			stat_name(m->st));
		if (m->n[SA]) {
			fputs(",\"a\":", f);
			json_num(f, m->med[SA]);
		}
		if (m->n[SB]) {
			fputs(",\"b\":", f);
			json_num(f, m->med[SB]);
		}
		fputs(",\"delta\":", f);
		json_num(f, delta(m));
		if (m->n[SA] && m->med[SA])
			fprintf(f, ",\"pct\":%.2f", pct_of(m));
		if (!isnan(m->p))
			fprintf(f, ",\"p\":%.6f", m->p);
		if (a->is_set || b->is_set) {
			json_values(f, "values_a", m->v[SA], r->boots[SA]);
			json_values(f, "values_b", m->v[SB], r->boots[SB]);
		}
		if (m->rule && !m->rule->ignore)
			fprintf(f, ",\"limit_abs\":%" PRIu64 ",\"limit_pct\":"
				"%.2f", m->abs, m->pct);
		fputc('}', f);
	}
	fputs("]}\n", f);
}

/* Boot @i of A then B: its analysis, and "A" or "B" in *@side. */
static const struct analysis *boot(const struct bundle_set *a,
				   const struct bundle_set *b, size_t i,
				   const char **side)
{
	*side = i < a->n ? "A" : "B";
	return i < a->n ? &a->an[i] : &b->an[i - a->n];
}

/* Whether @an has initcall durations (from trace.dat or a histogram). */
static bool has_durations(const struct analysis *an)
{
	return an->ninitcalls || an->nhist_initcalls;
}

/* What @an has to time initcalls with, for messages. */
static const char *initcall_data(const struct analysis *an)
{
	if (an->ninitcalls && an->nhist_initcalls)
		return "initcall events in trace.dat and a latency histogram";
	if (an->ninitcalls)
		return "initcall events in trace.dat, no latency histogram";
	if (an->nhist_initcalls)
		return "a latency histogram, no initcall events in trace.dat";
	if (an->initcalls_untimed)
		return "initcall events on a trace clock that does not count "
		       "time, no latency histogram";
	if (!an->trace_ok)
		return "no trace.dat and no latency histogram";
	return "no initcall events in trace.dat and no latency histogram";
}

/* What the boots of both sides have, counted in one walk. */
struct census {
	size_t n;		/* boots */
	size_t ntrace;		/* with trace.dat read */
	size_t ndur;		/* with initcall durations from any source */
	bool trace;		/* every boot: initcalls in trace.dat */
	bool hist;		/* every boot: an initcall latency histogram */
	bool untimed;		/* some boot: trace.dat on a clock without time */
};

static struct census take_census(const struct bundle_set *a,
				 const struct bundle_set *b)
{
	struct census c = { .n = a->n + b->n, .trace = true, .hist = true };
	const char *side;
	size_t i;

	for (i = 0; i < c.n; i++) {
		const struct analysis *an = boot(a, b, i, &side);

		c.ntrace += an->trace_ok;
		c.ndur += has_durations(an);
		c.trace &= an->ninitcalls > 0;
		c.hist &= an->nhist_initcalls > 0;
		c.untimed |= an->initcalls_untimed != NULL;
	}
	return c;
}

/*
 * The initcall source both sides have in every boot: trace.dat
 * (c->trace), else the latency histogram, else none (neither).
 */
static const char *initcall_source(const struct census *c)
{
	return c->trace ? "trace.dat" : c->hist ? "latency histogram" :
	       c->untimed ? "none (trace.dat's are on a clock that does not "
	       "count time, see report)" : !c->ndur ? "none (no boot has "
	       "initcall events or a latency histogram)" :
	       "none (no common source)";
}

/*
 * Whether the boots can be compared, else why not on stderr, naming each
 * boot (exit 2).  A diff that compares less than it seems to would pass a
 * regression gate by comparing nothing: every boot must have trace.dat or
 * none, and initcall durations from a source every boot has, unless no
 * boot has any while every boot has its trace.dat (a config that traces no
 * initcalls, or a clock that counts no time: the text says so).
 */
static bool comparable(const struct bundle_set *a, const struct bundle_set *b,
		       const struct census *c)
{
	size_t i, n = c->n;
	const char *side, *why = NULL;

	if (c->ntrace && c->ntrace < n) {
		fprintf(stderr, "trace-analysis diff: not every boot has "
			"trace.dat (%zu of %zu have none): their records and "
			"initcalls cannot be compared:\n", n - c->ntrace, n);
		for (i = 0; i < n; i++) {
			const struct analysis *an = boot(a, b, i, &side);

			if (!an->trace_ok)
				fprintf(stderr, "  %s %s: %s\n", side,
					an->path, an->trace_error ?:
					"trace.dat: not read");
		}
		fputs("collect those boots again (boottrace boot), or leave "
		      "them out of the sets\n", stderr);
		return false;
	}
	if (c->trace || c->hist)
		return true;
	if (c->ndur)
		why = "no source of initcall durations is common to every boot";
	else if (!c->ntrace)
		why = "no boot has trace.dat or an initcall latency histogram";
	if (!why)
		return true;
	fprintf(stderr, "trace-analysis diff: the initcalls cannot be "
		"compared: %s:\n", why);
	for (i = 0; i < n; i++) {
		const struct analysis *an = boot(a, b, i, &side);

		fprintf(stderr, "  %s %s: %s\n", side, an->path,
			initcall_data(an));
	}
	fputs("compare boots of configs that time initcalls the same way "
	      "(initcall events in trace.dat, or a latency histogram)\n",
	      stderr);
	return false;
}

int diff_run(const struct bundle_set *a, const struct bundle_set *b,
	     const struct diff_opts *o, FILE *f)
{
	struct diff_result r = { 0 };
	struct rule *rules = NULL;
	size_t nrules = 0, i, k;
	struct mset s = { 0 };
	struct census c = take_census(a, b);
	bool use_trace = c.trace;
	int side;

	r.src = initcall_source(&c);
	r.no_initcalls = !c.ndur;
	if (!comparable(a, b, &c))
		return EXIT_ERROR;
	if (o->mode != MODE_DURATION && !use_trace) {
		fprintf(stderr, "trace-analysis diff: --mode %s needs initcall "
			"start times, which only trace.dat has (initcall "
			"events); initcalls here come from: %s\n",
			mode_names[o->mode], r.src);
		return EXIT_ERROR;
	}
	if (get_rules(o, &rules, &nrules))
		return EXIT_ERROR;
	s.boots[SA] = r.boots[SA] = a->n;
	s.boots[SB] = r.boots[SB] = b->n;
	for (k = 0; k < a->n; k++)
		add_bundle(&s, &a->an[k], SA, k, use_trace, o->mode);
	for (k = 0; k < b->n; k++)
		add_bundle(&s, &b->an[k], SB, k, use_trace, o->mode);
	if (o->norm > 0 || (o->norm < 0 && (any_tcg(a) || any_tcg(b)))) {
		r.factor[SA] = xcalloc(a->n, sizeof(double));
		r.factor[SB] = xcalloc(b->n, sizeof(double));
		normalize(&s, r.factor);
	}
	if (o->mode == MODE_DURATION)
		totals(&s);
	r.v = xcalloc(s.n + 1, sizeof(*r.v));
	for (i = 0; i < s.n; i++) {
		summarise(&s.m[i], s.boots);
		judge(&s.m[i], rules, nrules, o->alpha);
		r.regs += s.m[i].st == M_REGRESSION;
		r.v[i] = &s.m[i];
	}
	r.n = s.n;
	qsort(r.v, s.n, sizeof(*r.v), cmp_delta);
	if (o->fmt == DIFF_JSON)
		json_out(a, b, &r, o, f);
	else if (o->fmt == DIFF_KTAP)
		ktap_out(r.v, r.n, r.regs, f);
	else
		text_out(a, b, &r, o, f);
	for (i = 0; i < s.n; i++) {
		free(s.m[i].name);
		for (side = SA; side <= SB; side++)
			free(s.m[i].v[side]);
	}
	free(s.m);
	free(r.v);
	free(r.factor[SA]);
	free(r.factor[SB]);
	free_rules(rules, nrules);
	return r.regs ? 1 : 0;
}

static void diff_usage(FILE *f)
{
	fputs("usage: trace-analysis diff A B [--thresholds FILE] "
	      "[--threshold REGEX:PCT[:ABS]]...\n"
	      "                           [--mode duration|start|end] "
	      "[--alpha P] [--[no-]normalize]\n"
	      "                           [--json | --ktap]\n"
	      "\n"
	      "Per-initcall, per-event and per-hist-key differences of B "
	      "against A; each side\n"
	      "is a bundle or a set directory of boots (DIR/1 .. DIR/N, e.g. "
	      "from\n"
	      "boottrace boot --repeat N).  A change beyond its thresholds is a "
	      "regression; with\n"
	      "two boots or more on each side it must also be significant "
	      "(Mann-Whitney U).\n"
	      "\n"
	      "  --thresholds FILE  per-pattern thresholds (README.md)\n"
	      "  --threshold RE:PCT[:ABS]  percent (and absolute, e.g. 50ms) "
	      "limit for the\n"
	      "                     initcalls whose name matches the regex "
	      "RE, e.g. '^acpi_.*:50';\n"
	      "                     repeatable, before the file's lines\n"
	      "  --mode MODE        initcalls by duration (default), start "
	      "or end time\n"
	      "  --alpha P          significance level for sets (default "
	      "0.01)\n"
	      "  --normalize        scale every boot's initcall values to A's "
	      "speed (median\n"
	      "                     ratio); the default when a bundle booted "
	      "under TCG\n"
	      "  --no-normalize     compare raw values\n"
	      "  --json             the comparison as JSON on stdout\n"
	      "  --ktap             KTAP version 1: one test case per metric "
	      "compared\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "Exit status: 0 no regression, 1 a regression, 2 an error.\n",
	      f);
}

static bool load_side(const char *path, struct bundle_set *s)
{
	char *err = NULL;

	if (set_load(path, s, &err)) {
		fprintf(stderr, "trace-analysis: %s\n", err);
		free(err);
		return false;
	}
	return true;
}

/* Print every bundle's problems; whether there were any. */
static bool set_errors(const struct bundle_set *s)
{
	bool bad = false;
	size_t i;

	for (i = 0; i < s->n; i++)
		bad = cli_bundle_errors(&s->an[i]) || bad;
	return bad;
}

int diff_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "ktap", no_argument, NULL, 'k' },
		{ "thresholds", required_argument, NULL, 'T' },
		{ "threshold", required_argument, NULL, 't' },
		{ "mode", required_argument, NULL, 'm' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "no-normalize", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_opts o = { .norm = -1, .alpha = 0.01 };
	struct bundle_set a, b;
	size_t i, cap = 0;
	int c, rc;
	char *end;
	bool bad;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': o.fmt = DIFF_JSON; break;
		case 'k': o.fmt = DIFF_KTAP; break;
		case 'T': o.thresholds = optarg; break;
		case 't':
			GROW(o.overrides, cap, o.noverrides + 1);
			o.overrides[o.noverrides++] = optarg;
			break;
		case 'm':
			for (i = 0; i < ARRAY_SIZE(mode_names); i++)
				if (!strcmp(optarg, mode_names[i]))
					break;
			if (i == ARRAY_SIZE(mode_names)) {
				free(o.overrides);
				return cli_usage_error("diff", "--mode '%s': "
						       "expected duration, "
						       "start or end", optarg);
			}
			o.mode = i;
			break;
		case 'a':
			o.alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(o.alpha > 0) ||
			    o.alpha >= 1) {
				free(o.overrides);
				return cli_usage_error("diff", "--alpha '%s': "
						       "expected a number "
						       "between 0 and 1",
						       optarg);
			}
			break;
		case 'N': o.norm = 1; break;
		case 'n': o.norm = 0; break;
		case 'h': diff_usage(stdout); free(o.overrides); return 0;
		default:
			free(o.overrides);
			return cli_usage_error("diff", "bad option");
		}
	}
	if (argc - optind != 2) {
		free(o.overrides);
		return cli_usage_error("diff", "needs two bundles or sets A B");
	}
	rc = EXIT_ERROR;
	if (!load_side(argv[optind], &a))
		goto out;
	if (!load_side(argv[optind + 1], &b)) {
		set_free(&a);
		goto out;
	}
	/* both sides' problems are printed before giving up */
	bad = set_errors(&a);
	bad = set_errors(&b) || bad;
	if (!bad)
		rc = diff_run(&a, &b, &o, stdout);
	set_free(&a);
	set_free(&b);
out:
	free(o.overrides);
	return rc;
}
