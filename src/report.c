/*
 * report.c: a predictor's report, one self-contained HTML page (Mantis 000_ Fig. 1 read back:
 * what the offline stage chose and why, and how the online stage predicts).
 *
 * Read from PRED: predictor.json, model.json and build/features.json (predictor_open), the
 * feedback loop's log train.json, the program's working folder (build/program.txt's first
 * line, where its sources are), the profile (build/profile.db) and, when mantis eval wrote it,
 * eval.json. The page, top to bottom: the model as a formula over feature names with each
 * feature's source location and a snippet of its code; predicted against actual on the eval
 * inputs (an SVG scatter with the ideal line y = x); the learning curve; the evaluator's cost;
 * the loop's rounds and its early rejections.
 *
 * The learning curve refits the final model's features alone, with the algorithm, degree, fit
 * criterion and folds model.json records, on the first k profiled training inputs (input
 * order, so it is deterministic) for k = 5, 10, 20, ... and all, and measures each fit's mean
 * relative error |E - A| / A on eval.json's samples through the feature values eval recorded;
 * without eval.json, every 4th training input is held out and the rest are the pool.
 * Invariant: every text that comes from a file (names, descriptions, source lines, arguments,
 * reasons) goes through report_escape, and the page links to nothing outside itself.
 */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "fit.h"
#include "manifest.h"
#include "model.h"
#include "predictor.h"
#include "prep.h"
#include "store.h"
#include "util.h"

enum {
	SNIPPET_CONTEXT = 3, /* source lines shown on each side of a feature's line */
	CURVE_FIRST = 5,     /* the learning curve's smallest training set */
	HOLDOUT_EVERY = 4,   /* without eval.json, every 4th training input is a test input */
	PLOT_W = 640,        /* an SVG plot's width in pixels */
	PLOT_H = 420,        /* and height */
	MARGIN_L = 84,       /* room for the y axis' tick labels and title */
	MARGIN_R = 30,       /* room for the last x tick label's right half */
	MARGIN_T = 34,       /* room for the legend, above the plot */
	LEGEND_W = 190,      /* a legend entry's width */
	MARGIN_B = 56,       /* room for the x axis' tick labels and title */
};

/* What the page is made from. */
struct report {
	const char *dir;      /* PRED */
	struct predictor p;   /* PRED opened: info, model, manifest */
	json_t *log;          /* train.json, or NULL when missing; owned */
	json_t *eval;         /* eval.json, or NULL when missing; owned */
	int eval_stale;       /* 1 if eval.json is older than model.json */
	char *workdir;        /* the program's working folder, or NULL if unknown; owned */
	struct strbuf html;   /* the page being written */
};

/* ---- HTML text ---------------------------------------------------------------------------- */

void report_escape(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': strbuf_add(sb, "&amp;", 5); break;
		case '<': strbuf_add(sb, "&lt;", 4); break;
		case '>': strbuf_add(sb, "&gt;", 4); break;
		case '"': strbuf_add(sb, "&quot;", 6); break;
		case '\'': strbuf_add(sb, "&#39;", 5); break;
		default: strbuf_addch(sb, *s);
		}
	}
}

/* Markup is appended with strbuf_addf; text from files goes through report_escape. */

/* Appends escaped text. */
static void text(struct strbuf *sb, const char *s)
{
	report_escape(sb, s ? s : "");
}

/* Returns obj[key] as a number, or NaN when it is missing or not a number. */
static double num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Returns obj[key] as a string, or NULL. */
static const char *str(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* Returns the metric's unit as the page writes it after a value ("" for counts). */
static const char *unit(const char *metric)
{
	if (strcmp(metric, "instructions") == 0)
		return "";
	if (strcmp(metric, "maxrss") == 0)
		return " KiB";
	return " s";
}

/* Appends a share as a percentage ("4.28%"), or "n/a" for NaN. */
static void percent(struct strbuf *sb, double share)
{
	if (isnan(share))
		strbuf_addf(sb, "n/a");
	else
		strbuf_addf(sb, "%.2f%%", 100 * share);
}

/* ---- SVG plots ---------------------------------------------------------------------------- */

/* A plot's data ranges, mapped onto the SVG's inner rectangle. */
struct frame {
	double x0, x1, xstep; /* x range shown and its tick spacing */
	double y0, y1, ystep; /* y range shown and its tick spacing */
};

/* Returns a tick spacing of 1, 2 or 5 times a power of ten giving about 5 ticks over span. */
static double nice_step(double span)
{
	double raw = span / 5, mag = pow(10, floor(log10(raw))), r = raw / mag;

	return (r <= 1 ? 1 : r <= 2 ? 2 : r <= 5 ? 5 : 10) * mag;
}

/* Widens [lo, hi] to whole ticks; fills *a, *b and *step. */
static void nice_range(double lo, double hi, double *a, double *b, double *step)
{
	if (!(hi > lo)) {
		double pad = lo != 0 ? fabs(lo) / 2 : 1;

		lo -= pad;
		hi += pad;
	}
	*step = nice_step(hi - lo);
	*a = floor(lo / *step) * *step;
	*b = ceil(hi / *step) * *step;
}

/* Returns the SVG x coordinate of data x. */
static double px(const struct frame *f, double x)
{
	return MARGIN_L + (x - f->x0) / (f->x1 - f->x0) * (PLOT_W - MARGIN_L - MARGIN_R);
}

/* Returns the SVG y coordinate of data y. */
static double py(const struct frame *f, double y)
{
	return PLOT_H - MARGIN_B - (y - f->y0) / (f->y1 - f->y0) * (PLOT_H - MARGIN_T - MARGIN_B);
}

/* Appends tick value v, exact to 1e-6 of step, exponents written short: "1.5e9", not
 * "1.5e+09". */
static void tick_label(struct strbuf *sb, double v, double step)
{
	char buf[32], *e;

	snprintf(buf, sizeof buf, "%g", fabs(v) < step / 1e6 ? 0 : v);
	e = strchr(buf, 'e');
	if (e) {
		char *from = e + 1, *to = e + 1;

		if (*from == '+')
			from++;
		else if (*from == '-')
			*to++ = *from++;
		while (from[0] == '0' && from[1])
			from++;
		memmove(to, from, strlen(from) + 1);
	}
	strbuf_add(sb, buf, strlen(buf));
}

/* Appends legend entry i (left to right above the plot): a line or a point of class cls. */
static void legend(struct strbuf *sb, int i, int point, const char *cls, const char *label)
{
	int x = MARGIN_L + i * LEGEND_W, y = 14;

	if (point)
		strbuf_addf(sb, "<circle cx=\"%d\" cy=\"%d\" r=\"4.5\" class=\"%s\"/>", x + 14, y, cls);
	else
		strbuf_addf(sb, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" class=\"%s\"/>", x, y, x + 28, y,
		    cls);
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\">%s</text>\n", x + 34, y + 4, label);
}

/* Opens an SVG plot: grid, ticks, tick labels and the axes' titles (escaped). */
static void svg_open(struct strbuf *sb, const struct frame *f, const char *label,
		     const char *xtitle, const char *ytitle)
{
	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	    "viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	text(sb, label);
	strbuf_addf(sb, "\">\n<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"plotarea\"/>\n",
	    MARGIN_L, MARGIN_T, PLOT_W - MARGIN_L - MARGIN_R, PLOT_H - MARGIN_T - MARGIN_B);
	for (int i = 0; f->x0 + i * f->xstep <= f->x1 + f->xstep / 1e6; i++) {
		double v = f->x0 + i * f->xstep, x = px(f, v);

		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"grid\"/>"
		    "<text x=\"%.1f\" y=\"%d\" class=\"tick\" text-anchor=\"middle\">", x, MARGIN_T, x,
		    PLOT_H - MARGIN_B, x, PLOT_H - MARGIN_B + 18);
		tick_label(sb, v, f->xstep);
		strbuf_addf(sb, "</text>\n");
	}
	for (int i = 0; f->y0 + i * f->ystep <= f->y1 + f->ystep / 1e6; i++) {
		double v = f->y0 + i * f->ystep, y = py(f, v);

		strbuf_addf(sb, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
		    "<text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">", MARGIN_L, y,
		    PLOT_W - MARGIN_R, y, MARGIN_L - 6, y + 4);
		tick_label(sb, v, f->ystep);
		strbuf_addf(sb, "</text>\n");
	}
	strbuf_addf(sb, "<text x=\"%d\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">",
	    (PLOT_W + MARGIN_L - MARGIN_R) / 2, PLOT_H - 12);
	text(sb, xtitle);
	strbuf_addf(sb, "</text>\n<text x=\"16\" y=\"%d\" class=\"axis\" text-anchor=\"middle\" "
	    "transform=\"rotate(-90 16 %d)\">", (PLOT_H + MARGIN_T - MARGIN_B) / 2,
	    (PLOT_H + MARGIN_T - MARGIN_B) / 2);
	text(sb, ytitle);
	strbuf_addf(sb, "</text>\n");
}

