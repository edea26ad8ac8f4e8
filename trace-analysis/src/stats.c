// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - medians and the Mann-Whitney U test (stats.h).
 *
 * U counts, over all nx * ny pairs, how often the x value is the larger
 * (a tie counts 1/2).  Under the null hypothesis (both samples from one
 * distribution) every ordering of the nx + ny values is equally likely:
 *
 *  - exact (both samples of at most STATS_EXACT_MAX): the number of ways
 *    to choose which of the pooled values are x's with each U, ties
 *    kept (exact_p2); the two-sided p is twice the smaller tail at u,
 *    at most 1 (without ties that is 2 * P(U >= max(u, nx*ny - u))).
 *  - approximate (larger samples): U is normal with mean nx*ny/2 and variance
 *    nx*ny/12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))) for tie groups of
 *    size t; z = (|U - mean| - 0.5) / sd, p = erfc(z / sqrt(2)).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stats_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * The two-sided p of 2U = @k for @nx x's among the @n sorted values @v:
 * twice the smaller tail, P(2U <= k) or P(2U >= k), at most 1 (with ties
 * the distribution need not be symmetric).  Counted:
 * walking the tie groups in ascending order, cnt[i * w + d] is the number
 * of ways to have picked i x's so far with doubled statistic d.  Taking
 * k x's out of a group of t (C(t, k) ways) after j y's adds 2 * j * k
 * (each beats those y's) and k * (t - k) (each ties with the group's
 * y's, half a point each).  Without ties this is the classic count of
 * orderings; with ties it is the exact permutation distribution of U
 * with the ties kept, which SciPy's permutation_test also computes.
 */
static double exact_p2(const double *v, size_t n, size_t nx, size_t k)
{
	size_t ny = n - nx, w = 2 * nx * ny + 1, seen = 0, g, e, i, t, m;
	double *cnt = xcalloc((nx + 1) * w, sizeof(double));
	double *nxt = xcalloc((nx + 1) * w, sizeof(double));
	double total = 0, lo = 0, up = 0, *tmp;

	cnt[0] = 1;
	for (g = 0; g < n; g = e, seen += t) {
		for (e = g + 1; e < n && v[e] == v[g]; e++)
			;
		t = e - g;
		memset(nxt, 0, (nx + 1) * w * sizeof(double));
		for (i = 0; i <= nx && i <= seen; i++) {
			size_t j = seen - i;
			double ways = 1;	/* C(t, m) */

			if (j > ny)
				continue;
			for (m = 0; m <= t && i + m <= nx; m++) {
				size_t add = 2 * j * m + m * (t - m), d;

				if (m)
					ways = ways * (double)(t - m + 1) / (double)m;
				if (j + t - m > ny)
					continue;
				for (d = 0; d + add < w; d++)
					nxt[(i + m) * w + d + add] +=
						cnt[i * w + d] * ways;
			}
		}
		tmp = cnt;
		cnt = nxt;
		nxt = tmp;
	}
	for (g = 0; g < w; g++) {
		total += cnt[nx * w + g];
		if (g <= k)
			lo += cnt[nx * w + g];
		if (g >= k)
			up += cnt[nx * w + g];
	}
	free(cnt);
	free(nxt);
	return 2 * (lo < up ? lo : up) / total;
}

struct mwu stats_mwu(const double *x, size_t nx, const double *y, size_t ny)
{
	size_t n = nx + ny, i, j;
	double *all = xcalloc(n, sizeof(*all));
	double ties = 0, mean, var, z, hi;
	struct mwu r = { 0 };

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny; j++)
			r.u += x[i] > y[j] ? 1 : x[i] == y[j] ? 0.5 : 0;
	memcpy(all, x, nx * sizeof(*x));
	memcpy(all + nx, y, ny * sizeof(*y));
	qsort(all, n, sizeof(*all), cmp_double);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		ties += (double)(j - i) * (j - i) * (j - i) - (double)(j - i);
	}
	mean = (double)nx * ny / 2;
	hi = r.u > mean ? r.u : (double)nx * ny - r.u;
	if (nx <= STATS_EXACT_MAX && ny <= STATS_EXACT_MAX) {
		r.exact = true;
		r.p = exact_p2(all, n, nx, (size_t)llround(2 * r.u));
	} else {
		var = (double)nx * ny / 12 *
		      ((n + 1) - (n > 1 ? ties / ((double)n * (n - 1)) : 0));
		z = var > 0 ? (hi - mean - 0.5) / sqrt(var) : 0;
		r.p = var > 0 ? erfc((z > 0 ? z : 0) / sqrt(2)) : 1;
	}
	free(all);
	if (r.p > 1)
		r.p = 1;
	return r;
}
