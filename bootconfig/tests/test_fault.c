// SPDX-License-Identifier: GPL-2.0
/*
 * test_fault.c - apply and delete under failures: every system call the
 * library makes failed in turn, no space left (RLIMIT_FSIZE, a full tmpfs),
 * read-only directories and file systems, and the process killed while it
 * writes.  After each, the initrd must be byte-identical to the original
 * (or, where the failure came after the rename, to the new image) and no
 * temporary file may be left, except after SIGKILL, when the next run must
 * remove it.
 *
 * The library's calls are intercepted with ld --wrap (test_fault.ldflags):
 * __wrap_X counts the calls made while a test has armed the injector and
 * fails (or kills the process at) the chosen one; otherwise it calls the
 * real X.  The test's own file handling runs unarmed.
 *
 * Environment: BCONF_FAULT_SEED fixes the seed of the random kill delays
 * (printed either way).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bootconfig.h"
#include "unit.h"

/* --- the injector ------------------------------------------------------- */

enum fn {
	F_OPEN, F_OPENAT, F_PREAD, F_WRITE, F_FSYNC, F_FCHOWN, F_FCHMOD,
	F_FSTAT, F_FSTATAT, F_RENAMEAT, F_UNLINKAT, F_CLOSE, F_FLOCK,
	F_GETRANDOM, F_REALPATH, F_FDOPENDIR, F_LSEEK, F_FTRUNCATE,
	F_FSTATVFS, F_IOCTL, F_N,
	F_ANY = F_N,
};

static const char *const fn_name[F_N] = {
	"open", "openat", "pread", "write", "fsync", "fchown", "fchmod",
	"fstat", "fstatat", "renameat", "unlinkat", "close", "flock",
	"getrandom", "realpath", "fdopendir", "lseek", "ftruncate",
	"fstatvfs", "ioctl",
};

static struct {
	int armed;
	long calls[F_N + 1];	/* per function, and F_ANY: all of them */
	int fail_fn;		/* F_ANY: the fail_at-th call of any */
	long fail_at;
	int fail_errno;
	int kill;		/* SIGKILL instead of failing */
	size_t write_max;	/* short writes: at most this many bytes */
	int hit;		/* the failure was injected */
	int hit_dir;		/* ... on a directory file descriptor */
} inj;

static void arm(int fn, long at, int err)
{
	memset(&inj, 0, sizeof(inj));
	inj.fail_fn = fn;
	inj.fail_at = at;
	inj.fail_errno = err;
	inj.armed = 1;
}

static void disarm(void)
{
	inj.armed = 0;
}

int __real_open(const char *path, int flags, ...);
int __real_openat(int dirfd, const char *path, int flags, ...);
ssize_t __real_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __real_write(int fd, const void *buf, size_t n);
int __real_fsync(int fd);
int __real_fchown(int fd, uid_t uid, gid_t gid);
int __real_fchmod(int fd, mode_t mode);
int __real_fstat(int fd, struct stat *st);
int __real_fstatat(int dirfd, const char *path, struct stat *st, int flags);
int __real_renameat(int a, const char *pa, int b, const char *pb);
int __real_unlinkat(int dirfd, const char *path, int flags);
int __real_close(int fd);
int __real_flock(int fd, int op);
ssize_t __real_getrandom(void *buf, size_t n, unsigned int flags);
char *__real_realpath(const char *path, char *resolved);
DIR *__real_fdopendir(int fd);
off_t __real_lseek(int fd, off_t off, int whence);
int __real_ftruncate(int fd, off_t len);
int __real_fstatvfs(int fd, struct statvfs *st);
int __real_ioctl(int fd, unsigned long req, ...);

int __wrap_open(const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __wrap_write(int fd, const void *buf, size_t n);
int __wrap_fsync(int fd);
int __wrap_fchown(int fd, uid_t uid, gid_t gid);
int __wrap_fchmod(int fd, mode_t mode);
int __wrap_fstat(int fd, struct stat *st);
int __wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags);
int __wrap_renameat(int a, const char *pa, int b, const char *pb);
int __wrap_unlinkat(int dirfd, const char *path, int flags);
int __wrap_close(int fd);
int __wrap_flock(int fd, int op);
ssize_t __wrap_getrandom(void *buf, size_t n, unsigned int flags);
char *__wrap_realpath(const char *path, char *resolved);
DIR *__wrap_fdopendir(int fd);
off_t __wrap_lseek(int fd, off_t off, int whence);
int __wrap_ftruncate(int fd, off_t len);
int __wrap_fstatvfs(int fd, struct statvfs *st);
int __wrap_ioctl(int fd, unsigned long req, ...);

static int is_dir_fd(int fd)
{
	struct stat st;

	return __real_fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

/* 0: go on with the real call; else the errno to fail with. */
static int inject(enum fn f, int fd)
{
	long n, any;

	if (!inj.armed)
		return 0;
	n = ++inj.calls[f];
	any = ++inj.calls[F_ANY];
	if (inj.fail_fn == F_ANY ? any != inj.fail_at :
	    (inj.fail_fn != (int)f || n != inj.fail_at))
		return 0;
	if (inj.kill)
		raise(SIGKILL);
	inj.hit = 1;
	inj.hit_dir = fd >= 0 && is_dir_fd(fd);
	return inj.fail_errno;
}

#define INJECT(f, fd, failval)				\
	do {						\
		int e_ = inject(f, fd);			\
		if (e_) {				\
			errno = e_;			\
			return failval;			\
		}					\
	} while (0)

int __wrap_open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	INJECT(F_OPEN, -1, -1);
	return __real_open(path, flags, mode);
}

