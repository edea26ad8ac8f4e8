// SPDX-License-Identifier: GPL-2.0
/* initcall_pair.c - see initcall_pair.h. */
#include <stdlib.h>
#include <string.h>

#include "initcall_pair.h"
#include "util.h"

void ic_start(struct ic_pairing *p, uint64_t func, char *name, int cpu,
	      int pid, uint64_t ts)
{
	struct initcall *ic;

	GROW(p->calls, p->cap, p->ncalls + 1);
	ic = &p->calls[p->ncalls];
	memset(ic, 0, sizeof(*ic));
	ic->addr = func;
	ic->func = name;
	ic->level = p->level ? xstrdup(p->level) : NULL;
	ic->start_ns = ts;
	ic->cpu = cpu;
	ic->pid = pid;
	ic->count = 1;
	GROW(p->open, p->open_cap, p->nopen + 1);
	p->open[p->nopen++] = (struct ic_open){ func, p->ncalls, pid };
	p->ncalls++;
}

void ic_finish(struct ic_pairing *p, uint64_t func, int pid, int ret,
	       uint64_t ts)
{
	size_t i;

	for (i = p->nopen; i-- > 0;) {
		struct initcall *ic;

		if (p->open[i].func != func || p->open[i].pid != pid)
			continue;
		ic = &p->calls[p->open[i].idx];
		ic->finished = true;
		ic->dur_ns = ts >= ic->start_ns ? ts - ic->start_ns : 0;
		ic->ret = ret;
		memmove(&p->open[i], &p->open[i + 1],
			(p->nopen - i - 1) * sizeof(p->open[0]));
		p->nopen--;
		return;
	}
	p->unmatched++;
}

void ic_level(struct ic_pairing *p, const char *level, size_t len)
{
	free(p->level);
	p->level = xstrndup(level, strnlen(level, len));
}

void ic_queue(struct ic_pairing *p, struct ic_record r)
{
	GROW(p->queue, p->queue_cap, p->nqueue + 1);
	r.seq = p->nqueue;
	p->queue[p->nqueue++] = r;
}

static int cmp_record(const void *x, const void *y)
{
	const struct ic_record *a = x, *b = y;

	if (a->ts != b->ts)
		return a->ts < b->ts ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

void ic_pair_queued(struct ic_pairing *p)
{
	size_t i;

	if (p->nqueue)
		qsort(p->queue, p->nqueue, sizeof(*p->queue), cmp_record);
	for (i = 0; i < p->nqueue; i++) {
		struct ic_record *r = &p->queue[i];

		switch (r->kind) {
		case IC_START:
			ic_start(p, r->func, r->text, r->cpu, r->pid, r->ts);
			r->text = NULL;
			break;
		case IC_FINISH:
			ic_finish(p, r->func, r->pid, r->ret, r->ts);
			break;
		case IC_LEVEL:
			ic_level(p, r->text, strlen(r->text));
			break;
		}
		free(r->text);
	}
	free(p->queue);
	p->queue = NULL;
	p->nqueue = p->queue_cap = 0;
}

void ic_pairing_free(struct ic_pairing *p)
{
	size_t i;

	for (i = 0; i < p->nqueue; i++)
		free(p->queue[i].text);
	free(p->queue);
	for (i = 0; p->calls && i < p->ncalls; i++) {
		free(p->calls[i].func);
		free(p->calls[i].level);
	}
	free(p->calls);
	free(p->open);
	free(p->level);
	memset(p, 0, sizeof(*p));
}
