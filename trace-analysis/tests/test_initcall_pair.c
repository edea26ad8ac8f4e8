// SPDX-License-Identifier: GPL-2.0
/*
 * test_initcall_pair.c - pairing initcall_start/finish by task and
 * function: CPU migration, nesting, two tasks at once, a finish without
 * its start, and records queued CPU by CPU paired in time order.  The
 * recorded initcalls fixture covers migration on a real boot (tests/cli.sh:
 * kswapd_init, read CPU by CPU by trace.c); these cover what no fixture
 * has.
 */
#include <stdlib.h>

#include "initcall_pair.h"
#include "unit.h"
#include "util.h"

#define MS 1000000ull

static void start(struct ic_pairing *p, uint64_t func, const char *name,
		  int cpu, int pid, uint64_t ts)
{
	ic_start(p, func, xstrdup(name), cpu, pid, ts);
}

/* kswapd_init as recorded: starts on CPU 1, finishes on CPU 0 */
static void test_migration(struct unit *u)
{
	struct ic_pairing p = { 0 };

	start(&p, 0x10, "kswapd_init", 1, 1, 1263900000);
	ic_finish(&p, 0x10, 1, 0, 1366471000);
	UNIT_EXPECT_INT(u, p.ncalls, 1);
	UNIT_EXPECT(u, p.calls[0].finished);
	UNIT_EXPECT_INT(u, p.calls[0].dur_ns, 102571000);
	UNIT_EXPECT_INT(u, p.calls[0].cpu, 1);
	UNIT_EXPECT_INT(u, p.nopen, 0);
	ic_pairing_free(&p);
}

/* outer(inner(), inner()): each finish closes the innermost of its kind */
static void test_nested(struct unit *u)
{
	struct ic_pairing p = { 0 };

	ic_level(&p, "device\0junk", 11);
	start(&p, 0xa, "outer", 0, 1, 0);
	start(&p, 0xb, "inner", 1, 1, 2 * MS);
	ic_finish(&p, 0xb, 1, -19, 5 * MS);
	start(&p, 0xb, "inner", 0, 1, 6 * MS);
	ic_finish(&p, 0xb, 1, 0, 7 * MS);
	ic_finish(&p, 0xa, 1, 0, 10 * MS);
	UNIT_EXPECT_INT(u, p.ncalls, 3);
	UNIT_EXPECT_STR(u, p.calls[0].func, "outer");
	UNIT_EXPECT_INT(u, p.calls[0].dur_ns, 10 * MS);
	UNIT_EXPECT_INT(u, p.calls[1].dur_ns, 3 * MS);
	UNIT_EXPECT_INT(u, p.calls[1].ret, -19);
	UNIT_EXPECT_INT(u, p.calls[2].dur_ns, 1 * MS);
	UNIT_EXPECT_STR(u, p.calls[2].level, "device");
	UNIT_EXPECT_INT(u, p.nopen, 0);
	ic_pairing_free(&p);
}

/* a function called recursively: the inner finish closes the inner start */
static void test_recursive(struct unit *u)
{
	struct ic_pairing p = { 0 };

	start(&p, 0xa, "f", 0, 1, 0);
	start(&p, 0xa, "f", 1, 1, 1 * MS);
	ic_finish(&p, 0xa, 1, 0, 3 * MS);
	ic_finish(&p, 0xa, 1, 0, 9 * MS);
	UNIT_EXPECT_INT(u, p.calls[0].dur_ns, 9 * MS);
	UNIT_EXPECT_INT(u, p.calls[1].dur_ns, 2 * MS);
	ic_pairing_free(&p);
}

/* async initcalls: the same function in two tasks, finishing crosswise */
static void test_two_tasks(struct unit *u)
{
	struct ic_pairing p = { 0 };

	start(&p, 0xa, "f", 0, 1, 0);
	start(&p, 0xa, "f", 1, 42, 1 * MS);
	ic_finish(&p, 0xa, 1, 0, 4 * MS);	/* PID 1's, on CPU 1 */
	ic_finish(&p, 0xa, 42, 0, 8 * MS);
	UNIT_EXPECT_INT(u, p.calls[0].dur_ns, 4 * MS);
	UNIT_EXPECT_INT(u, p.calls[0].pid, 1);
	UNIT_EXPECT_INT(u, p.calls[1].dur_ns, 7 * MS);
	UNIT_EXPECT_INT(u, p.calls[1].pid, 42);
	ic_pairing_free(&p);
}

