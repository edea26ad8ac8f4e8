// SPDX-License-Identifier: GPL-2.0
/*
 * test_applied.c - the "was it applied" check and data-loss findings on
 * the recorded bundles in fixtures/bundles (real boots, see its README).
 */
#include <stdlib.h>

#include "analysis.h"
#include "boot_status.h"
#include "unit.h"
#include "util.h"

static int load(struct unit *u, const char *name, struct analysis *a)
{
	char *dir = xasprintf("fixtures/bundles/%s", name), *err = NULL;
	int r = analysis_load(dir, a, &err);

	UNIT_EXPECT_INT(u, r, 0);
	if (r)
		fprintf(stderr, "%s\n", err);
	free(err);
	free(dir);
	return r;
}

static const struct setting *setting(const struct analysis *a,
				     const char *key)
{
	size_t i;

	for (i = 0; i < a->nsettings; i++)
		if (!strcmp(a->settings[i].key, key))
			return &a->settings[i];
	return NULL;
}

static void expect_status(struct unit *u, const struct analysis *a,
			  const char *key, enum set_status st, const char *why)
{
	const struct setting *s = setting(a, key);

	if (!s) {
		fprintf(stderr, "  no setting %s\n", key);
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, s->status, st);
	if (why && (!s->detail || !strstr(s->detail, why))) {
		fprintf(stderr, "  %s: detail \"%s\" lacks \"%s\"\n", key,
			s->detail ? s->detail : "", why);
		u->failed = 1;
	}
}

static void test_failures(struct unit *u)
{
	struct analysis a;
	size_t i, tiny = 0;

	if (load(u, "failures", &a))
		return;
	UNIT_EXPECT_INT(u, a.nsettings, 10);
	UNIT_EXPECT_INT(u, analysis_failed_settings(&a), 4);
	UNIT_EXPECT_INT(u, a.nunattributed, 0);
	expect_status(u, &a, "ftrace.event.nosuchgroup.nosuchevent.enable",
		      SET_FAILED, "Failed to find event: nosuchgroup:nosuchevent");
	expect_status(u, &a, "ftrace.event.task.task_rename.filter",
		      SET_FAILED, "Too many '('");
	expect_status(u, &a, "ftrace.event.task.task_newtask.actions",
		      SET_FAILED, "action string is too long");
	expect_status(u, &a, "ftrace.instance.badtracer.tracer", SET_FAILED,
		      "Failed to set given tracer: nosuchtracer");
	expect_status(u, &a, "ftrace.event.task.task_rename.enable",
		      SET_APPLIED, NULL);
	expect_status(u, &a, "ftrace.instance.tiny.buffer_size", SET_APPLIED,
		      "KiB per CPU");
	expect_status(u, &a, "ftrace.instance.tiny.ftrace.filters",
		      SET_APPLIED, "set_ftrace_filter");
	expect_status(u, &a, "kernel.trace_clock", SET_APPLIED, "global");
	for (i = 0; i < a.nlosses; i++)
		tiny += !strcmp(a.losses[i].instance, "tiny") &&
			a.losses[i].kind == LOSS_OVERRUN &&
			a.losses[i].count > 0;
	UNIT_EXPECT_INT(u, tiny, 2);
	UNIT_EXPECT_INT(u, a.nboot_errors, 4);
	/* a kernel without the series: no boot_status, tracefs decides */
	UNIT_EXPECT(u, !a.have_boot_status);
	UNIT_EXPECT_STR(u, setting(&a, "ftrace.instance.tiny.tracer")->
			boot_status, NULL);
	analysis_free(&a);
}

static void test_initcalls(struct unit *u)
{
	struct analysis a;
	size_t i, levels = 0, acpi = 0;

	if (load(u, "initcalls", &a))
		return;
	UNIT_EXPECT_INT(u, analysis_failed_settings(&a), 0);
	UNIT_EXPECT_INT(u, a.nsettings, 5);
	UNIT_EXPECT_INT(u, a.nlosses, 0);
	UNIT_EXPECT(u, a.trace_ok);
	UNIT_EXPECT_INT(u, a.total_records, 8013);
	UNIT_EXPECT_INT(u, a.ninitcalls, 263);
	for (i = 0; i < a.ninitcalls; i++) {
		levels += a.initcalls[i].level != NULL;
		if (!strcmp(a.initcalls[i].func, "acpi_init")) {
			acpi++;
			UNIT_EXPECT_STR(u, a.initcalls[i].level, "subsys");
			UNIT_EXPECT(u, a.initcalls[i].finished);
			UNIT_EXPECT_INT(u, a.initcalls[i].ret, 0);
			UNIT_EXPECT_INT(u, a.initcalls[i].dur_ns / 1000, 246046);
		}
	}
	UNIT_EXPECT_INT(u, acpi, 1);
	UNIT_EXPECT(u, levels > 200);
	UNIT_EXPECT_INT(u, a.nkprobes, 1);
	UNIT_EXPECT_STR(u, a.kprobes[0].name, "getname");
	UNIT_EXPECT_INT(u, a.kprobes[0].hits, 21965);
	UNIT_EXPECT_INT(u, a.kprobes[0].traced, 7480);
	analysis_free(&a);
}

