// SPDX-License-Identifier: GPL-2.0
/*
 * runner.c - one side of the differential test (see README.md).
 *
 * Reads configs on stdin (proto.h), answers with normalised results on
 * stdout.  Built three ways:
 *
 *   -DRUNNER_REF  in-process reference: linked with the packaged tree's
 *                 lib/bootconfig.c and tools/bootconfig/main.c (compiled
 *                 in the cache with -Dmain=bt_ref_tool_main); calls
 *                 xbc_init() and the tool's own main() for -l and show.
 *   -DRUNNER_LIB  our libbootconfig through its public API.
 *   (neither)     CLI runner: `runner ref|ours BIN` runs the program BIN
 *                 per config (-l, show, and with REQ_APPLY -a/show/-d).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proto.h"

#if defined(RUNNER_REF)
#include <linux/bootconfig.h>
int bt_ref_tool_main(int argc, char **argv);
#elif defined(RUNNER_LIB)
#include "bootconfig.h"
#endif

#define MAYBE_UNUSED __attribute__((unused))

static struct sbuf res[RES_NFIELDS];
static MAYBE_UNUSED char cfg_path[PATH_MAX];

static void res_clear(void)
{
	for (int i = 0; i < RES_NFIELDS; i++)
		sbuf_reset(&res[i]);
}

static void res_fmt(enum res_field f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void res_fmt(enum res_field f, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	sbuf_str(&res[f], tmp);
}

static MAYBE_UNUSED void write_file(const char *path, const char *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0 || full_write(fd, buf, len) < 0 || close(fd) < 0) {
		perror(path);
		exit(3);
	}
}

/*
 * Reference and CLI diagnostics: "Parse Error: MSG at L:C" or "Error: MSG."
 * (tools/bootconfig/main.c show_xbc_error()).  Returns true when @text
 * starts with one and fills msg/line/col.
 */
static MAYBE_UNUSED bool parse_ref_error(const char *text, struct sbuf *msg, int *line,
			    int *col)
{
	const char *nl = strchr(text, '\n'), *at;
	size_t n;

	if (!nl)
		return false;
	*line = 0;
	*col = 0;
	if (!strncmp(text, "Parse Error: ", 13)) {
		text += 13;
		/* the message itself never contains " at " followed by L:C */
		for (at = nl; at > text; at--)
			if (!strncmp(at, " at ", 4))
				break;
		if (at == text || sscanf(at, " at %d:%d", line, col) != 2)
			return false;
		n = (size_t)(at - text);
	} else if (!strncmp(text, "Error: ", 7)) {
		text += 7;
		n = (size_t)(nl - text);
		if (n && text[n - 1] == '.')
			n--;
	} else {
		return false;
	}
	sbuf_reset(msg);
	sbuf_add(msg, text, n);
	return true;
}

/* "Failed to compose key -34" (tools/bootconfig -l) -> "compose-error -34" */
static MAYBE_UNUSED void norm_listerr(const char *text)
{
	int e;

	if (sscanf(text, "Failed to compose key %d\n", &e) == 1 &&
	    !strchr(strchr(text, '\n') + 1, '\n') && strchr(text, '\n')[1] == 0)
		res_fmt(RES_LISTERR, "compose-error %d\n", e);
	else
		sbuf_str(&res[RES_LISTERR], text);
}

#if defined(RUNNER_REF)

static int call_tool(int argc, char **argv, struct sbuf *out, struct sbuf *err)
{
	FILE *so = stdout, *se = stderr;
	char *ob = NULL, *eb = NULL;
	size_t on = 0, en = 0;
	int rc;

	fflush(NULL);
	stdout = open_memstream(&ob, &on);
	stderr = open_memstream(&eb, &en);
	if (!stdout || !stderr)
		abort();
	optind = 0;	/* glibc: full getopt re-initialisation */
	rc = bt_ref_tool_main(argc, argv);
	fclose(stdout);
	fclose(stderr);
	stdout = so;
	stderr = se;
	xbc_exit();	/* show_xbc() keeps the parsed tree */
	sbuf_reset(out);
	sbuf_add(out, ob, on);
	sbuf_reset(err);
	sbuf_add(err, eb, en);
	free(ob);
	free(eb);
	return rc;
}

