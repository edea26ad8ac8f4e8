// SPDX-License-Identifier: GPL-2.0
/*
 * test_initrd.c - the initrd trailer: footer math, finding it the way the
 * kernel does, and apply/read/delete on real files.
 *
 * Expected values are computed here independently of initrd.c: the file
 * size rule of the tree's test-bootconfig.sh (round up image + text + 1 +
 * 20 to 4), byte-by-byte footer decoding, and the kernel's size limit
 * (init/main.c refuses size >= 32767).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "bootconfig.h"
#include "initrd-internal.h"
#include "unit.h"

#define MAGIC "#BOOTCONFIG\n"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static unsigned char rnd_byte(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned char)(rng_state >> 24);
}

static void fill_random(unsigned char *p, size_t n)
{
	while (n--)
		*p++ = rnd_byte();
}

static uint32_t le32_at(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void set_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static size_t round4(size_t n)
{
	return (n + 3) / 4 * 4;
}

/* Our own trailer writer, straight from the layout description. */
static size_t make_trailer(unsigned char *out, size_t image_len,
			   const char *text, size_t text_len, size_t extra_pad)
{
	size_t total = round4(image_len + text_len + 1 + 20);
	size_t size = total - 20 - image_len;
	uint32_t sum = 0;

	memset(out, 0, size);
	memcpy(out, text, text_len);
	for (size_t i = 0; i < text_len; i++)
		sum += (unsigned char)text[i];
	set_le32(out + size, (uint32_t)size);
	set_le32(out + size + 4, sum);
	memcpy(out + size + 8, MAGIC, 12);
	memset(out + size + 20, 0, extra_pad);
	return size + 20 + extra_pad;
}

/* --- files -------------------------------------------------------------- */

static char tmpdir[1024];

static void mkdir_tmp(void)
{
	const char *base = getenv("TMPDIR");

	snprintf(tmpdir, sizeof(tmpdir), "%s/test_initrd.XXXXXX",
		 base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		exit(2);
	}
}

static void rm_rf(const char *dir)
{
	char cmd[PATH_MAX + 32];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
}

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
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || write(fd, data, len) != (ssize_t)len || close(fd)) {
		perror(path);
		exit(2);
	}
}

/* Whole file; *len = -1 as size_t when it cannot be read. */
static unsigned char *get_file(const char *path, size_t *len)
{
	struct stat st;
	unsigned char *p;
	int fd = open(path, O_RDONLY);

	*len = (size_t)-1;
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	p = malloc((size_t)st.st_size + 1);
	if (p && read(fd, p, (size_t)st.st_size) == st.st_size)
		*len = (size_t)st.st_size;
	close(fd);
	return p;
}

static int file_is(const char *path, const void *want, size_t len)
{
	size_t got_len;
	unsigned char *got = get_file(path, &got_len);
	int ok = got && got_len == len && !memcmp(got, want, len);

	free(got);
	return ok;
}

/* Number of our temporary files in @dir. */
static int temp_count(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (de->d_name[0] == '.' && strstr(de->d_name, ".bconf-"))
			n++;
	closedir(d);
	return n;
}

static ino_t inode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? 0 : st.st_ino;
}

/* --- pure functions --------------------------------------------------- */

static void test_checksum(struct unit *u)
{
	static const unsigned char hi[4] = { 0xff, 0x80, 0x7f, 0x01 };
	size_t n = 17u * 1024 * 1024;
	unsigned char *big = malloc(n);

	UNIT_EXPECT_INT(u, bconf_checksum("", 0), 0);
	UNIT_EXPECT_INT(u, bconf_checksum("abc", 3), 97 + 98 + 99);
	/* bytes are unsigned */
	UNIT_EXPECT_INT(u, bconf_checksum(hi, 4), 0xff + 0x80 + 0x7f + 1);
	/* the sum wraps at 32 bits: 17 MiB of 0xff is 0x10FFFFEF00 */
	memset(big, 0xff, n);
	UNIT_EXPECT_INT(u, bconf_checksum(big, n), (uint32_t)(n * 255ull));
	free(big);
}

static void test_size_ok(struct unit *u)
{
	UNIT_EXPECT(u, bconf_trailer_size_ok(1));
	UNIT_EXPECT(u, bconf_trailer_size_ok(32766));
	UNIT_EXPECT(u, !bconf_trailer_size_ok(32767));
	UNIT_EXPECT(u, !bconf_trailer_size_ok(32768));
	UNIT_EXPECT(u, !bconf_trailer_size_ok(UINT32_MAX));
}

