/* SPDX-License-Identifier: GPL-2.0 */
/*
 * set.h - one side of a diff: a bundle, or a set directory of N boots of
 * one config (DIR/1 .. DIR/N, each a normal bundle, as
 * boottrace boot --repeat N writes them).
 */
#ifndef TA_SET_H
#define TA_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"

struct bundle_set {
	const char *path;
	bool is_set;		/* a set directory, even of one boot */
	struct analysis *an;	/* n loaded bundles, read-only after load */
	size_t n;
};

/*
 * Load @path: a bundle (it has a metadata or trace.dat file), or else a
 * set directory whose numbered entries are exactly 1..N.  On error
 * returns -1 with *err set (free it) and nothing loaded.  A bundle that
 * loads with problems (a->nerrors) is loaded; the caller reports them.
 */
int set_load(const char *path, struct bundle_set *s, char **err);
void set_free(struct bundle_set *s);

#endif /* TA_SET_H */