int __wrap_openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	INJECT(F_OPENAT, -1, -1);
	return __real_openat(dirfd, path, flags, mode);
}

ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t off)
{
	INJECT(F_PREAD, fd, -1);
	return __real_pread(fd, buf, n, off);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n)
{
	INJECT(F_WRITE, fd, -1);
	if (inj.armed && inj.write_max && n > inj.write_max)
		n = inj.write_max;
	return __real_write(fd, buf, n);
}

int __wrap_fsync(int fd)
{
	INJECT(F_FSYNC, fd, -1);
	return __real_fsync(fd);
}

int __wrap_fchown(int fd, uid_t uid, gid_t gid)
{
	INJECT(F_FCHOWN, fd, -1);
	return __real_fchown(fd, uid, gid);
}

int __wrap_fchmod(int fd, mode_t mode)
{
	INJECT(F_FCHMOD, fd, -1);
	return __real_fchmod(fd, mode);
}

int __wrap_fstat(int fd, struct stat *st)
{
	INJECT(F_FSTAT, fd, -1);
	return __real_fstat(fd, st);
}

int __wrap_fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	INJECT(F_FSTATAT, -1, -1);
	return __real_fstatat(dirfd, path, st, flags);
}

int __wrap_renameat(int a, const char *pa, int b, const char *pb)
{
	INJECT(F_RENAMEAT, -1, -1);
	return __real_renameat(a, pa, b, pb);
}

int __wrap_unlinkat(int dirfd, const char *path, int flags)
{
	INJECT(F_UNLINKAT, -1, -1);
	return __real_unlinkat(dirfd, path, flags);
}

int __wrap_close(int fd)
{
	/* close() releases the descriptor even when it reports an error */
	int e = inject(F_CLOSE, fd);

	if (e) {
		__real_close(fd);
		errno = e;
		return -1;
	}
	return __real_close(fd);
}

int __wrap_flock(int fd, int op)
{
	INJECT(F_FLOCK, fd, -1);
	return __real_flock(fd, op);
}

ssize_t __wrap_getrandom(void *buf, size_t n, unsigned int flags)
{
	INJECT(F_GETRANDOM, -1, -1);
	return __real_getrandom(buf, n, flags);
}

char *__wrap_realpath(const char *path, char *resolved)
{
	INJECT(F_REALPATH, -1, NULL);
	return __real_realpath(path, resolved);
}

DIR *__wrap_fdopendir(int fd)
{
	INJECT(F_FDOPENDIR, fd, NULL);
	return __real_fdopendir(fd);
}

off_t __wrap_lseek(int fd, off_t off, int whence)
{
	INJECT(F_LSEEK, fd, -1);
	return __real_lseek(fd, off, whence);
}

int __wrap_ftruncate(int fd, off_t len)
{
	INJECT(F_FTRUNCATE, fd, -1);
	return __real_ftruncate(fd, len);
}

int __wrap_fstatvfs(int fd, struct statvfs *st)
{
	INJECT(F_FSTATVFS, fd, -1);
	return __real_fstatvfs(fd, st);
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	INJECT(F_IOCTL, fd, -1);
	return __real_ioctl(fd, req, arg);
}

/* --- files ---------------------------------------------------------------- */

static char tmpdir[1024];

static char *path_in(const char *name)
{
	static char buf[8][PATH_MAX];
	static int i;
	char *p = buf[i++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", tmpdir, name);
	return p;
}

static void put_file(const char *path, const void *data, size_t len)
{
	const char *p = data;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		goto fail;
	while (len) {
		n = write(fd, p, len);
		if (n <= 0)
			goto fail;
		p += n;
		len -= (size_t)n;
	}
	if (close(fd) == 0)
		return;
fail:
	perror(path);
	exit(2);
}

static unsigned char *get_file(const char *path, size_t *len)
{
	unsigned char *p = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY);

	*len = (size_t)-1;
	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && (p = malloc((size_t)st.st_size + 1)) &&
	    pread(fd, p, (size_t)st.st_size, 0) == st.st_size)
		*len = (size_t)st.st_size;
	close(fd);
	return p;
}

struct blob {
	unsigned char *p;
	size_t len;
};

static int file_is(const char *path, const struct blob *b)
{
	size_t len;
	unsigned char *got = get_file(path, &len);
	int ok = got && len == b->len && !memcmp(got, b->p, len);

	free(got);
	return ok;
}

/* Entries of @dir other than "." and ".."; our temporaries in *@temps. */
static int dir_entries(const char *dir, int *temps)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	*temps = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		n++;
		if (de->d_name[0] == '.' && strstr(de->d_name, ".bconf-"))
			(*temps)++;
	}
	closedir(d);
	return n;
}

static void fill_random(unsigned char *p, size_t n, uint64_t *s)
{
	while (n--) {
		*s ^= *s << 13;
		*s ^= *s >> 7;
		*s ^= *s << 17;
		*p++ = (unsigned char)(*s >> 32);
	}
}

/*
 * A test initrd: @img random bytes, with an old trailer or not, plus the
 * two expected results: after apply of NEW_TEXT and after delete.
 */
