/*
 * cmd_calibrate.c: "mantis calibrate -o PLATFORM.json": measure a platform's cost per
 * instruction class and library call with generated microbenchmarks (calibrate.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate.h"
#include "cli.h"
#include "error.h"
#include "platform.h"
#include "util.h"

/* Splits cmd at blanks into *words (owned, NULL-ended); returns their number. */
static int split_words(const char *cmd, char ***words)
{
	char *copy = xstrdup(cmd), *save = NULL, *w;
	int n = 0;

	*words = xcalloc(1, sizeof **words);
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		*words = xrealloc(*words, sizeof **words * (size_t)(n + 2));
		(*words)[n++] = xstrdup(w);
		(*words)[n] = NULL;
	}
	free(copy);
	return n;
}

static void print_costs(const struct platform *p)
{
	double worst = 0;

	printf("startup %.3f ms CPU (noise %.1f%%)\n", 1e3 * p->startup, 100 * p->startup_noise);
	printf("%-20s %9s %9s %9s %7s\n", "opcode", "ns", "latency", "through", "noise");
	for (int i = 0; i < p->nop; i++) {
		printf("%-20s %9.3f %9.3f %9.3f %6.1f%%\n", p->op[i].name, p->op[i].cost,
		       p->op[i].latency, p->op[i].throughput, 100 * p->op[i].noise);
		worst = p->op[i].noise > worst ? p->op[i].noise : worst;
	}
	printf("%-20s %9s %9s %7s\n", "library function", "ns/call", "ns/byte", "noise");
	for (int i = 0; i < p->ncall; i++) {
		printf("%-20s %9.3f %9.4f %6.1f%%\n", p->call[i].name, p->call[i].cost,
		       p->call[i].per_byte, 100 * p->call[i].noise);
		worst = p->call[i].noise > worst ? p->call[i].noise : worst;
	}
	printf("largest noise %.1f%% (mean relative deviation of a repetition from the median)\n",
	       100 * worst);
}

static int run_calibrate(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'}, {"target", required_argument, NULL, 't'},
		{"opt", required_argument, NULL, 'O'},    {"runner", required_argument, NULL, 'r'},
		{"repeat", required_argument, NULL, 'R'}, {"seconds", required_argument, NULL, 's'},
		{"quiet", no_argument, NULL, 'q'},        {NULL, 0, NULL, 0},
	};
	struct calibrate_options co = {.opt = "2", .repetitions = 5, .seconds = 0.02};
	const char *out = NULL;
	char work[] = "/tmp/mantis-calibrate-XXXXXX", **runner = NULL, *rm[] = {"rm", "-rf", work, NULL};
	int opt, quiet = 0;
	struct platform p;
	struct error err = {""};

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:q", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': out = optarg; break;
		case 't': co.target = optarg; break;
		case 'O': co.opt = optarg; break;
		case 'r': co.nrunner = split_words(optarg, &runner); co.runner = runner; break;
		case 'R': co.repetitions = atoi(optarg); break;
		case 's': co.seconds = atof(optarg); break;
		case 'q': quiet = 1; break;
		default: usage_error(&cmd_calibrate, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc)
		usage_error(&cmd_calibrate, "unexpected argument '%s'", argv[optind]);
	if (!out)
		usage_error(&cmd_calibrate, "no output file (-o PLATFORM.json)");
	if (co.repetitions < 1 || co.repetitions > 64)
		usage_error(&cmd_calibrate, "--repeat must be 1 to 64");
	if (!(co.seconds > 0) || co.seconds > 10)
		usage_error(&cmd_calibrate, "--seconds must be above 0 and at most 10");
	if (strlen(co.opt) != 1 || !strchr("0123sz", co.opt[0]))
		usage_error(&cmd_calibrate, "--opt: '%s' is not 0, 1, 2, 3, s or z", co.opt);
	if (co.runner && co.nrunner == 0)
		usage_error(&cmd_calibrate, "--runner: empty command");
	if (!mkdtemp(work))
		die("cannot make a temporary directory");
	co.workdir = work;
	if (calibrate_run(&p, &co, &err) < 0 || platform_write(&p, out, &err) < 0) {
		run_command(rm, NULL, &err);
		die("%s", err.msg);
	}
	run_command(rm, NULL, &err);
	if (!quiet)
		print_costs(&p);
	printf("wrote %s: %d opcodes, %d library functions, %s%s -O%s\n", out, p.nop, p.ncall,
	       p.target ? p.target : "this machine", p.nrunner ? " (emulated)" : "", p.opt);
	platform_release(&p);
	for (int i = 0; i < co.nrunner; i++)
		free(runner[i]);
	free(runner);
	return EXIT_OK;
}

const struct command cmd_calibrate = {
	.name = "calibrate",
	.summary = "measure a platform's cost per instruction class and library call",
	.usage =
		"usage: mantis calibrate -o PLATFORM.json [--target TRIPLE] [--opt LEVEL]\n"
		"                        [--runner CMD] [--repeat R] [--seconds S] [--quiet]\n"
		"\n"
		"Generates microbenchmarks (one C program: a kernel per LLVM opcode class and per\n"
		"common libc and libm function), builds them with clang-14 for TRIPLE at -OLEVEL and\n"
		"runs them there, and writes each cost to PLATFORM.json, for 'mantis predict\n"
		"--platform' and 'mantis eval --platform'. An opcode's cost is the mean of its\n"
		"latency (one dependency chain) and throughput (8 independent chains), 16 per loop\n"
		"iteration, the empty loop's time subtracted; a library function's cost is per call,\n"
		"and per byte for those with a size (memcpy, memset, malloc, fread...), from two\n"
		"sizes. Every kernel is measured R times in interleaved rounds; the median counts and\n"
		"the noise (mean relative deviation from it) is reported. Startup: the median CPU\n"
		"time of R runs of a program that does nothing. Prints the costs in ns.\n"
		"\n"
		"  -o, --output FILE  the platform file to write\n"
		"  --target TRIPLE    cross-compile (e.g. aarch64-linux-gnu; needs Debian's cross libc)\n"
		"  --opt LEVEL        optimisation level of the kernels: 0, 1, 2, 3, s, z (default 2)\n"
		"  --runner CMD       command prefix that runs a program there (default: none for this\n"
		"                     machine's architecture, else qemu-ARCH -L /usr/TRIPLE)\n"
		"  --repeat R         measurements of every kernel (default 5)\n"
		"  --seconds S        wall time each measurement aims at (default 0.02)\n"
		"  -q, --quiet        print only the last line\n",
	.run = run_calibrate,
};
