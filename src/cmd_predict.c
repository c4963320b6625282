/*
 * cmd_predict.c: "mantis predict PRED -- ARGS...": the online stage: run the evaluator on the
 * input and print the model's prediction, without running the program.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "model.h"
#include "predictor.h"
#include "util.h"

/* Fills ins with one input: words[0..n) (existing paths made absolute) and stdin_path. */
static void make_input(struct inputs *ins, char **words, int n, const char *stdin_path)
{
	char *cwd = getcwd(NULL, 0);
	struct input *in;
	struct strbuf text = {0};

	if (!cwd)
		die("cannot read the working directory");
	memset(ins, 0, sizeof *ins);
	ins->n = 1;
	ins->v = xcalloc(1, sizeof *ins->v);
	ins->path = xstrdup("(command line)");
	ins->dir = cwd;
	in = &ins->v[0];
	in->argc = n;
	in->argv = xcalloc((size_t)n + 1, sizeof *in->argv);
	strbuf_add(&text, "", 0);
	for (int i = 0; i < n; i++) {
		in->argv[i] = xstrdup(words[i]);
		inputs_resolve_word(&in->argv[i], cwd);
		if (i)
			strbuf_addch(&text, ' ');
		strbuf_add(&text, words[i], strlen(words[i]));
	}
	in->text = strbuf_detach(&text);
	if (stdin_path) {
		in->stdin_path = xstrdup(stdin_path);
		inputs_resolve_word(&in->stdin_path, cwd);
	}
}

/* Prints the value in the metric's unit. */
static void print_value(const char *metric, double v)
{
	if (strcmp(metric, "instructions") == 0)
		printf("%.0f instructions", v);
	else if (strcmp(metric, "maxrss") == 0)
		printf("%.0f KiB", v);
	else
		printf("%.3g s", v);
}

/* Prints the model's interval around the prediction, if it has one. */
static void print_interval(const struct predictor *p, const struct prediction *pr)
{
	double low, high;

	if (!model_interval(&p->model, pr->value, &low, &high))
		return;
	printf("%.0f%% interval: ", 100 * p->model.interval.level);
	print_value(p->info.metric, low);
	if (isfinite(high)) {
		printf(" to ");
		print_value(p->info.metric, high);
	} else {
		printf(" or more");
	}
	printf(" (training inputs, held out)\n");
}

/* Returns the value of option argv[*i] (advancing *i), or exits with a usage error. */
static const char *option_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage_error(&cmd_predict, "%s needs a value", argv[*i]);
	return argv[++*i];
}

/* Returns how predictor p computed its features, as words that follow "predicted" (static). */
static const char *how_predicted(const struct predictor *p)
{
	if (p->sampler && p->evaluator)
		return " by its evaluator and on the input's samples";
	if (p->sampler)
		return " on the input's samples";
	return p->evaluator ? " by its evaluator" : "";
}

static int run_predict(int argc, char **argv)
{
	const char *stdin_path = NULL, *dir = NULL;
	double budget = 60;
	int json = 0, i;
	struct predictor p;
	struct prediction pr;
	struct inputs ins;
	struct error err = {""};

	if (cli_has_option(argc, argv, "--platform"))
		return predict_on_platform(argc, argv); /* cmd_platform.c */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		char *end;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--stdin") == 0) {
			stdin_path = option_value(argc, argv, &i);
		} else if (strcmp(a, "--budget") == 0) {
			const char *v = option_value(argc, argv, &i);

			budget = strtod(v, &end);
			if (*end || end == v || !(budget > 0))
				usage_error(&cmd_predict, "--budget: '%s' is not a positive number of "
					    "seconds", v);
		} else if (!dir && a[0] != '-') {
			dir = a;
		} else if (!dir) {
			usage_error(&cmd_predict, "unknown option '%s'", a);
		} else {
			break; /* the program's arguments, without a -- before them */
		}
	}
	if (!dir)
		usage_error(&cmd_predict, "give the predictor directory (made by mantis train)");
	if (predictor_open_to_predict(&p, dir, &err) < 0)
		die("%s", err.msg);
	make_input(&ins, argv + i, argc - i, stdin_path);
	if (predictor_run(&p, &ins.v[0], budget, &pr, &err) < 0)
		die("%s", err.msg);
	if (json) {
		json_t *root = predictor_json(&p, &pr);

		json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
		putchar('\n');
		json_decref(root);
	} else {
		print_value(p.info.metric, pr.value);
		printf(strcmp(p.info.metric, "instructions") ? " (%s)\n" : "\n", p.info.metric);
		print_interval(pr.by, &pr);
		if (p.info.gate > 0 && pr.by != &p)
			printf("gated: the input's features alone predict at least the gate, so %s/%s "
			       "predicted%s\n", dir, PREDICTOR_GATED, how_predicted(pr.by));
		else if (p.info.gate > 0)
			printf("not gated: the input's features alone predict less than the gate, so "
			       "they predicted; %s/%s was not run\n", dir, PREDICTOR_GATED);
		for (int f = 0; f < pr.by->model.nfeatures; f++)
			printf("  %-50s %.17g\n", pr.by->model.features[f].name, pr.values[f]);
		if (pr.by->evaluator)
			printf("evaluator ran %.3f s\n", pr.seconds);
	}
	if (pr.warning)
		fprintf(stderr, "mantis predict: warning: %s\n", pr.warning);
	prediction_release(&pr);
	inputs_release(&ins);
	predictor_release(&p);
	return EXIT_OK;
}

