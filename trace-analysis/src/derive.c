// SPDX-License-Identifier: GPL-2.0
/*
 * derive.c - results computed from what bundle.c and trace.c read: the
 * initcall table of a latency histogram, and the data-loss findings.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "util.h"

static uint64_t event_count(const struct instance *in, const char *sys,
			    const char *name)
{
	size_t i;

	for (i = 0; i < in->ncounts; i++)
		if (in->counts[i].name && !strcmp(in->counts[i].name, name) &&
		    !strcmp(in->counts[i].system, sys))
			return in->counts[i].count;
	return 0;
}

static const struct hist_key *sym_key(const struct hist_entry *e)
{
	size_t i;

	for (i = 0; i < e->nkeys; i++)
		if (e->keys[i].kind == HK_SYM || e->keys[i].kind == HK_SYM_OFFSET)
			return &e->keys[i];
	return NULL;
}

static bool is_latency_hist(const struct hist *h)
{
	return h->nentries && sym_key(&h->entries[0]) &&
	       (hist_entry_key(&h->entries[0], "lat") ||
		hist_entry_val(&h->entries[0], "lat"));
}

static struct initcall *find_func(struct analysis *a, const char *func)
{
	size_t i;

	for (i = 0; i < a->nhist_initcalls; i++)
		if (!strcmp(a->hist_initcalls[i].func, func))
			return &a->hist_initcalls[i];
	return NULL;
}

/* Start time and level of a histogram's initcall, when trace.dat has it. */
static void when_traced(const struct analysis *a, struct initcall *ic)
{
	size_t i;

	for (i = 0; i < a->ninitcalls; i++) {
		const struct initcall *t = &a->initcalls[i];

		if (strcmp(t->func, ic->func))
			continue;
		ic->start_ns = t->start_ns;
		ic->cpu = t->cpu;
		ic->pid = t->pid;
		ic->level = t->level ? xstrdup(t->level) : NULL;
		return;
	}
}

/* Sum one latency histogram per function (lat in microseconds). */
static void take_hist(struct analysis *a, const struct hist *h)
{
	size_t i;

	for (i = 0; i < h->nentries; i++) {
		const struct hist_entry *e = &h->entries[i];
		const struct hist_key *k = sym_key(e), *lk;
		const struct hist_val *lv = hist_entry_val(e, "lat");
		struct initcall *ic;
		uint64_t lat;

		lk = hist_entry_key(e, "lat");
		lat = lv ? lv->num : lk->num * e->hitcount;
		ic = find_func(a, k->text);
		if (!ic) {
			a->hist_initcalls = xrealloc(a->hist_initcalls,
				(a->nhist_initcalls + 1) * sizeof(*ic));
			ic = &a->hist_initcalls[a->nhist_initcalls++];
			memset(ic, 0, sizeof(*ic));
			ic->func = xstrdup(k->text);
			ic->addr = k->num;
			ic->finished = true;
			when_traced(a, ic);
		}
		ic->dur_ns += lat * 1000;
		ic->count += e->hitcount;
	}
}

/* Calls @fn on every key of every histogram in the bundle. */
static void each_hist_key(struct analysis *a,
			  void (*fn)(struct hist_key *k, void *arg), void *arg)
{
	size_t i, j, k, e, n;

	for (i = 0; i < a->ninst; i++)
		for (j = 0; j < a->inst[i].nevents; j++) {
			struct hist_set *hs = &a->inst[i].events[j].hist;

			for (k = 0; k < hs->n; k++)
				for (e = 0; e < hs->hists[k].nentries; e++) {
					struct hist_entry *en =
						&hs->hists[k].entries[e];

					for (n = 0; n < en->nkeys; n++)
						fn(&en->keys[n], arg);
				}
		}
}

struct symtab {
	const struct hist_key **syms;
	size_t n, cap;
};

static void collect_sym(struct hist_key *k, void *arg)
{
	struct symtab *t = arg;

	if (k->kind != HK_SYM || !k->num || !k->text)
		return;
	GROW(t->syms, t->cap, t->n + 1);
	t->syms[t->n++] = k;
}

static void name_number(struct hist_key *k, void *arg)
{
	const struct symtab *t = arg;
	size_t i;

	if (k->kind != HK_NUMBER || k->num < KERNEL_TEXT_START)
		return;
	for (i = 0; i < t->n; i++)
		if (t->syms[i]->num == k->num) {
			free(k->text);
			k->text = xstrdup(t->syms[i]->text);
			k->kind = HK_SYM;
			return;
		}
}