/* Padding and footer bytes for every image length and text length mod 4. */
static void test_footer_math(struct unit *u)
{
	const char *text = "key = value;\nfoo.bar = 1";

	for (size_t img = 0; img < 8; img++) {
		for (size_t tl = 0; tl < 9; tl++) {
			struct bconf_trailer t;
			size_t len, size;
			unsigned char *b;
			uint32_t sum = 0;

			b = bconf_trailer_build(text, tl, img, &len, &t);
			UNIT_EXPECT(u, b != NULL);
			if (!b)
				return;
			/* test-bootconfig.sh's file size rule */
			UNIT_EXPECT_INT(u, img + len, round4(img + tl + 1 + 20));
			size = len - 20;
			UNIT_EXPECT(u, size >= tl + 1 && size <= tl + 4);
			UNIT_EXPECT_INT(u, le32_at(b + size), size);
			UNIT_EXPECT_INT(u, t.size, size);
			for (size_t i = 0; i < tl; i++)
				sum += (unsigned char)text[i];
			UNIT_EXPECT_INT(u, le32_at(b + size + 4), sum);
			UNIT_EXPECT_INT(u, t.csum, sum);
			UNIT_EXPECT(u, !memcmp(b + size + 8, MAGIC, 12));
			UNIT_EXPECT(u, !memcmp(b, text, tl));
			for (size_t i = tl; i < size; i++)
				UNIT_EXPECT_INT(u, b[i], 0);
			UNIT_EXPECT_INT(u, t.data_off, img);
			free(b);
		}
	}
}

static void test_find(struct unit *u)
{
	unsigned char buf[4096];
	const char *text = "ftrace.event.sched.enable";
	size_t img = 1001, tl = strlen(text), len;
	struct bconf_trailer t;

	fill_random(buf, img);
	len = img + make_trailer(buf + img, img, text, tl, 0);
	UNIT_EXPECT_INT(u, len % 4, 0);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), 0);
	UNIT_EXPECT_INT(u, t.data_off, img);
	UNIT_EXPECT_INT(u, t.end, img);
	UNIT_EXPECT_INT(u, t.size, len - 20 - img);
	UNIT_EXPECT_INT(u, t.pad, 0);
	UNIT_EXPECT(u, !memcmp(buf + t.data_off, text, tl));
	/* a bootloader's padding after the magic: 1 to 3 bytes, any value */
	for (size_t pad = 1; pad < 4; pad++) {
		buf[len + pad - 1] = (unsigned char)(pad == 2 ? 0xaa : 0);
		UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len + pad, &t), 0);
		UNIT_EXPECT_INT(u, t.pad, pad);
		UNIT_EXPECT_INT(u, t.data_off, img);
	}
	/* 4 bytes after the magic: the kernel does not look there */
	buf[len + 3] = 0;
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len + 4, &t), -ENOENT);
	/* no magic at all, and a magic with one byte changed */
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, img, &t), -ENOENT);
	buf[len - 1] = '\r';
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -ENOENT);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, 0, &t), -ENOENT);
	UNIT_EXPECT_INT(u, bconf_trailer_find(NULL, 0, NULL), -ENOENT);
}

static void test_find_bad(struct unit *u)
{
	unsigned char buf[512];
	const char *text = "a = 1";
	size_t img = 64, len, hdr;
	struct bconf_trailer t;

	fill_random(buf, img);
	len = img + make_trailer(buf + img, img, text, 5, 0);
	hdr = len - 20;
	/* bad checksum: found, @t filled, -EBADMSG */
	buf[img] ^= 1;
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -EBADMSG);
	UNIT_EXPECT_INT(u, t.data_off, img);
	UNIT_EXPECT_INT(u, t.size, hdr - img);
	buf[img] ^= 1;
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), 0);
	/* size reaching exactly the start of the image is fine... */
	set_le32(buf + hdr, (uint32_t)hdr);
	set_le32(buf + hdr + 4, bconf_checksum(buf, hdr));
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), 0);
	UNIT_EXPECT_INT(u, t.data_off, 0);
	/* ...one more byte is larger than the image */
	set_le32(buf + hdr, (uint32_t)hdr + 1);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -EINVAL);
	/* a claim over what any writer writes: refused before the file size */
	set_le32(buf + hdr, BCONF_TRAILER_SIZE_MAX);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -EINVAL);
	set_le32(buf + hdr, BCONF_TRAILER_SIZE_MAX + 1);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -EMSGSIZE);
	UNIT_EXPECT_INT(u, t.size, BCONF_TRAILER_SIZE_MAX + 1);
	set_le32(buf + hdr, UINT32_MAX);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, len, &t), -EMSGSIZE);
}

