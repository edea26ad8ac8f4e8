// SPDX-License-Identifier: GPL-2.0
/*
 * bt-diff - differential tester for bootconfig parsers (see README.md).
 *
 * Generates and mutates configs from a seed, gives each to two runners
 * and compares their normalised answers field by field (judge.h).  A
 * runner is either linked in (the tree's parser and tool, "@ref", and our
 * library, "@ours": runner.c built with RUNNER_EMBED) or a process
 * speaking proto.h on a pipe (the CLI runners, and the same sides built
 * as programs).  Configs are dealt to -j worker processes; every worker
 * draws the whole random stream, so a seed gives the same configs however
 * many workers check them.  Every difference is minimised and written to
 * a directory.
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
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "judge.h"

#define NODE_MAX	8192
#define KEYLEN_MAX	256
#define DEPTH_MAX	16
#define TIMEOUT_MS	30000
#define MAX_REPRO	40
#define MIN_BUDGET	3000	/* runner round trips per minimisation */
#define MIN_SECONDS	30	/* and time */
#define PROGRESS_SECS	60	/* progress line interval on long runs */
#define STALL_SECS	900	/* a worker without progress this long hung */

/* The in-process sides, when linked in (runner.c with RUNNER_EMBED). */
const struct sbuf *bt_ref_run(const char *buf, size_t len) __attribute__((weak));
const struct sbuf *bt_lib_run(const char *buf, size_t len) __attribute__((weak));

