/*
 * cmd_train.c: "mantis train -o PRED --inputs FILE PROGRAM...": the offline stage end to end
 * (train.c), resumable.
 *
 * Train's own options are taken out of the command line wherever they are; every other word
 * is the program, as mantis instrument takes it (sources, bitcode or a program built with
 * mantis cc, and -I, -D, -l, -O2, --schemes...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "cli.h"
#include "error.h"
#include "model.h"
#include "train.h"
#include "util.h"

/* Parses a number option or exits with a usage error naming it. */
static double number_arg(const char *opt, const char *arg, double lo, double hi)
{
	char *end;
	double v = arg ? strtod(arg, &end) : 0;

	if (!arg)
		usage_error(&cmd_train, "%s needs a value", opt);
	if (*end || end == arg || !(v >= lo && v <= hi))
		usage_error(&cmd_train, "%s: '%s' is not a number from %g to %g", opt, arg, lo, hi);
	return v;
}

/* Returns whether metric is one the profile records. */
static int metric_known(const char *metric)
{
	static const char *const known[] = {"wall", "cpu", "user", "sys", "maxrss", "instructions"};

	for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
		if (strcmp(metric, known[i]) == 0)
			return 1;
	}
	return 0;
}

/*
 * Takes train's option at argv[*i] (and its value) into *o; returns 0 if argv[*i] is not one
 * of train's options.
 */
static int train_option(struct train_options *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;

	if (strcmp(a, "--fresh") == 0) {
		o->fresh = 1;
		return 1;
	}
	if (strcmp(a, "--quiet") == 0) {
		o->log = NULL;
		return 1;
	}
	if (strcmp(a, "--no-input-features") == 0) {
		o->input_features = 0;
		return 1;
	}
	if (strcmp(a, "--in-process") == 0) {
		o->in_process = 1;
		return 1;
	}
	if (strcmp(a, "-o") && strcmp(a, "--output") && strcmp(a, "--inputs") &&
	    strcmp(a, "--threshold") && strcmp(a, "--algo") && strcmp(a, "--degree") &&
	    strcmp(a, "--metric") && strcmp(a, "--repeat") && strcmp(a, "-j") &&
	    strcmp(a, "--timeout") && strcmp(a, "--max-iterations") && strcmp(a, "--select") &&
	    strcmp(a, "--target") && strcmp(a, "--max-inputs") && strcmp(a, "--sample") &&
	    strcmp(a, "--ok-exit"))
		return 0;
	if (!v)
		usage_error(&cmd_train, "%s needs a value", a);
	++*i;
	if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)
		o->dir = v;
	else if (strcmp(a, "--inputs") == 0)
		o->inputs = v;
	else if (strcmp(a, "--threshold") == 0)
		o->threshold = number_arg(a, v, 0, 100);
	else if (strcmp(a, "--degree") == 0)
		o->fit.degree = (int)number_arg(a, v, 1, MODEL_MAX_DEGREE);
	else if (strcmp(a, "--repeat") == 0)
		o->repeat = (int)number_arg(a, v, 1, 100);
	else if (strcmp(a, "-j") == 0)
		o->jobs = (int)number_arg(a, v, 1, 64);
	else if (strcmp(a, "--timeout") == 0)
		o->timeout = number_arg(a, v, 0, 1e6);
	else if (strcmp(a, "--max-iterations") == 0)
		o->max_iterations = (int)number_arg(a, v, 1, 1000);
	else if (strcmp(a, "--target") == 0)
		o->select_target = number_arg(a, v, 0, 100);
	else if (strcmp(a, "--sample") == 0)
		o->sample_fraction = number_arg(a, v, 0, 0.5);
	else if (strcmp(a, "--max-inputs") == 0)
		o->select_max = (int)number_arg(a, v, 5, 1e9);
	else if (strcmp(a, "--ok-exit") == 0)
		cli_ok_exits(&cmd_train, v);
	else if (strcmp(a, "--select") == 0) {
		if (strcmp(v, "all") && strcmp(v, "adaptive"))
			usage_error(&cmd_train, "--select: '%s' is not all or adaptive", v);
		o->select_adaptive = strcmp(v, "adaptive") == 0;
	}
	else if (strcmp(a, "--algo") == 0) {
		if (!fit_algorithm_known(v))
			usage_error(&cmd_train, "--algo: unknown algorithm '%s'", v);
		if (strcmp(v, "rate") == 0)
			usage_error(&cmd_train, "--algo: rate is not the loop's learner (the final "
				    "choice weighs the input features' rate by itself)");
		o->fit.algorithm = v;
		if (strcmp(v, "linear") == 0)
			o->fit.degree = 1;
	} else {
		if (!metric_known(v))
			usage_error(&cmd_train, "--metric: '%s' is not wall, cpu, user, sys, maxrss or "
				    "instructions", v);
		o->metric = v;
	}
	return 1;
}

