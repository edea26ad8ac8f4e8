// SPDX-License-Identifier: GPL-2.0
/* cli.c - what every verb shares on the command line (cli.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "util.h"

int cli_usage_error(const char *verb, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "trace-analysis %s: ", verb);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (see trace-analysis %s --help)\n", verb);
	return EXIT_ERROR;
}

int cli_load(const char *dir, struct analysis *a)
{
	char *err = NULL;

	if (analysis_load(dir, a, &err)) {
		fprintf(stderr, "trace-analysis: %s\n", err);
		free(err);
		return -1;
	}
	return 0;
}

bool cli_top(const char *arg, size_t *top)
{
	uint64_t n;

	if (!parse_u64(arg, 10, &n) || !n || n > 1000000) {
		fprintf(stderr, "trace-analysis: --top needs a positive "
			"number, not '%s'\n", arg);
		return false;
	}
	*top = (size_t)n;
	return true;
}

bool cli_bundle_errors(const struct analysis *a)
{
	size_t i;

	if (!a->nerrors)
		return false;
	for (i = 0; i < a->nproblems; i++)
		fprintf(stderr, "trace-analysis: %s: %s\n", a->path,
			a->problems[i]);
	return true;
}