struct runner {
	const char *cmd;	/* "@ref", "@ours" or a shell command */
	const struct sbuf *(*fn)(const char *buf, size_t len);
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
static char **sigs;
static int n_sigs;

/*
 * One worker's counts, in memory shared with the parent, which prints the
 * progress of long runs and merges the counts at the end.
 */
#define N_TALLY		64
#define N_DELIB		8
struct count {
	char what[120];
	long n;
};

struct stats {
	long pass, fail, n_cli, n_lim;
	long done, total;	/* generated configs: checked, this worker's share */
	long cur;		/* generated config being checked; -1: files
				 * and limit cases, -2: done */
	long beat;		/* runner round trips: the parent's hang check */
	int n_repro;
	/* how often the reference gave each outcome: the generator's coverage */
	int n_tally, n_delib;
	struct count tally[N_TALLY];
	/* documented deliberate differences accepted */
	struct count delib[N_DELIB];
};

static struct stats *st;	/* this worker's */
static int worker, n_workers = 1;

/* Count @k more of @w in @tab (@max entries, @used in use). */
static void tally_add(struct count *tab, int *used, int max, const char *w,
		      long k)
{
	int i;

	for (i = 0; i < *used; i++)
		if (!strcmp(tab[i].what, w))
			break;
	if (i == *used) {
		if (i == max)
			return;
		snprintf(tab[i].what, sizeof(tab[i].what), "%s", w);
		(*used)++;
	}
	tab[i].n += k;
}

static void count_outcome(const struct result *a)
{
	const char *w = a->dead ? "(runner died)" :
			strcmp(a->f[RES_STATUS].p, "ok") ? a->f[RES_MSG].p :
			a->f[RES_LISTERR].n ? "accepted, -l fails" : "accepted";

	tally_add(st->tally, &st->n_tally, N_TALLY, w, 1);
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
	if (r->fn || r->pid <= 0)
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

/* A linked-in side's input (kept for the crash handler). */
static struct sbuf linked_in;

/* A linked-in side: called directly, the answers copied. */
static void run_linked(struct runner *r, const struct job *jobs, size_t n,
		       struct result *res)
{
	struct sbuf *in = &linked_in;

	for (size_t j = 0; j < n; j++) {
		const struct sbuf *out;

		/* the side wants its input NUL-terminated at len */
		sbuf_reset(in);
		sbuf_add(in, jobs[j].buf, jobs[j].len);
		out = r->fn(in->p, jobs[j].len);
		for (int f = 0; f < RES_NFIELDS; f++)
			sbuf_add(&res[j].f[f], out[f].p, out[f].n);
	}
	r->answered = true;
}

static void run_batch(struct runner **rs, int nr, const struct job *jobs,
		      size_t n, struct result **res)
{
	struct io io[2] = { 0 };
	char tmp[1 << 16];

	if (st)
		__atomic_store_n(&st->beat, st->beat + 1, __ATOMIC_RELAXED);

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
		if (rs[i]->fn) {
			run_linked(rs[i], jobs, n, res[i]);
			io[i].done = n;
		} else if (rs[i]->pid <= 0) {
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

static void describe(FILE *f, const struct pair *p, const struct result *a,
		     const struct result *b, size_t max)
{
	res_describe(f, a->dead ? NULL : a->f, b->dead ? NULL : b->f, max);
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
	res_put_escaped(f, buf, len, 4096);
	fputs("\"\n", f);
	describe(f, p, &a, &b, 4096);
	fclose(f);
	printf("  minimal reproducer (%zu bytes): %s/%s.bconf\n", len, out_dir,
	       tag);
}

static const struct runner *lib_a;

static const struct pair *cli_p;	/* set by -O: B is our CLI */

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
	why = field >= 0 && field < RES_NFIELDS && p == cli_p ?
	      res_deliberate(buf, len, a->f, b->f) : NULL;
	if (field < 0 || why) {
		if (why)
			tally_add(st->delib, &st->n_delib, N_DELIB, why, 1);
		st->pass++;
		return;
	}
	__atomic_add_fetch(&st->fail, 1, __ATOMIC_RELAXED);
	printf("DIFF [%s] %s: %s differs\n", q.name, src,
	       field < RES_NFIELDS ? res_field_name[field] : "runner");
	describe(stdout, &q, a, b, 300);
	if (out_dir && st->n_repro < MAX_REPRO / n_workers &&
	    new_signature(field, a, b)) {
		char tag[64], *copy = malloc(len + 1);

		if (!copy)
			abort();
		memcpy(copy, buf, len);
		snprintf(tag, sizeof(tag), "diff-%d-%03d-%s", worker,
			 ++st->n_repro,
			 field < RES_NFIELDS ? res_field_name[field] : "runner");
		for (char *t = tag; *t; t++)
			if (*t == ' ')
				*t = '-';
		write_repro(&q, tag, copy, len, field);
		free(copy);
	}
	fflush(stdout);		/* one worker's report in one piece */
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
	/* linked-in sides gain nothing from batches: check it now (and a
	 * worker that crashes in it dies on this very config) */
	if (q->n == BATCH || (q->p->a->fn && q->p->b->fn))
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

/* ---- workers ---- */

/* What every worker checks: each takes every n_workers-th input. */
struct run {
	struct queue *lib, *cli;
	struct sbuf *files;
	char **paths;
	int nfiles;
	uint64_t seed;
	long n, every;
	bool have_cli;
};

static void run_worker(const struct run *r)
{
	struct sbuf b = { 0 };
	char name[256];

	for (int i = 0; i < r->nfiles; i++) {
		if (i % n_workers != worker)
			continue;
		check(r->lib, r->paths[i], r->files[i].p, r->files[i].n, 0);
		if (r->have_cli)
			check(r->cli, r->paths[i], r->files[i].p, r->files[i].n,
			      REQ_APPLY);
	}

	rng_state = r->seed;
	for (int i = 0; make_limit(&b, i, name, sizeof(name)); i++) {
		if (i % n_workers != worker)
			continue;
		st->n_lim++;
		check(r->lib, name, b.p, b.n, 0);
		if (r->have_cli && b.n <= DATA_MAX)
			check(r->cli, name, b.p, b.n, REQ_APPLY);
	}

	/* every worker draws the whole stream: the same configs for any -j */
	rng_state = r->seed;
	for (long i = 0; i < r->n; i++) {
		unsigned int k = rnd(100);

		if (k < 10 && r->nfiles) {
			struct sbuf *f = &r->files[rnd((unsigned int)r->nfiles)];

			sbuf_reset(&b);
			sbuf_add(&b, f->p, f->n);
			mutate(&b);
		} else {
			gen_config(&b);
			if (k < 35)
				mutate(&b);
		}
		if (i % n_workers != worker)
			continue;
		st->cur = i;
		snprintf(name, sizeof(name), "generated #%ld", i);
		check(r->lib, name, b.p, b.n, 0);
		if (r->have_cli && i % r->every == 0 && b.n <= DATA_MAX) {
			st->n_cli++;
			check(r->cli, name, b.p, b.n, REQ_APPLY);
		}
		__atomic_store_n(&st->done, st->done + 1, __ATOMIC_RELAXED);
	}
	flush(r->lib);
	flush(r->cli);
	st->cur = -2;
	runner_stop(r->lib->p->a);
	runner_stop(r->lib->p->b);
	runner_stop(r->cli->p->a);
	runner_stop(r->cli->p->b);
	free(b.p);
}

/*
 * A linked-in side that crashes takes its worker with it: keep the input
 * it was given (crash-WORKER.bconf in -o DIR) before dying of the signal.
 */
static char crash_path[4096];

static void on_crash(int sig)
{
	int fd;

	if (crash_path[0] && linked_in.p) {
		fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			if (full_write(fd, linked_in.p, linked_in.n))
				unlink(crash_path);
			close(fd);
		}
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Fork the workers; print progress; merge their counts into *sum. */
static int run_workers(const struct run *r, struct stats *all,
		       struct stats *sum)
{
	static const int crash_sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE,
					  SIGILL };
	pid_t *pids = calloc((size_t)n_workers, sizeof(*pids));
	long *seen = calloc((size_t)n_workers, sizeof(*seen));
	time_t *moved = calloc((size_t)n_workers, sizeof(*moved));
	time_t start = time(NULL), next = start + PROGRESS_SECS;
	int alive = 0, status;

	if (!pids || !seen || !moved)
		abort();
	fflush(NULL);
	for (int w = 0; w < n_workers; w++) {
		all[w].cur = -1;
		pids[w] = fork();
		if (pids[w] < 0) {
			perror("fork");
			exit(2);
		}
		if (pids[w] == 0) {
			worker = w;
			st = &all[w];
			setvbuf(stdout, NULL, _IOFBF, 1 << 16);
			if (out_dir)
				snprintf(crash_path, sizeof(crash_path),
					 "%s/crash-%d.bconf", out_dir, w);
			for (size_t k = 0; k < sizeof(crash_sigs) / sizeof(crash_sigs[0]); k++)
				signal(crash_sigs[k], on_crash);
			free(pids);
			free(seen);
			free(moved);
			run_worker(r);
			fflush(stdout);
			exit(0);
		}
		moved[w] = start;
		alive++;
	}
	while (alive) {
		pid_t pid = waitpid(-1, &status, WNOHANG);
		time_t now = time(NULL);
		long done = 0, fail = 0;
		int w;

		if (pid < 0 && errno != EINTR)
			abort();
		for (w = 0; w < n_workers; w++)
			if (pids[w] > 0 && pids[w] == pid)
				break;
		if (pid > 0 && w < n_workers) {
			alive--;
			pids[w] = 0;
			if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
				continue;
			/* a linked-in side crashed (or hung, killed below) */
			all[w].fail++;
			printf("DIFF [in-process] worker %d %s %d %s\n",
			       w, WIFSIGNALED(status) ? "died of signal" : "exited",
			       WIFSIGNALED(status) ? WTERMSIG(status) :
			       WEXITSTATUS(status),
			       all[w].cur == -2 ? "after its last check" :
			       all[w].cur == -1 ? "while checking a file or limit case" :
			       "while checking a generated config");
			if (all[w].cur >= 0)
				printf("  generated #%ld (rerun: -s %" PRIu64 " -n %ld -j 1)\n",
				       all[w].cur, r->seed, all[w].cur + 1);
			if (out_dir && WIFSIGNALED(status))
				printf("  its input, if it crashed: %s/crash-%d.bconf\n",
				       out_dir, w);
			continue;
		}
		for (w = 0; w < n_workers; w++) {
			long beat = __atomic_load_n(&all[w].beat, __ATOMIC_RELAXED);

			done += __atomic_load_n(&all[w].done, __ATOMIC_RELAXED);
			fail += __atomic_load_n(&all[w].fail, __ATOMIC_RELAXED);
			if (!pids[w])
				continue;
			if (beat != seen[w]) {
				seen[w] = beat;
				moved[w] = now;
			} else if (now - moved[w] > STALL_SECS) {
				printf("bt-diff: worker %d made no progress for %d s: killed\n",
				       w, STALL_SECS);
				kill(pids[w], SIGKILL);
				moved[w] = now;
			}
		}
		if (r->n >= 100000 && now >= next) {
			double rate = (double)done / (double)(now - start);

			printf("bt-diff: %ld of %ld generated configs checked, %ld differences so far, %.0f/s, about %.0f min left\n",
			       done, r->n, fail, rate,
			       rate > 0 ? (double)(r->n - done) / rate / 60 : 0.0);
			next += PROGRESS_SECS;
		}
		if (!pid)
			sleep(1);
	}
	memset(sum, 0, sizeof(*sum));
	for (int w = 0; w < n_workers; w++) {
		const struct stats *s = &all[w];

		sum->pass += s->pass;
		sum->fail += s->fail;
		sum->n_cli += s->n_cli;
		sum->n_lim += s->n_lim;
		sum->n_repro += s->n_repro;
		for (int i = 0; i < s->n_tally; i++)
			tally_add(sum->tally, &sum->n_tally, N_TALLY,
				  s->tally[i].what, s->tally[i].n);
		for (int i = 0; i < s->n_delib; i++)
			tally_add(sum->delib, &sum->n_delib, N_DELIB,
				  s->delib[i].what, s->delib[i].n);
	}
	free(pids);
	free(seen);
	free(moved);
	return (int)(time(NULL) - start);
}

/* ---- main ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bt-diff -a SIDE -b SIDE [-A CMD -B CMD] [-n N] [-s SEED] [-k K]\n"
		"               [-j W] [-o DIR] [-O] [FILE...]\n"
		"Compare two bootconfig runners (README.md) on FILEs, the limit\n"
		"cases and N generated/mutated configs.\n"
		"  -a/-b SIDE  the parser sides (reference, under test): @ref or\n"
		"              @ours when linked into this program, else a runner\n"
		"              command (runner.c built as a program)\n"
		"  -A/-B CMD   CLI runners, used on FILEs, limits and every K-th config\n"
		"  -n N        generated configs (default 10000)\n"
		"  -s SEED     seed (default: random, printed)\n"
		"  -k K        CLI comparison every K-th generated config (default 50)\n"
		"  -j W        worker processes (default 1); the same seed checks\n"
		"              the same configs for any W\n"
		"  -o DIR      write minimal reproducers there\n"
		"  -O          -B is our CLI: accept its documented deliberate\n"
		"              differences (judge.h), checking what it does instead\n"
		"Last line: \"N passed, N failed\".\n");
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

/* "@ref" and "@ours" are the sides linked into this program. */
static int resolve(struct runner *r)
{
	if (r->cmd[0] != '@')
		return 0;
	if (!strcmp(r->cmd, "@ref"))
		r->fn = bt_ref_run;
	else if (!strcmp(r->cmd, "@ours"))
		r->fn = bt_lib_run;
	if (r->fn)
		return 0;
	fprintf(stderr, "bt-diff: %s: no such side linked into this program (tests/diff/run.sh links @ref and @ours)\n",
		r->cmd);
	return -1;
}

int main(int argc, char **argv)
{
	struct runner ra = { 0 }, rb = { 0 }, rca = { 0 }, rcb = { 0 };
	struct pair lib_pair = { "in-process", &ra, &rb, 0 };
	struct pair cli_pair = { "cli", &rca, &rcb, 0 };
	static struct queue lib, cli;
	struct run run = { .lib = &lib, .cli = &cli, .n = 10000, .every = 50 };
	struct stats *all, sum;
	bool have_seed = false;
	int opt, secs;

	while ((opt = getopt(argc, argv, "a:b:A:B:n:s:k:j:o:Oh")) != -1) {
		switch (opt) {
		case 'O': cli_p = &cli_pair; break;
		case 'a': ra.cmd = optarg; break;
		case 'b': rb.cmd = optarg; break;
		case 'A': rca.cmd = optarg; break;
		case 'B': rcb.cmd = optarg; break;
		case 'n': run.n = strtol(optarg, NULL, 0); break;
		case 's':
			run.seed = strtoull(optarg, NULL, 0);
			have_seed = true;
			break;
		case 'k': run.every = strtol(optarg, NULL, 0); break;
		case 'j': n_workers = atoi(optarg); break;
		case 'o': out_dir = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!ra.cmd || !rb.cmd || !rca.cmd != !rcb.cmd || run.every < 1 ||
	    run.n < 0 || n_workers < 1 || n_workers > 64) {
		usage(stderr);
		return 2;
	}
	if (resolve(&ra) || resolve(&rb) || (rca.cmd && rca.cmd[0] == '@') ||
	    (rcb.cmd && rcb.cmd[0] == '@')) {
		usage(stderr);
		return 2;
	}
	run.have_cli = rca.cmd;
	lib_a = &ra;
	lib.p = &lib_pair;
	cli.p = &cli_pair;
	if (!have_seed) {
		int fd = open("/dev/urandom", O_RDONLY);

		if (fd < 0 ||
		    read(fd, &run.seed, sizeof(run.seed)) != sizeof(run.seed))
			run.seed = (uint64_t)time(NULL);
		if (fd >= 0)
			close(fd);
		run.seed &= 0xffffffffffffULL;
	}
	if (out_dir && mkdir(out_dir, 0755) && errno != EEXIST) {
		perror(out_dir);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("bt-diff: seed %" PRIu64 " (rerun: -s %" PRIu64 " -n %ld)\n",
	       run.seed, run.seed, run.n);

	run.nfiles = argc - optind;
	run.paths = argv + optind;
	run.files = calloc((size_t)run.nfiles + 1, sizeof(*run.files));
	if (!run.files)
		abort();
	for (int i = 0; i < run.nfiles; i++) {
		if (read_file(run.paths[i], &run.files[i])) {
			fprintf(stderr, "bt-diff: %s: %s\n", run.paths[i],
				strerror(errno));
			return 2;
		}
	}
	all = mmap(NULL, sizeof(*all) * (size_t)n_workers,
		   PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (all == MAP_FAILED) {
		perror("mmap");
		return 2;
	}
	secs = run_workers(&run, all, &sum);

	printf("bt-diff: seed %" PRIu64 ": %d files, %ld limit cases, %ld generated"
	       " configs (%ld also through both CLIs): %ld differences\n",
	       run.seed, run.nfiles, sum.n_lim, run.n, sum.n_cli, sum.fail);
	printf("bt-diff: %d s with %d worker%s (%s)\n", secs, n_workers,
	       n_workers > 1 ? "s" : "",
	       ra.fn && rb.fn ? "both parsers in-process" : "runner processes");
	printf("bt-diff: reference outcomes (in-process pair):");
	for (int i = 0; i < sum.n_tally; i++)
		printf("%s %s %ld", i ? "," : "", sum.tally[i].what,
		       sum.tally[i].n);
	printf("\n");
	for (int i = 0; i < sum.n_delib; i++)
		printf("bt-diff: deliberate difference (README.md): %s: %ld\n",
		       sum.delib[i].what, sum.delib[i].n);
	if (sum.n_repro)
		printf("bt-diff: %d minimal reproducers in %s\n", sum.n_repro,
		       out_dir);
	printf("%ld passed, %ld failed\n", sum.pass, sum.fail);
	for (int i = 0; i < run.nfiles; i++)
		free(run.files[i].p);
	free(run.files);
	munmap(all, sizeof(*all) * (size_t)n_workers);
	return sum.fail ? 1 : 0;
}
