// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - the JSON report, schema "boottrace-report-2": described by
 * report.schema.json (JSON Schema), which the tests validate against.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

/*
 * A compact JSON writer: it tracks, per open object or array, whether a
 * comma is due, so the renderers below only say what they write.
 */
#define JW_DEPTH 16

struct jw {
	FILE *f;
	int depth;		/* open containers */
	bool first[JW_DEPTH];	/* nothing written in it yet */
	bool after_key;		/* the next value follows "key": */
};

/* The comma before a value or key, unless it is the first or a key's. */
static void jw_sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth && !w->first[w->depth - 1])
		fputc(',', w->f);
	if (w->depth)
		w->first[w->depth - 1] = false;
}

static void jw_open(struct jw *w, char c)
{
	jw_sep(w);
	fputc(c, w->f);
	if (w->depth == JW_DEPTH)
		abort();	/* deeper than any renderer below nests */
	w->first[w->depth++] = true;
}

static void jw_close(struct jw *w, char c)
{
	w->depth--;
	fputc(c, w->f);
}

static void jw_key(struct jw *w, const char *k)
{
	jw_sep(w);
	bconf_json_string(w->f, k);
	fputc(':', w->f);
	w->after_key = true;
}

static void jw_str(struct jw *w, const char *v)
{
	jw_sep(w);
	if (v)
		bconf_json_string(w->f, v);
	else
		fputs("null", w->f);
}

