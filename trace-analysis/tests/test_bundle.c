// SPDX-License-Identifier: GPL-2.0
/*
 * test_bundle.c - reading a bundle's files: a file the bundle does not have
 * (absent) against one it has but that cannot be read (an error, never
 * "none"), and the metadata keys every bundle has (a file cut short at a
 * line boundary is refused), on bundles made in a temporary directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis.h"
#include "unit.h"
#include "util.h"

static char *tmpdir(void)
{
	char *d = xstrdup("/tmp/ta-bundle.XXXXXX");

	if (!mkdtemp(d)) {
		perror("mkdtemp");
		exit(1);
	}
	return d;
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = xasprintf("%s/%s", dir, rel);
	FILE *f = fopen(p, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		perror(p);
		exit(1);
	}
	free(p);
}

static void sh(const char *fmt, const char *dir)
{
	char *cmd = xasprintf(fmt, dir, dir, dir);

	if (system(cmd)) {
		fprintf(stderr, "failed: %s\n", cmd);
		exit(1);
	}
	free(cmd);
}

static void rm_rf(char *dir)
{
	sh("chmod -R u+rwX %s && rm -rf %s", dir);
	free(dir);
}

/* bundle_read_file() of @rel: its status, and *@why's text contains @why */
static void expect_read(struct unit *u, const char *dir, const char *rel,
			size_t max, enum bf_status want, const char *why)
{
	char *buf, *w;
	enum bf_status st = bundle_read_file(dir, rel, max, &buf, NULL, &w);

	if (st != want || (why && (!w || !strstr(w, why))) || (!why && w)) {
		fprintf(stderr, "  %s: status %d (%s), want %d (%s)\n", rel,
			st, w ? w : "-", want, why ? why : "-");
		u->failed = 1;
	}
	UNIT_EXPECT(u, (st == BF_OK) == (buf != NULL));
	free(buf);
	free(w);
}

static void test_read_kinds(struct unit *u)
{
	char *d = tmpdir(), *p;
	char *buf, *why;
	size_t len = 0;

	put(d, "f", "abc\n");
	put(d, "empty", "");
	sh("mkdir %s/dir && ln -s nothing %s/dangling && ln -s loop %s/loop", d);
	p = xasprintf("%s/fifo", d);
	UNIT_EXPECT_INT(u, mkfifo(p, 0600), 0);
	free(p);

	UNIT_EXPECT_INT(u, bundle_read_file(d, "f", 1 << 20, &buf, &len, &why),
			BF_OK);
	UNIT_EXPECT_STR(u, buf, "abc\n");
	UNIT_EXPECT_INT(u, len, 4);
	UNIT_EXPECT(u, !why);
	free(buf);
	expect_read(u, d, "empty", 1 << 20, BF_OK, NULL);
	/* no entry of that name, or no parent directory: absent */
	expect_read(u, d, "absent", 1 << 20, BF_ABSENT, NULL);
	expect_read(u, d, "nodir/absent", 1 << 20, BF_ABSENT, NULL);
	/* there, but not readable: an error, whatever the reason */
	expect_read(u, d, "dir", 1 << 20, BF_UNREADABLE, "Is a directory");
	expect_read(u, d, "dangling", 1 << 20, BF_UNREADABLE,
		    "a symbolic link to nothing");
	expect_read(u, d, "loop", 1 << 20, BF_UNREADABLE,
		    "Too many levels of symbolic links");
	expect_read(u, d, "fifo", 1 << 20, BF_UNREADABLE, "not a regular file");
	expect_read(u, d, "f/x", 1 << 20, BF_UNREADABLE, "Not a directory");
	expect_read(u, d, "f", 2, BF_UNREADABLE, "File too large");
	rm_rf(d);
}

/*
 * Mode 000 as a user who cannot read it (as root, in a child that drops
 * to nobody): EACCES, not absent.
 */