#define OLD_TEXT "ftrace.tracer = function\n"
#define NEW_TEXT "kernel.trace_clock = global\nftrace.event.sched.enable\n"

struct fixture {
	char *path;
	struct blob orig, applied, deleted;
	mode_t mode;
	uid_t uid;
	gid_t gid;
};

static struct blob image_with(const unsigned char *img, size_t n,
			      const char *text)
{
	size_t total = text ? (n + strlen(text) + 1 + 20 + 3) / 4 * 4 : n;
	struct blob b = { malloc(total + 1), total };
	size_t size = total - n - 20;
	uint32_t sum = 0;

	memcpy(b.p, img, n);
	if (!text)
		return b;
	memset(b.p + n, 0, size);
	memcpy(b.p + n, text, strlen(text));
	for (size_t i = 0; i < strlen(text); i++)
		sum += (unsigned char)text[i];
	for (int i = 0; i < 4; i++) {
		b.p[n + size + i] = (unsigned char)(size >> (8 * i));
		b.p[n + size + 4 + i] = (unsigned char)(sum >> (8 * i));
	}
	memcpy(b.p + n + size + 8, "#BOOTCONFIG\n", 12);
	return b;
}

static void fixture_init(struct fixture *f, const char *name, size_t img,
			 int with_old, uint64_t seed)
{
	unsigned char *p = malloc(img + 1);

	fill_random(p, img, &seed);
	f->path = strdup(path_in(name));
	f->orig = image_with(p, img, with_old ? OLD_TEXT : NULL);
	f->applied = image_with(p, img, NEW_TEXT);
	f->deleted = image_with(p, img, NULL);
	f->mode = 0640;
	f->uid = geteuid() == 0 ? 1234 : geteuid();
	f->gid = geteuid() == 0 ? 5678 : getegid();
	free(p);
}

static void fixture_reset(struct fixture *f)
{
	put_file(f->path, f->orig.p, f->orig.len);
	if (chmod(f->path, f->mode) || chown(f->path, f->uid, f->gid)) {
		perror(f->path);
		exit(2);
	}
}

static void fixture_free(struct fixture *f)
{
	free(f->path);
	free(f->orig.p);
	free(f->applied.p);
	free(f->deleted.p);
}

enum op { OP_APPLY, OP_DELETE, OP_READ };

/* BCONF_UPDATE_IN_PLACE for the tests of that mode */
static unsigned int op_flags;

static int run_op(enum op op, const char *path)
{
	char *text = NULL;
	size_t len;
	int ret;

	switch (op) {
	case OP_APPLY:
		return bconf_initrd_update(path, NEW_TEXT, strlen(NEW_TEXT),
					   op_flags, NULL, NULL);
	case OP_DELETE:
		return bconf_initrd_update(path, NULL, 0,
					   op_flags | BCONF_UPDATE_DELETE,
					   NULL, NULL);
	default:
		ret = bconf_initrd_read(path, &text, &len, NULL);
		if (!ret && strcmp(text, OLD_TEXT))
			ret = -EILSEQ;	/* wrong text: never injected */
		free(text);
		return ret;
	}
}

static const struct blob *expected(struct fixture *f, enum op op)
{
	return op == OP_APPLY ? &f->applied :
	       op == OP_DELETE ? &f->deleted : &f->orig;
}

/* The file, its mode and owner are as after a successful @op. */
static int is_result(struct fixture *f, enum op op)
{
	struct stat st;

	if (!file_is(f->path, expected(f, op)) || stat(f->path, &st))
		return 0;
	return (st.st_mode & 07777) == f->mode && st.st_uid == f->uid &&
	       st.st_gid == f->gid;
}

static int is_untouched(struct fixture *f)
{
	return file_is(f->path, &f->orig);
}

/* --- each call failed in turn --------------------------------------------- */

struct fault_case {
	enum fn fn;
	int err;
	int must_succeed;	/* a retried or ignored failure */
};

static const struct fault_case cases[] = {
	{ F_OPEN, EACCES, 0 },	{ F_OPEN, EMFILE, 0 },
	{ F_OPENAT, EACCES, 0 }, { F_OPENAT, EROFS, 0 },
	{ F_OPENAT, EDQUOT, 0 }, { F_OPENAT, EEXIST, 0 },
	{ F_PREAD, EIO, 0 },	{ F_PREAD, EINTR, 1 },
	{ F_WRITE, ENOSPC, 0 },	{ F_WRITE, EIO, 0 },
	{ F_WRITE, EFBIG, 0 },	{ F_WRITE, EINTR, 1 },
	{ F_FSYNC, EIO, 0 },	{ F_FSYNC, ENOSPC, 0 },
	{ F_FCHOWN, EPERM, 0 },	{ F_FCHMOD, EPERM, 0 },
	{ F_FSTAT, EIO, 0 },	{ F_FSTATAT, EIO, 0 },
	{ F_RENAMEAT, EIO, 0 },	{ F_RENAMEAT, EBUSY, 0 },
	{ F_UNLINKAT, EIO, 1 },	{ F_CLOSE, EIO, 1 },
	{ F_FLOCK, ENOLCK, 1 },	{ F_FLOCK, EWOULDBLOCK, 1 },
	{ F_GETRANDOM, ENOSYS, 1 }, { F_REALPATH, ENOMEM, 0 },
	{ F_FDOPENDIR, ENOMEM, 1 }, { F_LSEEK, EIO, 0 },
	{ F_FTRUNCATE, EIO, 0 }, { F_FSTATVFS, ENOSYS, 1 },
	{ F_IOCTL, EOPNOTSUPP, 1 }, { F_IOCTL, EXDEV, 1 },
};

