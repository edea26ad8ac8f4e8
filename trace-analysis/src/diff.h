/* SPDX-License-Identifier: GPL-2.0 */
/* diff.h - compare two bundles with regression thresholds. */
#ifndef TA_DIFF_H
#define TA_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"

/*
 * Returns the exit status: 0 no regression, 1 regression, 2 error.
 * @norm: 1 scale B's initcall durations to A's speed, 0 never, -1 when
 * either bundle booted under TCG.
 */
enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_KTAP };

int diff_run(const struct analysis *a, const struct analysis *b,
	     const char *thresholds, int norm, enum diff_format fmt, FILE *f);

#endif /* TA_DIFF_H */
