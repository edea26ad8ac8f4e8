/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cli.h - what every verb (report.c, diff.c, check.c) shares on the
 * command line.  main.c dispatches `trace-analysis VERB ARGS` from a table
 * to VERB_main(argc, argv) with argv[0] = VERB; each verb parses its own
 * options and prints its own --help.
 *
 * Exit status of every verb: 0 fine, 1 a finding (failed setting,
 * regression, unmet expectation), 2 an error (bad arguments, unreadable
 * input).
 */
#ifndef TA_CLI_H
#define TA_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

#define EXIT_FINDING	1
#define EXIT_ERROR	2

int report_main(int argc, char **argv);
int diff_main(int argc, char **argv);
int check_main(int argc, char **argv);
int verdict_main(int argc, char **argv);

/* Load @dir, printing why not ("trace-analysis: ...").  0 or -1. */
int cli_load(const char *dir, struct analysis *a);
/* Parse a --top value; prints the error. */
bool cli_top(const char *arg, size_t *top);
/* "trace-analysis VERB: MSG (see trace-analysis VERB --help)"; returns 2. */
int cli_usage_error(const char *verb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Print the problems that make a bundle unreadable (a->nerrors) on stderr;
 * returns whether there were any.
 */
bool cli_bundle_errors(const struct analysis *a);

#endif /* TA_CLI_H */
