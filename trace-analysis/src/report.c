// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the report verb: its options, the text report (json.c: the
 * JSON document, svg.c and perfetto.c: the exports).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "output.h"
#include "util.h"

static const struct initcall *sort_base;

static int cmp_dur(const void *x, const void *y)
{
	const struct initcall *a = &sort_base[*(const size_t *)x];
	const struct initcall *b = &sort_base[*(const size_t *)y];

	if (a->dur_ns != b->dur_ns)
		return a->dur_ns < b->dur_ns ? 1 : -1;
	return strcmp(a->func, b->func);
}

size_t *initcalls_by_duration(const struct initcall *ic, size_t n)
{
	size_t *idx = xcalloc(n, sizeof(*idx)), i;

	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_base = ic;
	qsort(idx, n, sizeof(*idx), cmp_dur);
	return idx;
}

double ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

static const char *meta(const struct analysis *a, const char *k)
{
	const char *v = analysis_meta(a, k);

	return v && *v ? v : "?";
}

/*
 * The first screen's answer to "what was lost" and "what failed": the
 * sections Data loss and Was it applied, in a line each.
 */
static void text_summary(const struct analysis *a, FILE *f)
{
	size_t i, other = 0;
	size_t bad = analysis_failed_settings(a);
	size_t pend = analysis_count_settings(a, SET_PENDING);
	size_t unrep = analysis_count_settings(a, SET_NOT_REPORTED);
	struct sbuf b = { 0 };
	uint64_t lost = 0;

	for (i = 0; i < a->ninst; i++) {
		uint64_t n = analysis_lost(a, inst_label(&a->inst[i]));

		if (n)
			sbuf_printf(&b, "%s%s %" PRIu64, lost ? ", " : "",
				    inst_label(&a->inst[i]), n);
		lost += n;
	}
	for (i = 0; i < a->nlosses; i++)
		other += !loss_counts_events(&a->losses[i]);
	if (!analysis_losses_known(a))
		fprintf(f, "lost        unknown: trace.dat could not be read "
			"whole (Data loss)\n");
	else if (!lost && !other)
		fprintf(f, "lost        none\n");
	else if (!lost)
		fprintf(f, "lost        %zu finding(s) (Data loss)\n", other);
	else
		fprintf(f, "lost        %" PRIu64 " events: %s%s (Data "
			"loss)\n", lost, b.s, other ? "; other findings" : "");
	sbuf_free(&b);
	if (a->bconf_error) {
		fprintf(f, "settings    unknown: %s\n", a->bconf_error);
		return;
	}
	if (!a->nsettings && !a->bconf_loaded) {
		fprintf(f, "settings    none: no bootconfig was applied "
			"(proc/bootconfig missing)\n");
		return;
	}
	fprintf(f, "settings    %zu: %zu applied, %zu FAILED", a->nsettings,
		analysis_count_settings(a, SET_APPLIED), bad);
	if (pend)
		fprintf(f, ", %zu pending", pend);
	if (unrep)
		fprintf(f, ", %zu not reported by the kernel", unrep);
	if (a->nunattributed)
		fprintf(f, ", %zu other errors", a->nunattributed);
	fputs(" (Was it applied)\n", f);
}

static void text_header(const struct analysis *a, FILE *f)
{
	const char *msg = analysis_meta(a, "bootconfig_message");
	const char *w = analysis_meta(a, "warnings");
	const char *rel = analysis_kernel_release(a);
	const char *started = analysis_boot_started(a);

	fprintf(f, "bundle      %s\n", a->path);
	if (!analysis_meta(a, "accelerator")) {
		/* `boottrace collect` on a live system: no boot host */
		fprintf(f, "kernel      %s (collected live by %s)\n",
			rel ? rel : "?", meta(a, "collector"));
		fprintf(f, "boot        started %s, collected at %s s uptime\n",
			started && *started ? started : "?",
			meta(a, "guest_uptime_at_collect"));
	} else {
		fprintf(f, "kernel      %s (%s %s), %s, %s CPUs\n",
			rel ? rel : "?", meta(a, "tree"),
			meta(a, "tree_version"), meta(a, "accelerator"),
			meta(a, "smp"));
		fprintf(f, "boot        %s s wall, collected at %s s uptime\n",
			meta(a, "boot_wall_seconds"),
			meta(a, "guest_uptime_at_collect"));
	}
	fprintf(f, "bootconfig  %s%s%s%s\n", meta(a, "bootconfig_status"),
		msg && *msg ? " (" : "", msg && *msg ? msg : "",
		msg && *msg ? ")" : "");
	if (w && *w)
		fprintf(f, "warnings    %s\n", w);
	if (a->trace_ok && analysis_timed_records(a))
		fprintf(f, "trace.dat   %" PRIu64 " records in %zu buffers, "
			"%.6f .. %.6f s\n", a->total_records, a->ninst,
			ns_to_s(a->first_ts), ns_to_s(a->last_ts));
	else if (a->trace_ok)
		fprintf(f, "trace.dat   %" PRIu64 " records in %zu buffers\n",
			a->total_records, a->ninst);
	else
		fprintf(f, "trace.dat   %s\n", a->trace_error);
	text_summary(a, f);
}

