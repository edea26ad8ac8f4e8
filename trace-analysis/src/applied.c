// SPDX-License-Identifier: GPL-2.0
/*
 * applied.c - "was it applied": every ftrace.* setting the kernel parsed
 * (proc/bootconfig, read with libbootconfig) against the dumped tracefs
 * state, the trace_boot: errors in dmesg and the tracefs error_log.
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include <bootconfig.h>

#include "analysis.h"
#include "boot_status.h"
#include "util.h"

struct req {
	struct setting *s;
	char *rest;		/* key after "ftrace.[instance.NAME.]" */
	char **vals;
	size_t nvals;
	bool state_failed;
};

struct actx {
	struct analysis *a;
	struct req *reqs;
	size_t n;
};

static void set_result(struct req *r, enum set_status st, char *detail)
{
	free(r->s->detail);
	r->s->status = st;
	r->s->detail = detail;
	r->state_failed = st == SET_FAILED;
}

/* The line of @text equal to @want (or matching the glob), or NULL. */
static bool has_line(const char *text, const char *want, bool glob)
{
	char *copy, *l, *save = NULL;
	bool found = false;

	if (!text)
		return false;
	copy = xstrdup(text);
	for (l = strtok_r(copy, "\n", &save); l && !found;
	     l = strtok_r(NULL, "\n", &save)) {
		char *t = trim(l), *sp = strpbrk(t, " \t");

		if (glob && sp)
			*sp = '\0';
		found = glob ? !fnmatch(want, t, 0) : !strcmp(t, want);
	}
	free(copy);
	return found;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; text && *text; text++)
		n += *text == '\n';
	return text ? n + 1 : 0;
}

static const struct ev_state *find_ev(const struct instance *in,
				      const char *sys, const char *name)
{
	size_t i;

	for (i = 0; in && i < in->nevents; i++)
		if (!strcmp(in->events[i].system, sys) &&
		    !strcmp(in->events[i].name, name))
			return &in->events[i];
	return NULL;
}

static void check_buffer_size(struct req *r, const struct instance *in)
{
	unsigned long long want, kb;
	char *end;

	if (!bconf_memparse(r->vals[0], &want, NULL)) {
		set_result(r, SET_FAILED, xasprintf("'%s' is not a size",
						    r->vals[0]));
		return;
	}
	kb = in->buffer_size_kb ? strtoull(in->buffer_size_kb, &end, 10) : 0;
	if (!in->buffer_size_kb || end == in->buffer_size_kb) {
		set_result(r, SET_UNCHECKED, xstrdup("buffer_size_kb not "
						     "dumped"));
		return;
	}
	if (want < 4096)
		set_result(r, SET_FAILED, xasprintf("below one page; the "
			   "buffer is %llu KiB per CPU",
			   (unsigned long long)kb));
	else if (kb * 1024 + 16384 < want || kb * 1024 > want + want / 50 + 16384)
		set_result(r, SET_FAILED, xasprintf("buffer is %llu KiB per "
			   "CPU, asked %llu KiB", (unsigned long long)kb,
			   (unsigned long long)(want >> 10)));
	else
		set_result(r, SET_APPLIED, xasprintf("%llu KiB per CPU",
			   (unsigned long long)kb));
}

static char *norm_mask(const char *s)
{
	struct sbuf b = { 0 };

	for (; *s; s++)
		if (*s != ',' && !isspace((unsigned char)*s) &&
		    !(*s == '0' && !b.len))
			sbuf_add(&b, s, 1);
	return b.len ? sbuf_steal(&b) : xstrdup("0");
}

static void check_cpumask(struct req *r, const struct instance *in)
{
	char *want = norm_mask(r->vals[0]), *have;

	if (!in->cpumask) {
		set_result(r, SET_UNCHECKED, xstrdup("tracing_cpumask not "
						     "dumped"));
		free(want);
		return;
	}
	have = norm_mask(in->cpumask);
	if (!strcasecmp(want, have))
		set_result(r, SET_APPLIED, xasprintf("mask %s", in->cpumask));
	else
		set_result(r, SET_FAILED, xasprintf("mask is %s",
						    in->cpumask));
	free(want);
	free(have);
}

/* Each value must hold; @what names the file for the message. */
static void check_each(struct req *r, const char *text, bool glob,
		       const char *what)
{
	size_t i;

	for (i = 0; i < r->nvals; i++) {
		if (!has_line(text, r->vals[i], glob)) {
			set_result(r, SET_FAILED, xasprintf("'%s' not in %s",
				   r->vals[i], what));
			return;
		}
	}
	set_result(r, SET_APPLIED, xasprintf("in %s", what));
}

static void check_events_list(struct req *r, const struct instance *in)
{
	size_t i;

	for (i = 0; i < r->nvals; i++) {
		char *pat = strchr(r->vals[i], ':') ? xstrdup(r->vals[i]) :
			    xasprintf("*:%s", r->vals[i]);

		if (!has_line(in->set_event, pat, true)) {
			set_result(r, SET_FAILED, xasprintf("'%s' not "
				   "enabled (set_event)", r->vals[i]));
			free(pat);
			return;
		}
		free(pat);
	}
	set_result(r, SET_APPLIED, xstrdup("enabled (set_event)"));
}

