/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - the statistics of the regression gate over sets of boots:
 * medians and the two-sided Mann-Whitney U test (README.md, "diff over
 * sets of boots" says why this test).
 */
#ifndef TA_STATS_H
#define TA_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* The median of @n values (n > 0); @v is left sorted ascending. */
double stats_median(double *v, size_t n);

struct mwu {
	double u;	/* U of the first sample: pairs (x, y) with x > y,
			 * ties counting one half */
	double p;	/* two-sided p-value */
	bool exact;	/* exact distribution (both n <= 20, ties kept) */
};

/*
 * Mann-Whitney U test of @x (@nx) against @y (@ny), both >= 1.  Exact
 * when both samples have at most STATS_EXACT_MAX values (the permutation
 * distribution of U, ties kept, counted): a set diff scales each boot to
 * A's medians, which makes equal values common; otherwise the normal
 * approximation with the tie correction of the variance and a continuity
 * correction of 0.5.
 */
#define STATS_EXACT_MAX 20
struct mwu stats_mwu(const double *x, size_t nx, const double *y, size_t ny);

#endif /* TA_STATS_H */