static void text_initcalls(const struct analysis *a, size_t top, FILE *f)
{
	size_t *idx, i, n = a->ninitcalls, shown;
	uint64_t total = 0;

	if (!n && a->hist_initcalls_src)
		return;		/* the histogram's table answers it */
	if (!n && a->initcalls_untimed) {
		fprintf(f, "\nInitcalls from trace.dat (initcall_start/finish): "
			"no durations\n  %s: for durations, trace them in a "
			"buffer whose trace_clock is global or local\n",
			a->initcalls_untimed);
		return;
	}
	for (i = 0; i < n; i++)
		total += a->initcalls[i].dur_ns;
	fprintf(f, "\nInitcalls from trace.dat (initcall_start/finish): %zu, "
		"%.3f ms in total\n", n, (double)total / 1e6);
	if (!n) {
		fprintf(f, "  (none: enable initcall:initcall_start and "
			"initcall_finish)\n");
		return;
	}
	idx = initcalls_by_duration(a->initcalls, n);
	shown = n < top ? n : top;
	fprintf(f, "  %-4s %-36s %-14s %12s %12s %5s\n", "#", "function",
		"level", "start (s)", "duration ms", "ret");
	for (i = 0; i < shown; i++) {
		const struct initcall *ic = &a->initcalls[idx[i]];

		char ret[16] = "open";

		if (ic->finished)
			snprintf(ret, sizeof(ret), "%d", ic->ret);
		fprintf(f, "  %-4zu %-36s %-14s %12.6f %12.3f %5s\n", i + 1,
			ic->func, ic->level ? ic->level : "-",
			ns_to_s(ic->start_ns), (double)ic->dur_ns / 1e6, ret);
	}
	if (shown < n)
		fprintf(f, "  ... %zu more (--top N)\n", n - shown);
	free(idx);
}

/*
 * The level and start of a histogram's initcall come from trace.dat's
 * initcall events: without them (no row has either) the columns are left
 * out.
 */
static void text_hist_initcalls(const struct analysis *a, size_t top, FILE *f)
{
	size_t *idx, i, n = a->nhist_initcalls, shown;
	bool placed = false;

	if (!a->hist_initcalls_src)
		return;
	for (i = 0; i < n && !placed; i++)
		placed = a->hist_initcalls[i].start_ns ||
			 a->hist_initcalls[i].level;
	fprintf(f, "\nInitcall latency from histogram %s: %zu functions\n",
		a->hist_initcalls_src, n);
	idx = initcalls_by_duration(a->hist_initcalls, n);
	shown = n < top ? n : top;
	if (placed)
		fprintf(f, "  %-4s %-36s %-14s %12s %8s %14s\n", "#",
			"function", "level", "start (s)", "calls",
			"latency us");
	else
		fprintf(f, "  %-4s %-36s %8s %14s\n", "#", "function", "calls",
			"latency us");
	for (i = 0; i < shown; i++) {
		const struct initcall *ic = &a->hist_initcalls[idx[i]];
		char start[24] = "-";

		if (!placed) {
			fprintf(f, "  %-4zu %-36s %8" PRIu64 " %14" PRIu64 "\n",
				i + 1, ic->func, ic->count, ic->dur_ns / 1000);
			continue;
		}
		if (ic->start_ns)
			snprintf(start, sizeof(start), "%.6f",
				 ns_to_s(ic->start_ns));
		fprintf(f, "  %-4zu %-36s %-14s %12s %8" PRIu64 " %14" PRIu64
			"\n", i + 1, ic->func, ic->level ? ic->level : "-",
			start, ic->count, ic->dur_ns / 1000);
	}
	if (shown < n)
		fprintf(f, "  ... %zu more (--top N)\n", n - shown);
	free(idx);
}

