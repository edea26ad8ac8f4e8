// SPDX-License-Identifier: GPL-2.0
/*
 * bundle.c - the bundle directory as a whole: its tar archive (written onto
 * the harness's raw disk without running tar), the host's metadata
 * additions, and directory helpers.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collect.h"

#define BLK 512

/* V as WIDTH-1 octal digits and a NUL (false when it does not fit) */
static bool octal(char *dst, size_t width, unsigned long long v)
{
	dst[width - 1] = '\0';
	for (size_t i = width - 1; i > 0; i--, v >>= 3)
		dst[i - 1] = '0' + (v & 7);
	return !v;
}

/*
 * tar_header - a POSIX ustar header for NAME (a path relative to the
 * bundle; a directory's NAME ends in '/').  Names longer than 100 bytes are
 * split at a '/' into the 155-byte prefix and the name field.  Returns -1
 * when NAME cannot be stored.
 */
int tar_header(char hdr[BLK], const char *name, bool dir, unsigned long long size,
	       long long mtime)
{
	size_t len = strlen(name), split = 0;
	unsigned int sum = 0;

	memset(hdr, 0, BLK);
	if (len > 100) {
		/* the last '/' that leaves at most 100 bytes for the name */
		for (size_t i = len - 1; i > 0; i--) {
			if (name[i] == '/' && i != len - 1 && len - i - 1 <= 100) {
				split = i;
				if (i <= 155)
					break;
			}
		}
		if (!split || split > 155)
			return -1;
		memcpy(hdr + 345, name, split);
		memcpy(hdr, name + split + 1, len - split - 1);
	} else {
		memcpy(hdr, name, len);
	}
	octal(hdr + 100, 8, dir ? 0755 : 0644);
	octal(hdr + 108, 8, 0);
	octal(hdr + 116, 8, 0);
	if (!octal(hdr + 124, 12, dir ? 0 : size) ||
	    !octal(hdr + 136, 12, mtime < 0 ? 0 : mtime))
		return -1;
	hdr[156] = dir ? '5' : '0';
	memcpy(hdr + 257, "ustar", 6);
	memcpy(hdr + 263, "00", 2);
	memcpy(hdr + 265, "root", 4);
	memcpy(hdr + 297, "root", 4);
	memset(hdr + 148, ' ', 8);
	for (int i = 0; i < BLK; i++)
		sum += (unsigned char)hdr[i];
	octal(hdr + 148, 7, sum);
	hdr[155] = ' ';
	return 0;
}

/* buffered output: few large writes (each syscall is costly under TCG) */
struct out {
	int fd;
	size_t n;
	int err;
	char buf[1 << 16];
};

static void out_flush(struct out *o)
{
	size_t done = 0;

	while (!o->err && done < o->n) {
		ssize_t w = write(o->fd, o->buf + done, o->n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			o->err = w < 0 ? errno : ENOSPC;
		else
			done += w;
	}
	o->n = 0;
}

static void out_put(struct out *o, const char *p, size_t len)
{
	while (len && !o->err) {
		size_t k = sizeof(o->buf) - o->n;

		if (k > len)
			k = len;
		memcpy(o->buf + o->n, p, k);
		o->n += k;
		p += k;
		len -= k;
		if (o->n == sizeof(o->buf))
			out_flush(o);
	}
}

static void out_pad(struct out *o, unsigned long long size)
{
	static const char zero[BLK];

	if (size % BLK)
		out_put(o, zero, BLK - size % BLK);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int tar_dir(struct out *o, int dirfd, const char *prefix, long long now);

static int tar_entry(struct out *o, int dirfd, const char *name, const char *path,
		     long long now)
{
	char hdr[BLK], buf[1 << 14];
	struct stat st;
	unsigned long long left;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return -1;
	if (S_ISDIR(st.st_mode)) {
		char *dpath;

		if (asprintf(&dpath, "%s/", path) < 0)
			return -1;
		if (tar_header(hdr, dpath, true, 0, now)) {
			free(dpath);
			errno = ENAMETOOLONG;
			return -1;
		}
		free(dpath);
		out_put(o, hdr, BLK);
		fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		return tar_dir(o, fd, path, now);
	}
	if (!S_ISREG(st.st_mode))
		return 0;	/* the collector writes nothing else */
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (tar_header(hdr, path, false, st.st_size, now)) {
		close(fd);
		errno = ENAMETOOLONG;
		return -1;
	}
	out_put(o, hdr, BLK);
	for (left = st.st_size; left && !o->err;) {
		ssize_t r = read(fd, buf, left < sizeof(buf) ? left : sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			if (!r)
				errno = EIO;	/* the file shrank */
			return -1;
		}
		out_put(o, buf, r);
		left -= r;
	}
	close(fd);
	out_pad(o, st.st_size);
	return 0;
}

/* every entry of DIRFD (closed here), sorted by name */
static int tar_dir(struct out *o, int dirfd, const char *prefix, long long now)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;

	if (!d) {
		close(dirfd);
		return -1;
	}
	rewinddir(d);	/* a dup'ed descriptor shares its offset */
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!nn) {
				rc = -1;
				break;
			}
			names = nn;
		}
		names[n] = strdup(e->d_name);
		if (!names[n]) {
			rc = -1;
			break;
		}
		n++;
	}
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		char *path;

		if (!rc && !o->err) {
			if (asprintf(&path, "%s%s%s", prefix, *prefix ? "/" : "",
				     names[i]) < 0) {
				rc = -1;
			} else {
				rc = tar_entry(o, dirfd, names[i], path, now);
				free(path);
			}
		}
		free(names[i]);
	}
	free(names);
	closedir(d);
	return rc;
}