static void test_find_tiny(struct unit *u)
{
	unsigned char buf[32] = { 0 };
	struct bconf_trailer t;

	/* the magic alone, and with fewer than 8 bytes before it */
	for (size_t before = 0; before < 8; before++) {
		memcpy(buf + before, MAGIC, 12);
		UNIT_EXPECT_INT(u, bconf_trailer_find(buf, before + 12, &t),
				-EINVAL);
	}
	/* an empty trailer: size 0, checksum 0 */
	memset(buf, 0, 8);
	memcpy(buf + 8, MAGIC, 12);
	UNIT_EXPECT_INT(u, bconf_trailer_find(buf, 20, &t), 0);
	UNIT_EXPECT_INT(u, t.size, 0);
	UNIT_EXPECT_INT(u, t.end, 0);
	for (size_t n = 1; n < 12; n++)
		UNIT_EXPECT_INT(u, bconf_trailer_find(MAGIC, n, &t), -ENOENT);
}

static void test_tmp_name(struct unit *u)
{
	char longb[300], name[400];

	UNIT_EXPECT(u, bconf_tmp_name_match(".initrd.img.bconf-Ab9xYz",
					    "initrd.img"));
	UNIT_EXPECT(u, !bconf_tmp_name_match(".initrd.img.bconf-Ab9xY",
					     "initrd.img"));
	UNIT_EXPECT(u, !bconf_tmp_name_match(".initrd.img.bconf-Ab9xYz1",
					     "initrd.img"));
	UNIT_EXPECT(u, !bconf_tmp_name_match(".initrd.img.bconf-Ab9x-z",
					     "initrd.img"));
	UNIT_EXPECT(u, !bconf_tmp_name_match(".initrd.im.bconf-Ab9xYz",
					     "initrd.img"));
	UNIT_EXPECT(u, !bconf_tmp_name_match("initrd.img.bconf-Ab9xYz",
					     "initrd.img"));
	memset(longb, 'x', 250);
	longb[250] = '\0';
	snprintf(name, sizeof(name), ".%.200s.bconf-AAAAAA", longb);
	UNIT_EXPECT(u, bconf_tmp_name_match(name, longb));
}

/* --- files --------------------------------------------------------------- */

/* An image of @img random bytes; returns a malloc'ed copy. */
static unsigned char *new_image(const char *path, size_t img)
{
	unsigned char *p = malloc(img + 1);

	fill_random(p, img);
	put_file(path, p, img);
	return p;
}

static void test_apply_read_delete(struct unit *u)
{
	const char *a = "key = value;\n", *b = "ftrace.tracer = function\n";
	unsigned char want[8192];
	struct bconf_trailer t;
	char *path = path_in("initrd.img"), *text;
	size_t len, n;

	for (size_t img = 4096; img < 4100; img++) {
		unsigned char *image = new_image(path, img);
		ino_t ino;

		UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t),
				-ENOENT);
		UNIT_EXPECT(u, text == NULL);
		/* delete without a trailer: success, file not even rewritten */
		ino = inode_of(path);
		UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
		UNIT_EXPECT(u, file_is(path, image, img));
		UNIT_EXPECT(u, inode_of(path) == ino);

		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, a, strlen(a), &t), 0);
		memcpy(want, image, img);
		n = img + make_trailer(want + img, img, a, strlen(a), 0);
		UNIT_EXPECT(u, file_is(path, want, n));
		UNIT_EXPECT_INT(u, n % 4, 0);
		UNIT_EXPECT_INT(u, t.size, n - img - 20);
		UNIT_EXPECT_INT(u, t.csum, bconf_checksum(a, strlen(a)));
		/* the file was replaced, not written in place */
		UNIT_EXPECT(u, inode_of(path) != ino);

		UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t), 0);
		UNIT_EXPECT_STR(u, text, a);
		UNIT_EXPECT_INT(u, len, strlen(a));
		UNIT_EXPECT_INT(u, t.end, img);
		free(text);

		/* idempotent */
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, a, strlen(a), NULL), 0);
		UNIT_EXPECT(u, file_is(path, want, n));

		/* replacing: the old trailer goes, the image stays */
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, b, strlen(b), &t), 0);
		n = img + make_trailer(want + img, img, b, strlen(b), 0);
		UNIT_EXPECT(u, file_is(path, want, n));

		UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
		UNIT_EXPECT(u, file_is(path, image, img));
		UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
		UNIT_EXPECT(u, file_is(path, image, img));
		UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
		free(image);
	}
}