/*
 * A plain-number hist key that is a kernel address ("keys=func" without
 * .sym) gets the name another histogram of the bundle printed for the same
 * address ("keys=func.sym"): the bundle may have no trace.dat to give
 * kallsyms (trace.c does that when it has).
 */
void derive_hist_symbols(struct analysis *a)
{
	struct symtab t = { 0 };

	each_hist_key(a, collect_sym, &t);
	if (t.n)
		each_hist_key(a, name_number, &t);
	free(t.syms);
}

void derive_initcall_hist(struct analysis *a)
{
	size_t i, j, k;

	/* prefer synthetic events: they carry the paired latency */
	for (int pass = 0; pass < 2; pass++) {
		for (i = 0; i < a->ninst; i++) {
			const struct instance *in = &a->inst[i];

			for (j = 0; j < in->nevents; j++) {
				const struct ev_state *ev = &in->events[j];

				if (!pass && strcmp(ev->system, "synthetic"))
					continue;
				for (k = 0; k < ev->hist.n; k++) {
					if (!is_latency_hist(&ev->hist.hists[k]))
						continue;
					take_hist(a, &ev->hist.hists[k]);
					a->hist_initcalls_src = xasprintf(
						"%s:%s:%s", inst_label(in),
						ev->system, ev->name);
					return;
				}
			}
		}
	}
}

static void add_loss(struct analysis *a, enum loss_kind kind,
		     const struct instance *in, char *what, uint64_t count,
		     char *detail)
{
	struct loss *l;

	a->losses = xrealloc(a->losses, (a->nlosses + 1) * sizeof(*l));
	l = &a->losses[a->nlosses++];
	l->kind = kind;
	l->instance = xstrdup(in ? inst_label(in) : "");
	l->what = what;
	l->count = count;
	l->detail = detail;
	l->surplus = false;
}

static const struct cpu_stat *cpu_stat_of(const struct instance *in, int cpu)
{
	size_t i;

	for (i = 0; i < in->ncpus; i++)
		if (in->cpus[i].cpu == cpu)
			return &in->cpus[i];
	return NULL;
}

/* Whether @filter (set_ftrace_filter) has a function probe running @cmd. */
static bool probe_runs(const char *filter, const char *cmd)
{
	const char *p = filter;
	size_t n = strlen(cmd);

	while ((p = strstr(p, cmd))) {
		if (p > filter && p[-1] == ':' &&
		    (!p[n] || strchr(":\n ", p[n])))
			return true;
		p += n;
	}
	return false;
}

