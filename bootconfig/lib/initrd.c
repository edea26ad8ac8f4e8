// SPDX-License-Identifier: GPL-2.0
/*
 * initrd.c - find, read, apply and delete the bootconfig trailer of an
 * initrd image.
 *
 * Layout (see bootconfig.h):
 *
 *	[image][text][NUL][0-3 zero pad][le32 size][le32 csum][magic][0-3 pad]
 *
 * The padding before the footer makes the whole file length a multiple of
 * BCONF_ALIGN, as the tree's tools/bootconfig computes it; size counts
 * text + NUL + padding and csum sums the same bytes (the zero padding adds
 * nothing).  The reader finds the magic at the end or up to 3 bytes before
 * it, as init/main.c does; bytes after the magic are a bootloader's pad.
 *
 * Size: init/main.c ignores a trailer whose size field is >= 32767
 * (BCONF_DATA_MAX), so apply refuses (-E2BIG) a text for which text + NUL +
 * padding reaches that; how much padding depends on the image length mod
 * 4.  tools/bootconfig only checks text + NUL <= 32767 and so writes
 * trailers the kernel ignores; BCONF_APPLY_OVERSIZE does the same, for
 * upstream's tests.  Read and delete handle any size that fits the file.
 *
 * Hostile files: the initrd is opened O_NONBLOCK and fstat()ed before
 * anything else (a FIFO never blocks; only regular files are written), and
 * a size field above BCONF_TRAILER_SIZE_MAX is refused before anything is
 * read, so no claim makes us allocate more than that plus one byte.
 *
 * Writing (apply and delete) by default never modifies the original file:
 *
 *  1. The path is resolved with realpath(): a symlinked initrd (Debian's
 *     /initrd.img -> boot/initrd.img-VER) keeps its link and the target is
 *     replaced.  A hard-linked initrd loses the link: the other names keep
 *     the old image.  The file is opened for writing too, as the tree's
 *     tool opens it: a file the caller may not write is refused (-EACCES)
 *     even in a writable directory.
 *  2. Stale temporary files of earlier runs that were killed (see 3) are
 *     removed: ".<base>.bconf-XXXXXX" files in the same directory that no
 *     live process holds a lock on.
 *  3. A temporary file ".<base>.bconf-XXXXXX" is created in the initrd's
 *     directory (O_EXCL, mode 0600, flock()ed while in use).  It receives
 *     the image without its old trailer: a FICLONE of the original cut to
 *     length where the file system shares blocks, else a copy of its data
 *     extents only (SEEK_DATA/SEEK_HOLE: holes stay holes) after checking
 *     that the file system has room for it (-ENOSPC, nothing written).
 *     Then the new trailer, the owner of the original (fchown() only when
 *     it differs; when that is not permitted the operation fails with
 *     -EPERM rather than change the owner), its extended attributes where
 *     permitted (best effort, as cp -a), its mode, and fsync().
 *  4. If the original was replaced or changed meanwhile: -EAGAIN.
 *  5. rename() over the resolved path, then fsync() of the directory.
 *
 * On every failure before the rename the temporary file is removed and the
 * original is untouched.  The one failure after it is the directory fsync
 * (an error other than EINVAL, which means "not supported"): the new image
 * is then in place but its directory entry may not survive a crash; the
 * error is returned all the same.  A process killed during 3 leaves its
 * temporary file behind; the next apply or delete of that initrd removes
 * it (step 2).
 *
 * In place (BCONF_UPDATE_IN_PLACE, for a full disk): see job_in_place().
 *
 * Errors are negative errno values; nothing is printed; no global state.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "initrd-internal.h"

#define COPY_CHUNK	(128 * 1024)
#define TMP_TRIES	64

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_le32(unsigned char *p, uint32_t v)
{
	p[0] = v & 0xff;
	p[1] = (v >> 8) & 0xff;
	p[2] = (v >> 16) & 0xff;
	p[3] = (v >> 24) & 0xff;
}

static uint32_t csum_add(uint32_t sum, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len--)
		sum += *p++;
	return sum;
}

BCONF_EXPORT uint32_t bconf_checksum(const void *buf, size_t len)
{
	return csum_add(0, buf, len);
}

BCONF_EXPORT bool bconf_trailer_size_ok(uint32_t size)
{
	return size < BCONF_DATA_MAX;
}

/*
 * Parse the footer from the last @tlen bytes (@tail) of an image of @flen
 * bytes; @tlen is min(@flen, BCONF_TAIL_MAX).  Checks the geometry only.
 */
