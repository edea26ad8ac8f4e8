// SPDX-License-Identifier: GPL-2.0
#include "check.h"

int check_run(const struct analysis *a, const char *expect, bool json,
	      FILE *f)
{
	(void)a; (void)expect; (void)json; (void)f;
	return 2;
}
