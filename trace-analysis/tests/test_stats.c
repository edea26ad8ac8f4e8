// SPDX-License-Identifier: GPL-2.0
/*
 * test_stats.c - medians and the Mann-Whitney U test against reference
 * values from SciPy 1.10.1 (Debian python3-scipy), computed with
 *
 *	/usr/bin/python3 -c 'from scipy.stats import mannwhitneyu as m;
 *	    print(m(X, Y, alternative="two-sided", method=METHOD))'
 *
 * METHOD "exact" where stats_mwu() is exact (n <= 20 a side) and there
 * are no ties, else "asymptotic" (its default: tie correction,
 * continuity correction); with ties and n <= 20 a side, the exact
 * permutation distribution of U from
 *
 *	permutation_test((X, Y), lambda a, b: m(a, b).statistic,
 *	    permutation_type="independent", alternative="two-sided",
 *	    n_resamples=numpy.inf, vectorized=False).pvalue
 * tests/cli.sh also checks every p of a set diff against SciPy live.
 */
#include <math.h>

#include "stats.h"
#include "unit.h"
#include "util.h"

#define CLOSE(a, b) (fabs((a) - (b)) <= 1e-9 * (fabs(b) > 1 ? fabs(b) : 1))

static void check(struct unit *u, const double *x, size_t nx,
		  const double *y, size_t ny, double want_u, double want_p,
		  bool exact)
{
	struct mwu r = stats_mwu(x, nx, y, ny);

	UNIT_EXPECT(u, r.u == want_u);
	UNIT_EXPECT(u, r.exact == exact);
	if (!CLOSE(r.p, want_p)) {
		fprintf(stderr, "  p = %.17g, want %.17g\n", r.p, want_p);
		UNIT_EXPECT(u, CLOSE(r.p, want_p));
	}
}

/* 5 vs 5, completely separated: the smallest two-sided p, 2/252 */
static void test_separated_5v5(struct unit *u)
{
	static const double x[] = { 6, 7, 8, 9, 10 }, y[] = { 1, 2, 3, 4, 5 };

	check(u, x, 5, y, 5, 25, 0.007936507936507936, true);
	check(u, y, 5, x, 5, 0, 0.007936507936507936, true);
}

static void test_exact_unequal(struct unit *u)
{
	static const double x[] = { 19, 22, 16, 29, 24 };
	static const double y[] = { 20, 11, 17, 12 };
	static const double x2[] = { 1.1, 2.2, 3.3, 4.4 };
	static const double y2[] = { 0.5, 1.5, 2.5 };
	static const double x3[] = { 1, 2, 3, 4, 5 };
	static const double y3[] = { 1.5, 6, 7, 8, 9 };

	check(u, x, 5, y, 4, 17, 0.1111111111111111, true);
	check(u, x2, 4, y2, 3, 9, 0.4, true);
	check(u, x3, 5, y3, 5, 4, 0.09523809523809523, true);
}

/* 20 vs 20, the largest exact case */
static void test_exact_20(struct unit *u)
{
	double x[20], y[20];
	size_t i;

	for (i = 0; i < 20; i++) {
		x[i] = (double)i + 1;
		y[i] = (double)i + 21;
	}
	y[19] = 40.5;
	check(u, x, 20, y, 20, 0, 1.4508889103849684e-11, true);
}

/* ties, n <= 20: the exact permutation distribution, ties kept */
static void test_ties(struct unit *u)
{
	static const double x[] = { 1, 2, 2, 3, 4, 5 };
	static const double y[] = { 3, 3, 6, 7, 8, 9, 9 };
	static const double same[] = { 5, 5, 5 };
	static const double x2[] = { 1, 1, 2, 2, 3 }, y2[] = { 2, 3, 3, 4, 4 };

	check(u, x, 6, y, 7, 5, 0.02097902097902098, true);
	check(u, same, 3, same, 3, 4.5, 1, true);
	check(u, x2, 5, y2, 5, 3, 0.07936507936507936, true);
}

/*
 * A set diff scales each boot to A's medians, so several A boots can hold
 * exactly A's median: ties inside A only.  Every B boot above every A boot
 * is still the most extreme ordering, p = 2/252 (the normal approximation
 * gave 0.0112, over alpha 0.01: a set diff called virtio_pci_driver_init
 * going from 0.25 to 6.4 s noise this way).
 */
static void test_ties_in_one_set(struct unit *u)
{
	static const double a[] = { 249451, 249451, 212410, 347491, 249451 };
	static const double b[] = { 5284749, 7353335, 6409163, 6427654,
				    6636541 };

	check(u, b, 5, a, 5, 25, 0.007936507936507936, true);
	check(u, a, 5, b, 5, 0, 0.007936507936507936, true);
}

/* 12 vs 12 with ties across the sets: exact (scipy's vectorized
 * permutation_test over all C(24, 12) splits gives the same p) */
static void test_ties_12(struct unit *u)
{
	static const double x[] = { 12, 15, 11, 18, 14, 16, 13, 17, 19, 20,
				    21, 22 };
	static const double y[] = { 10, 9, 14, 8, 7, 11, 6, 5, 13, 4, 3, 2 };

	check(u, x, 12, y, 12, 137.5, 2.7365285138875124e-05, true);
}

/* over 20 values a side: the normal approximation even without ties */
static void test_large(struct unit *u)
{
	double bx[21], by[21];
	size_t i;

	for (i = 0; i < 21; i++) {
		bx[i] = (double)i;
		by[i] = (double)i + 0.5;
	}
	/* scipy: U 210.0, p 0.8013831883084928 (asymptotic) */
	check(u, bx, 21, by, 21, 210, 0.8013831883084928, false);
}

static void test_median(struct unit *u)
{
	double odd[] = { 5, 1, 3 }, even[] = { 4, 1, 3, 2 }, one[] = { 7 };

	UNIT_EXPECT(u, stats_median(odd, 3) == 3);
	UNIT_EXPECT(u, stats_median(even, 4) == 2.5);
	UNIT_EXPECT(u, stats_median(one, 1) == 7);
	UNIT_EXPECT(u, even[0] == 1 && even[3] == 4);
}

int main(void)
{
	return UNIT_RUN(UNIT_CASE(test_separated_5v5),
			UNIT_CASE(test_exact_unequal), UNIT_CASE(test_exact_20),
			UNIT_CASE(test_ties), UNIT_CASE(test_ties_in_one_set),
			UNIT_CASE(test_ties_12), UNIT_CASE(test_large),
			UNIT_CASE(test_median));
}
