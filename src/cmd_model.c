/*
 * cmd_model.c: "mantis model FILE.csv": fit a performance model and print it.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "dataset.h"
#include "error.h"
#include "fit.h"
#include "manifest.h"
#include "model.h"
#include "profile.h"
#include "store.h"
#include "util.h"

#include <sys/stat.h>

/*
 * Leaves out of ds the features whose value differed between two runs of the instrumented build
 * on one input (the profile's recheck runs): a clock reading, an address or a random value fits
 * a time in-sample and predicts nothing, as mantis train rejects it. Says how many on stderr.
 */
static void drop_unstable(struct dataset *ds, struct store *st, const struct manifest *m,
			  const char *db)
{
	struct store_unstable *u = NULL;
	struct error err = {""};
	int compared, n = store_unstable_features(st, m, &u, &compared, &err), dropped = 0, first = -1;

	if (n < 0)
		die("%s", err.msg);
	for (int i = 0; i < n; i++) {
		if (dataset_drop(ds, m->v[u[i].feature].name) && dropped++ == 0)
			first = i;
	}
	if (dropped)
		fprintf(stderr, "mantis model: %d feature%s of %s left out: %s differed between two "
				"runs of the instrumented build on one input (a clock, an address or a "
				"random value), such as %s (input line %d: %.17g, then %.17g)\n",
			dropped, dropped == 1 ? "" : "s", db, dropped == 1 ? "its value" : "their values",
			m->v[u[first].feature].name, u[first].line, u[first].first, u[first].second);
	free(u);
}

/* Loads the profile of build directory dir as a dataset of metric (or the profile's default). */
static void load_profile(struct dataset *ds, const char *dir, const char *db_option,
			 const char *metric)
{
	char *db = profile_db_path(dir, db_option), *manifest_path = xasprintf("%s/features.json", dir);
	char *recorded = NULL;
	struct manifest m;
	struct store st;
	struct error err = {""};
	int excluded;

	if (access(db, F_OK) != 0)
		die("%s: no profile (run mantis profile %s --inputs FILE)", db, dir);
	if (manifest_read(&m, manifest_path, &err) < 0 || store_open(&st, db, 0, &err) < 0)
		die("%s", err.msg);
	if (!metric)
		metric = recorded = store_get_meta(&st, "metric");
	if (store_load(&st, &m, metric ? metric : "wall", ds, &excluded, &err) < 0)
		die("%s", err.msg);
	if (strcmp(ds->metric, "instructions") == 0)
		dataset_drop_prefix(ds, "bycount:"); /* they add up to the metric itself */
	drop_unstable(ds, &st, &m, db);
	if (excluded)
		fprintf(stderr, "mantis model: %d input%s of %s left out (incomplete, crashed, timed out "
				"or exited non-zero)\n", excluded, excluded == 1 ? "" : "s", db);
	store_close(&st);
	manifest_release(&m);
	free(recorded);
	free(db);
	free(manifest_path);
}

/* Splits a comma-separated list into *out (owned by the caller); returns the count. */
static int split_list(const char *list, char ***out)
{
	char *copy = xstrdup(list), *save = NULL, *tok;
	int n = 0;

	*out = NULL;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		*out = xrealloc(*out, sizeof **out * (size_t)(n + 1));
		(*out)[n++] = xstrdup(tok);
	}
	free(copy);
	return n;
}

/* Parses a number option or exits with a usage error naming it. */
static double number_arg(const char *opt, const char *arg, double lo, double hi)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || end == arg || !(v >= lo && v <= hi))
		usage_error(&cmd_model, "%s: '%s' is not a number from %g to %g", opt, arg, lo, hi);
	return v;
}

/*
 * Dies when output would replace a predictor's model (a predictor.json beside it): mantis train
 * wrote that model for the evaluator beside it, and `mantis model` run inside a predictor folder
 * would otherwise overwrite it with the default output name.
 */
static void refuse_predictor_model(const char *output)
{
	const char *slash = strrchr(output, '/');
	const char *base = slash ? slash + 1 : output;
	char *beside;
	int taken;

	if (strcmp(base, "model.json") != 0)
		return;
	beside = xasprintf("%.*spredictor.json", slash ? (int)(slash - output + 1) : 0, output);
	taken = access(beside, F_OK) == 0;
	free(beside);
	if (taken)
		die("%s is a predictor's model (predictor.json is beside it); write this one "
		    "elsewhere with -o FILE", output);
}

