/*
 * cmd_explore.c: "mantis explore": derive a performance function over a program's parameters
 * with as few measurements as possible (Westermann et al. 2012): explore.c chooses the points,
 * infer.c's learners fit the model, measure.c runs the program through the profile store.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "explore.h"
#include "infer.h"
#include "measure.h"
#include "space.h"
#include "util.h"

/* Parses a whole number from min to max for option name. */
static int parse_int(const char *name, const char *arg, int min, int max)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || end == arg || v < min || v > max)
		usage_error(&cmd_explore, "%s: '%s' is not a number from %d to %d", name, arg, min, max);
	return (int)v;
}

/* Returns v as JSON, null when it is not finite. */
static json_t *number_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Prints the result as one JSON object (the contract's keys first). */
static void print_json(const struct explore_options *o, const struct measure *me,
		       const struct explore_result *r, const char *formula)
{
	json_t *root = json_object(), *model = json_object(), *measured = json_object();

	json_object_set_new(root, "points", json_integer(r->points));
	json_object_set_new(root, "mre", number_or_null(r->test.mre));
	json_object_set_new(root, "he", number_or_null(r->test.he));
	json_object_set_new(root, "lt15", number_or_null(r->test.lt15));
	json_object_set_new(root, "lt30", number_or_null(r->test.lt30));
	json_object_set_new(root, "test_points", json_integer(r->test.n));
	json_object_set_new(root, "select", json_string(explore_select_name(o->select)));
	json_object_set_new(root, "validate", json_string(explore_validate_name(o->validate)));
	json_object_set_new(root, "threshold", json_real(o->threshold));
	json_object_set_new(root, "converged", json_boolean(r->converged));
	json_object_set_new(root, "budget_spent", json_boolean(r->budget_spent));
	json_object_set_new(root, "iterations", json_integer(r->iterations));
	json_object_set_new(root, "validation_error", number_or_null(r->validation_error));
	json_object_set_new(root, "metric", json_string(me->opt.metric));
	json_object_set_new(measured, "new", json_integer(me->fresh_points));
	json_object_set_new(measured, "reused", json_integer(me->reused_points));
	json_object_set_new(measured, "runs", json_integer(me->runs));
	json_object_set_new(root, "measured", measured);
	json_object_set_new(model, "learner", json_string(o->learner->name));
	json_object_set_new(model, "train", json_integer(r->train));
	json_object_set_new(model, "log", json_boolean(r->model.log));
	json_object_set_new(model, "seconds", json_real(r->model_seconds));
	json_object_set_new(model, "function", json_string(formula));
	json_object_set_new(root, "model", model);
	json_dumpf(root, stdout, JSON_INDENT(2));
	putchar('\n');
	json_decref(root);
}

/* Prints the result for people: the exploration, the test figures, the model. */
static void print_text(const struct explore_options *o, const struct measure *me,
		       const struct explore_result *r, const char *formula)
{
	printf("%d points measured to explore (%s, %s, %s), %d iterations: %s (validation error %.1f%%, "
	       "threshold %.1f%%)\n", r->points, explore_select_name(o->select), explore_validate_name(o->validate),
	       o->learner->name, r->iterations, r->converged ? "converged" : r->budget_spent ? "budget spent"
	       : "space exhausted", 100 * r->validation_error, 100 * o->threshold);
	printf("%d new, %d found in %s (%d runs made)\n", me->fresh_points, me->reused_points, me->st.path, me->runs);
	if (r->test.n > 0)
		printf("independent test, %d random points: MRE %.1f%%, HE %.1f%%, LT15 %.0f%%, LT30 %.0f%%\n",
		       r->test.n, 100 * r->test.mre, 100 * r->test.he, 100 * r->test.lt15, 100 * r->test.lt30);
	printf("%s of %s on %d points (%.3f s to build):\n%s\n", o->learner->name, me->opt.metric, r->train,
	       r->model_seconds, formula);
	for (int j = 0; j < me->s->d; j++) { /* what an enumeration's or a boolean's numbers stand for */
		const struct space_param *p = &me->s->v[j];

		if (p->kind != SPACE_ENUM && p->kind != SPACE_BOOL)
			continue;
		printf("%s:", p->name);
		for (int k = 0; k < p->nwords; k++)
			printf(" %d = '%s'%s", k, p->words[k], k + 1 < p->nwords ? "," : "\n");
	}
}

/* Checks that every parameter appears in the command or the generator. */
static void check_used(const struct space *s, char **words, int nwords, const char *generator)
{
	for (int j = 0; j < s->d; j++) {
		char *gen[1] = {(char *)(generator ? generator : "")};

		if (!space_used(s, j, words, nwords) && !space_used(s, j, gen, 1))
			usage_error(&cmd_explore, "parameter '%s' is used by neither the command nor the "
				    "generator (write {%s} where its value goes)", s->v[j].name, s->v[j].name);
	}
}

/* The command: parses options, opens the measurer, explores, prints. Returns the exit code. */
static int run_explore(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"param", required_argument, NULL, 'p'},     {"threshold", required_argument, NULL, 't'},
		{"max-points", required_argument, NULL, 'M'}, {"select", required_argument, NULL, 's'},
		{"validate", required_argument, NULL, 'v'},  {"infer", required_argument, NULL, 'i'},
		{"seed", required_argument, NULL, 'S'},      {"json", no_argument, NULL, 'J'},
		{"generator", required_argument, NULL, 'g'}, {"metric", required_argument, NULL, 'm'},
		{"repeat", required_argument, NULL, 'r'},    {"timeout", required_argument, NULL, 'T'},
		{"db", required_argument, NULL, 'd'},        {"test-points", required_argument, NULL, 'n'},
		{"validation-points", required_argument, NULL, 'V'},
		{"sector-points", required_argument, NULL, 'P'}, {"batch", required_argument, NULL, 'b'},
		{"log", no_argument, NULL, 'L'},
		{NULL, 0, NULL, 0},
	};
	struct explore_options o = explore_options_default();
	struct measure_options mo = {0};
	struct measure me;
	struct explore_result r;
	struct space s = {0};
	struct error err = {""};
	struct strbuf sb = {0};
	int opt, json = 0, rc;
	char *end, *formula;

	o.test_points = 30;
	mo.metric = "wall";
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "+:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			if (space_add(&s, optarg, &err) < 0)
				usage_error(&cmd_explore, "--param: %s", err.msg);
			break;
		case 't':
			o.threshold = strtod(optarg, &end);
			if (*end || !(o.threshold > 0))
				usage_error(&cmd_explore, "--threshold: '%s' is not a positive number (0.1 is 10%%)", optarg);
			break;
		case 'M': o.max_points = parse_int("--max-points", optarg, 1, 1000000); break;
		case 's':
			if ((rc = explore_select_find(optarg)) < 0)
				usage_error(&cmd_explore, "--select: '%s' is not rb, aeb or arb", optarg);
			o.select = (enum explore_select)rc;
			break;
		case 'v':
			if ((rc = explore_validate_find(optarg)) < 0)
				usage_error(&cmd_explore, "--validate: '%s' is not rvs, dsl or dsg", optarg);
			o.validate = (enum explore_validate)rc;
			break;
		case 'i':
			if (!(o.learner = infer_find(optarg)))
				usage_error(&cmd_explore, "--infer: '%s' is not mars, cart, kriging, kriging-nd, gp or spore", optarg);
			break;
		case 'S': o.seed = o.infer.seed = (uint64_t)parse_int("--seed", optarg, 0, 2147483647); break;
		case 'J': json = 1; break;
		case 'L': o.infer.log = 1; break;
		case 'g': mo.generator = optarg; break;
		case 'm':
			if (strcmp(optarg, "wall") && strcmp(optarg, "cpu") && strcmp(optarg, "maxrss") &&
			    strcmp(optarg, "instructions"))
				usage_error(&cmd_explore, "--metric: '%s' is not wall, cpu, maxrss or instructions", optarg);
			mo.metric = optarg;
			break;
		case 'r': mo.repeat = parse_int("--repeat", optarg, 1, 64); break;
		case 'T':
			mo.timeout = strtod(optarg, &end);
			if (*end || !(mo.timeout > 0))
				usage_error(&cmd_explore, "--timeout: '%s' is not a positive number of seconds", optarg);
			break;
		case 'd': mo.db = optarg; break;
		case 'n': o.test_points = parse_int("--test-points", optarg, 0, 100000); break;
		case 'V': o.rvs_points = parse_int("--validation-points", optarg, 1, 100000); break;
		case 'P': o.sector_points = parse_int("--sector-points", optarg, 1, 1000); break;
		case 'b': o.batch = parse_int("--batch", optarg, 1, 100000); break;
		case ':': usage_error(&cmd_explore, "%s needs a value", argv[optind - 1]);
		default: usage_error(&cmd_explore, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (s.d == 0)
		usage_error(&cmd_explore, "no parameter (--param NAME=lo:hi, NAME=a,b,c or NAME=bool)");
	if (optind >= argc)
		usage_error(&cmd_explore, "no program (-- PROGRAM ARGS, with {NAME} where a parameter goes)");
	if (o.select == EXPLORE_RB && o.validate != EXPLORE_RVS)
		usage_error(&cmd_explore, "--validate %s needs --select aeb or arb (random breakdown has no sectors)",
			    explore_validate_name(o.validate));
	check_used(&s, argv + optind + 1, argc - optind - 1, mo.generator);
	mo.program = argv[optind];
	mo.words = argv + optind + 1;
	mo.nwords = argc - optind - 1;
	if (measure_open(&me, &s, &mo, &err) < 0) {
		if (strstr(err.msg, "is not a parameter"))
			usage_error(&cmd_explore, "%s", err.msg);
		die("%s", err.msg);
	}
	if (explore_run(&s, &o, measure_point, &me, &r, &err) < 0)
		die("%s", err.msg);
	infer_format(&r.model, &sb);
	formula = strbuf_detach(&sb);
	if (json)
		print_json(&o, &me, &r, formula);
	else
		print_text(&o, &me, &r, formula);
	free(formula);
	explore_result_release(&r);
	measure_close(&me);
	space_release(&s);
	return EXIT_OK;
}

