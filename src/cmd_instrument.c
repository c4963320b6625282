/*
 * cmd_instrument.c: "mantis instrument": build the original and the instrumented program and
 * the manifest of its features.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "budget.h"
#include "build.h"
#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "instrument.h"
#include "manifest.h"
#include "util.h"

/* Counts the features of each kind for the summary line. */
static void print_summary(const char *dir, const struct manifest *m)
{
	static const char *const kinds[] = {"loop", "branch", "switch", "call", "value", "exit", "bycount"};

	printf("%s/orig, %s/inst, %s/features.json: %d features (", dir, dir, dir, m->n);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		int count = 0;

		for (int i = 0; i < m->n; i++)
			count += strcmp(m->v[i].kind, kinds[k]) == 0;
		printf("%s%d %s", k ? ", " : "", count, kinds[k]);
	}
	printf("), %d counters\n", m->ncounters);
}

/*
 * Takes OPT VALUE (or OPT=VALUE) out of argv[1..argc), shifting the rest down. Returns VALUE
 * (a word of argv), or NULL if OPT is absent; OPT without a value is a usage error.
 */
static const char *take_option(int *argc, char **argv, const char *opt)
{
	const char *value = NULL;
	size_t len = strlen(opt);

	for (int i = 1; i < *argc; i++) {
		const char *w = argv[i];
		int used;

		if (strncmp(w, opt, len) != 0 || (w[len] && w[len] != '='))
			continue;
		used = w[len] == '=' ? 1 : 2;
		if (used == 2 && i + 1 == *argc)
			usage_error(&cmd_instrument, "%s needs a value", opt);
		value = used == 1 ? w + len + 1 : argv[i + 1];
		memmove(argv + i, argv + i + used, sizeof *argv * (size_t)(*argc - i - used + 1));
		*argc -= used;
		i--;
	}
	return value;
}

/* Returns --values-first's K (1 if not given); a bad K is a usage error. */
static int values_first(const char *word)
{
	char *end;
	long k;

	if (!word)
		return 1;
	k = strtol(word, &end, 10);
	if (!*word || *end || k < 1 || k > SCHEME_VALUES_FIRST_MAX)
		usage_error(&cmd_instrument, "--values-first needs a number from 1 to %d, not '%s'",
			    SCHEME_VALUES_FIRST_MAX, word);
	return (int)k;
}

/* Returns --budget's F (0 if not given); a bad F, or --budget and --calibrate without each
 * other, is a usage error; an unreadable or bad calibration inputs file is fatal. */
static double budget_limit(const char *word, const char *calibrate)
{
	struct inputs ins;
	struct error err = {""};
	char *end;
	double f;

	if (!word && !calibrate)
		return 0;
	if (!word || !calibrate)
		usage_error(&cmd_instrument, word ? "--budget needs --calibrate FILE (the inputs to time)"
						  : "--calibrate is for --budget F");
	f = strtod(word, &end);
	if (!*word || *end || !(f > 0 && f <= 10))
		usage_error(&cmd_instrument, "--budget needs the overhead allowed as a fraction above 0 "
			    "and at most 10 (0.05: 5%%), not '%s'", word);
	if (inputs_load(&ins, calibrate, &err) < 0)
		die("%s", err.msg); /* before a long build */
	inputs_release(&ins);
	return f;
}

/* Prints what the budget did to the build of m. */
static void print_budget(const char *dir, const struct budget *b, const struct manifest *m)
{
	static const char *const kinds[] = {"loop", "branch", "switch", "call", "value", "exit", "bycount"};

	for (int i = 0; i < b->nfailures; i++)
		fprintf(stderr, "mantis instrument: left out of the calibration: %s\n", b->failures[i]);
	printf("calibration on %d inputs, CPU time inst/orig (total or mean input, the larger):", b->ninputs);
	for (int r = 0; r < b->nrounds; r++)
		printf("%s %.2f", r ? " ->" : "", b->rounds[r].ratio);
	putchar('\n');
	if (b->ndrops) {
		printf("dropped %d of %d counters, %d features:", m->ndropped, m->ncounters, b->nremoved);
		for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
			int n = 0;

			for (int i = 0; i < b->nremoved; i++)
				n += strcmp(b->removed_kinds[i], kinds[k]) == 0;
			if (n)
				printf(" %d %s", n, kinds[k]);
		}
		printf("\nhottest:");
		for (int i = 0, shown = 0; i < b->ndrops && shown < 3; i++) {
			if (b->drops[i].feature)
				printf("%s %s (%.3g runs)", shown++ ? "," : "", b->drops[i].feature, b->drops[i].runs);
		}
		putchar('\n');
	}
	printf("%s/budget.json: inst/orig %.2f, %s the budget of %g%%\n", dir, budget_ratio(b),
	       budget_ratio(b) <= 1 + b->limit ? "within" : "over", 100 * b->limit);
}

