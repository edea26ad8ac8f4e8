// SPDX-License-Identifier: GPL-2.0
/*
 * boottrace-collect - write a boottrace bundle (docs/bundle.md) from a live
 * tracefs.
 *
 * The same program runs in the test initramfs (--initramfs: the earliest
 * dracut hook of a boot made by `boottrace boot`) and on any live system
 * (`boottrace collect -o DIR`).  It stops tracing everywhere, copies the
 * text state of tracefs that trace.dat does not carry (every instance,
 * dynamic and synthetic events, triggers, hist files, filters, error_log,
 * boot_status, per-CPU stats), the kernel's view of the system
 * (/proc/bootconfig, /proc/cmdline, the kernel log, uname), pulls the ring
 * buffers with `trace-cmd extract` (the only program it runs, once, while
 * it copies the text state; the counters extract changes first), and
 * writes the metadata file.  In the initramfs it then writes the bundle as
 * a tar archive onto the harness's raw disk and powers the machine off.
 *
 * Every problem is counted: the bundle then says complete=no in its
 * metadata (and errors=N in collect.status) and the message names the file
 * and the reason.  Nothing is forked per file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs.h>

#include "collect.h"

#define DISK_MAGIC	"BOOTTRACE-COLLECT-DISK-1"
#define INITRAMFS_OUT	"/run/boottrace/bundle"
#define DRACUT_INIT	"/init.dracut"
#define DEFAULT_TRACEFS	"/sys/kernel/tracing"

static struct ctx {
	const char *tracefs;	/* the tracefs directory */
	const char *out;	/* the bundle directory */
	int outfd;
	int logfd;		/* collect.log, -1 before it exists */
	int consfd;		/* /dev/console in the initramfs, else -1 */
	bool pid1;		/* the image's /init: never exit, power off */
	bool verbose;
	/* the initramfs: /proc/bootconfig, which with each array's set_event
	 * names every event a boot can have changed (see dump_events) */
	char *bootconfig;
	int errors;
} C = { .outfd = -1, .logfd = -1, .consfd = -1 };

static void uptime(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	snprintf(buf, len, "%ld.%02ld", (long)ts.tv_sec, ts.tv_nsec / 10000000);
}

static void write_all(int fd, const char *buf, size_t len)
{
	while (len && fd >= 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= n;
	}
}

static void vsay(const char *level, const char *fmt, va_list ap)
{
	char msg[1024], up[32], line[1200];
	int n;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	uptime(up, sizeof(up));
	n = snprintf(line, sizeof(line), "[%s] %s%s\n", up, level, msg);
	if (n > (int)sizeof(line) - 1)
		n = sizeof(line) - 1;
	write_all(C.logfd, line, n);
	if (C.consfd >= 0) {
		char cons[1300];
		int m = snprintf(cons, sizeof(cons), "boottrace-collect: %s", line);

		write_all(C.consfd, cons, m < (int)sizeof(cons) ? m : (int)sizeof(cons) - 1);
	} else if (*level || C.verbose) {
		fprintf(stderr, "boottrace-collect: %s%s\n", level, msg);
	}
}

/* say: a progress line in collect.log (and on the console) */
static void __attribute__((format(printf, 1, 2))) say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsay("", fmt, ap);
	va_end(ap);
}

/* fail: a problem; the bundle will be marked incomplete */
static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	C.errors++;
	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

static void __attribute__((noreturn)) power_off(void);

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fputs("boottrace-collect: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (C.pid1)
		power_off();
	exit(2);
}

/*
 * read_file - the whole content of PATH (NUL-terminated, *len bytes).
 * Returns NULL with errno set; ENOENT means the kernel has no such file.
 */
char *read_file(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf, *nb;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	buf = malloc(cap);
	if (!buf)
		goto fail;
	for (;;) {
		ssize_t r;

		if (cap - n < 2) {
			nb = realloc(buf, cap * 2);
			if (!nb)
				goto fail;
			buf = nb;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		n += r;
	}
	close(fd);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
fail:
	err = errno;
	free(buf);
	close(fd);
	errno = err;
	return NULL;
}

/* write DST (relative to the bundle) with LEN bytes; counts failures */
static void put_file(const char *dst, const char *data, size_t len)
{
	int fd = openat(C.outfd, dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	size_t done = 0;

	if (fd < 0) {
		fail("cannot write %s/%s: %s", C.out, dst, strerror(errno));
		return;
	}
	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fail("cannot write %s/%s: %s", C.out, dst,
			     n < 0 ? strerror(errno) : "short write");
			close(fd);
			return;
		}
		done += n;
	}
	if (close(fd))
		fail("cannot write %s/%s: %s", C.out, dst, strerror(errno));
}

/*
 * copy - copy the file SRC to DST (relative to the bundle).  A missing SRC
 * is no error (the kernel does not have it).  With KEEP, the content is
 * returned (caller frees), else NULL.
 */
static char *copy(const char *src, const char *dst, bool keep)
{
	size_t len;
	char *data = read_file(src, &len);

	if (!data) {
		if (errno != ENOENT)
			fail("cannot read %s: %s", src, strerror(errno));
		return NULL;
	}
	put_file(dst, data, len);
	if (keep)
		return data;
	free(data);
	return NULL;
}

/* mkdir -p of DIR relative to the bundle */
static int mkdirs(const char *dir)
{
	char p[PATH_MAX], *s;

	if (snprintf(p, sizeof(p), "%s", dir) >= (int)sizeof(p))
		return -1;
	for (s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		char c = *s;

		*s = '\0';
		if (mkdirat(C.outfd, p, 0755) && errno != EEXIST) {
			fail("cannot create %s/%s: %s", C.out, p, strerror(errno));
			return -1;
		}
		if (!c)
			return 0;
		*s = c;
	}
}

