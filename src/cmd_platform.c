/*
 * cmd_platform.c: the --platform forms of predict and eval (ByCounter, 003_): count a run's
 * instructions here with BUILD/inst and predict its CPU time on a calibrated platform
 * (platform.c), without running it there; eval also runs it there and compares.
 *
 *   mantis predict BUILD --platform P.json [--json] [--fit INPUTS --program EXE] -- ARGS...
 *   mantis eval BUILD --platform P.json --inputs FILE [--fit INPUTS] [--program EXE] [--json]
 *
 * cmd_predict.c and cmd_eval.c hand their arguments over when --platform is among them.
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "count.h"
#include "error.h"
#include "inputs.h"
#include "model.h"
#include "platform.h"
#include "runner.h"
#include "util.h"

int cli_has_option(int argc, char **argv, const char *option)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], option) == 0)
			return 1;
	}
	return 0;
}

void cli_make_input(struct input *in, char **words, int n, const char *stdin_path)
{
	char *cwd = getcwd(NULL, 0);

	if (!cwd)
		die("cannot read the working directory");
	memset(in, 0, sizeof *in);
	in->line = 1;
	in->text = xstrdup("(command line)");
	in->argc = n;
	in->argv = xcalloc((size_t)n + 1, sizeof *in->argv);
	for (int i = 0; i < n; i++) {
		in->argv[i] = xstrdup(words[i]);
		inputs_resolve_word(&in->argv[i], cwd);
	}
	if (stdin_path) {
		in->stdin_path = realpath(stdin_path, NULL);
		if (!in->stdin_path)
			die("cannot read %s", stdin_path);
	}
	free(cwd);
}


/* The options both forms share. */
struct platform_args {
	const char *platform;   /* --platform FILE */
	const char *fit;        /* --fit INPUTS, or NULL */
	const char *program;    /* --program EXE, or NULL */
	const char *inputs;     /* --inputs FILE (eval) */
	const char *stdin_path; /* --stdin FILE (predict) */
	int json;               /* --json */
	int repeat;             /* --repeat K */
	double timeout;         /* --timeout S */
	const char *build;      /* BUILD */
	int first_arg;          /* predict: index of the program's first argument */
};

/* Parses argv for cmd (predict or eval). Exits with a usage error when it is wrong. */
static void parse_args(const struct command *cmd, int argc, char **argv, struct platform_args *a)
{
	static const struct option longopts[] = {
		{"platform", required_argument, NULL, 'p'}, {"fit", required_argument, NULL, 'f'},
		{"program", required_argument, NULL, 'P'},  {"inputs", required_argument, NULL, 'i'},
		{"stdin", required_argument, NULL, 's'},    {"json", no_argument, NULL, 'j'},
		{"repeat", required_argument, NULL, 'r'},   {"timeout", required_argument, NULL, 't'},
		{NULL, 0, NULL, 0},
	};
	int opt;

	memset(a, 0, sizeof *a);
	a->repeat = 3;
	opterr = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p': a->platform = optarg; break;
		case 'f': a->fit = optarg; break;
		case 'P': a->program = optarg; break;
		case 'i': a->inputs = optarg; break;
		case 's': a->stdin_path = optarg; break;
		case 'j': a->json = 1; break;
		case 'r': a->repeat = atoi(optarg); break;
		case 't': a->timeout = atof(optarg); break;
		default: usage_error(cmd, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error(cmd, "give the build directory (made by mantis instrument)");
	a->build = argv[optind];
	a->first_arg = optind + 1;
	if (a->repeat < 1 || a->repeat > 64)
		usage_error(cmd, "--repeat must be 1 to 64");
	if (a->timeout < 0)
		usage_error(cmd, "--timeout must not be negative");
}

/* Reads the platform and fills the evaluation options (eo->program owned by the caller);
 * exits on error. */
static void open_platform(const struct platform_args *a, struct platform *p, struct inputs *train,
			  struct platform_eval_options *eo)
{
	struct error err = {""};
	char *program = NULL;

	if (platform_read(p, a->platform, &err) < 0)
		die("%s", err.msg);
	if ((p->target || p->nrunner) && !a->program && (a->fit || a->inputs))
		die("%s is another target (%s): give the program built for it (--program EXE)",
		    a->platform, p->target ? p->target : p->runner[0]);
	if (a->fit && inputs_load(train, a->fit, &err) < 0)
		die("%s", err.msg);
	*eo = (struct platform_eval_options){a->build, a->program, a->fit ? train : NULL, a->repeat,
					     a->timeout};
	if (a->program && !(program = realpath(a->program, NULL))) /* runs in a scratch folder */
		die("cannot find the program %s", a->program);
	eo->program = program;
}

int predict_on_platform(int argc, char **argv)
{
	struct platform_args a;
	struct platform p;
	struct platform_eval_options eo;
	struct inputs train = {0};
	struct model correction = {0};
	struct input in;
	struct run_result res;
	struct count c;
	struct error err = {""};
	double plain, value;

	parse_args(&cmd_predict, argc, argv, &a);
	open_platform(&a, &p, &train, &eo);
	cli_make_input(&in, argv + a.first_arg, argc - a.first_arg, a.stdin_path);
	if (a.fit && platform_fit_correction(&p, &eo, &correction, &err) < 0)
		die("%s", err.msg);
	if (count_run(&c, a.build, &in, a.timeout, &res, &err) < 0)
		die("%s", err.msg);
	if (res.status != RUN_OK)
		fprintf(stderr, "mantis predict: warning: the program ended here: %s (exit %d)\n",
			runner_status_name(res.status), res.exit_code);
	plain = platform_predict(&p, &c);
	value = a.fit ? platform_correct(&p, &correction, &c) : plain;
	if (a.json) {
		json_t *root = json_object(), *features = json_object();
		char **names;
		double *values;
		int n = platform_features(&p, &c, &names, &values);

		for (int i = 0; i < n; i++) {
			json_object_set_new(features, names[i], json_real(values[i]));
			free(names[i]);
		}
		free(names);
		free(values);
		json_object_set_new(root, "prediction", json_real(value));
		json_object_set_new(root, "metric", json_string("cpu"));
		json_object_set_new(root, "platform", json_string(p.target ? p.target : "host"));
		json_object_set_new(root, "countxcost", json_real(plain));
		json_object_set_new(root, "corrected", a.fit ? json_real(value) : json_null());
		json_object_set_new(root, "instructions", json_integer((json_int_t)c.program.total));
		json_object_set_new(root, "features", features);
		json_object_set_new(root, "evaluator_seconds", json_real(res.wall));
		json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(8));
		putchar('\n');
		json_decref(root);
	} else {
		printf("%.3g s (cpu on %s -O%s, %s)\n", value, p.target ? p.target : "this machine",
		       p.opt, a.fit ? "corrected" : "count x cost");
		if (a.fit)
			printf("count x cost: %.3g s\n", plain);
		printf("%llu instructions, counted in %.3f s\n", (unsigned long long)c.program.total,
		       res.wall);
	}
	count_release(&c);
	free((char *)eo.program);
	model_release(&correction);
	input_release(&in);
	inputs_release(&train);
	platform_release(&p);
	return EXIT_OK;
}

