/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - the smallest test harness that does the job.
 *
 *	static void test_x(struct unit *u) { UNIT_EXPECT(u, 1 + 1 == 2); }
 *	int main(void) { return UNIT_RUN(test_x); }
 *
 * Every test function runs; a failed expectation prints file:line and the
 * expression and marks that test failed.  The program ends with the line
 * "N passed, N failed" and exits non-zero when anything failed.  A test
 * that cannot run here calls unit_skip(): it prints "SKIP name: why", counts
 * neither as passed nor as failed, and a line "N skipped" comes before the
 * last one.
 * UNIT_RUN_ARRAY(cases) runs a static array of UNIT_CASE() entries.
 * Shared by bootconfig/ and trace-analysis/ tests.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <string.h>

struct unit {
	const char *name;
	int failed;
	int skipped;
};

#define UNIT_EXPECT(u, cond) \
	unit_expect((u), !!(cond), __FILE__, __LINE__, #cond)

#define UNIT_EXPECT_STR(u, got, want) \
	unit_expect_str((u), (got), (want), __FILE__, __LINE__, #got)

#define UNIT_EXPECT_INT(u, got, want) \
	unit_expect_int((u), (long long)(got), (long long)(want), \
			__FILE__, __LINE__, #got)

static inline void unit_expect(struct unit *u, int ok, const char *file,
			       int line, const char *what)
{
	if (ok)
		return;
	fprintf(stderr, "%s:%d: %s: expected %s\n", file, line, u->name, what);
	u->failed = 1;
}

static inline void unit_expect_str(struct unit *u, const char *got,
				   const char *want, const char *file,
				   int line, const char *what)
{
	if (got && want && !strcmp(got, want))
		return;
	if (!got && !want)
		return;
	fprintf(stderr, "%s:%d: %s: %s\n  got:  \"%s\"\n  want: \"%s\"\n",
		file, line, u->name, what, got ? got : "(null)",
		want ? want : "(null)");
	u->failed = 1;
}

static inline void unit_expect_int(struct unit *u, long long got,
				   long long want, const char *file, int line,
				   const char *what)
{
	if (got == want)
		return;
	fprintf(stderr, "%s:%d: %s: %s = %lld, want %lld\n", file, line,
		u->name, what, got, want);
	u->failed = 1;
}

static inline void unit_skip(struct unit *u, const char *why)
{
	printf("SKIP %s: %s\n", u->name, why);
	u->skipped = 1;
}

typedef void (*unit_fn)(struct unit *u);

struct unit_case {
	const char *name;
	unit_fn fn;
};

static inline int unit_run(const struct unit_case *cases, int n)
{
	int passed = 0, failed = 0, skipped = 0;

	for (int i = 0; i < n; i++) {
		struct unit u = { .name = cases[i].name };

		cases[i].fn(&u);
		if (u.failed) {
			failed++;
			fprintf(stderr, "FAIL %s\n", cases[i].name);
		} else if (u.skipped) {
			skipped++;
		} else {
			passed++;
		}
	}
	if (skipped)
		printf("%d skipped\n", skipped);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#define UNIT_CASE(fn) { #fn, fn }
#define UNIT_RUN(...) \
	unit_run((const struct unit_case[]){ __VA_ARGS__ }, \
		 (int)(sizeof((const struct unit_case[]){ __VA_ARGS__ }) / \
		       sizeof(struct unit_case)))

#define UNIT_RUN_ARRAY(cases) \
	unit_run((cases), (int)(sizeof(cases) / sizeof((cases)[0])))

#endif /* UNIT_H */