static void run_one(const char *buf, size_t len, unsigned int flags)
{
	static struct sbuf lo, le, to, te, msg;
	char *argv_l[] = { "bootconfig", "-l", cfg_path, NULL };
	char *argv_s[] = { "bootconfig", cfg_path, NULL };
	const char *emsg = NULL;
	int ret, pos = -1, line, col;

	(void)flags;
	ret = xbc_init(buf, len, &emsg, &pos);
	if (ret >= 0)
		xbc_exit();
	if (len > XBC_DATA_MAX) {
		/*
		 * The tool does not parse files this big (it takes them for
		 * initrds without a config and prints nothing); the parser's
		 * own verdict is the reference.
		 */
		sbuf_str(&res[RES_STATUS], "err");
		sbuf_str(&res[RES_MSG], emsg ? emsg : "(null)");
		res_fmt(RES_POS, "%d", pos);
		sbuf_str(&res[RES_LINE], "0");
		sbuf_str(&res[RES_COL], "0");
		sbuf_str(&res[RES_NODES], "0");
		return;
	}
	if (len >= 8 + BOOTCONFIG_MAGIC_LEN &&
	    !memcmp(buf + len - BOOTCONFIG_MAGIC_LEN, BOOTCONFIG_MAGIC,
		    BOOTCONFIG_MAGIC_LEN)) {
		/*
		 * A text ending with the magic: the tool reads it as an
		 * initrd, so its output is no parse report.  The parser's
		 * verdict is compared; the rest is unknown ("?").
		 */
		sbuf_str(&res[RES_STATUS], ret < 0 ? "err" : "ok");
		sbuf_str(&res[RES_MSG], ret < 0 && emsg ? emsg : "");
		res_fmt(RES_POS, "%d", ret < 0 ? pos : -1);
		res_fmt(RES_NODES, "%d", ret < 0 ? 0 : ret);
		for (int f = RES_LINE; f <= RES_TREE; f++)
			if (f != RES_NODES)
				sbuf_str(&res[f], "?");
		return;
	}
	write_file(cfg_path, buf, len);
	call_tool(3, argv_l, &lo, &le);
	call_tool(2, argv_s, &to, &te);
	sbuf_add(&res[RES_LIST], lo.p, lo.n);
	sbuf_add(&res[RES_TREE], to.p, to.n);
	if (ret < 0) {
		sbuf_str(&res[RES_STATUS], "err");
		sbuf_str(&res[RES_MSG], emsg ? emsg : "(null)");
		res_fmt(RES_POS, "%d", pos);
		res_fmt(RES_NODES, "0");
		if (!parse_ref_error(le.p, &msg, &line, &col)) {
			res_fmt(RES_NOTE, "unparsed -l stderr: %s\n", le.p);
			line = col = 0;
		} else if (strcmp(msg.p, res[RES_MSG].p)) {
			res_fmt(RES_NOTE, "tool message '%s' != parser '%s'\n",
				msg.p, res[RES_MSG].p);
		}
		res_fmt(RES_LINE, "%d", line);
		res_fmt(RES_COL, "%d", col);
		if (strcmp(le.p, te.p))
			res_fmt(RES_NOTE, "-l and show errors differ\n");
		return;
	}
	sbuf_str(&res[RES_STATUS], "ok");
	sbuf_str(&res[RES_MSG], "");
	sbuf_str(&res[RES_POS], "-1");
	sbuf_str(&res[RES_LINE], "0");
	sbuf_str(&res[RES_COL], "0");
	res_fmt(RES_NODES, "%d", ret);
	if (le.n)
		norm_listerr(le.p);
	if (te.n)
		res_fmt(RES_NOTE, "show stderr: %s", te.p);
}