/* ---- reading PRED ------------------------------------------------------------------------- */

/* Returns the JSON file dir/name, NULL when it does not exist, or sets err and *bad when it
 * cannot be parsed. */
static json_t *load_json(const char *dir, const char *name, int *bad, struct error *err)
{
	char *path = xasprintf("%s/%s", dir, name);
	json_error_t je;
	json_t *root = NULL;
	struct stat st;

	if (stat(path, &st) == 0) {
		root = json_load_file(path, 0, &je);
		if (!root || !json_is_object(root)) {
			*bad = 1;
			if (root)
				error_set(err, "%s: not a JSON object", path);
			else
				error_set(err, "%s:%d:%d: %s", path, je.line, je.column, je.text);
			json_decref(root);
			root = NULL;
		}
	}
	free(path);
	return root;
}

/* Returns whether dir/a was modified before dir/b (both existing). */
static int older(const char *dir, const char *a, const char *b)
{
	char *pa = xasprintf("%s/%s", dir, a), *pb = xasprintf("%s/%s", dir, b);
	struct stat sa, sb;
	int rc = stat(pa, &sa) == 0 && stat(pb, &sb) == 0 &&
		 (sa.st_mtim.tv_sec < sb.st_mtim.tv_sec ||
		  (sa.st_mtim.tv_sec == sb.st_mtim.tv_sec && sa.st_mtim.tv_nsec < sb.st_mtim.tv_nsec));

	free(pa);
	free(pb);
	return rc;
}

/* Returns the first line of dir/build/program.txt (the folder train ran in), or NULL; owned. */
static char *working_folder(const char *dir)
{
	char *path = xasprintf("%s/build/program.txt", dir), *all, *nl;
	struct error ignored;

	all = read_file(path, NULL, "", &ignored);
	free(path);
	if (!all)
		return NULL;
	nl = strchr(all, '\n');
	if (nl)
		*nl = '\0';
	if (!*all) {
		free(all);
		return NULL;
	}
	return all;
}

/* Opens everything the page is made from. Returns 0 or -1 with err set. */
static int report_open(struct report *r, const char *dir, struct error *err)
{
	int bad = 0;

	memset(r, 0, sizeof *r);
	r->dir = dir;
	if (predictor_open(&r->p, dir, err) < 0)
		return -1;
	r->log = load_json(dir, "train.json", &bad, err);
	if (!bad)
		r->eval = load_json(dir, "eval.json", &bad, err);
	if (bad)
		return -1;
	r->eval_stale = r->eval && older(dir, "eval.json", "model.json");
	r->workdir = working_folder(dir);
	return 0;
}

/* Frees what r owns. */
static void report_release(struct report *r)
{
	predictor_release(&r->p);
	json_decref(r->log);
	json_decref(r->eval);
	free(r->workdir);
	strbuf_release(&r->html);
}

/* ---- the page's head and overview --------------------------------------------------------- */