static void jw_num(struct jw *w, uint64_t v)
{
	jw_sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

static void jw_kstr(struct jw *w, const char *k, const char *v)
{
	jw_key(w, k);
	jw_str(w, v);
}

static void jw_knum(struct jw *w, const char *k, uint64_t v)
{
	jw_key(w, k);
	jw_num(w, v);
}

static void jw_kint(struct jw *w, const char *k, int v)
{
	jw_key(w, k);
	jw_sep(w);
	fprintf(w->f, "%d", v);
}

static void jw_kbool(struct jw *w, const char *k, bool v)
{
	jw_key(w, k);
	jw_sep(w);
	fputs(v ? "true" : "false", w->f);
}

/* a boolean that may be unknown (< 0): null */
static void jw_kbool3(struct jw *w, const char *k, int v)
{
	if (v >= 0) {
		jw_kbool(w, k, v);
		return;
	}
	jw_key(w, k);
	jw_sep(w);
	fputs("null", w->f);
}

/* "key":[ ... ] of strings */
static void jw_kstrings(struct jw *w, const char *k, char **v, size_t n)
{
	size_t i;

	jw_key(w, k);
	jw_open(w, '[');
	for (i = 0; i < n; i++)
		jw_str(w, v[i]);
	jw_close(w, ']');
}

/* "key":[...] of @n elements of @size bytes, each written by @item */
static void jw_karray(struct jw *w, const char *k, const void *items,
		      size_t n, size_t size,
		      void (*item)(const void *elem, struct jw *w))
{
	size_t i;

	jw_key(w, k);
	jw_open(w, '[');
	for (i = 0; i < n; i++)
		item((const char *)items + i * size, w);
	jw_close(w, ']');
}

#define JW_KARRAY(w, k, arr, n, item) \
	jw_karray((w), (k), (arr), (n), sizeof(*(arr)), (item))

static void j_metadata(const struct analysis *a, struct jw *w)
{
	size_t i;

	jw_key(w, "metadata");
	jw_open(w, '{');
	for (i = 0; i < a->nmeta; i++)
		jw_kstr(w, a->meta[i].key, a->meta[i].val);
	jw_close(w, '}');
}

static void j_trace(const struct analysis *a, struct jw *w)
{
	jw_key(w, "trace");
	jw_open(w, '{');
	jw_kbool(w, "ok", a->trace_ok);
	jw_kstr(w, "error", a->trace_error);
	jw_knum(w, "records", a->total_records);
	jw_knum(w, "first_ts_ns", a->first_ts);
	jw_knum(w, "last_ts_ns", a->last_ts);
	jw_kstr(w, "initcalls_untimed", a->initcalls_untimed);
	jw_close(w, '}');
}

/* A u64 that may be an address: JSON numbers are exact to 2^53 only. */
static void jw_khex(struct jw *w, const char *k, uint64_t v)
{
	char hex[24];

	snprintf(hex, sizeof(hex), "0x%" PRIx64, v);
	jw_kstr(w, k, hex);
}

static void j_initcall_common(const struct initcall *ic, struct jw *w)
{
	jw_open(w, '{');
	jw_kstr(w, "func", ic->func);
	jw_khex(w, "addr", ic->addr);
}

static void j_initcall(const void *elem, struct jw *w)
{
	const struct initcall *ic = elem;

	j_initcall_common(ic, w);
	jw_kstr(w, "level", ic->level);
	jw_knum(w, "start_ns", ic->start_ns);
	jw_knum(w, "duration_ns", ic->dur_ns);
	jw_kint(w, "ret", ic->ret);
	jw_kbool(w, "finished", ic->finished);
	jw_knum(w, "cpu", (uint64_t)ic->cpu);
	jw_kint(w, "pid", ic->pid);
	jw_close(w, '}');
}

static void j_hist_initcall(const void *elem, struct jw *w)
{
	const struct initcall *ic = elem;

	j_initcall_common(ic, w);
	jw_knum(w, "calls", ic->count);
	jw_knum(w, "latency_us", ic->dur_ns / 1000);
	jw_kstr(w, "level", ic->level);
	if (ic->start_ns)
		jw_knum(w, "start_ns", ic->start_ns);
	jw_close(w, '}');
}

static void j_initcalls(const struct analysis *a, struct jw *w)
{
	JW_KARRAY(w, "initcalls", a->initcalls, a->ninitcalls, j_initcall);
	jw_key(w, "initcalls_hist");
	if (!a->hist_initcalls_src) {
		jw_str(w, NULL);
		return;
	}
	jw_open(w, '{');
	jw_kstr(w, "source", a->hist_initcalls_src);
	JW_KARRAY(w, "entries", a->hist_initcalls, a->nhist_initcalls,
		  j_hist_initcall);
	jw_close(w, '}');
}

static void j_cpu(const void *elem, struct jw *w)
{
	const struct cpu_stat *c = elem;

	jw_open(w, '{');
	jw_knum(w, "cpu", (uint64_t)c->cpu);
	jw_knum(w, "entries", c->entries);
	jw_knum(w, "overrun", c->overrun);
	jw_knum(w, "commit_overrun", c->commit_overrun);
	jw_knum(w, "bytes", c->bytes);
	jw_knum(w, "dropped", c->dropped);
	jw_knum(w, "read", c->read);
	jw_close(w, '}');
}

/* Event types seen in trace.dat; the table is sparse (by event id). */
static void j_ev_count(const void *elem, struct jw *w)
{
	const struct ev_count *ec = elem;

	if (!ec->name)
		return;
	jw_open(w, '{');
	jw_kstr(w, "system", ec->system);
	jw_kstr(w, "event", ec->name);
	jw_knum(w, "count", ec->count);
	jw_knum(w, "first_ts_ns", ec->first_ts);
	jw_knum(w, "last_ts_ns", ec->last_ts);
	jw_close(w, '}');
}

static void j_instance(const void *elem, struct jw *w)
{
	const struct instance *in = elem;

	jw_open(w, '{');
	jw_kstr(w, "name", inst_label(in));
	jw_kstr(w, "tracer", in->tracer);
	jw_kbool3(w, "tracing_on", in->tracing_on);
	jw_kstr(w, "trace_clock", in->clock);
	jw_kstr(w, "clock", in->clock_name);
	jw_kbool(w, "clock_in_ns", in->clock_ns);
	jw_kstr(w, "buffer_size_kb", in->buffer_size_kb);
	jw_kbool(w, "in_trace", in->in_trace);
	jw_knum(w, "records", in->nrecords);
	jw_knum(w, "first_ts_ns", in->first_ts);
	jw_knum(w, "last_ts_ns", in->last_ts);
	jw_knum(w, "missed_records", in->missed_records);
	jw_knum(w, "missed_events", in->missed_events);
	jw_kbool(w, "missed_unknown", in->missed_unknown);
	JW_KARRAY(w, "cpus", in->cpus, in->ncpus, j_cpu);
	JW_KARRAY(w, "events", in->counts, in->ncounts, j_ev_count);
	jw_close(w, '}');
}

/*
 * A plain number key is a number, a hex key or a kernel address a "0x"
 * string; a symbol is {kind, text, addr}; others {kind, text, num}.
 */
static void j_hist_key(const struct hist_key *k, struct jw *w)
{
	if (k->kind == HK_HEX ||
	    (k->kind == HK_NUMBER && k->num >= KERNEL_TEXT_START)) {
		jw_khex(w, k->name, k->num);
		return;
	}
	if (k->kind == HK_NUMBER) {
		jw_knum(w, k->name, k->num);
		return;
	}
	jw_key(w, k->name);
	jw_open(w, '{');
	jw_kstr(w, "kind", hist_key_kind_name(k->kind));
	jw_kstr(w, "text", k->text);
	if (k->kind == HK_SYM || k->kind == HK_SYM_OFFSET) {
		jw_khex(w, "addr", k->num);
	} else {
		jw_knum(w, "num", k->num);
		if (k->kind == HK_BUCKET)
			jw_knum(w, "num2", k->num2);
	}
	jw_close(w, '}');
}

static void j_entry(const void *elem, struct jw *w)
{
	const struct hist_entry *e = elem;
	size_t i;

	jw_open(w, '{');
	jw_key(w, "keys");
	jw_open(w, '{');
	for (i = 0; i < e->nkeys; i++)
		j_hist_key(&e->keys[i], w);
	jw_close(w, '}');
	jw_knum(w, "hitcount", e->hitcount);
	jw_key(w, "values");
	jw_open(w, '{');
	for (i = 0; i < e->nvals; i++)
		jw_knum(w, e->vals[i].name, e->vals[i].num);
	jw_close(w, '}');
	if (e->extra)
		jw_kstr(w, "handler", e->extra);
	jw_close(w, '}');
}

static void j_hist(const struct instance *in, const char *name,
		   const struct hist *h, struct jw *w)
{
	jw_open(w, '{');
	jw_kstr(w, "instance", inst_label(in));
	jw_kstr(w, "event", name);
	jw_kstr(w, "trigger", h->trigger);
	jw_kstr(w, "name", h->name);
	jw_kbool(w, "paused", h->paused);
	jw_knum(w, "hits", h->hits);
	jw_knum(w, "entries", h->total_entries);
	jw_knum(w, "dropped", h->dropped);
	JW_KARRAY(w, "rows", h->entries, h->nentries, j_entry);
	jw_close(w, '}');
}

static void j_hists(const struct analysis *a, struct jw *w)
{
	size_t i, j, k;

	jw_key(w, "histograms");
	jw_open(w, '[');
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; j < in->nevents; j++) {
			const struct ev_state *ev = &in->events[j];
			char *name = xasprintf("%s:%s", ev->system, ev->name);

			if (ev->hist_error) {
				jw_open(w, '{');
				jw_kstr(w, "instance", inst_label(in));
				jw_kstr(w, "event", name);
				jw_kstr(w, "error", ev->hist_error);
				jw_close(w, '}');
			}
			for (k = 0; k < ev->hist.n; k++)
				j_hist(in, name, &ev->hist.hists[k], w);
			free(name);
		}
	}
	jw_close(w, ']');
}