/* Whether an event's trigger lines turn tracing on or take a snapshot. */
static bool trigger_writes(const char *triggers)
{
	const char *l = triggers;

	while (l && *l) {
		if (!strncmp(l, "traceon", 7) || !strncmp(l, "snapshot", 8))
			return true;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	/* a histogram's onmax()/onchange() action */
	return triggers && strstr(triggers, ".snapshot(");
}

/*
 * Whether the buffer of @in may have changed after the collector stopped
 * tracing and read its stats (collect/src/collect.c: stop_tracing(), then
 * dump_counters(), then trace-cmd extract).  Tracing off keeps every
 * writer out of the buffer but these: an event trigger that turns
 * tracing back on or takes a snapshot (a trigger without a condition
 * runs before the event asks the buffer for room, so while tracing is
 * off too), the same as a function probe in set_ftrace_filter or a
 * trace_trigger= on the command line (the top buffer's), and a latency
 * tracer, which swaps its max buffer in.  The bundle has every trigger:
 * the collector reads the events the boot configured (and a live
 * collect every event).
 */
static bool changed_after_stats(const struct analysis *a,
				const struct instance *in)
{
	static const char *const latency[] = {
		"irqsoff", "preemptoff", "preemptirqsoff", "wakeup",
		"wakeup_rt", "wakeup_dl",
	};
	bool changed = false;
	const char *cmd = a->cmdline, *t;
	size_t i;

	for (i = 0; in->tracer && i < ARRAY_SIZE(latency); i++)
		if (!strcmp(in->tracer, latency[i]))
			return true;
	for (i = 0; i < in->nevents; i++)
		if (trigger_writes(in->events[i].trigger))
			return true;
	if (in->ftrace_filter && (probe_runs(in->ftrace_filter, "traceon") ||
				  probe_runs(in->ftrace_filter, "snapshot")))
		return true;
	if (*in->name)
		return false;
	/* unreadable: it cannot tell, so no comparison */
	if (a->cmdline_error)
		return true;
	for (t = cmd; t && (t = strstr(t, "trace_trigger=")); t++) {
		size_t n = strcspn(t, " \t\n");

		if ((t == cmd || t[-1] == ' ') &&
		    (memmem(t, n, "traceon", 7) || memmem(t, n, "snapshot", 8)))
			changed = true;
	}
	return changed;
}

/*
 * Events a CPU's buffer may still commit after tracing stopped: the
 * writers that had reserved room before (the ring buffer nests at most
 * one per context: normal, softirq, irq, NMI, and one in transition).
 */
#define RB_IN_FLIGHT 5

/*
 * The kernel's count against trace.dat's, per CPU of @in: "entries" in a
 * CPU's stats is the events its buffer held (overwritten and consumed
 * ones not counted) once the collector had stopped tracing, and
 * trace-cmd extract then reads every one of them into trace.dat (the
 * fixtures: 2800 + 5213 records in initcalls, 351 + 320 in failures'
 * instance tiny whose overruns were 464290).  Fewer records is records
 * trace.dat lost: a damaged file that libtracecmd reads without an error
 * (its garbled timestamps rule out telling writes after the stats by
 * time), or an extraction that did not finish.  More is garbage, but up
 * to RB_IN_FLIGHT may be events committed after the stats were read
 * (reserved before tracing stopped, and entries counts commits).
 * Compared only where nothing may have written to the buffer after the
 * stats (changed_after_stats()), and when trace.dat was read whole.
 * Sets short_of[cpu] for a CPU whose records fall short: its trace.dat
 * gaps are the same loss.
 */
static void stats_mismatch(struct analysis *a, const struct instance *in,
			   bool *short_of, size_t nshort)
{
	size_t i;

	if (!analysis_losses_known(a) || changed_after_stats(a, in))
		return;
	for (i = 0; i < in->ncpus; i++) {
		const struct cpu_stat *c = &in->cpus[i];
		uint64_t n = c->cpu >= 0 && (size_t)c->cpu < in->npercpu ?
			in->percpu[c->cpu].records : 0;

		if (n > c->entries + RB_IN_FLIGHT) {
			add_loss(a, LOSS_MISMATCH, in, xasprintf("cpu%d", c->cpu),
				 n - c->entries, xasprintf("trace.dat has "
				 "%llu records, the kernel counted %llu "
				 "(stats entries): %llu too many, trace.dat "
				 "is corrupt", (unsigned long long)n,
				 (unsigned long long)c->entries,
				 (unsigned long long)(n - c->entries)));
			a->losses[a->nlosses - 1].surplus = true;
		} else if (n < c->entries) {
			add_loss(a, LOSS_MISMATCH, in, xasprintf("cpu%d", c->cpu),
				 c->entries - n, in->in_trace ?
				 xasprintf("trace.dat has %llu records, the "
				 "kernel counted %llu (stats entries): trace.dat "
				 "is corrupt or incomplete",
				 (unsigned long long)n,
				 (unsigned long long)c->entries) :
				 xasprintf("buffer not in trace.dat, the kernel "
				 "counted %llu (stats entries): trace.dat is "
				 "corrupt or incomplete",
				 (unsigned long long)c->entries));
			if ((size_t)c->cpu < nshort)
				short_of[c->cpu] = true;
		}
	}
}

/*
 * Losses per buffer and CPU, each counted once.  The CPU's stats file is
 * the kernel's own count: "overrun" (oldest events overwritten),
 * "commit overrun" and "dropped events" are disjoint.  The gaps libtracecmd
 * reports in trace.dat are the reader's view of the same overwritten
 * events, so they count only for a CPU whose stats show no loss (or that
 * has no stats file) and whose records do not fall short of the stats'
 * entries (stats_mismatch(): there they are part of that loss).
 */
static void cpu_losses(struct analysis *a, const struct instance *in)
{
	bool *short_of = xcalloc(in->npercpu + 1, sizeof(*short_of));
	size_t i;
	int cpu;

	for (i = 0; i < in->ncpus; i++) {
		const struct cpu_stat *c = &in->cpus[i];

		if (c->overrun)
			add_loss(a, LOSS_OVERRUN, in, xasprintf("cpu%d", c->cpu),
				 c->overrun, xstrdup("ring buffer full: oldest "
				 "events overwritten (raise buffer_size)"));
		if (c->commit_overrun)
			add_loss(a, LOSS_COMMIT_OVERRUN, in,
				 xasprintf("cpu%d", c->cpu), c->commit_overrun,
				 xstrdup("events lost while being written"));
		if (c->dropped)
			add_loss(a, LOSS_DROPPED, in, xasprintf("cpu%d", c->cpu),
				 c->dropped, xstrdup("ring buffer full: new "
				 "events dropped"));
	}
	stats_mismatch(a, in, short_of, in->npercpu);
	for (cpu = 0; (size_t)cpu < in->npercpu; cpu++) {
		const struct cpu_read *m = &in->percpu[cpu];
		const struct cpu_stat *c = cpu_stat_of(in, cpu);

		if (!m->gaps || short_of[cpu] || (c && (c->overrun ||
				       c->commit_overrun || c->dropped)))
			continue;
		add_loss(a, LOSS_MISSED, in, xasprintf("cpu%d", cpu), m->lost,
			 m->lost_unknown ? xasprintf("%llu gaps in trace.dat, "
			 "some of unknown size", (unsigned long long)m->gaps) :
			 xasprintf("%llu gaps in trace.dat",
				   (unsigned long long)m->gaps));
	}
	free(short_of);
}

/* Records in buffers whose clock counts time: a->first_ts..last_ts. */
bool analysis_timed_records(const struct analysis *a)
{
	size_t i;

	for (i = 0; i < a->ninst; i++)
		if (a->inst[i].nrecords && a->inst[i].clock_ns)
			return true;
	return false;
}

bool analysis_losses_known(const struct analysis *a)
{
	return a->trace_ok && !a->trace_error;
}

uint64_t analysis_lost(const struct analysis *a, const char *inst)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < a->nlosses; i++) {
		const struct loss *l = &a->losses[i];

		if (loss_counts_events(l) && !strcmp(l->instance, inst))
			n += l->count;
	}
	return n;
}

