// SPDX-License-Identifier: GPL-2.0
/* test_hist.c - the hist text parser on fixtures and broken input. */
#include <errno.h>
#include <stdlib.h>

#include "hist.h"
#include "unit.h"
#include "util.h"

static int load(struct unit *u, const char *name, struct hist_set *hs)
{
	char *path = xasprintf("fixtures/hist/%s", name), *buf;
	struct hist_error err;
	size_t len;
	int r;

	r = bconf_read_file(path, 1 << 20, &buf, &len);
	UNIT_EXPECT_INT(u, r, 0);
	free(path);
	if (r)
		return r;
	r = hist_parse(buf, len, hs, &err);
	if (r)
		fprintf(stderr, "%s: line %u: %s\n", name, err.line, err.msg);
	free(buf);
	return r;
}

static int parse_str(const char *s, struct hist_set *hs, struct hist_error *e)
{
	return hist_parse(s, strlen(s), hs, e);
}

static void test_synth_latency(struct unit *u)
{
	struct hist_set hs;
	const struct hist *h;
	const struct hist_entry *e;

	if (load(u, "synth-latency.hist", &hs)) {
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, hs.n, 1);
	h = &hs.hists[0];
	UNIT_EXPECT_STR(u, h->trigger,
		   "hist:keys=func.sym,lat:vals=hitcount,lat:sort=lat:size=2048");
	UNIT_EXPECT(u, !h->paused);
	UNIT_EXPECT_INT(u, h->nkey_specs, 2);
	UNIT_EXPECT_STR(u, h->key_specs[0], "func.sym");
	UNIT_EXPECT_INT(u, h->nentries, 3);
	UNIT_EXPECT_INT(u, h->hits, 3);
	UNIT_EXPECT_INT(u, h->dropped, 0);
	e = &h->entries[1];
	UNIT_EXPECT_INT(u, e->nkeys, 2);
	UNIT_EXPECT_STR(u, e->keys[0].name, "func");
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_SYM);
	UNIT_EXPECT_STR(u, e->keys[0].text, "pci_subsys_init");
	UNIT_EXPECT(u, e->keys[0].num == 0xffffffff81f4a3b0ull);
	UNIT_EXPECT_INT(u, e->keys[1].kind, HK_NUMBER);
	UNIT_EXPECT_INT(u, e->keys[1].num, 1234);
	UNIT_EXPECT_INT(u, e->hitcount, 1);
	UNIT_EXPECT_INT(u, e->nvals, 1);
	UNIT_EXPECT_STR(u, e->vals[0].name, "lat");
	UNIT_EXPECT_INT(u, hist_entry_val(e, "lat")->num, 1234);
	UNIT_EXPECT_INT(u, hist_entry_key(e, "lat")->num, 1234);
	UNIT_EXPECT(u, !hist_entry_key(e, "nope"));
	hist_set_free(&hs);
}

static void test_execname_string(struct unit *u)
{
	struct hist_set hs;
	const struct hist_entry *e;
	char *t;

	if (load(u, "execname-string.hist", &hs)) {
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, hs.n, 2);
	e = &hs.hists[0].entries[0];
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_EXECNAME);
	UNIT_EXPECT_STR(u, e->keys[0].text, "systemd");
	UNIT_EXPECT_INT(u, e->keys[0].num, 1);
	UNIT_EXPECT_INT(u, e->keys[1].kind, HK_STRING);
	UNIT_EXPECT_STR(u, e->keys[1].text, "systemd");
	UNIT_EXPECT_INT(u, e->hitcount, 12);
	e = &hs.hists[0].entries[1];
	UNIT_EXPECT_STR(u, e->keys[0].text, "kworker/u4:0");
	UNIT_EXPECT_INT(u, e->keys[0].num, 7);
	/* a string holding ", comm:" and "}" stays one value */
	UNIT_EXPECT_STR(u, e->keys[1].text, "my, comm: odd}");
	t = hist_entry_key_text(e);
	UNIT_EXPECT_STR(u, t, "kworker/u4:0[7], my, comm: odd}");
	free(t);
	UNIT_EXPECT_STR(u, hs.hists[1].name, "tasks");
	UNIT_EXPECT(u, hs.hists[1].paused);
	UNIT_EXPECT_INT(u, hs.hists[1].nentries, 8);
	UNIT_EXPECT_INT(u, hs.hists[1].dropped, 12);
	UNIT_EXPECT_INT(u, hs.hists[1].entries[7].keys[0].num, 107);
	hist_set_free(&hs);
}