/*
 * tar_write - the directory DIRFD as a ustar archive on FD (from FD's
 * offset 0).  Returns -1 with errno set on failure.
 */
int tar_write(int fd, int dirfd)
{
	struct out *o = calloc(1, sizeof(*o));
	int dfd = dup(dirfd), rc;
	static const char zero[2 * BLK];

	if (!o || dfd < 0 || lseek(fd, 0, SEEK_SET) < 0) {
		free(o);
		if (dfd >= 0)
			close(dfd);
		return -1;
	}
	o->fd = fd;
	rc = tar_dir(o, dfd, "", (long long)time(NULL));
	out_put(o, zero, sizeof(zero));
	out_flush(o);
	if (!rc && o->err) {
		errno = o->err;
		rc = -1;
	}
	free(o);
	return rc;
}

/*
 * meta_line - check one metadata line "KEY=VALUE" (KEY of [a-z0-9_],
 * starting with a letter); the key goes to KEY.  Returns 0 or -1.
 */
int meta_line(const char *line, char *key, size_t keylen)
{
	size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");

	if (!n || line[n] != '=' || line[0] < 'a' || line[0] > 'z' || n >= keylen ||
	    strchr(line, '\n'))
		return -1;
	memcpy(key, line, n);
	key[n] = '\0';
	return 0;
}

static bool has_key(const char *text, const char *key)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == '=')
			return true;
	return false;
}

/*
 * add_metadata - append the KEY=VALUE lines read from IN (named WHAT in
 * messages) to DIR/metadata, which the collector wrote.  A bad line or a
 * key already present is an error naming the line; then nothing changes.
 */
int add_metadata(const char *dir, FILE *in, const char *what)
{
	char *path, *tmp, *old, *text = NULL, *line = NULL, key[128];
	size_t len = 0, cap = 0, oldlen;
	FILE *f;
	int lineno = 0, rc = -1;
	ssize_t n;

	if (asprintf(&path, "%s/metadata", dir) < 0 ||
	    asprintf(&tmp, "%s/.metadata.tmp", dir) < 0)
		return -1;
	old = read_file(path, &oldlen);
	if (!old) {
		fprintf(stderr, "boottrace-collect: error: %s: %s (not a bundle written by boottrace-collect)\n",
			path, strerror(errno));
		goto out;
	}
	f = open_memstream(&text, &len);
	if (!f)
		goto out;
	fputs(old, f);
	if (oldlen && old[oldlen - 1] != '\n')
		fputc('\n', f);
	while ((n = getline(&line, &cap, in)) > 0) {
		lineno++;
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (meta_line(line, key, sizeof(key))) {
			fprintf(stderr, "boottrace-collect: error: %s:%d: expected KEY=VALUE with KEY of a-z, 0-9 and _ (got '%.40s')\n",
				what, lineno, line);
			fclose(f);
			goto out;
		}
		fflush(f);
		if (has_key(text, key)) {
			fprintf(stderr, "boottrace-collect: error: %s:%d: key '%s' is given twice or already in %s (one writer per key)\n",
				what, lineno, key, path);
			fclose(f);
			goto out;
		}
		fprintf(f, "%s\n", line);
	}
	if (fclose(f))
		goto out;
	f = fopen(tmp, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		fprintf(stderr, "boottrace-collect: error: cannot write %s: %s\n", tmp,
			strerror(errno));
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path)) {
		fprintf(stderr, "boottrace-collect: error: cannot replace %s: %s\n", path,
			strerror(errno));
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	free(line);
	free(text);
	free(old);
	free(path);
	free(tmp);
	return rc;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p) && errno != ENOENT ? -1 : 0;
}

void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

bool dir_empty(int dirfd)
{
	int fd = dup(dirfd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool empty = true;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	rewinddir(d);
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}
