/*
 * cmd_export.c: "mantis export DIR": the profile as a table, one row per complete input.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dataset.h"
#include "error.h"
#include "manifest.h"
#include "profile.h"
#include "store.h"
#include "util.h"

/* Writes s as a CSV field (quoted when it holds a comma, quote or newline). */
static void csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static int run_export(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"csv", no_argument, NULL, 'c'},       {"json", no_argument, NULL, 'j'},
		{"db", required_argument, NULL, 'd'},  {"output", required_argument, NULL, 'o'},
		{NULL, 0, NULL, 0},
	};
	static const char *const metrics[] = {"wall", "cpu", "user", "sys", "maxrss", "instructions"};
	struct dataset ds[6];
	int nmetrics = 0, json = 0, opt, excluded = 0;
	const char *db_option = NULL, *output = NULL;
	char *db, *manifest_path;
	struct manifest m;
	struct store st;
	struct error err = {""};
	FILE *out = stdout;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c': json = 0; break;
		case 'j': json = 1; break;
		case 'd': db_option = optarg; break;
		case 'o': output = optarg; break;
		default: usage_error(&cmd_export, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		usage_error(&cmd_export, "give one build directory");
	db = profile_db_path(argv[optind], db_option);
	manifest_path = xasprintf("%s/features.json", argv[optind]);
	if (access(db, F_OK) != 0)
		die("%s: no profile (run mantis profile %s --inputs FILE)", db, argv[optind]);
	if (manifest_read(&m, manifest_path, &err) < 0 || store_open(&st, db, 0, &err) < 0)
		die("%s", err.msg);
	for (size_t k = 0; k < sizeof metrics / sizeof *metrics; k++) {
		if (strcmp(metrics[k], "instructions") == 0 && manifest_find(&m, MANIFEST_INSTRUCTIONS) < 0)
			continue;
		if (store_load(&st, &m, metrics[k], &ds[nmetrics], &excluded, &err) < 0)
			die("%s", err.msg);
		nmetrics++;
	}
	store_close(&st);
	if (excluded)
		fprintf(stderr, "mantis export: %d input%s left out (incomplete, crashed, timed out or "
				"exited non-zero; see mantis profile %s --status)\n", excluded,
			excluded == 1 ? "" : "s", argv[optind]);
	if (output && !(out = fopen(output, "w")))
		die("cannot write %s", output);
	if (json) {
		json_t *rows = json_array();

		for (int i = 0; i < ds[0].n; i++) {
			json_t *row = json_object(), *mv = json_object(), *fv = json_object();

			json_object_set_new(row, "input", json_string(ds[0].ids[i]));
			for (int k = 0; k < nmetrics; k++)
				json_object_set_new(mv, ds[k].metric, json_real(ds[k].y[i]));
			for (int f = 0; f < ds[0].p; f++)
				json_object_set_new(fv, ds[0].names[f], json_real(ds[0].x[(size_t)f * (size_t)ds[0].n + (size_t)i]));
			json_object_set_new(row, "metrics", mv);
			json_object_set_new(row, "features", fv);
			json_array_append_new(rows, row);
		}
		json_t *root = json_pack("{s:o}", "inputs", rows);

		json_dumpf(root, out, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		json_decref(root);
		fputc('\n', out);
	} else {
		fputs("input", out);
		for (int k = 0; k < nmetrics; k++)
			fprintf(out, ",%s", ds[k].metric);
		for (int f = 0; f < ds[0].p; f++) {
			fputc(',', out);
			csv_field(out, ds[0].names[f]);
		}
		fputc('\n', out);
		for (int i = 0; i < ds[0].n; i++) {
			csv_field(out, ds[0].ids[i]);
			for (int k = 0; k < nmetrics; k++)
				fprintf(out, ",%.17g", ds[k].y[i]);
			for (int f = 0; f < ds[0].p; f++)
				fprintf(out, ",%.17g", ds[0].x[(size_t)f * (size_t)ds[0].n + (size_t)i]);
			fputc('\n', out);
		}
	}
	if (out != stdout && fclose(out) != 0)
		die("cannot write %s", output);
	for (int k = 0; k < nmetrics; k++)
		dataset_release(&ds[k]);
	manifest_release(&m);
	free(db);
	free(manifest_path);
	return EXIT_OK;
}

const struct command cmd_export = {
	.name = "export",
	.summary = "write a profile as CSV or JSON, one row per complete input",
	.usage =
		"usage: mantis export DIR [--csv | --json] [--db FILE] [-o FILE]\n"
		"\n"
		"One row per input whose runs all finished well: the input, its metrics (wall, cpu,\n"
		"user, sys: the median of the timing runs, in seconds, each run divided by the\n"
		"machine's speed of the moment where 'mantis profile DIR --status' says a time\n"
		"model trains on the divided times; maxrss in KiB; instructions when the bycount\n"
		"scheme is on) and every feature of DIR/features.json, by name.\n"
		"The CSV is what 'mantis model FILE.csv' reads.\n"
		"\n"
		"  --csv         comma-separated values, a header line first (default)\n"
		"  --json        {\"inputs\": [{\"input\", \"metrics\": {...}, \"features\": {...}}]}\n"
		"  --db FILE     the database (default DIR/profile.db)\n"
		"  -o FILE       write there instead of stdout\n",
	.run = run_export,
};
