// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto.c - Chrome trace JSON (opens in ui.perfetto.dev and
 * chrome://tracing).
 *
 *   pid 1..N     one process per buffer (top, instances), one track per CPU
 *                that has events: trace.dat events as instants, their
 *                fields as args (numbers as numbers; kernel addresses and
 *                other u64 values above 2^53 as "0x..." strings; strings
 *                as strings)
 *   pid N+1      "initcalls": one track per task that ran them, the
 *                initcalls as slices (nested calls nest); from trace.dat,
 *                or from a latency histogram: at their start time when
 *                trace.dat has it, else end to end in address (link)
 *                order, which is the order the kernel calls a level in
 *
 * pid 0 is left out (Perfetto treats it as the idle/swapper process) and
 * no track is named that has no event.  Function-tracer records are left
 * out (they would drown everything; the report counts them).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "guard.h"
#include "output.h"
#include "util.h"

#define MAX_INSTANTS	200000
#define MAX_CPUS	4096

struct pctx {
	FILE *f;
	const struct analysis *a;
	size_t instants;
	size_t skipped;
	size_t untimed;		/* buffers left out: their clock is no time */
	bool *used;		/* [instance * MAX_CPUS + cpu]: has events */
	struct trace_seq seq;
	bool first;		/* no element written yet */
};

/* Starts an element of traceEvents (the format has no trailing comma). */
static FILE *item(struct pctx *p)
{
	if (!p->first)
		fputs(",\n", p->f);
	p->first = false;
	return p->f;
}

static void name_meta(struct pctx *p, const char *what, size_t pid,
		      long tid, const char *name)
{
	FILE *f = item(p);

	fprintf(f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%zu", what, pid);
	if (tid >= 0)
		fprintf(f, ",\"tid\":%ld", tid);
	fputs(",\"args\":{\"name\":", f);
	bconf_json_string(f, name);
	fputs("}}", f);
}

/* Processes and tracks of the buffers that had events. */
static void buffer_names(struct pctx *p)
{
	const struct analysis *a = p->a;
	size_t i, c;

	for (i = 0; i < a->ninst; i++) {
		bool any = false;

		for (c = 0; c < MAX_CPUS; c++) {
			char *n;

			if (!p->used[i * MAX_CPUS + c])
				continue;
			if (!any)
				name_meta(p, "process_name", i + 1, -1,
					  *a->inst[i].name ? a->inst[i].name :
					  "top buffer");
			any = true;
			n = xasprintf("CPU %zu", c);
			name_meta(p, "thread_name", i + 1, (long)c, n);
			free(n);
		}
	}
}

static int cmp_addr(const void *x, const void *y)
{
	const struct initcall *a = *(struct initcall *const *)x;
	const struct initcall *b = *(struct initcall *const *)y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static void slice(struct pctx *p, size_t pid, const struct initcall *ic,
		  uint64_t ts, bool traced, const char *how)
{
	FILE *f = item(p);

	fputs("{\"ph\":\"X\",\"cat\":\"initcall\",\"name\":", f);
	bconf_json_string(f, ic->func);
	fprintf(f, ",\"ts\":%.3f,\"dur\":%.3f,\"pid\":%zu,\"tid\":%d,"
		"\"args\":{", ts / 1e3, ic->dur_ns / 1e3, pid,
		ic->pid > 0 ? ic->pid : 1);
	if (ic->level) {
		fputs("\"level\":", f);
		bconf_json_string(f, ic->level);
		fputc(',', f);
	}
	if (ic->addr)
		fprintf(f, "\"addr\":\"0x%" PRIx64 "\",", ic->addr);
	if (traced && ic->finished)
		fprintf(f, "\"ret\":%d,", ic->ret);
	if (ic->count > 1)
		fprintf(f, "\"calls\":%" PRIu64 ",", ic->count);
	fputs("\"source\":", f);
	bconf_json_string(f, how);
	fputs("}}", f);
}

/* Returns the number of slices. */
static size_t initcalls(struct pctx *p)
{
	const struct analysis *a = p->a;
	size_t pid = a->ninst + 1, i, n = a->nhist_initcalls;
	struct initcall **v;
	uint64_t t = 0;

	if (a->ninitcalls) {
		name_meta(p, "process_name", pid, -1, "initcalls");
		for (i = 0; i < a->ninitcalls; i++) {
			const struct initcall *ic = &a->initcalls[i];

			if (!i || ic->pid != a->initcalls[0].pid) {
				char *tn = xasprintf("task %d", ic->pid > 0 ?
						     ic->pid : 1);

				/* repeated names are harmless; one per task */
				name_meta(p, "thread_name", pid,
					  ic->pid > 0 ? ic->pid : 1, tn);
				free(tn);
			}
			slice(p, pid, ic, ic->start_ns, true, "trace.dat");
		}
		return a->ninitcalls;
	}
	if (!n)
		return 0;
	name_meta(p, "process_name", pid, -1, "initcall latency (histogram)");
	name_meta(p, "thread_name", pid, 1, a->hist_initcalls_src);
	v = xcalloc(n, sizeof(*v));
	for (i = 0; i < n; i++)
		v[i] = &a->hist_initcalls[i];
	qsort(v, n, sizeof(*v), cmp_addr);
	for (i = 0; i < n; i++) {
		if (v[i]->start_ns) {
			slice(p, pid, v[i], v[i]->start_ns, false,
			      "histogram latency, start from trace.dat");
			continue;
		}
		slice(p, pid, v[i], t, false, "histogram latency; no start "
		      "time: laid end to end in address (link) order");
		t += v[i]->dur_ns;
	}
	free(v);
	return n;
}

/* One field of a record as a JSON value. */
static void field_arg(struct pctx *p, struct tep_record *r,
		      struct tep_format_field *fl)
{
	unsigned long long v;

	if (!(fl->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
			   TEP_FIELD_IS_DYNAMIC)) && fl->size <= 8 &&
	    !tep_read_number_field(fl, r->data, &v)) {
		/* addresses, and any u64 a JSON number cannot hold exactly */
		if (fl->size == 8 && !(fl->flags & TEP_FIELD_IS_SIGNED) &&
		    v > 1ull << 53)
			fprintf(p->f, "\"0x%llx\"", v);
		else if (fl->flags & TEP_FIELD_IS_SIGNED)
			fprintf(p->f, "%lld", fl->size == 8 ? (long long)v :
				fl->size == 4 ? (long long)(int32_t)v :
				fl->size == 2 ? (long long)(int16_t)v :
				(long long)(int8_t)v);
		else
			fprintf(p->f, "%llu", v);
		return;
	}
	trace_seq_reset(&p->seq);
	tep_print_field_content(&p->seq, r->data, r->size, fl);
	trace_seq_terminate(&p->seq);
	bconf_json_string(p->f, p->seq.buffer);
}

static int on_record(struct tracecmd_input *h, struct tep_record *r,
		     int cpu __attribute__((unused)), void *data)
{
	struct pctx *p = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, r);
	size_t inst = (size_t)(intptr_t)tracecmd_get_private(h);
	struct tep_format_field *fl;
	char *n;

	if (!ev || !strcmp(ev->system, "ftrace") ||
	    !strcmp(ev->system, "initcall"))
		return 0;
	if (p->instants >= MAX_INSTANTS || r->cpu < 0 || r->cpu >= MAX_CPUS) {
		p->skipped++;
		return 0;
	}
	p->used[inst * MAX_CPUS + (size_t)r->cpu] = true;
	fprintf(item(p), "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"%s\",\"name\":",
		!strcmp(ev->system, "kprobes") ? "kprobe" : "event");
	n = xasprintf("%s:%s", ev->system, ev->name);
	bconf_json_string(p->f, n);
	free(n);
	fprintf(p->f, ",\"ts\":%.3f,\"pid\":%zu,\"tid\":%d,"
		"\"args\":{\"common_pid\":%d", r->ts / 1e3, inst + 1, r->cpu,
		tep_data_pid(tep, r));
	for (fl = ev->format.fields; fl; fl = fl->next) {
		fputc(',', p->f);
		bconf_json_string(p->f, fl->name);
		fputc(':', p->f);
		field_arg(p, r, fl);
	}
	fputs("}}", p->f);
	p->instants++;
	return 0;
}