/* The text ends at its first NUL, as the kernel reads it. */
static void test_apply_nul(struct unit *u)
{
	char *path = path_in("nul.img"), *text;
	unsigned char want[256];
	unsigned char *image = new_image(path, 100);
	size_t len, n;

	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1\0b=2", 7, NULL), 0);
	memcpy(want, image, 100);
	n = 100 + make_trailer(want + 100, 100, "a=1", 3, 0);
	UNIT_EXPECT(u, file_is(path, want, n));
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, NULL), 0);
	UNIT_EXPECT_STR(u, text, "a=1");
	free(text);
	/* an empty text still gets its NUL and padding */
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "", 0, NULL), 0);
	n = 100 + make_trailer(want + 100, 100, "", 0, 0);
	UNIT_EXPECT(u, file_is(path, want, n));
	/* an empty image */
	put_file(path, "", 0);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), 0);
	n = make_trailer(want, 0, "a=1", 3, 0);
	UNIT_EXPECT(u, file_is(path, want, n));
	free(image);
}

/*
 * The largest text apply accepts depends on the image length mod 4: the
 * padded size field must stay below 32767.
 */
static void test_apply_limit(struct unit *u)
{
	char *path = path_in("limit.img");
	char *text = malloc(BCONF_DATA_MAX + 2);
	struct bconf_trailer t;
	unsigned char *image;

	memset(text, 'x', BCONF_DATA_MAX + 1);
	text[0] = 'k';
	text[1] = '=';
	for (size_t img = 4096; img < 4100; img++) {
		size_t s = 32766, max;

		while ((img + s) % 4)
			s--;
		max = s - 1;
		image = new_image(path, img);
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, text, max + 1, &t),
				-E2BIG);
		UNIT_EXPECT(u, file_is(path, image, img));
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, text, max, &t), 0);
		UNIT_EXPECT_INT(u, t.size, s);
		UNIT_EXPECT(u, bconf_trailer_size_ok(t.size));
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, text,
						      BCONF_DATA_MAX, NULL),
				-E2BIG);
		UNIT_EXPECT_INT(u, bconf_initrd_apply(path, text,
						      BCONF_DATA_MAX + 1, NULL),
				-E2BIG);
		UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
		UNIT_EXPECT(u, file_is(path, image, img));
		free(image);
	}
	UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
	free(text);
}

/*
 * Trailers the kernel refuses for their size, as the tree's tool writes
 * them (32766 bytes + NUL, padded to 32768): read and delete handle them.
 */
static void test_oversized(struct unit *u)
{
	char *path = path_in("big.img"), *text, *got;
	size_t img = 4104, n, len;
	unsigned char *image, *want = malloc(img + 40000);
	struct bconf_trailer t;

	text = malloc(32767);
	memset(text, 'y', 32766);
	memcpy(text, "data = \"", 8);
	text[32765] = '"';
	text[32766] = '\0';
	image = new_image(path, img);
	memcpy(want, image, img);
	n = img + make_trailer(want + img, img, text, 32766, 0);
	UNIT_EXPECT_INT(u, le32_at(want + n - 20), 32768);
	put_file(path, want, n);

	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &got, &len, &t), 0);
	UNIT_EXPECT_INT(u, len, 32766);
	UNIT_EXPECT(u, got && !strcmp(got, text));
	UNIT_EXPECT_INT(u, t.size, 32768);
	UNIT_EXPECT(u, !bconf_trailer_size_ok(t.size));
	free(got);
	/* the same text is refused by apply, and the file stays */
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, text, 32766, NULL), -E2BIG);
	UNIT_EXPECT(u, file_is(path, want, n));
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
	UNIT_EXPECT(u, file_is(path, image, img));
	/* BCONF_APPLY_OVERSIZE writes it as the tree's tool does... */
	UNIT_EXPECT_INT(u, bconf_initrd_apply_flags(path, text, 32766,
						    BCONF_APPLY_OVERSIZE, &t),
			0);
	UNIT_EXPECT_INT(u, t.size, 32768);
	UNIT_EXPECT(u, file_is(path, want, n));
	/* ...but not beyond the tool's own limit of 32767 with the NUL */
	text = realloc(text, 32768);
	memset(text, 'y', 32767);
	text[32767] = '\0';
	UNIT_EXPECT_INT(u, bconf_initrd_apply_flags(path, text, 32767,
						    BCONF_APPLY_OVERSIZE, NULL),
			-E2BIG);
	UNIT_EXPECT_INT(u, bconf_initrd_apply_flags(path, "a", 1, 0x2, NULL),
			-EINVAL);
	UNIT_EXPECT(u, file_is(path, want, n));
	/* apply replaces an oversized trailer with a good one */
	put_file(path, want, n);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), 0);
	n = img + make_trailer(want + img, img, "a=1", 3, 0);
	UNIT_EXPECT(u, file_is(path, want, n));
	free(image);
	free(want);
	free(text);
}

