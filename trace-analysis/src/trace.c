// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - one pass over trace.dat with libtracecmd: the top buffer and
 * every instance.  Counts records per instance and event type, lost
 * events, pairs initcall_start/initcall_finish and counts the records of
 * the function tracers per function address.
 *
 * Each buffer is read CPU by CPU (tracecmd_read_cpu_first() and
 * tracecmd_read_data()), not merged in time order: none of the figures
 * but the initcall pairing needs an order, counts, first and last times
 * and per-CPU gaps are the same in any, and the merge costs a peek per
 * record and CPU (bench/analysis.sh).  The few initcall records of a
 * buffer are queued and paired in time order once its CPUs are read
 * (initcall_pair.h), so a task that migrates between CPUs, and nested
 * calls, pair as in the merged order.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "analysis.h"
#include "guard.h"
#include "initcall_pair.h"
#include "util.h"

#define OPEN_FLAGS (TRACECMD_FL_LOAD_NO_PLUGINS | \
		    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

/*
 * A number field read straight from a record (the common_type of every
 * record, the address of every function-tracer record): the same value
 * tep_read_number_field() gives, without its calls per record.
 */
struct nfield {
	unsigned int off, size;	/* size 0: no such field */
	bool swap;		/* trace.dat's byte order is not ours */
};

/* Per handle (top buffer or instance). */
struct hctx {
	struct instance *in;
	struct tep_handle *tep;
	int id_start, id_finish, id_level;
	struct tep_format_field *f_start_func, *f_finish_func, *f_ret;
	struct tep_event *ev_level;
	struct ic_pairing ic;
	struct nfield type;	/* common_type */
	/* ftrace:function (ip) and ftrace:funcgraph_entry (func) */
	int id_func, id_graph;
	struct nfield f_ip, f_gfunc;
	uint64_t *fn_addr, *fn_count;	/* open addressing, 0 = empty */
	size_t fn_cap, fn_n;
	struct ev_count *last;	/* count() of the last record's type */
	int last_id;
};

struct tctx {
	struct analysis *a;
	struct hctx *h;
	int n;
};