static void j_kprobe(const void *elem, struct jw *w)
{
	const struct kprobe *k = elem;

	jw_open(w, '{');
	jw_kstr(w, "name", k->name);
	jw_kstr(w, "definition", k->def);
	jw_knum(w, "hits", k->hits);
	jw_knum(w, "misses", k->misses);
	jw_kbool(w, "have_profile", k->have_profile);
	jw_knum(w, "traced", k->traced);
	jw_close(w, '}');
}

static void j_setting(const void *elem, struct jw *w)
{
	const struct setting *s = elem;

	jw_open(w, '{');
	jw_kstr(w, "key", s->key);
	jw_kstr(w, "value", s->value);
	jw_kstr(w, "instance", *s->instance ? s->instance : "top");
	jw_kstr(w, "status", set_status_name(s->status));
	jw_kstr(w, "detail", s->detail);
	jw_kstr(w, "boot_status", s->boot_status);
	jw_close(w, '}');
}

static void j_settings(const struct analysis *a, struct jw *w)
{
	size_t i, n[SET_NSTATUS] = { 0 };

	for (i = 0; i < a->nsettings; i++)
		n[a->settings[i].status]++;
	JW_KARRAY(w, "settings", a->settings, a->nsettings, j_setting);
	jw_key(w, "settings_summary");
	jw_open(w, '{');
	jw_knum(w, "applied", n[SET_APPLIED]);
	jw_knum(w, "failed", n[SET_FAILED]);
	jw_knum(w, "unchecked", n[SET_UNCHECKED]);
	jw_knum(w, "other_errors", a->nunattributed);
	jw_kbool(w, "all_applied", !n[SET_FAILED] && !n[SET_PENDING] &&
		 !n[SET_NOT_REPORTED] && !a->nunattributed && a->bconf_loaded);
	jw_knum(w, "pending", n[SET_PENDING]);
	jw_knum(w, "not_reported", n[SET_NOT_REPORTED]);
	jw_kstr(w, "source", a->have_boot_status ? "boot_status" : "tracefs");
	jw_close(w, '}');
}

static void j_loss(const void *elem, struct jw *w)
{
	const struct loss *l = elem;

	jw_open(w, '{');
	jw_kstr(w, "kind", loss_kind_name(l->kind));
	jw_kstr(w, "instance", l->instance);
	jw_kstr(w, "what", l->what);
	jw_knum(w, "count", l->count);
	jw_kstr(w, "detail", l->detail);
	jw_close(w, '}');
}

void report_json(const struct analysis *a, FILE *f)
{
	struct jw w = { .f = f };

	jw_open(&w, '{');
	jw_kstr(&w, "schema", "boottrace-report-2");
	jw_kstr(&w, "bundle", a->path);
	j_metadata(a, &w);
	j_trace(a, &w);
	JW_KARRAY(&w, "instances", a->inst, a->ninst, j_instance);
	j_initcalls(a, &w);
	JW_KARRAY(&w, "kprobes", a->kprobes, a->nkprobes, j_kprobe);
	j_hists(a, &w);
	j_settings(a, &w);
	jw_kstrings(&w, "boot_errors", a->boot_errors, a->nboot_errors);
	jw_kstrings(&w, "unattributed_errors", a->unattributed,
		    a->nunattributed);
	JW_KARRAY(&w, "data_loss", a->losses, a->nlosses, j_loss);
	/* false: trace.dat was missing or unreadable, losses may be missing */
	jw_kbool(&w, "data_loss_known", analysis_losses_known(a));
	jw_kstrings(&w, "problems", a->problems, a->nproblems);
	jw_close(&w, '}');
	fputc('\n', f);
}
