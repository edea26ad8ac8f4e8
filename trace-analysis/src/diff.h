/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - compare two bundles, or two sets of boots, with regression
 * thresholds and (for sets) a significance test.
 */
#ifndef TA_DIFF_H
#define TA_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "set.h"

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_KTAP };
/* what an initcall metric measures */
enum diff_mode { MODE_DURATION, MODE_START, MODE_END };

struct diff_opts {
	const char *thresholds;	/* file, or NULL */
	char **overrides;	/* "REGEX:PCT[:ABS]", noverrides of them */
	size_t noverrides;
	/* 1 scale every boot to A's speed, 0 never, -1 when one ran on TCG */
	int norm;
	double alpha;		/* significance level of the set test */
	enum diff_mode mode;
	enum diff_format fmt;
};

/* Returns the exit status: 0 no regression, 1 regression, 2 error. */
int diff_run(const struct bundle_set *a, const struct bundle_set *b,
	     const struct diff_opts *o, FILE *f);

#endif /* TA_DIFF_H */