/* "hist:keys=a,b:vals=..." -> "a,b" (malloc'ed) or NULL. */
static char *hist_keys(const char *cmd)
{
	const char *k = strstr(cmd, "keys=");
	size_t n;

	if (!k)
		return NULL;
	k += 5;
	n = strcspn(k, ": ");
	return xstrndup(k, n);
}

/* The trigger command word: "hist", "traceon", "snapshot", ... */
static char *trigger_cmd(const char *s)
{
	return xstrndup(s, strcspn(s, ": \t"));
}

static bool trigger_matches(const char *line, const char *want)
{
	char *c1 = trigger_cmd(line), *c2 = trigger_cmd(want);
	bool ok = !strcmp(c1, c2);

	if (ok && !strcmp(c1, "hist")) {
		char *k1 = hist_keys(line), *k2 = hist_keys(want);

		ok = k1 && k2 && !strcmp(k1, k2);
		free(k1);
		free(k2);
	}
	free(c1);
	free(c2);
	return ok;
}

static bool has_trigger(const struct ev_state *ev, const char *want)
{
	char *copy, *l, *save = NULL;
	bool found = false;

	if (!ev || !ev->trigger)
		return false;
	copy = xstrdup(ev->trigger);
	for (l = strtok_r(copy, "\n", &save); l && !found;
	     l = strtok_r(NULL, "\n", &save))
		found = trigger_matches(l, want);
	free(copy);
	return found;
}

static void check_actions(struct req *r, const struct ev_state *ev,
			  const char *ge)
{
	size_t i;

	for (i = 0; i < r->nvals; i++) {
		if (!has_trigger(ev, r->vals[i])) {
			set_result(r, SET_FAILED, xasprintf("no such trigger "
				   "on %s", ge));
			return;
		}
	}
	set_result(r, SET_APPLIED, xasprintf("trigger on %s", ge));
}

static bool synth_defined(struct analysis *a, const char *name)
{
	char *t = bundle_text(a, "tracefs/synthetic_events", true);
	char *l, *save = NULL;
	bool found = false;

	for (l = t ? strtok_r(t, "\n", &save) : NULL; l && !found;
	     l = strtok_r(NULL, "\n", &save))
		found = !strncmp(l, name, strlen(name)) &&
			isspace((unsigned char)l[strlen(name)]);
	free(t);
	return found;
}

static const struct kprobe *find_kprobe(const struct analysis *a,
					const char *name)
{
	size_t i;

	for (i = 0; i < a->nkprobes; i++)
		if (!strcmp(a->kprobes[i].name, name))
			return &a->kprobes[i];
	return NULL;
}

/* event.GROUP.EVENT.{enable,filter,actions,probes,fields,hist} */
static void check_event_key(struct actx *c, struct req *r,
			    const struct instance *in, char **w,
			    enum bconf_tkey k)
{
	char *ge = xasprintf("%s:%s", w[1], w[2]);
	const struct ev_state *ev = find_ev(in, w[1], w[2]);

	if (k == BCONF_TK_EVENT_ENABLE) {
		if ((ev && ev->enable && ev->enable[0] == '1') ||
		    has_line(in->set_event, ge, false))
			set_result(r, SET_APPLIED, xasprintf("%s enabled", ge));
		else
			set_result(r, SET_FAILED, xasprintf("%s not enabled",
							    ge));
	} else if (k == BCONF_TK_EVENT_FILTER) {
		const char *pe = ev && ev->filter ?
				 strstr(ev->filter, "parse_error: ") : NULL;

		if (pe)
			set_result(r, SET_FAILED, xasprintf("%s: filter "
				   "rejected: %s", ge, pe + 13));
		else if (ev && ev->filter && !strcmp(ev->filter, r->vals[0]))
			set_result(r, SET_APPLIED, xasprintf("filter on %s", ge));
		else if (ev && ev->filter)
			set_result(r, SET_FAILED, xasprintf("%s has filter '%s'",
				   ge, ev->filter));
		else
			set_result(r, SET_FAILED, xasprintf("no filter on %s",
							    ge));
	} else if (k == BCONF_TK_EVENT_ACTIONS) {
		check_actions(r, ev, ge);
	} else if (k == BCONF_TK_KPROBE_PROBES) {
		const struct kprobe *kp = find_kprobe(c->a, w[2]);

		if (kp)
			set_result(r, SET_APPLIED, xasprintf("defined: %s",
							     kp->def));
		else
			set_result(r, SET_FAILED, xasprintf("no kprobe %s in "
				   "kprobe_events", w[2]));
	} else if (k == BCONF_TK_SYNTH_FIELDS) {
		if (synth_defined(c->a, w[2]))
			set_result(r, SET_APPLIED, xasprintf("synthetic event "
				   "%s defined", w[2]));
		else
			set_result(r, SET_FAILED, xasprintf("no synthetic "
				   "event %s", w[2]));
	} else if (k == BCONF_TK_HIST) {
		char *cmd = xasprintf("hist:keys=%s", r->vals[0]);

		if (has_trigger(ev, cmd))
			set_result(r, SET_APPLIED, xasprintf("hist trigger on "
				   "%s", ge));
		else
			set_result(r, SET_FAILED, xasprintf("no hist trigger "
				   "with keys=%s on %s", r->vals[0], ge));
		free(cmd);
	} else {
		set_result(r, SET_UNCHECKED, xstrdup("not checked"));
	}
	free(ge);
}