static int tail_parse(const unsigned char *tail, size_t tlen, uint64_t flen,
		      struct bconf_trailer *t)
{
	uint64_t magic_off, hdr_off;
	const unsigned char *m;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < BCONF_ALIGN; i++) {
		if (tlen < BCONF_MAGIC_LEN + i)
			return -ENOENT;
		m = tail + tlen - BCONF_MAGIC_LEN - i;
		if (!memcmp(m, BCONF_MAGIC, BCONF_MAGIC_LEN))
			break;
	}
	if (i == BCONF_ALIGN)
		return -ENOENT;
	t->pad = i;
	magic_off = flen - BCONF_MAGIC_LEN - i;
	if (magic_off < 8)
		return -EINVAL;		/* no room for size and csum */
	t->size = get_le32(m - 8);
	t->csum = get_le32(m - 4);
	hdr_off = magic_off - 8;
	if (t->size > BCONF_TRAILER_SIZE_MAX)
		return -EMSGSIZE;	/* more than any writer can write */
	if (t->size > hdr_off)
		return -EINVAL;
	if (hdr_off - t->size > SIZE_MAX)
		return -EFBIG;
	t->data_off = (size_t)(hdr_off - t->size);
	t->end = t->data_off;
	return 0;
}

BCONF_EXPORT int bconf_trailer_find(const void *buf, size_t len,
				    struct bconf_trailer *t)
{
	size_t tlen = len < BCONF_TAIL_MAX ? len : BCONF_TAIL_MAX;
	const unsigned char *p = buf;
	struct bconf_trailer tmp;
	int ret;

	if (!t)
		t = &tmp;
	if (!buf && len)
		return -EINVAL;
	if (!len) {
		memset(t, 0, sizeof(*t));
		return -ENOENT;
	}
	ret = tail_parse(p + len - tlen, tlen, len, t);
	if (ret)
		return ret;
	if (bconf_checksum(p + t->data_off, t->size) != t->csum)
		return -EBADMSG;
	return 0;
}

unsigned char *bconf_trailer_build(const char *text, size_t text_len,
				   uint64_t image_len, size_t *out_len,
				   struct bconf_trailer *t)
{
	uint64_t total = image_len + text_len + 1 + BCONF_FOOTER_LEN;
	size_t pad = (size_t)((BCONF_ALIGN - total % BCONF_ALIGN) % BCONF_ALIGN);
	size_t size = text_len + 1 + pad;
	unsigned char *buf = calloc(1, size + BCONF_FOOTER_LEN);

	if (!buf)
		return NULL;
	if (text_len)
		memcpy(buf, text, text_len);
	memset(t, 0, sizeof(*t));
	t->size = (uint32_t)size;
	t->csum = bconf_checksum(buf, size);
	t->data_off = (size_t)image_len;
	t->end = (size_t)image_len;
	put_le32(buf + size, t->size);
	put_le32(buf + size + 4, t->csum);
	memcpy(buf + size + 8, BCONF_MAGIC, BCONF_MAGIC_LEN);
	*out_len = size + BCONF_FOOTER_LEN;
	return buf;
}

/* --- file helpers ------------------------------------------------------ */

/* Read exactly @len bytes at @off; a file that got shorter is -EAGAIN. */
static int pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = pread(fd, p, len, (off_t)off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EAGAIN;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Find the trailer of the open image @fd of @flen bytes.  With @data, the
 * trailer's data is returned in a new buffer of t->size + 1 bytes (NUL
 * terminated); otherwise its checksum is computed in chunks.
 */