static char *path_join(const char *a, const char *b)
{
	char *p;

	if (asprintf(&p, "%s/%s", a, b) < 0) {
		fprintf(stderr, "boottrace-collect: error: out of memory\n");
		exit(2);
	}
	return p;
}

static void copy_to(const char *srcdir, const char *name, const char *dstdir)
{
	char *s = path_join(srcdir, name), *d = path_join(dstdir, name);

	copy(s, d, false);
	free(s);
	free(d);
}

/* a name we accept as one path component in the bundle */
bool plain_name(const char *s)
{
	if (!*s || *s == '.')
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			    "0123456789_.+-", *s))
			return false;
	return true;
}

/*
 * changed_text - does TEXT have a line other than "0", "none" or a comment?
 * (an event whose enable, filter or trigger says so was touched by the
 * boot-time configuration or by someone since)
 */
bool changed_text(const char *text)
{
	const char *l = text;

	while (l && *l) {
		const char *e = strchr(l, '\n');
		size_t n = e ? (size_t)(e - l) : strlen(l);

		if (!(n == 1 && l[0] == '0') && !(n == 4 && !strncmp(l, "none", 4)) &&
		    l[0] != '#')
			return true;
		l = e ? e + 1 : NULL;
	}
	return false;
}

/* has_hist - does the trigger TEXT have a hist trigger line? */
bool has_hist(const char *text)
{
	const char *l = text;

	while (l && *l) {
		if (!strncmp(l, "hist:", 5))
			return true;
		l = strchr(l, '\n');
		if (l)
			l++;
	}
	return false;
}

/*
 * event_changed - is one of the event's enable, filter or trigger not the
 * default?  One read(2) per file: the defaults are far shorter than the
 * buffer, and a file that fills it is not a default.  (Every read costs
 * under emulation, and more with a live kprobe on vfs_read.)
 */
static bool event_changed(const char *evdir)
{
	static const char *const files[] = { "enable", "filter", "trigger" };
	bool changed = false;
	char buf[4096];

	for (size_t i = 0; i < 3 && !changed; i++) {
		char *p = path_join(evdir, files[i]);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

		if (n < 0 && errno != ENOENT)
			fail("cannot read %s: %s", p, strerror(errno));
		if (n >= 0) {
			buf[n] = '\0';
			changed = n == sizeof(buf) - 1 || changed_text(buf);
		}
		if (fd >= 0)
			close(fd);
		free(p);
	}
	return changed;
}

static int sorted_dirs(const char *dir, struct dirent ***list)
{
	return scandir(dir, list, NULL, alphasort);
}

/* is the entry E of DIR a directory?  (d_type saves a stat per entry) */
static bool is_dir(const char *dir, const struct dirent *e)
{
	struct stat st;
	char *p;
	bool r;

	if (e->d_type != DT_UNKNOWN)
		return e->d_type == DT_DIR;
	p = path_join(dir, e->d_name);
	r = !stat(p, &st) && S_ISDIR(st.st_mode);
	free(p);
	return r;
}

static void dump_event(const char *evsrc, const char *evdst)
{
	static const char *const files[] = { "enable", "filter", "format", "id" };
	char *s, *d, *trig;

	if (mkdirs(evdst))
		return;
	for (size_t i = 0; i < 4; i++)
		copy_to(evsrc, files[i], evdst);
	s = path_join(evsrc, "trigger");
	d = path_join(evdst, "trigger");
	trig = copy(s, d, true);
	free(s);
	free(d);
	/* hist exists for every event; only a hist trigger fills it */
	if (has_hist(trig))
		copy_to(evsrc, "hist", evdst);
	free(trig);
}

/* dump the event GROUP/EVENT of SRC into DST when one of its files changed */
static void dump_if_changed(const char *src, const char *dst, const char *group,
			    const char *event)
{
	char *evdir, *evdst;

	if (asprintf(&evdir, "%s/events/%s/%s", src, group, event) < 0 ||
	    asprintf(&evdst, "%s/events/%s/%s", dst, group, event) < 0)
		die("out of memory");
	if (event_changed(evdir))
		dump_event(evdir, evdst);
	free(evdir);
	free(evdst);
}

/* every event of SRC: each group and event directory read */
static void dump_all_events(const char *src, const char *dst)
{
	struct dirent **groups, **evs;
	char *evroot = path_join(src, "events");
	int ng = sorted_dirs(evroot, &groups);

	if (ng < 0) {
		if (errno != ENOENT)
			fail("cannot list %s: %s", evroot, strerror(errno));
		free(evroot);
		return;
	}
	for (int g = 0; g < ng; g++) {
		const char *gn = groups[g]->d_name;
		char *gdir = path_join(evroot, gn);
		int ne;

		if (gn[0] == '.' || !is_dir(evroot, groups[g]) ||
		    (ne = sorted_dirs(gdir, &evs)) < 0) {
			free(gdir);
			continue;
		}
		for (int e = 0; e < ne; e++) {
			const char *en = evs[e]->d_name;

			if (en[0] != '.' && is_dir(gdir, evs[e]))
				dump_if_changed(src, dst, gn, en);
			free(evs[e]);
		}
		free(evs);
		free(gdir);
	}
	for (int g = 0; g < ng; g++)
		free(groups[g]);
	free(groups);
	free(evroot);
}

