// SPDX-License-Identifier: GPL-2.0
/* ktap.c - KTAP version 1 output (ktap.h). */
#include "ktap.h"

#define INDENT "    "

/* Names and reasons on one line, without the '#' that starts a directive. */
static void text(FILE *f, const char *s)
{
	for (; s && *s; s++)
		fputc(*s == '#' ? '_' : *s == '\n' || *s == '\r' ? ' ' :
		      (unsigned char)*s < 0x20 ? '?' : *s, f);
}

void ktap_begin(FILE *f, const char *suite, size_t ncases)
{
	fputs("KTAP version 1\n1..1\n" INDENT "KTAP version 1\n"
	      INDENT "# Subtest: ", f);
	text(f, suite);
	fprintf(f, "\n" INDENT "1..%zu\n", ncases);
}

void ktap_case(FILE *f, size_t num, bool ok, const char *name,
	       const char *skip, const char *diag)
{
	if (diag) {
		fputs(INDENT "# ", f);
		text(f, diag);
		fputc('\n', f);
	}
	fprintf(f, INDENT "%s %zu ", ok ? "ok" : "not ok", num);
	text(f, name);
	if (skip) {
		fputs(" # SKIP ", f);
		text(f, skip);
	}
	fputc('\n', f);
}

void ktap_end(FILE *f, const char *suite, bool ok)
{
	fprintf(f, "%s 1 ", ok ? "ok" : "not ok");
	text(f, suite);
	fputc('\n', f);
}