static int file_trailer(int fd, uint64_t flen, struct bconf_trailer *t,
			char **data)
{
	unsigned char tail[BCONF_TAIL_MAX];
	size_t tlen = flen < BCONF_TAIL_MAX ? (size_t)flen : BCONF_TAIL_MAX;
	uint64_t off, left;
	uint32_t sum = 0;
	char *buf;
	size_t n;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!tlen)
		return -ENOENT;
	ret = pread_full(fd, tail, tlen, flen - tlen);
	if (ret)
		return ret;
	ret = tail_parse(tail, tlen, flen, t);
	if (ret)
		return ret;
	n = data ? (size_t)t->size + 1 : (t->size < COPY_CHUNK ? t->size : COPY_CHUNK);
	buf = malloc(n ? n : 1);
	if (!buf)
		return -ENOMEM;
	off = t->data_off;
	for (left = t->size; left; left -= n, off += n) {
		n = left < COPY_CHUNK ? (size_t)left : COPY_CHUNK;
		ret = pread_full(fd, data ? buf + (off - t->data_off) : buf,
				 n, off);
		if (ret)
			goto out;
		sum = csum_add(sum, data ? buf + (off - t->data_off) : buf, n);
	}
	ret = sum == t->csum ? 0 : -EBADMSG;
	if (!ret && data) {
		buf[t->size] = '\0';
		*data = buf;
		buf = NULL;
	}
out:
	free(buf);
	return ret;
}

static void close_keep_errno(int fd)
{
	int saved = errno;

	if (fd >= 0)
		close(fd);
	errno = saved;
}

BCONF_EXPORT int bconf_initrd_read(const char *path, char **text,
				   size_t *len, struct bconf_trailer *t)
{
	struct bconf_trailer tmp;
	struct stat st;
	char *data = NULL;
	int fd, ret;

	if (!t)
		t = &tmp;
	memset(t, 0, sizeof(*t));
	if (!path || !text)
		return -EINVAL;
	*text = NULL;
	if (len)
		*len = 0;
	/* O_NONBLOCK: a FIFO must not block before fstat() tells what it is */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENXIO && !stat(path, &st) && S_ISSOCK(st.st_mode))
		return -ENOENT;		/* a socket cannot be opened */
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		ret = -errno;
	else if (S_ISDIR(st.st_mode))
		ret = -EISDIR;
	else if (!S_ISREG(st.st_mode))
		ret = -ENOENT;		/* a pipe or device holds no trailer */
	else
		ret = file_trailer(fd, (uint64_t)st.st_size, t, &data);
	close_keep_errno(fd);
	if (ret)
		return ret;
	*text = data;
	if (len)
		*len = strnlen(data, t->size);
	return 0;
}

/* --- atomic rewrite ---------------------------------------------------- */

struct job {
	char *real;		/* resolved path of the initrd */
	const char *base;	/* its last component, inside @real */
	int dirfd;
	int fd;			/* the original, read-only */
	int wfd;		/* the original, write-only: the permission check */
	struct stat st;
	struct bconf_trailer old;
	int has_old;
	uint64_t keep;		/* image bytes to copy */
	char tmp[NAME_MAX + 1];
	int tmpfd;
	struct bconf_space space;
};

static void job_close(struct job *j)
{
	close_keep_errno(j->tmpfd);
	close_keep_errno(j->wfd);
	close_keep_errno(j->fd);
	close_keep_errno(j->dirfd);
	free(j->real);
}

