// SPDX-License-Identifier: GPL-2.0
/*
 * verdict.c - `trace-analysis verdict`: what the kernel said about the
 * bootconfig, from a new bundle's dmesg.
 *
 * The host's last step (scripts/lib-bundle.sh, btb_finish_bundle) records
 * these lines in the bundle's metadata; the other verbs read them there.
 * It runs before the metadata is whole, so it reads only the kernel log:
 * DIR/dmesg, or DIR/console.log when the collector wrote no dmesg.  A
 * bundle of `boottrace collect` on a live system has no host to add them:
 * the bundle loader derives them with the same scan (verdict_line(),
 * verdict_status()) from its dmesg and proc/cmdline.
 *
 *	bootconfig_status=loaded|rejected|unknown|not-requested
 *	bootconfig_message=the kernel's bootconfig lines, joined with '|'
 *	trace_boot_errors=N	(lines with "trace_boot: ")
 *
 * loaded: "Load bootconfig:" with `bootconfig` on the command line;
 * rejected: another bootconfig message instead (bad checksum, too big,
 * parse error, requested but none found), or a corrupt trailer the kernel
 * complained about without being asked to apply it; unknown: requested and
 * no message at all; not-requested: not on the command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cli.h"
#include "util.h"

#define VERDICT_LOG_MAX	(64u << 20)

/* The kernel's bootconfig messages (init/main.c), as substrings. */
static bool bootconfig_line(const char *l)
{
	const char *p;

	if (strstr(l, "Load bootconfig:") || strstr(l, "bootconfig checksum failed") ||
	    strstr(l, "found on command line, but no bootconfig"))
		return true;
	p = strstr(l, "bootconfig size ");
	if (p && strstr(p, "greater"))
		return true;
	p = strstr(l, "Failed to ");
	return p && (!strncmp(p + 10, "parse bootconfig", 16) ||
		     !strncmp(p + 10, "init bootconfig", 15));
}

/* The line without its "\r" and its "[ seconds] " stamp. */
static char *message(char *l)
{
	size_t n = strlen(l);

	while (n && l[n - 1] == '\r')
		l[--n] = '\0';
	if (*l == '[') {
		char *e = strstr(l, "] ");

		if (e)
			l = e + 2;
	}
	return l;
}

static void usage(FILE *f)
{
	fputs("usage: trace-analysis verdict [--requested yes|no] DIR\n\n"
	      "The kernel's verdict on the bootconfig, from the kernel log of the\n"
	      "bundle directory DIR (DIR/dmesg, else DIR/console.log), as the\n"
	      "metadata lines the bundle records (docs/bundle.md):\n"
	      "  bootconfig_status=loaded|rejected|unknown|not-requested\n"
	      "  bootconfig_message=the kernel's bootconfig messages, '|'-joined\n"
	      "  trace_boot_errors=N   (dmesg lines with \"trace_boot: \")\n"
	      "`boottrace boot` runs it when it finishes a bundle.\n\n"
	      "  --requested yes|no  was `bootconfig` on the kernel command line\n"
	      "                      (default yes)\n"
	      "  -h, --help          this help\n\n"
	      "Exit status: 0, or 2 when DIR has no readable kernel log.\n", f);
}

void verdict_line(struct verdict *v, char *l)
{
	if (dmesg_trace_boot_error(l))
		v->errors++;
	if (!bootconfig_line(l))
		return;
	l = message(l);
	if (v->any)
		sbuf_puts(&v->msgs, "|");
	sbuf_puts(&v->msgs, l);
	v->any = true;
	if (!strncmp(l, "Load bootconfig:", 16))
		v->loaded = true;
	if (strstr(l, "checksum failed") || strstr(l, "greater than initrd"))
		v->corrupt = true;
}

const char *verdict_status(const struct verdict *v, bool requested)
{
	if (requested)
		return v->loaded ? "loaded" : v->any ? "rejected" : "unknown";
	return v->corrupt ? "rejected" : "not-requested";
}

bool verdict_requested(const char *cmdline)
{
	const char *p = cmdline;
	size_t n = strlen("bootconfig");

	while ((p = strstr(p, "bootconfig"))) {
		if ((p == cmdline || p[-1] == ' ') &&
		    (!p[n] || p[n] == ' ' || p[n] == '\n'))
			return true;
		p += n;
	}
	return false;
}

int verdict_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "requested", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct verdict v = { 0 };
	bool requested = true;
	const char *dir, *rel = "dmesg";
	char *text = NULL, *why = NULL, *l, *save = NULL;
	enum bf_status st;
	size_t len = 0;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			if (strcmp(optarg, "yes") && strcmp(optarg, "no"))
				return cli_usage_error("verdict", "--requested takes yes or no, not '%s'",
						       optarg);
			requested = !strcmp(optarg, "yes");
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			return cli_usage_error("verdict", "unknown option");
		}
	}
	if (argc - optind != 1)
		return cli_usage_error("verdict", "give one bundle directory");
	dir = argv[optind];
	/* an empty or absent dmesg: the console; an unreadable one: an error */
	st = bundle_read_file(dir, rel, VERDICT_LOG_MAX, &text, &len, &why);
	if (st == BF_ABSENT || (st == BF_OK && !len)) {
		free(text);
		rel = st == BF_OK ? "console.log (dmesg is empty)" :
		      "console.log (no dmesg either)";
		st = bundle_read_file(dir, "console.log", VERDICT_LOG_MAX,
				      &text, &len, &why);
	}
	if (st != BF_OK) {
		fprintf(stderr, "trace-analysis verdict: %s/%s: %s\n", dir, rel,
			st == BF_ABSENT ? "missing" : why);
		free(why);
		return EXIT_ERROR;
	}
	for (l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		verdict_line(&v, l);
	l = sbuf_steal(&v.msgs);
	printf("bootconfig_status=%s\nbootconfig_message=%s\ntrace_boot_errors=%lu\n",
	       verdict_status(&v, requested), l, v.errors);
	free(l);
	free(text);
	return 0;
}