/*
 * tracing_on as the collector found it (bundle format 2): a traceon or
 * traceoff trigger may have turned it since, so only a match is a verdict.
 */
static void check_tracing_on(struct req *r, const struct instance *in)
{
	char *end;
	int on = strtoul(r->vals[0], &end, 10) != 0;	/* as kstrtoul() */

	if (end == r->vals[0] || *end)
		set_result(r, SET_UNCHECKED, xstrdup("not a number"));
	else if (in->tracing_on < 0)
		set_result(r, SET_UNCHECKED, xstrdup("tracing_on not in the "
			   "bundle (format 1: the collector stopped tracing "
			   "before the dump)"));
	else if (in->tracing_on == on)
		set_result(r, SET_APPLIED, xasprintf("tracing_on %d",
			   in->tracing_on));
	else
		set_result(r, SET_UNCHECKED, xasprintf("tracing_on is %d at "
			   "collection (a traceon/traceoff trigger may have "
			   "turned it)", in->tracing_on));
}

static void check_clock(struct req *r, const struct instance *in)
{
	if (in->clock_name && !strcmp(in->clock_name, r->vals[0]))
		set_result(r, SET_APPLIED, xasprintf("clock %s", r->vals[0]));
	else
		set_result(r, SET_FAILED, xasprintf("trace_clock is '%s'",
			   in->clock ? in->clock : "?"));
}

/* event.GROUP.enable */
static void check_group_enable(struct req *r, const struct instance *in,
			       const char *group)
{
	char *pat = xasprintf("%s:*", group);

	if (has_line(in->set_event, pat, true))
		set_result(r, SET_APPLIED, xasprintf("%s enabled", pat));
	else
		set_result(r, SET_FAILED, xasprintf("no %s event enabled",
						    group));
	free(pat);
}

static size_t split_words(char *s, char **w, size_t max)
{
	size_t n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(s, ".", &save); t && n < max;
	     t = strtok_r(NULL, ".", &save))
		w[n++] = t;
	return n;
}

static void check_one(struct actx *c, struct req *r)
{
	struct analysis *a = c->a;
	const struct instance *in = analysis_instance(a, r->s->instance);
	char *copy = xstrdup(r->rest), *w[20] = { NULL };
	enum bconf_tkey key = bconf_tkey_of(r->rest);

	split_words(copy, w, ARRAY_SIZE(w));

	if (!in || (*r->s->instance && !in->tracer && !in->nevents)) {
		set_result(r, SET_FAILED, xasprintf("instance '%s' not in the "
			   "bundle (not created)", r->s->instance));
		free(copy);
		return;
	}
	switch (key) {
	case BCONF_TK_OPTIONS:
		check_each(r, in->options, false, "trace_options");
		break;
	case BCONF_TK_TRACING_ON:
		check_tracing_on(r, in);
		break;
	case BCONF_TK_TRACE_CLOCK:
		check_clock(r, in);
		break;
	case BCONF_TK_BUFFER_SIZE:
		check_buffer_size(r, in);
		break;
	case BCONF_TK_CPUMASK:
		check_cpumask(r, in);
		break;
	case BCONF_TK_EVENTS:
		check_events_list(r, in);
		break;
	case BCONF_TK_FTRACE_FILTERS:
		check_each(r, in->ftrace_filter, true, "set_ftrace_filter");
		break;
	case BCONF_TK_FTRACE_NOTRACES:
		check_each(r, in->ftrace_notrace, true, "set_ftrace_notrace");
		break;
	case BCONF_TK_TRACER:
		if (in->tracer && !strcmp(in->tracer, r->vals[0]))
			set_result(r, SET_APPLIED, xasprintf("current_tracer "
				   "%s", in->tracer));
		else
			set_result(r, SET_FAILED, xasprintf("current_tracer is "
				   "'%s'", in->tracer ? in->tracer : "?"));
		break;
	case BCONF_TK_ENABLE_ALL:
		if (count_lines(in->set_event) > 0)
			set_result(r, SET_APPLIED, xasprintf("%zu events "
				   "enabled", count_lines(in->set_event)));
		else
			set_result(r, SET_FAILED, xstrdup("no event enabled"));
		break;
	case BCONF_TK_GROUP_ENABLE:
		check_group_enable(r, in, w[1]);
		break;
	case BCONF_TK_EVENT_ENABLE:
	case BCONF_TK_EVENT_FILTER:
	case BCONF_TK_EVENT_ACTIONS:
	case BCONF_TK_KPROBE_PROBES:
	case BCONF_TK_SYNTH_FIELDS:
	case BCONF_TK_HIST:
		check_event_key(c, r, in, w, key);
		break;
	case BCONF_TK_ALLOC_SNAPSHOT:
	case BCONF_TK_HIST_PART:
		set_result(r, SET_UNCHECKED, xstrdup("not checked"));
		break;
	case BCONF_TK_NONE:
	default:
		set_result(r, SET_UNCHECKED, xstrdup("not a trace_boot key"));
		break;
	}
	free(copy);
}