static const char css[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;"
	"color:#1d232b;background:#fff;margin:0 auto;max-width:1100px;padding:16px 28px}\n"
	"h1{font-size:26px;margin:8px 0 4px}h2{font-size:20px;margin:28px 0 8px;"
	"border-bottom:2px solid #d8dee6;padding-bottom:3px}h3{font-size:16px;margin:18px 0 6px}\n"
	"code,pre{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:13px}\n"
	".formula{background:#f3f6fa;border:1px solid #d8dee6;border-radius:6px;padding:10px 14px;"
	"font-size:15px;overflow-wrap:anywhere}\n"
	"table{border-collapse:collapse;margin:6px 0 10px}td,th{border:1px solid #d8dee6;"
	"padding:3px 8px;text-align:left;vertical-align:top}th{background:#f3f6fa;white-space:nowrap}\n"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	".feature{border:1px solid #d8dee6;border-radius:6px;padding:4px 14px 10px;margin:10px 0}\n"
	"pre.src{background:#f8f9fb;border:1px solid #e3e7ec;padding:6px 0;overflow-x:auto;"
	"tab-size:4;margin:6px 0}\n"
	"pre.src span{display:block;padding:0 10px}pre.src span.hit{background:#fff1b8}\n"
	"pre.src i{color:#8a94a0;font-style:normal;display:inline-block;width:3.5em}\n"
	".note{color:#5a6572}.warn{color:#9a3b00}.ok{color:#1f7a35}.bad{color:#b3261e}\n"
	"svg{display:block;margin:6px 0}svg text{font:12px system-ui,Helvetica,Arial,sans-serif;"
	"fill:#1d232b}svg .axis{font-size:13px}\n"
	"svg .plotarea{fill:#fbfcfd;stroke:#9aa4b0}svg .grid{stroke:#e6eaef}"
	"svg .ideal{stroke:#8a94a0;stroke-dasharray:6 4;stroke-width:1.5}"
	"svg .band{stroke:#c9a227;stroke-dasharray:2 3;stroke-width:1.2}"
	"svg .point{fill:#2763c4;fill-opacity:.75;stroke:#fff;stroke-width:.8}"
	"svg .curve{fill:none;stroke:#2763c4;stroke-width:2}"
	"svg .ref{stroke:#c4452b;stroke-dasharray:5 4;stroke-width:1.5}"
	"svg .noise{stroke:#1f7a35;stroke-dasharray:2 4;stroke-width:1.5}\n"
	"nav a{margin-right:14px}\n";

/* Appends the page's head, title and table of contents. */
static void page_head(struct report *r)
{
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	    "<title>mantis report: ");
	text(sb, r->dir);
	strbuf_addf(sb, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>mantis report: ", css);
	text(sb, r->dir);
	strbuf_addf(sb, "</h1>\n<nav><a href=\"#model\">model</a><a href=\"#accuracy\">predicted vs "
	    "actual</a><a href=\"#curve\">error vs training-set size</a><a href=\"#cost\">cost"
	    "</a><a href=\"#log\">feedback loop</a></nav>\n");
}

/* Appends the overview: program, inputs, metric, what was trained. */
static void overview(struct report *r)
{
	struct strbuf *sb = &r->html;
	const json_t *program = json_object_get(r->log, "program"), *word;
	size_t i;

	strbuf_addf(sb, "<table id=\"overview\">\n<tr><th>program</th><td><code>");
	json_array_foreach(program, i, word) {
		if (i)
			strbuf_addf(sb, " ");
		text(sb, json_string_value(word));
	}
	strbuf_addf(sb, "</code></td></tr>\n<tr><th>working folder</th><td><code>");
	text(sb, r->workdir ? r->workdir : "unknown (no build/program.txt)");
	strbuf_addf(sb, "</code></td></tr>\n<tr><th>training inputs</th><td><code>");
	text(sb, str(r->log, "inputs") ? str(r->log, "inputs") : "unknown (no train.json)");
	strbuf_addf(sb, "</code> (%d complete)</td></tr>\n<tr><th>metric</th><td>", r->p.info.ntrain);
	text(sb, r->p.info.metric);
	strbuf_addf(sb, "</td></tr>\n<tr><th>model</th><td>");
	if (r->p.model.rate.npoints > 0) {
		const struct model_rate *per = r->p.model.rate.per_count;

		strbuf_addf(sb, "a rate: the size times the rate%s of the %d nearest of %d training "
			    "inputs in %d feature%s", per ? " of instructions" : "", r->p.model.rate.k,
			    r->p.model.rate.npoints, r->p.model.rate.naxes,
			    r->p.model.rate.naxes == 1 ? "" : "s");
		if (per)
			strbuf_addf(sb, ", times the metric an instruction of the %d nearest in %d "
				    "feature%s", per->k, per->naxes, per->naxes == 1 ? "" : "s");
	} else {
		text(sb, r->p.model.algorithm);
		strbuf_addf(sb, ", degree &le; %d, ", r->p.model.degree);
		text(sb, r->p.model.fit ? r->p.model.fit : "?");
		strbuf_addf(sb, " fit, %d term%s over %d feature%s", r->p.model.nterms,
			    r->p.model.nterms == 1 ? "" : "s", r->p.model.nfeatures,
			    r->p.model.nfeatures == 1 ? "" : "s");
		if (r->p.model.rate.per_count)
			strbuf_addf(sb, ", of the instructions, times the metric an instruction of the "
				    "%d nearest training inputs in %d feature%s",
				    r->p.model.rate.per_count->k, r->p.model.rate.per_count->naxes,
				    r->p.model.rate.per_count->naxes == 1 ? "" : "s");
	}
	strbuf_addf(sb, "</td></tr>\n<tr><th>feedback loop</th><td>%d round%s</td></tr>\n"
		    "</table>\n", r->p.info.iterations, r->p.info.iterations == 1 ? "" : "s");
}

/* ---- the model ---------------------------------------------------------------------------- */

/* Appends rate's features, each linked to its description, and the closing parenthesis. */
static void rate_axes(struct report *r, const struct model_rate *rate)
{
	struct strbuf *sb = &r->html;

	for (int j = 0; j < rate->naxes; j++) {
		strbuf_addf(sb, "%s%s<a href=\"#feature-%d\">", j ? ", " : "",
			    model_axis_prefix(&rate->axes[j]), rate->axes[j].feature + 1);
		text(sb, r->p.model.features[rate->axes[j].feature].name);
		strbuf_addf(sb, "</a>");
	}
	strbuf_addf(sb, ")");
}

/* Appends how rate is read off the training inputs: the model's rate (per_count 0; of the
 * instructions over the scale when it goes through them) or its rate of the metric an
 * instruction (per_count 1). */
static void rate_how(struct report *r, const struct model_rate *rate, int per_count)
{
	struct strbuf *sb = &r->html;

	if (per_count) {
		strbuf_addf(sb, "<p>The rate of the metric an instruction (its value over the "
			    "instruction count, both measured in training)");
	} else {
		strbuf_addf(sb, "<p>The rate of the %s over <code>", rate->per_count ?
			    "instructions" : "metric");
		text(sb, r->p.model.features[rate->scale].name);
		strbuf_addf(sb, "</code>");
	}
	strbuf_addf(sb, " is the geometric mean of the rates of the %d training "
		    "input%s nearest the input (and every other as near) in the standardized "
		    "feature%s of its parentheses, of the %d it was fitted on", rate->k,
		    rate->k == 1 ? "" : "s", rate->naxes == 1 ? "" : "s", rate->npoints);
	if (rate->slope_near > 0) {
		strbuf_addf(sb, ", each moved to the input's <code>");
		text(sb, r->p.model.features[rate->scale].name);
		strbuf_addf(sb, "</code> along the rate's slope in its log: the slope through the "
			    "pairs of the %d training inputs nearest that are alike in the features "
			    "and not in it (sloped in log ", rate->slope_near);
		text(sb, r->p.model.features[rate->scale].name);
		strbuf_addf(sb, " by the %d nearest)", rate->slope_near);
	}
	for (int j = 0, first = 1; j < rate->naxes; j++) {
		if (rate->axes[j].nknots == 0)
			continue;
		strbuf_addf(sb, "%s<code>", first ? "; those rates are the residuals under a base, "
			    "a sum of a line through some features' knots (it reads a combination "
			    "of them no training input had), which is added at the input: " : ", ");
		text(sb, r->p.model.features[rate->axes[j].feature].name);
		strbuf_addf(sb, "</code> (%d knots)", rate->axes[j].nknots);
		first = 0;
	}
	if (rate->nbag > 0)
		strbuf_addf(sb, ". Its log is averaged with those of %d other choices, each of the "
			    "features, neighbours, slope and base made on a bootstrap of the training "
			    "inputs and read off all of them (bagging: where features nearly tie, "
			    "which one a measured time picks is itself noise)", rate->nbag);
	strbuf_addf(sb, ".</p>\n");
}

/* Appends a rate model's right-hand side (model_format's), each feature linked to its
 * description, closes the formula's paragraph and says how each rate is read. */
static void rate_formula(struct report *r)
{
	const struct model_rate *rate = &r->p.model.rate;
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, " = <a href=\"#feature-%d\">", rate->scale + 1);
	text(sb, r->p.model.features[rate->scale].name);
	strbuf_addf(sb, "</a> &times; rate(");
	rate_axes(r, rate);
	if (rate->per_count) {
		strbuf_addf(sb, " [instructions] &times; rate(");
		rate_axes(r, rate->per_count);
		strbuf_addf(sb, " [");
		text(sb, r->p.model.metric);
		strbuf_addf(sb, " an instruction]");
	}
	strbuf_addf(sb, "</code></p>\n");
	rate_how(r, rate, 0);
	if (rate->per_count)
		rate_how(r, rate->per_count, 1);
}

/* Appends the model as a formula over feature names, each linked to its description. */
static void formula(struct report *r)
{
	const struct model *m = &r->p.model;
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, "<p class=\"formula\" id=\"formula\"><code>");
	text(sb, m->metric);
	if (m->rate.npoints > 0) {
		rate_formula(r);
		return;
	}
	strbuf_addf(sb, " = %s%.4g", m->rate.per_count ? "(" : "", m->intercept);
	for (int t = 0; t < m->nterms; t++) {
		const struct model_term *term = &m->terms[t];

		strbuf_addf(sb, " %s %.4g", term->coef < 0 ? "&minus;" : "+", fabs(term->coef));
		for (int i = 0; i < term->m.nf; i++) {
			strbuf_addf(sb, " &times; <a href=\"#feature-%d\">", term->m.feat[i] + 1);
			text(sb, m->features[term->m.feat[i]].name);
			strbuf_addf(sb, "</a>");
			if (term->m.pow[i] > 1)
				strbuf_addf(sb, "<sup>%d</sup>", term->m.pow[i]);
		}
	}
	if (m->rate.per_count) {
		strbuf_addf(sb, ") [instructions] &times; rate(");
		rate_axes(r, m->rate.per_count);
		strbuf_addf(sb, " [");
		text(sb, m->metric);
		strbuf_addf(sb, " an instruction]");
	}
	strbuf_addf(sb, "</code></p>\n");
	if (m->rate.per_count)
		rate_how(r, m->rate.per_count, 1);
}

/* Appends lines [line - SNIPPET_CONTEXT, line + SNIPPET_CONTEXT] of src, line marked. Returns
 * 0, or -1 if src has fewer than line lines. */
static int source_lines(struct strbuf *sb, const char *src, int line)
{
	const char *p = src;
	int n = 1, shown = 0;

	strbuf_addf(sb, "<pre class=\"src\">");
	for (; *p && n <= line + SNIPPET_CONTEXT; n++) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (n >= line - SNIPPET_CONTEXT) {
			char *one = xmalloc(len + 1);

			memcpy(one, p, len);
			one[len] = '\0';
			strbuf_addf(sb, "<span%s><i>%d</i>", n == line ? " class=\"hit\"" : "", n);
			text(sb, one);
			strbuf_addf(sb, "</span>");
			free(one);
			shown += n == line;
		}
		p = end ? end + 1 : p + len;
	}
	strbuf_addf(sb, "</pre>\n");
	return shown ? 0 : -1;
}