/*
 * One injected failure: the operation fails with that errno and leaves
 * the file untouched, or (a failure the library may ignore or retry)
 * succeeds with the right result.  Never a temporary file left.
 * Returns 1 when the injection made the operation fail.
 */
static int one_fault(struct unit *u, struct fixture *f, enum op op,
		     const struct fault_case *c, long at)
{
	int ret, temps, n, ok, stale;

	fixture_reset(f);
	/* a stale temporary, so that the cleanup path runs too */
	if (op != OP_READ)
		put_file(path_in(".initrd.img.bconf-Stale1"), "x", 1);
	arm(c->fn, at, c->err);
	ret = run_op(op, f->path);
	disarm();
	n = dir_entries(tmpdir, &temps);
	if (!ret)
		ok = is_result(f, op);
	else if (ret != -c->err || c->must_succeed)
		ok = 0;
	else if (c->fn == F_FSYNC && inj.hit_dir)
		ok = is_result(f, op);	/* after the rename: the new file */
	else
		ok = is_untouched(f);
	/* the planted stale temporary may stay; no other may appear */
	stale = access(path_in(".initrd.img.bconf-Stale1"), F_OK) == 0;
	if (!ok || n != 1 + stale || temps != stale) {
		fprintf(stderr,
			"  op %d: %s #%ld failed with %s: ret %d (%s), %d files, %d temps\n",
			op, fn_name[c->fn], at, strerror(c->err), ret,
			ret ? strerror(-ret) : "ok", n, temps);
		UNIT_EXPECT(u, 0);
	}
	unlink(path_in(".initrd.img.bconf-Stale1"));
	return ret != 0;
}

/* Count the calls of a clean run, then fail each of them in turn. */
static void fault_each_call(struct unit *u, struct fixture *f, enum op op)
{
	/* per function: the most calls whose failure failed the operation */
	long calls[F_N], failed[F_N] = { 0 };
	size_t i;

	fixture_reset(f);
	put_file(path_in(".initrd.img.bconf-Stale1"), "x", 1);
	arm(F_N, 0, 0);
	UNIT_EXPECT_INT(u, run_op(op, f->path), 0);
	disarm();
	UNIT_EXPECT(u, is_result(f, op));
	memcpy(calls, inj.calls, sizeof(calls));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fault_case *c = &cases[i];

		long n = 0;

		for (long at = 1; at <= calls[c->fn]; at++)
			n += one_fault(u, f, op, c, at);
		if (n > failed[c->fn])
			failed[c->fn] = n;
	}
	/* every step that must be able to fail did fail the operation */
	UNIT_EXPECT(u, failed[F_OPEN] > 0);
	UNIT_EXPECT(u, failed[F_PREAD] > 0);
	UNIT_EXPECT(u, failed[F_FSTAT] > 0);
	if (op == OP_READ)
		return;
	UNIT_EXPECT(u, failed[F_REALPATH] > 0);
	UNIT_EXPECT(u, failed[F_OPENAT] > 0);
	UNIT_EXPECT(u, failed[F_WRITE] > 0 || (op_flags && op == OP_DELETE));
	UNIT_EXPECT(u, failed[F_FSYNC] >= 2 || (op_flags && op == OP_DELETE));
	UNIT_EXPECT(u, failed[F_FSTATAT] > 0);
	UNIT_EXPECT(u, failed[F_FTRUNCATE] > 0 || (op_flags && op == OP_APPLY &&
						  f->orig.len == f->deleted.len));
	if (op_flags)
		return;		/* no temporary file, no rename */
	UNIT_EXPECT(u, failed[F_FCHMOD] > 0);
	UNIT_EXPECT(u, failed[F_RENAMEAT] > 0);
	if (geteuid() == 0)
		UNIT_EXPECT(u, failed[F_FCHOWN] > 0);
	UNIT_EXPECT(u, calls[F_WRITE] >= 3);	/* the image took chunks */
}

static void test_fault_apply(struct unit *u)
{
	struct fixture f;

	fixture_init(&f, "initrd.img", 300001, 1, 1);
	fault_each_call(u, &f, OP_APPLY);
	fixture_free(&f);
	/* an image without a trailer yet */
	fixture_init(&f, "initrd.img", 300002, 0, 2);
	fault_each_call(u, &f, OP_APPLY);
	fixture_free(&f);
}

static void test_fault_delete(struct unit *u)
{
	struct fixture f;

	fixture_init(&f, "initrd.img", 300003, 1, 3);
	fault_each_call(u, &f, OP_DELETE);
	fixture_free(&f);
}

/* The same in place: each failure leaves the old file (restored). */
static void test_fault_in_place(struct unit *u)
{
	struct fixture f;

	op_flags = BCONF_UPDATE_IN_PLACE;
	fixture_init(&f, "initrd.img", 300001, 1, 21);
	fault_each_call(u, &f, OP_APPLY);
	fault_each_call(u, &f, OP_DELETE);
	fixture_free(&f);
	fixture_init(&f, "initrd.img", 300002, 0, 22);
	fault_each_call(u, &f, OP_APPLY);
	fixture_free(&f);
	op_flags = 0;
}