/* --- requested settings ------------------------------------------------ */

static struct req *add_req(struct actx *c, const char *key, const char *inst,
			   const char *rest)
{
	struct req *r;
	struct setting *s;

	c->reqs = xrealloc(c->reqs, (c->n + 1) * sizeof(*r));
	r = &c->reqs[c->n++];
	memset(r, 0, sizeof(*r));
	s = xcalloc(1, sizeof(*s));
	s->key = xstrdup(key);
	s->instance = xstrdup(inst);
	s->status = SET_UNCHECKED;
	r->s = s;
	r->rest = xstrdup(rest);
	return r;
}

static void add_val(struct req *r, const char *v)
{
	r->vals = xrealloc(r->vals, (r->nvals + 1) * sizeof(*r->vals));
	r->vals[r->nvals++] = xstrdup(v);
}

static bool have_req(const struct actx *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->reqs[i].s->key, key))
			return true;
	return false;
}

/* Collapse event.G.E.hist[.N].* leaves into one setting per hist. */
static bool add_hist_req(struct actx *c, const struct bconf *bc,
			 const char *key, const char *inst, const char *rest)
{
	char *copy = xstrdup(rest), *w[20], *hkey, *hrest;
	size_t nw = split_words(copy, w, ARRAY_SIZE(w)), plen;
	const struct bconf_node *node;
	const char *keys;
	bool numbered;

	if (nw < 5 || strcmp(w[0], "event") || strcmp(w[3], "hist")) {
		free(copy);
		return false;
	}
	numbered = isdigit((unsigned char)w[4][0]);
	hrest = numbered ? xasprintf("event.%s.%s.hist.%s", w[1], w[2], w[4]) :
			   xasprintf("event.%s.%s.hist", w[1], w[2]);
	plen = strlen(key) - strlen(rest);
	hkey = xasprintf("%.*s%s", (int)plen, key, hrest);
	if (!have_req(c, hkey)) {
		struct req *r = add_req(c, hkey, inst, "");

		free(r->rest);
		r->rest = xasprintf("event.%s.%s.hist", w[1], w[2]);
		node = bconf_find_node(bc, NULL, hkey);
		keys = node ? bconf_find_value(bc, node, "keys", NULL) : NULL;
		add_val(r, keys ? keys : "");
	}
	free(hkey);
	free(hrest);
	free(copy);
	return true;
}

static void add_leaf(struct actx *c, const struct bconf *bc,
		     const struct bconf_node *leaf)
{
	char key[512], inst[256] = "";
	const char *rest;
	const struct bconf_node *v;
	struct req *r;

	if (bconf_compose_key(leaf, NULL, key, sizeof(key)) < 0)
		return;
	if (!strcmp(key, "kernel.trace_clock")) {
		rest = "trace_clock";
	} else if (!strncmp(key, "ftrace.instance.", 16)) {
		const char *n = key + 16, *dot = strchr(n, '.');

		if (!dot || (size_t)(dot - n) >= sizeof(inst))
			return;
		memcpy(inst, n, (size_t)(dot - n));
		inst[dot - n] = '\0';
		rest = dot + 1;
	} else if (!strncmp(key, "ftrace.", 7)) {
		rest = key + 7;
	} else {
		return;
	}
	if (add_hist_req(c, bc, key, inst, rest))
		return;
	r = add_req(c, key, inst, rest);
	for (v = bconf_node_value(leaf); v; v = bconf_value_next(v))
		add_val(r, bconf_node_data(v));
	if (!r->nvals)
		add_val(r, "");
}

static int load_requests(struct actx *c)
{
	struct analysis *a = c->a;
	const char *status = analysis_meta(a, "bootconfig_status");
	struct bconf *bc = NULL;
	struct bconf_error err;
	const struct bconf_node *leaf = NULL;
	char *t;
	int r;

	/* unreadable is not "no bootconfig": nothing can be said */
	if (bundle_text_get(a, "proc/bootconfig", &t, &a->bconf_error) ==
	    BF_UNREADABLE)
		return -1;
	if (!t) {
		analysis_problem(a, "proc/bootconfig: missing: the kernel "
				 "applied no bootconfig (bootconfig_status=%s)",
				 status ? status : "?");
		return -1;
	}
	/* "# Parameters from bootloader:" lines are comments for the parser */
	r = bconf_parse(t, strlen(t), &bc, &err);
	free(t);
	if (r == -ENODATA)
		return 0;
	if (r) {
		analysis_problem(a, "proc/bootconfig: line %u: %s", err.line,
				 err.msg ? err.msg : "parse error");
		return -1;
	}
	a->bconf_loaded = true;
	while ((leaf = bconf_next_leaf(bc, NULL, leaf)))
		add_leaf(c, bc, leaf);
	bconf_free(bc);
	return 0;
}

/* --- trace_boot: lines in dmesg and error_log entries ------------------- */

enum match { M_VALUE, M_EVENT, M_GE_ALL, M_GE, M_ANY, M_INSTANCE, M_HIST };

struct rule {
	const char *prefix;
	const char *kind;	/* last word(s) of the key; NULL: any */
	enum match how;
};