static void text_events(const struct analysis *a, FILE *f)
{
	size_t i, j, rows = 0;
	bool untimed = false;

	fprintf(f, "\nEvents in trace.dat\n");
	fprintf(f, "  %-10s %-40s %10s %12s %12s\n", "buffer", "event",
		"count", "first (s)", "last (s)");
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; j < in->ncounts; j++) {
			const struct ev_count *ec = &in->counts[j];
			char *name;

			if (!ec->name)
				continue;
			name = xasprintf("%s:%s", ec->system, ec->name);
			if (in->clock_ns)
				fprintf(f, "  %-10s %-40s %10" PRIu64
					" %12.6f %12.6f\n", inst_label(in),
					name, ec->count, ns_to_s(ec->first_ts),
					ns_to_s(ec->last_ts));
			else
				fprintf(f, "  %-10s %-40s %10" PRIu64 " %11"
					PRIu64 "* %11" PRIu64 "*\n",
					inst_label(in), name, ec->count,
					ec->first_ts, ec->last_ts);
			free(name);
			rows++;
			untimed |= !in->clock_ns;
		}
	}
	if (!rows)
		fprintf(f, "  (no records)\n");
	if (untimed)
		fprintf(f, "  * raw values of the buffer's clock, which does not "
			"count time (see Buffers)\n");
}

static int cmp_func(const void *x, const void *y)
{
	const struct func_count *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return strcmp(a->name, b->name);
}

/* The function and function_graph tracers: which functions, how often. */
static void text_functions(const struct analysis *a, size_t top, FILE *f)
{
	size_t i, j;

	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];
		struct func_count *fc;
		uint64_t calls = 0, lost = analysis_lost(a, inst_label(in));
		size_t nfilter = 0;
		char filter[48] = "no filter";
		const char *p;

		for (p = in->ftrace_filter; p && *p && *p != '#'; p++)
			nfilter += *p == '\n' || !p[1];
		if (nfilter)
			snprintf(filter, sizeof(filter), "filter of %zu "
				 "functions", nfilter);

		if (!in->nfuncs)
			continue;
		fc = xcalloc(in->nfuncs, sizeof(*fc));
		memcpy(fc, in->funcs, in->nfuncs * sizeof(*fc));
		qsort(fc, in->nfuncs, sizeof(*fc), cmp_func);
		for (j = 0; j < in->nfuncs; j++)
			calls += fc[j].count;
		fprintf(f, "\nFunctions traced in %s (%s tracer, %s): %"
			PRIu64 " calls of %zu functions", inst_label(in),
			in->tracer ? in->tracer : "?", filter, calls,
			in->nfuncs);
		if (lost)
			fprintf(f, ", %" PRIu64 " more records lost", lost);
		fprintf(f, "\n  %-4s %-48s %10s %7s\n", "#", "function",
			"calls", "share");
		for (j = 0; j < in->nfuncs && j < top; j++)
			fprintf(f, "  %-4zu %-48s %10" PRIu64 " %6.1f%%\n", j + 1,
				fc[j].name, fc[j].count,
				100.0 * (double)fc[j].count / (double)calls);
		if (in->nfuncs > top)
			fprintf(f, "  ... %zu more (--top N)\n",
				in->nfuncs - top);
		free(fc);
	}
}

static void text_kprobes(const struct analysis *a, FILE *f)
{
	size_t i;

	if (!a->nkprobes)
		return;
	fprintf(f, "\nKprobes\n");
	for (i = 0; i < a->nkprobes; i++) {
		const struct kprobe *k = &a->kprobes[i];

		fprintf(f, "  %-24s hits %-8" PRIu64 " misses %-6" PRIu64
			" traced %-8" PRIu64 " %s\n", k->name, k->hits,
			k->misses, k->traced, k->have_profile ? "" :
			"(no kprobe_profile)");
		fprintf(f, "  %-24s %s\n", "", k->def);
	}
}

