// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of liblint: the grammar table, every rule's finding and its
 * position, with and without a kernel knowledge directory (written here
 * in the format kernel/knowledge.sh produces).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootconfig.h"
#include "lint.h"
#include "unit.h"

static struct lint_knowledge *kn_nolong, *kn_long;

/*
 * Lint @len bytes of @text; return "L:C:sev:rule" lines joined by '|'
 * (static buffer).
 */
static const char *lint_strn(const char *text, size_t len,
			     const struct lint_knowledge *k)
{
	static char out[4096];
	struct lint_result r;
	size_t i, n = 0;

	out[0] = '\0';
	if (bconf_lint(text, len, k, &r) < 0)
		return "ENOMEM";
	for (i = 0; i < r.count && n < sizeof(out) - 64; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%u:%u:%c:%s",
				      i ? "|" : "", r.diags[i].line,
				      r.diags[i].col,
				      r.diags[i].severity == LINT_ERROR ? 'E' :
				      r.diags[i].severity == LINT_WARNING ? 'W' : 'N',
				      r.diags[i].rule);
	lint_result_free(&r);
	return out;
}

static const char *lint_str(const char *text, const struct lint_knowledge *k)
{
	return lint_strn(text, strlen(text), k);
}

/* The message of the last finding of @len bytes of @text. */
static const char *lint_last_msg(const char *text, size_t len)
{
	static char out[1024];
	struct lint_result r;

	out[0] = '\0';
	if (bconf_lint(text, len, NULL, &r) < 0)
		return "ENOMEM";
	if (r.count)
		snprintf(out, sizeof(out), "%s", r.diags[r.count - 1].msg);
	lint_result_free(&r);
	return out;
}

/* The message of the only finding of @text. */
static const char *lint_msg(const char *text, const struct lint_knowledge *k)
{
	static char out[1024];
	struct lint_result r;

	out[0] = '\0';
	if (bconf_lint(text, strlen(text), k, &r) < 0)
		return "ENOMEM";
	if (r.count == 1)
		snprintf(out, sizeof(out), "%s", r.diags[0].msg);
	lint_result_free(&r);
	return out;
}

static void test_grammar(struct unit *u)
{
	const char *w1[] = { "event", "task", "task_newtask", "filter" };
	const char *w2[] = { "event", "initcall", "initcall_start", "hist", "1",
			     "onmatch", "2", "trace" };
	const char *w3[] = { "evnt" };
	const char *w4[] = { "event", "kprobes", "x" };
	struct bconf_tkey_match m;
	int i, found = 0;

	bconf_tkey_match(w1, 4, &m);
	UNIT_EXPECT(u, m.full && m.kind == BCONF_TV_FILTER);
	bconf_tkey_match(w2, 8, &m);
	UNIT_EXPECT(u, m.full && m.kind == BCONF_TV_LIST);
	bconf_tkey_match(w2, 4, &m);
	UNIT_EXPECT(u, m.full && m.kind == BCONF_TV_HIST && m.prefix);
	bconf_tkey_match(w3, 1, &m);
	UNIT_EXPECT(u, !m.full && !m.prefix);
	bconf_tkey_match(w3, 0, &m);
	for (i = 0; i < m.ncand; i++)
		found += m.cand_len[i] == 5 && !strncmp(m.cand[i], "event", 5);
	UNIT_EXPECT(u, found >= 1);
	bconf_tkey_match(w4, 3, &m);
	UNIT_EXPECT(u, !m.full && m.prefix);
	/* the key each pattern names, as trace-analysis dispatches on it */
	UNIT_EXPECT_INT(u, bconf_tkey_of("buffer_size"), BCONF_TK_BUFFER_SIZE);
	UNIT_EXPECT_INT(u, bconf_tkey_of("ftrace.filters"),
			BCONF_TK_FTRACE_FILTERS);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.enable"), BCONF_TK_ENABLE_ALL);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.sched.enable"),
			BCONF_TK_GROUP_ENABLE);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.sched.sched_switch.enable"),
			BCONF_TK_EVENT_ENABLE);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.kprobes.vfs_read.probes"),
			BCONF_TK_KPROBE_PROBES);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.task.x.probes"), BCONF_TK_NONE);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.synthetic.lat.fields"),
			BCONF_TK_SYNTH_FIELDS);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.a.b.hist"), BCONF_TK_HIST);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.a.b.hist.2"), BCONF_TK_HIST);
	UNIT_EXPECT_INT(u, bconf_tkey_of("event.a.b.hist.onmax.var"),
			BCONF_TK_HIST_PART);
	UNIT_EXPECT_INT(u, bconf_tkey_of("tracr"), BCONF_TK_NONE);
	UNIT_EXPECT_INT(u, bconf_tkey_of(""), BCONF_TK_NONE);
}

