// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hist.c - libFuzzer harness for the hist text parser.  Besides memory
 * errors (ASan, UBSan) it checks the parser's promises: a successful parse
 * has at least one histogram, each with Totals whose Entries equals the
 * number of entries read, and every entry has at least one key.
 */
#include <stdint.h>
#include <stdlib.h>

#include "hist.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hist_set hs;
	struct hist_error err;
	size_t i, j;

	if (hist_parse((const char *)data, size, &hs, &err))
		return 0;
	if (!hs.n)
		abort();
	for (i = 0; i < hs.n; i++) {
		const struct hist *h = &hs.hists[i];

		if (!h->have_totals || h->total_entries != h->nentries)
			abort();
		for (j = 0; j < h->nentries; j++) {
			char *t = hist_entry_key_text(&h->entries[j]);

			if (!h->entries[j].nkeys)
				abort();
			free(t);
		}
	}
	hist_set_free(&hs);
	return 0;
}