static void test_read_permission(struct unit *u)
{
	char *d = tmpdir(), *p = xasprintf("%s/f", d);
	int status = 1;
	pid_t pid;

	put(d, "f", "secret\n");
	UNIT_EXPECT_INT(u, chmod(p, 0), 0);
	UNIT_EXPECT_INT(u, chmod(d, 0755), 0);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		struct unit c = { .name = u->name };

		if (!geteuid() && (setgroups(0, NULL) || setgid(65534) ||
				   setuid(65534)))
			_exit(3);
		expect_read(&c, d, "f", 1 << 20, BF_UNREADABLE,
			    "Permission denied");
		expect_read(&c, d, "absent", 1 << 20, BF_ABSENT, NULL);
		_exit(c.failed);
	}
	UNIT_EXPECT(u, pid > 0 && waitpid(pid, &status, 0) == pid);
	UNIT_EXPECT(u, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(p);
	rm_rf(d);
}

static char *read_all(const char *path)
{
	char *t = NULL;

	if (bconf_read_file(path, 1 << 20, &t, NULL)) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(1);
	}
	return t;
}

/* bundle_read() of @dir: 0, or the error, which has @want in it */
static void expect_bundle(struct unit *u, const char *dir, const char *want,
			  const char *what)
{
	struct analysis a;
	char *err = NULL;
	int r = bundle_read(dir, &a, &err);

	if (r ? !want || !err || !strstr(err, want) : want != NULL) {
		fprintf(stderr, "  %s: %s, want %s\n", what,
			r ? err : "read", want ? want : "read");
		u->failed = 1;
	}
	if (!r)
		analysis_free(&a);
	free(err);
}

/*
 * @meta cut after each of its lines as the bundle's metadata: every cut
 * short of the whole file is refused, and one without its last line names
 * @last_key; the whole is read.
 */
static void cut_everywhere(struct unit *u, const char *d, const char *meta,
			   const char *last_key)
{
	const char *end = meta;
	char what[64];
	size_t n = 0;

	do {
		char *head;

		end = strchrnul(end, '\n');
		if (*end)
			end++;
		n++;
		head = xstrndup(meta, (size_t)(end - meta));
		put(d, "metadata", head);
		snprintf(what, sizeof(what), "metadata cut after line %zu", n);
		expect_bundle(u, d, *end ? "the file was cut short" : NULL,
			      what);
		free(head);
	} while (*end);
	/* the last line alone gone: named */
	put(d, "metadata", meta);
	end = strstr(meta, last_key);
	if (end) {
		char *head = xstrndup(meta, (size_t)(end - meta));

		put(d, "metadata", head);
		expect_bundle(u, d, last_key, "metadata without its last line");
		free(head);
	}
	put(d, "metadata", meta);
}

/* A bundle of `boottrace boot` (the recorded initcalls one, format 1) */
static void test_metadata_harness(struct unit *u)
{
	char *d = tmpdir();
	char *meta = read_all("fixtures/bundles/initcalls/metadata");

	put(d, "metadata", meta);
	expect_bundle(u, d, NULL, "whole metadata");
	cut_everywhere(u, d, meta, "warnings=");
	put(d, "metadata", "format=boottrace-bundle-1\n");
	expect_bundle(u, d, "no kernel_release_guest=, guest_time=",
		      "format= alone");
	put(d, "metadata", "");
	expect_bundle(u, d, "no format= line", "empty metadata");
	free(meta);
	rm_rf(d);
}

/*
 * A bundle of boottrace-collect (format 2): on a live system only its
 * keys; `boottrace boot` adds its own, and console.log, which says so
 * even when every one of its keys is gone.
 */
static void test_metadata_collector(struct unit *u)
{
	static const char meta[] =
		"format=boottrace-bundle-2\n"
		"collector=boottrace-collect 0.1\n"
		"kernel_release_guest=6.12.0\n"
		"guest_time=2026-12-05T10:00:30Z\n"
		"guest_btime=1796464800\n"
		"guest_boot_time=2026-12-05T10:00:00Z\n"
		"guest_uptime_at_collect=30.00\n"
		"collect_errors=0\n"
		"complete=yes\n";
	char *d = tmpdir(), *full;

	sh("mkdir -p %s/tracefs %s/proc && : > %s/dmesg", d);
	put(d, "proc/cmdline", "console=ttyS0 bootconfig\n");
	put(d, "metadata", meta);
	expect_bundle(u, d, NULL, "live bundle");
	cut_everywhere(u, d, meta, "complete=");
	full = xasprintf("%screated=2026-12-05T09:59:58Z\n"
			 "boottrace_version=v1\nkernel_release=6.12.0\n"
			 "tree=linux-source-6.12\ntree_version=6.12.1-1\n"
			 "bootconfig_status=loaded\nbootconfig_message=\n"
			 "cmdline=console=ttyS0\naccelerator=tcg\nsmp=2\n"
			 "boot_wall_seconds=40\nwarnings=\n", meta);
	put(d, "console.log", "");
	put(d, "metadata", full);
	expect_bundle(u, d, NULL, "harness bundle");
	cut_everywhere(u, d, full, "warnings=");
	put(d, "metadata", meta);
	expect_bundle(u, d, "no created=, boottrace_version=",
		      "console.log without the host's keys");
	free(full);
	rm_rf(d);
}