/* Corrupt trailers: read, apply and delete refuse them and change nothing. */
static void test_corrupt(struct unit *u)
{
	char *path = path_in("bad.img"), *text = NULL;
	unsigned char want[512];
	size_t img = 200, n, len;
	struct bconf_trailer t;

	fill_random(want, img);
	n = img + make_trailer(want + img, img, "a = 1", 5, 0);
	want[img + 1] ^= 0x20;	/* bad checksum */
	put_file(path, want, n);
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t), -EBADMSG);
	UNIT_EXPECT(u, text == NULL);
	UNIT_EXPECT_INT(u, t.data_off, img);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "b=2", 3, NULL), -EBADMSG);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), -EBADMSG);
	memset(&t, 0, sizeof(t));
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "b=2", 3, &t), -EBADMSG);
	UNIT_EXPECT_INT(u, t.data_off, img);	/* the corrupt one, as read */
	UNIT_EXPECT_INT(u, t.size, n - img - 20);
	UNIT_EXPECT(u, file_is(path, want, n));

	set_le32(want + n - 20, (uint32_t)n);	/* size beyond the image */
	put_file(path, want, n);
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t), -EINVAL);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "b=2", 3, NULL), -EINVAL);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), -EINVAL);
	UNIT_EXPECT(u, file_is(path, want, n));
	UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
}

/* A bootloader's pad after the magic is part of the trailer. */
static void test_padded(struct unit *u)
{
	char *path = path_in("pad.img"), *text;
	unsigned char want[512];
	size_t img = 301, n, len;
	struct bconf_trailer t;

	fill_random(want, img);
	n = img + make_trailer(want + img, img, "x.y = z", 7, 3);
	put_file(path, want, n);
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t), 0);
	UNIT_EXPECT_STR(u, text, "x.y = z");
	UNIT_EXPECT_INT(u, t.pad, 3);
	free(text);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "q=1", 3, NULL), 0);
	n = img + make_trailer(want + img, img, "q=1", 3, 0);
	UNIT_EXPECT(u, file_is(path, want, n));
	n = img + make_trailer(want + img, img, "x.y = z", 7, 2);
	put_file(path, want, n);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
	UNIT_EXPECT(u, file_is(path, want, img));
}

static void test_missing_and_special(struct unit *u)
{
	char *text = NULL;
	size_t len;

	UNIT_EXPECT_INT(u, bconf_initrd_read(path_in("nope"), &text, &len,
					     NULL), -ENOENT);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path_in("nope"), "a", 1, NULL),
			-ENOENT);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path_in("nope")), -ENOENT);
	UNIT_EXPECT_INT(u, bconf_initrd_read(tmpdir, &text, &len, NULL),
			-EISDIR);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(tmpdir, "a", 1, NULL), -EISDIR);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(tmpdir), -EISDIR);
	/* a device holds no trailer and cannot be replaced */
	UNIT_EXPECT_INT(u, bconf_initrd_read("/dev/null", &text, &len, NULL),
			-ENOENT);
	UNIT_EXPECT_INT(u, bconf_initrd_apply("/dev/null", "a", 1, NULL),
			-ENOTSUP);
	UNIT_EXPECT_INT(u, bconf_initrd_delete("/dev/null"), -ENOTSUP);
	UNIT_EXPECT(u, text == NULL);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(NULL, "a", 1, NULL), -EINVAL);
	UNIT_EXPECT_INT(u, bconf_initrd_apply("", "a", 1, NULL), -EINVAL);
}

