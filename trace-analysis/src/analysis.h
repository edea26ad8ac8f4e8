/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - what trace-analysis learns from one bundle (docs/bundle.md).
 *
 * analysis_load() reads the bundle's text state (metadata, tracefs dump,
 * hist files, dmesg, proc/bootconfig), then trace.dat through libtracecmd,
 * then derives the initcall table, data loss and the "was it applied"
 * check.  Problems with single inputs are recorded in @problems (and the
 * report shows them; an unreadable one is also counted in @nerrors, an
 * error of every verb); only a missing bundle, missing, unreadable or
 * incomplete metadata or an unknown format is fatal.
 */
#ifndef TA_ANALYSIS_H
#define TA_ANALYSIS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"
#include "util.h"

/* Lowest x86-64 kernel address: hist keys above it may be symbols. */
#define KERNEL_TEXT_START 0xffff800000000000ull

struct kv {
	char *key;
	char *val;
};

struct cpu_stat {
	int cpu;
	uint64_t entries, overrun, commit_overrun, bytes, dropped, read;
};

/* An event dumped under tracefs/.../events/GROUP/EVENT/. */
struct ev_state {
	char *system;
	char *name;
	char *enable;		/* "1", "0", "0*", "1*" or NULL */
	char *filter;		/* NULL when "none" */
	char *trigger;		/* trigger lines (not starting with '#') */
	bool has_hist;
	struct hist_set hist;	/* parsed hist, when has_hist and no error */
	char *hist_error;	/* "line N: ..." when the hist did not parse */
	uint64_t count;		/* records in trace.dat (this instance) */
};

/* An event type seen in trace.dat. */
struct ev_count {
	char *system;
	char *name;
	uint64_t count;
	uint64_t first_ts, last_ts;
};

/* One CPU of a buffer as read from trace.dat. */
struct cpu_read {
	uint64_t records;	/* records read */
	uint64_t gaps;		/* records that follow lost events */
	uint64_t lost;		/* known number of lost events */
	bool lost_unknown;	/* some gaps of unknown size */
};

/* A function seen by the function or function_graph tracer. */
struct func_count {
	uint64_t addr;
	char *name;		/* symbol from trace.dat's kallsyms, or 0x... */
	uint64_t count;		/* ftrace:function + ftrace:funcgraph_entry */
};

struct instance {
	char *name;		/* "" for the top buffer */
	char *dir;		/* its directory in the bundle */
	char *tracer, *clock, *buffer_size_kb, *cpumask, *options;
	char *clock_name;	/* the selected trace_clock, or NULL */
	bool clock_ns;		/* its timestamps are nanoseconds */
	int tracing_on;		/* as the collector found it; -1: unknown */
	char *set_event, *ftrace_filter, *ftrace_notrace, *error_log;
	struct cpu_stat *cpus;
	size_t ncpus;
	struct ev_state *events;
	size_t nevents;
	/* from trace.dat */
	bool in_trace;
	struct ev_count *counts;	/* indexed by event id, sparse */
	size_t ncounts;
	uint64_t nrecords, first_ts, last_ts;
	uint64_t missed_records;	/* records that follow lost events */
	uint64_t missed_events;		/* known number of lost events */
	bool missed_unknown;		/* some losses of unknown size */
	struct cpu_read *percpu;	/* indexed by CPU number */
	size_t npercpu;
	struct func_count *funcs;	/* one per traced function address */
	size_t nfuncs;
};

struct initcall {
	char *func;
	uint64_t addr;
	char *level;		/* initcall_level before it, or NULL */
	uint64_t start_ns;	/* trace timestamp; 0 for hist rows */
	uint64_t dur_ns;
	uint64_t count;		/* hist rows: hits summed into dur_ns */
	int ret;
	bool finished;
	int cpu;		/* where it started */
	int pid;		/* the task that ran it */
};

struct kprobe {
	char *name;
	char *def;		/* definition line from kprobe_events */
	uint64_t hits, misses;	/* kprobe_profile */
	bool have_profile;
	uint64_t traced;	/* records in trace.dat (all instances) */
};