/* Appends a snippet of f's source, or says why there is none. */
static void snippet(struct report *r, const struct feature *f)
{
	struct strbuf *sb = &r->html, code = {0};
	char *path = NULL, *src = NULL;
	struct error ignored;

	if (f->line > 0 && strcmp(f->file, "?") != 0 && strcmp(f->file, "-") != 0) {
		path = f->file[0] == '/' ? xstrdup(f->file)
		       : r->workdir ? xasprintf("%s/%s", r->workdir, f->file) : NULL;
		src = path ? read_file(path, NULL, "", &ignored) : NULL;
	}
	if (src && source_lines(&code, src, f->line) == 0) {
		strbuf_add(sb, code.buf, code.len);
	} else {
		strbuf_addf(sb, "<p class=\"note\">source not found");
		if (path) {
			strbuf_addf(sb, " (");
			text(sb, path);
			strbuf_addf(sb, src ? " has no line %d)" : " cannot be read)", f->line);
		} else {
			strbuf_addf(sb, f->line > 0 ? " (the program's working folder is unknown)"
					    : " (the feature has no source line)");
		}
		strbuf_addf(sb, "</p>\n");
	}
	strbuf_release(&code);
	free(path);
	free(src);
}

/* Appends one row "<tr><th>key</th><td>escaped value</td></tr>". */
static void row(struct strbuf *sb, const char *key, const char *value)
{
	strbuf_addf(sb, "<tr><th>%s</th><td>", key);
	text(sb, value);
	strbuf_addf(sb, "</td></tr>\n");
}

/* Appends the description of model feature i: where it is, what it counts, its range. */
static void feature_card(struct report *r, int i)
{
	const struct model_feature *mf = &r->p.model.features[i];
	int sampled = r->p.sampled[i] >= 0;
	const struct feature *f = r->p.feature[i] >= 0 ? &r->p.m.v[r->p.feature[i]]
				  : sampled ? &r->p.m.v[r->p.sampled[i]] : NULL;
	struct strbuf *sb = &r->html;
	char *where = f ? xasprintf("%s:%d", f->file, f->line) : NULL;
	char *what = f ? NULL : descriptor_describe(r->p.model.features[i].name);

	strbuf_addf(sb, "<div class=\"feature\" id=\"feature-%d\">\n<h3>", i + 1);
	text(sb, mf->name);
	strbuf_addf(sb, "</h3>\n<table>\n");
	row(sb, "kind", f ? f->kind : "input");
	if (sampled) {
		enum sampler_way way = sampler_way_of(mf->name);
		char *how = xasprintf("counted on two samples of the input's files (%.3g%% of them, "
				      "at least %ld KiB, and 1/%d of that), %s",
				      100 * r->p.info.plan.fraction,
				      sampler_least(&r->p.info.plan) / 1024,
				      sampler_smaller(&r->p.info.plan),
				      way == SAMPLER_LINE ? "extrapolated to the whole files"
				      : way == SAMPLER_QUADRATIC
					      ? "extrapolated to the whole files along the parabola "
						"through the two and the origin"
					      : "as it is on the larger sample");

		row(sb, "measured", how);
		free(how);
	}
	if (f) {
		row(sb, "function", f->function);
		row(sb, "location", where);
	} else {
		row(sb, "location", "the command line (no evaluator: it is read off the input)");
	}
	if (f && f->variable)
		row(sb, "variable", f->variable);
	row(sb, "description", f ? f->description : what);
	strbuf_addf(sb, "<tr><th>training range</th><td>%.6g to %.6g</td></tr>\n", mf->min, mf->max);
	if (mf->naliases > 0) {
		strbuf_addf(sb, "<tr><th>exact copies</th><td>");
		for (int a = 0; a < mf->naliases; a++) {
			strbuf_addf(sb, a ? ", " : "");
			text(sb, mf->aliases[a].name);
		}
		strbuf_addf(sb, "</td></tr>\n");
	}
	strbuf_addf(sb, "</table>\n");
	if (f)
		snippet(r, f);
	strbuf_addf(sb, "</div>\n");
	free(where);
	free(what);
}

/* Appends a sentence on the model's interval (model.h), if it has one. */
static void interval_sentence(struct report *r)
{
	const struct model_interval *iv = &r->p.model.interval;

	if (!(iv->level > 0))
		return;
	strbuf_addf(&r->html, " On the training inputs, each held out in turn (cross-validation), "
		    "%.0f%% of the actual values lay within %.3gx ", 100 * iv->level, iv->low);
	if (isfinite(iv->high))
		strbuf_addf(&r->html, "to %.3gx the prediction", iv->high);
	else
		strbuf_addf(&r->html, "the prediction or above it");
	strbuf_addf(&r->html, ": <span id=\"interval\">mantis predict gives that interval</span>.");
}

/* Appends the model section. */
static void model_section(struct report *r)
{
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, "<h2 id=\"model\">The model</h2>\n");
	formula(r);
	if (r->p.gated)
		strbuf_addf(sb, "<p id=\"gate\">A gate: on an input this model predicts at %g or more, "
			    "the model of PRED/%s predicts instead, on features of the input's "
			    "samples (trained on the %d training inputs this model predicts so, "
			    "where the samples cost little beside the program's run; its own page: "
			    "<code>mantis report PRED/%s</code>).</p>\n", r->p.info.gate,
			    PREDICTOR_GATED, r->p.gated->model.ntrain, PREDICTOR_GATED);
	if (r->p.model.nfeatures == 0) {
		strbuf_addf(sb, "<p>A constant: no feature was accepted, so the prediction is the median of the "
		    "training metric, and there is no evaluator.</p>\n");
		return;
	}
	strbuf_addf(sb, "<p>Mean relative error on the %d training inputs: ", r->p.model.ntrain);
	percent(sb, r->p.model.train_mre);
	strbuf_addf(sb, ".");
	interval_sentence(r);
	strbuf_addf(sb, " Each feature, where it is in the program and what it counts:</p>\n");
	for (int i = 0; i < r->p.model.nfeatures; i++)
		feature_card(r, i);
}

/* ---- predicted vs actual ------------------------------------------------------------------ */

/* Returns an axis title: what, the metric and its unit, e.g. "actual wall (s)"; owned. */
static char *axis_title(const char *what, const char *metric)
{
	const char *u = unit(metric);

	return *u ? xasprintf("%s %s (%s)", what, metric, u + 1) : xasprintf("%s %s", what, metric);
}

/* Returns whether an eval.json sample has an actual and a predicted value. */
static int compared(const json_t *s)
{
	return json_is_true(json_object_get(s, "ok")) && isfinite(num(s, "actual")) &&
	       isfinite(num(s, "predicted"));
}

/* Appends eval.json's summary. */
static void eval_summary(struct report *r)
{
	const json_t *s = json_object_get(r->eval, "summary"), *drift, *failed, *f;
	struct strbuf *sb = &r->html;
	static const char *const shares[][2] = {
		{"mre", "mean relative error |A &minus; E| / A"}, {"median_re", "median relative error"},
		{"max_re", "largest relative error"}, {"lt15", "inputs within 15% (LT15)"},
		{"lt30", "inputs within 30% (LT30)"},
		{"predict_cost", "prediction cost (evaluator time / program time)"},
		{"noise_floor", "noise floor (two measurements of A)"},
	};
	size_t i;

	strbuf_addf(sb, "<table id=\"eval-summary\">\n<tr><th>inputs compared</th><td class=\"n\">%.0f</td>"
	    "</tr>\n", num(s, "n"));
	for (i = 0; i < sizeof shares / sizeof *shares; i++) {
		strbuf_addf(sb, "<tr><th>%s</th><td class=\"n\">", shares[i][1]);
		percent(sb, num(s, shares[i][0]));
		strbuf_addf(sb, "</td></tr>\n");
	}
	if (isfinite(num(s, "ratio")))
		strbuf_addf(sb, "<tr><th>median of actual / predicted</th><td class=\"n\">%.3fx</td>"
		    "</tr>\n", num(s, "ratio"));
	if (isfinite(num(s, "interval_coverage")))
		strbuf_addf(sb, "<tr><th>actual values inside the %.0f%% interval</th><td class=\"n\">"
		    "%.0f%%</td></tr>\n", 100 * num(s, "interval_level"),
		    100 * num(s, "interval_coverage"));
	if (json_is_object(drift = json_object_get(s, "drift"))) {
		strbuf_addf(sb, "<tr><th>machine drift (training inputs re-timed / their profiled "
		    "value)</th><td class=\"n\">%.3fx (%.3fx to %.3fx)</td></tr>\n",
		    num(drift, "median"), num(drift, "low"), num(drift, "high"));
		strbuf_addf(sb, "<tr><th>mean relative error, each prediction times the drift</th>"
		    "<td class=\"n\">");
		percent(sb, num(drift, "mre"));
		strbuf_addf(sb, "</td></tr>\n<tr><th>median of actual / (predicted times the "
		    "drift)</th><td class=\"n\">%.3fx</td></tr>\n", num(drift, "ratio"));
	}
	if (isfinite(num(s, "out_of_range")))
		strbuf_addf(sb, "<tr><th>inputs predict warned about (a feature outside its "
		    "training range, or the model at zero or less)</th>"
		    "<td class=\"n\">%.0f</td></tr>\n", num(s, "out_of_range"));
	strbuf_addf(sb, "</table>\n");
	failed = json_object_get(s, "failed");
	json_array_foreach(failed, i, f) {
		strbuf_addf(sb, "<p class=\"warn\">input line %.0f: no comparison: ", num(f, "line"));
		text(sb, str(f, "reason"));
		strbuf_addf(sb, "</p>\n");
	}
}

