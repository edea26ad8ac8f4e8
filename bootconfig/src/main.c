// SPDX-License-Identifier: GPL-2.0
/*
 * bootconfig - show, apply and delete the boot config of an initrd.
 *
 * A drop-in for the kernel's tools/bootconfig: the same options and the
 * same standard output on success.  Errors are reported as
 * FILE:LINE:COL: error: MESSAGE with the source line and a caret, and the
 * exit status is 0 (success), 1 (error) or 2 (usage).  See bootconfig(1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <libgen.h>
#include <string.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bootconfig.h"

#define EXIT_USAGE	2
#define PLAIN_PROBE	65536	/* bytes read to tell a text file from an image */

enum show_mode { SHOW_TREE, SHOW_LIST, SHOW_PROC, SHOW_CMDLINE, SHOW_JSON };

struct opts {
	const char *apply;
	bool delete;
	bool in_place;
	enum show_mode mode;
	int nmodes;
	const char *path;
};

static const char *prog = "bootconfig";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: bootconfig [OPTIONS] <INITRD>\n"
		"Or     bootconfig <CONFIG>\n"
		" Apply, delete or show boot config to initrd.\n"
		" Options:\n"
		"\t-a <config>: Apply boot config to initrd\n"
		"\t-d : Delete boot config file from initrd\n"
		"\t--in-place : with -a or -d, rewrite only the end of the\n"
		"\t     initrd instead of a new copy (a full disk; see the man page)\n"
		"\t-l : list boot config in initrd or file\n"
		"\t-C : print the kernel.* keys as the kernel command line\n"
		"\t     they become\n"
		"\t--proc : list in the exact /proc/bootconfig format\n"
		"\t--json : print the config as JSON\n"
		"\t-h, --help : this help;  --version : the version\n\n"
		" If no option is given, show the bootconfig in the given file.\n"
		" Exit status: 0 success, 1 error, 2 usage error.\n");
}

/* Bytes shown as they are in diagnostics; any other is shown as \xNN. */
/*
 * A file name as diagnostics show it: escaped as bconf_put_escaped() does.  The
 * few names of one run are kept for its lifetime.
 */
static const char *disp(const char *name)
{
	static struct {
		const char *raw;
		char *esc;
	} cache[4];
	size_t i, len = strlen(name);
	char *esc;
	FILE *f;

	for (i = 0; i < 4 && cache[i].raw; i++)
		if (cache[i].raw == name)
			return cache[i].esc;
	esc = NULL;
	f = open_memstream(&esc, &len);
	if (!f)
		return "(name not shown: out of memory)";
	bconf_put_escaped(f, name, strlen(name));
	if (fclose(f))
		return "(name not shown: out of memory)";
	if (i < 4) {
		cache[i].raw = name;
		cache[i].esc = esc;
	}
	return esc;
}

static int err_errno(const char *path, const char *doing, int err)
{
	fprintf(stderr, "%s: %s: %s: %s\n", prog, disp(path), doing,
		strerror(-err));
	return 1;
}

/* What a file is, for "X is a FIFO, not a regular file". */
static const char *file_kind(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return "not a regular file";
	if (S_ISFIFO(st.st_mode))
		return "a FIFO";
	if (S_ISSOCK(st.st_mode))
		return "a socket";
	if (S_ISCHR(st.st_mode))
		return "a character device";
	if (S_ISBLK(st.st_mode))
		return "a block device";
	return "not a regular file";
}

/* The inode flags of @path (FS_IOC_GETFLAGS, as lsattr), 0 if unknown. */
static unsigned int inode_flags(const char *path)
{
	int fd, flags = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) < 0)
		flags = 0;
	close(fd);
	return (unsigned int)flags;
}

/* What an immutable (chattr +i) or append-only (+a) flag in @fl is. */
static void put_flag(unsigned int fl, const char *what)
{
	char c = fl & FS_IMMUTABLE_FL ? 'i' : 'a';

	fprintf(stderr, "is %s (chattr +%c; lsattr%s shows it), which stops root too; ",
		c == 'i' ? "immutable" : "append-only", c, what);
}