static int job_open_dir(struct job *j)
{
	char *slash = strrchr(j->real, '/');

	if (!slash || !slash[1])
		return -EINVAL;
	j->base = slash + 1;
	if (slash == j->real) {
		j->dirfd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	} else {
		*slash = '\0';
		j->dirfd = open(j->real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		*slash = '/';
	}
	return j->dirfd < 0 ? -errno : 0;
}

/*
 * Open the initrd to rewrite.  The first open is non-blocking, so that a
 * FIFO is refused by fstat() instead of waiting for a writer; the second
 * one, for writing, is the permission check of the tree's tool (which
 * opens the file O_RDWR): a file the caller may not write is refused even
 * when its directory is writable.
 */
static int job_open(struct job *j, const char *path)
{
	const int oflags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;
	struct stat wst;
	int ret;

	memset(j, 0, sizeof(*j));
	j->dirfd = j->fd = j->wfd = j->tmpfd = -1;
	if (!path || !*path)
		return -EINVAL;
	j->real = realpath(path, NULL);
	if (!j->real)
		return -errno;
	ret = job_open_dir(j);
	if (ret)
		return ret;
	j->fd = openat(j->dirfd, j->base, O_RDONLY | oflags);
	if (j->fd < 0 && errno == ENXIO &&
	    !fstatat(j->dirfd, j->base, &j->st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISSOCK(j->st.st_mode))
		return -ENOTSUP;	/* a socket cannot be opened */
	if (j->fd < 0)
		return errno == ELOOP ? -EAGAIN : -errno;
	if (fstat(j->fd, &j->st) < 0)
		return -errno;
	if (S_ISDIR(j->st.st_mode))
		return -EISDIR;
	if (!S_ISREG(j->st.st_mode))
		return -ENOTSUP;
	j->wfd = openat(j->dirfd, j->base, O_WRONLY | oflags);
	if (j->wfd < 0)
		return errno == ELOOP ? -EAGAIN : -errno;
	if (fstat(j->wfd, &wst) < 0)
		return -errno;
	if (wst.st_dev != j->st.st_dev || wst.st_ino != j->st.st_ino)
		return -EAGAIN;		/* replaced between the two opens */
	ret = file_trailer(j->fd, (uint64_t)j->st.st_size, &j->old, NULL);
	if (ret == -ENOENT) {
		j->keep = (uint64_t)j->st.st_size;
		return 0;
	}
	if (ret)
		return ret;
	j->has_old = 1;
	j->keep = j->old.end;
	return 0;
}

int bconf_tmp_name_match(const char *name, const char *base)
{
	size_t blen = strnlen(base, BCONF_TMP_BASE_MAX);
	size_t tlen = strlen(BCONF_TMP_TAG);
	const char *r;

	if (name[0] != '.' || strncmp(name + 1, base, blen))
		return 0;
	if (strncmp(name + 1 + blen, BCONF_TMP_TAG, tlen))
		return 0;
	r = name + 1 + blen + tlen;
	if (strlen(r) != BCONF_TMP_RAND)
		return 0;
	return strspn(r, BCONF_TMP_CHARS) == BCONF_TMP_RAND;
}

/* Remove a stale temporary file: one no live writer holds a lock on. */
static void remove_stale(int dirfd, const char *name)
{
	struct stat a, b;
	int fd;

	fd = openat(dirfd, name,
		    O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return;
	if (fstat(fd, &a) == 0 && S_ISREG(a.st_mode) &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	    fstatat(dirfd, name, &b, AT_SYMLINK_NOFOLLOW) == 0 &&
	    a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		unlinkat(dirfd, name, 0);
	close(fd);
}

/* Best effort: failures leave stale files for a later run. */
static void clean_stale(int dirfd, const char *base)
{
	struct dirent *de;
	DIR *dir;
	int fd;

	fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)))
		if (bconf_tmp_name_match(de->d_name, base))
			remove_stale(dirfd, de->d_name);
	closedir(dir);
}

static void tmp_random(char out[BCONF_TMP_RAND], unsigned int attempt)
{
	static const char chars[] = BCONF_TMP_CHARS;
	unsigned char rnd[BCONF_TMP_RAND];
	struct timespec ts = { 0, 0 };
	uint64_t x;
	size_t i;

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^
		    (uint64_t)getpid() << 16 ^ attempt ^ (uintptr_t)&ts;
		for (i = 0; i < sizeof(rnd); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			rnd[i] = (unsigned char)x;
		}
	}
	for (i = 0; i < BCONF_TMP_RAND; i++)
		out[i] = chars[rnd[i] % (sizeof(chars) - 1)];
}

/* Create and lock a new temporary file; 1 means "retry another name". */
static int tmp_try(struct job *j, unsigned int attempt)
{
	char rnd[BCONF_TMP_RAND];
	struct stat st;
	int ret = 1;

	tmp_random(rnd, attempt);
	snprintf(j->tmp, sizeof(j->tmp), ".%.*s%s%.*s", BCONF_TMP_BASE_MAX,
		 j->base, BCONF_TMP_TAG, BCONF_TMP_RAND, rnd);
	j->tmpfd = openat(j->dirfd, j->tmp,
			  O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			  0600);
	if (j->tmpfd < 0)
		return errno == EEXIST ? 1 : -errno;
	/*
	 * A concurrent clean_stale() may lock and remove the file between
	 * its creation and our lock: then try another name.  Lock failures
	 * for other reasons are ignored: no cleaner can lock it either.
	 */
	if (flock(j->tmpfd, LOCK_EX | LOCK_NB) < 0 && errno == EWOULDBLOCK)
		goto drop;		/* a cleaner holds it */
	if (fstat(j->tmpfd, &st) < 0) {
		ret = -errno;
		goto drop;
	}
	if (st.st_nlink > 0)
		return 0;
	goto gone;		/* a cleaner removed it */
drop:
	unlinkat(j->dirfd, j->tmp, 0);
gone:
	close(j->tmpfd);
	j->tmpfd = -1;
	j->tmp[0] = '\0';
	return ret;
}

