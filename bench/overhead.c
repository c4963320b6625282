/*
 * overhead.c: what counting features costs, for `make bench`: the instrumented build's time
 * over the original's on the same inputs.
 *
 * For every input, REPEAT rounds each run DIR/orig then DIR/inst (counters written to a
 * temporary file, as the profiler does), so the two meet the same machine state; each input's
 * time is the median of its rounds; the row gives the sums over inputs (CPU seconds) and their
 * ratio inst/orig.
 *
 * usage: overhead [-r REPEAT] NAME DIR INPUTS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Runs program on in; returns its CPU seconds, or -1 if it failed. */
static double cpu_of(const char *program, const struct input *in, char *const *env)
{
	struct run_options o = {.timeout = 120, .env = env};
	struct run_result r;
	struct error err = {""};

	if (runner_run(program, in, &o, &r, &err) < 0 || r.status != RUN_OK)
		return -1;
	return r.user + r.sys;
}

int main(int argc, char **argv)
{
	int repeat = 3, opt;
	struct inputs ins;
	struct error err = {""};
	double total[2] = {0, 0};
	char *prog[2], tmp[] = "/tmp/mantis-overhead-XXXXXX", *env[2] = {NULL, NULL};

	while ((opt = getopt(argc, argv, "r:")) != -1)
		repeat = opt == 'r' ? atoi(optarg) : repeat;
	if (argc - optind != 3 || repeat < 1 || !mkdtemp(tmp)) {
		fprintf(stderr, "usage: overhead [-r REPEAT] NAME DIR INPUTS\n");
		return 2;
	}
	prog[0] = xasprintf("%s/orig", argv[optind + 1]);
	prog[1] = xasprintf("%s/inst", argv[optind + 1]);
	env[0] = xasprintf("MANTIS_COUNTERS=%s/counters", tmp);
	if (inputs_load(&ins, argv[optind + 2], &err) < 0) {
		fprintf(stderr, "overhead: %s\n", err.msg);
		return 1;
	}
	for (int i = 0; i < ins.n; i++) {
		double t[2][64];

		for (int r = 0; r < repeat && r < 64; r++) {
			for (int k = 0; k < 2; k++) {
				t[k][r] = cpu_of(prog[k], &ins.v[i], k ? env : NULL);
				if (t[k][r] < 0) {
					fprintf(stderr, "overhead: %s:%d: %s failed\n", ins.path, ins.v[i].line, prog[k]);
					return 1;
				}
			}
		}
		for (int k = 0; k < 2; k++) {
			qsort(t[k], (size_t)repeat, sizeof t[k][0], compare_double);
			total[k] += t[k][repeat / 2];
		}
	}
	printf("%-11s %3d  %8.3f %8.3f  x%.2f\n", argv[optind], ins.n, total[0], total[1],
	       total[1] / (total[0] > 0 ? total[0] : 1e-9));
	{
		char *c = xasprintf("%s/counters", tmp);

		unlink(c);
		free(c);
	}
	rmdir(tmp);
	inputs_release(&ins);
	free(prog[0]);
	free(prog[1]);
	free(env[0]);
	return 0;
}