/*
 * conf_event - is LINE (a line of /proc/bootconfig) a setting of an event
 * of the trace array INSTANCE (NULL: the top one), such as
 * "ftrace.event.G.E.filter = ..." or "ftrace.instance.I.event.G.E.enable"?
 * Then "G/E" is put in OUT (LEN bytes).
 */
bool conf_event(const char *line, const char *instance, char *out, size_t len)
{
	const char *p = line, *dot, *end;
	size_t n;

	if (strncmp(p, "ftrace.", 7))
		return false;
	p += 7;
	if (instance) {
		n = strlen(instance);
		if (strncmp(p, "instance.", 9) || strncmp(p + 9, instance, n) ||
		    p[9 + n] != '.')
			return false;
		p += 9 + n + 1;
	}
	if (strncmp(p, "event.", 6))
		return false;
	p += 6;
	n = strcspn(p, " =\n");
	dot = memchr(p, '.', n);
	end = dot ? memchr(dot + 1, '.', n - (dot + 1 - p)) : NULL;
	if (!end || (size_t)(end - p) >= len)
		return false;
	memcpy(out, p, end - p);
	out[end - p] = '\0';
	out[dot - p] = '\0';
	if (!plain_name(out) || !plain_name(out + (dot + 1 - p)))
		return false;
	out[dot - p] = '/';
	return true;
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The events of SRC a boot can have changed, each read once: those its
 * set_event lists (enabled, or soft-enabled by a trigger) and those
 * C.bootconfig names for the array INSTANCE (a filter may be set on an
 * event left disabled).  Nothing else touches the events before the
 * initramfs runs, and reading every event's files costs ~0.1 s per array
 * under TCG.
 */
static void dump_named_events(const char *src, const char *dst, const char *instance)
{
	char *path = path_join(src, "set_event"), *set = read_file(path, NULL);
	char **names = NULL, buf[512], *line, *save = NULL;
	size_t n = 0, cap = 0;

	free(path);
	for (int pass = 0; pass < 2; pass++) {
		char *text = strdup(pass ? C.bootconfig : set ? set : "");

		if (!text)
			die("out of memory");
		for (line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			char *colon = strchr(line, ':');

			if (pass) {
				if (!conf_event(line, instance, buf, sizeof(buf)))
					continue;
			} else if (!colon || (size_t)snprintf(buf, sizeof(buf), "%.*s/%s",
					(int)(colon - line), line, colon + 1) >= sizeof(buf)) {
				continue;
			}
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				names = realloc(names, cap * sizeof(*names));
				if (!names)
					die("out of memory");
			}
			names[n] = strdup(buf);
			if (!names[n++])
				die("out of memory");
		}
		free(text);
	}
	free(set);
	if (n)
		qsort(names, n, sizeof(*names), by_str);
	for (size_t i = 0; i < n; i++) {
		char *slash = strchr(names[i], '/');

		if (i && !strcmp(names[i], names[i - 1]))
			continue;
		*slash = '\0';
		if (plain_name(names[i]) && plain_name(slash + 1))
			dump_if_changed(src, dst, names[i], slash + 1);
		*slash = '/';
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* the changed events of the array SRC (INSTANCE, NULL: the top one) */
static void dump_events(const char *src, const char *dst, const char *instance)
{
	if (C.bootconfig)
		dump_named_events(src, dst, instance);
	else
		dump_all_events(src, dst);
}

/*
 * The per-CPU stats of one trace array: read before `trace-cmd extract`
 * starts, since its consuming reads change them (entries, read events).
 */
static void dump_stats(const char *src, const char *dst)
{
	struct dirent **cpus;
	char *pc = path_join(src, "per_cpu");
	int n = sorted_dirs(pc, &cpus);

	for (int i = 0; i < n; i++) {
		const char *cn = cpus[i]->d_name;

		if (!strncmp(cn, "cpu", 3) && is_dir(pc, cpus[i])) {
			char *s, *d;

			if (asprintf(&s, "%s/%s/stats", pc, cn) < 0 ||
			    asprintf(&d, "%s/per_cpu/%s", dst, cn) < 0)
				die("out of memory");
			if (!mkdirs(d)) {
				free(d);
				if (asprintf(&d, "%s/per_cpu/%s/stats", dst, cn) < 0)
					die("out of memory");
				copy(s, d, false);
			}
			free(s);
			free(d);
		}
		free(cpus[i]);
	}
	if (n >= 0)
		free(cpus);
	free(pc);
}

/* the rest of the state of one trace array (the top one or an instance) */
static void dump_array(const char *src, const char *dst)
{
	static const char *const files[] = {
		"current_tracer", "trace_clock", "buffer_size_kb",
		"buffer_total_size_kb", "tracing_cpumask",
		"set_event", "set_event_pid", "set_ftrace_filter",
		"set_ftrace_notrace", "set_ftrace_pid", "set_graph_function",
		"set_graph_notrace", "trace_options", "error_log",
		"snapshot_status",
	};

	if (mkdirs(dst))
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		copy_to(src, files[i], dst);
	/* SRC is C.tracefs or C.tracefs/instances/NAME (each_instance) */
	dump_events(src, dst, src == C.tracefs ? NULL : strrchr(src, '/') + 1);
}

/* the names of the instances, sorted; NULL-terminated */
static char **instances(void)
{
	struct dirent **ents;
	char *dir = path_join(C.tracefs, "instances");
	char **names;
	int n = sorted_dirs(dir, &ents), k = 0;

	names = calloc(n > 0 ? n + 1 : 1, sizeof(*names));
	if (!names)
		die("out of memory");
	if (n < 0 && errno != ENOENT)
		fail("cannot list %s: %s", dir, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;

		if (strcmp(name, ".") && strcmp(name, "..") && is_dir(dir, ents[i])) {
			if (plain_name(name))
				names[k++] = strdup(name);
			else
				fail("skipping instance with odd name");
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
	free(dir);
	return names;
}

static void free_names(char **names)
{
	for (char **p = names; *p; p++)
		free(*p);
	free(names);
}

static void set_tracing_off(const char *dir)
{
	char *p = path_join(dir, "tracing_on");
	int fd = open(p, O_WRONLY | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT) {
		free(p);
		return;
	}
	if (fd < 0 || write(fd, "0", 1) != 1)
		fail("cannot stop tracing in %s: %s", dir, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(p);
}

/* fn(SRC, DST) for each instance: its tracefs directory, its bundle one */
static void each_instance(char **names, void (*fn)(const char *, const char *))
{
	char *inst = path_join(C.tracefs, "instances");

	for (char **p = names; *p; p++) {
		char *s = path_join(inst, *p), *d;

		if (asprintf(&d, "tracefs/instances/%s", *p) < 0)
			die("out of memory");
		fn(s, d);
		free(s);
		free(d);
	}
	free(inst);
}

/*
 * An array's tracing_on as the boot left it goes into the bundle, then
 * tracing stops there: nothing the collector does afterwards may be traced.
 */
static void stop_array(const char *src, const char *dst)
{
	if (!mkdirs(dst))
		copy_to(src, "tracing_on", dst);
	set_tracing_off(src);
}

static void stop_tracing(char **names)
{
	stop_array(C.tracefs, "tracefs");
	each_instance(names, stop_array);
}

/*
 * What `trace-cmd extract` would change, read before it starts: every
 * array's per-CPU stats, and the kprobes' hit counts (its own file opens
 * would add to them).
 */
static void dump_counters(char **names)
{
	dump_stats(C.tracefs, "tracefs");
	copy_to(C.tracefs, "kprobe_profile", "tracefs");
	each_instance(names, dump_stats);
}

/* the rest of the tracefs state: it may be read while extract runs */
static void dump_tracefs(char **names)
{
	static const char *const global[] = {
		"dynamic_events", "kprobe_events", "synthetic_events",
		"available_tracers", "boot_status",
	};

	dump_array(C.tracefs, "tracefs");
	for (size_t i = 0; i < sizeof(global) / sizeof(global[0]); i++)
		copy_to(C.tracefs, global[i], "tracefs");
	each_instance(names, dump_array);
}

/*
 * klog_text - the kernel log as `dmesg` prints it: the syslog prefix "<N>"
 * of each line dropped.
 */
char *klog_text(const char *raw, size_t len, size_t *outlen)
{
	char *out = malloc(len + 1), *o = out;
	size_t i = 0;

	if (!out)
		return NULL;
	while (i < len) {
		size_t j = i;

		if (raw[i] == '<') {
			j = i + 1;
			while (j < len && raw[j] >= '0' && raw[j] <= '9')
				j++;
			j = (j < len && raw[j] == '>' && j > i + 1) ? j + 1 : i;
		}
		for (i = j; i < len && raw[i] != '\n'; i++)
			*o++ = raw[i];
		if (i < len)
			*o++ = raw[i++];
	}
	*o = '\0';
	*outlen = o - out;
	return out;
}

static void dump_dmesg(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *raw, *text;
	size_t len;
	int n;

	if (size <= 0) {
		fail("cannot read the kernel log size: %s", strerror(errno));
		return;
	}
	raw = malloc(size);
	if (!raw)
		die("out of memory");
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, raw, size);
	if (n < 0) {
		fail("cannot read the kernel log: %s", strerror(errno));
		free(raw);
		return;
	}
	text = klog_text(raw, n, &len);
	if (!text)
		die("out of memory");
	put_file("dmesg", text, len);
	free(text);
	free(raw);
}

struct guest {
	char release[256];
	char time[32];
	char boot_time[32];
	long long btime;
	char uptime[32];
};

static void utc(time_t t, char *buf, size_t len)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void dump_system(struct guest *g)
{
	struct utsname u;
	char *stat, *p, *up, *un;
	int n;

	if (mkdirs("proc"))
		return;
	copy("/proc/cmdline", "proc/cmdline", false);
	/* always there: empty when no bootconfig was loaded */
	if (access("/proc/bootconfig", F_OK))
		put_file("proc/bootconfig", "", 0);
	else
		copy("/proc/bootconfig", "proc/bootconfig", false);
	dump_dmesg();
	if (uname(&u)) {
		fail("uname failed: %s", strerror(errno));
	} else {
		n = asprintf(&un, "%s %s %s %s %s GNU/Linux\n", u.sysname,
			     u.nodename, u.release, u.version, u.machine);
		if (n < 0)
			die("out of memory");
		put_file("uname", un, n);
		free(un);
		snprintf(g->release, sizeof(g->release), "%s", u.release);
	}
	utc(time(NULL), g->time, sizeof(g->time));
	stat = read_file("/proc/stat", NULL);
	p = stat ? strstr(stat, "\nbtime ") : NULL;
	if (p) {
		g->btime = strtoll(p + 7, NULL, 10);
		utc((time_t)g->btime, g->boot_time, sizeof(g->boot_time));
	}
	free(stat);
	up = read_file("/proc/uptime", NULL);
	if (up)
		snprintf(g->uptime, sizeof(g->uptime), "%.*s",
			 (int)strcspn(up, " \n"), up);
	free(up);
}

/* the value of KEY= on the kernel command line, malloc'ed, or NULL */
static char *cmdline_arg(const char *cmdline, const char *key)
{
	size_t kl = strlen(key);
	const char *w = cmdline;

	while (w && *w) {
		size_t n;

		w += strspn(w, " \t\n");
		n = strcspn(w, " \t\n");
		if (n > kl && !strncmp(w, key, kl) && w[kl] == '=')
			return strndup(w + kl + 1, n - kl - 1);
		w += n;
	}
	return NULL;
}

static void log_to(int fd, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	write_all(fd, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
}

/*
 * boottrace.insmod=PATH[,PATH...] loads the modules before anything is
 * dumped (their events and the boot-time settings kept for them are then
 * in the bundle); boottrace.reload=N unloads and loads them again N times.
 * The boot_status before the first load goes to modules/boot_status.before.
 */
static void load_modules(const char *cmdline)
{
	char *list = cmdline_arg(cmdline, "boottrace.insmod");
	char *rl = cmdline_arg(cmdline, "boottrace.reload");
	char *paths[64], *save = NULL, *tok, *bs;
	int np = 0, reloads = 0, logfd;

	if (!list)
		goto out;
	if (rl) {
		char *end;
		long v = strtol(rl, &end, 10);

		if (!*rl || *end || v < 0 || v > 1000 || !strchr("0123456789", *rl))
			fail("bad boottrace.reload=%s, not reloading", rl);
		else
			reloads = v;
	}
	for (tok = strtok_r(list, ",", &save); tok && np < 64;
	     tok = strtok_r(NULL, ",", &save))
		paths[np++] = tok;
	if (mkdirs("modules"))
		goto out;
	bs = path_join(C.tracefs, "boot_status");
	copy(bs, "modules/boot_status.before", false);
	free(bs);
	logfd = openat(C.outfd, "modules/insmod.log",
		       O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	for (int round = 0; ; round++) {
		for (int i = 0; i < np; i++) {
			int fd = open(paths[i], O_RDONLY | O_CLOEXEC);

			if (fd < 0 || syscall(SYS_finit_module, fd, "", 0)) {
				log_to(logfd, "insmod %s: %s\n", paths[i], strerror(errno));
				fail("insmod %s failed (see modules/insmod.log)", paths[i]);
			} else {
				say("loaded %s", paths[i]);
			}
			if (fd >= 0)
				close(fd);
		}
		if (round >= reloads)
			break;
		sleep(1);
		for (int i = 0; i < np; i++) {
			char name[256], *b = strrchr(paths[i], '/'), *d;

			snprintf(name, sizeof(name), "%s", b ? b + 1 : paths[i]);
			d = strstr(name, ".ko");
			if (d && !d[3])
				*d = '\0';
			char mod[256];

			snprintf(mod, sizeof(mod), "%s", name);
			for (d = mod; *d; d++)
				if (*d == '-')
					*d = '_';
			if (syscall(SYS_delete_module, mod, O_NONBLOCK)) {
				log_to(logfd, "rmmod %s: %s\n", mod, strerror(errno));
				fail("rmmod %s failed (see modules/insmod.log)", name);
			} else {
				say("unloaded %s (%d of %d)", name, round + 1, reloads);
			}
		}
	}
	if (logfd >= 0)
		close(logfd);
	/*
	 * Give the modules' events a moment to fire (the sample module emits
	 * one event a second; under TCG a loaded host delays it).
	 */
	sleep(4);
out:
	free(list);
	free(rl);
}

/*
 * room_uncompressed - may trace.dat be written uncompressed?  BUFFERS_KB
 * is the ring buffers' total size (every array), MEMINFO the text of
 * /proc/meminfo.  Yes when the memory available holds the buffers twice
 * over plus 16 MB (the event formats and symbols, ~2 MB uncompressed):
 * the bundle is built in the memory of the machine it describes.
 */
bool room_uncompressed(unsigned long long buffers_kb, const char *meminfo)
{
	const char *m = meminfo;
	unsigned long long avail;

	if (m && strncmp(m, "MemAvailable:", 13)) {
		m = strstr(m, "\nMemAvailable:");
		m = m ? m + 1 : NULL;
	}
	if (!m || sscanf(m, "MemAvailable: %llu kB", &avail) != 1)
		return false;
	return avail > 2 * buffers_kb + 16 * 1024;
}

/* the ring buffer size of the trace array DIR in kB (unknown: too big) */
static unsigned long long buffer_kb(const char *dir)
{
	char *p = path_join(dir, "buffer_total_size_kb"), *text = read_file(p, NULL);
	unsigned long long kb = text ? strtoull(text, NULL, 10) : 1ULL << 30;

	free(text);
	free(p);
	return kb;
}

/* the ring buffers' total size in kB: the top array's and every instance's */
static unsigned long long buffers_kb(char **names)
{
	char *inst = path_join(C.tracefs, "instances");
	unsigned long long total = buffer_kb(C.tracefs);

	for (char **n = names; *n; n++) {
		char *d = path_join(inst, *n);

		total += buffer_kb(d);
		free(d);
	}
	free(inst);
	return total;
}

/*
 * trace.dat: `trace-cmd extract -k -a -t` (the one program run), started
 * here and waited for by extract_wait(), so that the tracefs state and
 * the system state are copied while it runs (2 CPUs: under TCG each takes
 * 0.3-0.4 s).  UNCOMPRESSED adds `--compression none`: under TCG, zstd
 * over the formats and symbols costs ~0.1 s of the collection.  Returns
 * its pid, or -1 when it could not be started.
 */
static pid_t extract_start(const char *trace_cmd, bool uncompressed)
{
	pid_t pid;

	say(uncompressed ? "extracting (uncompressed)" : "extracting");
	pid = fork();
	if (pid < 0)
		fail("cannot run %s: %s", trace_cmd, strerror(errno));
	if (!pid) {
		int fd = C.logfd >= 0 ? C.logfd : open("/dev/null", O_WRONLY);
		/*
		 * It runs in the bundle directory (-o is relative to it): a
		 * PROG given as a relative path (with a '/'; a bare name is
		 * looked up in PATH) is made absolute before the chdir.
		 */
		char *argv[] = { (char *)trace_cmd, "extract", "-k", "-a", "-t",
				 "-o", "trace.dat", NULL, NULL, NULL };
		char cwd[PATH_MAX];

		if (uncompressed) {
			argv[7] = "--compression";
			argv[8] = "none";
		}

		/* -k: keep instances (3.1.6 deletes them otherwise) */
		dup2(fd, 1);
		dup2(fd, 2);
		if (strchr(trace_cmd, '/') && trace_cmd[0] != '/') {
			if (!getcwd(cwd, sizeof(cwd)) ||
			    asprintf(&argv[0], "%s/%s", cwd, trace_cmd) < 0) {
				log_to(2, "cannot run %s: %s\n", trace_cmd, strerror(errno));
				_exit(126);
			}
			trace_cmd = argv[0];
		}
		if (fchdir(C.outfd)) {
			log_to(2, "cannot enter %s: %s\n", C.out, strerror(errno));
			_exit(126);
		}
		execvp(trace_cmd, argv);
		log_to(2, "cannot run %s: %s\n", trace_cmd, strerror(errno));
		_exit(127);
	}
	return pid;
}

static void extract_wait(pid_t pid)
{
	int status;

	if (pid < 0)
		return;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("trace-cmd extract failed (status %d, see collect.log)",
		     WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	else
		say("extracted");
}

static void write_metadata(const struct guest *g)
{
	char *m;
	int n, errors;

	n = asprintf(&m,
		     "format=%s\n"
		     "collector=boottrace-collect %s\n"
		     "kernel_release_guest=%s\n"
		     "guest_time=%s\n"
		     "guest_btime=%lld\n"
		     "guest_boot_time=%s\n"
		     "guest_uptime_at_collect=%s\n"
		     "collect_errors=%d\n"
		     "complete=%s\n",
		     BUNDLE_FORMAT, COLLECT_VERSION, g->release, g->time, g->btime,
		     g->boot_time, g->uptime, C.errors, C.errors ? "no" : "yes");
	if (n < 0)
		die("out of memory");
	/* whole or absent: never a metadata file without its complete= line */
	errors = C.errors;
	put_file(".metadata.tmp", m, n);
	if (errors != C.errors) {
		unlinkat(C.outfd, ".metadata.tmp", 0);
	} else if (renameat(C.outfd, ".metadata.tmp", C.outfd, "metadata")) {
		fail("cannot write %s/metadata: %s", C.out, strerror(errno));
		unlinkat(C.outfd, ".metadata.tmp", 0);
	}
	free(m);
	n = asprintf(&m, "errors=%d\n", C.errors);
	if (n < 0)
		die("out of memory");
	put_file("collect.status", m, n);
	free(m);
}

/* raw disk: write the tar only onto a disk carrying the harness's marker */
static int write_disk(const char *dev)
{
	char head[sizeof(DISK_MAGIC)] = "";
	int fd = open(dev, O_RDWR | O_CLOEXEC);

	if (fd < 0) {
		say("error: cannot open %s: %s", dev, strerror(errno));
		return -1;
	}
	if (pread(fd, head, sizeof(DISK_MAGIC) - 1, 0) != sizeof(DISK_MAGIC) - 1 ||
	    memcmp(head, DISK_MAGIC, sizeof(DISK_MAGIC) - 1)) {
		say("error: %s does not carry the boottrace marker; not writing", dev);
		close(fd);
		return -1;
	}
	if (tar_write(fd, C.outfd) || fsync(fd)) {
		say("error: writing the bundle to %s failed: %s", dev, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	say("bundle written to %s", dev);
	return 0;
}

static void __attribute__((noreturn)) power_off(void)
{
	int fd;

	sync();
	reboot(RB_POWER_OFF);
	fd = open("/proc/sys/kernel/sysrq", O_WRONLY);
	write_all(fd, "1", 1);
	close(fd);
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	write_all(fd, "o", 1);
	close(fd);
	sleep(30);
	_exit(1);
}

/* an empty (or new) bundle directory; log and status files opened */
static int open_bundle(const char *dir, bool replace)
{
	struct stat st;

	if (replace)
		rm_tree(dir);
	if (mkdir(dir, 0755) && errno != EEXIST)
		die("cannot create %s: %s", dir, strerror(errno));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		die("%s is not a directory", dir);
	C.outfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (C.outfd < 0)
		die("cannot open %s: %s", dir, strerror(errno));
	if (!dir_empty(C.outfd))
		die("%s is not empty: give a new directory (nothing was written)", dir);
	C.out = dir;
	C.logfd = openat(C.outfd, "collect.log",
			 O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (C.logfd < 0)
		die("cannot write %s/collect.log: %s", dir, strerror(errno));
	return 0;
}

static void usage(FILE *f)
{
	fputs("usage: boottrace-collect -o DIR [options]\n"
	      "       boottrace-collect --initramfs\n"
	      "       boottrace-collect --add-metadata DIR < KEY=VALUE lines\n"
	      "\n"
	      "Write a boottrace bundle (docs/bundle.md) from the live tracefs:\n"
	      "stop tracing in every trace array, copy its text state (instances,\n"
	      "dynamic and synthetic events, triggers, hist, filters, error_log,\n"
	      "boot_status, per-CPU stats), /proc/bootconfig, /proc/cmdline, the\n"
	      "kernel log and uname, extract the buffers with `trace-cmd extract`\n"
	      "into trace.dat and write the metadata.  Exits 1 when the bundle is\n"
	      "incomplete (complete=no in its metadata), 2 when none was written.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output DIR    the bundle directory (new or empty)\n"
	      "  --tracefs PATH      the tracefs directory (default: where tracefs\n"
	      "                      is mounted; never mounts it); it must have\n"
	      "                      the files trace and tracing_on.  trace-cmd\n"
	      "                      extract reads only the mounted tracefs (it\n"
	      "                      cannot be told another), so without\n"
	      "                      --no-extract PATH must be that one: a\n"
	      "                      directory laid out like a tracefs (tests)\n"
	      "                      needs --no-extract\n"
	      "  --disk DEV          also write the bundle as a tar archive onto\n"
	      "                      DEV, which must start with the harness marker\n"
	      "  --trace-cmd PROG    the trace-cmd program (default: trace-cmd;\n"
	      "                      it runs in DIR as PROG extract -k -a -t\n"
	      "                      -o trace.dat)\n"
	      "  --no-extract        no trace.dat (the text state only)\n"
	      "  --initramfs         the test initramfs mode: with\n"
	      "                      boottrace.collect=DEV on the kernel command\n"
	      "                      line, mount tracefs, load boottrace.insmod=\n"
	      "                      modules, collect into " INITRAMFS_OUT ",\n"
	      "                      write it to /dev/DEV and power off; without\n"
	      "                      it, do nothing\n"
	      "  --add-metadata DIR  append the KEY=VALUE lines of stdin to\n"
	      "                      DIR/metadata (the host's additions; a key\n"
	      "                      already there is an error)\n"
	      "  -v, --verbose       progress lines on stderr\n"
	      "  -h, --help          this help\n", f);
}

/*
 * PID 1 of the harness's shell-flavour collector image
 * (dracut-module/90boottrace-collect installs this program as /init, and
 * dracut's own init as /init.dracut when the image has dracut's base): the
 * earliest the initramfs runs anything.  With boottrace.collect= on the
 * command line, mount what the collector needs (proc, sysfs, devtmpfs for
 * the disk; tracefs is mounted by find_tracefs) and go on as --initramfs;
 * without it, hand the boot to dracut's init unchanged, or power off when
 * the image has none.
 */
static void early_init(char **argv)
{
	char *cmdline, *dev;

	C.pid1 = true;
	mkdir("/proc", 0555);
	if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		die("PID 1: cannot mount /proc: %s", strerror(errno));
	cmdline = read_file("/proc/cmdline", NULL);
	dev = cmdline ? cmdline_arg(cmdline, "boottrace.collect") : NULL;
	free(cmdline);
	if (!dev) {
		if (!access(DRACUT_INIT, X_OK)) {
			umount("/proc");
			C.pid1 = false;
			execv(DRACUT_INIT, argv);
			C.pid1 = true;
		}
		die("PID 1: no boottrace.collect= on the command line, and %s: %s (this image only collects)",
		    DRACUT_INIT, strerror(errno));
	}
	free(dev);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mkdir("/run", 0755);
	if (mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) &&
	    errno != EBUSY)
		die("PID 1: cannot mount /sys: %s", strerror(errno));
	if (mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755") &&
	    errno != EBUSY)
		die("PID 1: cannot mount /dev: %s", strerror(errno));
	/* the kernel gives init no PATH; trace-cmd is looked up in it */
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 0);
}

static const char *find_tracefs(bool do_mount)
{
	const char *path = NULL;

	if (tracefs_tracing_dir_is_mounted(do_mount, &path) <= 0 && !do_mount)
		return NULL;
	if (!path || access(path, F_OK))
		return NULL;
	return path;
}

/* the tracefs `trace-cmd extract` reads: the mounted one (NULL: none) */
static const char *mounted_tracefs(void)
{
	return find_tracefs(false);
}

const char *(*extract_tracefs)(void) = mounted_tracefs;

/*
 * check_tracefs - refuse DIR (a live run's tracefs) unless it has the
 * files every trace array has, and with EXTRACT unless it is the mounted
 * tracefs: `trace-cmd extract` (3.1.6, libtracefs 1.6) cannot be told a
 * tracefs directory (no option, no environment variable); it reads the
 * first tracefs in /proc/mounts, or mounts one, so trace.dat would not
 * come from DIR.  The same directory by another path (a second mount of
 * tracefs, /sys/kernel/debug/tracing) is the same tracefs.
 */
static void check_tracefs(const char *dir, bool extract)
{
	static const char *const files[] = { "trace", "tracing_on" };
	const char *mounted;
	struct stat st, mst;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *p = path_join(dir, files[i]);
		bool ok = !stat(p, &st) && S_ISREG(st.st_mode);

		free(p);
		if (!ok)
			die("%s is not a tracefs: it has no file '%s' (give the tracefs directory, e.g. /sys/kernel/tracing); nothing was written",
			    dir, files[i]);
	}
	if (!extract)
		return;
	mounted = extract_tracefs();
	if (!mounted || stat(dir, &st) || stat(mounted, &mst) ||
	    st.st_dev != mst.st_dev || st.st_ino != mst.st_ino)
		die("%s is not the mounted tracefs (%s), the only one trace-cmd extract reads: trace.dat would not come from it; add --no-extract to collect %s without trace.dat; nothing was written",
		    dir, mounted ? mounted : "none is mounted", dir);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *disk = NULL, *trace_cmd = "trace-cmd";
	const char *meta_dir = NULL;
	bool initramfs = false, no_extract = false;
	pid_t extractor = -1;
	char *cmdline, **names, *devname = NULL;
	struct guest g = { .release = "" };

	signal(SIGXFSZ, SIG_IGN);	/* a file size limit is a write error */
	if (getpid() == 1) {
		/* the kernel's arguments to init are not ours to parse */
		early_init(argv);
		initramfs = true;
		argc = 1;
	}
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool more = i + 1 < argc;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (!more)
				die("%s needs a directory", a);
			out = argv[++i];
		} else if (!strcmp(a, "--tracefs")) {
			if (!more)
				die("--tracefs needs a directory");
			C.tracefs = argv[++i];
		} else if (!strcmp(a, "--disk")) {
			if (!more)
				die("--disk needs a device");
			disk = argv[++i];
		} else if (!strcmp(a, "--trace-cmd")) {
			if (!more)
				die("--trace-cmd needs a program");
			trace_cmd = argv[++i];
		} else if (!strcmp(a, "--add-metadata")) {
			if (!more)
				die("--add-metadata needs a bundle directory");
			meta_dir = argv[++i];
		} else if (!strcmp(a, "--no-extract")) {
			no_extract = true;
		} else if (!strcmp(a, "--initramfs")) {
			initramfs = true;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			C.verbose = true;
		} else {
			die("unknown argument '%s' (see --help)", a);
		}
	}
	if (meta_dir)
		return add_metadata(meta_dir, stdin, "stdin") ? 2 : 0;

	cmdline = read_file("/proc/cmdline", NULL);
	if (initramfs) {
		devname = cmdline ? cmdline_arg(cmdline, "boottrace.collect") : NULL;
		if (!devname)
			return 0;
		C.consfd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (!plain_name(devname) || strchr(devname, '.')) {
			say("error: bad boottrace.collect=%s", devname);
			if (C.pid1)
				power_off();
			return 0;
		}
		mkdir("/run/boottrace", 0755);
		open_bundle(INITRAMFS_OUT, true);
		say("collecting");
		if (!C.tracefs) {
			C.tracefs = find_tracefs(true);
			if (!C.tracefs) {
				fail("cannot mount tracefs");
				C.tracefs = DEFAULT_TRACEFS;
			}
		}
		load_modules(cmdline);
		/* what the boot configured: the events worth reading */
		C.bootconfig = read_file("/proc/bootconfig", NULL);
		if (!C.bootconfig)
			C.bootconfig = strdup("");
		if (!C.bootconfig)
			die("out of memory");
	} else {
		if (!out)
			die("no output directory given: use -o DIR (see --help)");
		if (!C.tracefs) {
			C.tracefs = find_tracefs(false);
			if (!C.tracefs)
				die("no tracefs: it is not mounted (mount -t tracefs nodev /sys/kernel/tracing, as root) or the kernel has no CONFIG_FTRACE; nothing was written");
		}
		if (access(C.tracefs, R_OK | X_OK))
			die("no tracefs at %s: %s; nothing was written", C.tracefs, strerror(errno));
		check_tracefs(C.tracefs, !no_extract);
		open_bundle(out, false);
		say("collecting from %s", C.tracefs);
	}
	if (!cmdline)
		fail("cannot read /proc/cmdline: %s", strerror(errno));

	names = instances();
	stop_tracing(names);
	say("tracing stopped");
	dump_counters(names);
	if (!no_extract) {
		char *top = path_join(C.tracefs, "trace");

		if (access(top, F_OK)) {
			fail("no tracefs at %s: nothing to extract", C.tracefs);
		} else {
			/* uncompressed only for the harness's boots, and when
			 * there is room: a live system's archive keeps it */
			char *mem = initramfs ? read_file("/proc/meminfo", NULL) : NULL;

			extractor = extract_start(trace_cmd, mem &&
						  room_uncompressed(buffers_kb(names), mem));
			free(mem);
		}
		free(top);
	}
	dump_tracefs(names);
	free_names(names);
	say("tracefs state dumped");
	dump_system(&g);
	say("system state dumped");
	extract_wait(extractor);
	write_metadata(&g);
	if (initramfs) {
		char *dev;

		if (asprintf(&dev, "/dev/%s", devname) < 0)
			die("out of memory");
		write_disk(dev);
		free(dev);
		say("done, powering off");
		power_off();
	}
	if (disk && write_disk(disk))
		C.errors++;
	free(cmdline);
	if (C.errors) {
		fprintf(stderr, "boottrace-collect: %s is incomplete: %d problem(s), see %s/collect.log\n",
			out, C.errors, out);
		return 1;
	}
	if (C.verbose)
		fprintf(stderr, "boottrace-collect: bundle %s\n", out);
	return 0;
}
