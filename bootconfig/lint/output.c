// SPDX-License-Identifier: GPL-2.0
/*
 * output.c - print lint findings as text (the bootconfig tool's
 * FILE:LINE:COL: error: format) or as JSON.
 */
#include <string.h>

#include "bootconfig.h"
#include "lint.h"

static const char *sev_name(enum lint_severity s)
{
	return s == LINT_ERROR ? "error" : s == LINT_WARNING ? "warning" : "note";
}

void lint_print(FILE *out, const char *path, const char *buf, size_t len,
		const struct lint_result *r, bool source)
{
	size_t i;

	for (i = 0; i < r->count; i++) {
		const struct lint_diag *d = &r->diags[i];

		fprintf(out, "%s:%u:%u: %s: %s [%s]\n", path, d->line, d->col,
			sev_name(d->severity), d->msg, d->rule);
		if (source)
			bconf_show_source(out, buf, len, d->line, d->col);
	}
}

void lint_print_json(FILE *out, const char *path,
		     const struct lint_knowledge *k,
		     const struct lint_result *r)
{
	size_t i;

	fputs("{\"schema\":\"boottrace-lint-1\",\"file\":", out);
	bconf_json_string(out, path);
	fputs(",\"kernel\":", out);
	if (k)
		bconf_json_string(out, lint_knowledge_key(k));
	else
		fputs("null", out);
	fputs(",\"skipped\":", out);
	if (r->skipped)
		bconf_json_string(out, r->skipped);
	else
		fputs("null", out);
	fprintf(out, ",\"errors\":%u,\"warnings\":%u,\"diagnostics\":[",
		r->errors, r->warnings);
	for (i = 0; i < r->count; i++) {
		const struct lint_diag *d = &r->diags[i];

		fprintf(out, "%s{\"line\":%u,\"col\":%u,\"severity\":\"%s\",\"rule\":",
			i ? "," : "", d->line, d->col, sev_name(d->severity));
		bconf_json_string(out, d->rule);
		fputs(",\"key\":", out);
		bconf_json_string(out, d->key);
		fputs(",\"message\":", out);
		bconf_json_string(out, d->msg);
		fputc('}', out);
	}
	fputs("]}\n", out);
}
