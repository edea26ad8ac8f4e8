// SPDX-License-Identifier: GPL-2.0
/*
 * test_collect.c - unit tests of boottrace-collect's pieces: names, the
 * "changed event" rule, the kernel log text, tar headers and archives, the
 * host's metadata additions; whole runs against a fake tracefs with a stub
 * trace-cmd: a relative -o, a failing trace-cmd, a tracefs trace-cmd would
 * not read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "collect.h"
#include "unit.h"

#undef main	/* the program's main is collect_main here */

static char tmpdir[64];

static void t_plain_name(struct unit *u)
{
	UNIT_EXPECT(u, plain_name("foo"));
	UNIT_EXPECT(u, plain_name("a-b_c.d+1"));
	UNIT_EXPECT(u, !plain_name(""));
	UNIT_EXPECT(u, !plain_name(".hidden"));
	UNIT_EXPECT(u, !plain_name(".."));
	UNIT_EXPECT(u, !plain_name("a/b"));
	UNIT_EXPECT(u, !plain_name("a b"));
}

static void t_changed(struct unit *u)
{
	UNIT_EXPECT(u, !changed_text(""));
	UNIT_EXPECT(u, !changed_text("0\n"));
	UNIT_EXPECT(u, !changed_text("none\n"));
	UNIT_EXPECT(u, !changed_text("# Available triggers:\n# traceon traceoff\n"));
	UNIT_EXPECT(u, changed_text("1\n"));
	UNIT_EXPECT(u, changed_text("0*\n"));	/* soft mode */
	UNIT_EXPECT(u, changed_text("pid < 128\n"));
	UNIT_EXPECT(u, changed_text("# Available triggers:\ntraceoff:unlimited\n"));
	UNIT_EXPECT(u, changed_text("00\n"));
	UNIT_EXPECT(u, changed_text("nonex"));
}

static void t_has_hist(struct unit *u)
{
	UNIT_EXPECT(u, !has_hist(NULL));
	UNIT_EXPECT(u, !has_hist("# Available triggers:\n# hist\n"));
	UNIT_EXPECT(u, has_hist("hist:keys=pid:vals=hitcount [active]\n"));
	UNIT_EXPECT(u, has_hist("traceoff:unlimited\nhist:keys=cpu\n"));
	UNIT_EXPECT(u, !has_hist("enable_hist:sched:sched_switch\n"));
}

static void t_conf_event(struct unit *u)
{
	char b[64];

	UNIT_EXPECT(u, conf_event("ftrace.event.task.task_newtask.filter = \"pid < 128\"",
				  NULL, b, sizeof(b)) && !strcmp(b, "task/task_newtask"));
	UNIT_EXPECT(u, conf_event("ftrace.event.kprobes.vfs_read.enable", NULL, b, sizeof(b)) &&
		    !strcmp(b, "kprobes/vfs_read"));
	UNIT_EXPECT(u, conf_event("ftrace.instance.foo.event.sched.sched_switch.enable = \"\"",
				  "foo", b, sizeof(b)) && !strcmp(b, "sched/sched_switch"));
	/* another array's event, or not an event's setting */
	UNIT_EXPECT(u, !conf_event("ftrace.instance.foo.event.sched.sched_switch.enable",
				   NULL, b, sizeof(b)));
	UNIT_EXPECT(u, !conf_event("ftrace.instance.foo.event.a.b.enable", "fo", b, sizeof(b)));
	UNIT_EXPECT(u, !conf_event("ftrace.event.task.task_newtask.filter", "foo", b, sizeof(b)));
	UNIT_EXPECT(u, !conf_event("ftrace.event.task.enable = \"\"", NULL, b, sizeof(b)));
	UNIT_EXPECT(u, !conf_event("ftrace.buffer_size = \"1MB\"", NULL, b, sizeof(b)));
	UNIT_EXPECT(u, !conf_event("kernel.ftrace.event.a.b.c", NULL, b, sizeof(b)));
	/* too long for OUT */
	UNIT_EXPECT(u, !conf_event("ftrace.event.aaaa.bbbb.enable", NULL, b, 9));
	UNIT_EXPECT(u, conf_event("ftrace.event.aaaa.bbbb.enable", NULL, b, 10));
}