static int tmp_create(struct job *j)
{
	unsigned int i;
	int ret = 1;

	for (i = 0; i < TMP_TRIES && ret == 1; i++)
		ret = tmp_try(j, i);
	return ret == 1 ? -EEXIST : ret;
}

/*
 * The next data extent of the image at or after *@off, cut at j->keep:
 * 1 with [*@off, *@end), 0 when there is none.  A file system without
 * SEEK_DATA is all data.
 */
static int next_data(struct job *j, uint64_t *off, uint64_t *end)
{
	off_t d, h;

	if (*off >= j->keep)
		return 0;
	d = lseek(j->fd, (off_t)*off, SEEK_DATA);
	if (d < 0 && errno == ENXIO)
		return 0;		/* only a hole up to the end */
	if (d < 0 && errno != EINVAL)
		return -errno;
	if (d < 0) {			/* no SEEK_DATA here */
		*end = j->keep;
		return 1;
	}
	if ((uint64_t)d >= j->keep)
		return 0;
	h = lseek(j->fd, d, SEEK_HOLE);
	if (h < 0)
		return -errno;
	*off = (uint64_t)d;
	*end = (uint64_t)h < j->keep ? (uint64_t)h : j->keep;
	return 1;
}

static uint64_t round_blocks(uint64_t start, uint64_t end, uint64_t bs)
{
	return (end + bs - 1) / bs * bs - start / bs * bs;
}

/*
 * Whether the file system has room for the copy (the image's data extents)
 * and @tail_len bytes; -ENOSPC with j->space filled when not.  A file
 * system that cannot tell (fstatvfs() failing) is not checked.
 */
static int check_space(struct job *j, size_t tail_len)
{
	uint64_t off = 0, end, bs, need = 0;
	struct statvfs vfs;
	int ret;

	if (fstatvfs(j->tmpfd, &vfs) < 0 || !vfs.f_frsize)
		return 0;
	bs = vfs.f_frsize;
	while ((ret = next_data(j, &off, &end)) == 1) {
		need += round_blocks(off, end, bs);
		off = end;
	}
	if (ret < 0)
		return ret;
	need += round_blocks(j->keep, j->keep + tail_len, bs);
	j->space.need = need;
	/* root may use the blocks reserved for it */
	j->space.avail = (uint64_t)(geteuid() ? vfs.f_bavail : vfs.f_bfree) *
			 vfs.f_frsize;
	return need > j->space.avail ? -ENOSPC : 0;
}