/*
 * The value a histogram's rows are ranked by: its first value other than
 * hitcount (e.g. "lat"), else hitcount.
 */
static const char *rank_name(const struct hist *h)
{
	return h->nentries && h->entries[0].nvals ? h->entries[0].vals[0].name :
	       "hitcount";
}

static uint64_t rank_value(const struct hist_entry *e)
{
	return e->nvals ? e->vals[0].num : e->hitcount;
}

static const struct hist_entry *rank_base;

static int cmp_rank(const void *x, const void *y)
{
	const struct hist_entry *a = &rank_base[*(const size_t *)x];
	const struct hist_entry *b = &rank_base[*(const size_t *)y];
	uint64_t va = rank_value(a), vb = rank_value(b);

	if (va != vb)
		return va < vb ? 1 : -1;
	return a->line < b->line ? -1 : a->line > b->line;
}

size_t *hist_by_value(const struct hist *h)
{
	size_t *idx = xcalloc(h->nentries ? h->nentries : 1, sizeof(*idx)), i;

	for (i = 0; i < h->nentries; i++)
		idx[i] = i;
	rank_base = h->entries;
	qsort(idx, h->nentries, sizeof(*idx), cmp_rank);
	return idx;
}

static void text_hist(const struct instance *in, const struct ev_state *ev,
		      size_t top, FILE *f)
{
	size_t k, i;

	if (ev->hist_error) {
		fprintf(f, "  %s %s:%s: unreadable hist: %s\n", inst_label(in),
			ev->system, ev->name, ev->hist_error);
		return;
	}
	for (k = 0; k < ev->hist.n; k++) {
		const struct hist *h = &ev->hist.hists[k];
		size_t *idx = hist_by_value(h);

		fprintf(f, "  %s %s:%s  %s%s\n", inst_label(in), ev->system,
			ev->name, h->trigger ? h->trigger : "",
			h->paused ? " [paused]" : "");
		fprintf(f, "    hits %" PRIu64 ", entries %" PRIu64 ", dropped %"
			PRIu64 "%s%s\n", h->hits, h->total_entries, h->dropped,
			h->nentries ? "; by " : "",
			h->nentries ? rank_name(h) : "");
		if (h->nentries > 1 && !h->entries[0].nvals &&
		    rank_value(&h->entries[idx[0]]) ==
		    rank_value(&h->entries[idx[h->nentries - 1]])) {
			/* nothing to rank: the keys of a start/end pairing */
			fprintf(f, "    every key hitcount %" PRIu64 "\n",
				h->entries[0].hitcount);
			free(idx);
			continue;
		}
		for (i = 0; i < h->nentries && i < top; i++) {
			const struct hist_entry *e = &h->entries[idx[i]];
			char *key = hist_entry_key_text(e);
			size_t v;

			fprintf(f, "    %-48s hitcount %-6" PRIu64, key,
				e->hitcount);
			for (v = 0; v < e->nvals; v++)
				fprintf(f, " %s %" PRIu64, e->vals[v].name,
					e->vals[v].num);
			fputc('\n', f);
			free(key);
		}
		if (h->nentries > top)
			fprintf(f, "    ... %zu more entries (--top N)\n",
				h->nentries - top);
		free(idx);
	}
}

static void text_hists(const struct analysis *a, size_t top, FILE *f)
{
	size_t i, j;
	bool any = false;

	for (i = 0; i < a->ninst; i++)
		for (j = 0; j < a->inst[i].nevents; j++)
			if (a->inst[i].events[j].has_hist) {
				if (!any)
					fprintf(f, "\nHistograms\n");
				any = true;
				text_hist(&a->inst[i], &a->inst[i].events[j],
					  top, f);
			}
}

