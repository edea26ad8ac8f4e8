/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - KTAP version 1 output (Documentation/dev-tools/ktap.rst), as
 * KUnit prints it and the kernel's tools/testing/kunit/kunit.py parse
 * reads it: one suite of test cases.
 *
 *	KTAP version 1
 *	1..1
 *	    KTAP version 1
 *	    # Subtest: SUITE
 *	    1..N
 *	    ok 1 CASE
 *	    not ok 2 CASE
 *	    ok 3 CASE # SKIP why
 *	ok 1 SUITE
 */
#ifndef TA_KTAP_H
#define TA_KTAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void ktap_begin(FILE *f, const char *suite, size_t ncases);
/*
 * Case @num (from 1).  @skip: a SKIP directive with this reason, or NULL.
 * @diag: a line of detail printed as a "# " diagnostic before it, or NULL.
 */
void ktap_case(FILE *f, size_t num, bool ok, const char *name,
	       const char *skip, const char *diag);
void ktap_end(FILE *f, const char *suite, bool ok);

#endif /* TA_KTAP_H */