static void test_fault_read(struct unit *u)
{
	struct fixture f;

	fixture_init(&f, "initrd.img", 1003, 1, 4);
	fault_each_call(u, &f, OP_READ);
	fixture_free(&f);
	unlink(path_in("initrd.img"));
}

/* Short writes of odd lengths still give the exact result. */
static void test_short_writes(struct unit *u)
{
	struct fixture f;

	fixture_init(&f, "initrd.img", 100003, 1, 5);
	fixture_reset(&f);
	arm(F_N, 0, 0);
	inj.write_max = 4097;
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, f.path), 0);
	UNIT_EXPECT(u, inj.calls[F_WRITE] > 100003 / 4097);
	disarm();
	UNIT_EXPECT(u, is_result(&f, OP_APPLY));
	fixture_free(&f);
}

/* --- in a child process ----------------------------------------------------- */

#define SKIP_EXIT 77

/* Run @fn in a child; its failures count for @u.  Returns 1 when skipped. */
static int in_child(struct unit *u, void (*fn)(struct unit *u))
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		UNIT_EXPECT(u, pid >= 0);
		return 0;
	}
	if (!pid) {
		struct unit cu = *u;

		fn(&cu);
		fflush(NULL);
		_exit(cu.failed ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	if (WIFEXITED(status) && WEXITSTATUS(status) == SKIP_EXIT)
		return 1;
	UNIT_EXPECT(u, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return 0;
}

/* Exit status of a child running @op with the errno of a failure. */
static int op_in_child(enum op op, const char *path, rlim_t fsize)
{
	int status, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid) {
		if (fsize != RLIM_INFINITY) {
			struct rlimit rl = { fsize, fsize };

			signal(SIGXFSZ, SIG_IGN);
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(100);
		}
		ret = run_op(op, path);
		_exit(ret < 0 && -ret < 100 ? -ret : ret ? 101 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* --- no space left -------------------------------------------------------- */

static void test_rlimit_fsize(struct unit *u)
{
	struct fixture f;
	int temps;

	fixture_init(&f, "initrd.img", 200001, 1, 6);
	const rlim_t limits[] = { 0, 1, 4096, f.orig.len - 200,
				  f.applied.len - 1 };

	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		fixture_reset(&f);
		UNIT_EXPECT_INT(u, op_in_child(OP_APPLY, f.path, limits[i]),
				EFBIG);
		UNIT_EXPECT(u, is_untouched(&f));
		UNIT_EXPECT_INT(u, dir_entries(tmpdir, &temps), 1);
		UNIT_EXPECT_INT(u, temps, 0);
	}
	/* the exact size fits */
	fixture_reset(&f);
	UNIT_EXPECT_INT(u, op_in_child(OP_APPLY, f.path, f.applied.len), 0);
	UNIT_EXPECT(u, is_result(&f, OP_APPLY));
	fixture_reset(&f);
	UNIT_EXPECT_INT(u, op_in_child(OP_DELETE, f.path, f.deleted.len - 1),
			EFBIG);
	UNIT_EXPECT(u, is_untouched(&f));
	UNIT_EXPECT_INT(u, op_in_child(OP_DELETE, f.path, f.deleted.len), 0);
	UNIT_EXPECT(u, is_result(&f, OP_DELETE));
	fixture_free(&f);
	unlink(path_in("initrd.img"));
}

/*
 * A small tmpfs, then remounted read-only, in a private mount namespace of
 * a child so that nothing leaks into the host's mounts.
 */
static void tmpfs_child(struct unit *u)
{
	char *mnt = path_in("mnt");
	struct bconf_space sp;
	struct fixture f;
	int temps;

	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", mnt, "tmpfs", 0, "size=256k,mode=0755")) {
		printf("  skip tmpfs: cannot mount here (%s): needs root and mount namespaces\n",
		       strerror(errno));
		fflush(NULL);
		_exit(SKIP_EXIT);
	}
	fixture_init(&f, "mnt/initrd.img", 160000, 1, 7);
	fixture_reset(&f);
	/* room for one copy, not two: refused before writing, with figures */
	UNIT_EXPECT_INT(u, bconf_initrd_update(f.path, NEW_TEXT, strlen(NEW_TEXT),
					       0, NULL, &sp), -ENOSPC);
	UNIT_EXPECT(u, sp.need >= f.applied.len && sp.need > sp.avail &&
		       sp.avail > 0);
	UNIT_EXPECT(u, is_untouched(&f));
	UNIT_EXPECT_INT(u, bconf_initrd_update(f.path, NULL, 0,
					       BCONF_UPDATE_DELETE, NULL, &sp),
			-ENOSPC);
	UNIT_EXPECT(u, sp.need >= f.deleted.len && sp.need > sp.avail);
	UNIT_EXPECT(u, is_untouched(&f));
	UNIT_EXPECT_INT(u, dir_entries(mnt, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
	/* in place needs no copy */
	op_flags = BCONF_UPDATE_IN_PLACE;
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, f.path), 0);
	UNIT_EXPECT(u, is_result(&f, OP_APPLY));
	UNIT_EXPECT_INT(u, run_op(OP_DELETE, f.path), 0);
	UNIT_EXPECT(u, is_result(&f, OP_DELETE));
	op_flags = 0;
	UNIT_EXPECT_INT(u, dir_entries(mnt, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
	fixture_free(&f);

	fixture_init(&f, "mnt/initrd.img", 90000, 1, 8);
	fixture_reset(&f);
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, f.path), 0);
	UNIT_EXPECT(u, is_result(&f, OP_APPLY));
	/* read-only file system: read works, apply and delete refuse */
	fixture_reset(&f);
	UNIT_EXPECT(u, mount(NULL, mnt, NULL, MS_REMOUNT | MS_RDONLY, NULL) == 0);
	UNIT_EXPECT_INT(u, run_op(OP_READ, f.path), 0);
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, f.path), -EROFS);
	UNIT_EXPECT_INT(u, run_op(OP_DELETE, f.path), -EROFS);
	UNIT_EXPECT(u, is_untouched(&f));
	UNIT_EXPECT_INT(u, dir_entries(mnt, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
	fixture_free(&f);
}

static void test_tmpfs(struct unit *u)
{
	mkdir(path_in("mnt"), 0755);
	if (in_child(u, tmpfs_child))
		unit_skip(u, "no tmpfs could be mounted");
	rmdir(path_in("mnt"));
}

/* --- read-only directory, for real: as an unprivileged user ------------ */

static void drop_root(void)
{
	if (geteuid() != 0)
		return;
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
		printf("  skip: cannot become nobody: %s\n", strerror(errno));
		fflush(NULL);
		_exit(SKIP_EXIT);
	}
}

static void ro_dir_child(struct unit *u)
{
	char *dir = path_in("ro"), *path = path_in("ro/initrd.img");
	int temps;

	drop_root();
	if (access(path, R_OK)) {
		printf("  skip: %s not readable by uid %d\n", path, getuid());
		fflush(NULL);
		_exit(SKIP_EXIT);
	}
	UNIT_EXPECT_INT(u, run_op(OP_READ, path), 0);
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, path), -EACCES);
	UNIT_EXPECT_INT(u, run_op(OP_DELETE, path), -EACCES);
	UNIT_EXPECT_INT(u, dir_entries(dir, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
}

/*
 * As nobody in a directory nobody may write: a file nobody may not write
 * (another owner's 0444 file, or nobody's own) is refused as the tree's
 * tool refuses it (EACCES), in both modes; one nobody may write but whose
 * owner cannot be kept is refused with EPERM.
 */
static void expect_refused(struct unit *u, int err)
{
	char *dir = path_in("rw"), *path = path_in("rw/initrd.img");
	int temps;

	drop_root();
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, path), -err);
	UNIT_EXPECT_INT(u, run_op(OP_DELETE, path), -err);
	if (err == EACCES) {
		op_flags = BCONF_UPDATE_IN_PLACE;
		UNIT_EXPECT_INT(u, run_op(OP_APPLY, path), -err);
		op_flags = 0;
	}
	UNIT_EXPECT_INT(u, dir_entries(dir, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
}

static void eacces_child(struct unit *u)
{
	expect_refused(u, EACCES);
}

static void eperm_child(struct unit *u)
{
	expect_refused(u, EPERM);
}

static void own_file_child(struct unit *u)
{
	drop_root();
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, path_in("rw/initrd.img")), 0);
}