static const struct rule rules[] = {
	{ "Failed to set option: ", "options", M_VALUE },
	{ "String is too long: ", NULL, M_VALUE },
	{ "Failed to set tracing on: ", "tracing_on", M_VALUE },
	{ "Failed to set trace clock: ", "trace_clock", M_VALUE },
	{ "Buffer size is too small: ", "buffer_size", M_VALUE },
	{ "Failed to resize trace buffer to ", "buffer_size", M_VALUE },
	{ "Failed to set new CPU mask ", "cpumask", M_VALUE },
	{ "Failed to enable event: ", "events", M_VALUE },
	{ "Failed to generate probe: ", "probes", M_EVENT },
	{ "Failed to add probe: ", "probes", M_EVENT },
	{ "Failed to add synthetic event: ", "fields", M_EVENT },
	{ "Failed to find event: ", NULL, M_GE_ALL },
	{ "filter string is too long: ", "filter", M_VALUE },
	{ "Failed to apply filter: ", "filter", M_VALUE },
	{ "action string is too long: ", "actions", M_VALUE },
	{ "Failed to apply an action: ", "actions", M_VALUE },
	{ "Failed to enable event node: ", "enable", M_GE },
	{ "Failed to set given tracer: ", "tracer", M_VALUE },
	{ "Failed to allocate snapshot buffer", "alloc_snapshot", M_ANY },
	{ "Failed to get trace instance ", NULL, M_INSTANCE },
	{ "Failed to apply hist trigger: ", "hist", M_HIST },
	{ "Failed to add ", "ftrace.filters", M_VALUE },
	{ "Failed to add ", "ftrace.notraces", M_VALUE },
};

static bool kind_is(const struct req *r, const char *kind)
{
	size_t n = strlen(r->rest), k = strlen(kind);

	return !strcmp(r->rest, kind) ||
	       (n > k && r->rest[n - k - 1] == '.' &&
		!strcmp(r->rest + n - k, kind));
}

/* The key of @key's parent, malloc'ed ("" for a one-word key). */
static char *parent_key(const char *key)
{
	const char *dot = strrchr(key, '.');

	return dot ? xstrndup(key, (size_t)(dot - key)) : xstrdup("");
}

/*
 * Whether a boot_status line or trace_boot error_log entry about @key
 * concerns the request: its own key; for synthetic fields, the event's key
 * (the kernel reports the whole definition there); and a failure without a
 * value on an ancestor key (an event that does not exist, an instance that
 * could not be created), except a histogram's, whose numbered siblings
 * are separate settings.
 */
static bool key_concerns(const struct req *r, const char *key,
			 bool has_value, bool applied)
{
	size_t n = strlen(key);
	char *parent;
	bool ok;

	if (!strcmp(key, r->s->key))
		return true;
	if (kind_is(r, "fields")) {
		parent = parent_key(r->s->key);
		ok = !strcmp(parent, key);
		free(parent);
		if (ok)
			return true;
	}
	if (applied || has_value || strncmp(r->s->key, key, n) ||
	    r->s->key[n] != '.')
		return false;
	return !(n >= 5 && !strcmp(key + n - 5, ".hist"));
}

static bool value_is(const struct req *r, const char *p)
{
	size_t i;

	for (i = 0; i < r->nvals; i++)
		if (!strcmp(r->vals[i], p) ||
		    (strlen(p) > 3 && strstr(r->vals[i], p)))
			return true;
	return false;
}

/* event.G.E... of the request, into @g and @e; false if not an event key */
static bool req_event(const struct req *r, char *g, char *e, size_t size)
{
	char *copy = xstrdup(r->rest), *w[20];
	size_t nw = split_words(copy, w, ARRAY_SIZE(w));
	bool ok = nw >= 4 && !strcmp(w[0], "event");

	if (ok) {
		snprintf(g, size, "%s", w[1]);
		snprintf(e, size, "%s", w[2]);
	}
	free(copy);
	return ok;
}

static bool word_in(const char *s, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = strstr(s, word); p; p = strstr(p + 1, word)) {
		bool left = p == s || !(isalnum((unsigned char)p[-1]) ||
					p[-1] == '_');
		bool right = !(isalnum((unsigned char)p[n]) || p[n] == '_');

		if (left && right)
			return true;
	}
	return false;
}

static bool rule_matches(const struct rule *ru, const struct req *r,
			 const char *payload)
{
	char g[128], e[128], *ge;
	bool ok;

	if (ru->kind && !kind_is(r, ru->kind))
		return false;
	switch (ru->how) {
	case M_VALUE:
		if (!strncmp(ru->prefix, "Failed to add ", 14) &&
		    strstr(payload, " to ftrace filter")) {
			char *v = xstrndup(payload, (size_t)(
				strstr(payload, " to ftrace filter") - payload));

			ok = value_is(r, v);
			free(v);
			return ok;
		}
		return value_is(r, payload);
	case M_EVENT:
		return req_event(r, g, e, sizeof(g)) && word_in(payload, e);
	case M_GE_ALL:
	case M_GE:
		if (!req_event(r, g, e, sizeof(g)))
			return false;
		ge = xasprintf("%s:%s", g, e);
		ok = !strcmp(ge, payload);
		free(ge);
		return ok;
	case M_ANY:
		return true;
	case M_INSTANCE:
		return !strcmp(r->s->instance, payload);
	case M_HIST: {
		char *k1 = hist_keys(payload);

		ok = k1 && r->nvals && !strcmp(k1, r->vals[0]);
		free(k1);
		return ok;
	}
	}
	return false;
}

