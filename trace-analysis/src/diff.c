// SPDX-License-Identifier: GPL-2.0
#include "diff.h"

int diff_run(const struct analysis *a, const struct analysis *b,
	     const char *thresholds, bool json, FILE *f)
{
	(void)a; (void)b; (void)thresholds; (void)json; (void)f;
	return 2;
}