/* A symlinked initrd: the link stays, its target gets the trailer. */
static void test_symlink(struct unit *u)
{
	char *sub = path_in("boot"), *target = path_in("boot/initrd.img-6.1");
	char *link = path_in("initrd.img"), buf[PATH_MAX];
	unsigned char want[256];
	struct stat st;
	size_t n;
	ssize_t l;

	if (mkdir(sub, 0755)) {
		UNIT_EXPECT(u, 0);
		return;
	}
	fill_random(want, 128);
	put_file(target, want, 128);
	unlink(link);
	UNIT_EXPECT(u, symlink("boot/initrd.img-6.1", link) == 0);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(link, "a=1", 3, NULL), 0);
	UNIT_EXPECT(u, lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	l = readlink(link, buf, sizeof(buf) - 1);
	UNIT_EXPECT(u, l > 0);
	buf[l > 0 ? l : 0] = '\0';
	UNIT_EXPECT_STR(u, buf, "boot/initrd.img-6.1");
	n = 128 + make_trailer(want + 128, 128, "a=1", 3, 0);
	UNIT_EXPECT(u, file_is(target, want, n));
	UNIT_EXPECT_INT(u, bconf_initrd_delete(link), 0);
	UNIT_EXPECT(u, file_is(target, want, 128));
	UNIT_EXPECT(u, lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
	UNIT_EXPECT_INT(u, temp_count(sub), 0);
	/* a dangling link */
	unlink(target);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(link, "a=1", 3, NULL), -ENOENT);
	unlink(link);
}

/* Mode bits (setgid included) and, as root, the owner are kept. */
static void test_mode_owner(struct unit *u)
{
	char *path = path_in("owned.img");
	unsigned char *image = new_image(path, 512);
	int root = geteuid() == 0;
	char xval[8] = "";
	struct stat st;

	UNIT_EXPECT(u, chmod(path, 02640) == 0);
	if (root)
		UNIT_EXPECT(u, chown(path, 1234, 5678) == 0);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), 0);
	UNIT_EXPECT(u, stat(path, &st) == 0);
	UNIT_EXPECT_INT(u, st.st_mode & 07777, 02640);
	if (root) {
		UNIT_EXPECT_INT(u, st.st_uid, 1234);
		UNIT_EXPECT_INT(u, st.st_gid, 5678);
	}
	/* root may write a read-only file, as with the tree's tool */
	UNIT_EXPECT(u, chmod(path, root ? 0400 : 0600) == 0);
	UNIT_EXPECT(u, setxattr(path, "user.bconf-test", "kept", 4, 0) == 0 ||
		       errno == ENOTSUP);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
	UNIT_EXPECT(u, stat(path, &st) == 0);
	UNIT_EXPECT_INT(u, st.st_mode & 07777, root ? 0400 : 0600);
	UNIT_EXPECT(u, getxattr(path, "user.bconf-test", xval, sizeof(xval)) == 4 ||
		       errno == ENOTSUP);
	UNIT_EXPECT(u, !memcmp(xval, "kept", 4) || errno == ENOTSUP);
	UNIT_EXPECT(u, file_is(path, image, 512));
	free(image);
}

/*
 * Stale temporary files of a killed run are removed by the next apply;
 * one a live writer holds (locked) and look-alike names are not.
 */
static void test_stale_temps(struct unit *u)
{
	char *path = path_in("stale.img");
	char *dead = path_in(".stale.img.bconf-Dead01");
	char *live = path_in(".stale.img.bconf-Live01");
	char *other = path_in(".stale.img.bconf-short");
	char *other2 = path_in(".stale.imgx.bconf-Dead02");
	unsigned char *image = new_image(path, 64);
	int fd;

	put_file(dead, "x", 1);
	put_file(live, "y", 1);
	put_file(other, "z", 1);
	put_file(other2, "w", 1);
	fd = open(live, O_RDONLY);
	UNIT_EXPECT(u, fd >= 0 && flock(fd, LOCK_EX) == 0);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), 0);
	UNIT_EXPECT(u, access(dead, F_OK) != 0);
	UNIT_EXPECT(u, access(live, F_OK) == 0);
	UNIT_EXPECT(u, access(other, F_OK) == 0);
	UNIT_EXPECT(u, access(other2, F_OK) == 0);
	close(fd);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
	UNIT_EXPECT(u, access(live, F_OK) != 0);
	UNIT_EXPECT(u, file_is(path, image, 64));
	/* a symlink with our name is never followed nor removed */
	UNIT_EXPECT(u, symlink(path, dead) == 0);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), 0);
	UNIT_EXPECT(u, access(dead, F_OK) == 0);
	unlink(dead);
	unlink(other);
	unlink(other2);
	free(image);
}

/*
 * A FIFO, a socket and a device node are refused at once: in a child with
 * an alarm, so that a blocking open fails the test instead of hanging it.
 */
