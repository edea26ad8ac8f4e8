/* SPDX-License-Identifier: GPL-2.0 */
/*
 * initcall_pair.h - initcall_start/initcall_finish records paired into
 * initcalls.
 *
 * The kernel runs initcalls in a task (PID 1, or a worker for async ones)
 * that migrates between CPUs, and an initcall may run another initcall's
 * function inside it (nested start/finish pairs).  A finish therefore
 * closes the innermost open call of the same task and function; the CPU
 * does not matter.  Records must come in time order: ic_start(),
 * ic_finish() and ic_level() take them so, and a reader that goes CPU by
 * CPU queues them with ic_queue() and pairs them with ic_pair_queued().
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

enum ic_kind { IC_START, IC_FINISH, IC_LEVEL };

/* An initcall record, queued. */
struct ic_record {
	uint64_t ts;
	uint64_t func;		/* IC_START, IC_FINISH */
	char *text;		/* IC_START: the name; IC_LEVEL: the level */
	size_t seq;		/* queue order: breaks ties of @ts */
	enum ic_kind kind;
	int cpu, pid, ret;
};

struct ic_pairing {
	struct initcall *calls;	/* in start order */
	size_t ncalls, cap;
	struct ic_open *open;	/* started, not finished, innermost last */
	size_t nopen, open_cap;
	char *level;		/* the last initcall_level seen */
	size_t unmatched;	/* finishes without their start */
	struct ic_record *queue;	/* ic_queue(), not paired yet */
	size_t nqueue, queue_cap;
};

/* @name is taken over (malloc'ed). */
void ic_start(struct ic_pairing *p, uint64_t func, char *name, int cpu,
	      int pid, uint64_t ts);
void ic_finish(struct ic_pairing *p, uint64_t func, int pid, int ret,
	       uint64_t ts);
void ic_level(struct ic_pairing *p, const char *level, size_t len);
/*
 * Queue @r (its @text is taken over; @seq is set) in any order of time,
 * e.g. each CPU's records after the other's.
 */
void ic_queue(struct ic_pairing *p, struct ic_record r);
/*
 * Pair the queued records in time order, ties in queue order (so records
 * queued CPU by CPU tie like libtracecmd's time-ordered merge: the lower
 * CPU first), and empty the queue.
 */
void ic_pair_queued(struct ic_pairing *p);
/* Frees what the pairing holds, and its calls unless taken (NULLed). */
void ic_pairing_free(struct ic_pairing *p);

#endif /* TA_INITCALL_PAIR_H */
