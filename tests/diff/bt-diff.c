// SPDX-License-Identifier: GPL-2.0
/*
 * bt-diff - differential tester for bootconfig parsers (see README.md).
 *
 * Generates and mutates configs from a seed, sends each to two runner
 * processes (proto.h) and compares their normalised answers field by
 * field.  Every difference is minimised and written to a directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

#define DATA_MAX	32767
#define NODE_MAX	8192
#define KEYLEN_MAX	256
#define DEPTH_MAX	16
#define TIMEOUT_MS	30000
#define MAX_REPRO	40
#define MIN_BUDGET	3000	/* runner round trips per minimisation */
#define MIN_SECONDS	30	/* and time */

struct runner {
	const char *cmd;
	pid_t pid;
	int to, from;
	bool answered;	/* ever answered: a dead runner is a finding */
};

struct result {
	struct sbuf f[RES_NFIELDS];
	bool dead;	/* crashed, hung or protocol error */
};

struct pair {
	const char *name;
	struct runner *a, *b;
	unsigned int flags;
};

static uint64_t rng_state;
static const char *out_dir;
static int n_repro;
static long n_pass, n_fail;
static char **sigs;
static int n_sigs;

/* how often the reference gave each outcome: the generator's coverage */
static struct { char *what; long n; } tally[64];
static int n_tally;

static void count_outcome(const struct result *a)
{
	const char *w = a->dead ? "(runner died)" :
			strcmp(a->f[RES_STATUS].p, "ok") ? a->f[RES_MSG].p :
			a->f[RES_LISTERR].n ? "accepted, -l fails" : "accepted";
	int i;

	for (i = 0; i < n_tally; i++)
		if (!strcmp(tally[i].what, w))
			break;
	if (i == n_tally) {
		if (n_tally == 64)
			return;
		tally[n_tally++].what = strdup(w);
	}
	tally[i].n++;
}

/* ---- random numbers: splitmix64, reproducible from the seed ---- */

static uint64_t rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)(rnd64() % n) : 0;
}

static bool chance(unsigned int pct)
{
	return rnd(100) < pct;
}

/* Clean configs (no deliberate errors) keep the parse going deep. */
static bool clean;

static bool noise(unsigned int pct)
{
	return !clean && chance(pct);
}

static const char *pick(const char *const *v, size_t n)
{
	return v[rnd((unsigned int)n)];
}

#define PICK(v) pick(v, sizeof(v) / sizeof(v[0]))

/* ---- runners ---- */