static void mark_failed(struct req *r, const char *why)
{
	char *d;

	/* the same message twice (top and instance both log it): once */
	if (r->s->status == SET_FAILED && r->s->detail &&
	    strstr(r->s->detail, why))
		return;
	if (r->s->status != SET_FAILED || !r->s->detail)
		d = xstrdup(why);
	else if (r->s->boot_status)	/* after the kernel's word */
		d = xasprintf("%s; %s", r->s->detail, why);
	else
		d = xasprintf("%s; %s", why, r->s->detail);

	free(r->s->detail);
	r->s->detail = d;
	r->s->status = SET_FAILED;
	r->s->dmesg_failed = true;
}

static void add_unattributed(struct analysis *a, const char *msg)
{
	a->unattributed = xrealloc(a->unattributed,
		(a->nunattributed + 1) * sizeof(*a->unattributed));
	a->unattributed[a->nunattributed++] = xstrdup(msg);
}

/*
 * Attribute one message; prefer requests whose state check failed.  With
 * tracefs/boot_status the kernel has said what failed: a message only
 * explains a failed setting, and one that matches none is an error of its
 * own.
 */
static bool attribute(struct actx *c, const char *msg, const char *why,
		      bool (*match)(const struct req *, const void *),
		      const void *arg)
{
	size_t i, n = 0, bad = 0;

	if (c->a->have_boot_status) {
		for (i = 0; i < c->n; i++) {
			if (c->reqs[i].s->status == SET_FAILED &&
			    match(&c->reqs[i], arg)) {
				mark_failed(&c->reqs[i], why);
				n++;
			}
		}
		return n > 0;
	}
	for (i = 0; i < c->n; i++) {
		if (!match(&c->reqs[i], arg))
			continue;
		n++;
		bad += c->reqs[i].s->status != SET_APPLIED;
	}
	if (!n)
		return false;
	for (i = 0; i < c->n; i++)
		if (match(&c->reqs[i], arg) &&
		    (!bad || c->reqs[i].s->status != SET_APPLIED))
			mark_failed(&c->reqs[i], why);
	(void)msg;
	return true;
}

struct rule_arg {
	const struct rule *ru;
	const char *payload;
};

static bool match_rule(const struct req *r, const void *arg)
{
	const struct rule_arg *ra = arg;

	return rule_matches(ra->ru, r, ra->payload);
}

static void attribute_dmesg(struct actx *c)
{
	struct analysis *a = c->a;
	size_t i, j;

	for (i = 0; i < a->nboot_errors; i++) {
		const char *msg = a->boot_errors[i];
		char *why = xasprintf("dmesg: trace_boot: %s", msg);
		bool done = false;

		for (j = 0; j < ARRAY_SIZE(rules) && !done; j++) {
			struct rule_arg ra = { &rules[j], NULL };
			char *payload;

			if (strncmp(msg, rules[j].prefix,
				    strlen(rules[j].prefix)))
				continue;
			payload = trim(xstrdup(msg + strlen(rules[j].prefix)));
			ra.payload = payload;
			done = attribute(c, msg, why, match_rule, &ra);
			free(payload);
		}
		if (!done)
			add_unattributed(a, why);
		free(why);
	}
}

struct log_arg {
	const char *inst;
	const char *cmd;
};

/* "p:[GROUP/]EVENT ..." (kprobe_events syntax) names the request's event */
static bool probe_cmd_is(const struct req *r, const char *cmd)
{
	char g[128], e[128];
	const char *name = cmd + 2;
	size_t n;

	if (!kind_is(r, "probes") || !req_event(r, g, e, sizeof(g)) ||
	    (strncmp(cmd, "p:", 2) && strncmp(cmd, "r:", 2)))
		return false;
	n = strcspn(name, " ");
	if (memchr(name, '/', n)) {
		n -= (size_t)((const char *)memchr(name, '/', n) + 1 - name);
		name = strchr(name, '/') + 1;
	}
	return strlen(e) == n && !strncmp(name, e, n);
}

static bool match_log(const struct req *r, const void *arg)
{
	const struct log_arg *la = arg;
	char *key;
	bool by_key;
	size_t i;

	if (la->inst && strcmp(r->s->instance, la->inst))
		return false;
	/* trace_boot (series patch 0006): "KEY" or "KEY = \"VALUE\"" */
	key = xstrndup(la->cmd, strcspn(la->cmd, " "));
	by_key = key_concerns(r, key, strchr(la->cmd, ' '), false);
	free(key);
	if (by_key || probe_cmd_is(r, la->cmd))
		return true;
	for (i = 0; i < r->nvals; i++) {
		char *k1, *k2;
		bool ok;

		if (!*r->vals[i])
			continue;
		if (!strcmp(r->vals[i], la->cmd))
			return true;
		if (kind_is(r, "hist") || kind_is(r, "actions")) {
			k1 = hist_keys(la->cmd);
			k2 = kind_is(r, "hist") ? xstrdup(r->vals[i]) :
			     hist_keys(r->vals[i]);
			ok = k1 && k2 && !strcmp(k1, k2) &&
			     !strncmp(la->cmd, "hist", 4);
			free(k1);
			free(k2);
			if (ok)
				return true;
		}
	}
	return false;
}