/*
 * The note of an EPERM on writing @path: an immutable or append-only file
 * or directory (which stop root too), else an owner we may not give the
 * new copy (not for root), else whatever stops root here.
 */
static void put_eperm_note(const char *path)
{
	const unsigned int stop = FS_IMMUTABLE_FL | FS_APPEND_FL;
	unsigned int fl = inode_flags(path);
	char *real, *dir;

	if (fl & stop) {
		fputs("the file ", stderr);
		put_flag(fl, "");
		fprintf(stderr, "remove the flag with chattr -%c, run this again, then set it again if it is wanted\n",
			fl & FS_IMMUTABLE_FL ? 'i' : 'a');
		return;
	}
	real = realpath(path, NULL);
	dir = real ? dirname(real) : NULL;
	fl = dir ? inode_flags(dir) : 0;
	if (fl & stop) {
		fputs("its directory ", stderr);
		bconf_put_escaped(stderr, dir, strlen(dir));
		fputc(' ', stderr);
		put_flag(fl, " -d");
		fprintf(stderr, "the new copy of the initrd cannot be put there: remove the flag with chattr -%c, or use --in-place, which writes only the file\n",
			fl & FS_IMMUTABLE_FL ? 'i' : 'a');
	} else if (geteuid()) {
		fputs("its owner could not be kept (the file belongs to another user) or the file is immutable or append-only (lsattr); run as root\n",
		      stderr);
	} else {
		fputs("not even root may write it here, and neither the file nor its directory is immutable or append-only: a security module (SELinux, AppArmor) or the file system refused it\n",
		      stderr);
	}
	free(real);
}

/*
 * Errors about an initrd's trailer (read, apply or delete) and its file,
 * with what to do; 0 when @err is none of them.  @doing ends the first
 * sentence ("nothing was changed").
 */
static int trailer_error(const char *path, int err,
			 const struct bconf_trailer *t, const char *doing)
{
	const char *regen = "restore the initrd from a backup or regenerate it (update-initramfs -u, dracut -f), then apply the config again";
	const char *d = disp(path);
	struct stat st;

	switch (err) {
	case -EBADMSG:
		fprintf(stderr, "%s: %s: the bootconfig trailer is corrupt: its checksum does not match its data, so the kernel ignores it; %s\n  note: %s\n",
			prog, d, doing, regen);
		return 1;
	case -EMSGSIZE:
		fprintf(stderr, "%s: %s: the bootconfig trailer is corrupt: it claims %u bytes of config, more than any bootconfig can hold (%d); %s\n  note: %s\n",
			prog, d, t ? t->size : 0, BCONF_TRAILER_SIZE_MAX,
			doing, regen);
		return 1;
	case -EINVAL:
		if (!stat(path, &st) && st.st_size < BCONF_FOOTER_LEN)
			fprintf(stderr, "%s: %s: the file ends with the bootconfig magic but is only %lld bytes, too short for a trailer (at least %d); %s\n  note: this is not an initrd with a bootconfig\n",
				prog, d, (long long)st.st_size,
				BCONF_FOOTER_LEN, doing);
		else
			fprintf(stderr, "%s: %s: the bootconfig trailer is corrupt: its size field is larger than the file, which is truncated or damaged; %s\n  note: %s\n",
				prog, d, doing, regen);
		return 1;
	case -ENOTSUP:
		fprintf(stderr, "%s: %s: is %s, not a regular file: an initrd must be a regular file; %s\n",
			prog, d, file_kind(path), doing);
		return 1;
	case -EACCES:
	case -EPERM:
	case -EROFS:
		fprintf(stderr, "%s: %s: %s; %s\n  note: ", prog, d,
			strerror(-err), doing);
		if (err == -EPERM) {
			put_eperm_note(path);
			return 1;
		}
		fprintf(stderr, "%s\n",
			err == -EROFS ? "the file system is mounted read-only" :
			geteuid() ? "you may not write this file or its directory (the kernel's tool refuses such a file too); run as its owner or root" :
			"not even root may write this file or its directory here: a network file system that maps root to another user, or a security module (SELinux, AppArmor), refused it");
		return 1;
	default:
		return 0;
	}
}