static void nfield_init(struct nfield *nf, struct tep_handle *tep,
			const struct tep_format_field *f)
{
	memset(nf, 0, sizeof(*nf));
	if (!f || f->offset < 0 || (f->flags & (TEP_FIELD_IS_ARRAY |
						TEP_FIELD_IS_DYNAMIC)) ||
	    (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		return;
	nf->off = (unsigned int)f->offset;
	nf->size = (unsigned int)f->size;
	nf->swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
}

/* Returns false when the record has no such field. */
static inline bool nfield_get(const struct nfield *nf,
			      const struct tep_record *r, uint64_t *v)
{
	const unsigned char *p = (const unsigned char *)r->data + nf->off;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	if (!nf->size || r->size < 0 ||
	    nf->off + nf->size > (unsigned int)r->size)
		return false;
	switch (nf->size) {
	case 1:
		*v = *p;
		break;
	case 2:
		memcpy(&v16, p, 2);
		*v = nf->swap ? __builtin_bswap16(v16) : v16;
		break;
	case 4:
		memcpy(&v32, p, 4);
		*v = nf->swap ? __builtin_bswap32(v32) : v32;
		break;
	default:
		memcpy(&v64, p, 8);
		*v = nf->swap ? __builtin_bswap64(v64) : v64;
		break;
	}
	return true;
}

static int event_id(struct tep_handle *tep, const char *sys, const char *name,
		    struct tep_event **out)
{
	struct tep_event *ev = tep_find_event_by_name(tep, sys, name);

	if (out)
		*out = ev;
	return ev ? ev->id : -1;
}

static struct tep_format_field *field(struct tep_handle *tep, int id,
				      const char *name)
{
	struct tep_event *ev = id >= 0 ? tep_find_event(tep, id) : NULL;

	return ev ? tep_find_field(ev, name) : NULL;
}

static void hctx_init(struct hctx *c, struct tracecmd_input *h,
		      struct instance *in)
{
	struct tep_event *first;

	memset(c, 0, sizeof(*c));
	c->in = in;
	c->tep = tracecmd_get_tep(h);
	c->id_start = event_id(c->tep, "initcall", "initcall_start", NULL);
	c->id_finish = event_id(c->tep, "initcall", "initcall_finish", NULL);
	c->id_level = event_id(c->tep, "initcall", "initcall_level",
			       &c->ev_level);
	c->f_start_func = field(c->tep, c->id_start, "func");
	c->f_finish_func = field(c->tep, c->id_finish, "func");
	c->f_ret = field(c->tep, c->id_finish, "ret");
	c->id_func = event_id(c->tep, "ftrace", "function", NULL);
	c->id_graph = event_id(c->tep, "ftrace", "funcgraph_entry", NULL);
	nfield_init(&c->f_ip, c->tep, field(c->tep, c->id_func, "ip"));
	nfield_init(&c->f_gfunc, c->tep, field(c->tep, c->id_graph, "func"));
	/* every event has the common fields where the first one has them */
	first = tep_get_first_event(c->tep);
	nfield_init(&c->type, c->tep, first ?
		    tep_find_common_field(first, "common_type") : NULL);
	c->last_id = -1;
	in->in_trace = true;
}

static char *symbol(struct tep_handle *tep, uint64_t addr)
{
	const char *s = tep_find_function(tep, addr);

	return s ? xstrdup(s) : xasprintf("0x%llx", (unsigned long long)addr);
}

static void on_start(struct hctx *c, struct tep_record *r)
{
	unsigned long long func = 0;

	if (!c->f_start_func ||
	    tep_read_number_field(c->f_start_func, r->data, &func))
		return;
	ic_queue(&c->ic, (struct ic_record){
		.kind = IC_START, .ts = r->ts, .func = func,
		.text = symbol(c->tep, func), .cpu = r->cpu,
		.pid = tep_data_pid(c->tep, r) });
}

static void on_finish(struct hctx *c, struct tep_record *r)
{
	unsigned long long func = 0, ret = 0;

	if (!c->f_finish_func ||
	    tep_read_number_field(c->f_finish_func, r->data, &func))
		return;
	if (c->f_ret)
		tep_read_number_field(c->f_ret, r->data, &ret);
	ic_queue(&c->ic, (struct ic_record){
		.kind = IC_FINISH, .ts = r->ts, .func = func, .cpu = r->cpu,
		.pid = tep_data_pid(c->tep, r), .ret = (int)ret });
}

static void on_level(struct hctx *c, struct tep_record *r)
{
	int len = 0;
	const char *s = tep_get_field_raw(NULL, c->ev_level, "level", r,
					  &len, 0);

	if (s && len > 0)
		ic_queue(&c->ic, (struct ic_record){
			.kind = IC_LEVEL, .ts = r->ts, .cpu = r->cpu,
			.text = xstrndup(s, strnlen(s, (size_t)len)) });
}

static size_t fn_slot(const uint64_t *keys, size_t cap, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 17) & (cap - 1);

	while (keys[i] && keys[i] != addr)
		i = (i + 1) & (cap - 1);
	return i;
}

static void fn_grow(struct hctx *c)
{
	size_t cap = c->fn_cap ? c->fn_cap * 2 : 1024, i, k;
	uint64_t *keys = xcalloc(cap, sizeof(*keys));
	uint64_t *vals = xcalloc(cap, sizeof(*vals));

	for (i = 0; i < c->fn_cap; i++) {
		if (!c->fn_addr[i])
			continue;
		k = fn_slot(keys, cap, c->fn_addr[i]);
		keys[k] = c->fn_addr[i];
		vals[k] = c->fn_count[i];
	}
	free(c->fn_addr);
	free(c->fn_count);
	c->fn_addr = keys;
	c->fn_count = vals;
	c->fn_cap = cap;
}

static void on_function(struct hctx *c, struct tep_record *r,
			const struct nfield *f)
{
	uint64_t addr;
	size_t k;

	if (!nfield_get(f, r, &addr) || !addr)
		return;
	if (2 * (c->fn_n + 1) > c->fn_cap)
		fn_grow(c);
	k = fn_slot(c->fn_addr, c->fn_cap, addr);
	if (!c->fn_addr[k]) {
		c->fn_addr[k] = addr;
		c->fn_n++;
	}
	c->fn_count[k]++;
}

/* The handle's function counts become the instance's, with symbols. */
static void take_functions(struct hctx *c)
{
	struct instance *in = c->in;
	size_t i;

	if (!c->fn_n)
		return;
	in->funcs = xcalloc(c->fn_n, sizeof(*in->funcs));
	for (i = 0; i < c->fn_cap; i++) {
		struct func_count *fc;

		if (!c->fn_addr[i])
			continue;
		fc = &in->funcs[in->nfuncs++];
		fc->addr = c->fn_addr[i];
		fc->name = symbol(c->tep, c->fn_addr[i]);
		fc->count = c->fn_count[i];
	}
	free(c->fn_addr);
	free(c->fn_count);
}

static void count(struct hctx *c, struct tep_record *r, int id)
{
	struct instance *in = c->in;
	struct ev_count *ec;

	if (id < 0 || id > 1 << 20)
		return;
	if (id == c->last_id) {
		ec = c->last;
	} else {
		if ((size_t)id >= in->ncounts) {
			size_t n = (size_t)id + 1;

			in->counts = xrealloc(in->counts,
					      n * sizeof(*in->counts));
			memset(&in->counts[in->ncounts], 0,
			       (n - in->ncounts) * sizeof(*in->counts));
			in->ncounts = n;
		}
		ec = &in->counts[id];
		c->last = ec;
		c->last_id = id;
	}
	if (!ec->name) {
		struct tep_event *ev = tep_find_event(c->tep, id);

		ec->system = xstrdup(ev ? ev->system : "?");
		ec->name = ev ? xstrdup(ev->name) : xasprintf("id%d", id);
		ec->first_ts = ec->last_ts = r->ts;
	}
	ec->count++;
	/* CPU by CPU: the first and last of all CPUs */
	if (r->ts < ec->first_ts)
		ec->first_ts = r->ts;
	if (r->ts > ec->last_ts)
		ec->last_ts = r->ts;
}

/*
 * What the reader saw on @cpu: records, and gaps (derive.c counts those
 * against the stats).  NULL for a CPU number no recording has.
 */
static struct cpu_read *cpu_read_of(struct instance *in, int cpu)
{
	if (cpu < 0 || cpu > 1 << 16)
		return NULL;
	if ((size_t)cpu >= in->npercpu) {
		size_t n = (size_t)cpu + 1;

		in->percpu = xrealloc(in->percpu, n * sizeof(*in->percpu));
		memset(&in->percpu[in->npercpu], 0,
		       (n - in->npercpu) * sizeof(*in->percpu));
		in->npercpu = n;
	}
	return &in->percpu[cpu];
}

static void on_cpu_record(struct instance *in, const struct tep_record *r)
{
	struct cpu_read *m = cpu_read_of(in, r->cpu);

	if (!m)
		return;
	m->records++;
	if (!r->missed_events)
		return;
	m->gaps++;
	in->missed_records++;
	if (r->missed_events > 0) {
		m->lost += (uint64_t)r->missed_events;
		in->missed_events += (uint64_t)r->missed_events;
	} else {
		m->lost_unknown = true;
		in->missed_unknown = true;
	}
}

static void on_record(struct hctx *c, struct tep_record *r)
{
	struct instance *in = c->in;
	uint64_t type;
	int id;

	id = nfield_get(&c->type, r, &type) ? (int)type :
		tep_data_type(c->tep, r);
	count(c, r, id);
	if (!in->nrecords || r->ts < in->first_ts)
		in->first_ts = r->ts;
	if (!in->nrecords || r->ts > in->last_ts)
		in->last_ts = r->ts;
	in->nrecords++;
	on_cpu_record(in, r);
	if (id == c->id_func)
		on_function(c, r, &c->f_ip);
	else if (id == c->id_graph)
		on_function(c, r, &c->f_gfunc);
	else if (id == c->id_start)
		on_start(c, r);
	else if (id == c->id_finish)
		on_finish(c, r);
	else if (id == c->id_level && c->ev_level)
		on_level(c, r);
}

/*
 * Every record of @h, CPU by CPU.  tep_get_cpus() is the CPU count of the
 * recording; no buffer has more (libtracecmd returns no record for a CPU
 * a buffer does not have).
 */
static void read_buffer(struct hctx *c, struct tracecmd_input *h)
{
	int cpu, ncpus = tep_get_cpus(c->tep);

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, cpu);

		while (r) {
			on_record(c, r);
			tracecmd_free_record(r);
			r = tracecmd_read_data(h, cpu);
		}
	}
	ic_pair_queued(&c->ic);
}