/* Appends, for a model with an interval, its edges: an input lies inside when its actual
 * value a is within [low, high] times the prediction, i.e. between the lines predicted =
 * a / high and predicted = a / low (each cut where it leaves the frame). */
static void band(struct report *r, const struct frame *f)
{
	const struct model_interval *iv = &r->p.model.interval;
	double slope[2] = {iv->low > 0 ? 1 / iv->low : NAN, 1 / iv->high};

	if (!(iv->level > 0))
		return;
	for (int k = 0; k < 2; k++) {
		double x1 = f->x1;

		if (!isfinite(slope[k]) || slope[k] <= 0)
			continue;
		if (x1 * slope[k] > f->y1)
			x1 = f->y1 / slope[k];
		strbuf_addf(&r->html, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			    "class=\"band\"/>\n", px(f, 0), py(f, 0), px(f, x1), py(f, x1 * slope[k]));
	}
}

/* Appends the SVG scatter of predicted against actual, with the ideal line. */
static void scatter(struct report *r, const json_t *samples)
{
	const char *metric = r->p.info.metric;
	char *xt = axis_title("actual", metric), *yt = axis_title("predicted", metric);
	struct strbuf *sb = &r->html;
	double lo = INFINITY, hi = -INFINITY;
	const json_t *s;
	struct frame f;
	size_t i;

	json_array_foreach(samples, i, s) {
		if (!compared(s))
			continue;
		lo = fmin(lo, fmin(num(s, "actual"), num(s, "predicted")));
		hi = fmax(hi, fmax(num(s, "actual"), num(s, "predicted")));
	}
	nice_range(lo >= 0 ? 0 : lo, hi, &f.x0, &f.x1, &f.xstep);
	f.y0 = f.x0, f.y1 = f.x1, f.ystep = f.xstep;
	svg_open(sb, &f, "predicted against actual", xt, yt);
	strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ideal\"/>\n",
	    px(&f, f.x0), py(&f, f.y0), px(&f, f.x1), py(&f, f.y1));
	band(r, &f);
	json_array_foreach(samples, i, s) {
		double a = num(s, "actual"), e = num(s, "predicted");

		if (!compared(s))
			continue;
		strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" class=\"point\"><title>line %.0f: ",
		    px(&f, a), py(&f, e), num(s, "line"));
		text(sb, str(s, "args"));
		strbuf_addf(sb, "; actual %.4g, predicted %.4g</title></circle>\n", a, e);
	}
	legend(sb, 0, 0, "ideal", "ideal: predicted = actual");
	legend(sb, 1, 1, "point", "an input of eval.json");
	if (r->p.model.interval.level > 0) {
		char *what = xasprintf("%.0f%% interval's edges", 100 * r->p.model.interval.level);

		legend(sb, 2, 0, "band", what);
		free(what);
	}
	strbuf_addf(sb, "</svg>\n");
	free(xt);
	free(yt);
}

/* Appends every sample of eval.json as a table row (folded). */
static void sample_table(struct report *r, const json_t *samples)
{
	struct strbuf *sb = &r->html;
	const json_t *s;
	size_t i;

	strbuf_addf(sb, "<details><summary>every input (%zu)</summary>\n<table id=\"samples\">\n<tr><th>line"
	    "</th><th>arguments</th><th>actual</th><th>predicted</th><th>error</th><th>cost</th>"
	    "</tr>\n", json_array_size(samples));
	json_array_foreach(samples, i, s) {
		double a = num(s, "actual"), e = num(s, "predicted");

		strbuf_addf(sb, "<tr><td class=\"n\">%.0f</td><td><code>", num(s, "line"));
		text(sb, str(s, "args"));
		if (!compared(s)) {
			strbuf_addf(sb, "</code></td><td colspan=\"4\" class=\"warn\">");
			text(sb, str(s, "why") ? str(s, "why") : "not compared");
			strbuf_addf(sb, "</td></tr>\n");
			continue;
		}
		strbuf_addf(sb, "</code></td><td class=\"n\">%.4g</td><td class=\"n\">%.4g</td><td class=\"n\">",
		    a, e);
		percent(sb, fabs(e - a) / fabs(a));
		strbuf_addf(sb, "</td><td class=\"n\">");
		percent(sb, num(s, "cost"));
		strbuf_addf(sb, "</td></tr>\n");
	}
	strbuf_addf(sb, "</table>\n</details>\n");
}

/* Appends the predicted-vs-actual section. */
static void accuracy_section(struct report *r)
{
	struct strbuf *sb = &r->html;
	const json_t *samples = json_object_get(r->eval, "samples"), *s;
	size_t i, n = 0;

	strbuf_addf(sb, "<h2 id=\"accuracy\">Predicted vs actual</h2>\n");
	if (!r->eval) {
		strbuf_addf(sb, "<p class=\"note\" id=\"no-eval\">No eval.json: run <code>mantis eval ");
		text(sb, r->dir);
		strbuf_addf(sb, " --inputs FILE</code> to see predicted vs actual.</p>\n");
		return;
	}
	strbuf_addf(sb, "<p>From eval.json: ");
	text(sb, str(r->eval, "inputs") ? str(r->eval, "inputs") : "(inputs file not recorded)");
	if (str(r->eval, "date")) {
		strbuf_addf(sb, ", ");
		text(sb, str(r->eval, "date"));
	}
	strbuf_addf(sb, ". A is the actual value, E the prediction.</p>\n");
	if (r->eval_stale)
		strbuf_addf(sb, "<p class=\"warn\">eval.json is older than model.json: it measured an earlier "
		    "model; run mantis eval again.</p>\n");
	eval_summary(r);
	json_array_foreach(samples, i, s)
		n += compared(s);
	if (n == 0)
		strbuf_addf(sb, "<p class=\"warn\">eval.json has no input with both an actual and a predicted "
		    "value.</p>\n");
	else
		scatter(r, samples);
	sample_table(r, samples);
}

/* ---- error against training-set size ------------------------------------------------------ */

/* Refits on pool's first k rows; fills pt with the fit's error on test (every row). */
static void refit(const struct dataset *pool, int k, const struct fit_options *fo,
		  const struct dataset *test, struct curve_point *pt)
{
	struct dataset first = *pool; /* a view of the first k rows: names, ids and y shared */
	struct model m;
	struct prep pr;
	struct error e = {""};
	int *rows = xcalloc((size_t)test->n + 1, sizeof *rows);

	first.n = k;
	first.x = xcalloc((size_t)k * (size_t)pool->p + 1, sizeof *first.x);
	for (int j = 0; j < pool->p; j++)
		memcpy(first.x + (size_t)j * (size_t)k, pool->x + (size_t)j * (size_t)pool->n,
		       sizeof *first.x * (size_t)k);
	for (int i = 0; i < test->n; i++)
		rows[i] = i;
	pt->k = k;
	pt->mre = NAN;
	if (fit_model(&first, fo, &m, &pr, &e) == 0) {
		pt->mre = fit_mre(&m, test, rows, test->n);
		model_release(&m);
		prep_release(&pr);
	} else {
		pt->failure = xstrdup(e.msg);
	}
	free(first.x);
	free(rows);
}