static void test_metadata_missing(struct unit *u)
{
	char *d = tmpdir();

	expect_bundle(u, d, "not a bundle", "empty directory");
	put(d, "trace.dat", "");
	expect_bundle(u, d, "metadata: missing", "trace.dat alone");
	sh("mkdir %s/metadata", d);
	expect_bundle(u, d, "metadata: cannot read: Is a directory",
		      "metadata a directory");
	rm_rf(d);
}

static bool has_problem(const struct analysis *a, const char *text)
{
	size_t i;

	for (i = 0; i < a->nproblems; i++)
		if (strstr(a->problems[i], text))
			return true;
	return false;
}

/*
 * Parts that are there but cannot be read are errors with their reason,
 * and never read as absent: proc/bootconfig, dmesg, a directory of the
 * tracefs dump, an entry in it.
 */
static void test_unreadable_parts(struct unit *u)
{
	char *d = tmpdir(), *err = NULL;
	struct analysis a;

	sh("cp -r fixtures/bundles/initcalls/. %s/ && rm %s/trace.dat", d);
	sh("rm %s/proc/bootconfig %s/dmesg && mkdir %s/proc/bootconfig", d);
	sh("mkdir %s/dmesg && rm -r %s/tracefs/events && ln -s nothing %s/tracefs/events", d);
	if (analysis_load(d, &a, &err)) {
		fprintf(stderr, "  %s\n", err);
		u->failed = 1;
		free(err);
		rm_rf(d);
		return;
	}
	UNIT_EXPECT_STR(u, a.bconf_error,
			"proc/bootconfig: cannot read: Is a directory");
	UNIT_EXPECT(u, !a.bconf_loaded);
	UNIT_EXPECT(u, !has_problem(&a, "proc/bootconfig: missing"));
	UNIT_EXPECT(u, has_problem(&a, "dmesg: cannot read: Is a directory"));
	UNIT_EXPECT(u, !has_problem(&a, "dmesg: missing"));
	UNIT_EXPECT(u, has_problem(&a, "tracefs/events/: cannot read: a "
				   "symbolic link to nothing"));
	/* trace.dat: absent, not an error of its own */
	UNIT_EXPECT(u, has_problem(&a, "trace.dat: missing"));
	UNIT_EXPECT_INT(u, a.nerrors, 3);
	analysis_free(&a);

	/* absent, they are only reported */
	sh("rmdir %s/proc/bootconfig %s/dmesg && rm %s/tracefs/events", d);
	UNIT_EXPECT_INT(u, analysis_load(d, &a, &err), 0);
	UNIT_EXPECT(u, !a.bconf_error);
	UNIT_EXPECT(u, has_problem(&a, "proc/bootconfig: missing"));
	UNIT_EXPECT(u, has_problem(&a, "dmesg: missing"));
	UNIT_EXPECT_INT(u, a.nerrors, 0);
	analysis_free(&a);
	rm_rf(d);
}

static const struct unit_case cases[] = {
	UNIT_CASE(test_read_kinds),
	UNIT_CASE(test_read_permission),
	UNIT_CASE(test_metadata_harness),
	UNIT_CASE(test_metadata_collector),
	UNIT_CASE(test_metadata_missing),
	UNIT_CASE(test_unreadable_parts),
};

int main(void)
{
	return UNIT_RUN_ARRAY(cases);
}