/* the kernel's memparse(), as trace_boot reads buffer_size */
static void test_memparse(struct unit *u)
{
	unsigned long long n = 0;
	const char *end = NULL;

	UNIT_EXPECT(u, bconf_memparse("1MB", &n, &end) && n == 1 << 20);
	UNIT_EXPECT_STR(u, end, "B");
	UNIT_EXPECT(u, bconf_memparse("0x10k", &n, &end) && n == 16 << 10);
	UNIT_EXPECT(u, bconf_memparse("2g", &n, &end) && n == 2ull << 30);
	UNIT_EXPECT(u, bconf_memparse("4096", &n, &end) && n == 4096);
	UNIT_EXPECT_STR(u, end, "");
	UNIT_EXPECT(u, !bconf_memparse("-1M", &n, &end));
	UNIT_EXPECT(u, !bconf_memparse(" 1M", &n, &end));
	UNIT_EXPECT(u, !bconf_memparse("M", &n, &end));
}

/* the one JSON string writer: control bytes, UTF-8 kept, bad bytes */
static void test_json_string(struct unit *u)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	bconf_json_string(f, "a\"\\\n\x01\x7f \xc3\xa9 \xff\xc3");
	bconf_json_string(f, NULL);
	fclose(f);
	UNIT_EXPECT_STR(u, out, "\"a\\\"\\\\\\n\\u0001\\u007f \xc3\xa9 "
			"\\ufffd\\ufffd\"\"\"");
	free(out);
}



static void test_distance(struct unit *u)
{
	UNIT_EXPECT_INT(u, lint_distance("evnt", "event", 2), 1);
	UNIT_EXPECT_INT(u, lint_distance("filtr", "filter", 2), 1);
	UNIT_EXPECT_INT(u, lint_distance("abc", "xyz", 2), 3);
	UNIT_EXPECT_INT(u, lint_distance("", "", 2), 0);
}

static void test_clean(struct unit *u)
{
	UNIT_EXPECT_STR(u, lint_str("ftrace.tracer = function\n"
				    "ftrace.event.task.task_newtask.enable\n"
				    "ftrace.instance.foo.buffer_size = 1MB\n"
				    "kernel.trace_clock = global\n", NULL), "");
}

static void test_unknown_key(struct unit *u)
{
	UNIT_EXPECT_STR(u, lint_str("ftrace.evnt.kprobes.x.probes = a\n", NULL),
			"1:8:E:unknown-key");
	UNIT_EXPECT_STR(u, lint_msg("ftrace.evnt.kprobes.x.probes = a\n", NULL),
			"unknown key 'evnt': the kernel ignores it; did you mean 'event'?");
	UNIT_EXPECT_STR(u, lint_str("ftrace {\n\tinstance.a {\n\t\ttracr = nop\n\t}\n}\n",
				    NULL), "3:3:E:unknown-key");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.hist.keys = x\n"
				    "ftrace.event.a.b.hist.kyes = y\n", NULL),
			"2:23:E:unknown-key");
	UNIT_EXPECT_STR(u, lint_str("ftrace.instance.a.instance.b.tracer = nop\n", NULL),
			"1:19:E:unknown-key");
}

