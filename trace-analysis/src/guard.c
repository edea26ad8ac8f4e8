// SPDX-License-Identifier: GPL-2.0
/*
 * guard.c - a fatal signal while libtracecmd reads trace.dat becomes an
 * error naming the file (guard.h).
 *
 * Where libtracecmd 3.1.6 crashes (gdb on damaged copies of the fixtures'
 * trace.dat, tests/corrupt.sh): tracecmd_open_fd() -> tracecmd_init_data()
 * allocates the per-CPU state of the top buffer, then fails for one CPU
 * (its data past the end of the file, a chunk table or a first page that
 * does not load), and its error path, tracecmd_close(), walks a list in
 * the per-CPU state (offset 0xa0: the cache of decompressed chunks, by
 * 3.1.6's layout) of every CPU, also of those init_cpu() never reached,
 * whose list head is still zero: a NULL dereference at
 * tracecmd_close+352, compressed file or not.  trace-cmd report survives
 * these only because it exits on the error without closing the handle.
 * tracecmd_buffer_instance_handle() closes a failed instance the same
 * way.  And libtraceevent's event format parser crashes on a garbled
 * format (trace-cmd report too).
 *
 * Checking the file first would mean loading each CPU's first page the
 * way libtracecmd does, and parsing every event format the way
 * libtraceevent does; opening it in a child first would parse the event
 * formats and kallsyms twice (an eighth of the reading time,
 * bench/analysis.sh).  A signal handler costs nothing while nothing
 * crashes and covers every call into the library, reading the records
 * included.  It does not go on after the crash (a siglongjmp() out of
 * it would leave the library's state, and malloc's if it crashed there,
 * as the crash left them): the bundle is unreadable, exit 2.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "guard.h"
#include "util.h"

static const struct {
	int sig;
	const char *name;
} fatal[] = {
	{ SIGSEGV, "SIGSEGV" }, { SIGBUS, "SIGBUS" }, { SIGFPE, "SIGFPE" },
	{ SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" },
};

static struct sigaction saved[ARRAY_SIZE(fatal)];
static char head[4096];		/* the message up to the signal's name */
static size_t head_len;
static char alt_stack[65536] __attribute__((aligned(16)));
static bool alt_ours;

static void put(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void on_fatal(int sig)
{
	static const char tail[] = "); boot or collect the bundle again "
		"for a readable one\n";
	const char *name = "a fatal signal";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		if (fatal[i].sig == sig)
			name = fatal[i].name;
	put(head, head_len);
	put(name, strlen(name));
	put(tail, sizeof(tail) - 1);
	_exit(EXIT_ERROR);
}

void guard_enter(const char *bundle)
{
	struct sigaction sa;
	stack_t st;
	size_t i;
	int n;

	n = snprintf(head, sizeof(head), "trace-analysis: %s: trace.dat: "
		     "corrupt: libtracecmd crashed reading it (", bundle);
	head_len = n < 0 ? 0 : (size_t)n < sizeof(head) ? (size_t)n :
		   sizeof(head) - 1;
	/* a crash may be a stack overflow: run on a stack of our own */
	alt_ours = false;
	if (!sigaltstack(NULL, &st) && (st.ss_flags & SS_DISABLE)) {
		st.ss_sp = alt_stack;
		st.ss_size = sizeof(alt_stack);
		st.ss_flags = 0;
		alt_ours = !sigaltstack(&st, NULL);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_ONSTACK | SA_RESETHAND;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		sigaction(fatal[i].sig, &sa, &saved[i]);
}

void guard_leave(void)
{
	stack_t st = { .ss_flags = SS_DISABLE };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		sigaction(fatal[i].sig, &saved[i], NULL);
	if (alt_ours)
		sigaltstack(&st, NULL);
	alt_ours = false;
}