int report_curve(const struct model *final, const struct dataset *pool, const struct dataset *test,
		 struct curve *out, struct error *err)
{
	struct fit_options fo = fit_options_default();

	memset(out, 0, sizeof *out);
	if (final->nfeatures == 0 || !fit_algorithm_known(final->algorithm))
		return error_set(err, "the model is a constant (algorithm %s): there is nothing to "
				 "refit", final->algorithm);
	if (test->n == 0)
		return error_set(err, "no test samples to measure the refitted models on");
	fo.algorithm = final->algorithm;
	fo.degree = final->degree;
	fo.relative = !final->fit || strcmp(final->fit, "absolute") != 0;
	fo.cv_folds = final->cv_folds;
	fo.train_frac = 1;
	out->v = xcalloc(32, sizeof *out->v); /* k doubles from 5: 32 points pass 2^31 samples */
	for (int k = CURVE_FIRST;; k *= 2) {
		int size = k < pool->n ? k : pool->n;

		refit(pool, size, &fo, test, &out->v[out->n++]);
		if (size == pool->n)
			break;
	}
	return 0;
}

void curve_release(struct curve *c)
{
	for (int i = 0; i < c->n; i++)
		free(c->v[i].failure);
	free(c->v);
	memset(c, 0, sizeof *c);
}

/* Makes ds a dataset of n rows over model's features (names copied), values zero. */
static void dataset_alloc(struct dataset *ds, const struct model *model, int n)
{
	memset(ds, 0, sizeof *ds);
	ds->n = n;
	ds->p = model->nfeatures;
	ds->names = xcalloc((size_t)ds->p + 1, sizeof *ds->names);
	for (int j = 0; j < ds->p; j++)
		ds->names[j] = xstrdup(model->features[j].name);
	ds->x = xcalloc((size_t)n * (size_t)ds->p + 1, sizeof *ds->x);
	ds->y = xcalloc((size_t)n + 1, sizeof *ds->y);
	ds->ids = xcalloc((size_t)n + 1, sizeof *ds->ids);
	ds->metric = xstrdup(model->metric);
}

/*
 * Fills pool (and, when held is not NULL, *held: every HOLDOUT_EVERY-th input) with the
 * profiled training inputs, in input order, their feature values computed from the counters.
 * Returns 0 or -1 with err set.
 */
static int training_rows(struct report *r, struct dataset *pool, struct dataset *held,
			 struct error *err)
{
	struct predictor_training tr;
	int np = 0, nh = 0;
	double *values;

	if (predictor_training_load(&r->p, 0, &tr, err) < 0)
		return -1;
	for (int k = 0; k < tr.s.n; k++)
		nh += held && k % HOLDOUT_EVERY == HOLDOUT_EVERY - 1;
	dataset_alloc(pool, &r->p.model, tr.s.n - nh);
	if (held)
		dataset_alloc(held, &r->p.model, nh);
	values = xcalloc((size_t)r->p.model.nfeatures + 1, sizeof *values);
	for (int k = 0; k < tr.s.n; k++) {
		int out = held && k % HOLDOUT_EVERY == HOLDOUT_EVERY - 1;
		struct dataset *ds = out ? held : pool;
		int i = out ? k / HOLDOUT_EVERY : np++;

		predictor_values(&r->p, tr.input ? tr.input[k] : NULL, tr.s.counters[k],
				 tr.sampled ? &tr.sampled[k] : NULL, values);
		for (int j = 0; j < ds->p; j++)
			ds->x[(size_t)j * (size_t)ds->n + (size_t)i] = values[j];
		ds->y[i] = tr.s.metric[k];
		ds->ids[i] = xasprintf("line %d", tr.s.line[k]);
	}
	free(values);
	predictor_training_release(&tr);
	return 0;
}

/* Returns whether eval.json sample s can test a refit: compared, a positive actual value, and
 * a finite value of every model feature. */
static int usable(const struct model *model, const json_t *s)
{
	const json_t *features = json_object_get(s, "features");

	if (!compared(s) || !(num(s, "actual") > 0))
		return 0;
	for (int j = 0; j < model->nfeatures; j++) {
		if (!isfinite(num(features, model->features[j].name)))
			return 0;
	}
	return 1;
}

/* Fills test with eval.json's usable samples (see usable). Returns how many were left out. */
static int eval_rows(struct report *r, struct dataset *test)
{
	const json_t *samples = json_object_get(r->eval, "samples"), *s;
	const struct model *model = &r->p.model;
	size_t k;
	int n = 0, i = 0;

	json_array_foreach(samples, k, s)
		n += usable(model, s);
	dataset_alloc(test, model, n);
	json_array_foreach(samples, k, s) {
		const json_t *features = json_object_get(s, "features");

		if (!usable(model, s))
			continue;
		for (int j = 0; j < model->nfeatures; j++)
			test->x[(size_t)j * (size_t)n + (size_t)i] =
				num(features, model->features[j].name);
		test->y[i] = num(s, "actual");
		test->ids[i++] = xasprintf("line %.0f", num(s, "line"));
	}
	return (int)json_array_size(samples) - n;
}

/* Appends the learning curve's SVG: MRE (%) against k, with the final model's error and the
 * noise floor (NaN: not drawn) as dashed lines. */
static void curve_plot(struct report *r, const struct curve *c, double final_mre, double noise)
{
	struct strbuf *sb = &r->html;
	double top = fmax(isnan(final_mre) ? 0 : final_mre, isnan(noise) ? 0 : noise);
	const char *sep = "";
	struct frame f;

	for (int i = 0; i < c->n; i++)
		top = isnan(c->v[i].mre) ? top : fmax(top, c->v[i].mre);
	nice_range(0, c->v[c->n - 1].k, &f.x0, &f.x1, &f.xstep);
	nice_range(0, 100 * top, &f.y0, &f.y1, &f.ystep);
	svg_open(sb, &f, "error against training-set size", "training inputs of the refit (k)",
		 "mean relative error (%)");
	if (!isnan(final_mre))
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"ref\"/>\n",
		    px(&f, f.x0), py(&f, 100 * final_mre), px(&f, f.x1), py(&f, 100 * final_mre));
	if (!isnan(noise))
		strbuf_addf(sb, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"noise\"/>\n",
		    px(&f, f.x0), py(&f, 100 * noise), px(&f, f.x1), py(&f, 100 * noise));
	strbuf_addf(sb, "<polyline class=\"curve\" points=\"");
	for (int i = 0; i < c->n; i++) {
		if (isnan(c->v[i].mre))
			continue;
		strbuf_addf(sb, "%s%.1f,%.1f", sep, px(&f, c->v[i].k), py(&f, 100 * c->v[i].mre));
		sep = " ";
	}
	strbuf_addf(sb, "\"/>\n");
	for (int i = 0; i < c->n; i++) {
		if (!isnan(c->v[i].mre))
			strbuf_addf(sb, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" class=\"point\"><title>k = %d: "
			    "%.2f%%</title></circle>\n", px(&f, c->v[i].k), py(&f, 100 * c->v[i].mre),
			    c->v[i].k, 100 * c->v[i].mre);
	}
	legend(sb, 0, 0, "curve", "refitted on the first k");
	if (!isnan(final_mre))
		legend(sb, 1, 0, "ref", "the final model");
	if (!isnan(noise))
		legend(sb, 2, 0, "noise", "noise floor");
	strbuf_addf(sb, "</svg>\n");
}

/* Appends the curve's table: k, error or why the fit failed. */
static void curve_table(struct report *r, const struct curve *c)
{
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, "<table id=\"curve-table\">\n<tr><th>k</th><th>mean relative error</th></tr>\n");
	for (int i = 0; i < c->n; i++) {
		strbuf_addf(sb, "<tr><td class=\"n\">%d</td><td%s>", c->v[i].k,
		    c->v[i].failure ? " class=\"warn\"" : " class=\"n\"");
		if (c->v[i].failure) {
			strbuf_addf(sb, "no fit: ");
			text(sb, c->v[i].failure);
		} else {
			percent(sb, c->v[i].mre);
		}
		strbuf_addf(sb, "</td></tr>\n");
	}
	strbuf_addf(sb, "</table>\n");
}