/* Write @len bytes at @off of the temporary file. */
static int tmp_write_at(struct job *j, const void *buf, size_t len,
			uint64_t off)
{
	if (lseek(j->tmpfd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	return write_full(j->tmpfd, buf, len);
}

/* Copy the data extents of the image; its holes stay holes. */
static int copy_image(struct job *j)
{
	uint64_t off = 0, end;
	char *buf;
	size_t n;
	int ret;

	buf = malloc(COPY_CHUNK);
	if (!buf)
		return -ENOMEM;
	while ((ret = next_data(j, &off, &end)) == 1) {
		for (ret = 0; off < end && !ret; off += n) {
			n = end - off < COPY_CHUNK ? (size_t)(end - off) :
						     COPY_CHUNK;
			ret = pread_full(j->fd, buf, n, off);
			if (!ret)
				ret = tmp_write_at(j, buf, n, off);
		}
		if (ret)
			break;
	}
	free(buf);
	return ret < 0 ? ret : 0;
}

/*
 * The image into the temporary file: a clone of the whole original cut to
 * j->keep where the file system shares blocks (btrfs, XFS, ...), else a
 * hole-preserving copy after a free-space check.
 */
static int put_image(struct job *j, size_t tail_len)
{
	int ret = 0;

	if (ioctl(j->tmpfd, FICLONE, j->fd) < 0) {
		ret = check_space(j, tail_len);
		if (!ret)
			ret = copy_image(j);
	}
	if (!ret && ftruncate(j->tmpfd, (off_t)j->keep) < 0)
		ret = -errno;
	return ret;
}

/*
 * Copy the original's extended attributes (ACLs included) where we may
 * set them: best effort, as cp -a does; a security label, for instance,
 * needs privilege.
 */
static void copy_xattrs(struct job *j)
{
	char *names = NULL, *name;
	ssize_t len, vlen;
	char value[4096];

	len = flistxattr(j->fd, NULL, 0);
	if (len <= 0)
		return;
	names = malloc((size_t)len);
	if (!names)
		return;
	len = flistxattr(j->fd, names, (size_t)len);
	for (name = names; len > 0 && name < names + len;
	     name += strlen(name) + 1) {
		vlen = fgetxattr(j->fd, name, value, sizeof(value));
		if (vlen >= 0)
			fsetxattr(j->tmpfd, name, value, (size_t)vlen, 0);
	}
	free(names);
}

static int set_owner_mode(struct job *j)
{
	struct stat st;

	if (fstat(j->tmpfd, &st) < 0)
		return -errno;
	if ((st.st_uid != j->st.st_uid || st.st_gid != j->st.st_gid) &&
	    fchown(j->tmpfd, j->st.st_uid, j->st.st_gid) < 0)
		return -errno;
	copy_xattrs(j);		/* after fchown(), which drops capabilities */
	if (fchmod(j->tmpfd, j->st.st_mode & 07777) < 0)
		return -errno;
	return 0;
}

/* Whether the original is still what we copied. */
static int check_unchanged(struct job *j)
{
	struct stat now;

	if (fstatat(j->dirfd, j->base, &now, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? -EAGAIN : -errno;
	if (now.st_dev != j->st.st_dev || now.st_ino != j->st.st_ino ||
	    now.st_size != j->st.st_size ||
	    now.st_mtim.tv_sec != j->st.st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != j->st.st_mtim.tv_nsec)
		return -EAGAIN;
	return 0;
}

/* Write the temporary file: the kept image, then @tail. */
static int tmp_fill(struct job *j, const void *tail, size_t tail_len)
{
	int ret;

	ret = put_image(j, tail_len);
	if (!ret && tail_len)
		ret = tmp_write_at(j, tail, tail_len, j->keep);
	if (!ret)
		ret = set_owner_mode(j);
	if (!ret && fsync(j->tmpfd) < 0)
		ret = -errno;
	if (!ret)
		ret = check_unchanged(j);
	return ret;
}

/* Replace the initrd by its kept image followed by @tail. */
static int job_commit(struct job *j, const void *tail, size_t tail_len)
{
	int ret;

	clean_stale(j->dirfd, j->base);
	ret = tmp_create(j);
	if (ret)
		return ret;
	ret = tmp_fill(j, tail, tail_len);
	if (!ret && renameat(j->dirfd, j->tmp, j->dirfd, j->base) < 0)
		ret = -errno;
	if (ret) {
		unlinkat(j->dirfd, j->tmp, 0);	/* still locked: ours */
		return ret;
	}
	close(j->tmpfd);	/* fsync() reported any write error */
	j->tmpfd = -1;
	if (fsync(j->dirfd) < 0 && errno != EINVAL)
		return -errno;	/* the new image is in place */
	return 0;
}

/* --- in place ------------------------------------------------------------ */

/* Write @len bytes at @off of the original, then fsync(). */
static int orig_write_at(struct job *j, const void *buf, size_t len,
			 uint64_t off)
{
	int ret = 0;

	if (lseek(j->wfd, (off_t)off, SEEK_SET) < 0)
		return -errno;
	if (len)
		ret = write_full(j->wfd, buf, len);
	if (!ret && fsync(j->wfd) < 0)
		ret = -errno;
	return ret;
}

/* Cut the original to @len bytes, then fsync(). */
static int orig_truncate(struct job *j, uint64_t len)
{
	if (ftruncate(j->wfd, (off_t)len) < 0 || fsync(j->wfd) < 0)
		return -errno;
	return 0;
}

/*
 * Rewrite only the tail of the original: cut the old trailer, write the
 * new one without its magic, then the magic, each step synced, so that a
 * crash leaves the old trailer, the new one, or the image followed by a
 * prefix of the new trailer that has no magic (no bootconfig for the
 * kernel).  On failure the old trailer is written back.  Concurrent
 * in-place writers are serialised by an flock() on the file.
 */
static int job_in_place(struct job *j, const unsigned char *tail,
			size_t tail_len)
{
	uint64_t old_len = (uint64_t)j->st.st_size - j->keep;
	unsigned char *old = NULL;
	int ret;

	flock(j->wfd, LOCK_EX);	/* best effort: NFS may have no locks */
	ret = check_unchanged(j);
	if (ret)
		return ret;
	/* at most the largest trailer plus its footer and pad */
	old = malloc(old_len ? (size_t)old_len : 1);
	if (!old)
		return -ENOMEM;
	ret = pread_full(j->fd, old, (size_t)old_len, j->keep);
	if (ret)
		goto out;
	if (old_len)
		ret = orig_truncate(j, j->keep);
	if (!ret && tail_len) {
		ret = orig_write_at(j, tail, tail_len - BCONF_MAGIC_LEN,
				    j->keep);
		if (!ret)
			ret = orig_write_at(j, tail + tail_len - BCONF_MAGIC_LEN,
					    BCONF_MAGIC_LEN,
					    j->keep + tail_len - BCONF_MAGIC_LEN);
	}
	if (ret && !orig_truncate(j, j->keep))
		orig_write_at(j, old, (size_t)old_len, j->keep);
out:
	free(old);
	return ret;
}

/* --- the entry points ------------------------------------------------------ */

static int job_write(struct job *j, unsigned int flags,
		     const unsigned char *tail, size_t tail_len)
{
	if (flags & BCONF_UPDATE_IN_PLACE)
		return job_in_place(j, tail, tail_len);
	return job_commit(j, tail, tail_len);
}

BCONF_EXPORT int bconf_initrd_update(const char *path, const char *text,
				     size_t len, unsigned int flags,
				     struct bconf_trailer *t,
				     struct bconf_space *space)
{
	const unsigned int known = BCONF_APPLY_OVERSIZE |
				   BCONF_UPDATE_IN_PLACE | BCONF_UPDATE_DELETE;
	bool del = flags & BCONF_UPDATE_DELETE;
	struct bconf_trailer nt;
	unsigned char *tail = NULL;
	size_t text_len = 0, tail_len = 0;
	struct job j;
	int ret;

	if (space)
		memset(space, 0, sizeof(*space));
	if ((!del && !text && len) || (flags & ~known))
		return -EINVAL;
	if (!del) {
		text_len = text ? strnlen(text, len) : 0;
		if (text_len >= BCONF_DATA_MAX)
			return -E2BIG;
	}
	ret = job_open(&j, path);
	if (t && (ret == -EMSGSIZE || ret == -EBADMSG || ret == -EINVAL))
		*t = j.old;	/* the refused trailer: its claim, for the caller */
	if (ret || (del && !j.has_old))
		goto out;
	if (!del) {
		tail = bconf_trailer_build(text, text_len, j.keep, &tail_len,
					   &nt);
		if (!tail) {
			ret = -ENOMEM;
			goto out;
		}
		if (t)
			*t = nt;
		if (!bconf_trailer_size_ok(nt.size) &&
		    !(flags & BCONF_APPLY_OVERSIZE)) {
			ret = -E2BIG;
			goto out;
		}
	}
	ret = job_write(&j, flags, tail, tail_len);
out:
	if (space)
		*space = j.space;
	free(tail);
	job_close(&j);
	return ret;
}

BCONF_EXPORT int bconf_initrd_apply_flags(const char *path, const char *text,
					  size_t len, unsigned int flags,
					  struct bconf_trailer *t)
{
	if (flags & ~BCONF_APPLY_OVERSIZE)
		return -EINVAL;
	return bconf_initrd_update(path, text, len, flags, t, NULL);
}

BCONF_EXPORT int bconf_initrd_apply(const char *path, const char *text,
				    size_t len, struct bconf_trailer *t)
{
	return bconf_initrd_update(path, text, len, 0, t, NULL);
}

BCONF_EXPORT int bconf_initrd_delete(const char *path)
{
	return bconf_initrd_update(path, NULL, 0, BCONF_UPDATE_DELETE, NULL,
				   NULL);
}