const struct command cmd_predict = {
	.name = "predict",
	.summary = "predict a program's metric on an input without running the program",
	.usage =
		"usage: mantis predict PRED [--json] [--budget S] [--stdin FILE] [--] ARGS...\n"
		"\n"
		"Runs PRED's evaluator (mantis train made it: the program cut down to the features its\n"
		"model reads) on the program's arguments ARGS, with no side effect (it changes no\n"
		"file), reads the input features the model reads off ARGS (input:argN, a numeric\n"
		"argument; input:size(argN), the size of the file it names; input:entropy(data), the\n"
		"bits a byte carries in the largest file, read off 64 KiB of it; input:number(K),\n"
		"the K-th number of its script, its first text file of at most 64 KiB;\n"
		"input:word(W), 1 when W is one of ARGS...), and when the model\n"
		"reads sampled features (sampled:NAME: NAME counted on two samples of the input's\n"
		"large files and extrapolated to the whole files, sampled-quadratic:NAME along a\n"
		"parabola; sampled-larger:NAME, as it is on the larger sample; see mantis help\n"
		"train) runs PRED/sampled-evaluator (the slice\n"
		"of those features) or PRED/build/sandboxed on those samples, also with no side\n"
		"effect. When PRED has a gate (mantis help train), the input features alone decide:\n"
		"an input PRED's model predicts at or above the gate is predicted by PRED/long, which\n"
		"reads its samples, and it says which. It prints the model's prediction of the trained\n"
		"metric (seconds for times), the interval a share of the training inputs fell in when\n"
		"held out (90% with 19 or more; the spread the model is trusted to), and the feature\n"
		"values. A feature outside its training range gives a warning on stderr, and the\n"
		"model goes on linearly past the range's edge (a cubic term is not trusted where\n"
		"training never was; a rate model scales its size by the rate of the training\n"
		"inputs nearest). A polynomial that gives zero or less predicts the least value of\n"
		"the training inputs, with a warning. A missing input file, or an evaluator or\n"
		"sampled run that fails or runs over its budget, is an error (exit 1), not a guess.\n"
		"ARGS naming existing files are taken relative to the working directory, as the\n"
		"program would; the evaluator runs in a scratch folder. mantis-predict (beside mantis)\n"
		"is this command in a static executable without LLVM, for a scheduler that predicts\n"
		"each job with a command: it starts in about 2 ms instead of 60, and reads only what\n"
		"the prediction needs (no manifest for a model of input features alone; PRED/long only\n"
		"for an input gated there). mantis serve predicts one input after another in one\n"
		"process, with the evaluator run in it (no process start).\n"
		"\n"
		"  --json        print {\"prediction\", \"metric\", \"features\": {NAME: value},\n"
		"                \"evaluator_seconds\" (computing the features), \"interval\"?:\n"
		"                {\"level\", \"low\", \"high\" (null: no upper bound)}, \"warning\"?,\n"
		"                \"gated\"? (with a gate: PRED/long predicted)}\n"
		"  --budget S    kill the evaluator (and each sampled run) after S seconds of wall\n"
		"                time (default 60)\n"
		"  --stdin FILE  the program's standard input\n"
		"\n"
		"mantis predict BUILD --platform P.json [--fit INPUTS [--program EXE]] [--json] -- ARGS\n"
		"counts the run's instructions here with BUILD/inst (mantis instrument) and predicts its\n"
		"CPU time on the platform mantis calibrate measured: startup + sum of count x cost;\n"
		"--fit refines it by a correction fitted on runs there (EXE: the program built for it).\n",
	.run = run_predict,
};