static void test_values(struct unit *u)
{
	UNIT_EXPECT_STR(u, lint_str("ftrace.tracing_on = on\n", NULL),
			"1:21:E:tracing-on");
	UNIT_EXPECT_STR(u, lint_str("ftrace.tracing_on = 1\n", NULL), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.buffer_size = \"1k\"\n", NULL),
			"1:22:E:buffer-size");
	UNIT_EXPECT_STR(u, lint_str("ftrace.buffer_size = big\n", NULL),
			"1:22:E:buffer-size");
	UNIT_EXPECT_STR(u, lint_str("ftrace.buffer_size = 0x10000\n", NULL), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.cpumask = 0-1\n", NULL),
			"1:18:E:cpumask");
	UNIT_EXPECT_STR(u, lint_str("ftrace.cpumask = \"ff,0000000f\"\n", NULL), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.enable = 0\n", NULL),
			"1:27:W:value-ignored");
	UNIT_EXPECT_STR(u, lint_str("ftrace.alloc_snapshot = no\n", NULL),
			"1:25:W:value-ignored");
	UNIT_EXPECT_STR(u, lint_str("ftrace.tracer = nop, function\n", NULL),
			"1:22:W:array");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b = x\n", NULL),
			"1:20:W:value-ignored");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.hist.values = x\n", NULL),
			"1:18:E:hist-keys");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.hist.1.keys = x\n"
				    "ftrace.event.a.b.hist.2.values = x\n", NULL),
			"2:23:E:hist-keys");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.hist\n", NULL),
			"1:18:E:hist-keys");
	UNIT_EXPECT_STR(u, lint_str("foo.bar = 1\n", NULL), "1:1:W:top-level");
	UNIT_EXPECT_STR(u, lint_str("kernel = 1\nkernel.foo = 2\n", NULL),
			"1:10:E:cmdline");
	/* An empty block composes nothing: no finding (found by lint-fuzz). */
	UNIT_EXPECT_STR(u, lint_str("kernel {\n}\n", NULL), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.kprobes.x.enable\n", NULL),
			"1:22:E:event");
	UNIT_EXPECT_STR(u, lint_str("ftrace.cpumask = ff,0000000f\n", NULL),
			"1:21:W:array");
}

static void test_parse_error(struct unit *u)
{
	UNIT_EXPECT_STR(u, lint_str("a = 1\na = 2\n", NULL), "2:5:E:parse");
	UNIT_EXPECT_STR(u, lint_msg("a = 1\na = 2\n", NULL), "Value is redefined");
	UNIT_EXPECT_STR(u, lint_str("ftrace.tracer = \"nop\n", NULL),
			"2:1:E:parse");
}

#define T(s) s, sizeof(s) - 1

/*
 * What the kernel reads differently from the file: text after a NUL, a
 * UTF-8 byte order mark, UTF-16.
 */