static void text_instances(const struct analysis *a, FILE *f)
{
	size_t i;

	fprintf(f, "\nBuffers\n");
	fprintf(f, "  %-10s %-14s %-7s %-8s %12s %10s %8s\n", "buffer",
		"tracer", "tracing", "clock", "KiB/cpu", "records", "lost");
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];
		uint64_t lost = analysis_lost(a, inst_label(in));

		fprintf(f, "  %-10s %-14s %-7s %-8s %12s %10" PRIu64 " %8"
			PRIu64 "%s\n", inst_label(in),
			in->tracer ? in->tracer : "?", in->tracing_on < 0 ? "?" :
			in->tracing_on ? "on" : "off",
			in->clock_name ? in->clock_name : "?",
			in->buffer_size_kb ? in->buffer_size_kb : "?",
			in->nrecords, lost, in->in_trace ? "" :
			"  (not in trace.dat)");
	}
}

static bool same_run(const struct loss *x, const struct loss *y)
{
	return x->kind == y->kind && !strcmp(x->instance, y->instance);
}

/*
 * One row a finding; of a run of never_fired findings in one buffer (a
 * whole group or every event enabled), the first @top and a count.
 */
static void text_losses(const struct analysis *a, size_t top, FILE *f)
{
	size_t i, run = 0;

	fprintf(f, "\nData loss\n");
	if (!analysis_losses_known(a))
		fprintf(f, "  unknown: %s%s\n", a->trace_error,
			a->nlosses ? "; the losses below are a floor" : "");
	else if (!a->nlosses)
		fprintf(f, "  none: no overrun, no dropped or missed events, "
			"every configured event fired\n");
	for (i = 0; i < a->nlosses; i++) {
		const struct loss *l = &a->losses[i];

		run = i && same_run(l, &a->losses[i - 1]) ? run + 1 : 1;
		if (l->kind == LOSS_NEVER_FIRED && run > top) {
			if (i + 1 < a->nlosses && same_run(l, &a->losses[i + 1]))
				continue;
			fprintf(f, "  %-14s %-8s ... %zu more (--top N)\n",
				loss_kind_name(l->kind), *l->instance ?
				l->instance : "-", run - top);
			continue;
		}
		fprintf(f, "  %-14s %-8s %-32s %8" PRIu64 "  %s\n",
			loss_kind_name(l->kind), *l->instance ? l->instance :
			"-", l->what, l->count, l->detail);
	}
}

static const char *status_word(enum set_status s)
{
	static const char *const words[SET_NSTATUS] = {
		[SET_APPLIED] = "applied",
		[SET_FAILED] = "FAILED",
		[SET_UNCHECKED] = "unchecked",
		[SET_PENDING] = "pending",
		[SET_NOT_REPORTED] = "UNREPORTED",
	};

	return s < SET_NSTATUS ? words[s] : "?";
}

static void text_settings(const struct analysis *a, FILE *f)
{
	size_t i, ok = 0, bad = 0, unk = 0, pend, unrep;

	if (a->have_boot_status)
		fprintf(f, "\nWas it applied (proc/bootconfig vs the kernel's "
			"boot_status, checked in tracefs; dmesg, error_log)\n");
	else
		fprintf(f, "\nWas it applied (proc/bootconfig vs tracefs, dmesg, "
			"error_log)\n");
	for (i = 0; i < a->nsettings; i++) {
		const struct setting *s = &a->settings[i];

		int vlen = (int)strlen(s->value);

		fprintf(f, "  %-9s %s = \"%.*s%s\"\n            %.*s%s\n",
			status_word(s->status), s->key, vlen > 90 ? 80 : vlen,
			s->value, vlen > 90 ? "..." : "",
			s->detail && strlen(s->detail) > 200 ? 190 : 200,
			s->detail ? s->detail : "",
			s->detail && strlen(s->detail) > 200 ? "..." : "");
		ok += s->status == SET_APPLIED;
		bad += s->status == SET_FAILED;
		unk += s->status == SET_UNCHECKED;
	}
	for (i = 0; i < a->nunattributed; i++)
		fprintf(f, "  %-9s %s\n", "ERROR", a->unattributed[i]);
	pend = analysis_count_settings(a, SET_PENDING);
	unrep = analysis_count_settings(a, SET_NOT_REPORTED);
	if (a->bconf_error)
		fprintf(f, "  unknown: %s\n", a->bconf_error);
	else if (!a->nsettings && !a->bconf_loaded)
		fprintf(f, "  no bootconfig was applied (proc/bootconfig "
			"missing)\n");
	else if (!bad && !a->nunattributed && !pend && !unrep)
		fprintf(f, "  all settings applied (%zu applied, %zu not "
			"checkable)\n", ok, unk);
	else if (!pend && !unrep)
		fprintf(f, "  %zu of %zu settings FAILED, %zu other errors\n",
			bad, a->nsettings, a->nunattributed);
	else
		fprintf(f, "  %zu of %zu settings FAILED, %zu pending (for a "
			"module not loaded yet), %zu not reported by the "
			"kernel, %zu other errors\n", bad, a->nsettings, pend,
			unrep, a->nunattributed);
}