/* Appends how the test samples were chosen. */
static void curve_source(struct report *r, const struct dataset *pool, const struct dataset *test,
			 int left_out)
{
	struct strbuf *sb = &r->html;

	strbuf_addf(sb, "<p id=\"curve-method\">The final model's %d feature%s refitted (", r->p.model.nfeatures,
	    r->p.model.nfeatures == 1 ? "" : "s");
	text(sb, r->p.model.algorithm);
	strbuf_addf(sb, ", degree &le; %d) on the first k of %d training inputs (in input order), each fit's "
	    "mean relative error measured on ", r->p.model.degree, pool->n);
	if (r->eval) {
		strbuf_addf(sb, "the %d inputs of eval.json (through the feature values eval recorded)", test->n);
		if (left_out)
			strbuf_addf(sb, "; %d input%s of eval.json without an actual value or a model feature "
			    "left out", left_out, left_out == 1 ? "" : "s");
		strbuf_addf(sb, ".</p>\n");
		return;
	}
	strbuf_addf(sb, "<span class=\"warn\">held-out training inputs</span>, as there is no eval.json: "
	    "every %dth training input (%d: ", HOLDOUT_EVERY, test->n);
	for (int i = 0; i < test->n; i++) {
		strbuf_addf(sb, i ? ", " : "");
		text(sb, test->ids[i]);
	}
	strbuf_addf(sb, "). The final model was fitted on them too.</p>\n");
}

/* Appends the error-against-training-set-size section. */
static void curve_section(struct report *r)
{
	struct strbuf *sb = &r->html;
	struct dataset pool = {0}, test = {0};
	struct curve c = {0};
	struct error err = {""};
	int left_out = 0, rc;

	strbuf_addf(sb, "<h2 id=\"curve\">Error vs training-set size</h2>\n");
	if (r->p.model.nfeatures == 0) {
		strbuf_addf(sb, "<p class=\"note\">The model is a constant: there is nothing to refit.</p>\n");
		return;
	}
	rc = training_rows(r, &pool, r->eval ? NULL : &test, &err);
	if (rc == 0 && r->eval)
		left_out = eval_rows(r, &test);
	if (rc == 0)
		rc = report_curve(&r->p.model, &pool, &test, &c, &err);
	if (rc < 0) {
		strbuf_addf(sb, "<p class=\"warn\">No learning curve: ");
		text(sb, err.msg);
		strbuf_addf(sb, "</p>\n");
	} else {
		int *rows = xcalloc((size_t)test.n + 1, sizeof *rows), fitted = 0;

		for (int i = 0; i < test.n; i++)
			rows[i] = i;
		for (int i = 0; i < c.n; i++)
			fitted += !isnan(c.v[i].mre);
		curve_source(r, &pool, &test, left_out);
		if (fitted)
			curve_plot(r, &c, fit_mre(&r->p.model, &test, rows, test.n),
				   num(json_object_get(r->eval, "summary"), "noise_floor"));
		curve_table(r, &c);
		free(rows);
	}
	curve_release(&c);
	dataset_release(&pool);
	dataset_release(&test);
}

/* ---- cost --------------------------------------------------------------------------------- */

/* Appends a horizontal bar of the evaluator's cost against the threshold (shares). */
static void cost_bar(struct strbuf *sb, double cost, double threshold)
{
	double top = fmax(fmax(cost, threshold) * 1.25, 1e-9), w = 560, x0 = 10;
	double cw = w * cost / top, tx = x0 + w * threshold / top;

	strbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"56\" role=\"img\" "
	    "aria-label=\"evaluator cost against the threshold\">\n<rect x=\"%.1f\" y=\"8\" "
	    "width=\"%.1f\" height=\"22\" fill=\"%s\"/>\n<line x1=\"%.1f\" y1=\"2\" x2=\"%.1f\" "
	    "y2=\"36\" stroke=\"#b3261e\" stroke-width=\"2\"/>\n<text x=\"%.1f\" y=\"50\">cost ",
	    x0, cw, cost <= threshold ? "#2f8f4a" : "#c4452b", tx, tx, x0);
	percent(sb, cost);
	strbuf_addf(sb, "</text><text x=\"%.1f\" y=\"50\" text-anchor=\"middle\">threshold ", tx);
	percent(sb, threshold);
	strbuf_addf(sb, "</text>\n</svg>\n");
}

/* Appends the cost section: the evaluator's cost, its size, the offline stage's times. */
static void cost_section(struct report *r)
{
	struct strbuf *sb = &r->html;
	const json_t *fin = json_object_get(r->log, "final"), *secs = json_object_get(r->log, "seconds");
	const json_t *v;
	const char *step;
	char *pieces;

	strbuf_addf(sb, "<h2 id=\"cost\">Cost of the evaluator</h2>\n");
	if (r->p.nsampled > 0) {
		strbuf_addf(sb, "<p id=\"sampled-line\">The sampled features are counted by %s on "
		    "two samples of the input's files (", r->p.info.sampled_program &&
		    strcmp(r->p.info.sampled_program, "sampled-evaluator") == 0
		    ? "PRED/sampled-evaluator (the program sliced down to the features they "
		      "extrapolate)" : "PRED/build/sandboxed (the instrumented program)");
		percent(sb, r->p.info.plan.fraction);
		pieces = sampler_pieces(r->p.info.plan.chunks);
		strbuf_addf(sb, " of them, at least %ld KiB, %s, and 1/%d of that), at <b>",
			    sampler_least(&r->p.info.plan) / 1024, pieces,
			    sampler_smaller(&r->p.info.plan));
		free(pieces);
		percent(sb, r->p.info.sampled_cost);
		strbuf_addf(sb, "</b> of the program's time on the training inputs; the cost below "
		    "counts them.</p>\n");
	}
	if (!r->p.info.has_evaluator && r->p.nsampled > 0) {
		strbuf_addf(sb, "<p>No evaluator: the model reads input features and sampled ones; "
		    "a prediction costs the sampled runs, ");
		percent(sb, r->p.info.cost);
		strbuf_addf(sb, " of the program's time on the training inputs.</p>\n");
		cost_bar(sb, r->p.info.cost, r->p.info.threshold);
	} else if (!r->p.info.has_evaluator) {
		strbuf_addf(sb, "<p>No evaluator: the model reads %s, a prediction costs next to "
		    "nothing.</p>\n", r->p.model.nfeatures ? "only input features (read off the "
		    "command line)" : "no feature");
	} else {
		strbuf_addf(sb, "<p id=\"cost-line\">The evaluator (PRED/evaluator, the program sliced down to "
		    "the model's features) costs <b>");
		percent(sb, r->p.info.cost);
		strbuf_addf(sb, "</b> of the program's time on the training inputs (predictor.json "
		    "<code>cost</code>); the threshold was ");
		percent(sb, r->p.info.threshold);
		strbuf_addf(sb, ".");
		if (fin && num(fin, "total") > 0)
			strbuf_addf(sb, " It keeps %.0f of the program's %.0f instructions, and %s on %.0f "
			    "training inputs.", num(fin, "kept"), num(fin, "total"),
			    json_is_true(json_object_get(fin, "validated"))
				    ? "computed the profiled feature values" : "was NOT validated",
			    num(fin, "inputs"));
		if (r->eval) {
			strbuf_addf(sb, " On the inputs of eval.json: ");
			percent(sb, num(json_object_get(r->eval, "summary"), "predict_cost"));
			strbuf_addf(sb, ".");
		}
		strbuf_addf(sb, "</p>\n");
		cost_bar(sb, r->p.info.cost, r->p.info.threshold);
	}
	if (!json_object_size(secs))
		return;
	strbuf_addf(sb, "<p>The offline stage (mantis train), seconds per step:</p>\n<table id=\"steps\">\n");
	json_object_foreach((json_t *)secs, step, v) {
		strbuf_addf(sb, "<tr><th>");
		text(sb, step);
		strbuf_addf(sb, "</th><td class=\"n\">%.2f</td></tr>\n", json_number_value(v));
	}
	strbuf_addf(sb, "</table>\n");
}

