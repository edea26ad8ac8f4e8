/* SPDX-License-Identifier: GPL-2.0 */
/* Private: the loaded kernel knowledge and its lookups. */
#ifndef BCONF_LINT_KNOWLEDGE_H
#define BCONF_LINT_KNOWLEDGE_H

#include "lint.h"

struct klist {
	char *data;
	char **items;
	size_t count;
};

struct kevent {
	const char *group;
	const char *name;
	const char *fields;	/* space-separated field names */
};

struct lint_knowledge {
	struct klist info, symbols, event_lines, tracers, clocks, options,
		params, module_events;
	struct kevent *events;
	size_t nevents;
	const char *key;
	const char *series;
	bool long_settings;
};

bool kn_has_symbol(const struct lint_knowledge *k, const char *sym);
bool kn_in_list(const struct klist *l, const char *s);
/* "early", "setup", "core" or a comma list of them; NULL when unknown. */
const char *kn_param(const struct lint_knowledge *k, const char *name);
bool kn_has_group(const struct lint_knowledge *k, const char *group);
const struct kevent *kn_event(const struct lint_knowledge *k,
			      const char *group, const char *name);
bool kn_event_has_field(const struct kevent *e, const char *field);
/* The module of the build that defines GROUP:EVENT (EVENT NULL: any). */
const char *kn_module_event(const struct lint_knowledge *k, const char *group,
			    const char *event, char *buf, size_t size);

#endif /* BCONF_LINT_KNOWLEDGE_H */