static void t_room_uncompressed(struct unit *u)
{
	const char mem[] = "MemTotal:         500000 kB\nMemFree:          "
			   "460000 kB\nMemAvailable:     450000 kB\n";

	/* 2 x buffers + 16 MB (16384 kB) must be below MemAvailable */
	UNIT_EXPECT(u, room_uncompressed(8448, mem));
	UNIT_EXPECT(u, room_uncompressed(216807, mem));
	UNIT_EXPECT(u, !room_uncompressed(216808, mem));
	UNIT_EXPECT(u, !room_uncompressed(1ULL << 30, mem));
	UNIT_EXPECT(u, room_uncompressed(0, "MemAvailable: 450000 kB\n"));
	/* no MemAvailable line (or no meminfo): keep it compressed */
	UNIT_EXPECT(u, !room_uncompressed(0, "MemTotal: 500000 kB\n"));
	UNIT_EXPECT(u, !room_uncompressed(0, "MemAvailable: x kB\n"));
	UNIT_EXPECT(u, !room_uncompressed(0, NULL));
}

static void t_klog(struct unit *u)
{
	const char raw[] = "<6>[    0.000000] Linux version 6.1\n<4>[    1.5] x <3> y\n"
			   "plain\n<12>[2.0] last";
	size_t n;
	char *t = klog_text(raw, sizeof(raw) - 1, &n);

	UNIT_EXPECT_STR(u, t, "[    0.000000] Linux version 6.1\n[    1.5] x <3> y\n"
			"plain\n[2.0] last");
	UNIT_EXPECT_INT(u, n, strlen(t));
	free(t);
	t = klog_text("<>x\n<a>", 7, &n);
	UNIT_EXPECT_STR(u, t, "<>x\n<a>");
	free(t);
}

static unsigned int checksum(const char *h)
{
	unsigned int s = 0;

	for (int i = 0; i < 512; i++)
		s += (i >= 148 && i < 156) ? ' ' : (unsigned char)h[i];
	return s;
}

static void t_tar_header(struct unit *u)
{
	char h[512], name[300];

	UNIT_EXPECT_INT(u, tar_header(h, "tracefs/trace_clock", false, 1234, 1700000000), 0);
	UNIT_EXPECT_STR(u, h, "tracefs/trace_clock");
	UNIT_EXPECT_STR(u, h + 124, "00000002322");
	UNIT_EXPECT_INT(u, h[156], '0');
	UNIT_EXPECT_STR(u, h + 257, "ustar");
	UNIT_EXPECT_INT(u, strtoul(h + 148, NULL, 8), checksum(h));
	UNIT_EXPECT_INT(u, tar_header(h, "tracefs/", true, 99, 0), 0);
	UNIT_EXPECT_INT(u, h[156], '5');
	UNIT_EXPECT_STR(u, h + 124, "00000000000");
	/* a long name goes into prefix + name */
	memset(name, 'a', sizeof(name));
	memcpy(name, "tracefs/instances/", 18);
	name[120] = '/';
	name[200] = '\0';
	UNIT_EXPECT_INT(u, tar_header(h, name, false, 1, 0), 0);
	UNIT_EXPECT_INT(u, strnlen(h + 345, 155), 120);
	UNIT_EXPECT_INT(u, strnlen(h, 100), 79);
	/* no '/' that leaves <= 100 bytes: refused */
	name[120] = 'a';
	UNIT_EXPECT_INT(u, tar_header(h, name, false, 1, 0), -1);
	UNIT_EXPECT_INT(u, tar_header(h, "x", false, 1ULL << 40, 0), -1);
}

static void put(const char *rel, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, rel);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static char *run(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char *buf = calloc(1, 4096);
	size_t n = 0;

	if (p && buf) {
		n = fread(buf, 1, 4095, p);
		pclose(p);
	}
	buf[n] = '\0';
	return buf;
}