const struct command cmd_explore = {
	.name = "explore",
	.summary = "measure a program at adaptively chosen parameter values and infer its performance function",
	.usage =
		"usage: mantis explore --param NAME=SPEC... [options] -- PROGRAM ARGS...\n"
		"\n"
		"Finds how PROGRAM's metric depends on parameters with few measurements (Westermann\n"
		"et al. 2012): chooses parameter values, runs PROGRAM with {NAME} in ARGS replaced\n"
		"by each value, fits a model, validates it, and stops when its error is under the\n"
		"threshold (or the budget is spent); then measures the model's error on independent\n"
		"random points and prints the model. PROGRAM is an executable (timed like a build's\n"
		"original program) or a mantis instrument build directory (DIR/orig is timed;\n"
		"DIR/inst counts instructions). Every run is kept in the database: a point measured\n"
		"once is never run again. {tmp} is the run's scratch folder.\n"
		"\n"
		"  --param NAME=SPEC    a parameter: lo:hi[:step] integers, lo:hi reals (a bound with\n"
		"                       a '.'), a,b,c words, bool (0 or 1), bool:WORD (WORD or\n"
		"                       nothing: an argument {NAME} that is off is left out)\n"
		"  --threshold E        target mean relative error (default 0.1)\n"
		"  --max-points M       measure at most M points to explore (default: no limit)\n"
		"  --select S           rb (random), aeb (adaptive equidistant, default), arb\n"
		"                       (adaptive random) breakdown\n"
		"  --validate V         rvs (random validation set), dsl (every sector under the\n"
		"                       threshold), dsg (their mean under it, default); dsl and dsg\n"
		"                       need aeb or arb\n"
		"  --infer L            mars (default), cart, kriging (2-D; classical MDS beyond),\n"
		"                       kriging-nd (a length scale per parameter), gp, spore\n"
		"  --log                fit the logarithm of the metric (for metrics spanning orders of\n"
		"                       magnitude; the model printed is then of log, predictions exp)\n"
		"  --seed S             seed of the random points and of gp (default 1)\n"
		"  --metric M           wall (default), cpu, maxrss, or instructions (a build\n"
		"                       directory instrumented with the bycount scheme; exact)\n"
		"  --repeat K           timing runs per point, the median is used (default 3)\n"
		"  --timeout S          kill a run after S seconds (the exploration then fails)\n"
		"  --generator CMD      a command run once per point before the program, with\n"
		"                       {NAME} replaced and {input} a folder of its own for the files\n"
		"                       it makes; ARGS may name {input}/FILE\n"
		"  --db FILE            the database (default DIR/explore.db, or ./explore.db)\n"
		"  --test-points N      independent random points for the error figures (default 30)\n"
		"  --validation-points N  size of the rvs set (default 10)\n"
		"  --sector-points N    arb's random points per sector (default 2)\n"
		"  --batch N            rb's points per iteration (default 2 x parameters + 2)\n"
		"  --json               print {\"points\", \"mre\", \"he\", \"lt15\", \"lt30\", ..., \"model\"}\n",
	.run = run_explore,
};
