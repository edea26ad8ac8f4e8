// SPDX-License-Identifier: GPL-2.0
/*
 * set.c - load one side of a diff: a bundle or a set directory (set.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "set.h"
#include "util.h"

static bool is_bundle(const char *path)
{
	static const char *const marks[] = { "metadata", "trace.dat" };
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		char *p = xasprintf("%s/%s", path, marks[i]);
		int r = lstat(p, &st);

		free(p);
		if (!r)
			return true;
	}
	return false;
}

/*
 * The N of a set directory, or 0 with *err when it is not 1..N.  Names
 * without a leading zero are distinct numbers, so N entries whose largest
 * is N are exactly 1..N.
 */
static size_t set_size(const char *path, char **err)
{
	DIR *d = opendir(path);
	struct dirent *e;
	size_t count = 0, max = 0;

	if (!d) {
		*err = xasprintf("%s: cannot open: %s", path, strerror(errno));
		return 0;
	}
	while ((e = readdir(d))) {
		char *end;
		unsigned long k;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		errno = 0;
		k = strtoul(e->d_name, &end, 10);
		if (*end || errno)
			continue;
		count++;
		if (k > max)
			max = k;
	}
	closedir(d);
	if (!max) {
		*err = xasprintf("%s: not a bundle (no metadata and no "
				 "trace.dat) and not a set of bundles (no "
				 "%s/1): give a bundle or a set directory "
				 "DIR/1 .. DIR/N", path, path);
		return 0;
	}
	if (count != max) {
		*err = xasprintf("%s: a set of bundles is numbered 1 .. N "
				 "without gaps, but it has %zu numbered "
				 "entries up to %zu", path, count, max);
		return 0;
	}
	return max;
}

int set_load(const char *path, struct bundle_set *s, char **err)
{
	size_t n = 1, i;

	memset(s, 0, sizeof(*s));
	s->path = path;
	if (!is_bundle(path)) {
		n = set_size(path, err);
		if (!n)
			return -1;
		s->is_set = true;
	}
	s->an = xcalloc(n, sizeof(*s->an));
	for (i = 0; i < n; i++) {
		char *dir = s->is_set ? xasprintf("%s/%zu", path, i + 1) :
				xstrdup(path);
		int r = analysis_load(dir, &s->an[i], err);

		free(dir);
		if (r) {
			set_free(s);
			return -1;
		}
		s->n++;
	}
	return 0;
}

void set_free(struct bundle_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		analysis_free(&s->an[i]);
	free(s->an);
	s->an = NULL;
	s->n = 0;
}