/*
 * The buffers' totals; keep the initcalls of the one that saw the most.
 * The time range and the initcalls come from buffers whose clock counts
 * nanoseconds only: a counter or cycle clock has no durations.
 */
static void take_buffers(struct tctx *t)
{
	struct analysis *a = t->a;
	struct hctx *best = NULL, *untimed = NULL;
	bool have_ts = false;
	int i;

	for (i = 0; i < t->n; i++) {
		const struct instance *in = t->h[i].in;

		a->total_records += in->nrecords;
		if (!in->nrecords || !in->clock_ns)
			continue;
		if (!have_ts || in->first_ts < a->first_ts)
			a->first_ts = in->first_ts;
		if (!have_ts || in->last_ts > a->last_ts)
			a->last_ts = in->last_ts;
		have_ts = true;
	}
	for (i = 0; i < t->n; i++) {
		struct hctx *h = &t->h[i];
		struct hctx **pick = h->in->clock_ns ? &best : &untimed;

		if (h->ic.ncalls && (!*pick || h->ic.ncalls > (*pick)->ic.ncalls))
			*pick = h;
	}
	if (!best && untimed)
		a->initcalls_untimed = xasprintf("%zu in buffer %s, whose "
			"clock (%s) does not count time", untimed->ic.ncalls,
			inst_label(untimed->in), untimed->in->clock_name);
	for (i = 0; i < t->n; i++) {
		struct ic_pairing *p = &t->h[i].ic;

		if (&t->h[i] == best) {
			t->a->initcalls = p->calls;
			t->a->ninitcalls = p->ncalls;
			p->calls = NULL;
		}
		ic_pairing_free(p);
	}
}