static int run_train(int argc, char **argv)
{
	struct train_options o = train_options_default();
	char **words = xcalloc((size_t)argc + 1, sizeof *words), *mantisrt, *sandbox, *slicert;
	char *inproc, *host;
	struct build_args args;
	struct error err = {""};
	int nwords = 0;

	o.log = stdout;
	for (int i = 1; i < argc; i++) {
		if (!train_option(&o, argc, argv, &i))
			words[nwords++] = argv[i];
	}
	if (!o.dir)
		usage_error(&cmd_train, "no predictor directory (-o PRED)");
	if (!o.inputs)
		usage_error(&cmd_train, "no training inputs (--inputs FILE)");
	if (build_args_parse(&args, words, nwords, &err) < 0) {
		if (args.usage)
			usage_error(&cmd_train, "%s", err.msg);
		die("%s", err.msg);
	}
	mantisrt = cli_runtime_file("mantisrt.o");
	sandbox = cli_runtime_file("sandbox.o");
	slicert = cli_runtime_file("slicert.o");
	inproc = cli_runtime_file("inproc.o");
	host = cli_sibling("mantis-host");
	args.opt.runtime = mantisrt;
	args.opt.sandbox = sandbox;
	o.build = &args.opt;
	o.words = words;
	o.nwords = nwords;
	o.slicert = slicert;
	o.inproc = inproc;
	o.host = host;
	if (o.in_process && !host)
		die("--in-process: no mantis-host beside mantis, which hosts the evaluators");
	if (train_run(&o, &err) < 0)
		die("%s", err.msg);
	if (o.log)
		printf("wrote %s: predict with mantis predict %s -- ARGS...\n", o.dir, o.dir);
	build_args_release(&args);
	free(mantisrt);
	free(sandbox);
	free(slicert);
	free(inproc);
	free(host);
	free(words);
	return EXIT_OK;
}

