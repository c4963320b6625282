/*
 * cmd_report.c: "mantis report PRED [-o FILE]": a predictor's report as one self-contained
 * HTML page (src/report.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "report.h"
#include "util.h"

static int run_report(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL;
	struct error err = {""};
	char *path;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (i + 1 >= argc)
				usage_error(&cmd_report, "-o needs a file name");
			out = argv[++i];
		} else if (argv[i][0] == '-') {
			usage_error(&cmd_report, "unknown option '%s'", argv[i]);
		} else if (dir) {
			usage_error(&cmd_report, "one predictor directory only ('%s' and '%s')", dir,
				    argv[i]);
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		usage_error(&cmd_report, "give the predictor directory (made by mantis train)");
	path = out ? xstrdup(out) : xasprintf("%s/report.html", dir);
	if (report_write(dir, path, &err) < 0)
		die("%s", err.msg);
	printf("wrote %s\n", path);
	free(path);
	return EXIT_OK;
}

const struct command cmd_report = {
	.name = "report",
	.summary = "write a predictor's report: one HTML page with its model, errors and costs",
	.usage =
		"usage: mantis report PRED [-o FILE]\n"
		"\n"
		"Writes one self-contained HTML page (inline CSS and SVG, no script, no other file)\n"
		"about the predictor PRED that mantis train made:\n"
		"  - the model as a formula over feature names, and per feature its kind, function,\n"
		"    file:line, description, training range and a snippet of its source (read from\n"
		"    the folder train ran in; \"source not found\" when it is not there);\n"
		"  - predicted vs actual, an SVG scatter with the ideal line, and eval's summary,\n"
		"    from PRED/eval.json (mantis eval writes it; without it, the page says so);\n"
		"  - error vs training-set size: the model's features refitted (same algorithm and\n"
		"    degree) on the first 5, 10, 20, ... training inputs and all, each fit measured\n"
		"    on eval.json's inputs, or without eval.json on every 4th training input, held\n"
		"    out;\n"
		"  - the evaluator's cost against the threshold, and each step's time;\n"
		"  - the feedback loop's rounds (features selected, accepted, rejected and why,\n"
		"    costs) and the features rejected before slicing, from PRED/train.json.\n"
		"\n"
		"  -o FILE   write the page to FILE (default PRED/report.html)\n",
	.run = run_report,
};
