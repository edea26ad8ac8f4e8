/* SPDX-License-Identifier: GPL-2.0 */
/* check.h - verify a bundle against an expectations file (README.md). */
#ifndef TA_CHECK_H
#define TA_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"

/* Returns the exit status: 0 all met, 1 some unmet, 2 bad EXPECT file. */
int check_run(const struct analysis *a, const char *expect, bool json,
	      FILE *f);

#endif /* TA_CHECK_H */
