// SPDX-License-Identifier: GPL-2.0
/*
 * trace-analysis - answers from a boottrace bundle: report, diff, check.
 * One verb per file (report.c, diff.c, check.c), each with its own options
 * and --help; this file only dispatches (cli.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

static const struct verb {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
	bool reads_trace;	/* reads trace.dat: wants huge_page_heap() */
} verbs[] = {
	{ "report", report_main,
	  "what was slow, traced, lost and failed in one bundle", true },
	{ "diff", diff_main,
	  "compare two bundles; exit 1 on a regression", true },
	{ "check", check_main,
	  "verify a bundle against an expectations file", true },
	{ "verdict", verdict_main,
	  "the kernel's bootconfig verdict from a new bundle's dmesg", false },
};

/*
 * libtracecmd 3.1 keeps every decompressed chunk of a compressed trace.dat
 * until the handle is closed, so reading one touches fresh heap for the
 * whole uncompressed trace; on 4 KiB pages that is a page fault per 4 KiB
 * (17,000 of them, most of the reading time, on the 2.2M-record bench
 * bundle; trace-analysis/README.md).  glibc backs its heap with transparent
 * huge pages when the glibc.malloc.hugetlb tunable is 1, which it reads
 * only at start-up: set it and run again, once.  If the exec fails, go on
 * as we are.
 */
static void huge_page_heap(char **argv)
{
	const char *t = getenv("GLIBC_TUNABLES");
	char *v;

	if (t && strstr(t, "glibc.malloc.hugetlb"))
		return;
	v = t && *t ? xasprintf("%s:glibc.malloc.hugetlb=1", t) :
		      xstrdup("glibc.malloc.hugetlb=1");
	if (!setenv("GLIBC_TUNABLES", v, 1))
		execv("/proc/self/exe", argv);
	free(v);
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: trace-analysis VERB [OPTIONS] ARGS...\n\n", f);
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		fprintf(f, "  %-8s %s\n", verbs[i].name, verbs[i].summary);
	fputs("\n`trace-analysis VERB --help` shows a verb's options.\n"
	      "Exit status: 0 fine, 1 a failed setting / regression / unmet "
	      "expectation,\n2 an error (bad arguments, not a bundle, "
	      "unreadable files).\n", f);
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_ERROR;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0)
			for (i = 0; i < ARRAY_SIZE(verbs); i++)
				if (!strcmp(argv[2], verbs[i].name)) {
					char *v[] = { argv[2], "--help", NULL };

					return verbs[i].main(2, v);
				}
		usage(stdout);
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		if (!strcmp(argv[1], verbs[i].name)) {
			/* getopt's messages start "trace-analysis VERB: " */
			static char prog[64];

			if (verbs[i].reads_trace)
				huge_page_heap(argv);
			snprintf(prog, sizeof(prog), "trace-analysis %s",
				 verbs[i].name);
			argv[1] = prog;
			return verbs[i].main(argc - 1, argv + 1);
		}
	fprintf(stderr, "trace-analysis: unknown verb '%s' (", argv[1]);
	for (i = 0; i < ARRAY_SIZE(verbs); i++)
		fprintf(stderr, "%s%s", i ? ", " : "", verbs[i].name);
	fputs("; see --help)\n", stderr);
	return EXIT_ERROR;
}