int eval_on_platform(int argc, char **argv)
{
	struct platform_args a;
	struct platform p;
	struct platform_eval_options eo;
	struct platform_eval e;
	struct inputs train = {0}, test;
	struct error err = {""};
	int n;

	parse_args(&cmd_eval, argc, argv, &a);
	if (a.first_arg != argc)
		usage_error(&cmd_eval, "give one build directory (made by mantis instrument)");
	if (!a.inputs)
		usage_error(&cmd_eval, "no inputs (--inputs FILE)");
	open_platform(&a, &p, &train, &eo);
	if (inputs_load(&test, a.inputs, &err) < 0 || platform_eval(&p, &eo, &test, &e, &err) < 0)
		die("%s", err.msg);
	if (a.json) {
		json_t *root = json_object();

		json_object_set_new(root, "metric", json_string("cpu"));
		json_object_set_new(root, "platform", json_string(p.target ? p.target : "host"));
		json_object_set_new(root, "n", json_integer(e.n));
		json_object_set_new(root, "mre", json_real(e.mre));
		json_object_set_new(root, "median_re", json_real(e.median_re));
		json_object_set_new(root, "max_re", json_real(e.max_re));
		json_object_set_new(root, "lt15", json_real(e.lt15));
		json_object_set_new(root, "lt30", json_real(e.lt30));
		json_object_set_new(root, "predict_cost", json_real(e.actual_mean > 0 ? e.count_seconds /
								   e.actual_mean : 0));
		json_object_set_new(root, "noise_floor", json_real(e.noise));
		json_object_set_new(root, "program_cpu", json_real(e.actual_mean));
		json_object_set_new(root, "corrected", e.corrected
				    ? json_pack("{s:f, s:f, s:f, s:s}", "mre", e.corrected_mre, "median_re",
						e.corrected_median_re, "lt30", e.corrected_lt30, "model",
						e.correction)
				    : json_null());
		json_object_set_new(root, "failed", json_string(e.failed ? e.failed : ""));
		json_object_set_new(root, "baselines", json_object());
		json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
		putchar('\n');
		json_decref(root);
	} else {
		printf("%d inputs, cpu on %s -O%s: count x cost mean relative error %.2f%% (median "
		       "%.2f%%, max %.2f%%), LT15 %.0f%%, LT30 %.0f%%\n", e.n,
		       p.target ? p.target : "this machine", p.opt, 100 * e.mre, 100 * e.median_re,
		       100 * e.max_re, 100 * e.lt15, 100 * e.lt30);
		if (e.corrected)
			printf("corrected (fitted on %s): mean relative error %.2f%% (median %.2f%%), "
			       "LT30 %.0f%%: %s\n", a.fit, 100 * e.corrected_mre,
			       100 * e.corrected_median_re, 100 * e.corrected_lt30, e.correction);
		printf("noise floor %.2f%% (two measurements of the actual time)\n", 100 * e.noise);
		printf("counting here takes %.3f s per input; the program there %.3f s (CPU)\n",
		       e.count_seconds, e.actual_mean);
		if (e.failed)
			fputs(e.failed, stdout);
	}
	n = e.n;
	free((char *)eo.program);
	platform_eval_release(&e);
	inputs_release(&test);
	inputs_release(&train);
	platform_release(&p);
	return n > 0 ? EXIT_OK : EXIT_FAILED;
}