/*
 * SET_PENDING: the kernel keeps the setting for a module not loaded yet
 * (a "pending" line in tracefs/boot_status); SET_NOT_REPORTED: boot_status
 * exists but has no line for a setting trace_boot handles.
 */
enum set_status {
	SET_APPLIED, SET_FAILED, SET_UNCHECKED, SET_PENDING, SET_NOT_REPORTED,
	SET_NSTATUS
};

struct setting {
	char *key;		/* full bootconfig key */
	char *value;		/* values joined by ", " */
	char *instance;		/* "" top, else the instance name */
	enum set_status status;
	char *detail;		/* what was seen, or why it failed */
	bool dmesg_failed;
	/*
	 * The kernel's word for it in tracefs/boot_status ("applied",
	 * "failed", "pending", ... or "none": no line); NULL without the
	 * file or for keys trace_boot does not report.
	 */
	char *boot_status;
};

/*
 * LOSS_MISMATCH: trace.dat has fewer (or more) records on a CPU than the
 * kernel's stats counted entries when the collector had stopped tracing
 * (derive.c says when the two are comparable).
 */
enum loss_kind {
	LOSS_OVERRUN, LOSS_COMMIT_OVERRUN, LOSS_DROPPED, LOSS_MISSED,
	LOSS_MISMATCH, LOSS_HIST_DROPPED, LOSS_NEVER_FIRED, LOSS_COLLECT,
	LOSS_NKINDS
};

struct loss {
	enum loss_kind kind;
	char *instance;
	char *what;		/* cpu, event or hist */
	uint64_t count;
	char *detail;
	/* LOSS_MISMATCH: count is records beyond the kernel's, not lost */
	bool surplus;
};

struct analysis {
	char *path;
	struct kv *meta;
	size_t nmeta;
	int format;		/* N of format=boottrace-bundle-N */
	struct instance *inst;
	size_t ninst;
	bool trace_ok;
	char *trace_error;
	uint64_t total_records;
	uint64_t first_ts, last_ts;
	struct initcall *initcalls;	/* from trace.dat, in start order */
	size_t ninitcalls;
	char *initcalls_untimed;	/* initcalls left out: no ns clock */
	struct initcall *hist_initcalls; /* from a latency histogram */
	size_t nhist_initcalls;
	char *hist_initcalls_src;	/* "instance:group:event" */
	struct kprobe *kprobes;
	size_t nkprobes;
	struct setting *settings;
	size_t nsettings;
	bool bconf_loaded;		/* proc/bootconfig present and parsed */
	const char *bconf_error;	/* proc/bootconfig unreadable: the
					 * problem saying why, else NULL */
	bool have_boot_status;		/* tracefs/boot_status in the bundle */
	char *cmdline;			/* proc/cmdline's text, else NULL */
	const char *cmdline_error;	/* proc/cmdline unreadable: the
					 * problem saying why, else NULL */
	char **boot_errors;		/* trace_boot: lines in dmesg */
	size_t nboot_errors;
	char **unattributed;		/* errors no setting claims */
	size_t nunattributed;
	struct loss *losses;
	size_t nlosses;
	char **problems;		/* inputs that could not be read */
	size_t nproblems;
	size_t nerrors;			/* of those, unreadable parts */
};

/*
 * Load @dir.  Returns 0, or -1 with a message in *@err (malloc'ed) when
 * @dir is not a bundle at all.
 */
