/* SPDX-License-Identifier: GPL-2.0 */
/* output.h - renderers of an analysis: text, JSON, SVG, Perfetto. */
#ifndef TA_OUTPUT_H
#define TA_OUTPUT_H

#include <stdio.h>

#include "analysis.h"

struct report_opts {
	size_t top;		/* rows of the initcall and hist tables */
};

void report_text(const struct analysis *a, const struct report_opts *o,
		 FILE *f);
void report_json(const struct analysis *a, FILE *f);
/* 0, or -errno when the file cannot be written. */
int write_svg(const struct analysis *a, const char *path);
int write_perfetto(const struct analysis *a, const char *path);

/* Initcall indexes sorted by duration, longest first (caller frees). */
size_t *initcalls_by_duration(const struct initcall *ic, size_t n);
/* Seconds as "%.6f" from ns. */
double ns_to_s(uint64_t ns);
/* Row indexes of @h by its ranking value, descending (free them). */
size_t *hist_by_value(const struct hist *h);

#endif /* TA_OUTPUT_H */