static void print_summary(const struct model *model, const struct prep *pr,
			  const struct dataset *ds)
{
	struct strbuf sb = {0};
	int constant = 0, alias = 0, excluded = 0;

	for (int j = 0; j < pr->p; j++) {
		constant += pr->status[j] == PREP_CONSTANT;
		alias += pr->status[j] == PREP_ALIAS;
		excluded += pr->status[j] == PREP_EXCLUDED;
	}
	model_format(model, &sb);
	printf("%s\n\n", sb.buf);
	strbuf_release(&sb);
	if (model->rate.npoints > 0) {
		printf("algorithm   rate (the %d nearest of %d training rows in %d feature%s%s%s, "
		       "chosen under leave-one-out", model->rate.k, model->rate.npoints,
		       model->rate.naxes, model->rate.naxes == 1 ? "" : "s",
		       model->rate.slope_near > 0 ? ", with a slope in the log scale" : "",
		       model_rate_has_base(&model->rate) ? ", their residuals under a base" : "");
		if (model->rate.nbag > 0)
			printf("; its log rate averaged with %d chosen on bootstraps of the rows",
			       model->rate.nbag);
		printf(")\n");
	} else {
		printf("algorithm   %s (%s least squares, degree <= %d", model->algorithm,
		       model->fit, model->degree);
		if (model->cv_folds)
			printf(", size chosen by %d-fold cross-validation", model->cv_folds);
		printf(")\n");
	}
	printf("features    %d of %d: %d constant, %d copies of others, %d excluded, %d kept\n",
	       model->nfeatures, ds->p, constant, alias, excluded, pr->k);
	for (int f = 0; f < model->nfeatures; f++) {
		int j = dataset_find(ds, model->features[f].name), printed = 0;

		printf("  %-40s [%g, %g]", model->features[f].name, model->features[f].min,
		       model->features[f].max);
		for (int a = 0; a < pr->p; a++) {
			if (pr->status[a] == PREP_ALIAS && pr->rep[a] == j)
				printf("%s%s", printed++ ? ", " : "  same as ", ds->names[a]);
		}
		putchar('\n');
	}
	printf("train MRE   %.2f%% on %d samples\n", 100 * model->train_mre, model->ntrain);
	if (model->ntest > 0)
		printf("test MRE    %.2f%% on %d samples\n", 100 * model->test_mre, model->ntest);
}

static int run_model(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"algo", required_argument, NULL, 'a'},     {"degree", required_argument, NULL, 'd'},
		{"epsilon", required_argument, NULL, 'e'},  {"metric", required_argument, NULL, 'm'},
		{"fit", required_argument, NULL, 'f'},      {"train-frac", required_argument, NULL, 't'},
		{"seed", required_argument, NULL, 's'},     {"exclude", required_argument, NULL, 'x'},
		{"max-features", required_argument, NULL, 'F'},
		{"max-terms", required_argument, NULL, 'T'}, {"output", required_argument, NULL, 'o'},
		{"json", no_argument, NULL, 'j'},           {"db", required_argument, NULL, 'D'},
		{"cv", required_argument, NULL, 'C'},
		{NULL, 0, NULL, 0},
	};
	struct fit_options fo = fit_options_default();
	const char *metric = NULL, *output = "model.json", *db_option = NULL;
	struct stat sb;
	int json = 0, opt, rc;
	struct dataset ds;
	struct model model;
	struct prep pr;
	struct error err = {""};

	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a':
			if (!fit_algorithm_known(optarg))
				usage_error(&cmd_model, "--algo: unknown algorithm '%s'", optarg);
			fo.algorithm = optarg;
			break;
		case 'd': fo.degree = (int)number_arg("--degree", optarg, 1, MODEL_MAX_DEGREE); break;
		case 'e': fo.epsilon = number_arg("--epsilon", optarg, 0, 1); break;
		case 'm': metric = optarg; break;
		case 'f':
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
				usage_error(&cmd_model, "--fit: '%s' is not relative or absolute", optarg);
			fo.relative = strcmp(optarg, "relative") == 0;
			break;
		case 't': fo.train_frac = number_arg("--train-frac", optarg, 0, 1); break;
		case 's': fo.seed = (unsigned long)number_arg("--seed", optarg, 0, 4e9); break;
		case 'x': fo.nexclude = split_list(optarg, &fo.exclude); break;
		case 'F': fo.max_features = (int)number_arg("--max-features", optarg, 1, 1e6); break;
		case 'T': fo.max_terms = (int)number_arg("--max-terms", optarg, 1, 1e6); break;
		case 'o': output = optarg; break;
		case 'j': json = 1; break;
		case 'D': db_option = optarg; break;
		case 'C': fo.cv_folds = (int)number_arg("--cv", optarg, 2, 100); break;
		case ':': usage_error(&cmd_model, "%s needs a value", argv[optind - 1]);
		default: usage_error(&cmd_model, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		usage_error(&cmd_model, argc - optind ? "give one data file" : "no data file given");
	if (strcmp(output, "-") != 0)
		refuse_predictor_model(output);
	if (stat(argv[optind], &sb) == 0 && S_ISDIR(sb.st_mode))
		load_profile(&ds, argv[optind], db_option, metric);
	else if (dataset_load_csv(&ds, argv[optind], metric, &err) < 0)
		die("%s", err.msg);
	rc = fit_model(&ds, &fo, &model, &pr, &err);
	for (int i = 0; i < fo.nexclude; i++)
		free(fo.exclude[i]);
	free(fo.exclude);
	if (rc < 0) {
		dataset_release(&ds);
		die("%s: %s", argv[optind], err.msg);
	}
	if (json) {
		rc = model_write(&model, "-", &err);
	} else {
		print_summary(&model, &pr, &ds);
	}
	if (rc == 0 && strcmp(output, "-") != 0) {
		rc = model_write(&model, output, &err);
		if (rc == 0 && !json)
			printf("wrote       %s\n", output);
	}
	model_release(&model);
	prep_release(&pr);
	dataset_release(&ds);
	if (rc < 0)
		die("%s", err.msg);
	return EXIT_OK;
}