/* ---- the feedback loop -------------------------------------------------------------------- */

/* Appends one round's decisions as a table. */
static void decisions(struct strbuf *sb, const json_t *decs)
{
	const json_t *d;
	size_t i;

	strbuf_addf(sb, "<table class=\"decisions\">\n<tr><th>feature</th><th>decision</th><th>validated"
	    "</th><th>cost</th><th>inputs</th><th>slice (instructions)</th><th>why</th></tr>\n");
	json_array_foreach(decs, i, d) {
		int ok = json_is_true(json_object_get(d, "accepted"));

		strbuf_addf(sb, "<tr><td><code>");
		text(sb, str(d, "name"));
		strbuf_addf(sb, "</code></td><td class=\"%s\">%s</td><td>%s</td><td class=\"n\">",
		    ok ? "ok" : "bad", ok ? "accepted" : "rejected",
		    json_is_true(json_object_get(d, "validated")) ? "yes" : "no");
		percent(sb, num(d, "cost"));
		strbuf_addf(sb, "</td><td class=\"n\">%.0f</td><td class=\"n\">", num(d, "inputs"));
		if (num(d, "total") > 0)
			strbuf_addf(sb, "%.0f of %.0f", num(d, "kept"), num(d, "total"));
		else
			strbuf_addf(sb, "not sliced");
		strbuf_addf(sb, "</td><td>");
		text(sb, str(d, "reason"));
		strbuf_addf(sb, "</td></tr>\n");
	}
	strbuf_addf(sb, "</table>\n");
}

/* Appends the features rejected before the loop (the screen and the estimate). */
static void early_rejections(struct strbuf *sb, const json_t *early)
{
	const json_t *d;
	size_t i;

	strbuf_addf(sb, "<h3 id=\"early\">Rejected before slicing: %zu feature%s</h3>\n",
	    json_array_size(early), json_array_size(early) == 1 ? "" : "s");
	if (!json_array_size(early)) {
		strbuf_addf(sb, "<p class=\"note\">none (or train.json predates this record)</p>\n");
		return;
	}
	strbuf_addf(sb, "<p>Their counters alone (the screen), or their slice's estimated cost, exceed the "
	    "threshold: no evaluator was built for them.</p>\n<details><summary>the %zu "
	    "features</summary>\n<table>\n<tr><th>feature</th><th>cost (lower bound or estimate)"
	    "</th><th>why</th></tr>\n", json_array_size(early));
	json_array_foreach(early, i, d) {
		strbuf_addf(sb, "<tr><td><code>");
		text(sb, str(d, "name"));
		strbuf_addf(sb, "</code></td><td class=\"n\">");
		percent(sb, num(d, "cost"));
		strbuf_addf(sb, "</td><td>");
		text(sb, str(d, "reason"));
		strbuf_addf(sb, "</td></tr>\n");
	}
	strbuf_addf(sb, "</table>\n</details>\n");
}

/* Returns the final choice's words for train.json's kind of candidate (static). */
static const char *candidate_label(const char *features)
{
	if (features && strcmp(features, "input") == 0)
		return "the input features alone";
	if (features && strcmp(features, "rate") == 0)
		return "the input features' rate";
	if (features && strcmp(features, "rate-instructions") == 0)
		return "the input features' rate through the instruction count";
	if (features && strcmp(features, "exact") == 0)
		return "the program's exact features (no sampled ones)";
	if (features && strcmp(features, "exact-instructions") == 0)
		return "the program's exact features through the instruction count";
	if (features && strcmp(features, "program-instructions") == 0)
		return "the program's features through the instruction count";
	return "the program's features";
}

/* Appends the final choice (train.json's "choice"): every candidate's cross-validated error and
 * which was written; nothing when there was no choice to make (or train.json predates it). */
static void choice_table(struct strbuf *sb, const json_t *choice)
{
	const json_t *c;
	size_t i;

	if (!json_array_size(json_object_get(choice, "candidates")))
		return;
	strbuf_addf(sb, "<h3 id=\"choice\">The final choice</h3>\n<p>Each candidate is fitted and "
	    "cross-validated on the training inputs (5 folds); the simplest whose error is within one "
	    "standard error of the best is written: the input features alone (no evaluator), then "
	    "their rate (through the instruction count first), before the program's exact features "
	    "(no sampled runs) before all the program's, a lower degree before a higher.</p>\n"
	    "<table class=\"choice\">\n<tr>"
	    "<th>features</th><th>degree</th><th>cross-validated error</th><th>over the best</th>"
	    "<th>standard error</th><th></th></tr>\n");
	json_array_foreach(json_object_get(choice, "candidates"), i, c) {
		const char *features = str(c, "features");
		int written = features && str(choice, "chosen") &&
			      strcmp(features, str(choice, "chosen")) == 0 &&
			      num(c, "degree") == num(choice, "degree");

		strbuf_addf(sb, "<tr><td>%s</td><td class=\"n\">%.0f</td><td class=\"n\">",
		    candidate_label(features),
		    num(c, "degree"));
		percent(sb, num(c, "cv"));
		strbuf_addf(sb, "</td><td class=\"n\">%+.2f points</td><td class=\"n\">%.2f points"
		    "</td><td class=\"%s\">%s</td></tr>\n", 100 * num(c, "difference"),
		    100 * num(c, "standard_error"), written ? "ok" : "", written ? "written" : "");
	}
	strbuf_addf(sb, "</table>\n");
}

/* Appends the feedback loop's log from train.json. */
static void log_section(struct report *r)
{
	struct strbuf *sb = &r->html;
	const json_t *its = json_object_get(r->log, "iterations"), *it, *fin;
	size_t i;

	strbuf_addf(sb, "<h2 id=\"log\">The feedback loop</h2>\n");
	if (!r->log) {
		strbuf_addf(sb, "<p class=\"warn\">No train.json: the log is missing.</p>\n");
		return;
	}
	strbuf_addf(sb, "<p>Each round fits the model without the rejected features, slices the features "
	    "it reads that are not decided yet, and accepts those whose evaluator computes the "
	    "profiled values at a cost within the threshold.</p>\n");
	json_array_foreach(its, i, it) {
		strbuf_addf(sb, "<h3 id=\"round-%zu\">Round %.0f%s</h3>\n<p><code>", i + 1,
			    num(it, "iteration"), json_is_true(json_object_get(it, "exact"))
			    ? " (again without sampled features)" : "");
		text(sb, str(it, "model"));
		strbuf_addf(sb, "</code> (training error ");
		percent(sb, num(it, "train_mre"));
		strbuf_addf(sb, ")</p>\n");
		if (json_array_size(json_object_get(it, "decisions")))
			decisions(sb, json_object_get(it, "decisions"));
		else
			strbuf_addf(sb, "<p class=\"note\">nothing left to decide: every feature of this model "
			    "was decided in an earlier round</p>\n");
	}
	fin = json_object_get(r->log, "final");
	if (str(fin, "model")) {
		strbuf_addf(sb, "<p id=\"final\">Final: <code>");
		text(sb, str(fin, "model"));
		strbuf_addf(sb, "</code></p>\n");
	}
	choice_table(sb, json_object_get(r->log, "choice"));
	early_rejections(sb, json_object_get(r->log, "rejected_before_slicing"));
}

/* ---- the page ----------------------------------------------------------------------------- */

int report_write(const char *dir, const char *path, struct error *err)
{
	struct report r;
	int rc;

	if (report_open(&r, dir, err) < 0) {
		report_release(&r);
		return -1;
	}
	page_head(&r);
	overview(&r);
	model_section(&r);
	accuracy_section(&r);
	curve_section(&r);
	cost_section(&r);
	log_section(&r);
	strbuf_addf(&r.html, "<p class=\"note\">Made by mantis %s report from ", MANTIS_VERSION);
	text(&r.html, dir);
	strbuf_addf(&r.html, ".</p>\n</body>\n</html>\n");
	rc = write_file(path, r.html.buf, r.html.len, err);
	report_release(&r);
	return rc;
}
