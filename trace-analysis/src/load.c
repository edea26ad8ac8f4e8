// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - analysis_load(): the steps that fill a struct analysis, in one
 * direction.  Each step reads the bundle and what the steps before it
 * filled in, and never calls back into this file or a later step:
 *
 *	bundle.c   metadata, dmesg, the tracefs dump, hist files, kprobes
 *	trace.c    trace.dat (records, initcalls, functions, gaps)
 *	derive.c   hist symbols, the histogram initcall table, data loss
 *	applied.c  whether each bootconfig setting was applied
 *
 * The verbs get the result as const (analysis.h).
 */
#include "analysis.h"

int analysis_load(const char *dir, struct analysis *a, char **err)
{
	if (bundle_read(dir, a, err))
		return -1;
	trace_read(a);
	derive_hist_symbols(a);
	derive_initcall_hist(a);
	applied_check(a);
	derive_losses(a);
	return 0;
}