/* What to do about each of the kernel's parse errors. */
static const char *hint_for(const char *msg)
{
	static const struct {
		const char *msg, *hint;
	} hints[] = {
		{ "Value is redefined",
		  "use ':=' to override the value or '+=' to append to it" },
		{ "No closing quotes", "add the closing quote" },
		{ "Invalid keyword",
		  "key words may use only letters, digits, '-' and '_'" },
		{ "Non printable value",
		  "values may hold printable characters and white space only" },
		{ "Too many nodes",
		  "the kernel holds at most 8192 keys and values" },
		{ "Too long key length",
		  "a full dotted key may be at most 255 bytes" },
		{ "Too many key words", "a key may have at most 16 words" },
		{ "Exceed max depth of braces",
		  "braces may nest at most 16 deep" },
		{ "Unexpected closing brace",
		  "remove it or add the matching '{'" },
		{ "Brace is not closed", "add the missing '}'" },
		{ "No delimiter",
		  "end the key with '=', ';', '{' or a newline" },
		{ "No value delimiter",
		  "separate values with ',' and end them with ';' or a newline" },
		{ "Wrong '+' operator", "the operator is '+='" },
		{ "Wrong ':' operator", "the operator is ':='" },
		{ "Config data is too big",
		  "the kernel accepts at most 32767 bytes with the final NUL" },
		{ "Config data is empty", "write at least one key" },
	};
	size_t i;

	for (i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (!strcmp(hints[i].msg, msg))
			return hints[i].hint;
	return NULL;
}

/* FILE:LINE:COL: error: MSG, the source line, a caret under COL. */
static void show_parse_error(const char *path, const char *buf, size_t len,
			     const struct bconf_error *e)
{
	const char *hint = hint_for(e->msg);

	if (e->pos == SIZE_MAX) {
		fprintf(stderr, "%s: error: %s\n", disp(path), e->msg);
	} else {
		fprintf(stderr, "%s:%u:%u: error: %s\n", disp(path), e->line,
			e->col, e->msg);
		bconf_show_source(stderr, buf, len, e->line, e->col);
	}
	if (hint)
		fprintf(stderr, "  note: %s\n", hint);
}

/* Read up to @max bytes of @path (all of it when @max is 0). */
static int read_file(const char *path, size_t max, char **buf, size_t *len,
		     struct stat *st)
{
	size_t want, got = 0;
	ssize_t n;
	int fd, ret = 0;

	/* a FIFO must not block before fstat() says what it is */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENXIO)
		return -ENOTSUP;	/* a socket */
	if (fd < 0)
		return -errno;
	if (fstat(fd, st) < 0) {
		ret = -errno;
		goto out;
	}
	if (S_ISDIR(st->st_mode)) {
		ret = -EISDIR;
		goto out;
	}
	want = (size_t)st->st_size;
	if (S_ISFIFO(st->st_mode)) {
		/* a pipe (bootconfig -a <(...)): up to EOF, blocking now */
		want = BCONF_DATA_MAX + 1;
		if (fcntl(fd, F_SETFL, 0) < 0) {
			ret = -errno;
			goto out;
		}
	} else if (!S_ISREG(st->st_mode)) {
		ret = -ENOTSUP;
		goto out;
	}
	if (max && want > max)
		want = max;
	*buf = malloc(want + 1);
	if (!*buf) {
		ret = -ENOMEM;
		goto out;
	}
	while (got < want) {
		n = read(fd, *buf + got, want - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	(*buf)[got] = '\0';
	*len = got;
out:
	close(fd);
	return ret;
}

/* Parse @len bytes of @buf from @path, reporting errors. */
static struct bconf *parse_or_report(const char *path, const char *buf,
				     size_t len)
{
	struct bconf_error e;
	struct bconf *bc;
	int ret;

	ret = bconf_parse(buf, len, &bc, &e);
	if (ret == -ENOMEM) {
		err_errno(path, "parsing", ret);
		return NULL;
	}
	if (ret) {
		show_parse_error(path, buf, len, &e);
		return NULL;
	}
	return bc;
}

/* Tell why a key could not be composed (a 16-word key, most likely). */
static int report_render_error(const char *path, int ret)
{
	if (ret == -ERANGE) {
		fprintf(stderr,
			"%s: error: a key has 16 words: the kernel cannot compose it, so it would create no /proc/bootconfig and drop every kernel.* parameter\n"
			"  note: use at most 15 words per key\n", disp(path));
		return 1;
	}
	if (ret == -EINVAL) {
		fprintf(stderr,
			"%s: error: 'kernel' has a value of its own: the kernel then adds no parameters\n"
			"  note: put the parameters below kernel. and remove 'kernel = ...'\n",
			disp(path));
		return 1;
	}
	return err_errno(path, "writing the output", ret);
}

static int render(const struct bconf *bc, enum show_mode mode)
{
	int ret;

	switch (mode) {
	case SHOW_LIST:
		return bconf_render_list(bc, BCONF_LIST_TOOL, stdout);
	case SHOW_PROC:
		return bconf_render_list(bc, 0, stdout);
	case SHOW_JSON:
		return bconf_render_json(bc, stdout);
	case SHOW_CMDLINE:
		ret = bconf_render_cmdline(bc, "kernel", stdout);
		if (!ret)
			putchar('\n');
		return ret;
	default:
		return bconf_render_tree(bc, stdout);
	}
}

/* The config text of @path: its trailer, or the file itself if text. */
static int load_config(const char *path, char **text, size_t *len,
		       bool *found)
{
	struct bconf_trailer t;
	struct stat st;
	int ret;

	*found = false;
	ret = bconf_initrd_read(path, text, len, &t);
	if (!ret) {
		*found = true;
		if (!bconf_trailer_size_ok(t.size))
			fprintf(stderr,
				"%s: %s: warning: trailer size %u is over the kernel's limit of %d: the kernel will ignore this bootconfig\n",
				prog, disp(path), t.size, BCONF_DATA_MAX - 1);
		return 0;
	}
	if (trailer_error(path, ret, &t, "showing nothing"))
		return 1;
	if (ret != -ENOENT)
		return err_errno(path, "reading", ret);

	ret = read_file(path, PLAIN_PROBE, text, len, &st);
	if (trailer_error(path, ret, NULL, "showing nothing"))
		return 1;
	if (ret)
		return err_errno(path, "reading", ret);
	/* A big file holding a NUL is an image without a bootconfig. */
	if ((size_t)st.st_size > BCONF_DATA_MAX && memchr(*text, 0, *len)) {
		free(*text);
		*text = NULL;
		*len = 0;
		return 0;
	}
	*found = true;
	if ((size_t)st.st_size > *len)
		*len = (size_t)st.st_size;	/* too big: the parser says so */
	return 0;
}

static int show(const struct opts *o)
{
	struct bconf *bc = NULL;
	char *text = NULL;
	size_t len = 0;
	bool found;
	int ret;

	ret = load_config(o->path, &text, &len, &found);
	if (ret || !found || !len) {
		free(text);
		return ret;	/* no config: nothing to show */
	}
	bc = parse_or_report(o->path, text, len);
	if (!bc) {
		free(text);
		return 1;
	}
	ret = render(bc, o->mode);
	fflush(stdout);
	if (ret)
		ret = report_render_error(o->path, ret);
	bconf_free(bc);
	free(text);
	return ret;
}

static void warn_uncomposable(const char *conf, const struct bconf *bc)
{
	const struct bconf_node *leaf = NULL;
	char key[BCONF_KEYLEN_MAX];

	while ((leaf = bconf_next_leaf(bc, NULL, leaf))) {
		if (bconf_compose_key(leaf, NULL, key, sizeof(key)) != -ERANGE)
			continue;
		fprintf(stderr,
			"%s: warning: a key has 16 words or more than 255 bytes: the kernel will create no /proc/bootconfig and drop every kernel.* parameter\n",
			disp(conf));
		return;
	}
}

/* The size field of a trailer for @text_len bytes after @image_len bytes. */
static size_t trailer_size(size_t image_len, size_t text_len)
{
	size_t total = image_len + text_len + 1 + BCONF_FOOTER_LEN;

	return text_len + 1 + (BCONF_ALIGN - total % BCONF_ALIGN) % BCONF_ALIGN;
}

static int apply_oversize(const char *conf, size_t text_len, size_t image_len)
{
	size_t cut = 1;

	while (cut < text_len &&
	       !bconf_trailer_size_ok((uint32_t)trailer_size(image_len,
							   text_len - cut)))
		cut++;
	fprintf(stderr,
		"%s: error: %zu bytes of config, with their NUL and padding, make a trailer size of %zu, which the kernel refuses (it must stay below %d)\n"
		"  note: shorten the config by %zu byte%s or more\n",
		disp(conf), text_len, trailer_size(image_len, text_len),
		BCONF_DATA_MAX, cut, cut == 1 ? "" : "s");
	return 1;
}

/* BOOTCONFIG_ALLOW_OVERSIZE=1: write what tools/bootconfig writes. */
static unsigned int apply_flags(void)
{
	const char *env = getenv("BOOTCONFIG_ALLOW_OVERSIZE");

	return env && !strcmp(env, "1") ? BCONF_APPLY_OVERSIZE : 0;
}

/* The flags of -a and -d. */
static unsigned int update_flags(const struct opts *o)
{
	return o->in_place ? BCONF_UPDATE_IN_PLACE : 0;
}

/* A size in bytes with a rounded figure a person reads at once. */
static void put_size(FILE *out, uint64_t n)
{
	if (n >= 10u << 20)
		fprintf(out, "%llu bytes (%.0f MiB)", (unsigned long long)n,
			n / 1048576.0);
	else if (n >= 10u << 10)
		fprintf(out, "%llu bytes (%.0f KiB)", (unsigned long long)n,
			n / 1024.0);
	else
		fprintf(out, "%llu bytes", (unsigned long long)n);
}

/* Report a failed -a or -d; @doing: "applying" or "deleting". */
static int update_error(const struct opts *o, const char *doing, int err,
			const struct bconf_trailer *t,
			const struct bconf_space *sp)
{
	char what[64];

	snprintf(what, sizeof(what), "%s the boot config (the file is unchanged)",
		 doing);
	if (trailer_error(o->path, err, t, "nothing was changed"))
		return 1;
	if (err != -ENOSPC)
		return err_errno(o->path, what, err);
	if (!sp->need) {	/* not the copy: creating or finishing the file */
		err_errno(o->path, what, err);
		fputs("  note: free some space, or use --in-place, which needs no new file (see bootconfig(1))\n",
		      stderr);
		return 1;
	}
	fprintf(stderr, "%s: %s: not enough free space for the new copy of the initrd: it needs ",
		prog, disp(o->path));
	put_size(stderr, sp->need);
	fputs(", the file system has ", stderr);
	put_size(stderr, sp->avail);
	fprintf(stderr, "; nothing was changed\n  note: free some space, or use --in-place, which rewrites only the end of the file (see bootconfig(1) for what a crash may leave)\n");
	return 1;
}

/*
 * Refuse a config with text after a NUL byte: the kernel, like the tree's
 * tool, would take only the text before it.  NULs at the end are padding.
 */
static int apply_nul(const char *conf, const char *text, size_t len)
{
	struct bconf_error at;
	size_t lost = bconf_nul_tail(text, len, &at);

	if (!lost)
		return 0;
	fprintf(stderr, "%s:%u:%u: error: %s: %zu bytes after it would be ignored; nothing was changed\n",
		disp(conf), at.line, at.col, at.msg, lost);
	bconf_show_source(stderr, text, len, at.line, at.col);
	fputs("  note: remove the NUL byte, or cut the file there if what follows is not config (boottrace lint reports it too)\n",
	      stderr);
	return 1;
}

static int apply(const struct opts *o)
{
	struct bconf_trailer t = { 0 };
	struct bconf_space sp;
	struct bconf *bc;
	struct stat st;
	char *text = NULL;
	size_t len, size;
	int ret;

	ret = read_file(o->apply, 0, &text, &len, &st);
	if (ret == -ENOTSUP) {
		fprintf(stderr, "%s: %s: is %s: a config must be a file or a pipe\n",
			prog, disp(o->apply), file_kind(o->apply));
		return 1;
	}
	if (ret)
		return err_errno(o->apply, "reading", ret);
	size = strlen(text) + 1;	/* up to the first NUL, as the kernel */
	bc = parse_or_report(o->apply, text, size);
	if (!bc || apply_nul(o->apply, text, len)) {
		bconf_free(bc);
		free(text);
		return 1;
	}
	warn_uncomposable(o->apply, bc);
	ret = bconf_initrd_update(o->path, text, size - 1,
				  apply_flags() | update_flags(o), &t, &sp);
	if (!ret && !bconf_trailer_size_ok(t.size))
		fprintf(stderr,
			"%s: warning: trailer size %u is over the kernel's limit: the kernel will ignore this bootconfig (written because BOOTCONFIG_ALLOW_OVERSIZE=1)\n",
			disp(o->path), t.size);
	if (ret == -E2BIG) {
		ret = apply_oversize(o->apply, size - 1, t.end);
	} else if (ret) {
		ret = update_error(o, "applying", ret, &t, &sp);
	} else {
		printf("Apply %s to %s\n", o->apply, o->path);
		printf("\tNumber of nodes: %zu\n", bconf_node_count(bc));
		printf("\tSize: %u bytes\n", (unsigned int)size);
		printf("\tChecksum: %u\n", (unsigned int)t.csum);
	}
	bconf_free(bc);
	free(text);
	return ret;
}

static int delete(const struct opts *o)
{
	struct bconf_trailer t = { 0 };
	struct bconf_space sp;
	int ret;

	/* after a refused trailer, @t holds its claim for the message */
	ret = bconf_initrd_update(o->path, NULL, 0,
				  BCONF_UPDATE_DELETE | update_flags(o), &t,
				  &sp);
	return ret ? update_error(o, "deleting", ret, &t, &sp) : 0;
}

static void set_mode(struct opts *o, enum show_mode m)
{
	o->mode = m;
	o->nmodes++;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "in-place", no_argument, NULL, 'I' },
		{ "json", no_argument, NULL, 'J' },
		{ "proc", no_argument, NULL, 'P' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "hda:lC", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			o->delete = true;
			break;
		case 'a':
			o->apply = optarg;
			break;
		case 'l':
			set_mode(o, SHOW_LIST);
			break;
		case 'C':
			set_mode(o, SHOW_CMDLINE);
			break;
		case 'I':
			o->in_place = true;
			break;
		case 'J':
			set_mode(o, SHOW_JSON);
			break;
		case 'P':
			set_mode(o, SHOW_PROC);
			break;
		case 'V':
			printf("bootconfig (boottrace) 0.1.0\n");
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if ((o->apply != NULL) + o->delete + (o->nmodes > 0) > 1 ||
	    o->nmodes > 1) {
		fprintf(stderr, "Error: You can give one of -a, -d, -l, -C, --proc or --json at once.\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (o->in_place && !o->apply && !o->delete) {
		fprintf(stderr, "Error: --in-place goes with -a or -d.\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (optind >= argc) {
		fprintf(stderr, "Error: No initrd is specified.\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "Error: Only one initrd or config may be given.\n");
		usage(stderr);
		return EXIT_USAGE;
	}
	o->path = argv[optind];
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	int ret = parse_args(argc, argv, &o);

	if (ret)
		return ret;
	if (o.apply)
		ret = apply(&o);
	else if (o.delete)
		ret = delete(&o);
	else
		ret = show(&o);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "%s: error writing to standard output\n", prog);
		return 1;
	}
	return ret;
}