static void test_modifiers(struct unit *u)
{
	struct hist_set hs;
	const struct hist_entry *e;

	if (load(u, "modifiers.hist", &hs)) {
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, hs.n, 3);
	e = &hs.hists[0].entries[0];
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_LOG2);
	UNIT_EXPECT_INT(u, e->keys[0].num, 5);
	UNIT_EXPECT_INT(u, e->vals[0].kind, HV_PERCENT);
	UNIT_EXPECT_STR(u, e->vals[0].name, "bytes_alloc");
	UNIT_EXPECT_INT(u, e->vals[0].num, 1205);
	UNIT_EXPECT_INT(u, hs.hists[0].entries[1].keys[0].num, 12);
	e = &hs.hists[1].entries[0];
	UNIT_EXPECT_INT(u, e->nkeys, 3);
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_BUCKET);
	UNIT_EXPECT_INT(u, e->keys[0].num, 0);
	UNIT_EXPECT_INT(u, e->keys[0].num2, 99);
	UNIT_EXPECT_INT(u, e->keys[1].kind, HK_SYM_OFFSET);
	UNIT_EXPECT_STR(u, e->keys[1].text, "kmalloc_trace+0x2a/0x40");
	UNIT_EXPECT_INT(u, e->keys[2].kind, HK_HEX);
	UNIT_EXPECT_INT(u, e->keys[2].num, 0xcc0);
	UNIT_EXPECT_INT(u, e->hitcount, 4);
	UNIT_EXPECT_INT(u, hist_entry_val(e, "ptr")->num, 0xdeadbeef);
	UNIT_EXPECT_INT(u, hist_entry_val(e, "size")->kind, HV_GRAPH);
	UNIT_EXPECT_INT(u, hist_entry_val(e, "size")->num, 20);
	UNIT_EXPECT_INT(u, hist_entry_val(&hs.hists[1].entries[1], "size")->num, 5);
	UNIT_EXPECT_INT(u, hist_entry_val(&hs.hists[1].entries[1], "ptr")->num,
		   0xabc);
	e = &hs.hists[2].entries[0];
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_SYSCALL);
	UNIT_EXPECT_STR(u, e->keys[0].text, "sys_read");
	UNIT_EXPECT_INT(u, e->keys[0].num, 0);
	UNIT_EXPECT_INT(u, e->hitcount, 40);
	hist_set_free(&hs);
}

static void test_handlers_stack(struct unit *u)
{
	struct hist_set hs;
	const struct hist_entry *e;

	if (load(u, "handlers-stack.hist", &hs)) {
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, hs.n, 2);
	e = &hs.hists[0].entries[0];
	UNIT_EXPECT_INT(u, e->keys[0].num, 2255);
	UNIT_EXPECT_INT(u, e->hitcount, 3);
	UNIT_EXPECT_STR(u, e->extra, "max:        123  next_comm: cyclictest"
		   "                        prev_pid:          0");
	e = &hs.hists[1].entries[0];
	UNIT_EXPECT_INT(u, e->keys[0].kind, HK_STACK);
	UNIT_EXPECT_STR(u, e->keys[0].text, "__kmalloc+0x11b/0x1b0;"
		   "do_one_initcall+0x41/0x200;"
		   "kernel_init_freeable+0x1d4/0x240");
	UNIT_EXPECT_INT(u, e->hitcount, 6);
	hist_set_free(&hs);
}

static void test_empty_hist(struct unit *u)
{
	struct hist_set hs;

	if (load(u, "empty.hist", &hs)) {
		u->failed = 1;
		return;
	}
	UNIT_EXPECT_INT(u, hs.n, 1);
	UNIT_EXPECT_INT(u, hs.hists[0].nentries, 0);
	UNIT_EXPECT(u, hs.hists[0].have_totals);
	hist_set_free(&hs);
}

static void expect_error(struct unit *u, const char *text, unsigned int line,
			 const char *what)
{
	struct hist_set hs;
	struct hist_error err;
	int r = parse_str(text, &hs, &err);

	UNIT_EXPECT_INT(u, r, -EINVAL);
	if (r)  {
		UNIT_EXPECT_INT(u, err.line, line);
		if (!strstr(err.msg, what)) {
			fprintf(stderr, "  message \"%s\" lacks \"%s\"\n",
				err.msg, what);
			u->failed = 1;
		}
	} else {
		hist_set_free(&hs);
	}
}

#define HDR "# event histogram\n#\n# trigger info: hist:keys=pid:vals=" \
	    "hitcount:size=8 [active]\n#\n\n"

static void test_errors(struct unit *u)
{
	expect_error(u, "", 0, "no histogram");
	expect_error(u, "garbage\n", 1, "expected '# event histogram'");
	expect_error(u, HDR "{ pid: 1 } hitcount: 1\n", 6, "no Totals");
	expect_error(u, HDR "{ pid: 1 } hitcount: 1\n\nTotals:\n    Hits: 1\n",
		     10, "missing 'Entries:'");
	expect_error(u, HDR "{ pid: 1 } hitcount: 1\n\nTotals:\n    Hits: 1\n"
		     "    Entries: 2\n    Dropped: 0\n", 8, "but 1 entries");
	expect_error(u, HDR "{ pid: 1 } hitcount: x\n", 6, "not a number");
	expect_error(u, HDR "{ pid: 1 } count: 1\n", 6, "no '} hitcount:'");
	expect_error(u, HDR "{ pid: 1 } hitcount: 1 lat\n", 6, "expected 'name:");
	expect_error(u, HDR "{ pid: 1 } lat: 3 hitcount: 1\n", 6, "") ;
	expect_error(u, HDR "{ } hitcount: 1\n", 6, "entry without keys");
	expect_error(u, HDR "{ =1 } hitcount: 1\n", 6, "expected 'name:'");
	expect_error(u, HDR "hello world\n", 6, "not a hist entry");
	expect_error(u, HDR "Totals:\n    Hits: 0\n    Entries: 0\n"
		     "    Dropped: 0\nmore\n", 10, "after Totals");
	expect_error(u, HDR "# event histogram\n", 6, "previous one");
	{
		struct hist_set hs;
		struct hist_error err;
		static const char bin[] = "# event histogram\n\0xx";

		UNIT_EXPECT_INT(u, hist_parse(bin, sizeof(bin) - 1, &hs, &err),
			   -EINVAL);
		UNIT_EXPECT(u, strstr(err.msg, "NUL") != NULL);
	}
}