static void runner_start(struct runner *r)
{
	int in[2], out[2];

	if (pipe(in) || pipe(out)) {
		perror("pipe");
		exit(2);
	}
	r->pid = fork();
	if (r->pid < 0) {
		perror("fork");
		exit(2);
	}
	if (r->pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		char *cmd = malloc(strlen(r->cmd) + 6);

		if (!cmd)
			_exit(127);
		sprintf(cmd, "exec %s", r->cmd);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->to = in[1];
	r->from = out[0];
}

static void runner_stop(struct runner *r)
{
	if (r->pid <= 0)
		return;
	close(r->to);
	close(r->from);
	kill(r->pid, SIGKILL);
	waitpid(r->pid, NULL, 0);
	r->pid = 0;
}

/*
 * One batch of requests to one runner, pipelined: requests are written
 * while answers are read, so a loaded machine's wake-up latency is paid
 * once per batch rather than once per config.
 */
struct job {
	const char *buf;
	size_t len;
	unsigned int flags;
};

struct io {
	struct runner *r;
	const struct job *jobs;
	struct result *res;
	size_t n, sent, done;	/* jobs: fully written, fully answered */
	struct sbuf out;	/* request bytes of jobs[sent..] not yet written */
	size_t off;
	struct sbuf in;		/* answer bytes not yet parsed */
	int field;
};

static void io_fill(struct io *io)
{
	unsigned char hdr[8];

	/* keep at most a few requests in flight: bounded pipe use */
	while (io->out.n - io->off < 65536 && io->sent < io->n) {
		const struct job *j = &io->jobs[io->sent++];

		put_le32(hdr, j->flags);
		put_le32(hdr + 4, (uint32_t)j->len);
		sbuf_add(&io->out, hdr, 8);
		sbuf_add(&io->out, j->buf, j->len);
	}
}

static void io_restart(struct io *io)
{
	runner_stop(io->r);
	if (!io->r->answered) {
		fprintf(stderr, "bt-diff: runner '%s' failed before answering\n",
			io->r->cmd);
		exit(2);
	}
	/* the first unanswered job killed it: record, resend the rest */
	io->res[io->done++].dead = true;
	io->sent = io->done;
	sbuf_reset(&io->out);
	io->off = 0;
	sbuf_reset(&io->in);
	io->field = 0;
	if (io->done < io->n) {
		runner_start(io->r);
		fcntl(io->r->to, F_SETFL, O_NONBLOCK);
	}
}

static void io_parse(struct io *io)
{
	size_t at = 0;

	while (io->done < io->n && io->in.n - at >= 4) {
		uint32_t k = get_le32((unsigned char *)io->in.p + at);

		if (io->in.n - at - 4 < k)
			break;
		sbuf_add(&io->res[io->done].f[io->field], io->in.p + at + 4, k);
		at += 4 + k;
		if (++io->field == RES_NFIELDS) {
			io->field = 0;
			io->done++;
			io->r->answered = true;
		}
	}
	memmove(io->in.p, io->in.p + at, io->in.n - at);
	io->in.n -= at;
}

static void run_batch(struct runner **rs, int nr, const struct job *jobs,
		      size_t n, struct result **res)
{
	struct io io[2] = { 0 };
	char tmp[1 << 16];

	for (int i = 0; i < nr; i++) {
		io[i].r = rs[i];
		io[i].jobs = jobs;
		io[i].res = res[i];
		io[i].n = n;
		sbuf_reset(&io[i].out);
		sbuf_reset(&io[i].in);
		for (size_t j = 0; j < n; j++) {
			res[i][j].dead = false;
			for (int f = 0; f < RES_NFIELDS; f++)
				sbuf_reset(&res[i][j].f[f]);
		}
		if (rs[i]->pid <= 0) {
			runner_start(rs[i]);
			fcntl(rs[i]->to, F_SETFL, O_NONBLOCK);
		}
	}
	for (;;) {
		struct pollfd pfd[4];
		int np = 0, busy = 0, pr;

		for (int i = 0; i < nr; i++) {
			if (io[i].done == io[i].n)
				continue;
			busy++;
			io_fill(&io[i]);
			pfd[np++] = (struct pollfd){ .fd = io[i].r->from,
						     .events = POLLIN };
			if (io[i].off < io[i].out.n)
				pfd[np++] = (struct pollfd){ .fd = io[i].r->to,
							     .events = POLLOUT };
		}
		if (!busy)
			break;
		pr = poll(pfd, (nfds_t)np, TIMEOUT_MS);
		if (pr < 0 && errno == EINTR)
			continue;
		for (int i = 0; i < nr; i++) {
			ssize_t w, r;

			if (io[i].done == io[i].n)
				continue;
			if (pr == 0) {		/* hung on the first unanswered job */
				io_restart(&io[i]);
				continue;
			}
			if (io[i].off < io[i].out.n) {
				w = write(io[i].r->to, io[i].out.p + io[i].off,
					  io[i].out.n - io[i].off);
				if (w > 0)
					io[i].off += (size_t)w;
				else if (w < 0 && errno != EAGAIN && errno != EINTR) {
					io_restart(&io[i]);
					continue;
				}
				if (io[i].off == io[i].out.n) {
					sbuf_reset(&io[i].out);
					io[i].off = 0;
				}
			}
			for (int k = 0; k < np; k++) {
				if (pfd[k].fd != io[i].r->from || !pfd[k].revents)
					continue;
				r = read(io[i].r->from, tmp, sizeof(tmp));
				if (r > 0) {
					sbuf_add(&io[i].in, tmp, (size_t)r);
					io_parse(&io[i]);
				} else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
					io_restart(&io[i]);
				}
			}
		}
	}
	for (int i = 0; i < nr; i++) {
		free(io[i].out.p);
		free(io[i].in.p);
	}
}

/* Index of the first differing field, RES_NFIELDS for a dead runner, -1. */
static int compare(const struct result *a, const struct result *b)
{
	if (a->dead || b->dead)
		return RES_NFIELDS;
	return res_first_diff(a->f, b->f);
}

/* ---- reporting ---- */

