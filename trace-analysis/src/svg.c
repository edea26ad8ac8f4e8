// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - the initcall picture of every bundle, with a time axis, its
 * scale, and a legend.  With trace.dat initcalls: a timeline, a strip with
 * every initcall, then one labelled row per long initcall in start order.
 * With a latency histogram only (no start times): the longest initcalls as
 * bars on a duration axis, longest first.  Long names are shortened; the
 * full name, start and duration are in each bar's tooltip (<title>).
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output.h"
#include "util.h"

#define W_LABEL	330
#define W_PLOT	860
#define ROW_H	16
#define MAX_ROWS 60
#define HOT	5	/* longest initcalls drawn in the highlight colour */
#define NAME_MAX_CH 44	/* characters of a name that fit in W_LABEL */
#define C_HOT	"#d62728"
#define C_NORM	"#1f77b4"

static void esc(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			fputc((unsigned char)*s < 0x20 || (unsigned char)*s > 0x7e ?
			      '?' : *s, f);
		}
	}
}

/*
 * @name, at most NAME_MAX_CH characters: "__initstub__kmod_x__1_2_fn6"
 * keeps its head and tail around "...".
 */
static void short_name(FILE *f, const char *name)
{
	size_t n = strlen(name), head = NAME_MAX_CH / 2 - 2;
	char *s;

	if (n <= NAME_MAX_CH) {
		esc(f, name);
		return;
	}
	s = xasprintf("%.*s...%s", (int)head, name,
		      name + n - (NAME_MAX_CH - head - 3));
	esc(f, s);
	free(s);
}

/* <title> of an initcall: full name, start (when known), duration. */
static void tooltip(FILE *f, const struct initcall *ic)
{
	fputs("<title>", f);
	esc(f, ic->func);
	if (ic->level) {
		fputs(" (", f);
		esc(f, ic->level);
		fputc(')', f);
	}
	if (ic->start_ns)
		fprintf(f, " start %.6f s", ns_to_s(ic->start_ns));
	fprintf(f, " duration %.3f ms", ic->dur_ns / 1e6);
	if (ic->count > 1)
		fprintf(f, " in %" PRIu64 " calls", ic->count);
	if (ic->ret)
		fprintf(f, " ret %d", ic->ret);
	fputs("</title>", f);
}

/* The colours' meaning, at the top right. */
static void legend(FILE *f, const char *what)
{
	int x = W_LABEL + W_PLOT - 330;

	fprintf(f, "<g class=\"legend\"><rect x=\"%d\" y=\"10\" width=\"10\" "
		"height=\"10\" fill=\"" C_HOT "\"/><text x=\"%d\" y=\"19\">"
		"the %d longest</text><rect x=\"%d\" y=\"10\" width=\"10\" "
		"height=\"10\" fill=\"" C_NORM "\"/><text x=\"%d\" y=\"19\">"
		"%s</text></g>\n", x, x + 14, HOT, x + 120, x + 134, what);
}

static double nice_step(double span)
{
	double raw = span / 8, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void header(FILE *f, int h, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" font-family=\"monospace\" font-size=\"11\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		"<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">",
		W_LABEL + W_PLOT + 40, h);
	esc(f, title);
	fputs("</text>\n", f);
}

/*
 * Grid lines and tick labels from @t0 to @t1 seconds at a round step,
 * labelled in s or ms (whichever reads better), the axis line at @y.
 */
static void axis(FILE *f, double t0, double t1, int y, int h)
{
	double step = nice_step(t1 - t0), t;
	bool ms = t1 - t0 < 2;

	fprintf(f, "<g class=\"axis\"><line x1=\"%d\" y1=\"%d\" x2=\"%d\" "
		"y2=\"%d\" stroke=\"#555\"/>\n", W_LABEL, y, W_LABEL + W_PLOT,
		y);
	for (t = ceil(t0 / step - 1e-9) * step; t <= t1 + step * 1e-6;
	     t += step) {
		double x = W_LABEL + (t - t0) / (t1 - t0) * W_PLOT;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#ddd\"/>\n<line x1=\"%.1f\" y1=\"%d\" "
			"x2=\"%.1f\" y2=\"%d\" stroke=\"#555\"/>\n"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
			"fill=\"#555\">", x, y, x, y + h, x, y - 3, x, y, x,
			y - 6);
		/* + 0.0: no "-0" from rounding a tiny negative */
		if (ms)
			fprintf(f, "%g ms</text>\n", round(t * 1e6) / 1e3 + 0.0);
		else
			fprintf(f, "%g s</text>\n", round(t * 1e3) / 1e3 + 0.0);
	}
	fputs("</g>\n", f);
}