int analysis_load(const char *dir, struct analysis *a, char **err);
void analysis_free(struct analysis *a);
void analysis_problem(struct analysis *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

const char *analysis_meta(const struct analysis *a, const char *key);
/*
 * The kernel release and the UTC time the boot started: the host's keys
 * (kernel_release, created) of a `boottrace boot` bundle, else the
 * collector's own (kernel_release_guest, guest_boot_time: a bundle of
 * `boottrace collect` on a live system).  NULL when neither is there.
 */
const char *analysis_kernel_release(const struct analysis *a);
const char *analysis_boot_started(const struct analysis *a);
const struct instance *analysis_instance(const struct analysis *a,
					 const char *name);
/* Instance label for output: "top" or the name. */
const char *inst_label(const struct instance *in);
const char *loss_kind_name(enum loss_kind k);
/* Records lost in buffer @inst (its label), each loss counted once. */
uint64_t analysis_lost(const struct analysis *a, const char *inst);
/* Whether @l counts lost events of a buffer (else: another finding). */
bool loss_counts_events(const struct loss *l);
/* Whether a buffer whose clock counts time has records (first_ts..). */
bool analysis_timed_records(const struct analysis *a);
/* Whether trace.dat was read to its end (else the losses are a floor). */
bool analysis_losses_known(const struct analysis *a);
size_t analysis_failed_settings(const struct analysis *a);
size_t analysis_count_settings(const struct analysis *a, enum set_status st);
/* "applied", "failed", "unchecked", "pending", "not_reported" */
const char *set_status_name(enum set_status st);

/* Steps of analysis_load() (load.c), in order. */
/* Like analysis_load(), for the text state only. */
int bundle_read(const char *dir, struct analysis *a, char **err); /* bundle.c */
void trace_read(struct analysis *a);			/* trace.c */
void applied_check(struct analysis *a);			/* applied.c */
void derive_hist_symbols(struct analysis *a);		/* derive.c */
void derive_initcall_hist(struct analysis *a);		/* derive.c */
void derive_losses(struct analysis *a);			/* derive.c */

/*
 * The kernel's verdict on the bootconfig from its log (verdict.c): feed
 * every line (it may be changed) to verdict_line(), then ask
 * verdict_status() whether `bootconfig` was on the command line
 * (verdict_requested() of /proc/cmdline's text).  msgs holds the kernel's
 * bootconfig lines joined with '|'.
 */
struct verdict {
	bool loaded, any, corrupt;
	unsigned long errors;	/* lines with "trace_boot: " */
	struct sbuf msgs;
};
void verdict_line(struct verdict *v, char *line);
const char *verdict_status(const struct verdict *v, bool requested);
bool verdict_requested(const char *cmdline);

/*
 * Reading the bundle's files (bundle.c), the one place that tells a file
 * the bundle does not have (BF_ABSENT: no entry of that name: the kernel
 * has no such file, or the collector did not write it) from one it has
 * but that cannot be read (BF_UNREADABLE: EACCES, EIO, a directory, a
 * symbolic link to nothing or in a loop, larger than @max): the second
 * is an error, never "none".
 */
enum bf_status { BF_OK, BF_ABSENT, BF_UNREADABLE };
/*
 * @dir/@rel whole into *@buf (NUL-terminated; its length in *@len unless
 * @len is NULL).  BF_UNREADABLE sets *@why (malloc'ed: "Permission
 * denied"); otherwise *@why is NULL, and *@buf is NULL unless BF_OK.
 */
enum bf_status bundle_read_file(const char *dir, const char *rel, size_t max,
				char **buf, size_t *len, char **why);

/* Helpers shared by the steps (bundle.c). */
char *bundle_file(const struct analysis *a, const char *rel);
/*
 * The text of bundle file @rel in *@text (BF_OK), else NULL.  An
 * unreadable file is recorded as a problem ("REL: cannot read: WHY",
 * *@problem points to it when @problem is not NULL) and counted in
 * nerrors; an absent one is not recorded.
 */
enum bf_status bundle_text_get(struct analysis *a, const char *rel,
			       char **text, const char **problem);
/*
 * The file's text, or NULL: absent (a "REL: missing" problem unless
 * @quiet) or unreadable (as bundle_text_get()).
 */
char *bundle_text(struct analysis *a, const char *rel, bool quiet);
struct instance *instance_get(struct analysis *a, const char *name);

#endif /* TA_ANALYSIS_H */
