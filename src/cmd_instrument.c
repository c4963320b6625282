/*
 * cmd_instrument.c: "mantis instrument": build the original and the instrumented program and
 * the manifest of its features.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "cli.h"
#include "error.h"
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

static int run_instrument(int argc, char **argv)
{
	struct build_args args;
	struct manifest m;
	struct error err = {""};
	char *runtime;

	if (build_args_parse(&args, argv + 1, argc - 1, &err) < 0 || !args.dir) {
		if (args.usage || !args.dir)
			usage_error(&cmd_instrument, "%s", args.dir || args.usage ? err.msg
									: "no output directory (-o DIR)");
		die("%s", err.msg);
	}
	runtime = cli_runtime_file("mantisrt.o");
	args.opt.runtime = runtime;
	if (build_instrumented(&args.opt, args.dir, &m, &err) < 0)
		die("%s", err.msg);
	print_summary(args.dir, &m);
	manifest_release(&m);
	free(runtime);
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
		"\n"
		"  -o, --output DIR    the build directory (made if missing)\n"
		"  -O0..-O3, -Os, -Oz  optimisation level of both builds (default -O2)\n"
		"  --schemes LIST      comma-separated: branch, loop, call, value, exit, bycount,\n"
		"                      or all (default all)\n"
		"  -I, -D, -U, -std=, -f..., -include, -isystem   passed to the compiler\n"
		"  -l, -L              passed to the linker; -pthread to both\n",
	.run = run_instrument,
};