static size_t inst_index(const struct analysis *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->ninst; i++)
		if (!strcmp(a->inst[i].name, name))
			return i;
	return 0;
}

static void instants(const struct analysis *a, struct pctx *p)
{
	char *path = bundle_file(a, "trace.dat");
	struct tracecmd_input *top, **hs, **timed;
	int i, n, nh = 1;

	if (!a->trace_ok) {
		free(path);
		return;
	}
	guard_enter(a->path);
	top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
			    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	free(path);
	if (!top) {
		guard_leave();
		return;
	}
	n = tracecmd_buffer_instances(top);
	hs = xcalloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*hs));
	hs[0] = top;
	tracecmd_set_private(top, (void *)(intptr_t)inst_index(a, ""));
	for (i = 0; i < n; i++) {
		const char *name = tracecmd_buffer_instance_name(top, i);
		struct tracecmd_input *h = name ?
			tracecmd_buffer_instance_handle(top, i) : NULL;

		if (!h)
			continue;
		tracecmd_set_private(h, (void *)(intptr_t)inst_index(a, name));
		hs[nh++] = h;
	}
	/*
	 * In time order over the buffers whose clock counts time (a counter
	 * clock's records would all sit at 0; unlike trace.c): past
	 * MAX_INSTANTS the export keeps the earliest events, whichever buffer
	 * has them.
	 */
	timed = xcalloc((size_t)nh, sizeof(*timed));
	for (i = n = 0; i < nh; i++) {
		size_t k = (size_t)(intptr_t)tracecmd_get_private(hs[i]);

		if (k < a->ninst && !a->inst[k].clock_ns)
			p->untimed++;
		else
			timed[n++] = hs[i];
	}
	if (n)
		tracecmd_iterate_events_multi(timed, n, on_record, p);
	free(timed);
	for (i = nh - 1; i >= 0; i--)
		tracecmd_close(hs[i]);
	guard_leave();
	free(hs);
}

int write_perfetto(const struct analysis *a, const char *path)
{
	struct pctx p = { .a = a, .first = true };
	size_t slices;
	int r = 0;

	p.f = fopen(path, "w");
	if (!p.f)
		return -errno;
	p.used = xcalloc((a->ninst ? a->ninst : 1) * MAX_CPUS,
			 sizeof(*p.used));
	trace_seq_init(&p.seq);
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", p.f);
	slices = initcalls(&p);
	instants(a, &p);
	buffer_names(&p);
	fputs("\n],\"otherData\":{\"bundle\":", p.f);
	bconf_json_string(p.f, a->path);
	fprintf(p.f, ",\"initcall_slices\":%zu,\"instants\":%zu,"
		"\"instants_left_out\":%zu,\"buffers_left_out\":%zu}}\n",
		slices, p.instants, p.skipped, p.untimed);
	trace_seq_destroy(&p.seq);
	free(p.used);
	if (fclose(p.f))
		r = -errno;
	return r;
}