const struct command cmd_model = {
	.name = "model",
	.summary = "fit a sparse polynomial model of a metric from feature data",
	.usage =
		"usage: mantis model DIR|FILE.csv [options]\n"
		"\n"
		"Fits metric = c0 + sum of c * monomial(features) and prints it in original units\n"
		"(or, with --algo rate, metric = size * rate).\n"
		"DIR: a build directory with a profile (mantis profile): its complete inputs; the\n"
		"features whose value differed on the profile's recheck runs (a clock, an address)\n"
		"are left out, as mantis train rejects them.\n"
		"FILE.csv: a header line, then one row per input; a first column named 'input'\n"
		"holds row names; columns wall, cpu, user, sys, maxrss, instructions are metrics,\n"
		"every other column a feature. Every cell must be a finite number.\n"
		"\n"
		"  --metric NAME       metric to model: for DIR wall, cpu, user, sys, maxrss or\n"
		"                      instructions (default: the profile's --metric, else wall;\n"
		"                      with instructions, bycount features, which add up to it,\n"
		"                      are left out);\n"
		"                      for a CSV a column (default: wall if present, else the last)\n"
		"  --db FILE           DIR's profile database (default DIR/profile.db)\n"
		"  --algo A            spore-foba (default), spore-lasso, lasso, foba, ols,\n"
		"                      linear (spore-foba with degree 1, the papers' Mantis-linear),\n"
		"                      or rate: metric = a positive feature (a file size or a\n"
		"                      script's number, input:number(K), when the data has one)\n"
		"                      times the rate (metric over it) of the 1-3\n"
		"                      training rows nearest in at most 6 features, those and k\n"
		"                      chosen by forward selection under leave-one-out (mantis\n"
		"                      train: a data file's inputs left out together), with each\n"
		"                      feature that would stand in for one chosen, and a slope\n"
		"                      in the log scale when the like rows near an input give\n"
		"                      one that errs less; a size's or number's phase (cos and\n"
		"                      sin of 2 pi log2 of it: where it lies between two powers\n"
		"                      of two, as a table that doubles costs) is a feature too;\n"
		"                      and a base: the log rate as a sum of a line through\n"
		"                      some chosen features' knots (their ends, or each of 3-12\n"
		"                      values) plus the nearest rows' residuals, when it errs\n"
		"                      less (it reads a combination no training row had);\n"
		"                      for a time (any metric but instructions), the mean of\n"
		"                      that choice's log rate and those of 16 more, each\n"
		"                      chosen alike on a bootstrap of the rows (bagging: which\n"
		"                      near-tied features a noisy time picks is itself noise);\n"
		"                      --degree, --epsilon, --fit, --cv and the limits do not\n"
		"                      apply\n"
		"  --degree D          highest total degree of a term (default 3)\n"
		"  --epsilon E         FoBa: admit a term only if it cuts the squared error by more\n"
		"                      than E times sum(w y^2) (default 1e-4)\n"
		"  --fit relative|absolute\n"
		"                      relative least squares, weights 1/y^2 (default), or plain\n"
		"  --train-frac F      share of rows to fit on; the rest give the test error\n"
		"                      (default 0.8; 1 fits on all rows)\n"
		"  --seed S            seed of the train/test split and of the folds (default 1)\n"
		"  --cv K              choose the model's size by K-fold cross-validation over the\n"
		"                      algorithm's candidates (refitted by least squares) instead\n"
		"                      of its own rule (AIC for the LASSOs, epsilon for FoBa)\n"
		"  --exclude F,G,...   features to leave out (a copy of one may stand in for it)\n"
		"  --max-features N    most distinct features in the model (default 5)\n"
		"  --max-terms N       most terms in the model (default 20)\n"
		"  -o, --output FILE   where to write the model (default model.json; - for none;\n"
		"                      refused where it would replace a predictor's model.json)\n"
		"  --json              print the model as JSON instead of the summary\n",
	.run = run_model,
};
