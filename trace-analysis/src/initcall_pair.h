/* SPDX-License-Identifier: GPL-2.0 */
/*
 * initcall_pair.h - initcall_start/initcall_finish records paired into
 * initcalls.
 *
 * The kernel runs initcalls in a task (PID 1, or a worker for async ones)
 * that migrates between CPUs, and an initcall may run another initcall's
 * function inside it (nested start/finish pairs).  A finish therefore
 * closes the innermost open call of the same task and function; the CPU
 * does not matter.  Records must come in time order.
 */
#ifndef TA_INITCALL_PAIR_H
#define TA_INITCALL_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

struct ic_open {
	uint64_t func;
	size_t idx;		/* in calls[] */
	int pid;
};

struct ic_pairing {
	struct initcall *calls;	/* in start order */
	size_t ncalls, cap;
	struct ic_open *open;	/* started, not finished, innermost last */
	size_t nopen, open_cap;
	char *level;		/* the last initcall_level seen */
	size_t unmatched;	/* finishes without their start */
};

/* @name is taken over (malloc'ed). */
void ic_start(struct ic_pairing *p, uint64_t func, char *name, int cpu,
	      int pid, uint64_t ts);
void ic_finish(struct ic_pairing *p, uint64_t func, int pid, int ret,
	       uint64_t ts);
void ic_level(struct ic_pairing *p, const char *level, size_t len);
/* Frees what the pairing holds, and its calls unless taken (NULLed). */
void ic_pairing_free(struct ic_pairing *p);

#endif /* TA_INITCALL_PAIR_H */
