/*
 * overhead.c: what counting features costs, for `make bench`: the instrumented build's time
 * over the original's on the same inputs.
 *
 * For every input, REPEAT rounds each run DIR/orig then DIR/inst (counters written to a
 * temporary file, as the profiler does), so the two meet the same machine state; each input's
 * time is the median of its rounds; the row gives the sums over inputs (CPU seconds) and their
 * ratio inst/orig. The first round also checks transparency: same stdout, exit status and
 * files written; the row ends with how many inputs were identical. With -p PGO, a third
 * program (the same sources built by clang-14 -fprofile-instr-generate, LLVM's own
 * instrumentation for profile-guided optimisation) is timed in the same rounds, as a reference.
 * With -b BUDGET_DIR, BUDGET_DIR/inst (the same program instrumented with `--budget`) is timed
 * in the same rounds too, and its ratio to DIR/orig printed beside the full build's.
 *
 * usage: overhead [-r REPEAT] [-p PGO] [-b BUDGET_DIR] NAME DIR INPUTS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

/* Runs program on in (stdout to out, scratch kept in *scratch if asked); returns its CPU
 * seconds, or -1 if it failed. */
static double cpu_of(const char *program, const struct input *in, char *const *env,
		     const char *out, char **scratch)
{
	struct run_options o = {.timeout = 120, .env = env, .stdout_path = out, .keep_scratch = scratch != NULL};
	struct run_result r;
	struct error err = {""};

	if (runner_run(program, in, &o, &r, &err) < 0 || r.status != RUN_OK)
		return -1;
	if (scratch)
		*scratch = r.scratch;
	return r.user + r.sys;
}

/* Returns whether the two runs printed the same and wrote the same files; removes them. */
static int same_runs(const char *out_a, const char *out_b, char *scratch_a, char *scratch_b)
{
	char *cmd = xasprintf("cmp -s '%s' '%s' && diff -r '%s' '%s' > /dev/null", out_a, out_b,
			      scratch_a, scratch_b);
	int same = system(cmd) == 0;

	free(cmd);
	cmd = xasprintf("rm -rf '%s' '%s'", scratch_a, scratch_b);
	if (system(cmd) != 0)
		same = 0;
	free(cmd);
	free(scratch_a);
	free(scratch_b);
	return same;
}

int main(int argc, char **argv)
{
	int repeat = 3, opt, nprog = 2;
	const char *pgo = NULL, *budget = NULL;
	struct inputs ins;
	struct error err = {""};
	double total[4] = {0, 0, 0, 0};
	char *prog[4] = {NULL}, tmp[] = "/tmp/mantis-overhead-XXXXXX", *env[2] = {NULL, NULL}, *out[2];
	char *pgo_env[2] = {NULL, NULL};
	int identical = 0;

	while ((opt = getopt(argc, argv, "r:p:b:")) != -1) {
		if (opt == 'r')
			repeat = atoi(optarg);
		else if (opt == 'p')
			pgo = optarg;
		else if (opt == 'b')
			budget = optarg;
	}
	if (argc - optind != 3 || repeat < 1 || !mkdtemp(tmp)) {
		fprintf(stderr, "usage: overhead [-r REPEAT] [-p PGO] [-b BUDGET_DIR] NAME DIR INPUTS\n");
		return 2;
	}
	prog[0] = xasprintf("%s/orig", argv[optind + 1]);
	prog[1] = xasprintf("%s/inst", argv[optind + 1]);
	if (pgo) {
		prog[2] = xstrdup(pgo);
		pgo_env[0] = xasprintf("LLVM_PROFILE_FILE=%s/pgo.profraw", tmp);
		nprog = 3;
	}
	if (budget)
		prog[3] = xasprintf("%s/inst", budget);
	env[0] = xasprintf("MANTIS_COUNTERS=%s/counters", tmp);
	out[0] = xasprintf("%s/orig.out", tmp);
	out[1] = xasprintf("%s/inst.out", tmp);
	if (inputs_load(&ins, argv[optind + 2], &err) < 0) {
		fprintf(stderr, "overhead: %s\n", err.msg);
		return 1;
	}
	for (int i = 0; i < ins.n; i++) {
		double t[4][64];

		for (int r = 0; r < repeat && r < 64; r++) {
			char *scratch[2] = {NULL, NULL};

			for (int k = 0; k < 2; k++) {
				t[k][r] = cpu_of(prog[k], &ins.v[i], k ? env : NULL, out[k], r == 0 ? &scratch[k] : NULL);
				if (t[k][r] < 0) {
					fprintf(stderr, "overhead: %s:%d: %s failed\n", ins.path, ins.v[i].line, prog[k]);
					return 1;
				}
			}
			if (r == 0)
				identical += same_runs(out[0], out[1], scratch[0], scratch[1]);
			if (nprog == 3 && (t[2][r] = cpu_of(prog[2], &ins.v[i], pgo_env, NULL, NULL)) < 0) {
				fprintf(stderr, "overhead: %s:%d: %s failed\n", ins.path, ins.v[i].line, prog[2]);
				return 1;
			}
			if (budget && (t[3][r] = cpu_of(prog[3], &ins.v[i], env, NULL, NULL)) < 0) {
				fprintf(stderr, "overhead: %s:%d: %s failed\n", ins.path, ins.v[i].line, prog[3]);
				return 1;
			}
		}
		for (int k = 0; k < 4; k++)
			total[k] += k < nprog || (k == 3 && budget) ? median(t[k], repeat) : 0;
	}
	printf("%-11s %3d  %8.3f %8.3f  x%-5.2f  %d/%d identical", argv[optind], ins.n, total[0],
	       total[1], total[1] / (total[0] > 0 ? total[0] : 1e-9), identical, ins.n);
	if (budget)
		printf("   --budget x%.2f", total[3] / (total[0] > 0 ? total[0] : 1e-9));
	if (nprog == 3)
		printf("   clang -fprofile-instr-generate x%.2f", total[2] / (total[0] > 0 ? total[0] : 1e-9));
	putchar('\n');
	for (int k = 0; k < 3; k++) {
		char *f = k < 2 ? xstrdup(out[k]) : xasprintf("%s/counters", tmp);

		unlink(f);
		free(f);
	}
	rmdir(tmp);
	inputs_release(&ins);
	free(prog[0]);
	free(prog[1]);
	free(prog[3]);
	if (nprog == 3) {
		char *raw = xasprintf("%s/pgo.profraw", tmp);

		unlink(raw);
		free(raw);
		free(prog[2]);
		free(pgo_env[0]);
	}
	free(env[0]);
	free(out[0]);
	free(out[1]);
	return identical == ins.n ? 0 : 1;
}