static void count_kprobes(struct analysis *a)
{
	size_t i, j, k;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; j < in->ncounts; j++) {
			const struct ev_count *ec = &in->counts[j];

			if (!ec->name || strcmp(ec->system, "kprobes"))
				continue;
			for (k = 0; k < a->nkprobes; k++)
				if (!strcmp(a->kprobes[k].name, ec->name))
					a->kprobes[k].traced += ec->count;
		}
	}
}

/*
 * Hist keys printed as plain numbers that are kernel text addresses (a
 * "keys=func" without .sym) get their symbol from trace.dat's kallsyms.
 */
static void symbolize_hists(struct analysis *a, struct tep_handle *tep)
{
	size_t i, j, k, e, n;

	for (i = 0; i < a->ninst; i++) {
		struct instance *in = &a->inst[i];

		for (j = 0; j < in->nevents; j++) {
			struct hist_set *hs = &in->events[j].hist;

			for (k = 0; k < hs->n; k++) {
				struct hist *h = &hs->hists[k];

				for (e = 0; e < h->nentries; e++) {
					for (n = 0; n < h->entries[e].nkeys;
					     n++) {
						struct hist_key *key =
							&h->entries[e].keys[n];
						const char *sym;

						if (key->kind != HK_NUMBER ||
						    key->num < KERNEL_TEXT_START)
							continue;
						sym = tep_find_function(tep,
									key->num);
						if (!sym)
							continue;
						free(key->text);
						key->text = xstrdup(sym);
						key->kind = HK_SYM;
					}
				}
			}
		}
	}
}

