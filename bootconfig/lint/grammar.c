// SPDX-License-Identifier: GPL-2.0
/*
 * grammar.c - the keys kernel/trace/trace_boot.c reads, in one table.
 *
 * Patterns are relative to "ftrace." or "ftrace.instance.NAME." (trace_boot
 * reads the same keys for the top trace array and for each instance).
 * A pattern is dot-separated tokens:
 *   word        that word; "a|b" either
 *   *           any word (an event group or event name, a variable)
 *   #?          an optional word starting with a digit (hist.N, onmax.N:
 *               trace_boot treats every digit-led subkey as one instance)
 * The value kind says how lint.c checks the key's value.  Read from the
 * 6.1 and 6.12 trees (same keys) and Documentation/trace/boottime-trace.rst.
 */
#include <string.h>

#include "grammar.h"

#define HIST	"event.*.*.hist.#?."
#define HANDLER	HIST "onmax|onchange|onmatch.#?."

static const struct gram_rule grammar[] = {
	{ "options",			V_OPTIONS },
	{ "tracing_on",			V_TRACING_ON },
	{ "trace_clock",		V_CLOCK },
	{ "buffer_size",		V_SIZE },
	{ "alloc_snapshot",		V_FLAG },
	{ "cpumask",			V_CPUMASK },
	{ "events",			V_EVENTS },
	{ "tracer",			V_TRACER },
	{ "ftrace.filters",		V_FUNCS },
	{ "ftrace.notraces",		V_FUNCS },
	{ "event.enable",		V_FLAG },
	{ "event.*.enable",		V_FLAG },
	{ "event.kprobes.*.probes",	V_PROBES },
	{ "event.synthetic.*.fields",	V_SYNTH },
	{ "event.*.*.enable",		V_FLAG },
	{ "event.*.*.filter",		V_FILTER },
	{ "event.*.*.actions",		V_ACTIONS },
	{ "event.*.*.hist.#?",		V_HIST },
	{ HIST "keys",			V_LIST },
	{ HIST "values",		V_LIST },
	{ HIST "sort",			V_LIST },
	{ HIST "size",			V_ONE },
	{ HIST "name",			V_ONE },
	{ HIST "var.*",			V_ONE },
	{ HIST "pause|continue|clear",	V_FLAG },
	{ HIST "filter",		V_ONE },
	{ HANDLER "var|event",		V_ONE },
	{ HANDLER "trace|save",		V_LIST },
	{ HANDLER "snapshot",		V_FLAG },
};

#define MAX_TOK 16

struct tokens {
	const char *tok[MAX_TOK];
	size_t len[MAX_TOK];
	int n;
};

static void tokenize(const char *pat, struct tokens *t)
{
	t->n = 0;
	while (*pat && t->n < MAX_TOK) {
		const char *dot = strchr(pat, '.');
		size_t len = dot ? (size_t)(dot - pat) : strlen(pat);

		t->tok[t->n] = pat;
		t->len[t->n++] = len;
		pat += len + (dot ? 1 : 0);
	}
}

/* Does word @w match alternative list @tok (@len bytes)?  Literal: *lit. */
static bool tok_match(const char *tok, size_t len, const char *w, int *lit)
{
	const char *end = tok + len;

	if (len == 1 && *tok == '*')
		return true;
	if (len == 2 && !strncmp(tok, "#?", 2))
		return *w >= '0' && *w <= '9';
	while (tok < end) {
		const char *bar = memchr(tok, '|', (size_t)(end - tok));
		size_t n = bar ? (size_t)(bar - tok) : (size_t)(end - tok);

		if (strlen(w) == n && !strncmp(tok, w, n)) {
			(*lit)++;
			return true;
		}
		tok += n + 1;
	}
	return false;
}

static void add_cands(const struct tokens *t, int ti, struct gram_match *m)
{
	for (; ti < t->n; ti++) {
		const char *tok = t->tok[ti], *end = tok + t->len[ti];
		bool opt = t->len[ti] == 2 && !strncmp(tok, "#?", 2);

		if (opt)
			continue;
		if (t->len[ti] == 1 && *tok == '*')
			return;
		while (tok < end && m->ncand < GRAM_MAX_CAND) {
			const char *bar = memchr(tok, '|', (size_t)(end - tok));
			size_t n = bar ? (size_t)(bar - tok) : (size_t)(end - tok);

			m->cand[m->ncand] = tok;
			m->cand_len[m->ncand++] = n;
			tok += n + 1;
		}
		return;
	}
}

/* Match words[wi..] against tokens[ti..]; record the outcome in @m. */
static void match_from(const struct tokens *t, int ti, const char *const *w,
		       int wi, int n, int lit, enum vkind kind,
		       struct gram_match *m)
{
	int l;

	if (wi == n) {
		if (ti == t->n ||
		    (ti == t->n - 1 && t->len[ti] == 2 &&
		     !strncmp(t->tok[ti], "#?", 2))) {
			if (!m->full || lit > m->literals) {
				m->kind = kind;
				m->literals = lit;
			}
			m->full = true;
		}
		if (ti < t->n) {
			m->prefix = true;
			add_cands(t, ti, m);
		}
		return;
	}
	if (ti == t->n)
		return;
	if (t->len[ti] == 2 && !strncmp(t->tok[ti], "#?", 2))
		match_from(t, ti + 1, w, wi, n, lit, kind, m);
	l = lit;
	if (tok_match(t->tok[ti], t->len[ti], w[wi], &l))
		match_from(t, ti + 1, w, wi + 1, n, l, kind, m);
}

void gram_match(const char *const *words, int n, struct gram_match *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < sizeof(grammar) / sizeof(grammar[0]); i++) {
		struct tokens t;

		tokenize(grammar[i].pattern, &t);
		match_from(&t, 0, words, 0, n, 0, grammar[i].kind, m);
	}
}