static void test_default_text_state(struct unit *u)
{
	struct analysis a;

	if (load(u, "default", &a))
		return;
	UNIT_EXPECT(u, !a.trace_ok);
	UNIT_EXPECT_INT(u, analysis_failed_settings(&a), 0);
	UNIT_EXPECT_STR(u, a.hist_initcalls_src, "top:synthetic:initcall_latency");
	UNIT_EXPECT_INT(u, a.nhist_initcalls, 262);
	expect_status(u, &a, "ftrace.event.synthetic.initcall_latency.actions",
		      SET_APPLIED, "trigger on synthetic:initcall_latency");
	expect_status(u, &a, "ftrace.event.kprobes.vfs_read.probes",
		      SET_APPLIED, "p:kprobes/vfs_read");
	expect_status(u, &a, "ftrace.buffer_size", SET_APPLIED, NULL);
	analysis_free(&a);
}

/* Entries ("[ts] ...: error: ...") in an error_log dump. */
static size_t log_entries(const char *text)
{
	size_t n = 0;
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
	     NULL)
		n += *p == '[';
	return n;
}

/* A failed setting whose key the line concerns and whose detail shows it. */
static bool failure_reported(const struct analysis *a, const struct bs_line *l)
{
	size_t i, n = strlen(l->key);

	for (i = 0; i < a->nsettings; i++) {
		const struct setting *s = &a->settings[i];

		if (s->status == SET_FAILED && s->detail &&
		    strstr(s->detail, l->text) &&
		    !strncmp(s->key, l->key, n) &&
		    (!s->key[n] || s->key[n] == '.'))
			return true;
	}
	return false;
}

/*
 * The kernel with the series, 21 failures (tests/analysis/overflow.bconf):
 * error_log keeps 8 per trace array, boot_status lists them all, and the
 * report takes every status from it.
 */
static void test_overflow(struct unit *u)
{
	struct analysis a;
	struct bs_file bs;
	const struct instance *top, *bad;
	char *t;
	size_t i, failed = 0;

	if (load(u, "overflow", &a))
		return;
	UNIT_EXPECT(u, a.have_boot_status);
	UNIT_EXPECT_INT(u, a.nsettings, 26);
	UNIT_EXPECT_INT(u, analysis_failed_settings(&a), 21);
	UNIT_EXPECT_INT(u, analysis_count_settings(&a, SET_NOT_REPORTED), 1);
	UNIT_EXPECT_INT(u, analysis_count_settings(&a, SET_PENDING), 0);
	UNIT_EXPECT_INT(u, a.nunattributed, 0);
	top = analysis_instance(&a, "");
	bad = analysis_instance(&a, "bad");
	UNIT_EXPECT(u, top && bad);
	if (top && bad) {
		UNIT_EXPECT_INT(u, log_entries(top->error_log), 8);
		UNIT_EXPECT_INT(u, log_entries(bad->error_log), 8);
		/* the first failures fell out of the error_log */
		UNIT_EXPECT(u, !strstr(top->error_log, "ftrace.options"));
		UNIT_EXPECT(u, !strstr(bad->error_log, "bad.options"));
	}
	t = bundle_text(&a, "tracefs/boot_status", false);
	bs_parse(t, &bs);
	for (i = 0; i < bs.n; i++) {
		if (strcmp(bs.lines[i].word, "failed"))
			continue;
		failed++;
		if (!failure_reported(&a, &bs.lines[i])) {
			fprintf(stderr, "  not reported: %s\n",
				bs.lines[i].text);
			u->failed = 1;
		}
	}
	UNIT_EXPECT_INT(u, failed, 21);
	bs_free(&bs);
	free(t);
	/* an array: one value applied, one failed */
	expect_status(u, &a, "ftrace.options", SET_FAILED,
		      "boot_status: failed ftrace.options = \"nosuchoption\" "
		      "# Failed to set option");
	/* tracefs cannot tell (the collector stops tracing); the kernel can */
	expect_status(u, &a, "ftrace.tracing_on", SET_FAILED,
		      "Invalid tracing_on value");
	/* an event that does not exist fails its whole subtree */
	expect_status(u, &a, "ftrace.instance.bad.event.nosuchgroup."
		      "nosuchevent.enable", SET_FAILED, "Failed to find event");
	expect_status(u, &a, "ftrace.event.kprobes.badprobe.enable",
		      SET_NOT_REPORTED, "after: failed ftrace.event.kprobes."
		      "badprobe.probes");
	expect_status(u, &a, "ftrace.event.task.task_newtask.hist",
		      SET_APPLIED, "boot_status: applied; tracefs: hist trigger");
	expect_status(u, &a, "ftrace.instance.bad.event.task.task_newtask."
		      "enable", SET_APPLIED, "task:task_newtask enabled");
	/* not trace_boot's: checked in tracefs only */
	expect_status(u, &a, "kernel.trace_clock", SET_APPLIED, "clock global");
	UNIT_EXPECT_STR(u, setting(&a, "kernel.trace_clock")->boot_status,
			NULL);
	UNIT_EXPECT_STR(u, setting(&a, "ftrace.event.kprobes.badprobe."
				   "enable")->boot_status, "none");
	analysis_free(&a);
}