static void special_child(void)
{
	const char *paths[3] = { path_in("fifo"), path_in("sock"),
				 path_in("dev") };
	char *text = NULL;
	size_t len;
	int bad = 0;

	alarm(10);
	for (int i = 0; i < 3; i++) {
		bad |= bconf_initrd_read(paths[i], &text, &len, NULL) != -ENOENT;
		bad |= bconf_initrd_apply(paths[i], "a", 1, NULL) != -ENOTSUP;
		bad |= bconf_initrd_delete(paths[i]) != -ENOTSUP;
		bad |= bconf_initrd_update(paths[i], "a", 1,
					   BCONF_UPDATE_IN_PLACE, NULL,
					   NULL) != -ENOTSUP;
	}
	_exit(bad);
}

static void test_special_files(struct unit *u)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sock = socket(AF_UNIX, SOCK_STREAM, 0), status;
	pid_t pid;

	UNIT_EXPECT(u, mkfifo(path_in("fifo"), 0666) == 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path_in("sock"));
	UNIT_EXPECT(u, sock >= 0 &&
		       bind(sock, (struct sockaddr *)&sa, sizeof(sa)) == 0);
	/* a real device node as root, else a link to one */
	if (mknod(path_in("dev"), S_IFCHR | 0666, makedev(1, 3)))
		UNIT_EXPECT(u, symlink("/dev/null", path_in("dev")) == 0);
	fflush(NULL);
	pid = fork();
	if (!pid)
		special_child();
	UNIT_EXPECT(u, pid > 0 && waitpid(pid, &status, 0) == pid);
	UNIT_EXPECT(u, !WIFSIGNALED(status) || WTERMSIG(status) != SIGALRM);
	UNIT_EXPECT(u, WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(sock);
	unlink(path_in("fifo"));
	unlink(path_in("sock"));
	unlink(path_in("dev"));
}

/* A sparse file of @size bytes with @n bytes of data at each of @at. */
static void put_sparse(const char *path, off_t size, const off_t *at, int n,
		       const unsigned char *data, size_t dlen)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || ftruncate(fd, size)) {
		perror(path);
		exit(2);
	}
	for (int i = 0; i < n; i++)
		if (pwrite(fd, data, dlen, at[i]) != (ssize_t)dlen) {
			perror(path);
			exit(2);
		}
	close(fd);
}

static long long blocks_of(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -1 : (long long)st.st_blocks;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A 2 GiB sparse image stays sparse through apply and delete. */
static void test_sparse(struct unit *u)
{
	const off_t size = (off_t)2 << 30, at[3] = { 0, (off_t)1 << 30,
						     size - 8192 };
	char *path = path_in("sparse.img"), *text = NULL;
	unsigned char data[8192], back[8192];
	long long before, after;
	double t0, ta, td;
	size_t len;
	int fd;

	fill_random(data, sizeof(data));
	put_sparse(path, size, at, 3, data, sizeof(data));
	before = blocks_of(path);
	t0 = now_s();
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a = 1\n", 6, NULL), 0);
	ta = now_s() - t0;
	after = blocks_of(path);
	printf("  2 GiB sparse image: %lld blocks before, %lld after apply (%.3f s)",
	       before, after, ta);
	/* the data blocks, the trailer's block and some metadata */
	UNIT_EXPECT(u, after >= before && after <= before + 64);
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, NULL), 0);
	UNIT_EXPECT_STR(u, text, "a = 1\n");
	free(text);
	fd = open(path, O_RDONLY);
	for (int i = 0; i < 3; i++)
		UNIT_EXPECT(u, pread(fd, back, sizeof(back), at[i]) ==
			       (ssize_t)sizeof(back) &&
			       !memcmp(back, data, sizeof(data)));
	UNIT_EXPECT(u, pread(fd, back, 4096, at[1] - 4096) == 4096 &&
		       !back[0] && !memcmp(back, back + 1, 4095));
	close(fd);
	t0 = now_s();
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), 0);
	td = now_s() - t0;
	printf(", %lld after delete (%.3f s)\n", blocks_of(path), td);
	UNIT_EXPECT(u, blocks_of(path) <= before + 64);
	UNIT_EXPECT(u, stat(path, &(struct stat){ 0 }) == 0);
	UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
	unlink(path);
}

/*
 * A footer claiming 3 GiB of config on a 3 GiB (sparse) file: refused
 * with the claim reported, without reading or allocating it (the CLI test
 * measures the peak RSS).
 */