static int run_instrument(int argc, char **argv)
{
	struct build_args args;
	struct manifest m;
	struct error err = {""};
	char *runtime, *sandbox, *stale;
	int first_values = values_first(take_option(&argc, argv, "--values-first"));
	const char *budget_word = take_option(&argc, argv, "--budget");
	const char *calibrate = take_option(&argc, argv, "--calibrate");
	double limit = budget_limit(budget_word, calibrate);

	if (build_args_parse(&args, argv + 1, argc - 1, &err) < 0 || !args.dir) {
		if (args.usage || !args.dir)
			usage_error(&cmd_instrument, "%s", args.dir || args.usage ? err.msg
									: "no output directory (-o DIR)");
		die("%s", err.msg);
	}
	runtime = cli_runtime_file("mantisrt.o");
	sandbox = cli_runtime_file("sandbox.o");
	args.opt.runtime = runtime;
	args.opt.sandbox = sandbox;
	args.opt.schemes = instrument_values_first(args.opt.schemes, first_values);
	stale = xasprintf("%s/budget.json", args.dir); /* a previous build's budget */
	unlink(stale);
	free(stale);
	if (build_instrumented(&args.opt, args.dir, &m, &err) < 0)
		die("%s", err.msg);
	if (limit > 0) {
		struct budget_options bo = {&args.opt, args.dir, calibrate, limit, 3, 6};
		struct budget b;

		if (budget_apply(&b, &bo, &m, &err) < 0)
			die("%s", err.msg);
		print_budget(args.dir, &b, &m);
		budget_release(&b);
	}
	print_summary(args.dir, &m);
	manifest_release(&m);
	free(runtime);
	free(sandbox);
	build_args_release(&args);
	return EXIT_OK;
}

const struct command cmd_instrument = {
	.name = "instrument",
	.summary = "build a program's original and feature-counting versions",
	.usage =
		"usage: mantis instrument -o DIR [options] SOURCE.c... [-I.. -D.. -l.. -L..]\n"
		"       mantis instrument -o DIR [options] PROGRAM.bc|PROGRAM.ll [-l.. -L..]\n"
		"       mantis instrument -o DIR [options] PROGRAM   (built with CC=\"mantis cc\")\n"
		"\n"
		"Compiles the program with clang-14 -g, prepares its IR (mem2reg, simplifycfg) and\n"
		"writes DIR/orig (for timing), DIR/inst (counting features) and DIR/features.json\n"
		"(every feature: name, kind, function, file:line, how it is computed).\n"
		"Run DIR/inst with MANTIS_COUNTERS=FILE to get its counters, or use 'mantis features'.\n"
		"DIR/sandboxed counts as DIR/inst does but changes no file: what it writes stays in\n"
		"memory (read back as written), and it prints nothing.\n"
		"\n"
		"  -o, --output DIR    the build directory (made if missing)\n"
		"  -O0..-O3, -Os, -Oz  optimisation level of both builds (default -O2)\n"
		"  --schemes LIST      comma-separated: branch, loop, call, value, exit, bycount,\n"
		"                      or all (default all); and fields: a store to a field of a\n"
		"                      struct assigns a variable of the function,\n"
		"                      value:FUNCTION:FILE:LINE:TAG.MEMBER (the member's number\n"
		"                      where the struct has bit-fields; TAG anon for a nested\n"
		"                      struct without one): all,fields\n"
		"  --values-first K    the value scheme also records each variable's first K\n"
		"                      values, VAR.v1 ... VAR.vK (1-64; default 1: VAR.first)\n"
		"  --budget F          keep DIR/inst within 1+F times DIR/orig's CPU time (0.05: 5%):\n"
		"                      time both on the --calibrate inputs (3 interleaved runs each,\n"
		"                      the median; in total and on the mean input); while over 1+F/2\n"
		"                      there (other inputs run a few points higher), drop the\n"
		"                      counters whose probes cost most (runs per second of the\n"
		"                      original x weight), rebuild DIR/inst and time again (6 rounds\n"
		"                      at most; a build within 1+F/2 is timed twice, the mean\n"
		"                      judged). Features reading a dropped counter leave\n"
		"                      features.json; DIR/budget.json tells what was dropped and why\n"
		"  --calibrate FILE    the inputs to time for --budget (an inputs file, as for\n"
		"                      mantis profile --inputs); an input that crashes is left out\n"
		"  -I, -D, -U, -std=, -f..., -include, -isystem   passed to the compiler\n"
		"  -l, -L              passed to the linker; -pthread to both\n",
	.run = run_instrument,
};
