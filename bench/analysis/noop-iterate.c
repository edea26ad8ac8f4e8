// SPDX-License-Identifier: GPL-2.0
/*
 * noop-iterate.c - the floor for bench/analysis.sh: the cheapest complete
 * visit of every record of a trace.dat that libtracecmd's API offers.
 *
 * It opens the file as trace-analysis does (no plugins), takes the top
 * buffer and every instance, and reads each buffer CPU by CPU with
 * tracecmd_read_cpu_first() and tracecmd_read_data(), doing nothing with
 * a record but counting and freeing it.  What that leaves out, measured on
 * the 2.2M-record function-tracer bundle (trace-analysis/README.md):
 *
 *  - the time-ordered merge (tracecmd_iterate_events_multi() over all
 *    buffers, or tracecmd_iterate_events() over one buffer's CPUs) costs a
 *    second tracecmd_peek_data() per record: 15% more instructions;
 *  - plugins are not loaded (TRACECMD_FL_LOAD_NO_*PLUGINS);
 *  - what remains cannot be skipped: tracecmd_open() parses the event
 *    formats and kallsyms (13% of the instructions), each zstd chunk is
 *    decompressed once (18%), and libtracecmd mallocs, fills and frees a
 *    tep_record per record (the rest).  The public API has no access by
 *    page that would avoid that.
 *
 * libtracecmd 3.1 keeps every decompressed chunk until the handle is closed,
 * so the heap grows by the trace's uncompressed size; the bench runs this
 * with glibc's transparent-huge-page heap as trace-analysis runs itself
 * (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), else most of the time is page
 * faults.
 *
 * With --merged it iterates all buffers with tracecmd_iterate_events_multi()
 * instead, the time-ordered merge (for the bench's comparison only).
 *
 * Prints "N records".
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

static int count(struct tracecmd_input *h, struct tep_record *r, int cpu,
		 void *data)
{
	(void)h;
	(void)r;
	(void)cpu;
	(*(unsigned long long *)data)++;
	return 0;
}

static unsigned long long read_buffer(struct tracecmd_input *h)
{
	int cpu, ncpus = tep_get_cpus(tracecmd_get_tep(h));
	unsigned long long n = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct tep_record *r = tracecmd_read_cpu_first(h, cpu);

		while (r) {
			n++;
			tracecmd_free_record(r);
			r = tracecmd_read_data(h, cpu);
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *top, **hs;
	unsigned long long n = 0;
	const char *path = argv[argc - 1];
	bool merged = argc == 3 && !strcmp(argv[1], "--merged");
	int i, ni;

	if (argc != 2 && !merged) {
		fprintf(stderr, "usage: noop-iterate [--merged] TRACE.DAT\n");
		return 2;
	}
	top = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS |
			    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!top) {
		fprintf(stderr, "noop-iterate: cannot open %s\n", path);
		return 2;
	}
	ni = tracecmd_buffer_instances(top);
	hs = calloc((size_t)(ni > 0 ? ni : 0) + 1, sizeof(*hs));
	if (!hs)
		return 2;
	hs[0] = top;
	for (i = 0; i < ni; i++) {
		hs[i + 1] = tracecmd_buffer_instance_handle(top, i);
		if (!hs[i + 1]) {
			fprintf(stderr, "noop-iterate: %s: cannot open buffer %d\n",
				path, i);
			return 2;
		}
	}
	if (merged) {
		tracecmd_iterate_events_multi(hs, ni + 1, count, &n);
	} else {
		/* each instance closed when read, as trace-analysis does */
		for (i = 0; i <= ni; i++) {
			n += read_buffer(hs[i]);
			if (i)
				tracecmd_close(hs[i]);
		}
	}
	printf("%llu records\n", n);
	for (i = merged ? ni : 0; i > 0; i--)
		tracecmd_close(hs[i]);
	tracecmd_close(top);
	free(hs);
	return 0;
}
