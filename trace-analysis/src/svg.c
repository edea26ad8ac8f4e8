// SPDX-License-Identifier: GPL-2.0
/*
 * svg.c - the initcall timeline: a strip with every initcall on the time
 * axis, then one labelled row per long initcall (the longest highlighted),
 * in start order.  Without trace.dat initcalls, a bar chart of the
 * latency histogram.
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

static void axis(FILE *f, double t0, double t1, int y, int h)
{
	double step = nice_step(t1 - t0), t;

	for (t = ceil(t0 / step) * step; t <= t1; t += step) {
		double x = W_LABEL + (t - t0) / (t1 - t0) * W_PLOT;

		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"#ddd\"/>\n<text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\" fill=\"#555\">%.3f s</text>\n",
			x, y, x, y + h, x, y - 4, t);
	}
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
			  "by start time (red: top %d)", n, rows, HOT);
	header(f, h, title);
	free(title);
	axis(f, t0, t1, y0 - 20, (int)rows * ROW_H + 60);
	/* the strip: every initcall */
	fprintf(f, "<text x=\"10\" y=\"%d\">all initcalls</text>\n", y0 + 12);
	for (i = 0; i < n; i++) {
		double x = W_LABEL + (ns_to_s(ic[i].start_ns) - t0) / span * W_PLOT;
		double w = fmax(ns_to_s(ic[i].dur_ns) / span * W_PLOT, 0.5);

		fprintf(f, "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"16\""
			" fill=\"%s\"><title>", x, y0, w,
			hot[i] ? "#d62728" : "#1f77b4");
		esc(f, ic[i].func);
		fprintf(f, " %.3f ms</title></rect>\n", ic[i].dur_ns / 1e6);
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
			hot[i] ? " font-weight=\"bold\" fill=\"#d62728\"" : "");
		esc(f, ic[i].func);
		/* duration right of the bar, or left of it near the edge */
		right = x + w + 4 < W_LABEL + W_PLOT - 70;
		fprintf(f, "</text>\n<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
			"height=\"%d\" fill=\"%s\"/>\n<text x=\"%.2f\" y=\"%d\" "
			"fill=\"#333\" text-anchor=\"%s\">%.3f ms%s</text>\n",
			x, y, w, ROW_H - 4, hot[i] ? "#d62728" : "#1f77b4",
			right ? x + w + 4 : x - 4, y + 10,
			right ? "start" : "end", ic[i].dur_ns / 1e6,
			ic[i].ret ? " (error)" : "");
		r++;
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#555\">time since boot "
		"(trace clock)</text>\n</svg>\n", W_LABEL, h - 10);
	free(by_dur);
	free(shown);
	free(hot);
	return 0;
}

static int bars(const struct analysis *a, FILE *f)
{
	const struct initcall *ic = a->hist_initcalls;
	size_t n = a->nhist_initcalls, *by = initcalls_by_duration(ic, n);
	size_t rows = n < MAX_ROWS ? n : MAX_ROWS, i;
	double max = n ? (double)ic[by[0]].dur_ns : 1;
	int y0 = 50, h = y0 + (int)rows * ROW_H + 30;
	char *title = xasprintf("Initcall latency from %s: the %zu longest "
				"of %zu", a->hist_initcalls_src, rows, n);

	header(f, h, title);
	free(title);
	for (i = 0; i < rows; i++) {
		const struct initcall *c = &ic[by[i]];
		int y = y0 + (int)i * ROW_H;
		double w = fmax(c->dur_ns / (max > 0 ? max : 1) * W_PLOT, 1);

		fprintf(f, "<text x=\"10\" y=\"%d\"%s>", y + 10,
			i < HOT ? " font-weight=\"bold\" fill=\"#d62728\"" : "");
		esc(f, c->func);
		fprintf(f, "</text>\n<rect x=\"%d\" y=\"%d\" width=\"%.2f\" "
			"height=\"%d\" fill=\"%s\"/>\n<text x=\"%.2f\" y=\"%d\">"
			"%" PRIu64 " us</text>\n", W_LABEL, y, w, ROW_H - 4,
			i < HOT ? "#d62728" : "#1f77b4",
			fmin(W_LABEL + w + 4, W_LABEL + W_PLOT - 60), y + 10,
			c->dur_ns / 1000);
	}
	fputs("</svg>\n", f);
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
