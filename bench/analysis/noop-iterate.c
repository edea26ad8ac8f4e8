// SPDX-License-Identifier: GPL-2.0
/*
 * noop-iterate.c - the floor for bench/analysis.sh: open trace.dat with
 * libtracecmd like trace-analysis does (no plugins, every instance) and
 * iterate every record in time order doing nothing with it but counting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <trace-cmd.h>

static int on_record(struct tracecmd_input *h, struct tep_record *r, int cpu,
		     void *data)
{
	(void)h;
	(void)r;
	(void)cpu;
	(*(unsigned long long *)data)++;
	return 0;
}

int main(int argc, char **argv)
{
	struct tracecmd_input *top, **hs;
	unsigned long long n = 0;
	int i, ni, nh = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: noop-iterate TRACE.DAT\n");
		return 2;
	}
	top = tracecmd_open(argv[1], TRACECMD_FL_LOAD_NO_PLUGINS |
			    TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!top) {
		fprintf(stderr, "noop-iterate: cannot open %s\n", argv[1]);
		return 2;
	}
	ni = tracecmd_buffer_instances(top);
	hs = calloc((size_t)(ni > 0 ? ni : 0) + 1, sizeof(*hs));
	if (!hs)
		return 2;
	hs[0] = top;
	for (i = 0; i < ni; i++) {
		struct tracecmd_input *h = tracecmd_buffer_instance_handle(top, i);

		if (h)
			hs[nh++] = h;
	}
	tracecmd_iterate_events_multi(hs, nh, on_record, &n);
	printf("%llu records\n", n);
	for (i = nh - 1; i >= 0; i--)
		tracecmd_close(hs[i]);
	free(hs);
	return 0;
}
