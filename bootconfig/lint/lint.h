/* SPDX-License-Identifier: GPL-2.0 */
/*
 * liblint - semantic checks of a boot-time tracing config (bootconfig).
 *
 * bconf_lint() parses a config with libbootconfig and checks it against
 * the key grammar of the kernel's kernel/trace/trace_boot.c (grammar.c,
 * one table) and, when given, the knowledge of one kernel build
 * (knowledge.c: its events with fields, tracers, clocks, options,
 * function symbols and command line parameters; see README.md).
 * Findings are collected in a struct lint_result, sorted by position.
 */
#ifndef BCONF_LINT_H
#define BCONF_LINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum lint_severity { LINT_NOTE, LINT_WARNING, LINT_ERROR };

struct lint_diag {
	enum lint_severity severity;
	const char *rule;	/* short rule name, static storage */
	unsigned int line;	/* 1-based; 0 when the finding has no place */
	unsigned int col;	/* 1-based, in bytes */
	char *key;		/* the dotted key concerned (may be "") */
	char *msg;
};

struct lint_result {
	struct lint_diag *diags;
	size_t count;
	size_t alloc;
	unsigned int errors;
	unsigned int warnings;
	unsigned int notes;	/* information only: no effect on the status */
	bool parse_failed;	/* no semantic checks: diags[0] is the parser's
				 * error (encoding and NUL findings follow
				 * it), or the one finding of a UTF-16 file */
	const char *skipped;	/* checks not run (no knowledge), or NULL */
};

/* Knowledge of one kernel build (a directory written by kernel/knowledge.sh). */
struct lint_knowledge;

/*
 * Load the knowledge directory @dir.  Returns 0 and sets *@out, or a
 * negative errno value; @why (may be NULL) then names the file that failed.
 */
int lint_knowledge_load(const char *dir, struct lint_knowledge **out,
			const char **why);
void lint_knowledge_free(struct lint_knowledge *k);
/* The build key and whether trace_boot's 256-byte limit is gone. */
const char *lint_knowledge_key(const struct lint_knowledge *k);
bool lint_knowledge_long_settings(const struct lint_knowledge *k);

/*
 * Lint @len bytes of config text @buf.  @k may be NULL: the checks that need
 * a kernel are skipped (and named in result->skipped), and settings over
 * 256 bytes are warnings instead of errors.  Returns 0, or -ENOMEM.
 * Free the result with lint_result_free().
 */
int bconf_lint(const char *buf, size_t len, const struct lint_knowledge *k,
	       struct lint_result *result);
void lint_result_free(struct lint_result *result);

/* "FILE:LINE:COL: error: MSG [rule]" lines, with the source line and caret. */
void lint_print(FILE *out, const char *path, const char *buf, size_t len,
		const struct lint_result *r, bool source);
/* One JSON object, schema boottrace-lint-1 (README.md). */
void lint_print_json(FILE *out, const char *path,
		     const struct lint_knowledge *k,
		     const struct lint_result *r);

/* Edit distance (for did-you-mean), capped at @max + 1. */
unsigned int lint_distance(const char *a, const char *b, unsigned int max);

#endif /* BCONF_LINT_H */
