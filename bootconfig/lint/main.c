// SPDX-License-Identifier: GPL-2.0
/*
 * boottrace-lint - check a boot-time tracing config before booting it.
 *
 * Exit status: 0 no errors (warnings may be printed), 1 errors found,
 * 2 usage error or a file that cannot be read.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "lint.h"

static const char *prog = "boottrace-lint";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [--knowledge DIR] [--json] [--quiet] CONF.bconf...\n"
		"\n"
		"Check boot-time tracing configs the way the kernel will read them:\n"
		"parse errors (the kernel's messages), text after a NUL byte, a byte\n"
		"order mark or UTF-16, keys trace_boot does not read\n"
		"(with a did-you-mean), values that do not fit their key, and, with\n"
		"the knowledge of a kernel build: events and their fields, kprobe\n"
		"and ftrace filter symbols, tracers, clocks, options, kernel.*\n"
		"parameters (unknown or early), the 256-byte limit of kernels\n"
		"without the boottrace series; and the size and depth limits.\n"
		"Findings print as FILE:LINE:COL: error|warning: MESSAGE [RULE].\n"
		"\n"
		"  -k, --knowledge DIR  kernel knowledge (kernel/knowledge.sh prints it;\n"
		"                       `boottrace lint --kernel BUILD` finds it for you)\n"
		"  -j, --json           one JSON object per config (schema boottrace-lint-1)\n"
		"  -q, --quiet          no source lines under the findings, no notes\n"
		"  -h, --help           this help\n"
		"\n"
		"Exit status: 0 no errors (warnings allowed), 1 errors, 2 usage or I/O error.\n",
		prog);
}

/*
 * A config longer than the kernel takes is still read whole, so that lint
 * can report its size; beyond this it is not a config at all.
 */
#define LINT_FILE_MAX	(16u << 20)

static int lint_one(const char *path, const struct lint_knowledge *k,
		    bool json, bool quiet)
{
	struct lint_result r;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	ret = bconf_read_file(path, LINT_FILE_MAX, &buf, &len);
	if (ret < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(-ret));
		return 2;
	}
	ret = bconf_lint(buf, len, k, &r);
	if (ret < 0) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(-ret));
		free(buf);
		return 2;
	}
	if (json) {
		lint_print_json(stdout, path, k, &r);
	} else {
		lint_print(stdout, path, buf, len, &r, !quiet);
		if (r.skipped && !quiet && !r.parse_failed)
			fprintf(stderr, "%s: %s: note: skipped checks of %s\n",
				prog, path, r.skipped);
	}
	ret = r.errors ? 1 : 0;
	lint_result_free(&r);
	free(buf);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "knowledge", required_argument, NULL, 'k' },
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lint_knowledge *k = NULL;
	const char *kdir = NULL, *why = "";
	bool json = false, quiet = false;
	int c, i, ret = 0, one;

	while ((c = getopt_long(argc, argv, "k:jqh", opts, NULL)) != -1) {
		switch (c) {
		case 'k':
			kdir = optarg;
			break;
		case 'j':
			json = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "%s: no config given (see --help)\n", prog);
		return 2;
	}
	if (kdir) {
		int err = lint_knowledge_load(kdir, &k, &why);

		if (err < 0) {
			fprintf(stderr, "%s: %s/%s: %s (extract it with kernel/knowledge.sh)\n",
				prog, kdir, why, strerror(-err));
			return 2;
		}
	}
	for (i = optind; i < argc; i++) {
		one = lint_one(argv[i], k, json, quiet);
		if (one > ret)
			ret = one;
	}
	lint_knowledge_free(k);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: error writing to standard output\n", prog);
		return 2;
	}
	return ret;
}