static void test_encoding(struct unit *u)
{
	UNIT_EXPECT_STR(u, lint_strn(T("kernel.quiet\n\0ftrace.tracer = x\n"),
				     NULL), "2:1:E:nul-byte");
	UNIT_EXPECT_STR(u, lint_last_msg(T("kernel.quiet\n\0ftrace.tracer = x\n")),
			"a NUL byte before the end of the file: the kernel stops reading at this byte: 18 bytes after it are ignored");
	/* at its line and column, after the other findings */
	UNIT_EXPECT_STR(u, lint_strn(T("a = 1\nkernel.b = 2\0c = 3\n"), NULL),
			"1:1:W:top-level|2:13:E:nul-byte");
	/* a parse error before it: both */
	UNIT_EXPECT_STR(u, lint_strn(T("a = 1\na = 2\n\0c\n"), NULL),
			"2:5:E:parse|3:1:E:nul-byte");
	/* NULs at the end are padding: nothing lost */
	UNIT_EXPECT_STR(u, lint_strn(T("kernel.quiet\n\0\0\0"), NULL), "");
	UNIT_EXPECT_STR(u, lint_strn(T("kernel.quiet\n\0"), NULL), "");
	/* a byte order mark: the parser's error, then the cause */
	UNIT_EXPECT_STR(u, lint_strn(T("\xef\xbb\xbfkernel.quiet\n"), NULL),
			"1:1:E:parse|1:1:E:encoding");
	UNIT_EXPECT_STR(u, lint_last_msg(T("\xef\xbb\xbfkernel.quiet\n")),
			"the file starts with a UTF-8 byte order mark, which the kernel reads as part of the first key: remove the byte order mark");
	/* UTF-16: one finding, whatever the parser would say */
	UNIT_EXPECT_STR(u, lint_strn(T("\xff\xfek\0=\0x\0\n\0"), NULL),
			"1:1:E:encoding");
	UNIT_EXPECT_STR(u, lint_last_msg(T("\xff\xfek\0=\0x\0\n\0")),
			"the file is UTF-16: the kernel reads bytes, up to the first NUL byte (here 3 of the 10 bytes): convert the file to UTF-8/ASCII (iconv -f UTF-16 -t UTF-8)");
	UNIT_EXPECT_STR(u, lint_strn(T("\xfe\xff\0k\0=\0x\0\n"), NULL),
			"1:1:E:encoding");
	UNIT_EXPECT_STR(u, lint_strn(T("k\0=\0x\0\n\0"), NULL), "1:1:E:encoding");
	UNIT_EXPECT(u, strstr(lint_last_msg(T("k\0=\0x\0\n\0")), "-f UTF-16LE "));
	UNIT_EXPECT_STR(u, lint_strn(T("\0k\0=\0x\0\n"), NULL), "1:1:E:encoding");
	UNIT_EXPECT(u, strstr(lint_last_msg(T("\0k\0=\0x\0\n")), "-f UTF-16BE "));
	/* not UTF-16: too short to tell, or not every other byte */
	UNIT_EXPECT_STR(u, lint_strn(T("k\n\0"), NULL), "1:1:W:top-level");
	UNIT_EXPECT_STR(u, lint_strn(T("kernel.quiet\n\0\0x"), NULL),
			"2:1:E:nul-byte");
}

static void test_limits(struct unit *u)
{
	char key[256] = "a", *big;
	int i;

	for (i = 1; i < 16; i++)
		strcat(key, ".a");
	strcat(key, " = 1\n");
	UNIT_EXPECT_STR(u, lint_str(key, NULL), "1:1:W:top-level|1:31:E:key-depth");
	UNIT_EXPECT_STR(u, lint_str(key, kn_long), "1:1:W:top-level");
	big = malloc(32768);
	UNIT_EXPECT(u, big != NULL);
	if (!big)
		return;
	memset(big, '#', 32767);
	memcpy(big, "kernel.x = 1\n", 13);
	big[32766] = '\n';
	big[32767] = '\0';
	UNIT_EXPECT_STR(u, lint_str(big, NULL), "2:32750:E:size");
	free(big);
}

static void test_long(struct unit *u)
{
	char text[600];

	snprintf(text, sizeof(text), "ftrace.event.a.b.filter = \"%0300d\"\n", 1);
	UNIT_EXPECT_STR(u, lint_str(text, NULL), "1:27:W:long-setting");
	UNIT_EXPECT_STR(u, lint_str(text, kn_long), "1:14:W:module-event");
	snprintf(text, sizeof(text),
		 "ftrace.event.sched.sched_switch.actions = \"traceoff if next_pid > %0280d\"\n", 1);
	UNIT_EXPECT_STR(u, lint_str(text, kn_nolong), "1:43:E:long-setting");
	UNIT_EXPECT_STR(u, lint_str(text, kn_long), "");
	snprintf(text, sizeof(text),
		 "ftrace.event.sched.sched_switch.hist {\n keys = next_pid\n filter = \"%0250d\"\n}\n", 1);
	UNIT_EXPECT_STR(u, lint_str(text, kn_nolong), "1:33:E:long-setting");
	snprintf(text, sizeof(text),
		 "ftrace.event.kprobes.k.probes = \"vfs_read %0240d\"\n", 1);
	UNIT_EXPECT_STR(u, lint_str(text, kn_nolong), "1:33:E:long-setting");
}