static void t_tar_write(struct unit *u)
{
	char bdir[128], cmd[512], *out;
	int dfd, fd;

	snprintf(bdir, sizeof(bdir), "%s/b", tmpdir);
	mkdir(bdir, 0755);
	put("b/z", "last\n");
	mkdir(strcat(strcpy(cmd, bdir), "/dir"), 0755);
	put("b/dir/f", "inner");
	put("b/a", "");
	dfd = open(bdir, O_RDONLY | O_DIRECTORY);
	snprintf(cmd, sizeof(cmd), "%s/b.tar", tmpdir);
	fd = open(cmd, O_RDWR | O_CREAT | O_TRUNC, 0644);
	UNIT_EXPECT_INT(u, tar_write(fd, dfd), 0);
	close(fd);
	close(dfd);
	snprintf(cmd, sizeof(cmd), "tar -tf %s/b.tar 2>&1", tmpdir);
	out = run(cmd);
	UNIT_EXPECT_STR(u, out, "a\ndir/\ndir/f\nz\n");
	free(out);
	snprintf(cmd, sizeof(cmd), "tar -xOf %s/b.tar dir/f z 2>&1", tmpdir);
	out = run(cmd);
	UNIT_EXPECT_STR(u, out, "innerlast\n");
	free(out);
}

static void t_tar_full(struct unit *u)
{
	char bdir[128];
	int dfd, fd = open("/dev/full", O_WRONLY);

	snprintf(bdir, sizeof(bdir), "%s/b", tmpdir);
	dfd = open(bdir, O_RDONLY | O_DIRECTORY);
	UNIT_EXPECT(u, fd >= 0 && dfd >= 0);
	errno = 0;
	UNIT_EXPECT_INT(u, tar_write(fd, dfd), -1);
	UNIT_EXPECT_INT(u, errno, ENOSPC);
	close(fd);
	close(dfd);
}

static void t_meta_line(struct unit *u)
{
	char k[16];

	UNIT_EXPECT_INT(u, meta_line("dracut=059-4", k, sizeof(k)), 0);
	UNIT_EXPECT_STR(u, k, "dracut");
	UNIT_EXPECT_INT(u, meta_line("warnings=", k, sizeof(k)), 0);
	UNIT_EXPECT_INT(u, meta_line("=x", k, sizeof(k)), -1);
	UNIT_EXPECT_INT(u, meta_line("Key=x", k, sizeof(k)), -1);
	UNIT_EXPECT_INT(u, meta_line("1key=x", k, sizeof(k)), -1);
	UNIT_EXPECT_INT(u, meta_line("key x", k, sizeof(k)), -1);
	UNIT_EXPECT_INT(u, meta_line("a_very_long_key_name=1", k, sizeof(k)), -1);
}

static int add(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	char dir[128];
	int rc;

	int err = dup(2), null = open("/dev/null", O_WRONLY);

	/* the refusals' messages are expected: keep them off the output */
	snprintf(dir, sizeof(dir), "%s/m", tmpdir);
	dup2(null, 2);
	rc = add_metadata(dir, f, "host");
	dup2(err, 2);
	close(err);
	close(null);
	fclose(f);
	return rc;
}

static void t_add_metadata(struct unit *u)
{
	char p[128], *t;

	snprintf(p, sizeof(p), "%s/m", tmpdir);
	mkdir(p, 0755);
	UNIT_EXPECT_INT(u, add("a=1\n"), -1);	/* no metadata yet */
	put("m/metadata", "format=boottrace-bundle-1\ncomplete=yes\n");
	UNIT_EXPECT_INT(u, add("dracut=059\nsmp=2\n"), 0);
	UNIT_EXPECT_INT(u, add("cmdline=a b=c\n"), 0);
	UNIT_EXPECT_INT(u, add("x=1\ncomplete=no\n"), -1);	/* collector's key */
	UNIT_EXPECT_INT(u, add("y=1\ny=2\n"), -1);	/* twice */
	UNIT_EXPECT_INT(u, add("bad line\n"), -1);
	snprintf(p, sizeof(p), "%s/m/metadata", tmpdir);
	t = read_file(p, NULL);
	UNIT_EXPECT_STR(u, t, "format=boottrace-bundle-1\ncomplete=yes\ndracut=059\nsmp=2\n"
			"cmdline=a b=c\n");
	free(t);
}