/*
 * error_log entries: "[ts] LOCATION: error: MESSAGE" then
 * "  Command: CMD" and a caret line.
 */
static void attribute_error_log(struct actx *c, const struct instance *in)
{
	char *copy, *l, *save = NULL, *pending = NULL;

	if (!in->error_log || !*in->error_log)
		return;
	copy = xstrdup(in->error_log);
	for (l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char *t = trim(l);

		if (t[0] == '[') {
			char *e = strstr(t, "error: ");

			free(pending);
			pending = xstrdup(e ? e + 7 : t);
		} else if (!strncmp(t, "Command: ", 9) && pending) {
			struct log_arg la = { in->name, trim(t + 9) };
			char *why = xasprintf("error_log (%s): %s (command: %s)",
					      inst_label(in), pending, la.cmd);

			if (!attribute(c, NULL, why, match_log, &la)) {
				la.inst = NULL;
				if (!attribute(c, NULL, why, match_log, &la))
					add_unattributed(c->a, why);
			}
			free(why);
			free(pending);
			pending = NULL;
		}
	}
	if (pending) {
		char *why = xasprintf("error_log (%s): %s", inst_label(in),
				      pending);

		add_unattributed(c->a, why);
		free(why);
	}
	free(pending);
	free(copy);
}

/* --- tracefs/boot_status (kernels with series patch 0010) ------------- */

/* Settings trace_boot writes a boot_status line for. */
static bool status_covers(const struct req *r)
{
	/* trace_boot skips these when the value is empty */
	static const char *const need_value[] = {
		"tracing_on", "trace_clock", "buffer_size", "cpumask", "tracer",
		"filter",
	};
	size_t i;

	if (strncmp(r->s->key, "ftrace.", 7))
		return false;
	for (i = 0; i < ARRAY_SIZE(need_value); i++)
		if (kind_is(r, need_value[i]) && r->nvals == 1 &&
		    !*r->vals[0])
			return false;
	switch (bconf_tkey_of(r->rest)) {
	case BCONF_TK_OPTIONS:
	case BCONF_TK_TRACING_ON:
	case BCONF_TK_TRACE_CLOCK:
	case BCONF_TK_BUFFER_SIZE:
	case BCONF_TK_CPUMASK:
	case BCONF_TK_EVENTS:
	case BCONF_TK_TRACER:
	case BCONF_TK_ALLOC_SNAPSHOT:
	case BCONF_TK_FTRACE_FILTERS:
	case BCONF_TK_FTRACE_NOTRACES:
	case BCONF_TK_EVENT_ENABLE:
	case BCONF_TK_EVENT_FILTER:
	case BCONF_TK_EVENT_ACTIONS:
	case BCONF_TK_KPROBE_PROBES:
	case BCONF_TK_SYNTH_FIELDS:
		return true;
	case BCONF_TK_HIST:	/* one line for all of event.G.E.hist */
		return kind_is(r, "hist");
	default:
		return false;
	}
}

/* Whether line @l is about value @i of the request. */
static bool line_value_is(const struct req *r, const struct bs_line *l,
			  size_t i)
{
	if (strcmp(l->key, r->s->key) || kind_is(r, "hist"))
		return true;	/* whole event, instance or histogram */
	if (!l->value)
		return !*r->vals[i];
	return !strcmp(l->value, r->vals[i]);
}

/* Ranks: the worst line of a setting decides its status. */
static int word_rank(const char *word)
{
	if (!word)
		return 2;		/* no line: not reported */
	if (!strcmp(word, "applied"))
		return 1;
	if (!strcmp(word, "failed"))
		return 5;
	if (!strcmp(word, "pending"))
		return 4;
	return 3;			/* a word this tool does not know */
}

/* A failed line next to the setting (its event's probe), or NULL. */
static const struct bs_line *failed_sibling(const struct bs_file *bs,
					    const struct req *r)
{
	char *parent = parent_key(r->s->key);
	size_t i, n = strlen(parent);
	const struct bs_line *found = NULL;

	for (i = 0; i < bs->n && !found; i++) {
		const struct bs_line *l = &bs->lines[i];

		if (l->key && !strcmp(l->word, "failed") &&
		    !strncmp(l->key, parent, n) && l->key[n] == '.')
			found = l;
	}
	free(parent);
	return found;
}

/* The last line about value @i (later lines supersede earlier ones). */
static struct bs_line *value_line(struct bs_file *bs, const struct req *r,
				  size_t i)
{
	struct bs_line *last = NULL, *any_own = NULL;
	size_t j;

	for (j = 0; j < bs->n; j++) {
		struct bs_line *l = &bs->lines[j];

		if (!l->key || !key_concerns(r, l->key, l->value,
					     !strcmp(l->word, "applied")))
			continue;
		l->claimed = true;
		if (line_value_is(r, l, i))
			last = l;
		else if (!strcmp(l->key, r->s->key))
			any_own = l;
	}
	/* one value that the kernel printed differently: its own line */
	return last ? last : r->nvals == 1 ? any_own : NULL;
}