static void test_no_trigger_line(struct unit *u)
{
	/* without "# trigger info" keys are found by their "name:" */
	static const char t[] = "# event histogram\n"
		"{ common_pid: bash            [       123], "
		"func: [ffffffff810001a0] foo_bar } hitcount:          2"
		"  lat:         10\n\nTotals:\n    Hits: 2\n    Entries: 1\n"
		"    Dropped: 0\n";
	struct hist_set hs;
	struct hist_error err;

	UNIT_EXPECT_INT(u, parse_str(t, &hs, &err), 0);
	UNIT_EXPECT_INT(u, hs.n, 1);
	if (hs.n != 1) {
		hist_set_free(&hs);
		return;
	}
	UNIT_EXPECT_INT(u, hs.hists[0].entries[0].keys[0].kind, HK_EXECNAME);
	UNIT_EXPECT_STR(u, hs.hists[0].entries[0].keys[0].text, "bash");
	UNIT_EXPECT_INT(u, hs.hists[0].entries[0].keys[0].num, 123);
	UNIT_EXPECT_STR(u, hs.hists[0].entries[0].keys[1].text, "foo_bar");
	UNIT_EXPECT_INT(u, hs.hists[0].entries[0].vals[0].num, 10);
	hist_set_free(&hs);
}

/* Recorded from a boot of examples/default.bconf (6.1, QEMU TCG). */
static void test_real_boot(struct unit *u)
{
	struct hist_set hs;
	const struct hist *h;
	size_t i, zero = 0;

	if (load(u, "real-synthetic-latency.hist", &hs)) {
		u->failed = 1;
		return;
	}
	h = &hs.hists[0];
	UNIT_EXPECT_INT(u, h->nentries, 263);
	UNIT_EXPECT_INT(u, h->hits, 263);
	for (i = 0; i < h->nentries; i++) {
		UNIT_EXPECT_INT(u, h->entries[i].keys[0].kind, HK_SYM);
		UNIT_EXPECT_INT(u, h->entries[i].keys[1].num,
			   hist_entry_val(&h->entries[i], "lat")->num);
		zero += !strcmp(h->entries[i].keys[0].text, "");
	}
	UNIT_EXPECT_INT(u, zero, 0);
	UNIT_EXPECT_STR(u, h->entries[0].keys[0].text, "n_null_init");
	hist_set_free(&hs);
	if (load(u, "real-onmatch.hist", &hs)) {
		u->failed = 1;
		return;
	}
	h = &hs.hists[0];
	UNIT_EXPECT_INT(u, h->nentries, 263);
	UNIT_EXPECT_STR(u, h->key_specs[0], "func");
	UNIT_EXPECT(u, strstr(h->trigger, "onmatch(initcall.initcall_start)"));
	UNIT_EXPECT_INT(u, h->entries[0].keys[0].kind, HK_NUMBER);
	UNIT_EXPECT(u, h->entries[0].keys[0].num == 18446744071592319491ull);
	hist_set_free(&hs);
}

/* A blank handler line (found by the fuzzer: it leaked under ASan). */
static void test_blank_handler_line(struct unit *u)
{
	struct hist_set hs;
	struct hist_error err;

	UNIT_EXPECT_INT(u, parse_str(HDR "{ pid: 1 } hitcount: 1\n\t\n\nTotals:\n"
				"    Hits: 1\n    Entries: 1\n    Dropped: 0\n",
				&hs, &err), 0);
	UNIT_EXPECT_INT(u, hs.n, 1);
	if (hs.n != 1) {
		hist_set_free(&hs);
		return;
	}
	UNIT_EXPECT(u, hs.hists[0].entries[0].extra == NULL);
	hist_set_free(&hs);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_blank_handler_line),
	UNIT_CASE(test_real_boot),
	UNIT_CASE(test_synth_latency),
	UNIT_CASE(test_execname_string),
	UNIT_CASE(test_modifiers),
	UNIT_CASE(test_handlers_stack),
	UNIT_CASE(test_empty_hist),
	UNIT_CASE(test_errors),
	UNIT_CASE(test_no_trigger_line),
};

int main(void)
{
	return UNIT_RUN_ARRAY(cases);
}
