/* SPDX-License-Identifier: GPL-2.0 */
/* Private: the trace_boot key grammar (grammar.c). */
#ifndef BCONF_LINT_GRAMMAR_H
#define BCONF_LINT_GRAMMAR_H

#include <stdbool.h>
#include <stddef.h>

enum vkind {
	V_CONTAINER,	/* no value expected */
	V_OPTIONS,	/* trace option names, "no" prefix allowed */
	V_TRACING_ON,	/* kstrtoul(, 10) */
	V_CLOCK,	/* a trace clock */
	V_SIZE,		/* memparse() size, >= PAGE_SIZE */
	V_FLAG,		/* presence only: any value is ignored */
	V_CPUMASK,	/* cpumask_parse(): hex groups separated by commas */
	V_EVENTS,	/* [!][GROUP:]EVENT list */
	V_TRACER,	/* a tracer */
	V_FUNCS,	/* ftrace filter globs */
	V_PROBES,	/* kprobe definitions: SYMBOL[+OFFS][%return] ARGS */
	V_SYNTH,	/* synthetic event fields "TYPE NAME" */
	V_FILTER,	/* event filter */
	V_ACTIONS,	/* trigger commands */
	V_HIST,		/* a histogram (container) */
	V_LIST,		/* a list value of a histogram */
	V_ONE,		/* a single value of a histogram */
};

struct gram_rule {
	const char *pattern;
	enum vkind kind;
};

#define GRAM_MAX_CAND 64

struct gram_match {
	bool full;		/* some pattern matches the whole key */
	bool prefix;		/* some pattern continues below the key */
	enum vkind kind;	/* of the most literal full match */
	int literals;
	int ncand;		/* words that may follow the key */
	const char *cand[GRAM_MAX_CAND];
	size_t cand_len[GRAM_MAX_CAND];
};

/* Match the key @words[0..@n-1] (relative to ftrace[.instance.NAME]). */
void gram_match(const char *const *words, int n, struct gram_match *m);

#endif /* BCONF_LINT_GRAMMAR_H */