static void test_knowledge(struct unit *u)
{
	const struct lint_knowledge *k = kn_nolong;

	UNIT_EXPECT_STR(u, lint_str("ftrace.tracer = functoin\n", k), "1:17:E:tracer");
	UNIT_EXPECT_STR(u, lint_msg("ftrace.tracer = functoin\n", k),
			"kernel test-key has no tracer 'functoin': did you mean 'function'?");
	UNIT_EXPECT_STR(u, lint_str("ftrace.trace_clock = glbal\n", k), "1:22:E:clock");
	UNIT_EXPECT_STR(u, lint_str("ftrace.options = sym-addr, nosym-addr, bogus\n", k),
			"1:40:E:option");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_swtch.enable\n", k),
			"1:20:E:event");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.enable\n", k), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.schd.sched_switch.enable\n", k),
			"1:14:E:event");
	/* With the module-events patch an unknown group may come with a module. */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.schd.sched_switch.enable\n"
				    "ftrace.event.sched.sched_swtch.enable\n", kn_long),
			"1:14:W:module-event|2:20:E:event");
	/* Events of the build's modules: kept with the patch, failed without. */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sample-trace.foo_bar.enable\n"
				    "ftrace.event.sample-trace.nope.enable\n", kn_long),
			"1:14:N:module-event|2:27:E:event");
	UNIT_EXPECT_STR(u, lint_msg("ftrace.event.sample-trace.foo_bar.enable\n", kn_long),
			"event group 'sample-trace' comes with module trace-events-sample: the kernel applies these settings when it is loaded");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sample-trace.foo_bar.enable\n", kn_nolong),
			"1:14:E:module-event");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.schd {\n a.enable\n b.enable\n}\n", k),
			"1:14:E:event");
	UNIT_EXPECT_STR(u, lint_str("ftrace.events = sched:sched_switch, sched:x, \"sched:*\", irq, irqq\n", k),
			"1:37:E:event|1:62:E:event");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_switch.filter = \"next_pid < 3 && prevpid == 1\"\n", k),
			"1:59:E:filter-field");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_switch.filter = \"common_pid < 3 && comm == 'x'\"\n", k),
			"");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.kprobes.k.probes = \"nosuch $arg1\"\n"
				    "ftrace.event.kprobes.r.probes = \"vfs_read%return $retval\"\n", k),
			"1:33:E:kprobe-symbol");
	UNIT_EXPECT_STR(u, lint_str("ftrace.ftrace.filters = vfs_read, nosuch, \"vfs_*\"\n", k),
			"1:35:E:ftrace-filter");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.synthetic.s {\n fields = \"u64 lat\", \"char comm[16]\"\n"
				    " filter = \"lat > 1 && comm == x && bad < 2\"\n enable\n}\n", k),
			"3:36:E:filter-field");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_switch.hist {\n"
				    " keys = nextpid, prev_pid.execname, common_pid\n"
				    " values = hitcount, $x, v\n sort = hitcount.descending\n"
				    " var.v = prev_pid\n filter = \"nxt > 1\"\n}\n", k),
			"2:9:E:hist-field|6:12:E:filter-field");
	UNIT_EXPECT_STR(u, lint_str("kernel.quiet\nkernel.trace_clock = global\n"
				    "kernel.nosuch = 1\nkernel.mod.param = 1\nkernel.console = ttyS0\n", k),
			"1:8:E:early-param|3:8:W:unknown-param");
}

