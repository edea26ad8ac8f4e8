// SPDX-License-Identifier: GPL-2.0
/*
 * trace-analysis - answers from a boottrace bundle: report, diff, check.
 * Exit status: 0 fine, 1 a finding (failed setting, regression, unmet
 * expectation), 2 an error (bad arguments, unreadable input).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "diff.h"
#include "output.h"
#include "util.h"

static void usage(FILE *f)
{
	fputs("usage: trace-analysis report BUNDLE [--json] [--svg FILE] "
	      "[--perfetto FILE] [--top N]\n"
	      "       trace-analysis diff A B [--thresholds FILE] "
	      "[--[no-]normalize] [--json]\n"
	      "       trace-analysis check BUNDLE EXPECT [--json]\n"
	      "\n"
	      "report   initcall latency (trace.dat and latency histograms), "
	      "event and\n"
	      "         kprobe counts, histograms, buffers, data loss, and "
	      "whether every\n"
	      "         ftrace.* setting of the bootconfig was applied "
	      "(from the kernel's\n"
	      "         tracefs/boot_status when the bundle has it; exit 1 "
	      "when one failed\n"
	      "         or the kernel did not report it)\n"
	      "diff     per-initcall, per-event and per-hist-key differences "
	      "of two bundles;\n"
	      "         exit 1 when a difference exceeds its threshold "
	      "(regression)\n"
	      "check    verify a bundle against an expectations file; exit 1 "
	      "when one fails\n"
	      "\n"
	      "options:\n"
	      "  --json            machine-readable output on stdout "
	      "(schema: README.md)\n"
	      "  --svg FILE        initcall timeline as SVG\n"
	      "  --perfetto FILE   Chrome trace JSON for ui.perfetto.dev\n"
	      "  --top N           rows in the tables (default 20)\n"
	      "  --thresholds FILE per-pattern regression thresholds (diff)\n"
	      "  --normalize       scale B's initcall durations to A's speed "
	      "(median ratio);\n"
	      "                    default when a bundle booted under TCG\n"
	      "  --no-normalize    compare raw durations\n"
	      "  -h, --help        this help\n"
	      "\n"
	      "Exit status: 0 fine, 1 a failed setting / regression / unmet "
	      "expectation,\n"
	      "2 an error (bad arguments, not a bundle, unreadable files).\n",
	      f);
}

struct args {
	const char *pos[3];
	int npos;
	bool json;
	const char *svg, *perfetto, *thresholds;
	size_t top;
	int normalize;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "svg", required_argument, NULL, 's' },
		{ "perfetto", required_argument, NULL, 'p' },
		{ "top", required_argument, NULL, 't' },
		{ "thresholds", required_argument, NULL, 'T' },
		{ "normalize", no_argument, NULL, 'N' },
		{ "no-normalize", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t n;
	int c;

	memset(a, 0, sizeof(*a));
	a->top = 20;
	a->normalize = -1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j': a->json = true; break;
		case 's': a->svg = optarg; break;
		case 'p': a->perfetto = optarg; break;
		case 'T': a->thresholds = optarg; break;
		case 'N': a->normalize = 1; break;
		case 'n': a->normalize = 0; break;
		case 't':
			if (!parse_u64(optarg, 10, &n) || !n) {
				fprintf(stderr, "trace-analysis: --top needs a "
					"positive number, not '%s'\n", optarg);
				return -1;
			}
			a->top = (size_t)n;
			break;
		case 'h': usage(stdout); exit(0);
		default:
			fputs("trace-analysis: see --help\n", stderr);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (a->npos == 3) {
			fputs("trace-analysis: too many arguments (see "
			      "--help)\n", stderr);
			return -1;
		}
		a->pos[a->npos++] = argv[optind];
	}
	return 0;
}

static int load(const char *dir, struct analysis *an)
{
	char *err = NULL;

	if (analysis_load(dir, an, &err)) {
		fprintf(stderr, "trace-analysis: %s\n", err);
		free(err);
		return -1;
	}
	return 0;
}

static int cmd_report(const struct args *ar)
{
	struct report_opts o = { ar->top };
	struct analysis a;
	int r, rc = 0;

	if (ar->npos != 2) {
		fputs("trace-analysis: report needs one BUNDLE (see --help)\n",
		      stderr);
		return 2;
	}
	if (load(ar->pos[1], &a))
		return 2;
	if (ar->json)
		report_json(&a, stdout);
	else
		report_text(&a, &o, stdout);
	if (ar->svg) {
		r = write_svg(&a, ar->svg);
		if (r) {
			fprintf(stderr, "trace-analysis: %s: %s\n", ar->svg,
				r == -ENODATA ? "no initcalls in the bundle to "
				"draw (enable initcall:initcall_start/finish or "
				"record a latency histogram)" : strerror(-r));
			rc = 2;
		}
	}
	if (ar->perfetto) {
		r = write_perfetto(&a, ar->perfetto);
		if (r) {
			fprintf(stderr, "trace-analysis: %s: %s\n",
				ar->perfetto, strerror(-r));
			rc = 2;
		}
	}
	if (!rc && a.nerrors) {
		for (size_t i = 0; i < a.nproblems; i++)
			fprintf(stderr, "trace-analysis: %s: %s\n", a.path,
				a.problems[i]);
		rc = 2;
	}
	/* a setting the kernel's boot_status does not know is a finding */
	if (!rc && (analysis_failed_settings(&a) || a.nunattributed ||
		    analysis_count_settings(&a, SET_NOT_REPORTED)))
		rc = 1;
	analysis_free(&a);
	return rc;
}

static int cmd_diff(const struct args *ar)
{
	struct analysis a, b;
	int rc;

	if (ar->npos != 3) {
		fputs("trace-analysis: diff needs two bundles A B (see "
		      "--help)\n", stderr);
		return 2;
	}
	if (load(ar->pos[1], &a))
		return 2;
	if (load(ar->pos[2], &b)) {
		analysis_free(&a);
		return 2;
	}
	rc = diff_run(&a, &b, ar->thresholds, ar->normalize, ar->json,
		      stdout);
	analysis_free(&a);
	analysis_free(&b);
	return rc;
}

static int cmd_check(const struct args *ar)
{
	struct analysis a;
	int rc;

	if (ar->npos != 3) {
		fputs("trace-analysis: check needs BUNDLE and EXPECT (see "
		      "--help)\n", stderr);
		return 2;
	}
	if (load(ar->pos[1], &a))
		return 2;
	rc = check_run(&a, ar->pos[2], ar->json, stdout);
	analysis_free(&a);
	return rc;
}

int main(int argc, char **argv)
{
	struct args ar;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (parse_args(argc, argv, &ar))
		return 2;
	if (!ar.npos) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(ar.pos[0], "report"))
		return cmd_report(&ar);
	if (!strcmp(ar.pos[0], "diff"))
		return cmd_diff(&ar);
	if (!strcmp(ar.pos[0], "check"))
		return cmd_check(&ar);
	fprintf(stderr, "trace-analysis: unknown command '%s' (report, diff, "
		"check; see --help)\n", ar.pos[0]);
	return 2;
}
