// SPDX-License-Identifier: GPL-2.0
/* json.c - the JSON report, schema "boottrace-report-1" (README.md). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

static void key(FILE *f, bool *first, const char *k)
{
	if (!*first)
		fputc(',', f);
	*first = false;
	json_str(f, k);
	fputc(':', f);
}

static void kstr(FILE *f, bool *first, const char *k, const char *v)
{
	key(f, first, k);
	if (v)
		json_str(f, v);
	else
		fputs("null", f);
}

static void knum(FILE *f, bool *first, const char *k, uint64_t v)
{
	key(f, first, k);
	fprintf(f, "%" PRIu64, v);
}

static void kbool(FILE *f, bool *first, const char *k, bool v)
{
	key(f, first, k);
	fputs(v ? "true" : "false", f);
}

static void j_metadata(const struct analysis *a, FILE *f)
{
	bool first = true;
	size_t i;

	fputc('{', f);
	for (i = 0; i < a->nmeta; i++)
		kstr(f, &first, a->meta[i].key, a->meta[i].val);
	fputc('}', f);
}

static void j_initcall(const struct initcall *ic, bool hist, FILE *f)
{
	bool first = true;

	fputc('{', f);
	kstr(f, &first, "func", ic->func);
	key(f, &first, "addr");
	fprintf(f, "\"0x%" PRIx64 "\"", ic->addr);
	if (hist) {
		knum(f, &first, "calls", ic->count);
		knum(f, &first, "latency_us", ic->dur_ns / 1000);
	} else {
		kstr(f, &first, "level", ic->level);
		knum(f, &first, "start_ns", ic->start_ns);
		knum(f, &first, "duration_ns", ic->dur_ns);
		key(f, &first, "ret");
		fprintf(f, "%d", ic->ret);
		kbool(f, &first, "finished", ic->finished);
		knum(f, &first, "cpu", (uint64_t)ic->cpu);
	}
	fputc('}', f);
}

static void j_initcalls(const struct analysis *a, FILE *f)
{
	size_t i;
	bool first = true;

	fputc('[', f);
	for (i = 0; i < a->ninitcalls; i++) {
		if (i)
			fputc(',', f);
		j_initcall(&a->initcalls[i], false, f);
	}
	fputs("],\"initcalls_hist\":", f);
	if (!a->hist_initcalls_src) {
		fputs("null", f);
		return;
	}
	fputc('{', f);
	kstr(f, &first, "source", a->hist_initcalls_src);
	key(f, &first, "entries");
	fputc('[', f);
	for (i = 0; i < a->nhist_initcalls; i++) {
		if (i)
			fputc(',', f);
		j_initcall(&a->hist_initcalls[i], true, f);
	}
	fputs("]}", f);
}

static void j_instance(const struct instance *in, FILE *f)
{
	bool first = true, f2;
	size_t i;

	fputc('{', f);
	kstr(f, &first, "name", inst_label(in));
	kstr(f, &first, "tracer", in->tracer);
	kstr(f, &first, "trace_clock", in->clock);
	kstr(f, &first, "buffer_size_kb", in->buffer_size_kb);
	kbool(f, &first, "in_trace", in->in_trace);
	knum(f, &first, "records", in->nrecords);
	knum(f, &first, "first_ts_ns", in->first_ts);
	knum(f, &first, "last_ts_ns", in->last_ts);
	knum(f, &first, "missed_records", in->missed_records);
	knum(f, &first, "missed_events", in->missed_events);
	kbool(f, &first, "missed_unknown", in->missed_unknown);
	key(f, &first, "cpus");
	fputc('[', f);
	for (i = 0; i < in->ncpus; i++) {
		const struct cpu_stat *c = &in->cpus[i];

		f2 = true;
		fputs(i ? ",{" : "{", f);
		knum(f, &f2, "cpu", (uint64_t)c->cpu);
		knum(f, &f2, "entries", c->entries);
		knum(f, &f2, "overrun", c->overrun);
		knum(f, &f2, "commit_overrun", c->commit_overrun);
		knum(f, &f2, "bytes", c->bytes);
		knum(f, &f2, "dropped", c->dropped);
		knum(f, &f2, "read", c->read);
		fputc('}', f);
	}
	fputs("],\"events\":[", f);
	f2 = true;
	for (i = 0; i < in->ncounts; i++) {
		const struct ev_count *ec = &in->counts[i];
		bool f3 = true;

		if (!ec->name)
			continue;
		fputs(f2 ? "{" : ",{", f);
		f2 = false;
		kstr(f, &f3, "system", ec->system);
		kstr(f, &f3, "event", ec->name);
		knum(f, &f3, "count", ec->count);
		knum(f, &f3, "first_ts_ns", ec->first_ts);
		knum(f, &f3, "last_ts_ns", ec->last_ts);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void j_entry(const struct hist_entry *e, FILE *f)
{
	bool first = true, f2 = true;
	size_t i;

	fputc('{', f);
	key(f, &first, "keys");
	fputc('{', f);
	for (i = 0; i < e->nkeys; i++) {
		const struct hist_key *k = &e->keys[i];

		key(f, &f2, k->name);
		if (k->kind == HK_NUMBER || k->kind == HK_HEX) {
			fprintf(f, "%" PRIu64, k->num);
		} else {
			bool f3 = true;

			fputc('{', f);
			kstr(f, &f3, "kind", hist_key_kind_name(k->kind));
			kstr(f, &f3, "text", k->text);
			knum(f, &f3, "num", k->num);
			if (k->kind == HK_BUCKET)
				knum(f, &f3, "num2", k->num2);
			fputc('}', f);
		}
	}
	fputc('}', f);
	knum(f, &first, "hitcount", e->hitcount);
	key(f, &first, "values");
	fputc('{', f);
	f2 = true;
	for (i = 0; i < e->nvals; i++)
		knum(f, &f2, e->vals[i].name, e->vals[i].num);
	fputc('}', f);
	if (e->extra)
		kstr(f, &first, "handler", e->extra);
	fputc('}', f);
}

static void j_hists(const struct analysis *a, FILE *f)
{
	size_t i, j, k, r;
	bool any = false;

	fputc('[', f);
	for (i = 0; i < a->ninst; i++) {
		const struct instance *in = &a->inst[i];

		for (j = 0; j < in->nevents; j++) {
			const struct ev_state *ev = &in->events[j];
			char *name = xasprintf("%s:%s", ev->system, ev->name);

			if (ev->hist_error) {
				bool first = true;

				fputs(any ? ",{" : "{", f);
				any = true;
				kstr(f, &first, "instance", inst_label(in));
				kstr(f, &first, "event", name);
				kstr(f, &first, "error", ev->hist_error);
				fputc('}', f);
			}
			for (k = 0; k < ev->hist.n; k++) {
				const struct hist *h = &ev->hist.hists[k];
				bool first = true;

				fputs(any ? ",{" : "{", f);
				any = true;
				kstr(f, &first, "instance", inst_label(in));
				kstr(f, &first, "event", name);
				kstr(f, &first, "trigger", h->trigger);
				kstr(f, &first, "name", h->name);
				kbool(f, &first, "paused", h->paused);
				knum(f, &first, "hits", h->hits);
				knum(f, &first, "entries", h->total_entries);
				knum(f, &first, "dropped", h->dropped);
				key(f, &first, "rows");
				fputc('[', f);
				for (r = 0; r < h->nentries; r++) {
					if (r)
						fputc(',', f);
					j_entry(&h->entries[r], f);
				}
				fputs("]}", f);
			}
			free(name);
		}
	}
	fputc(']', f);
}

static void j_settings(const struct analysis *a, FILE *f)
{
	size_t i, n[3] = { 0 };
	static const char *const st[] = { "applied", "failed", "unchecked" };

	fputc('[', f);
	for (i = 0; i < a->nsettings; i++) {
		const struct setting *s = &a->settings[i];
		bool first = true;

		fputs(i ? ",{" : "{", f);
		kstr(f, &first, "key", s->key);
		kstr(f, &first, "value", s->value);
		kstr(f, &first, "instance", *s->instance ? s->instance : "top");
		kstr(f, &first, "status", st[s->status]);
		kstr(f, &first, "detail", s->detail);
		fputc('}', f);
		n[s->status]++;
	}
	fprintf(f, "],\"settings_summary\":{\"applied\":%zu,\"failed\":%zu,"
		"\"unchecked\":%zu,\"other_errors\":%zu,\"all_applied\":%s}",
		n[0], n[1], n[2], a->nunattributed,
		!n[1] && !a->nunattributed && a->bconf_loaded ?
		"true" : "false");
}

static void j_strings(char **v, size_t n, FILE *f)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		json_str(f, v[i]);
	}
	fputc(']', f);
}

static void j_losses(const struct analysis *a, FILE *f)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < a->nlosses; i++) {
		const struct loss *l = &a->losses[i];
		bool first = true;

		fputs(i ? ",{" : "{", f);
		kstr(f, &first, "kind", loss_kind_name(l->kind));
		kstr(f, &first, "instance", l->instance);
		kstr(f, &first, "what", l->what);
		knum(f, &first, "count", l->count);
		kstr(f, &first, "detail", l->detail);
		fputc('}', f);
	}
	fputc(']', f);
}

void report_json(const struct analysis *a, FILE *f)
{
	bool first = true;
	size_t i;

	fputc('{', f);
	kstr(f, &first, "schema", "boottrace-report-1");
	kstr(f, &first, "bundle", a->path);
	key(f, &first, "metadata");
	j_metadata(a, f);
	key(f, &first, "trace");
	{
		bool f2 = true;

		fputc('{', f);
		kbool(f, &f2, "ok", a->trace_ok);
		kstr(f, &f2, "error", a->trace_error);
		knum(f, &f2, "records", a->total_records);
		knum(f, &f2, "first_ts_ns", a->first_ts);
		knum(f, &f2, "last_ts_ns", a->last_ts);
		fputc('}', f);
	}
	key(f, &first, "instances");
	fputc('[', f);
	for (i = 0; i < a->ninst; i++) {
		if (i)
			fputc(',', f);
		j_instance(&a->inst[i], f);
	}
	fputc(']', f);
	key(f, &first, "initcalls");
	j_initcalls(a, f);
	key(f, &first, "kprobes");
	fputc('[', f);
	for (i = 0; i < a->nkprobes; i++) {
		const struct kprobe *k = &a->kprobes[i];
		bool f2 = true;

		fputs(i ? ",{" : "{", f);
		kstr(f, &f2, "name", k->name);
		kstr(f, &f2, "definition", k->def);
		knum(f, &f2, "hits", k->hits);
		knum(f, &f2, "misses", k->misses);
		kbool(f, &f2, "have_profile", k->have_profile);
		knum(f, &f2, "traced", k->traced);
		fputc('}', f);
	}
	fputc(']', f);
	key(f, &first, "histograms");
	j_hists(a, f);
	key(f, &first, "settings");
	j_settings(a, f);
	key(f, &first, "boot_errors");
	j_strings(a->boot_errors, a->nboot_errors, f);
	key(f, &first, "unattributed_errors");
	j_strings(a->unattributed, a->nunattributed, f);
	key(f, &first, "data_loss");
	j_losses(a, f);
	key(f, &first, "problems");
	j_strings(a->problems, a->nproblems, f);
	fputs("}\n", f);
}