/* Actions, as trigger_process_regex() and the trigger parsers read them. */
static void test_actions(struct unit *u)
{
	const struct lint_knowledge *k = kn_nolong;

	/* the command, with a did-you-mean; an empty action */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = traceof, \"\", \"!\", \":1\"\n",
				    NULL), "1:28:E:action|1:37:E:action|1:41:E:action|1:46:E:action");
	UNIT_EXPECT_STR(u, lint_msg("ftrace.event.a.b.actions = traceof\n", NULL),
			"'traceof' is not a trigger command: the kernel fails the action; did you mean 'traceoff'?");
	/* counts: kstrtoul(..., 0, ...); else "if FILTER" */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = \"traceon:0x1f\", \"snapshot:017\", "
				    "\"stacktrace 3:x\", \"!traceon:junk\", \"traceoff:+1\"\n", NULL),
			"1:95:E:action");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = \"traceon:09\", \"traceoff:0x\", "
				    "\"snapshot:18446744073709551616\", \"stacktrace:abc\"\n", NULL),
			"1:28:E:action|1:42:E:action|1:57:E:action|1:90:E:action");
	UNIT_EXPECT_STR(u, lint_msg("ftrace.event.a.b.actions = \"stacktrace:abc\"\n", NULL),
			"'abc' after 'stacktrace' is not a count or 'if FILTER': the kernel fails the action");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = \"traceon:18446744073709551615\"\n",
				    NULL), "");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = \"traceon if\", \"traceoff:1 if  \", "
				    "\"snapshot iff x > 1\"\n", NULL),
			"1:28:E:action|1:42:E:action|1:61:E:action");
	/* enable_event & co: SYSTEM:EVENT[:COUNT] [if FILTER] */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = enable_event, \"enable_event:a\", "
				    "\"enable_hist:a:\", \"disable_event:a:b:\", \"disable_hist:a:b:x\"\n",
				    NULL),
			"1:28:E:action|1:42:E:action|1:60:E:action|1:78:E:action|1:100:E:action");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_wakeup.actions = "
				    "\"enable_event:sched:sched_swtch\", \"enable_event:schd:x\", "
				    "\"enable_hist:sched:sched_switch:5 if pidd > 1\", "
				    "\"!disable_event:irq:nope\", \"disable_event:irq:irq_handler_entry:0x10\", "
				    "\"enable_event:sample-trace:foo_bar\"\n", k),
			"1:43:E:event|1:77:E:event|1:137:E:filter-field|1:148:E:event|1:219:E:action");
	/* one trigger per type (and target); '!' removes one */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.a.b.actions = traceon, traceoff, \"!traceon\", "
				    "\"traceoff:1\", \"enable_event:a:c\", \"disable_event:a:c\", "
				    "\"enable_event:a:d\", \"enable_hist:a:c\"\n", NULL),
			"1:37:E:action|1:93:E:action");
	/* kprobe and synthetic events: defined before the action, in trace_boot's order */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.kprobes.a.probes = vfs_read\n"
				    "ftrace.event.kprobes.b.actions = \"enable_event:kprobes:a\", "
				    "\"enable_event:kprobes:c\", \"enable_event:synthetic:s\", "
				    "\"disable_event:kprobes:x\"\n"
				    "ftrace.event.kprobes.b.probes = vfs_write\n"
				    "ftrace.event.kprobes.c.probes = vfs_write\n"
				    "ftrace.event.synthetic.s.fields = \"u64 x\"\n"
				    "ftrace.instance.i.event.irq.irq_handler_entry.actions = \"enable_event:synthetic:s\"\n",
				    NULL), "2:60:E:action|2:86:E:action|2:114:E:event");
	/* hist actions are the kernel's; stacktrace needs CONFIG_STACKTRACE */
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_switch.actions = \"hist:keys=nope\", stacktrace\n",
				    k), "1:61:E:action");
	UNIT_EXPECT_STR(u, lint_str("ftrace.event.sched.sched_switch.actions = \"hist:keys=nope\", stacktrace\n",
				    NULL), "");
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
}