/* a finish before any start (tracing began inside it), one never finished */
static void test_unmatched(struct unit *u)
{
	struct ic_pairing p = { 0 };

	ic_finish(&p, 0xa, 1, 0, 1 * MS);
	start(&p, 0xb, "g", 0, 1, 2 * MS);
	ic_finish(&p, 0xb, 2, 0, 3 * MS);	/* another task's */
	UNIT_EXPECT_INT(u, p.unmatched, 2);
	UNIT_EXPECT_INT(u, p.ncalls, 1);
	UNIT_EXPECT(u, !p.calls[0].finished);
	UNIT_EXPECT_INT(u, p.nopen, 1);
	ic_pairing_free(&p);
}

static void queue(struct ic_pairing *p, enum ic_kind kind, uint64_t func,
		  const char *text, int cpu, uint64_t ts)
{
	ic_queue(p, (struct ic_record){ .kind = kind, .func = func,
		 .text = text ? xstrdup(text) : NULL, .cpu = cpu, .pid = 1,
		 .ts = ts });
}

/*
 * Read CPU by CPU (trace.c): CPU 0's records queued before CPU 1's.  PID 1
 * runs outer() from CPU 1, migrates, runs inner() on CPU 0 and finishes
 * outer() there; the level record and a start at the same time on two
 * CPUs keep the order the time-ordered merge gives (lower CPU first).
 */
static void test_queued(struct unit *u)
{
	struct ic_pairing p = { 0 };

	/* CPU 0 */
	queue(&p, IC_START, 0xb, "inner", 0, 5 * MS);
	queue(&p, IC_FINISH, 0xb, NULL, 0, 6 * MS);
	queue(&p, IC_FINISH, 0xa, NULL, 0, 9 * MS);
	queue(&p, IC_LEVEL, 0, "late", 0, 10 * MS);
	queue(&p, IC_START, 0xc, "tie0", 0, 11 * MS);
	queue(&p, IC_FINISH, 0xc, NULL, 0, 12 * MS);
	/* CPU 1 */
	queue(&p, IC_LEVEL, 0, "device", 1, 1 * MS);
	queue(&p, IC_START, 0xa, "outer", 1, 2 * MS);
	queue(&p, IC_START, 0xd, "tie1", 1, 11 * MS);
	queue(&p, IC_FINISH, 0xd, NULL, 1, 13 * MS);
	ic_pair_queued(&p);
	UNIT_EXPECT_INT(u, p.nqueue, 0);
	UNIT_EXPECT_INT(u, p.ncalls, 4);
	UNIT_EXPECT_STR(u, p.calls[0].func, "outer");
	UNIT_EXPECT_INT(u, p.calls[0].cpu, 1);
	UNIT_EXPECT_INT(u, p.calls[0].dur_ns, 7 * MS);
	UNIT_EXPECT_STR(u, p.calls[0].level, "device");
	UNIT_EXPECT_STR(u, p.calls[1].func, "inner");
	UNIT_EXPECT_INT(u, p.calls[1].dur_ns, 1 * MS);
	UNIT_EXPECT_STR(u, p.calls[2].func, "tie0");
	UNIT_EXPECT_STR(u, p.calls[2].level, "late");
	UNIT_EXPECT_STR(u, p.calls[3].func, "tie1");
	UNIT_EXPECT_INT(u, p.calls[3].dur_ns, 2 * MS);
	UNIT_EXPECT_INT(u, p.nopen, 0);
	UNIT_EXPECT_INT(u, p.unmatched, 0);
	/* queued and never paired: freed with the rest */
	queue(&p, IC_START, 0xe, "left", 0, 20 * MS);
	ic_pairing_free(&p);
}

int main(void)
{
	return UNIT_RUN(UNIT_CASE(test_migration), UNIT_CASE(test_nested),
			UNIT_CASE(test_recursive), UNIT_CASE(test_two_tasks),
			UNIT_CASE(test_unmatched), UNIT_CASE(test_queued));
}