void report_text(const struct analysis *a, const struct report_opts *o,
		 FILE *f)
{
	size_t i;

	text_header(a, f);
	text_initcalls(a, o->top, f);
	text_hist_initcalls(a, o->top, f);
	text_events(a, f);
	text_functions(a, o->top, f);
	text_kprobes(a, f);
	text_hists(a, o->top, f);
	text_instances(a, f);
	text_losses(a, o->top, f);
	text_settings(a, f);
	if (a->nproblems) {
		fprintf(f, "\nProblems reading the bundle\n");
		for (i = 0; i < a->nproblems; i++)
			fprintf(f, "  %s\n", a->problems[i]);
	}
}

static void report_usage(FILE *f)
{
	fputs("usage: trace-analysis report BUNDLE [--json] [--top N] "
	      "[--svg FILE] [--perfetto FILE]\n"
	      "\n"
	      "What the boot did: initcall latency (trace.dat and latency "
	      "histograms),\n"
	      "event, function and kprobe counts, histograms ranked by value, "
	      "buffers,\n"
	      "data loss, and whether every ftrace.* setting of the bootconfig "
	      "was\n"
	      "applied (from the kernel's tracefs/boot_status when the bundle "
	      "has it).\n"
	      "\n"
	      "  --json            the report as JSON on stdout "
	      "(schema: report.schema.json)\n"
	      "  --top N           rows of each table (default 20)\n"
	      "  --svg FILE        initcall timeline as SVG\n"
	      "  --perfetto FILE   Chrome trace JSON for ui.perfetto.dev\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "Exit status: 0 fine; 1 a setting failed or the kernel did not "
	      "report it;\n"
	      "2 an error (not a bundle, unreadable parts, unwritable FILE).\n",
	      f);
}

/* Write one export; 0 or 2 with the reason on stderr. */
static int export(const struct analysis *a, const char *path,
		  int (*write)(const struct analysis *, const char *))
{
	int r;

	if (!path)
		return 0;
	r = write(a, path);
	if (!r)
		return 0;
	fprintf(stderr, "trace-analysis: %s: %s\n", path, r == -ENODATA ?
		"no initcalls in the bundle to draw (enable "
		"initcall:initcall_start/finish or record a latency "
		"histogram)" : strerror(-r));
	return EXIT_ERROR;
}

int report_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 's' },
		{ "perfetto", required_argument, NULL, 'p' },
		{ "top", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct report_opts o = { 20 };
	const char *svg = NULL, *perfetto = NULL;
	struct analysis a;
	bool json = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': json = true; break;
		case 's': svg = optarg; break;
		case 'p': perfetto = optarg; break;
		case 't':
			if (!cli_top(optarg, &o.top))
				return EXIT_ERROR;
			break;
		case 'h': report_usage(stdout); return 0;
		default: return cli_usage_error("report", "bad option");
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("report", "needs one BUNDLE");
	if (cli_load(argv[optind], &a))
		return EXIT_ERROR;
	if (json)
		report_json(&a, stdout);
	else
		report_text(&a, &o, stdout);
	rc = export(&a, svg, write_svg);
	rc |= export(&a, perfetto, write_perfetto);
	if (!rc && cli_bundle_errors(&a))
		rc = EXIT_ERROR;
	/* a setting the kernel's boot_status does not know is a finding */
	if (!rc && (analysis_failed_settings(&a) || a.nunattributed ||
		    analysis_count_settings(&a, SET_NOT_REPORTED)))
		rc = EXIT_FINDING;
	analysis_free(&a);
	return rc;
}
