// SPDX-License-Identifier: GPL-2.0
/*
 * knowledge.c - load what kernel/knowledge.sh extracted from a kernel build.
 *
 * Every file is text, one item per line; lists are kept as arrays of
 * pointers into the file's buffer.  Lookups are binary searches on the
 * sorted lists (symbols, events, params) and linear on the short ones.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bootconfig.h"
#include "knowledge.h"

/* Knowledge files are lists of symbols: a few MiB. */
#define KNOWLEDGE_FILE_MAX	(256u << 20)

/* Split @l->data into lines (empty lines dropped). */
static int split_lines(struct klist *l, size_t len)
{
	size_t i, n = 0;
	char *p;

	for (i = 0; i < len; i++)
		n += l->data[i] == '\n';
	l->items = calloc(n + 1, sizeof(*l->items));
	if (!l->items)
		return -ENOMEM;
	for (p = l->data; *p;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (*p)
			l->items[l->count++] = p;
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

static int load_list(const char *dir, const char *name, struct klist *l)
{
	char path[4096];
	size_t len = 0;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	ret = bconf_read_file(path, KNOWLEDGE_FILE_MAX, &l->data, &len);
	if (ret < 0)
		return ret;
	return split_lines(l, len);
}

static void free_list(struct klist *l)
{
	free(l->items);
	free(l->data);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Compare the first word of two lines ("name rest"). */
static int cmp_word(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	for (; *x && *x != ' ' && *x == *y; x++, y++)
		;
	return (unsigned char)(*x == ' ' ? 0 : *x) -
	       (unsigned char)(*y == ' ' ? 0 : *y);
}

/* "GROUP EVENT FIELD..." lines: split in place into struct kevent. */
static int index_events(struct lint_knowledge *k)
{
	size_t i;

	k->events = calloc(k->event_lines.count + 1, sizeof(*k->events));
	if (!k->events)
		return -ENOMEM;
	for (i = 0; i < k->event_lines.count; i++) {
		char *g = k->event_lines.items[i], *e = strchr(g, ' '), *f;

		if (!e)
			continue;
		*e++ = '\0';
		f = strchr(e, ' ');
		if (f)
			*f++ = '\0';
		k->events[k->nevents].group = g;
		k->events[k->nevents].name = e;
		k->events[k->nevents].fields = f ? f : "";
		k->nevents++;
	}
	return 0;
}

static const char *info_value(const struct lint_knowledge *k, const char *key)
{
	size_t i, n = strlen(key);

	for (i = 0; i < k->info.count; i++) {
		const char *l = k->info.items[i];

		if (!strncmp(l, key, n) && l[n] == '=')
			return l + n + 1;
	}
	return "";
}

int lint_knowledge_load(const char *dir, struct lint_knowledge **out,
			const char **why)
{
	static const char *const names[] = {
		"info", "symbols", "events", "tracers", "clocks", "options",
		"params",
	};
	struct lint_knowledge *k = calloc(1, sizeof(*k));
	struct klist *lists[7];
	size_t i;
	int ret = -ENOMEM;

	if (!k)
		return -ENOMEM;
	lists[0] = &k->info;
	lists[1] = &k->symbols;
	lists[2] = &k->event_lines;
	lists[3] = &k->tracers;
	lists[4] = &k->clocks;
	lists[5] = &k->options;
	lists[6] = &k->params;
	for (i = 0; i < 7; i++) {
		ret = load_list(dir, names[i], lists[i]);
		if (ret < 0) {
			if (why)
				*why = names[i];
			lint_knowledge_free(k);
			return ret;
		}
	}
	/* Optional (knowledge extracted before it existed): empty. */
	if (load_list(dir, "module-events", &k->module_events) == -ENOENT)
		k->module_events.items = calloc(1, sizeof(char *));
	if (!k->module_events.items) {
		lint_knowledge_free(k);
		return -ENOMEM;
	}
	qsort(k->symbols.items, k->symbols.count, sizeof(char *), cmp_str);
	qsort(k->params.items, k->params.count, sizeof(char *), cmp_word);
	ret = index_events(k);
	if (ret < 0) {
		lint_knowledge_free(k);
		return ret;
	}
	k->key = info_value(k, "key");
	k->series = info_value(k, "series");
	k->long_settings = !strcmp(info_value(k, "long_settings"), "yes");
	*out = k;
	return 0;
}

void lint_knowledge_free(struct lint_knowledge *k)
{
	if (!k)
		return;
	free_list(&k->info);
	free_list(&k->symbols);
	free_list(&k->event_lines);
	free_list(&k->tracers);
	free_list(&k->clocks);
	free_list(&k->options);
	free_list(&k->params);
	free_list(&k->module_events);
	free(k->events);
	free(k);
}

const char *lint_knowledge_key(const struct lint_knowledge *k)
{
	return k ? k->key : "";
}

bool lint_knowledge_long_settings(const struct lint_knowledge *k)
{
	return k && k->long_settings;
}

bool kn_has_symbol(const struct lint_knowledge *k, const char *sym)
{
	return bsearch(&sym, k->symbols.items, k->symbols.count,
		       sizeof(char *), cmp_str) != NULL;
}

bool kn_in_list(const struct klist *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		if (!strcmp(l->items[i], s))
			return true;
	return false;
}

const char *kn_param(const struct lint_knowledge *k, const char *name)
{
	char **hit = bsearch(&name, k->params.items, k->params.count,
			     sizeof(char *), cmp_word);
	const char *sp;

	if (!hit)
		return NULL;
	sp = strchr(*hit, ' ');
	return sp ? sp + 1 : "";
}

bool kn_has_group(const struct lint_knowledge *k, const char *group)
{
	size_t i;

	for (i = 0; i < k->nevents; i++)
		if (!strcmp(k->events[i].group, group))
			return true;
	return false;
}

const struct kevent *kn_event(const struct lint_knowledge *k,
			      const char *group, const char *name)
{
	size_t i;

	for (i = 0; i < k->nevents; i++)
		if (!strcmp(k->events[i].group, group) &&
		    !strcmp(k->events[i].name, name))
			return &k->events[i];
	return NULL;
}

bool kn_event_has_field(const struct kevent *e, const char *field)
{
	size_t n = strlen(field);
	const char *p = e->fields;

	while ((p = strstr(p, field))) {
		if ((p == e->fields || p[-1] == ' ') &&
		    (p[n] == ' ' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

const char *kn_module_event(const struct lint_knowledge *k, const char *group,
			    const char *event, char *buf, size_t size)
{
	size_t i, gl = strlen(group), el = event ? strlen(event) : 0;

	for (i = 0; i < k->module_events.count; i++) {
		const char *l = k->module_events.items[i], *m;

		if (strncmp(l, group, gl) || l[gl] != ' ')
			continue;
		m = strchr(l + gl + 1, ' ');
		if (!m || (event && ((size_t)(m - l - gl - 1) != el ||
				     strncmp(l + gl + 1, event, el))))
			continue;
		snprintf(buf, size, "%s", m + 1);
		return buf;
	}
	return NULL;
}