/* In place needs write permission on the file only, not on its directory. */
static void in_place_child(struct unit *u)
{
	drop_root();
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, path_in("ro/initrd.img")), -EACCES);
	op_flags = BCONF_UPDATE_IN_PLACE;
	UNIT_EXPECT_INT(u, run_op(OP_APPLY, path_in("ro/initrd.img")), 0);
	op_flags = 0;
}

static void test_readonly_dir(struct unit *u)
{
	struct fixture f;
	struct stat st;

	UNIT_EXPECT(u, chmod(tmpdir, 0755) == 0);
	UNIT_EXPECT(u, mkdir(path_in("ro"), 0755) == 0);
	fixture_init(&f, "ro/initrd.img", 5000, 1, 9);
	f.uid = geteuid();
	f.gid = getegid();
	f.mode = 0644;
	fixture_reset(&f);
	UNIT_EXPECT(u, chmod(path_in("ro"), 0555) == 0);
	if (!in_child(u, ro_dir_child))
		UNIT_EXPECT(u, is_untouched(&f));
	f.mode = 0666;
	fixture_reset(&f);
	if (!in_child(u, in_place_child))
		UNIT_EXPECT(u, is_result(&f, OP_APPLY));
	chmod(path_in("ro"), 0755);
	unlink(f.path);
	rmdir(path_in("ro"));
	fixture_free(&f);
	if (geteuid() != 0) {
		printf("  skip owner tests: not root\n");
		return;
	}
	/* a directory only nobody may write to, holding root's initrd */
	UNIT_EXPECT(u, mkdir(path_in("rw"), 0755) == 0);
	UNIT_EXPECT(u, chown(path_in("rw"), 65534, 65534) == 0);
	fixture_init(&f, "rw/initrd.img", 5000, 1, 10);
	f.uid = 0;
	f.gid = 0;
	const mode_t refused[] = { 0444, 0644 };
	for (size_t i = 0; i < 2; i++) {
		f.mode = refused[i];
		fixture_reset(&f);
		if (!in_child(u, eacces_child))
			UNIT_EXPECT(u, is_untouched(&f));
	}
	f.mode = 0666;		/* writable, but root's: owner not kept */
	fixture_reset(&f);
	if (!in_child(u, eperm_child))
		UNIT_EXPECT(u, is_untouched(&f));
	/* nobody's own 0444 file: refused too; 0644: owner and mode kept */
	f.uid = 65534;
	f.gid = 65534;
	f.mode = 0444;
	fixture_reset(&f);
	if (!in_child(u, eacces_child))
		UNIT_EXPECT(u, is_untouched(&f));
	f.mode = 0644;
	fixture_reset(&f);
	if (!in_child(u, own_file_child)) {
		UNIT_EXPECT(u, is_result(&f, OP_APPLY));
		UNIT_EXPECT(u, stat(f.path, &st) == 0 && st.st_uid == 65534);
	}
	unlink(f.path);
	rmdir(path_in("rw"));
	fixture_free(&f);
	chmod(tmpdir, 0700);
}

