// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: lint arbitrary text without and with a kernel
 * knowledge directory ($LINT_FUZZ_KNOWLEDGE, optional).  make lint-fuzz.
 */
#include <stdint.h>
#include <stdlib.h>

#include "lint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lint_knowledge *k;
	static int loaded;
	struct lint_result r;
	FILE *null;

	if (!loaded) {
		const char *dir = getenv("LINT_FUZZ_KNOWLEDGE");

		loaded = 1;
		if (dir && lint_knowledge_load(dir, &k, NULL) < 0)
			abort();
	}
	null = fopen("/dev/null", "w");
	if (!null)
		return 0;
	if (bconf_lint((const char *)data, size, NULL, &r) == 0) {
		lint_print(null, "f", (const char *)data, size, &r, true);
		lint_print_json(null, "f", NULL, &r);
		lint_result_free(&r);
	}
	if (k && bconf_lint((const char *)data, size, k, &r) == 0) {
		lint_print(null, "f", (const char *)data, size, &r, true);
		lint_print_json(null, "f", k, &r);
		lint_result_free(&r);
	}
	fclose(null);
	return 0;
}