static void put_escaped(FILE *f, const char *p, size_t n, size_t max)
{
	for (size_t i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\\')
			fputs("\\\\", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	if (n > max)
		fprintf(f, "... (%zu bytes)", n);
}

static void describe(FILE *f, const struct pair *p, const struct result *a,
		     const struct result *b, size_t max)
{
	for (int i = 0; i < RES_NFIELDS; i++) {
		bool same = !a->dead && !b->dead && a->f[i].n == b->f[i].n &&
			    !memcmp(a->f[i].p, b->f[i].p, a->f[i].n);

		if (same && i != RES_STATUS && i != RES_MSG &&
		    !(i == RES_NOTE && a->f[i].n))
			continue;
		fprintf(f, "  %-17s %s: \"", res_field_name[i], "A");
		if (a->dead)
			fputs("<runner died or hung>", f);
		else
			put_escaped(f, a->f[i].p, a->f[i].n, max);
		fprintf(f, "\"\n  %-17s %s: \"", "", "B");
		if (b->dead)
			fputs("<runner died or hung>", f);
		else
			put_escaped(f, b->f[i].p, b->f[i].n, max);
		fputs("\"\n", f);
	}
	fprintf(f, "  (A = %s, B = %s)\n", p->a->cmd, p->b->cmd);
}

static int diff_of(const struct pair *p, const char *buf, size_t len,
		   struct result *a, struct result *b)
{
	struct job j = { buf, len, p->flags };
	struct runner *rs[2] = { p->a, p->b };
	struct result *res[2] = { a, b };

	run_batch(rs, 2, &j, 1, res);
	return compare(a, b);
}

/*
 * Shrink @buf while the same field keeps differing: delete chunks of
 * halving size, then single bytes, until nothing more can go.
 */
static size_t minimise(const struct pair *p, char *buf, size_t len, int field)
{
	static struct result a, b;
	char *tmp = malloc(len + 1);
	/* CLI runners spawn processes: smaller budget there */
	int budget = p->flags ? MIN_BUDGET / 10 : MIN_BUDGET;
	time_t stop = time(NULL) + MIN_SECONDS;

	if (!tmp)
		abort();
	for (size_t chunk = len / 2 ? len / 2 : 1;
	     chunk >= 1 && budget > 0 && time(NULL) < stop;) {
		bool progress = false;

		for (size_t at = 0; at + chunk <= len && budget > 0 &&
		     time(NULL) < stop;) {
			memcpy(tmp, buf, at);
			memcpy(tmp + at, buf + at + chunk, len - at - chunk);
			budget--;
			if (diff_of(p, tmp, len - chunk, &a, &b) == field) {
				len -= chunk;
				memcpy(buf, tmp, len);
				progress = true;
			} else {
				at += chunk;
			}
		}
		if (!progress) {
			if (chunk == 1)
				break;
			chunk /= 2;
		}
	}
	free(tmp);
	return len;
}

static bool new_signature(int field, const struct result *a,
			  const struct result *b)
{
	char sig[512];

	snprintf(sig, sizeof(sig), "%d|%s|%s|%s|%s", field,
		 a->dead ? "dead" : a->f[RES_STATUS].p,
		 a->dead ? "" : a->f[RES_MSG].p,
		 b->dead ? "dead" : b->f[RES_STATUS].p,
		 b->dead ? "" : b->f[RES_MSG].p);
	for (int i = 0; i < n_sigs; i++)
		if (!strcmp(sigs[i], sig))
			return false;
	sigs = realloc(sigs, sizeof(*sigs) * (size_t)(n_sigs + 1));
	if (!sigs)
		abort();
	sigs[n_sigs++] = strdup(sig);
	return true;
}

static void write_repro(const struct pair *p, const char *tag, char *buf,
			size_t len, int field)
{
	static struct result a, b;
	char path[4096];
	FILE *f;
	int fd;

	len = minimise(p, buf, len, field);
	if (diff_of(p, buf, len, &a, &b) != field)
		return;
	snprintf(path, sizeof(path), "%s/%s.bconf", out_dir, tag);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || full_write(fd, buf, len) || close(fd)) {
		perror(path);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.txt", out_dir, tag);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return;
	}
	fprintf(f, "pair %s, first differing field: %s\ninput (%zu bytes): \"",
		p->name, field < RES_NFIELDS ? res_field_name[field] : "runner",
		len);
	put_escaped(f, buf, len, 4096);
	fputs("\"\n", f);
	describe(f, p, &a, &b, 4096);
	fclose(f);
	printf("  minimal reproducer (%zu bytes): %s/%s.bconf\n", len, out_dir,
	       tag);
}

static const struct runner *lib_a;

static bool is(const struct result *r, enum res_field f, const char *v)
{
	return !r->dead && !strcmp(r->f[f].p, v);
}

static bool same(const struct result *a, const struct result *b,
		 enum res_field f)
{
	return a->f[f].n == b->f[f].n && !memcmp(a->f[f].p, b->f[f].p, a->f[f].n);
}

/* Trailer size field of `bootconfig -a` on the runners' 7-byte initrd. */
static size_t apply_size(const char *buf, size_t len)
{
	size_t size = strnlen(buf, len) + 1, total = 7 + size + 20;

	return size + (((total + 3) & ~(size_t)3) - total);
}

static const struct pair *cli_p;	/* set by -O: B is our CLI */

/*
 * The documented deliberate differences of our CLI (README.md).  Returns
 * their name when A (the tree's tool) and B (ours) differ exactly that way
 * and B does what we promise instead; NULL otherwise.
 */
static const char *deliberate(const struct pair *p, const char *buf,
			      size_t len, const struct result *a,
			      const struct result *b)
{
	if (p != cli_p || a->dead || b->dead || b->f[RES_NOTE].n)
		return NULL;
	/* upstream cannot show or delete what it wrote here (its notes) */
	if (apply_size(buf, len) >= DATA_MAX &&
	    strstr(a->f[RES_APPLY].p, "outcome: applied") &&
	    strstr(b->f[RES_APPLY].p, "outcome: failed") &&
	    !b->f[RES_IMAGE].n && same(a, b, RES_STATUS) &&
	    same(a, b, RES_MSG) && same(a, b, RES_LIST) && same(a, b, RES_TREE))
		return "-a refuses a size the kernel refuses";
	if (a->f[RES_NOTE].n)
		return NULL;
	/* an empty file is an initrd without config: no "Error:" line */
	if (len == 0 && is(a, RES_MSG, "Config data is empty") &&
	    is(b, RES_STATUS, "ok") && !b->f[RES_LIST].n && !b->f[RES_TREE].n &&
	    !b->f[RES_LISTERR].n && same(a, b, RES_APPLY) &&
	    same(a, b, RES_IMAGE))
		return "empty file shows nothing";
	/* a 16-word key: upstream lists the keys before it, then says
	 * "Failed to compose key"; ours lists the same, then refuses with
	 * an explanation (no position) and exit 1 */
	if (is(a, RES_STATUS, "ok") && is(a, RES_LISTERR, "compose-error -34\n") &&
	    is(b, RES_STATUS, "err") && is(b, RES_LINE, "0") &&
	    same(a, b, RES_LIST) && same(a, b, RES_TREE) &&
	    same(a, b, RES_APPLY) && same(a, b, RES_IMAGE))
		return "-l refuses a key the kernel cannot compose";
	return NULL;
}

static struct { const char *what; long n; } delib[8];

static void count_deliberate(const char *what)
{
	for (int i = 0; i < 8; i++) {
		if (!delib[i].what)
			delib[i].what = what;
		if (delib[i].what == what) {
			delib[i].n++;
			return;
		}
	}
}

/* Judge one config's pair of answers; report and count. */
static void judge(const struct pair *p, const char *src, const char *buf,
		  size_t len, unsigned int flags, const struct result *a,
		  const struct result *b)
{
	struct pair q = *p;
	int field = compare(a, b);
	const char *why;

	q.flags = flags;
	if (p->a == lib_a)
		count_outcome(a);
	why = field >= 0 && field < RES_NFIELDS ?
	      deliberate(p, buf, len, a, b) : NULL;
	if (field < 0 || why) {
		if (why)
			count_deliberate(why);
		n_pass++;
		return;
	}
	n_fail++;
	printf("DIFF [%s] %s: %s differs\n", q.name, src,
	       field < RES_NFIELDS ? res_field_name[field] : "runner");
	describe(stdout, &q, a, b, 300);
	if (out_dir && n_repro < MAX_REPRO && new_signature(field, a, b)) {
		char tag[64], *copy = malloc(len + 1);

		if (!copy)
			abort();
		memcpy(copy, buf, len);
		snprintf(tag, sizeof(tag), "diff-%03d-%s", ++n_repro,
			 field < RES_NFIELDS ? res_field_name[field] : "runner");
		for (char *t = tag; *t; t++)
			if (*t == ' ')
				*t = '-';
		write_repro(&q, tag, copy, len, field);
		free(copy);
	}
}

#define BATCH 256

/* Configs waiting for one pair of runners. */
struct queue {
	const struct pair *p;
	size_t n;
	struct job jobs[BATCH];
	struct sbuf bufs[BATCH];
	char names[BATCH][96];
	struct result ra[BATCH], rb[BATCH];
};

static void flush(struct queue *q)
{
	struct runner *rs[2] = { q->p->a, q->p->b };
	struct result *res[2] = { q->ra, q->rb };

	if (!q->n)
		return;
	for (size_t i = 0; i < q->n; i++)
		q->jobs[i].buf = q->bufs[i].p;
	run_batch(rs, 2, q->jobs, q->n, res);
	for (size_t i = 0; i < q->n; i++)
		judge(q->p, q->names[i], q->jobs[i].buf, q->jobs[i].len,
		      q->jobs[i].flags, &q->ra[i], &q->rb[i]);
	q->n = 0;
}

static void check(struct queue *q, const char *src, const char *buf,
		  size_t len, unsigned int flags)
{
	size_t i = q->n++;

	sbuf_reset(&q->bufs[i]);
	sbuf_add(&q->bufs[i], buf, len);
	q->jobs[i].len = len;
	q->jobs[i].flags = flags;
	snprintf(q->names[i], sizeof(q->names[i]), "%s", src);
	if (q->n == BATCH)
		flush(q);
}

/* ---- config generator ---- */

static const char *const vocab[] = {
	"a", "b", "c", "foo", "bar", "baz", "kernel", "init", "ftrace",
	"event", "x-y", "_", "k0", "A", "9", "key", "instance", "enable",
};

static const char *const vals[] = {
	"1", "on", "off", "x y", "a=b", "/path/to", "-1", "0x10", "foo bar",
	"$@!", "%", "=", "+", "~", "[x]", "{x", "sched:*", "a.b", "\\",
};

static void gen_word(struct sbuf *b)
{
	static const char kw[] = "abcxyzABCXYZ0189_-";
	static const char *const bad[] = { "", " ", "a b", "a/b", "\xc3\xa9",
					   "\x01", "*", "a@", "\"q\"" };
	unsigned int r = rnd(100);

	if (r < 80) {
		sbuf_str(b, clean ? vocab[rnd(7)] : PICK(vocab));
	} else if (r < 97 || clean) {
		for (unsigned int i = 1 + rnd(12); i; i--)
			sbuf_add(b, &kw[rnd(sizeof(kw) - 1)], 1);
	} else {
		sbuf_str(b, PICK(bad));
	}
}

static void gen_ws(struct sbuf *b)
{
	static const char *const ws[] = { "", "", "", " ", " ", "\t", "  ",
					  "\r", "\v", "\f", " \t " };

	sbuf_str(b, PICK(ws));
}

static void gen_key(struct sbuf *b)
{
	static const char *const dots[] = { ". ", " .", "..", " . " };
	unsigned int n = 1 + rnd(chance(10) ? 6 : 3);

	if (chance(5))
		sbuf_str(b, " ");
	for (unsigned int i = 0; i < n; i++) {
		if (i)
			sbuf_str(b, noise(3) ? PICK(dots) : ".");
		gen_word(b);
	}
	if (noise(2))
		sbuf_str(b, ".");
}

static void gen_comment(struct sbuf *b)
{
	static const char *const c[] = { "#", "# c", "#x=1", "# { } ; , \" '",
					 "#\t\x01", "##" };

	sbuf_str(b, clean ? c[rnd(4)] : PICK(c));
	sbuf_str(b, !clean && chance(10) ? "" : "\n");
}

static void gen_value(struct sbuf *b)
{
	static const char *const qin[] = { "x", " ", ",", ";", "#", "}", "{",
					   "\n", "=", "a b", "\t", "\\", "" };
	static const char *const np[] = { "\x01", "\x7f", "\x80", "\xff",
					  "\x1b", "\x0e" };
	unsigned int r = rnd(100), n;
	char q;

	if (r < 45) {
		for (n = 1 + rnd(2); n; n--) {
			sbuf_str(b, PICK(vals));
			if (n > 1)
				sbuf_str(b, " ");
		}
	} else if (r < 80) {
		q = chance(60) ? '"' : '\'';
		sbuf_add(b, &q, 1);
		for (n = rnd(4); n; n--) {
			if (chance(10))
				sbuf_add(b, q == '"' ? "'" : "\"", 1);
			else
				sbuf_str(b, chance(50) ? PICK(qin) : PICK(vals));
		}
		if (!noise(3))
			sbuf_add(b, &q, 1);
		gen_ws(b);
	} else if (r < 90 || clean) {
		/* empty value */
	} else {
		sbuf_str(b, PICK(vals));
		sbuf_str(b, PICK(np));
		if (chance(50))
			sbuf_str(b, PICK(vals));
	}
	if (noise(3))
		sbuf_str(b, PICK(np));
}

static void gen_array(struct sbuf *b)
{
	unsigned int n = chance(30) ? 1 + rnd(5) : 0;

	gen_value(b);
	while (n--) {
		if (noise(3))
			gen_comment(b);
		gen_ws(b);
		sbuf_str(b, ",");
		gen_ws(b);
		if (chance(8))
			gen_comment(b);
		if (chance(8))
			sbuf_str(b, "\n");
		gen_ws(b);
		gen_value(b);
	}
}

static void gen_op(struct sbuf *b)
{
	static const char *const weird[] = { "+", ":", "==", "+ =", ": =",
					     "=+", ":=:", "+=+" };
	unsigned int r = rnd(100);

	if (r < 50)
		sbuf_str(b, "=");
	else if (r < 68)
		sbuf_str(b, ":=");
	else if (r < 92 || clean)
		sbuf_str(b, "+=");
	else
		sbuf_str(b, PICK(weird));
}

static void gen_body(struct sbuf *b, int depth, unsigned int nstmt);

static void gen_sep(struct sbuf *b)
{
	static const char *const seps[] = { "\n", "\n", "\n", ";", "; ",
					    "\n\n", " \n", "\t;\n" };
	unsigned int r = rnd(100);

	if (r < 88)
		sbuf_str(b, PICK(seps));
	else if (r < 96 || clean)
		gen_comment(b);
	else if (r < 98)
		sbuf_str(b, chance(50) ? "}" : "{");
	/* else: no separator at all */
}

static void gen_stmt(struct sbuf *b, int depth)
{
	unsigned int r = rnd(100);

	gen_ws(b);
	if (r < 48) {
		gen_key(b);
		gen_ws(b);
		gen_op(b);
		gen_ws(b);
		if (chance(5))
			sbuf_str(b, chance(50) ? "\n" : "\n# c\n ");
		gen_array(b);
	} else if (r < 62) {
		gen_key(b);
	} else if (r < 84 && depth < 20) {
		gen_key(b);
		gen_ws(b);
		sbuf_str(b, "{");
		if (chance(70))
			sbuf_str(b, chance(50) ? "\n" : " ");
		gen_body(b, depth + 1, rnd(chance(20) ? 2 : 4));
		gen_ws(b);
		if (!noise(2))
			sbuf_str(b, "}");
	} else if (r < 88) {
		gen_key(b);
		sbuf_str(b, chance(50) ? " { }" : "{}");
	} else if (r < 94 || clean) {
		gen_comment(b);
	} else {
		static const char *const junk[] = { "=", ":=", "+=", "}", "{",
						    ",", "\"", "'", ".", "\\" };
		sbuf_str(b, PICK(junk));
	}
}

static void gen_body(struct sbuf *b, int depth, unsigned int nstmt)
{
	for (unsigned int i = 0; i < nstmt; i++) {
		gen_stmt(b, depth);
		if (i + 1 < nstmt || chance(50))
			gen_sep(b);
	}
}

/* Braces nested around a statement, near the depth limit. */
static void gen_deep(struct sbuf *b)
{
	unsigned int n = DEPTH_MAX - 3 + rnd(5), words = rnd(3);

	for (unsigned int i = 0; i < n; i++) {
		gen_word(b);
		sbuf_str(b, chance(80) ? " {\n" : "{");
	}
	for (unsigned int i = 0; i < words; i++) {
		gen_word(b);
		sbuf_str(b, ".");
	}
	gen_word(b);
	sbuf_str(b, chance(70) ? " = v\n" : "\n");
	for (unsigned int i = 0; i < n; i++)
		sbuf_str(b, chance(90) ? "}\n" : "}");
}

static void gen_config(struct sbuf *b)
{
	sbuf_reset(b);
	clean = chance(50);
	if (chance(4))
		gen_deep(b);
	else
		gen_body(b, 0, 1 + rnd(chance(10) ? 30 : 8));
}

/* ---- mutation ---- */

static void mutate(struct sbuf *b)
{
	static const char *const tok[] = {
		"{", "}", "=", ":=", "+=", ";", "\n", "#", ",", "\"", "'",
		" ", "\t", ".", "+", ":", "\r", "\x01", "\x7f", "\xff", "a",
		"# c\n",
	};
	unsigned int n = 1 + rnd(3);
	struct sbuf t = { 0 };

	while (n--) {
		size_t len = b->n, at = rnd((unsigned int)len + 1), k;
		unsigned int op = rnd(7);

		sbuf_reset(&t);
		if (op == 0 && len) {			/* delete a range */
			k = 1 + rnd(8);
			if (at + k > len)
				k = len - at;
			sbuf_add(&t, b->p, at);
			sbuf_add(&t, b->p + at + k, len - at - k);
		} else if (op <= 2) {			/* insert a token */
			sbuf_add(&t, b->p, at);
			if (chance(3))
				sbuf_add(&t, "", 1);	/* a NUL byte */
			else
				sbuf_str(&t, PICK(tok));
			sbuf_add(&t, b->p + at, len - at);
		} else if (op == 3 && at < len) {	/* replace a byte */
			char c = (char)rnd(256);

			sbuf_add(&t, b->p, len);
			t.p[at] = c;
		} else if (op == 4 && len) {		/* duplicate a range */
			size_t from = rnd((unsigned int)len);

			k = 1 + rnd(16);
			if (from + k > len)
				k = len - from;
			sbuf_add(&t, b->p, at);
			sbuf_add(&t, b->p + from, k);
			sbuf_add(&t, b->p + at, len - at);
		} else if (op == 5) {			/* truncate */
			sbuf_add(&t, b->p, at);
		} else if (at + 1 < len) {		/* swap two bytes */
			char c;

			sbuf_add(&t, b->p, len);
			c = t.p[at];
			t.p[at] = t.p[at + 1];
			t.p[at + 1] = c;
		} else {
			sbuf_add(&t, b->p, len);
		}
		sbuf_reset(b);
		sbuf_add(b, t.p, t.n);
	}
	free(t.p);
}

/* ---- the limits at N and N+1 ---- */

/* n distinct short keywords, one per line: n nodes */
static void lim_nodes(struct sbuf *b, unsigned int n, bool array)
{
	static const char kw[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-";
	const unsigned int k = sizeof(kw) - 1;

	if (array) {
		/* one key with n - 1 values */
		sbuf_str(b, "k = ");
		for (unsigned int i = 1; i < n; i++)
			sbuf_str(b, i + 1 < n ? "1," : "1\n");
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		unsigned int v = i;

		if (v < k) {
			sbuf_add(b, &kw[v], 1);
		} else if ((v -= k) < k * k) {
			sbuf_add(b, &kw[v / k], 1);
			sbuf_add(b, &kw[v % k], 1);
		} else {
			v -= k * k;
			sbuf_add(b, &kw[v / k / k % k], 1);
			sbuf_add(b, &kw[v / k % k], 1);
			sbuf_add(b, &kw[v % k], 1);
		}
		sbuf_str(b, "\n");
	}
}

/* exactly @size bytes: a quoted value padded to fit, or spaces/comment */
static void lim_size(struct sbuf *b, size_t size, unsigned int style)
{
	const char *head = style == 0 ? "k = \"" : "k = v # ";
	size_t n = size - strlen(head) - 2;

	sbuf_str(b, head);
	for (size_t i = 0; i < n; i++)
		sbuf_str(b, style == 0 ? "x" : " ");
	sbuf_str(b, style == 0 ? "\"\n" : "c\n");
}

/* a key whose words (each counted with its NUL/dot) total @total bytes */
static void lim_keylen(struct sbuf *b, unsigned int total, unsigned int words,
		       bool braces)
{
	unsigned int left = total;

	for (unsigned int i = 0; i < words; i++) {
		unsigned int w = i + 1 < words ? total / words : left;

		for (unsigned int j = 0; j + 1 < w; j++)
			sbuf_str(b, i % 2 ? "b" : "a");
		left -= w;
		if (i + 1 < words)
			sbuf_str(b, braces && i == 0 ? " {\n" : ".");
	}
	sbuf_str(b, " = 1\n");
	if (braces && words > 1)
		sbuf_str(b, "}\n");
}

/* @words dotted words below @braces nested braces */
static void lim_depth(struct sbuf *b, unsigned int braces, unsigned int words,
		      bool value)
{
	for (unsigned int i = 0; i < braces; i++)
		sbuf_str(b, i % 2 ? "b {\n" : "a {\n");
	for (unsigned int i = 0; i < words; i++)
		sbuf_str(b, i + 1 < words ? "w." : "w");
	sbuf_str(b, value ? " = x\n" : "\n");
	for (unsigned int i = 0; i < braces; i++)
		sbuf_str(b, "}\n");
}

static int make_limit(struct sbuf *b, int i, char *name, size_t nsize)
{
	static const size_t sizes[] = { DATA_MAX - 1, DATA_MAX, DATA_MAX + 1 };
	static const unsigned int nodes[] = { NODE_MAX - 1, NODE_MAX,
					      NODE_MAX + 1 };
	static const unsigned int klen[] = { KEYLEN_MAX - 1, KEYLEN_MAX,
					     KEYLEN_MAX + 1 };
	static const unsigned int deep[] = { DEPTH_MAX - 1, DEPTH_MAX,
					     DEPTH_MAX + 1 };
	int k = i;

	sbuf_reset(b);
	if (k < 6) {
		lim_size(b, sizes[k % 3], (unsigned int)k / 3);
		snprintf(name, nsize, "limit: %zu bytes (%s)", sizes[k % 3],
			 k / 3 ? "comment" : "quoted value");
		return 1;
	}
	k -= 6;
	if (k < 6) {
		lim_nodes(b, nodes[k % 3], k / 3);
		snprintf(name, nsize, "limit: %u nodes (%s)", nodes[k % 3],
			 k / 3 ? "array" : "keys");
		return 1;
	}
	k -= 6;
	if (k < 9) {
		static const unsigned int words[] = { 1, 7, 2 };

		lim_keylen(b, klen[k % 3], words[k / 3], k / 3 == 2);
		snprintf(name, nsize, "limit: key length %u in %u words%s",
			 klen[k % 3], words[k / 3], k / 3 == 2 ? " (braces)" : "");
		return 1;
	}
	k -= 9;
	if (k < 18) {
		/* words only, braces only, half and half; with/without value */
		unsigned int d = deep[k % 3], mode = (unsigned int)(k / 3) % 3;
		bool value = k >= 9;
		unsigned int br = mode == 0 ? 0 : mode == 1 ? d : d / 2;

		lim_depth(b, br, d - br, value);
		snprintf(name, nsize, "limit: depth %u (%u braces, %u words%s)",
			 d, br, d - br, value ? ", value" : "");
		return 1;
	}
	k -= 18;
	if (k < 8) {
		static const char *const tiny[] = { "", " ", "\n", "# c",
						    "\0", "a\0b", ";", "{}" };
		static const size_t tlen[] = { 0, 1, 1, 3, 1, 3, 1, 2 };

		sbuf_add(b, tiny[k], tlen[k]);
		snprintf(name, nsize, "limit: tiny config %d", k);
		return 1;
	}
	return 0;
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bt-diff -a CMD -b CMD [-A CMD -B CMD] [-n N] [-s SEED] [-k K]\n"
		"               [-o DIR] [FILE...]\n"
		"Compare two bootconfig runners (README.md) on FILEs, the limit\n"
		"cases and N generated/mutated configs.\n"
		"  -a/-b CMD   in-process runners (reference, under test)\n"
		"  -A/-B CMD   CLI runners, used on FILEs, limits and every K-th config\n"
		"  -n N        generated configs (default 10000)\n"
		"  -s SEED     seed (default: random, printed)\n"
		"  -k K        CLI comparison every K-th generated config (default 50)\n"
		"  -o DIR      write minimal reproducers there\n"
		"  -O          -B is our CLI: accept its documented deliberate\n"
		"              differences (README.md), checking what it does instead\n");
}

static int read_file(const char *path, struct sbuf *b)
{
	char tmp[8192];
	ssize_t r;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	sbuf_reset(b);
	while ((r = read(fd, tmp, sizeof(tmp))) > 0)
		sbuf_add(b, tmp, (size_t)r);
	close(fd);
	return r < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct runner ra = { 0 }, rb = { 0 }, rca = { 0 }, rcb = { 0 };
	struct pair lib_pair = { "in-process", &ra, &rb, 0 };
	struct pair cli_pair = { "cli", &rca, &rcb, 0 };
	static struct queue lib, cli;
	struct sbuf b = { 0 };
	struct sbuf *files = NULL;
	uint64_t seed = 0;
	bool have_seed = false, have_cli;
	long n = 10000, every = 50, n_cli = 0, n_lim = 0;
	char name[256];
	int opt, nfiles;

	while ((opt = getopt(argc, argv, "a:b:A:B:n:s:k:o:Oh")) != -1) {
		switch (opt) {
		case 'O': cli_p = &cli_pair; break;
		case 'a': ra.cmd = optarg; break;
		case 'b': rb.cmd = optarg; break;
		case 'A': rca.cmd = optarg; break;
		case 'B': rcb.cmd = optarg; break;
		case 'n': n = strtol(optarg, NULL, 0); break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			have_seed = true;
			break;
		case 'k': every = strtol(optarg, NULL, 0); break;
		case 'o': out_dir = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!ra.cmd || !rb.cmd || !rca.cmd != !rcb.cmd || every < 1 || n < 0) {
		usage(stderr);
		return 2;
	}
	have_cli = rca.cmd;
	lib_a = &ra;
	lib.p = &lib_pair;
	cli.p = &cli_pair;
	if (!have_seed) {
		int fd = open("/dev/urandom", O_RDONLY);

		if (fd < 0 || read(fd, &seed, sizeof(seed)) != sizeof(seed))
			seed = (uint64_t)time(NULL);
		if (fd >= 0)
			close(fd);
		seed &= 0xffffffffffffULL;
	}
	if (out_dir && mkdir(out_dir, 0755) && errno != EEXIST) {
		perror(out_dir);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("bt-diff: seed %" PRIu64 " (rerun: -s %" PRIu64 " -n %ld)\n",
	       seed, seed, n);

	nfiles = argc - optind;
	files = calloc((size_t)nfiles + 1, sizeof(*files));
	for (int i = 0; i < nfiles; i++) {
		const char *path = argv[optind + i];

		if (read_file(path, &files[i])) {
			fprintf(stderr, "bt-diff: %s: %s\n", path, strerror(errno));
			return 2;
		}
		check(&lib, path, files[i].p, files[i].n, 0);
		if (have_cli)
			check(&cli, path, files[i].p, files[i].n,
			      REQ_APPLY);
	}

	rng_state = seed;
	for (int i = 0; make_limit(&b, i, name, sizeof(name)); i++) {
		n_lim++;
		check(&lib, name, b.p, b.n, 0);
		if (have_cli && b.n <= DATA_MAX)
			check(&cli, name, b.p, b.n, REQ_APPLY);
	}

	rng_state = seed;
	for (long i = 0; i < n; i++) {
		unsigned int r = rnd(100);

		if (r < 10 && nfiles) {
			struct sbuf *f = &files[rnd((unsigned int)nfiles)];

			sbuf_reset(&b);
			sbuf_add(&b, f->p, f->n);
			mutate(&b);
		} else {
			gen_config(&b);
			if (r < 35)
				mutate(&b);
		}
		snprintf(name, sizeof(name), "generated #%ld", i);
		check(&lib, name, b.p, b.n, 0);
		if (have_cli && i % every == 0 && b.n <= DATA_MAX) {
			n_cli++;
			check(&cli, name, b.p, b.n, REQ_APPLY);
		}
		if (n >= 100000 && i && i % 100000 == 0)
			printf("bt-diff: %ld configs, %ld differences so far\n",
			       i, n_fail);
	}
	flush(&lib);
	flush(&cli);
	runner_stop(&ra);
	runner_stop(&rb);
	runner_stop(&rca);
	runner_stop(&rcb);
	printf("bt-diff: seed %" PRIu64 ": %d files, %ld limit cases, %ld generated"
	       " configs (%ld also through both CLIs): %ld differences\n",
	       seed, nfiles, n_lim, n, n_cli, n_fail);
	printf("bt-diff: reference outcomes (in-process pair):");
	for (int i = 0; i < n_tally; i++)
		printf("%s %s %ld", i ? "," : "", tally[i].what, tally[i].n);
	printf("\n");
	for (int i = 0; i < 8 && delib[i].what; i++)
		printf("bt-diff: deliberate difference (README.md): %s: %ld\n",
		       delib[i].what, delib[i].n);
	if (n_repro)
		printf("bt-diff: %d minimal reproducers in %s\n", n_repro,
		       out_dir);
	printf("%ld passed, %ld failed\n", n_pass, n_fail);
	free(b.p);
	return n_fail ? 1 : 0;
}