static void bs_detail(struct sbuf *b, const struct bs_line *l)
{
	if (b->len)
		sbuf_puts(b, "; ");
	sbuf_printf(b, "boot_status: %s", l->text);
}

/* Status of one request from boot_status, cross-checked with tracefs. */
static void bs_judge(struct bs_file *bs, struct req *r)
{
	const struct bs_line *worst = NULL, *l, *sib;
	char *state = r->s->detail ? r->s->detail : xstrdup("");
	enum set_status st = r->s->status;
	struct sbuf b = { 0 };
	int rank = 0;
	size_t i;

	for (i = 0; i < r->nvals; i++) {
		l = value_line(bs, r, i);
		if (word_rank(l ? l->word : NULL) > rank) {
			rank = word_rank(l ? l->word : NULL);
			worst = l;
		}
		if (l && rank > 1 && word_rank(l->word) == rank &&
		    !(b.s && strstr(b.s, l->text)))
			bs_detail(&b, l);
	}
	r->s->detail = NULL;
	free(r->s->boot_status);
	r->s->boot_status = xstrdup(rank == 2 ? "none" : worst->word);
	if (rank == 1) {
		set_result(r, st == SET_FAILED ? SET_FAILED : SET_APPLIED,
			   xasprintf("boot_status: applied%s%s%s; %s: %s",
				     worst->note ? " (" : "",
				     worst->note ? worst->note : "",
				     worst->note ? ")" : "",
				     st == SET_FAILED ? "but tracefs "
				     "disagrees" : "tracefs", state));
	} else if (rank == 2) {
		sib = failed_sibling(bs, r);
		set_result(r, SET_NOT_REPORTED, xasprintf("not reported in "
			   "boot_status (trace_boot never handled it%s%s); "
			   "tracefs: %s", sib ? "; it gave up after: " : "",
			   sib ? sib->text : "", state));
	} else {
		sbuf_printf(&b, "; %stracefs: %s", rank == 3 ?
			    "unknown status; " : "", state);
		set_result(r, rank == 5 ? SET_FAILED : rank == 4 ?
			   SET_PENDING : SET_UNCHECKED, sbuf_steal(&b));
	}
	sbuf_free(&b);
	free(state);
}

/* Returns true when the bundle has tracefs/boot_status. */
static bool boot_status_check(struct actx *c)
{
	char *t = bundle_text(c->a, "tracefs/boot_status", true);
	struct bs_file bs;
	size_t i;

	if (!t)
		return false;
	bs_parse(t, &bs);
	free(t);
	for (i = 0; i < c->n; i++)
		if (status_covers(&c->reqs[i]))
			bs_judge(&bs, &c->reqs[i]);
	for (i = 0; i < bs.n; i++) {
		const struct bs_line *l = &bs.lines[i];
		char *why;

		if (l->claimed || !strcmp(l->word, "applied"))
			continue;
		why = !l->key ? xasprintf("boot_status line %u not understood:"
					  " %s", l->lineno, l->text) :
		      xasprintf("boot_status: %s", l->text);
		add_unattributed(c->a, why);
		free(why);
	}
	bs_free(&bs);
	return true;
}

static void bconf_status_setting(struct actx *c)
{
	const char *st = analysis_meta(c->a, "bootconfig_status");
	const char *msg = analysis_meta(c->a, "bootconfig_message");
	struct req *r;

	if (!st || !strcmp(st, "loaded"))
		return;
	r = add_req(c, "bootconfig", "", "bootconfig");
	add_val(r, st);
	if (!strcmp(st, "not-requested"))
		set_result(r, SET_UNCHECKED, xstrdup("booted without "
			   "`bootconfig` on the command line"));
	else
		set_result(r, SET_FAILED, xasprintf("the kernel did not load "
			   "the bootconfig (%s%s%s)", st, msg && *msg ? ": " :
			   "", msg ? msg : ""));
}

void applied_check(struct analysis *a)
{
	struct actx c = { a, NULL, 0 };
	size_t i, j;

	bconf_status_setting(&c);
	load_requests(&c);
	for (i = 0; i < c.n; i++)
		if (strcmp(c.reqs[i].s->key, "bootconfig"))
			check_one(&c, &c.reqs[i]);
	a->have_boot_status = boot_status_check(&c);
	attribute_dmesg(&c);
	for (i = 0; i < a->ninst; i++)
		attribute_error_log(&c, &a->inst[i]);
	a->settings = xcalloc(c.n, sizeof(*a->settings));
	for (i = 0; i < c.n; i++) {
		struct req *r = &c.reqs[i];
		struct sbuf b = { 0 };

		for (j = 0; j < r->nvals; j++) {
			if (j)
				sbuf_puts(&b, ", ");
			sbuf_puts(&b, r->vals[j]);
			free(r->vals[j]);
		}
		r->s->value = sbuf_steal(&b);
		a->settings[a->nsettings++] = *r->s;
		free(r->s);
		free(r->vals);
		free(r->rest);
	}
	free(c.reqs);
}