void trace_read(struct analysis *a)
{
	char *path = bundle_file(a, "trace.dat");
	struct tracecmd_input *top, **hs;
	struct tctx t = { a, NULL, 0 };
	struct stat st;
	int i, ninst, fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && lstat(path, &st)) {
		a->trace_error = xstrdup("trace.dat: missing (the collector "
					 "did not extract the buffers)");
		analysis_problem(a, "%s", a->trace_error);
		free(path);
		return;
	}
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		a->trace_error = xasprintf("trace.dat: cannot read it: %s",
					   fd < 0 || !S_ISDIR(st.st_mode) ?
					   strerror(errno) : "a directory");
		if (fd >= 0)
			close(fd);
		analysis_problem(a, "%s", a->trace_error);
		a->nerrors++;
		free(path);
		return;
	}
	close(fd);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	/* libtracecmd may crash on a damaged file: an error, exit 2 */
	guard_enter(a->path);
	top = tracecmd_open(path, OPEN_FLAGS);
	free(path);
	if (!top) {
		guard_leave();
		a->trace_error = xstrdup("trace.dat: libtracecmd cannot read "
					 "it (truncated, corrupt, or not a "
					 "trace-cmd file)");
		analysis_problem(a, "%s", a->trace_error);
		a->nerrors++;
		return;
	}
	symbolize_hists(a, tracecmd_get_tep(top));
	ninst = tracecmd_buffer_instances(top);
	if (ninst < 0)
		ninst = 0;
	hs = xcalloc((size_t)ninst + 1, sizeof(*hs));
	t.h = xcalloc((size_t)ninst + 1, sizeof(*t.h));
	/* create every instance first: instance_get() may move them */
	instance_get(a, "");
	for (i = 0; i < ninst; i++) {
		const char *name = tracecmd_buffer_instance_name(top, i);

		if (name)
			instance_get(a, name);
	}
	hs[0] = top;
	hctx_init(&t.h[0], top, instance_get(a, ""));
	t.n = 1;
	for (i = 0; i < ninst; i++) {
		const char *name = tracecmd_buffer_instance_name(top, i);
		struct tracecmd_input *h;

		h = name ? tracecmd_buffer_instance_handle(top, i) : NULL;
		if (!h) {
			/* its records are lost to us: an error, not "none" */
			if (!a->trace_error)
				a->trace_error = xasprintf("trace.dat: "
					"libtracecmd cannot read buffer "
					"instance %s (corrupt)",
					name ? name : "?");
			analysis_problem(a, "trace.dat: libtracecmd cannot "
					 "read buffer instance %d (%s): "
					 "corrupt", i, name ? name : "?");
			a->nerrors++;
			continue;
		}
		hs[t.n] = h;
		hctx_init(&t.h[t.n], h, instance_get(a, name));
		t.n++;
	}
	/*
	 * Close each instance when read: libtracecmd frees its decompressed
	 * chunks only then.  The symbols are the top handle's (shared).
	 */
	for (i = 0; i < t.n; i++) {
		read_buffer(&t.h[i], hs[i]);
		take_functions(&t.h[i]);
		if (i)
			tracecmd_close(hs[i]);
	}
	a->trace_ok = true;
	take_buffers(&t);
	tracecmd_close(top);
	guard_leave();
	free(hs);
	free(t.h);
	count_kprobes(a);
}