/* Lines as the kernel writes them (fixture, tests/kernel/60-module.t). */
static void test_boot_status_parse(struct unit *u)
{
	struct bs_file bs;
	char *t = NULL;

	UNIT_EXPECT_INT(u, bconf_read_file("fixtures/bundles/overflow/tracefs/"
				     "boot_status", 1 << 20, &t, NULL), 0);
	bs_parse(t, &bs);
	free(t);
	UNIT_EXPECT_INT(u, bs.n, 27);
	if (bs.n == 27) {
		UNIT_EXPECT_STR(u, bs.lines[0].word, "applied");
		UNIT_EXPECT_STR(u, bs.lines[0].key, "ftrace.options");
		UNIT_EXPECT_STR(u, bs.lines[0].value, "sym-addr");
		UNIT_EXPECT_STR(u, bs.lines[0].note, NULL);
		UNIT_EXPECT_STR(u, bs.lines[1].note, "Failed to set option");
		UNIT_EXPECT_STR(u, bs.lines[6].key,
				"ftrace.event.nosuchgroup.nosuchevent");
		UNIT_EXPECT_STR(u, bs.lines[6].value, NULL);
		UNIT_EXPECT_STR(u, bs.lines[6].note, "Failed to find event");
		UNIT_EXPECT_STR(u, bs.lines[8].key,
				"ftrace.event.task.task_rename.enable");
		UNIT_EXPECT_STR(u, bs.lines[8].value, NULL);
		UNIT_EXPECT_STR(u, bs.lines[10].value, "hist:keys=common_pid");
		UNIT_EXPECT_INT(u, bs.lines[26].lineno, 27);
	}
	bs_free(&bs);

	bs_parse("pending ftrace.event.sample-trace.foo_bar.filter = "
		 "\"bar > 0\" # waiting for a module\n"
		 "applied ftrace.event.sample-trace.foo_bar.enable # module "
		 "trace_events_sample\n\n"
		 "applied ftrace.event.a.b.filter = \"comm == \"x\"\"\n"
		 "failed ftrace.x = \"a \" # b\" # Reason\n"
		 "garbage\n"
		 "skipped ftrace.tracer = \"nop", &bs);
	UNIT_EXPECT_INT(u, bs.n, 6);
	if (bs.n == 6) {
		UNIT_EXPECT_STR(u, bs.lines[0].word, "pending");
		UNIT_EXPECT_STR(u, bs.lines[0].value, "bar > 0");
		UNIT_EXPECT_STR(u, bs.lines[0].note, "waiting for a module");
		UNIT_EXPECT_STR(u, bs.lines[1].value, NULL);
		UNIT_EXPECT_STR(u, bs.lines[1].note,
				"module trace_events_sample");
		UNIT_EXPECT_STR(u, bs.lines[2].value, "comm == \"x\"");
		UNIT_EXPECT_INT(u, bs.lines[2].lineno, 4);
		UNIT_EXPECT_STR(u, bs.lines[3].value, "a \" # b");
		UNIT_EXPECT_STR(u, bs.lines[3].note, "Reason");
		UNIT_EXPECT_STR(u, bs.lines[4].word, "");
		UNIT_EXPECT_STR(u, bs.lines[4].key, NULL);
		UNIT_EXPECT_STR(u, bs.lines[5].word, "skipped");
		UNIT_EXPECT_STR(u, bs.lines[5].value, "nop");
	}
	bs_free(&bs);
}

static void test_not_a_bundle(struct unit *u)
{
	struct analysis a;
	char *err = NULL;

	UNIT_EXPECT_INT(u, analysis_load("fixtures/hist", &a, &err), -1);
	UNIT_EXPECT(u, err && strstr(err, "not a bundle"));
	free(err);
	err = NULL;
	UNIT_EXPECT_INT(u, analysis_load("fixtures/nonexistent", &a, &err), -1);
	UNIT_EXPECT(u, err && strstr(err, "No such file"));
	free(err);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_failures),
	UNIT_CASE(test_initcalls),
	UNIT_CASE(test_default_text_state),
	UNIT_CASE(test_overflow),
	UNIT_CASE(test_boot_status_parse),
	UNIT_CASE(test_not_a_bundle),
};

int main(void)
{
	return UNIT_RUN_ARRAY(cases);
}
