/*
 * bycount.c: ByCounter's claim on the examples, for `make bench` (bench/count): counting one
 * increment per basic block (invariant instruction sequences) costs less than one increment
 * per instruction, and counts the same.
 *
 * For every input, REPEAT rounds each run ORIG (DIR-block/orig), DIR-block/inst (the bycount
 * scheme) and DIR-inst/inst (bycount-per-instruction), so the three meet the same machine
 * state; each input's time is the median of its rounds (CPU seconds); the row gives the sums
 * over inputs, each build's time over the original's, and the ratio of the two overheads
 * (per-instruction - 1) / (per-block - 1), ByCounter's "2.9x less overhead" (shown when counting
 * per block costs at least 2%: below, it would divide noise by noise). The first round
 * also compares the two builds' counts (count.c's JSON, every function and opcode): the row
 * ends with how many inputs counted the same.
 *
 * usage: bycount [-r REPEAT] NAME DIR-block DIR-inst INPUTS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "count.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "predictor.h"
#include "runner.h"
#include "util.h"

/* Runs DIR/orig (m NULL) or DIR/inst on in; returns its CPU seconds (or -1 if it failed) and,
 * for inst with json not NULL, its counts as JSON text (owned). */
static double run(const char *dir, const struct manifest *m, const struct input *in, char **json)
{
	char *exe = xasprintf("%s/%s", dir, m ? "inst" : "orig");
	struct run_result r;
	struct error err = {""};
	uint64_t *counters = NULL;
	double cpu = -1;

	if (predictor_measure(exe, in, 300, m, &r, &counters, NULL, &err) == 0 && r.status == RUN_OK)
		cpu = r.user + r.sys;
	if (json && counters) {
		struct count c;

		if (count_from_counters(&c, m, counters, &err) == 0) {
			json_t *j = count_json(&c);

			*json = json_dumps(j, JSON_COMPACT);
			json_decref(j);
			count_release(&c);
		}
	}
	free(counters);
	free(exe);
	return cpu;
}

static int load_manifest(struct manifest *m, const char *dir)
{
	char *path = xasprintf("%s/features.json", dir);
	struct error err = {""};
	int rc = manifest_read(m, path, &err);

	if (rc < 0)
		fprintf(stderr, "bycount: %s\n", err.msg);
	free(path);
	return rc;
}

int main(int argc, char **argv)
{
	int repeat = 3, opt, same = 0;
	struct inputs ins;
	struct manifest m[2];
	struct error err = {""};
	double total[3] = {0, 0, 0};
	const char *dir[2];

	while ((opt = getopt(argc, argv, "r:")) != -1) {
		if (opt == 'r')
			repeat = atoi(optarg);
	}
	if (argc - optind != 4 || repeat < 1 || repeat > 64) {
		fprintf(stderr, "usage: bycount [-r REPEAT] NAME DIR-block DIR-inst INPUTS\n");
		return 2;
	}
	dir[0] = argv[optind + 1];
	dir[1] = argv[optind + 2];
	if (load_manifest(&m[0], dir[0]) < 0 || load_manifest(&m[1], dir[1]) < 0)
		return 1;
	if (inputs_load(&ins, argv[optind + 3], &err) < 0) {
		fprintf(stderr, "bycount: %s\n", err.msg);
		return 1;
	}
	for (int i = 0; i < ins.n; i++) {
		double t[3][64];

		for (int r = 0; r < repeat; r++) {
			char *json[2] = {NULL, NULL};

			t[0][r] = run(dir[0], NULL, &ins.v[i], NULL);
			for (int k = 0; k < 2; k++)
				t[k + 1][r] = run(dir[k], &m[k], &ins.v[i], r == 0 ? &json[k] : NULL);
			if (t[0][r] < 0 || t[1][r] < 0 || t[2][r] < 0) {
				fprintf(stderr, "bycount: %s:%d: a run failed\n", ins.path, ins.v[i].line);
				return 1;
			}
			if (r == 0)
				same += json[0] && json[1] && strcmp(json[0], json[1]) == 0;
			free(json[0]);
			free(json[1]);
		}
		for (int k = 0; k < 3; k++)
			total[k] += median(t[k], repeat);
	}
	{
		double block = total[1] / total[0], inst = total[2] / total[0];

		char ratio[32] = "     -"; /* below 2% the ratio divides noise by noise */

		if (block >= 1.02)
			snprintf(ratio, sizeof ratio, "%6.2f", (inst - 1) / (block - 1));
		printf("%-11s %3d  %8.3f %8.3f %8.3f  x%-5.2f x%-5.2f  %s  %d/%d identical\n",
		       argv[optind], ins.n, total[0], total[1], total[2], block, inst, ratio, same, ins.n);
	}
	inputs_release(&ins);
	manifest_release(&m[0]);
	manifest_release(&m[1]);
	return same == ins.n ? 0 : 1;
}