/* --- killed mid-write --------------------------------------------------- */

struct kill_stats {
	int old, new, temp;
};

/*
 * After a kill: the file is the old or the new image, at most one
 * temporary is left, and the next run removes it and succeeds.
 */
static void after_kill(struct unit *u, struct fixture *f, enum op op,
		       struct kill_stats *ks)
{
	int temps, n;

	if (is_untouched(f))
		ks->old++;
	else if (is_result(f, op))
		ks->new++;
	else
		UNIT_EXPECT(u, !"file neither old nor new after SIGKILL");
	n = dir_entries(tmpdir, &temps);
	UNIT_EXPECT(u, temps <= 1 && n == 1 + temps);
	ks->temp += temps;
	if (temps) {
		UNIT_EXPECT_INT(u, run_op(op, f->path), 0);
		UNIT_EXPECT(u, is_result(f, op));
		UNIT_EXPECT_INT(u, dir_entries(tmpdir, &temps), 1);
		UNIT_EXPECT_INT(u, temps, 0);
	}
}

static pid_t spawn_op(enum op op, const char *path, long kill_at)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (!pid) {
		if (kill_at) {
			arm(F_ANY, kill_at, 0);
			inj.kill = 1;
		}
		_exit(run_op(op, path) ? 1 : 0);
	}
	return pid;
}