static void runner_init(int argc, char **argv)
{
	const char *dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm" :
			  (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");

	(void)argc;
	(void)argv;
	snprintf(cfg_path, sizeof(cfg_path), "%s/bt-diff-ref.%d.bconf", dir,
		 (int)getpid());
}

static void runner_exit(void)
{
	unlink(cfg_path);
}

#elif defined(RUNNER_LIB)

static void run_one(const char *buf, size_t len, unsigned int flags)
{
	struct bconf_error err = { 0 };
	struct bconf *bc = NULL;
	char *ob = NULL;
	size_t on = 0;
	FILE *f;
	int ret;

	(void)flags;
	ret = bconf_parse(buf, len, &bc, &err);
	if (ret < 0) {
		sbuf_str(&res[RES_STATUS], "err");
		sbuf_str(&res[RES_MSG], err.msg ? err.msg : "(null)");
		if (err.line == 0) {
			/* the size checks happen before parsing: no position */
			sbuf_str(&res[RES_POS], "-1");
			sbuf_str(&res[RES_LINE], "0");
			sbuf_str(&res[RES_COL], "0");
		} else {
			res_fmt(RES_POS, "%zu", err.pos);
			res_fmt(RES_LINE, "%u", err.line);
			res_fmt(RES_COL, "%u", err.col);
		}
		sbuf_str(&res[RES_NODES], "0");
		if (ret != -EINVAL && ret != -E2BIG && ret != -ENODATA)
			res_fmt(RES_NOTE, "bconf_parse returned %d\n", ret);
		return;
	}
	sbuf_str(&res[RES_STATUS], "ok");
	sbuf_str(&res[RES_MSG], "");
	sbuf_str(&res[RES_POS], "-1");
	sbuf_str(&res[RES_LINE], "0");
	sbuf_str(&res[RES_COL], "0");
	res_fmt(RES_NODES, "%zu", bconf_node_count(bc));

	f = open_memstream(&ob, &on);
	ret = bconf_render_list(bc, BCONF_LIST_TOOL, f);
	fclose(f);
	sbuf_add(&res[RES_LIST], ob, on);
	free(ob);
	if (ret < 0)
		res_fmt(RES_LISTERR, "compose-error %d\n", ret);

	ob = NULL;
	on = 0;
	f = open_memstream(&ob, &on);
	ret = bconf_render_tree(bc, f);
	fclose(f);
	sbuf_add(&res[RES_TREE], ob, on);
	free(ob);
	if (ret < 0)
		res_fmt(RES_NOTE, "bconf_render_tree returned %d\n", ret);
	bconf_free(bc);
}

static void runner_init(int argc, char **argv)
{
	(void)argc;
	(void)argv;
}

static void runner_exit(void)
{
}

#else /* CLI runner */

static const char *cli_bin;
static bool cli_ours;
static char cli_dir[PATH_MAX];

/* Run BIN ARGS... in cli_dir; collect stdout and stderr; return status. */
static int spawn(char *const argv[], struct sbuf *out, struct sbuf *err)
{
	char opath[] = "stdout", epath[] = "stderr";
	posix_spawn_file_actions_t fa;
	struct sbuf *bufs[2] = { out, err };
	char *paths[2] = { opath, epath };
	extern char **environ;
	int st, i;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, opath,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, epath,
					 O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (posix_spawn(&pid, cli_bin, &fa, NULL, argv, environ)) {
		perror(cli_bin);
		exit(3);
	}
	posix_spawn_file_actions_destroy(&fa);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			abort();
	for (i = 0; i < 2; i++) {
		char tmp[8192];
		ssize_t r;
		int fd = open(paths[i], O_RDONLY);

		sbuf_reset(bufs[i]);
		while (fd >= 0 && (r = read(fd, tmp, sizeof(tmp))) > 0)
			sbuf_add(bufs[i], tmp, (size_t)r);
		if (fd >= 0)
			close(fd);
	}
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* bootconfig(1): a byte shown as itself (1 column) or as \xNN (4). */
static int shown_width(char ch)
{
	unsigned char c = (unsigned char)ch;

	return (c >= 0x20 && c < 0x7f) || c == '\t' ? 1 : 4;
}

/* Append byte @ch to @b as bootconfig(1) shows it. */
static void add_shown(struct sbuf *b, char ch)
{
	char esc[8];

	if (shown_width(ch) == 1) {
		sbuf_add(b, &ch, 1);
	} else {
		snprintf(esc, sizeof(esc), "\\x%02x", (unsigned char)ch);
		sbuf_str(b, esc);
	}
}

/*
 * bootconfig(1): a source line [@src, @eol) wider than SRC_WIDTH columns
 * is quoted clipped: "..." where bytes are left out before and after,
 * the bytes between escaped as usual, at most SRC_WIDTH columns of them,
 * the caret (at column @caret of its line) under the byte of column @col
 * (after the line when @col is past it).  Whether the quoted @s (@n
 * bytes) is such a window, with "..." marks (@pre, @post) exactly where
 * bytes are left out.
 */
#define SRC_WIDTH	100

static bool clipped_as(const char *src, const char *eol, int col,
		       const char *s, size_t n, long caret, bool pre,
		       bool post)
{
	static struct sbuf shown;
	const char *at, *ws, *we;
	long w = 0, body;

	if (n < 3u * (pre + post) || (pre && memcmp(s, "...", 3)) ||
	    (post && memcmp(s + n - 3, "...", 3)))
		return false;
	at = col - 1 < eol - src ? src + col - 1 : eol;
	/* the window's first byte: the caret's column less the "..." */
	for (ws = at; w < caret - 3 * pre && ws > src; )
		w += shown_width(*--ws);
	if (w != caret - 3 * pre || (ws > src) != pre)
		return false;
	body = (long)n - 3 * (pre + post);
	sbuf_reset(&shown);
	for (we = ws; we < eol && (long)shown.n < body; we++)
		add_shown(&shown, *we);
	/* escaped, a byte takes as many columns as characters */
	return (long)shown.n == body && !memcmp(shown.p, s + 3 * pre, shown.n) &&
	       (we < eol) == post && we >= at && body <= SRC_WIDTH;
}

/*
 * Our diagnostics: "FILE:LINE:COL: error: MSG" (or "FILE: error: MSG"),
 * then the source line (clipped when wide) and a caret under column COL.
 */
static bool parse_our_error(const char *text, const char *buf, size_t len,
			    struct sbuf *msg, int *line, int *col)
{
	const char *nl = strchr(text, '\n'), *p, *src, *send, *q;
	size_t flen = strlen("c.bconf");
	static struct sbuf want;
	const char *caret, *cnl;
	long width = 0;
	int l = 0, k;

	*line = 0;
	*col = 0;
	if (!nl || strncmp(text, "c.bconf", flen))
		return false;
	p = text + flen;
	if (*p == ':' && isdigit((unsigned char)p[1])) {
		if (sscanf(p, ":%d:%d: error: ", line, col) != 2)
			return false;
		p = strstr(p, ": error: ");
		if (!p || p > nl)
			return false;
	} else if (strncmp(p, ": error: ", 9)) {
		return false;
	}
	p += 9;
	sbuf_reset(msg);
	sbuf_add(msg, p, (size_t)(nl - p));
	if (!*line)
		return true;
	/* the quoted source line and the caret */
	src = buf;
	send = buf + strnlen(buf, len);
	for (l = 1; l < *line && src < send; src++)
		if (*src == '\n')
			l++;
	/*
	 * bootconfig(1): bytes other than printable ASCII and tab are
	 * shown as \xNN, and the caret line is as wide as what was shown.
	 */
	sbuf_reset(&want);
	for (q = src; q < send && *q != '\n'; q++) {
		add_shown(&want, *q);
		if (q - src < *col - 1)
			width += shown_width(*q);
	}
	p = nl + 1;
	nl = strchr(p, '\n');
	cnl = nl ? strchr(nl + 1, '\n') : NULL;
	caret = cnl ? memchr(nl + 1, '^', (size_t)(cnl - (nl + 1))) : NULL;
	if (!caret) {
		res_fmt(RES_NOTE, "source line not quoted after the error\n");
		return true;
	}
	if (want.n <= SRC_WIDTH) {
		if ((size_t)(nl - p) != want.n || memcmp(p, want.p, want.n)) {
			res_fmt(RES_NOTE, "source line not quoted after the error\n");
			return true;
		}
		if (caret - (nl + 1) != width)
			res_fmt(RES_NOTE, "caret not under column %d\n", *col);
		return true;
	}
	/* a wide line: a window around the caret, the caret under its byte */
	for (k = 0; k < 4; k++)
		if (clipped_as(src, q, *col, p, (size_t)(nl - p),
			       caret - (nl + 1), k & 1, k & 2))
			return true;
	res_fmt(RES_NOTE, "wide source line not clipped around column %d\n",
		*col);
	return true;
}

static void cli_error(const struct sbuf *err, int rc, const char *buf,
		      size_t len)
{
	static struct sbuf msg;
	int line, col;
	bool ok;

	if (cli_ours)
		ok = parse_our_error(err->p, buf, len, &msg, &line, &col);
	else
		ok = parse_ref_error(err->p, &msg, &line, &col);
	if (!ok) {
		res_fmt(RES_NOTE, "unparsed stderr (exit %d): %s\n", rc,
			err->p);
		return;
	}
	sbuf_str(&res[RES_STATUS], "err");
	sbuf_add(&res[RES_MSG], msg.p, msg.n);
	sbuf_str(&res[RES_POS], line ? "?" : "-1");
	res_fmt(RES_LINE, "%d", line);
	res_fmt(RES_COL, "%d", col);
	sbuf_str(&res[RES_NODES], "0");
	if (cli_ours && rc != 1)
		res_fmt(RES_NOTE, "error exit status %d, not 1\n", rc);
}

static void cli_apply(void)
{
	static const char initrd[] = "INITRD\n";
	static struct sbuf out, err, img;
	char *argv_a[] = { (char *)cli_bin, "-a", "c.bconf", "initrd", NULL };
	char *argv_s[] = { (char *)cli_bin, "initrd", NULL };
	char *argv_d[] = { (char *)cli_bin, "-d", "initrd", NULL };
	const char *ipath = "initrd";
	char tmp[4096];
	struct stat st;
	ssize_t r;
	int rc, fd;

	write_file(ipath, initrd, sizeof(initrd) - 1);
	rc = spawn(argv_a, &out, &err);
	sbuf_add(&res[RES_APPLY], out.p, out.n);
	if (rc && cli_ours && rc != 1)
		res_fmt(RES_NOTE, "-a exit status %d\n", rc);
	/* upstream exits 0 on some failures: judge it by stderr; ours by
	 * its exit status (it may warn and still apply) */
	if (cli_ours)
		res_fmt(RES_APPLY, "outcome: %s\n", rc ? "failed" : "applied");
	else
		res_fmt(RES_APPLY, "outcome: %s\n", err.n ? "failed" : "applied");
	sbuf_reset(&img);
	fd = open(ipath, O_RDONLY);
	while (fd >= 0 && (r = read(fd, tmp, sizeof(tmp))) > 0)
		sbuf_add(&img, tmp, (size_t)r);
	if (fd >= 0)
		close(fd);
	if (img.n < sizeof(initrd) - 1 ||
	    memcmp(img.p, initrd, sizeof(initrd) - 1)) {
		res_fmt(RES_NOTE, "-a changed the initrd contents\n");
		return;
	}
	sbuf_add(&res[RES_IMAGE], img.p + sizeof(initrd) - 1,
		 img.n - (sizeof(initrd) - 1));
	if (cli_ours ? rc != 0 : err.n != 0)
		return;
	spawn(argv_s, &out, &err);
	if (strcmp(out.p, res[RES_TREE].p))
		res_fmt(RES_NOTE, "show of the initrd differs from show of the file\n");
	rc = spawn(argv_d, &out, &err);
	if (rc || err.n || out.n)
		res_fmt(RES_NOTE, "-d: exit %d, output '%s%s'\n", rc, out.p,
			err.p);
	if (stat(ipath, &st) || (size_t)st.st_size != sizeof(initrd) - 1)
		res_fmt(RES_NOTE, "-d did not restore the initrd\n");
}

static void run_one(const char *buf, size_t len, unsigned int flags)
{
	static struct sbuf lo, le, to, te;
	char *argv_l[] = { (char *)cli_bin, "-l", "c.bconf", NULL };
	char *argv_s[] = { (char *)cli_bin, "c.bconf", NULL };
	bool compose;
	int rcl, rcs;

	write_file(cfg_path, buf, len);
	rcl = spawn(argv_l, &lo, &le);
	rcs = spawn(argv_s, &to, &te);
	sbuf_add(&res[RES_LIST], lo.p, lo.n);
	sbuf_add(&res[RES_TREE], to.p, to.n);
	compose = !cli_ours && !strncmp(le.p, "Failed to compose key", 21);
	/*
	 * A parse error reads the same from -l and show.  Ours may refuse
	 * -l alone (a key the kernel cannot compose: no position then).
	 */
	if (!compose && (strcmp(le.p, te.p) || rcl != rcs) &&
	    !(cli_ours && rcl == 1 && rcs == 0 && !te.n &&
	      !strncmp(le.p, "c.bconf: error: ", 16)))
		res_fmt(RES_NOTE, "-l and show diagnostics differ\n");
	if (le.n && !compose) {
		cli_error(&le, rcl, buf, len);
	} else {
		sbuf_str(&res[RES_STATUS], "ok");
		sbuf_str(&res[RES_POS], "-1");
		sbuf_str(&res[RES_LINE], "0");
		sbuf_str(&res[RES_COL], "0");
		sbuf_str(&res[RES_NODES], "?");
		if (le.n)
			norm_listerr(le.p);
		if (cli_ours && rcs)
			res_fmt(RES_NOTE, "show exit status %d\n", rcs);
	}
	if (flags & REQ_APPLY)
		cli_apply();
}

static void runner_init(int argc, char **argv)
{
	char tmpl[PATH_MAX];

	if (argc != 3 || (strcmp(argv[1], "ref") && strcmp(argv[1], "ours"))) {
		fprintf(stderr, "usage: %s ref|ours BIN\n", argv[0]);
		exit(2);
	}
	cli_ours = !strcmp(argv[1], "ours");
	cli_bin = realpath(argv[2], NULL);
	if (!cli_bin) {
		perror(argv[2]);
		exit(2);
	}
	snprintf(tmpl, sizeof(tmpl), "%s/bt-diff-cli.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpl)) {
		perror(tmpl);
		exit(3);
	}
	snprintf(cli_dir, sizeof(cli_dir), "%s", tmpl);
	snprintf(cfg_path, sizeof(cfg_path), "c.bconf");	/* cwd is cli_dir */
	if (chdir(cli_dir)) {
		perror(cli_dir);
		exit(3);
	}
}

static void runner_exit(void)
{
	static const char *const names[] = { "c.bconf", "initrd", "stdout",
					     "stderr" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		unlink(names[i]);
	rmdir(cli_dir);
}

#endif

#ifdef RUNNER_EMBED
/*
 * Linked into one process with the other side (bootconfig/fuzz/fuzz_diff.c,
 * built by tests/diff/run.sh --build-fuzz): RUNNER_EMBED names this side's
 * entry point, which returns its RES_NFIELDS results for @len bytes at
 * @buf (NUL-terminated at @len), valid until the next call.
 */
const struct sbuf *RUNNER_EMBED(const char *buf, size_t len);

const struct sbuf *RUNNER_EMBED(const char *buf, size_t len)
{
	static bool started;

	if (!started) {
		runner_init(0, NULL);
		atexit(runner_exit);
		started = true;
	}
	res_clear();
	run_one(buf, len, 0);
	return res;
}
#else
static int full_read(int fd, void *buf, size_t n)
{
	char *p = buf;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return got ? -1 : 0;
		got += (size_t)r;
	}
	return 1;
}

int main(int argc, char **argv)
{
	unsigned char hdr[8];
	static char buf[REQ_MAX + 1];
	int out = dup(1), devnull = open("/dev/null", O_WRONLY), r;

	/* the protocol owns the saved stdout; stray writes go nowhere */
	if (out < 0 || devnull < 0 || dup2(devnull, 1) < 0)
		return 3;
	runner_init(argc, argv);
	while ((r = full_read(0, hdr, 8)) == 1) {
		uint32_t flags = get_le32(hdr), len = get_le32(hdr + 4);

		if (len > REQ_MAX || (len && full_read(0, buf, len) != 1))
			break;
		buf[len] = '\0';
		res_clear();
		run_one(buf, len, flags);
		for (int i = 0; i < RES_NFIELDS; i++) {
			put_le32(hdr, (uint32_t)res[i].n);
			if (full_write(out, hdr, 4) ||
			    full_write(out, res[i].p, res[i].n))
				return 3;
		}
	}
	runner_exit();
	return r == 0 ? 0 : 3;
}
#endif /* RUNNER_EMBED */