static void test_huge_claim(struct unit *u)
{
	const uint32_t claim = 3u << 30;
	const off_t size = (off_t)claim + 20;
	unsigned char foot[20];
	char *path = path_in("huge.img"), *text = NULL;
	struct bconf_trailer t;
	size_t len;
	int fd;

	set_le32(foot, claim);
	set_le32(foot + 4, 0);
	memcpy(foot + 8, MAGIC, 12);
	put_sparse(path, size - 20, NULL, 0, NULL, 0);
	fd = open(path, O_WRONLY | O_APPEND);
	UNIT_EXPECT(u, fd >= 0 && write(fd, foot, 20) == 20);
	close(fd);
	UNIT_EXPECT_INT(u, bconf_initrd_read(path, &text, &len, &t), -EMSGSIZE);
	UNIT_EXPECT_INT(u, t.size, claim);
	UNIT_EXPECT(u, text == NULL);
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, NULL), -EMSGSIZE);
	UNIT_EXPECT_INT(u, bconf_initrd_delete(path), -EMSGSIZE);
	/* apply and delete report the claim as read does, for the message */
	for (int i = 0; i < 4; i++) {
		unsigned int flags = (i & 1 ? BCONF_UPDATE_DELETE : 0) |
				     (i & 2 ? BCONF_UPDATE_IN_PLACE : 0);

		memset(&t, 0, sizeof(t));
		UNIT_EXPECT_INT(u, bconf_initrd_update(path, "a=1", 3, flags,
						       &t, NULL), -EMSGSIZE);
		UNIT_EXPECT_INT(u, t.size, claim);
	}
	memset(&t, 0, sizeof(t));
	UNIT_EXPECT_INT(u, bconf_initrd_apply(path, "a=1", 3, &t), -EMSGSIZE);
	UNIT_EXPECT_INT(u, t.size, claim);
	UNIT_EXPECT_INT(u, blocks_of(path) <= 64, 1);
	unlink(path);
}

/* --in-place: the same bytes as the atomic way, the same inode. */
static void test_in_place(struct unit *u)
{
	char *path = path_in("inplace.img"), *hard = path_in("inplace.lnk");
	unsigned char *image = new_image(path, 1001);
	unsigned char want[2048];
	ino_t ino = inode_of(path);
	size_t n;

	UNIT_EXPECT(u, link(path, hard) == 0);
	for (int i = 0; i < 2; i++) {
		const char *text = i ? "bb = 22\n" : "a = 1\n";

		UNIT_EXPECT_INT(u, bconf_initrd_update(path, text, strlen(text),
						       BCONF_UPDATE_IN_PLACE,
						       NULL, NULL), 0);
		memcpy(want, image, 1001);
		n = 1001 + make_trailer(want + 1001, 1001, text, strlen(text), 0);
		UNIT_EXPECT(u, file_is(path, want, n));
		UNIT_EXPECT(u, file_is(hard, want, n));	/* every name */
		UNIT_EXPECT_INT(u, inode_of(path), ino);
	}
	UNIT_EXPECT_INT(u, bconf_initrd_update(path, NULL, 0,
					       BCONF_UPDATE_IN_PLACE |
					       BCONF_UPDATE_DELETE, NULL, NULL),
			0);
	UNIT_EXPECT(u, file_is(path, image, 1001));
	UNIT_EXPECT_INT(u, inode_of(path), ino);
	UNIT_EXPECT_INT(u, temp_count(tmpdir), 0);
	unlink(hard);
	unlink(path);
	free(image);
}

int main(void)
{
	int ret;

	mkdir_tmp();
	ret = UNIT_RUN(UNIT_CASE(test_checksum), UNIT_CASE(test_size_ok),
		       UNIT_CASE(test_footer_math), UNIT_CASE(test_find),
		       UNIT_CASE(test_find_bad), UNIT_CASE(test_find_tiny),
		       UNIT_CASE(test_tmp_name),
		       UNIT_CASE(test_apply_read_delete),
		       UNIT_CASE(test_apply_nul), UNIT_CASE(test_apply_limit),
		       UNIT_CASE(test_oversized), UNIT_CASE(test_corrupt),
		       UNIT_CASE(test_padded),
		       UNIT_CASE(test_missing_and_special),
		       UNIT_CASE(test_symlink), UNIT_CASE(test_mode_owner),
		       UNIT_CASE(test_stale_temps),
		       UNIT_CASE(test_special_files), UNIT_CASE(test_sparse),
		       UNIT_CASE(test_huge_claim), UNIT_CASE(test_in_place));
	rm_rf(tmpdir);
	return ret;
}