const struct command cmd_train = {
	.name = "train",
	.summary = "train a predictor: instrument, profile, model, slice, reject expensive features",
	.usage =
		"usage: mantis train -o PRED --inputs FILE [options] PROGRAM...\n"
		"\n"
		"PROGRAM is what mantis instrument takes: C sources with their -I, -D, -l flags, one\n"
		"bitcode file, or a program built with CC=\"mantis cc\"; -O0..-O3 and --schemes too.\n"
		"Instruments it into PRED/build, profiles it on the inputs, fits a sparse polynomial of\n"
		"its features and of the inputs' own (numeric arguments and the sizes of the files they\n"
		"name, and the largest one's content, from 64 KiB of it: input:entropy(data),\n"
		"input:repeats(data), input:newlines(data); input:number(K), the K-th number of\n"
		"its script, its first text file of at most 64 KiB: an SQL query's row count; and\n"
		"input:word(W), 1 when the word W,\n"
		"a flag or a pattern some inputs have, is an argument; input:field(u16be@163), the\n"
		"number at a fixed byte of the largest file that one of the program's first values\n"
		"copies on every training input, a header field; input features, read at no\n"
		"cost), and builds for each chosen program feature an evaluator (an executable\n"
		"slice). Where the input names a\n"
		"file of 4 KiB and more, it also offers sampled features: every feature counted\n"
		"by PRED/build/sandboxed (the instrumented program, which changes no file) on two\n"
		"samples of the file (a share of it and a quarter of that, in 8 pieces spread over the\n"
		"file, as a prefix or, for a text file, a line at a time: one line every 1/share of\n"
		"it, the smaller sample every fourth of those; of --sample, half and a quarter of it,\n"
		"or --sample raised to 64\n"
		"or 256 KiB with the smaller sample a quarter or a half, the smallest whose runs cost\n"
		"at most 1.5x the threshold (the threshold where one extrapolates within 2%) and\n"
		"whose instruction count extrapolates within one\n"
		"standard error of the best way's on the training inputs; of one share, the pieces\n"
		"unless the prefix extrapolates better beyond it; a line at a time only where it\n"
		"extrapolates best), extrapolated to the whole\n"
		"file along the line through the two (sampled:NAME), each count also along the\n"
		"parabola through the two and the origin where that errs less than half as much on\n"
		"the training inputs (sampled-quadratic:NAME), and each\n"
		"mean, first value or exit also as it is on the larger sample (sampled-larger:NAME);\n"
		"a text file's pieces hold whole lines:\n"
		"what the file's content costs, at the cost of the two runs. None when the program\n"
		"fails on a sample or the runs cost more than the threshold; when the sampled\n"
		"features judged mostly cost more, it is sampled again more cheaply (in a smaller\n"
		"share of the file where they were judged in process).\n"
		"A feature whose evaluator costs more than the threshold, or\n"
		"computes another value than profiled on some input, is rejected and the model is\n"
		"fitted again without it, until every feature it reads is cheap and validated. Last,\n"
		"the input features alone, the exact program features (when the model reads sampled\n"
		"ones, the loop runs again without them; its model is a candidate if it costs less)\n"
		"and all the model's program features, each at degrees 1..D, and the input features'\n"
		"rate (a file size or a script's number times the rate, metric over it, of the 1-3\n"
		"training inputs nearest in a few of them chosen by cross-validation: mantis model\n"
		"--algo rate; for a time whose profile counted the instructions, also through them:\n"
		"the instructions a unit of the inputs nearest in some features times the time an\n"
		"instruction of those nearest in others; and the program's candidates through them\n"
		"too: their polynomial of the instructions times that time an instruction; a\n"
		"time's rate bagged) are\n"
		"cross-validated (5 folds; on 40 inputs or more, a program candidate's features\n"
		"chosen again in each fold as the loop chose them; inputs whose\n"
		"largest file is the same file are held out together, when there are 5 such files\n"
		"or more), and the simplest within one standard error of the best (of their paired\n"
		"difference, each error counted up to 100% there) is kept (input\n"
		"before rate, through the instructions first, before exact before sampled, lower\n"
		"degree before higher, the program's through the instructions last);\n",
	.usage_more =
		"the spread of its held-out errors there is the interval mantis predict gives\n"
		"(model.json \"interval\": 90% of the training inputs, or of their files when they\n"
		"share them, or what fewer than 19 can bound). When the samples cost over the\n"
		"threshold and the model reads input features alone, a gate: the\n"
		"training inputs the model predicts highest (at least 12, not all), as many as keep\n"
		"the samples' runs (in the way kept, else in the cheapest way tried) at most the\n"
		"threshold on average and on the 5 least of them, train\n"
		"a second predictor, PRED/long (the same build; no gate of its own), kept when its\n"
		"model reads sampled or program features and errs less on those inputs, held out,\n"
		"than the first by more than a standard error of the difference; mantis predict\n"
		"runs it on an input the\n"
		"model predicts at or above the gate (predictor.json \"gate\": halfway between the\n"
		"last input let through and the first kept out), and the model alone below; the\n"
		"gate is then widened over the inputs below it (5 or more) where PRED/long's\n"
		"predictions cost at most the threshold and, held out, err less than the first\n"
		"model by more than a standard error. A sampled model is gated alike, the best model\n"
		"without samples below, where its runs cost over the threshold on the inputs that\n"
		"one predicts lowest and it errs no less there, held out, by a standard error; and a\n"
		"model of the program's features where the samples cost over the threshold: the best\n"
		"model without samples or evaluator orders the inputs, and the pair (PRED/long above,\n"
		"that model below) replaces it where it errs less over all the training inputs, held\n"
		"out, by more than a standard error (train.json choice \"replaced\"). Writes\n"
		"PRED/model.json, PRED/features.json (the build's features the predictor reads),\n"
		"PRED/instructions.json (for --metric instructions: the count eval measures),\n"
		"PRED/evaluator (computes the model's program features; none when it reads only\n"
		"input features, or sampled ones and program features equal to a multiple of a value\n"
		"the larger sample reads, such as a block size the arguments set, which are read\n"
		"there), PRED/evaluator.so (its shared-object form, which runs in its caller's\n"
		"process: validated on the training inputs as mantis-host runs it, its cost recorded\n"
		"in predictor.json's \"in_process\"; mantis serve runs it), PRED/sampled-evaluator\n"
		"(the slice of the features the\n"
		"sampled ones extrapolate, run on the samples when it computes what the sandboxed\n"
		"program counts there and costs less; its shared-object form, sampled-evaluator.so,\n"
		"likewise validated and costed hosted), PRED/predictor.json and PRED/train.json (the\n"
		"log of every round and of the sampling). Run again, it resumes: the build is\n"
		"reused if the program's words and files are the same, and recorded runs are kept.\n"
		"\n",
	.usage_end =
		"  -o, --output PRED     the predictor directory (made if missing)\n"
		"  --inputs FILE         the training inputs (see mantis help profile for the format)\n"
		"  --threshold F         largest evaluator cost accepted, as a share of the program's\n"
		"                        time (default 0.05)\n"
		"  --metric NAME         wall (default), cpu, user, sys, maxrss or instructions (the\n"
		"                        exact dynamic instruction count; needs the bycount scheme)\n"
		"  --algo A              spore-foba (default), spore-lasso, lasso, foba, ols, linear\n"
		"  --degree D            highest total degree of a term (default 3)\n"
		"  --repeat K            timing runs of the program per input (default 5)\n"
		"  -j N                  feature runs at a time (default 1)\n"
		"  --timeout S           kill a run of the program after S seconds (default: never)\n"
		"  --max-iterations N    rounds of the feedback loop, then a fit on the features\n"
		"                        accepted so far (default 20)\n"
		"  --select adaptive     profile only a chosen subset of the inputs: 10 spread over\n"
		"                        their input features, then 5\n"
		"                        at a time where the expected error is largest, until the\n"
		"                        cross-validated error is under --target (default 0.1) or\n"
		"                        --max-inputs are profiled; after the feedback loop, more\n"
		"                        the same way while the model of the accepted features\n"
		"                        alone is over --target (--select all: every input, default)\n"
		"  --no-input-features   offer the model the program's features only (the papers'\n"
		"                        mantis; by default the input's too)\n"
		"  --sample F            the largest share of the input's large files the larger sample\n"
		"                        takes (default 0.01; F/2 and F/4 are tried too; at least 8 KiB\n"
		"                        in all, and 64 and 256 KiB are tried); 0: no sampled features\n"
		"  --ok-exit CODES       exit codes besides 0 that are a result, not a failure, of the\n"
		"                        program (\"1\" for grep: no line matched; \"1,2\"), in\n"
		"                        training and in every prediction (predictor.json \"ok_exit\")\n"
		"  --in-process          judge each evaluator's cost as mantis serve pays it: its\n"
		"                        shared-object form run in a process that hosts it, warm,\n"
		"                        with no process start (by its executable where it has no\n"
		"                        such form), the samples' sliced evaluator's too; the\n"
		"                        decisions so judged say \"in_process\" in train.json.\n"
		"                        mantis predict, which runs the executables, then pays more\n"
		"                        than the threshold\n"
		"  --fresh               start a new profile (the old database is kept aside)\n"
		"  --quiet               print nothing but errors\n",
	.run = run_train,
};