static void make_kn(const char *dir, bool long_settings)
{
	char info[256];

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		perror(dir);
		exit(2);
	}
	snprintf(info, sizeof(info),
		 "key=test-key\ntree=linux-source-6.1\nseries=%s\nlong_settings=%s\n",
		 long_settings ? "0003-bootconfig-Allow-composing-keys-of-XBC_DEPTH_MAX-words.patch 0012-tracing-boot-Apply-the-settings-of-module-events-when-the-module-is-loaded.patch" : "",
		 long_settings ? "yes" : "no");
	write_file(dir, "info", info);
	write_file(dir, "symbols", "do_one_initcall\nvfs_open\nvfs_read\nvfs_write\n");
	write_file(dir, "events",
		   "irq irq_handler_entry common_type common_pid irq name\n"
		   "sched sched_switch common_type common_pid prev_comm prev_pid next_comm next_pid\n"
		   "sched sched_wakeup common_type common_pid comm pid\n");
	write_file(dir, "tracers", "function\nfunction_graph\nnop\n");
	write_file(dir, "clocks", "local\nglobal\ncounter\n");
	write_file(dir, "options", "sym-addr\nsym-offset\nprint-parent\n");
	write_file(dir, "params", "console setup\nquiet early\ntrace_clock setup\n");
	write_file(dir, "module-events",
		   "sample-trace foo_bar trace-events-sample\n"
		   "sample-trace foo_bar_with_cond trace-events-sample\n");
}

static void test_load_errors(struct unit *u)
{
	struct lint_knowledge *k = NULL;
	const char *why = NULL;

	UNIT_EXPECT_INT(u, lint_knowledge_load("/nonexistent-kn", &k, &why), -ENOENT);
	UNIT_EXPECT_STR(u, why, "info");
}

static void test_json(struct unit *u)
{
	const char *text = "ftrace.tracr = \"a\\b\"\n";
	struct lint_result r;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	UNIT_EXPECT(u, f && bconf_lint(text, strlen(text), kn_nolong, &r) == 0);
	if (!f)
		return;
	lint_print_json(f, "x.bconf", kn_nolong, &r);
	fclose(f);
	UNIT_EXPECT(u, strstr(buf, "\"schema\":\"boottrace-lint-1\"") != NULL);
	UNIT_EXPECT(u, strstr(buf, "\"line\":1,\"col\":8,\"severity\":\"error\",\"rule\":\"unknown-key\",\"key\":\"ftrace.tracr\"") != NULL);
	UNIT_EXPECT(u, strstr(buf, "\"errors\":1,\"warnings\":0") != NULL);
	free(buf);
	lint_result_free(&r);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_grammar),
	UNIT_CASE(test_memparse),
	UNIT_CASE(test_json_string),
	UNIT_CASE(test_distance),
	UNIT_CASE(test_clean),
	UNIT_CASE(test_unknown_key),
	UNIT_CASE(test_values),
	UNIT_CASE(test_parse_error),
	UNIT_CASE(test_encoding),
	UNIT_CASE(test_limits),
	UNIT_CASE(test_long),
	UNIT_CASE(test_knowledge),
	UNIT_CASE(test_actions),
	UNIT_CASE(test_load_errors),
	UNIT_CASE(test_json),
};

int main(void)
{
	char d1[] = "/tmp/lint-kn-XXXXXX", d2[64], d3[64], cmd[256];
	const char *why = "";
	int ret;

	if (!mkdtemp(d1))
		return 2;
	snprintf(d2, sizeof(d2), "%s/nolong", d1);
	snprintf(d3, sizeof(d3), "%s/long", d1);
	make_kn(d2, false);
	make_kn(d3, true);
	if (lint_knowledge_load(d2, &kn_nolong, &why) < 0 ||
	    lint_knowledge_load(d3, &kn_long, &why) < 0) {
		fprintf(stderr, "cannot load the test knowledge (%s)\n", why);
		return 2;
	}
	ret = UNIT_RUN_ARRAY(cases);
	lint_knowledge_free(kn_nolong);
	lint_knowledge_free(kn_long);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d1);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", d1);
	return ret;
}