/* SIGKILL at each library call in turn. */
static void kill_each_call(struct unit *u, enum op op)
{
	struct kill_stats ks = { 0, 0, 0 };
	struct fixture f;
	long total;
	int status;
	pid_t pid;

	fixture_init(&f, "initrd.img", 400001, 1, 11);
	fixture_reset(&f);
	arm(F_N, 0, 0);
	UNIT_EXPECT_INT(u, run_op(op, f.path), 0);
	disarm();
	total = inj.calls[F_ANY];
	for (long at = 1; at <= total; at++) {
		fixture_reset(&f);
		pid = spawn_op(op, f.path, at);
		UNIT_EXPECT(u, waitpid(pid, &status, 0) == pid);
		UNIT_EXPECT(u, WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
		after_kill(u, &f, op, &ks);
	}
	printf("  %s: killed at each of %ld calls: %d old, %d new, %d left a temporary\n",
	       op == OP_APPLY ? "apply" : "delete", total, ks.old, ks.new,
	       ks.temp);
	UNIT_EXPECT(u, ks.old > 0 && ks.new > 0 && ks.temp > 0);
	fixture_free(&f);
}

static void test_kill_each_call(struct unit *u)
{
	kill_each_call(u, OP_APPLY);
	kill_each_call(u, OP_DELETE);
}

/*
 * The documented worst case of an in-place apply: the image followed by a
 * prefix of the new trailer without its magic (or without any of it),
 * which holds no trailer for the kernel or for us.
 */
static int is_partial_in_place(struct fixture *f)
{
	size_t len, img = f->deleted.len;
	unsigned char *got = get_file(f->path, &len);
	int ok = got && len >= img && len < f->applied.len - 11 &&
		 !memcmp(got, f->applied.p, len);

	free(got);
	return ok;
}

/* SIGKILL at each call of an in-place apply and delete. */
static void test_kill_in_place(struct unit *u)
{
	enum op ops[2] = { OP_APPLY, OP_DELETE };
	struct fixture f;
	int status, temps;
	pid_t pid;

	op_flags = BCONF_UPDATE_IN_PLACE;
	fixture_init(&f, "initrd.img", 400001, 1, 14);
	for (int k = 0; k < 2; k++) {
		int old = 0, new = 0, part = 0;
		long total;

		fixture_reset(&f);
		arm(F_N, 0, 0);
		UNIT_EXPECT_INT(u, run_op(ops[k], f.path), 0);
		disarm();
		total = inj.calls[F_ANY];
		for (long at = 1; at <= total; at++) {
			fixture_reset(&f);
			pid = spawn_op(ops[k], f.path, at);
			UNIT_EXPECT(u, waitpid(pid, &status, 0) == pid);
			UNIT_EXPECT(u, WIFSIGNALED(status));
			if (is_untouched(&f))
				old++;
			else if (is_result(&f, ops[k]))
				new++;
			else if (ops[k] == OP_APPLY && is_partial_in_place(&f))
				part++;
			else
				UNIT_EXPECT(u, !"in place: not old, new or the documented partial state");
			/* no temporary file, and never a trailer but those two */
			UNIT_EXPECT_INT(u, dir_entries(tmpdir, &temps), 1);
			if (!is_untouched(&f) && !is_result(&f, ops[k]))
				UNIT_EXPECT_INT(u, run_op(OP_READ, f.path), -ENOENT);
		}
		printf("  in place %s: killed at each of %ld calls: %d old, %d new, %d image + partial trailer\n",
		       k ? "delete" : "apply", total, old, new, part);
		UNIT_EXPECT(u, old > 0 && new > 0);
		UNIT_EXPECT(u, k || part > 0);
	}
	fixture_free(&f);
	unlink(path_in("initrd.img"));
	op_flags = 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* SIGKILL after a random delay while a large image is written. */
static void test_kill_random(struct unit *u)
{
	struct kill_stats ks = { 0, 0, 0 };
	const char *env = getenv("BCONF_FAULT_SEED");
	uint64_t seed, s;
	struct fixture f;
	double t0, dur;
	int status, rounds = 20;
	pid_t pid;

	if (env)
		seed = strtoull(env, NULL, 0);
	else if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL);
	seed |= 1;
	printf("  random kills: seed %llu (set BCONF_FAULT_SEED to repeat)\n",
	       (unsigned long long)seed);
	fixture_init(&f, "initrd.img", 24u << 20, 1, 12);
	/*
	 * The shortest of three runs: the first one also warms the page
	 * cache, and delays scaled on it would mostly land after the rename.
	 */
	dur = -1;
	for (int i = 0; i < 3; i++) {
		fixture_reset(&f);
		t0 = now_ms();
		pid = spawn_op(OP_APPLY, f.path, 0);
		waitpid(pid, &status, 0);
		t0 = now_ms() - t0;
		if (dur < 0 || t0 < dur)
			dur = t0;
		UNIT_EXPECT(u, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	s = seed;
	for (int i = 0; i < rounds; i++) {
		unsigned char r[4];
		struct timespec d;
		double ms;

		fill_random(r, sizeof(r), &s);
		ms = dur * 1.2 * (r[0] | r[1] << 8 | r[2] << 16) / (1 << 24);
		fixture_reset(&f);
		pid = spawn_op(OP_APPLY, f.path, 0);
		d.tv_sec = (time_t)(ms / 1e3);
		d.tv_nsec = (long)((ms - d.tv_sec * 1e3) * 1e6);
		nanosleep(&d, NULL);
		kill(pid, SIGKILL);
		UNIT_EXPECT(u, waitpid(pid, &status, 0) == pid);
		after_kill(u, &f, OP_APPLY, &ks);
	}
	printf("  random kills within %.0f ms: %d old, %d new, %d left a temporary\n",
	       dur * 1.2, ks.old, ks.new, ks.temp);
	/* most delays fall inside the copy: else the test proves nothing */
	UNIT_EXPECT(u, ks.temp > 0);
	fixture_free(&f);
	unlink(path_in("initrd.img"));
}

/* Two writers at once: each run is atomic, and no temporary remains. */
static void test_concurrent(struct unit *u)
{
	static const char *const texts[2] = { "a = 1\n", "b = 22\n" };
	struct blob want[2];
	unsigned char img[70001];
	uint64_t s = 13;
	char *path = path_in("initrd.img");
	int status, temps, ok = 0;
	pid_t pid[2];

	fill_random(img, sizeof(img), &s);
	put_file(path, img, sizeof(img));
	for (int i = 0; i < 2; i++)
		want[i] = image_with(img, sizeof(img), texts[i]);
	fflush(NULL);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			int good = 0;

			for (int k = 0; k < 50; k++) {
				int r = bconf_initrd_apply(path, texts[i],
							   strlen(texts[i]),
							   NULL);
				if (!r)
					good++;
				else if (r != -EAGAIN)
					_exit(2);
			}
			_exit(good ? 0 : 1);
		}
	}
	for (int i = 0; i < 2; i++) {
		waitpid(pid[i], &status, 0);
		ok += WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	UNIT_EXPECT_INT(u, ok, 2);
	UNIT_EXPECT(u, file_is(path, &want[0]) || file_is(path, &want[1]));
	UNIT_EXPECT_INT(u, dir_entries(tmpdir, &temps), 1);
	UNIT_EXPECT_INT(u, temps, 0);
	free(want[0].p);
	free(want[1].p);
	unlink(path);
}

int main(void)
{
	const char *base = getenv("TMPDIR");
	char cmd[sizeof(tmpdir) + 16];
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	snprintf(tmpdir, sizeof(tmpdir), "%s/test_fault.XXXXXX",
		 base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 2;
	}
	ret = UNIT_RUN(UNIT_CASE(test_fault_apply),
		       UNIT_CASE(test_fault_delete),
		       UNIT_CASE(test_fault_in_place),
		       UNIT_CASE(test_fault_read),
		       UNIT_CASE(test_short_writes),
		       UNIT_CASE(test_rlimit_fsize), UNIT_CASE(test_tmpfs),
		       UNIT_CASE(test_readonly_dir),
		       UNIT_CASE(test_kill_each_call),
		       UNIT_CASE(test_kill_in_place),
		       UNIT_CASE(test_kill_random),
		       UNIT_CASE(test_concurrent));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", tmpdir);
	return ret;
}
