// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_diff.c - coverage-guided differential harness: every input goes to
 * the kernel's own parser and tool (the packaged tree's lib/bootconfig.c
 * and tools/bootconfig/main.c, compiled from the extracted tree with the
 * kernel's character classes, exactly as the tests/diff reference is) and
 * to our libbootconfig, through the two sides of tests/diff/runner.c; the
 * first field that differs (accept/reject, message, byte offset, line,
 * column, node count, -l output and diagnostics, tree output; judged by
 * tests/diff/judge.h, as the generated test judges) aborts the run with
 * both values, so libFuzzer keeps the input as a crash artifact.
 * Coverage of both parsers guides the mutations.
 *
 * Built by tests/diff/run.sh --build-fuzz (the tree's sources never enter
 * the repository); run by bootconfig/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

const struct sbuf *bt_ref_run(const char *buf, size_t len);
const struct sbuf *bt_lib_run(const char *buf, size_t len);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *buf;
	const struct sbuf *ref, *ours;
	int field;

	if (size > REQ_MAX)
		return 0;
	if (!buf) {
		buf = malloc(REQ_MAX + 1);
		if (!buf)
			abort();
	}
	memcpy(buf, data, size);
	buf[size] = '\0';
	ref = bt_ref_run(buf, size);
	ours = bt_lib_run(buf, size);
	field = res_first_diff(ref, ours);
	if (field < 0)
		return 0;
	fprintf(stderr, "DIFFERENCE in %s between the tree's parser (A) and ours (B), %zu bytes of input\n",
		res_field_name[field], size);
	res_describe(stderr, ref, ours, 2000);
	abort();
}
