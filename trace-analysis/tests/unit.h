/* SPDX-License-Identifier: GPL-2.0 */
/*
 * unit.h - a minimal test harness: every test function runs, a failed
 * expectation prints file:line, the last line is "N passed, N failed" and
 * the exit status is non-zero when anything failed.
 */
#ifndef TA_UNIT_H
#define TA_UNIT_H

#include <stdio.h>
#include <string.h>

struct unit {
	const char *name;
	int failed;
};

#define EXPECT(u, cond) \
	unit_expect((u), !!(cond), __FILE__, __LINE__, #cond)
#define EXPECT_STR(u, got, want) \
	unit_expect_str((u), (got), (want), __FILE__, __LINE__, #got)
#define EXPECT_INT(u, got, want) \
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
	if ((got && want && !strcmp(got, want)) || (!got && !want))
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

typedef void (*unit_fn)(struct unit *);

struct unit_case {
	const char *name;
	unit_fn fn;
};

#define UNIT_CASE(f) { #f, f }

static inline int unit_run(const struct unit_case *cases, size_t n)
{
	size_t i, passed = 0, failed = 0;

	for (i = 0; i < n; i++) {
		struct unit u = { cases[i].name, 0 };

		cases[i].fn(&u);
		if (u.failed) {
			failed++;
			fprintf(stderr, "FAIL %s\n", cases[i].name);
		} else {
			passed++;
		}
	}
	printf("%zu passed, %zu failed\n", passed, failed);
	return failed ? 1 : 0;
}

#define UNIT_RUN(cases) unit_run((cases), sizeof(cases) / sizeof((cases)[0]))

#endif /* TA_UNIT_H */
