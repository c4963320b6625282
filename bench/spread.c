/*
 * spread.c: the run-time spread of a program over an inputs file, for `make bench`.
 *
 * Runs every input REPEAT times, interleaved (round r runs all inputs once) so that machine
 * drift spreads over inputs instead of biasing one; each input's time is the median of its
 * repetitions. Prints one row: min, median and max over inputs of CPU (user+sys) and wall
 * seconds, and max/min, the spread. Inputs that fail are counted and left out.
 *
 * usage: spread [-r REPEAT] [-t TIMEOUT] NAME PROGRAM INPUTS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

/* Prints min/median/max of v[0..n) (n > 0) in seconds; reorders v. */
static void print_range(const char *label, double *v, int n)
{
	double mid = median(v, n);

	printf("  %s %8.3f %8.3f %8.3f  x%-6.1f", label, v[0], mid, v[n - 1],
	       v[n - 1] / (v[0] > 0 ? v[0] : 1e-3));
}

int main(int argc, char **argv)
{
	int repeat = 3, opt, n, ok = 0, failed = 0;
	double timeout = 120;
	struct inputs ins;
	struct error err = {""};
	double *cpu, *wall, *cpu_in, *wall_in;
	char *bad;

	while ((opt = getopt(argc, argv, "r:t:")) != -1) {
		if (opt == 'r' && (repeat = atoi(optarg)) > 0)
			continue;
		if (opt == 't' && (timeout = atof(optarg)) > 0)
			continue;
		fprintf(stderr, "usage: spread [-r REPEAT] [-t TIMEOUT] NAME PROGRAM INPUTS\n");
		return 2;
	}
	if (argc - optind != 3) {
		fprintf(stderr, "usage: spread [-r REPEAT] [-t TIMEOUT] NAME PROGRAM INPUTS\n");
		return 2;
	}
	if (inputs_load(&ins, argv[optind + 2], &err) < 0 || ins.n == 0) {
		fprintf(stderr, "spread: %s\n", ins.n == 0 && !err.msg[0] ? "no inputs" : err.msg);
		return 1;
	}
	n = ins.n;
	cpu = xcalloc((size_t)n * (size_t)repeat, sizeof *cpu);
	wall = xcalloc((size_t)n * (size_t)repeat, sizeof *wall);
	bad = xcalloc((size_t)n, 1);
	for (int r = 0; r < repeat; r++) {
		for (int i = 0; i < n; i++) {
			struct run_options o = {.timeout = timeout};
			struct run_result res;

			if (bad[i])
				continue;
			if (runner_run(argv[optind + 1], &ins.v[i], &o, &res, &err) < 0) {
				fprintf(stderr, "spread: %s\n", err.msg);
				return 1;
			}
			if (res.status != RUN_OK) {
				fprintf(stderr, "spread: %s:%d: %s\n", ins.path, ins.v[i].line,
					runner_status_name(res.status));
				bad[i] = 1;
				continue;
			}
			cpu[i * repeat + r] = res.user + res.sys;
			wall[i * repeat + r] = res.wall;
		}
	}
	cpu_in = xcalloc((size_t)n, sizeof *cpu_in);
	wall_in = xcalloc((size_t)n, sizeof *wall_in);
	for (int i = 0; i < n; i++) {
		if (bad[i]) {
			failed++;
			continue;
		}
		cpu_in[ok] = median(cpu + i * repeat, repeat);
		wall_in[ok++] = median(wall + i * repeat, repeat);
	}
	printf("%-11s %3d", argv[optind], ok);
	if (ok > 0) {
		print_range("cpu", cpu_in, ok);
		print_range("wall", wall_in, ok);
	}
	printf("%s\n", failed ? "  FAILED INPUTS" : "");
	inputs_release(&ins);
	free(cpu);
	free(wall);
	free(cpu_in);
	free(wall_in);
	free(bad);
	return failed ? 1 : 0;
}