/*
 * collect: boottrace-collect run in a child from DIR (under tmpdir) with
 * ARGS; its stderr goes to DIR/err.  Returns its exit status (-1: killed).
 */
static int collect(const char *dir, const char **args)
{
	char path[256], *argv[16] = { "boottrace-collect" };
	int argc = 1, status;
	pid_t pid;

	while (*args && argc < 15)
		argv[argc++] = (char *)*args++;
	fflush(NULL);
	pid = fork();
	if (!pid) {
		int fd;

		snprintf(path, sizeof(path), "%s/%s", tmpdir, dir);
		if (chdir(path))
			_exit(99);
		fd = open("err", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		exit(collect_main(argc, argv));
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * A directory laid out like the smallest tracefs (under tmpdir), and next
 * to it the stub trace-cmd: it records its working directory and argv in
 * args and writes "dat" to the -o file.
 */
static void fake_tree(const char *dir)
{
	char p[256], rel[64], script[512];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/fs", tmpdir, dir);
	mkdir(p, 0755);
	snprintf(rel, sizeof(rel), "%s/fs/tracing_on", dir);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "%s/fs/trace", dir);
	put(rel, "");
	snprintf(script, sizeof(script),
		 "#!/bin/sh\n"
		 "{ pwd -P; printf '%%s\\n' \"$@\"; } >'%s/%s/args'\n"
		 "while [ $# -gt 0 ]; do\n"
		 "\tif [ \"$1\" = -o ]; then echo dat >\"$2\" || exit 1; fi\n"
		 "\tshift\n"
		 "done\n", tmpdir, dir);
	snprintf(rel, sizeof(rel), "%s/stub", dir);
	put(rel, script);
	snprintf(p, sizeof(p), "%s/%s/stub", tmpdir, dir);
	chmod(p, 0755);
}

static char *file(const char *rel)
{
	char p[256], *t;

	snprintf(p, sizeof(p), "%s/%s", tmpdir, rel);
	t = read_file(p, NULL);
	return t ? t : strdup("(missing)");
}

static bool exists(const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", tmpdir, rel);
	return !access(p, F_OK);
}

/* EXPECT_FILE: the file REL (under tmpdir) has the text WANT */
#define EXPECT_FILE(u, rel, want) expect_file((u), (rel), (want), __LINE__)

static void expect_file(struct unit *u, const char *rel, const char *want, int line)
{
	char *t = file(rel);

	unit_expect_str(u, t, want, __FILE__, line, rel);
	free(t);
}

/*
 * The tracefs trace-cmd extract would read (the collector's
 * extract_tracefs): the fake tree named here, by its absolute path, or
 * none when empty.
 */
static char mounted[128];

static const char *fake_mounted(void)
{
	return *mounted ? mounted : NULL;
}

/* a relative -o (and a relative --trace-cmd): trace-cmd runs in the bundle */
static void t_extract_relative(struct unit *u)
{
	const char *rel[] = { "-o", "rel-bundle", "--tracefs", "fs", "--trace-cmd", NULL, NULL };
	const char *relprog[] = { "-o", "b2", "--tracefs", "fs", "--trace-cmd", "./stub", NULL };
	char stub[256], want[PATH_MAX + 64], real[PATH_MAX], *meta;

	fake_tree("x");
	snprintf(mounted, sizeof(mounted), "%s/x/fs", tmpdir);
	snprintf(stub, sizeof(stub), "%s/x/stub", tmpdir);
	rel[5] = stub;
	UNIT_EXPECT_INT(u, collect("x", rel), 0);
	EXPECT_FILE(u, "x/err", "");
	UNIT_EXPECT(u, realpath(tmpdir, real));
	snprintf(want, sizeof(want), "%s/x/rel-bundle\nextract\n-k\n-a\n-t\n-o\ntrace.dat\n",
		 real);
	EXPECT_FILE(u, "x/args", want);
	EXPECT_FILE(u, "x/rel-bundle/trace.dat", "dat\n");
	meta = file("x/rel-bundle/metadata");
	UNIT_EXPECT(u, strstr(meta, "\ncollect_errors=0\ncomplete=yes\n"));
	free(meta);

	fake_tree("y");
	snprintf(mounted, sizeof(mounted), "%s/y/fs", tmpdir);
	UNIT_EXPECT_INT(u, collect("y", relprog), 0);
	EXPECT_FILE(u, "y/err", "");
	EXPECT_FILE(u, "y/b2/trace.dat", "dat\n");
}

/* a failing trace-cmd: an incomplete bundle */
static void t_extract_fails(struct unit *u)
{
	const char *args[] = { "-o", "b", "--tracefs", "fs", "--trace-cmd", NULL, NULL };
	char none[128], *t;

	fake_tree("w");
	snprintf(mounted, sizeof(mounted), "%s/w/fs", tmpdir);
	snprintf(none, sizeof(none), "%s/w/no-trace-cmd", tmpdir);
	args[5] = none;
	UNIT_EXPECT_INT(u, collect("w", args), 1);
	t = file("w/err");
	UNIT_EXPECT(u, strstr(t, "trace-cmd extract failed (status 127"));
	free(t);
	t = file("w/b/metadata");
	UNIT_EXPECT(u, strstr(t, "\ncollect_errors=1\ncomplete=no\n"));
	free(t);
}

/*
 * --tracefs other than the tracefs trace-cmd reads, with extraction:
 * refused before anything is written or tracing is stopped
 */
static void t_extract_other_tracefs(struct unit *u)
{
	const char *args[] = { "-o", "b", "--tracefs", "fs", "--trace-cmd", NULL, NULL };
	char stub[128], *t, want[256];

	fake_tree("z");
	snprintf(stub, sizeof(stub), "%s/z/stub", tmpdir);
	args[5] = stub;
	snprintf(mounted, sizeof(mounted), "%s/x/fs", tmpdir);
	UNIT_EXPECT_INT(u, collect("z", args), 2);
	snprintf(want, sizeof(want), "error: fs is not the mounted tracefs (%s/x/fs)", tmpdir);
	t = file("z/err");
	UNIT_EXPECT(u, strstr(t, want) && strstr(t, "add --no-extract"));
	free(t);
	*mounted = '\0';
	UNIT_EXPECT_INT(u, collect("z", args), 2);
	t = file("z/err");
	UNIT_EXPECT(u, strstr(t, "error: fs is not the mounted tracefs (none is mounted)"));
	free(t);
	UNIT_EXPECT(u, !exists("z/b"));
	UNIT_EXPECT(u, !exists("z/args"));
	EXPECT_FILE(u, "z/fs/tracing_on", "1\n");
}

int main(void)
{
	char cmd[128];
	int rc;

	snprintf(tmpdir, sizeof(tmpdir), "/tmp/test_collect.XXXXXX");
	if (!mkdtemp(tmpdir))
		return 2;
	extract_tracefs = fake_mounted;
	rc = UNIT_RUN(UNIT_CASE(t_plain_name), UNIT_CASE(t_changed),
		      UNIT_CASE(t_has_hist), UNIT_CASE(t_conf_event),
		      UNIT_CASE(t_room_uncompressed),
		      UNIT_CASE(t_klog),
		      UNIT_CASE(t_tar_header), UNIT_CASE(t_tar_write),
		      UNIT_CASE(t_tar_full), UNIT_CASE(t_meta_line),
		      UNIT_CASE(t_add_metadata), UNIT_CASE(t_extract_relative),
		      UNIT_CASE(t_extract_fails), UNIT_CASE(t_extract_other_tracefs));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		rc = 1;
	return rc;
}
