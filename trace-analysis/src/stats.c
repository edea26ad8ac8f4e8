// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - medians and the Mann-Whitney U test (stats.h).
 *
 * U counts, over all nx * ny pairs, how often the x value is the larger
 * (a tie counts 1/2).  Under the null hypothesis (both samples from one
 * distribution) every ordering of the nx + ny values is equally likely:
 *
 *  - exact: N(i, j, u), the number of orderings of i x's and j y's with
 *    statistic u, satisfies N(i, j, u) = N(i - 1, j, u - j) + N(i, j - 1, u)
 *    (the largest value is an x, beating all j y's, or a y); the
 *    two-sided p is 2 * P(U >= max(u, nx*ny - u)), at most 1.
 *  - approximate: U is normal with mean nx*ny/2 and variance
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

/* P(U >= k) for samples of @nx and @ny without ties, by counting. */
static double exact_sf(size_t nx, size_t ny, size_t k)
{
	size_t umax = nx * ny, i, j, u, w = umax + 1;
	/* N(i, j, .) for the current i; prev holds i - 1 */
	double *prev = xcalloc((ny + 1) * w, sizeof(double));
	double *cur = xcalloc((ny + 1) * w, sizeof(double));
	double total = 0, tail = 0, *t;

	for (j = 0; j <= ny; j++)
		prev[j * w] = 1;	/* i = 0: one ordering, u = 0 */
	for (i = 1; i <= nx; i++) {
		memset(cur, 0, (ny + 1) * w * sizeof(double));
		for (j = 0; j <= ny; j++)
			for (u = 0; u <= i * j; u++) {
				double c = u >= j ? prev[j * w + u - j] : 0;

				if (j)
					c += cur[(j - 1) * w + u];
				cur[j * w + u] = c;
			}
		t = prev;
		prev = cur;
		cur = t;
	}
	for (u = 0; u <= umax; u++) {
		total += prev[ny * w + u];
		if (u >= k)
			tail += prev[ny * w + u];
	}
	free(prev);
	free(cur);
	return tail / total;
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
	free(all);
	mean = (double)nx * ny / 2;
	hi = r.u > mean ? r.u : (double)nx * ny - r.u;
	if (!ties && nx <= STATS_EXACT_MAX && ny <= STATS_EXACT_MAX) {
		r.exact = true;
		r.p = 2 * exact_sf(nx, ny, (size_t)hi);
	} else {
		var = (double)nx * ny / 12 *
		      ((n + 1) - (n > 1 ? ties / ((double)n * (n - 1)) : 0));
		if (var <= 0) {
			r.p = 1;	/* every value equal */
			return r;
		}
		z = (hi - mean - 0.5) / sqrt(var);
		r.p = erfc((z > 0 ? z : 0) / sqrt(2));
	}
	if (r.p > 1)
		r.p = 1;
	return r;
}
