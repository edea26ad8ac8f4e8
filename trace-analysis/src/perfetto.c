// SPDX-License-Identifier: GPL-2.0
/*
 * perfetto.c - Chrome trace JSON (opens in ui.perfetto.dev and
 * chrome://tracing): one process per buffer, one thread (track) per CPU;
 * initcalls as complete events, other trace.dat events as instants.
 * Function-tracer records are left out (they would drown everything).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "output.h"
#include "util.h"

#define MAX_INSTANTS	200000

struct pctx {
	FILE *f;
	size_t instants;
	size_t skipped;
	int pid;
};

static void sep(FILE *f)
{
	fputs(",\n", f);
}

static void meta_names(const struct analysis *a, FILE *f)
{
	size_t i, c;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];
		size_t ncpu = in->ncpus ? in->ncpus : 1;

		fprintf(f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%zu,"
			"\"args\":{\"name\":", i);
		bconf_json_string(f, *in->name ? in->name : "top buffer");
		fputs("}}", f);
		for (c = 0; c < ncpu; c++) {
			sep(f);
			fprintf(f, "{\"ph\":\"M\",\"name\":\"thread_name\","
				"\"pid\":%zu,\"tid\":%zu,\"args\":{\"name\":"
				"\"CPU %zu\"}}", i, c, c);
		}
		sep(f);
	}
}

static void initcalls(const struct analysis *a, FILE *f)
{
	size_t i;

	for (i = 0; i < a->ninitcalls; i++) {
		const struct initcall *ic = &a->initcalls[i];

		fputs("{\"ph\":\"X\",\"cat\":\"initcall\",\"name\":", f);
		bconf_json_string(f, ic->func);
		fprintf(f, ",\"ts\":%.3f,\"dur\":%.3f,\"pid\":0,\"tid\":%d,"
			"\"args\":{\"level\":", ic->start_ns / 1e3,
			ic->dur_ns / 1e3, ic->cpu);
		bconf_json_string(f, ic->level ? ic->level : "");
		fprintf(f, ",\"ret\":%d}}", ic->ret);
		sep(f);
	}
}

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu,
		     void *data)
{
	struct pctx *p = data;
	struct tep_handle *tep = tracecmd_get_tep(h);
	struct tep_event *ev = tep_find_event_by_record(tep, r);
	intptr_t pid = (intptr_t)tracecmd_get_private(h);

	if (!ev || !strcmp(ev->system, "ftrace") ||
	    !strcmp(ev->system, "initcall"))
		return 0;
	if (p->instants >= MAX_INSTANTS) {
		p->skipped++;
		return 0;
	}
	fprintf(p->f, "{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"%s\",\"name\":",
		!strcmp(ev->system, "kprobes") ? "kprobe" : "event");
	{
		char *n = xasprintf("%s:%s", ev->system, ev->name);

		bconf_json_string(p->f, n);
		free(n);
	}
	fprintf(p->f, ",\"ts\":%.3f,\"pid\":%" PRIdPTR ",\"tid\":%d,"
		"\"args\":{\"common_pid\":%d}}", r->ts / 1e3, pid, cpu,
		tep_data_pid(tep, r));
	sep(p->f);
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
	struct tracecmd_input *top, **hs;
	int i, n, nh = 1;

	top = a->trace_ok ? tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
					  TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS) :
			    NULL;
	free(path);
	if (!top)
		return;
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
	tracecmd_iterate_events_multi(hs, nh, on_record, p);
	for (i = nh - 1; i >= 0; i--)
		tracecmd_close(hs[i]);
	free(hs);
}

int write_perfetto(const struct analysis *a, const char *path)
{
	struct pctx p = { 0 };
	int r = 0;

	p.f = fopen(path, "w");
	if (!p.f)
		return -errno;
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", p.f);
	meta_names(a, p.f);
	initcalls(a, p.f);
	instants(a, &p);
	fprintf(p.f, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%zu,"
		"\"args\":{\"name\":\"boottrace\"}}\n],\"otherData\":"
		"{\"bundle\":", a->ninst);
	bconf_json_string(p.f, a->path);
	fprintf(p.f, ",\"initcalls\":%zu,\"instants\":%zu,"
		"\"instants_left_out\":%zu}}\n", a->ninitcalls, p.instants,
		p.skipped);
	if (fclose(p.f))
		r = -errno;
	return r;
}
