// SPDX-License-Identifier: GPL-2.0
/*
 * trace_keys.c - the keys kernel/trace/trace_boot.c reads, in one table
 * (bconf_tkey_match()), and the kernel's memparse() that reads sizes.
 *
 * Patterns are relative to "ftrace." or "ftrace.instance.NAME." (trace_boot
 * reads the same keys for the top trace array and for each instance).
 * A pattern is dot-separated tokens:
 *   word        that word; "a|b" either
 *   *           any word (an event group or event name, a variable)
 *   #?          an optional word starting with a digit (hist.N, onmax.N:
 *               trace_boot treats every digit-led subkey as one instance)
 * Each rule names the key (enum bconf_tkey) and its value kind (how lint
 * checks the value).  Read from the
 * 6.1 and 6.12 trees (same keys) and Documentation/trace/boottime-trace.rst.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define HIST	"event.*.*.hist.#?."
#define HANDLER	HIST "onmax|onchange|onmatch.#?."

struct tkey_rule {
	const char *pattern;
	enum bconf_tkey key;
	enum bconf_tvalue kind;
};

static const struct tkey_rule grammar[] = {
	{ "options",		BCONF_TK_OPTIONS,	BCONF_TV_OPTIONS },
	{ "tracing_on",		BCONF_TK_TRACING_ON,	BCONF_TV_TRACING_ON },
	{ "trace_clock",	BCONF_TK_TRACE_CLOCK,	BCONF_TV_CLOCK },
	{ "buffer_size",	BCONF_TK_BUFFER_SIZE,	BCONF_TV_SIZE },
	{ "alloc_snapshot",	BCONF_TK_ALLOC_SNAPSHOT, BCONF_TV_FLAG },
	{ "cpumask",		BCONF_TK_CPUMASK,	BCONF_TV_CPUMASK },
	{ "events",		BCONF_TK_EVENTS,	BCONF_TV_EVENTS },
	{ "tracer",		BCONF_TK_TRACER,	BCONF_TV_TRACER },
	{ "ftrace.filters",	BCONF_TK_FTRACE_FILTERS, BCONF_TV_FUNCS },
	{ "ftrace.notraces",	BCONF_TK_FTRACE_NOTRACES, BCONF_TV_FUNCS },
	{ "event.enable",	BCONF_TK_ENABLE_ALL,	BCONF_TV_FLAG },
	{ "event.*.enable",	BCONF_TK_GROUP_ENABLE,	BCONF_TV_FLAG },
	{ "event.kprobes.*.probes", BCONF_TK_KPROBE_PROBES, BCONF_TV_PROBES },
	{ "event.synthetic.*.fields", BCONF_TK_SYNTH_FIELDS, BCONF_TV_SYNTH },
	{ "event.*.*.enable",	BCONF_TK_EVENT_ENABLE,	BCONF_TV_FLAG },
	{ "event.*.*.filter",	BCONF_TK_EVENT_FILTER,	BCONF_TV_FILTER },
	{ "event.*.*.actions",	BCONF_TK_EVENT_ACTIONS,	BCONF_TV_ACTIONS },
	{ "event.*.*.hist.#?",	BCONF_TK_HIST,		BCONF_TV_HIST },
	{ HIST "keys",		BCONF_TK_HIST_PART,	BCONF_TV_LIST },
	{ HIST "values",	BCONF_TK_HIST_PART,	BCONF_TV_LIST },
	{ HIST "sort",		BCONF_TK_HIST_PART,	BCONF_TV_LIST },
	{ HIST "size",		BCONF_TK_HIST_PART,	BCONF_TV_ONE },
	{ HIST "name",		BCONF_TK_HIST_PART,	BCONF_TV_ONE },
	{ HIST "var.*",		BCONF_TK_HIST_PART,	BCONF_TV_ONE },
	{ HIST "pause|continue|clear", BCONF_TK_HIST_PART, BCONF_TV_FLAG },
	{ HIST "filter",	BCONF_TK_HIST_PART,	BCONF_TV_ONE },
	{ HANDLER "var|event",	BCONF_TK_HIST_PART,	BCONF_TV_ONE },
	{ HANDLER "trace|save",	BCONF_TK_HIST_PART,	BCONF_TV_LIST },
	{ HANDLER "snapshot",	BCONF_TK_HIST_PART,	BCONF_TV_FLAG },
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

static void add_cands(const struct tokens *t, int ti, struct bconf_tkey_match *m)
{
	for (; ti < t->n; ti++) {
		const char *tok = t->tok[ti], *end = tok + t->len[ti];
		bool opt = t->len[ti] == 2 && !strncmp(tok, "#?", 2);

		if (opt)
			continue;
		if (t->len[ti] == 1 && *tok == '*')
			return;
		while (tok < end && m->ncand < BCONF_TK_MAX_CAND) {
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
		       int wi, int n, int lit, const struct tkey_rule *rule,
		       struct bconf_tkey_match *m)
{
	int l;

	if (wi == n) {
		if (ti == t->n ||
		    (ti == t->n - 1 && t->len[ti] == 2 &&
		     !strncmp(t->tok[ti], "#?", 2))) {
			if (!m->full || lit > m->literals) {
				m->key = rule->key;
				m->kind = rule->kind;
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
		match_from(t, ti + 1, w, wi, n, lit, rule, m);
	l = lit;
	if (tok_match(t->tok[ti], t->len[ti], w[wi], &l))
		match_from(t, ti + 1, w, wi + 1, n, l, rule, m);
}

BCONF_EXPORT void bconf_tkey_match(const char *const *words, int n,
				   struct bconf_tkey_match *m)
{
	size_t i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < sizeof(grammar) / sizeof(grammar[0]); i++) {
		struct tokens t;

		tokenize(grammar[i].pattern, &t);
		match_from(&t, 0, words, 0, n, 0, &grammar[i], m);
	}
}

BCONF_EXPORT enum bconf_tkey bconf_tkey_of(const char *relkey)
{
	const char *w[BCONF_DEPTH_MAX];
	char buf[BCONF_KEYLEN_MAX], *p = buf, *dot;
	struct bconf_tkey_match m;
	int n = 0;

	if (strlen(relkey) >= sizeof(buf))
		return BCONF_TK_NONE;
	strcpy(buf, relkey);
	while (n < BCONF_DEPTH_MAX) {
		w[n++] = p;
		dot = strchr(p, '.');
		if (!dot)
			break;
		*dot = '\0';
		p = dot + 1;
	}
	if (dot && n == BCONF_DEPTH_MAX)
		return BCONF_TK_NONE;
	bconf_tkey_match(w, n, &m);
	return m.full ? m.key : BCONF_TK_NONE;
}

BCONF_EXPORT bool bconf_memparse(const char *s, unsigned long long *out,
				 const char **end)
{
	unsigned long long n;
	char *e;
	int shift = 0;

	if (*s == '-' || *s == '+' || (*s >= '\t' && *s <= '\r') || *s == ' ')
		return false;
	errno = 0;
	n = strtoull(s, &e, 0);
	if (e == s)
		return false;
	switch (*e) {
	case 'E': case 'e': shift += 10; /* fall through */
	case 'P': case 'p': shift += 10; /* fall through */
	case 'T': case 't': shift += 10; /* fall through */
	case 'G': case 'g': shift += 10; /* fall through */
	case 'M': case 'm': shift += 10; /* fall through */
	case 'K': case 'k': shift += 10; e++; break;
	default: break;
	}
	if (shift && n < (1ULL << (64 - shift)))
		n <<= shift;
	*out = n;
	if (end)
		*end = e;
	return true;
}

BCONF_EXPORT int bconf_compose_key_raw(const struct bconf_node *node,
				       const struct bconf_node *root,
				       char *buf, size_t size)
{
	return bconf_compose_raw(node, root, buf, size);
}