bool loss_counts_events(const struct loss *l)
{
	return l->kind <= LOSS_MISMATCH && !l->surplus;
}

/*
 * Whether bit @cpu is set in a tracing_cpumask ("3", "00000000,00000001":
 * hex digits, the lowest CPUs last, commas between words).
 */
static bool mask_has(const char *mask, int cpu)
{
	const char *p = mask + strlen(mask);
	int digit = 0, v;

	while (p-- > mask) {
		if (*p == ',' || *p == ' ' || *p == '\n')
			continue;
		if (digit++ < cpu / 4)
			continue;
		v = *p >= '0' && *p <= '9' ? *p - '0' :
		    *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 :
		    *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 0;
		return v >> (cpu % 4) & 1;
	}
	return false;
}

/* Whether the buffer's tracing_cpumask leaves out one of the CPUs. */
static bool mask_partial(const struct instance *in)
{
	size_t i;

	for (i = 0; in->cpumask && i < in->ncpus; i++)
		if (!mask_has(in->cpumask, in->cpus[i].cpu))
			return true;
	return false;
}

static void event_losses(struct analysis *a, const struct instance *in)
{
	bool partial = mask_partial(in);
	size_t i, k;

	for (i = 0; i < in->nevents; i++) {
		const struct ev_state *ev = &in->events[i];
		uint64_t hits = 0;
		bool enabled = ev->enable && ev->enable[0] == '1';

		for (k = 0; k < ev->hist.n; k++) {
			hits += ev->hist.hists[k].hits;
			if (ev->hist.hists[k].dropped)
				add_loss(a, LOSS_HIST_DROPPED, in,
					 xasprintf("%s:%s", ev->system, ev->name),
					 ev->hist.hists[k].dropped,
					 xstrdup("histogram full: raise its "
						 "size="));
		}
		/* a buffer the boot left with tracing off records nothing */
		if (enabled && a->trace_ok && in->tracing_on != 0 &&
		    !event_count(in, ev->system, ev->name) &&
		    !(ev->hist.n && hits))
			add_loss(a, LOSS_NEVER_FIRED, in,
				 xasprintf("%s:%s", ev->system, ev->name), 0,
				 partial ? xasprintf("enabled, but no record in "
				 "trace.dat (tracing_cpumask %s: what runs on "
				 "other CPUs is not recorded)", in->cpumask) :
				 xstrdup("enabled, but no record in trace.dat"));
		else if (!enabled && ev->hist.n && !hits)
			add_loss(a, LOSS_NEVER_FIRED, in,
				 xasprintf("%s:%s", ev->system, ev->name), 0,
				 xstrdup("hist trigger set, but no hit"));
	}
}

void derive_losses(struct analysis *a)
{
	const char *st;
	char *t;
	size_t i;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		cpu_losses(a, in);
		event_losses(a, in);
	}
	t = bundle_text(a, "collect.status", true);
	st = t ? strstr(t, "errors=") : NULL;
	if (st && strtoul(st + 7, NULL, 10) > 0)
		add_loss(a, LOSS_COLLECT, NULL, xstrdup("collector"),
			 strtoul(st + 7, NULL, 10),
			 xstrdup("the collector met errors: see collect.log"));
	free(t);
}
