// SPDX-License-Identifier: GPL-2.0
/*
 * test_applied.c - the "was it applied" check and data-loss findings on
 * the recorded bundles in fixtures/bundles (real boots, see its README).
 */
#include <stdlib.h>

#include "analysis.h"
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
	analysis_free(&a);
}

static void test_initcalls(struct unit *u)
{
	struct analysis a;
	size_t i, levels = 0;

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
			UNIT_EXPECT_STR(u, a.initcalls[i].level, "subsys");
			UNIT_EXPECT(u, a.initcalls[i].finished);
			UNIT_EXPECT_INT(u, a.initcalls[i].ret, 0);
			UNIT_EXPECT_INT(u, a.initcalls[i].dur_ns / 1000, 246046);
		}
	}
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
	UNIT_CASE(test_not_a_bundle),
};

int main(void)
{
	return UNIT_RUN_ARRAY(cases);
}
