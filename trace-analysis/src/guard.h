/* SPDX-License-Identifier: GPL-2.0 */
/*
 * guard.h - a crash inside libtracecmd on a damaged trace.dat is an error
 * naming the file (exit 2), not a crash of trace-analysis.
 *
 * libtracecmd 3.1.6 crashes on some damaged files in its own error path
 * (guard.c says where); we cannot patch Debian's library, and no cheap
 * check before the open foresees every failure.  Between guard_enter()
 * and guard_leave(), SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT end the
 * process with one line on stderr,
 *
 *	trace-analysis: BUNDLE: trace.dat: corrupt: libtracecmd crashed
 *	reading it (SIGSEGV); ...
 *
 * and exit status 2 (EXIT_ERROR): the handler writes a message formatted
 * by guard_enter() and calls _exit(), nothing else (both are
 * async-signal-safe; the state the crash left is never touched).
 * Outside the window the signals keep their previous handlers (ASan's,
 * in the sanitizer build).  Not nested.
 */
#ifndef TA_GUARD_H
#define TA_GUARD_H

/* @bundle: the bundle's path as the messages name it. */
void guard_enter(const char *bundle);
void guard_leave(void);

#endif /* TA_GUARD_H */
