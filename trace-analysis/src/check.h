/* SPDX-License-Identifier: GPL-2.0 */
/* check.h - verify a bundle against an expectations file (README.md). */
#ifndef TA_CHECK_H
#define TA_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"

enum check_format { CHECK_TEXT, CHECK_JSON, CHECK_KTAP };

/* Returns the exit status: 0 all met, 1 some unmet, 2 bad EXPECT file. */
int check_run(const struct analysis *a, const char *expect,
	      enum check_format fmt, FILE *f);

#endif /* TA_CHECK_H */