static int timeline(const struct analysis *a, FILE *f)
{
	const struct initcall *ic = a->initcalls;
	size_t n = a->ninitcalls, *by_dur = initcalls_by_duration(ic, n);
	size_t rows = n < MAX_ROWS ? n : MAX_ROWS, i, r;
	bool *shown = xcalloc(n, sizeof(bool)), *hot = xcalloc(n, sizeof(bool));
	double t0 = 1e300, t1 = 0, span;
	int y0 = 70, h;
	char *title;

	for (i = 0; i < n; i++) {
		t0 = fmin(t0, ns_to_s(ic[i].start_ns));
		t1 = fmax(t1, ns_to_s(ic[i].start_ns + ic[i].dur_ns));
	}
	span = t1 > t0 ? t1 - t0 : 1e-3;
	t1 = t0 + span;
	for (i = 0; i < rows; i++)
		shown[by_dur[i]] = true;
	for (i = 0; i < HOT && i < n; i++)
		hot[by_dur[i]] = true;
	h = y0 + 40 + (int)rows * ROW_H + 40;
	title = xasprintf("Initcalls: %zu from trace.dat, the %zu longest "
			  "by start time", n, rows);
	header(f, h, title);
	free(title);
	legend(f, "other initcalls");
	axis(f, t0, t1, y0 - 20, (int)rows * ROW_H + 60);
	/* the strip: every initcall */
	fprintf(f, "<text x=\"10\" y=\"%d\">all initcalls</text>\n", y0 + 12);
	for (i = 0; i < n; i++) {
		double x = W_LABEL + (ns_to_s(ic[i].start_ns) - t0) / span * W_PLOT;
		double w = fmax(ns_to_s(ic[i].dur_ns) / span * W_PLOT, 0.5);

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"16\""
			" fill=\"%s\">", x, y0, w, hot[i] ? C_HOT : C_NORM);
		tooltip(f, &ic[i]);
		fputs("</rect>\n", f);
	}
	for (i = 0, r = 0; i < n; i++) {
		int y = y0 + 40 + (int)r * ROW_H;
		double x = W_LABEL + (ns_to_s(ic[i].start_ns) - t0) / span * W_PLOT;
		double w = fmax(ns_to_s(ic[i].dur_ns) / span * W_PLOT, 1);
		bool right;

		if (!shown[i])
			continue;
		if (r % 2)
			fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" "
				"height=\"%d\" fill=\"#f4f4f4\"/>\n", y - 2,
				W_LABEL + W_PLOT + 40, ROW_H);
		fprintf(f, "<text x=\"10\" y=\"%d\"%s>", y + 10,
			hot[i] ? " font-weight=\"bold\" fill=\"" C_HOT "\"" :
			"");
		short_name(f, ic[i].func);
		tooltip(f, &ic[i]);
		/* duration right of the bar, or left of it near the edge */
		right = x + w + 4 < W_LABEL + W_PLOT - 70;
		fprintf(f, "</text>\n<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
			"height=\"%d\" fill=\"%s\">", x, y, w, ROW_H - 4,
			hot[i] ? C_HOT : C_NORM);
		tooltip(f, &ic[i]);
		fprintf(f, "</rect>\n<text x=\"%.2f\" y=\"%d\" "
			"fill=\"#333\" text-anchor=\"%s\">%.3f ms%s</text>\n",
			right ? x + w + 4 : x - 4, y + 10,
			right ? "start" : "end", ic[i].dur_ns / 1e6,
			ic[i].ret ? " (error)" : "");
		r++;
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555\">time since boot "
		"(trace clock; grid every %g ms)</text>\n</svg>\n", W_LABEL,
		h - 10, nice_step(span) * 1e3);
	free(by_dur);
	free(shown);
	free(hot);
	return 0;
}

/*
 * Histogram latencies carry no start time: the longest as bars from 0 on
 * a duration axis, longest first.
 */
static int bars(const struct analysis *a, FILE *f)
{
	const struct initcall *ic = a->hist_initcalls;
	size_t n = a->nhist_initcalls, *by = initcalls_by_duration(ic, n);
	size_t rows = n < MAX_ROWS ? n : MAX_ROWS, i;
	double max = n ? ns_to_s(ic[by[0]].dur_ns) : 1e-3;
	int y0 = 70, h = y0 + (int)rows * ROW_H + 40;
	char *title = xasprintf("Initcall latency from histogram %s: the %zu "
				"longest of %zu", a->hist_initcalls_src, rows,
				n);

	if (max <= 0)
		max = 1e-3;
	header(f, h, title);
	free(title);
	legend(f, "other initcalls");
	axis(f, 0, max, y0 - 8, (int)rows * ROW_H + 8);
	for (i = 0; i < rows; i++) {
		const struct initcall *c = &ic[by[i]];
		int y = y0 + (int)i * ROW_H;
		double w = fmax(ns_to_s(c->dur_ns) / max * W_PLOT, 1);
		bool right = W_LABEL + w + 4 < W_LABEL + W_PLOT - 70;

		if (i % 2)
			fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" "
				"height=\"%d\" fill=\"#f4f4f4\"/>\n", y - 2,
				W_LABEL + W_PLOT + 40, ROW_H);
		fprintf(f, "<text x=\"10\" y=\"%d\"%s>", y + 10,
			i < HOT ? " font-weight=\"bold\" fill=\"" C_HOT "\"" : "");
		short_name(f, c->func);
		tooltip(f, c);
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.2f\" "
			"height=\"%d\" fill=\"%s\">", W_LABEL, y, w, ROW_H - 4,
			i < HOT ? C_HOT : C_NORM);
		tooltip(f, c);
		fprintf(f, "</rect>\n<text x=\"%.2f\" y=\"%d\" fill=\"%s\" "
			"text-anchor=\"%s\">%.3f ms</text>\n",
			right ? W_LABEL + w + 4 : W_LABEL + w - 4, y + 10,
			right ? "#333" : "#fff", right ? "start" : "end",
			c->dur_ns / 1e6);
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555\">latency (bar "
		"length; grid every %g ms); the histogram has no start "
		"times</text>\n</svg>\n", W_LABEL, h - 10,
		nice_step(max) * 1e3);
	free(by);
	return 0;
}

int write_svg(const struct analysis *a, const char *path)
{
	FILE *f;
	int r;

	if (!a->ninitcalls && !a->nhist_initcalls)
		return -ENODATA;
	f = fopen(path, "w");
	if (!f)
		return -errno;
	r = a->ninitcalls ? timeline(a, f) : bars(a, f);
	if (fclose(f) && !r)
		r = -errno;
	return r;
}
