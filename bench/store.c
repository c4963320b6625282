/*
 * store.c: how fast a large profile loads into the model matrix, for `make bench`.
 *
 * Builds a profile of 3,000 inputs with a manifest of 5,000 features over 5,000 counters (each
 * feature one to three terms, as block-count formulas are; a tenth of them means), one feature
 * run and 5 timing runs per input, through the store API into a temporary database; then times
 * store_load, which decodes every counters blob and evaluates every feature (median of 3).
 * The goal: under 2 s.
 *
 * usage: store [INPUTS FEATURES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dataset.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "runner.h"
#include "store.h"
#include "util.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Fills m with nf features over nf counters. */
static void make_manifest(struct manifest *m, int nf)
{
	memset(m, 0, sizeof *m);
	m->ncounters = nf;
	m->build_id = 42;
	for (int f = 0; f < nf; f++) {
		char name[64];
		struct feature *ft;

		snprintf(name, sizeof name, "loop:f%d:x.c:%d", f / 10, f);
		ft = manifest_add(m, "loop", name, "f", "x.c", f, NULL, "");
		feature_add_term(ft, f, 1);
		if (f % 3)
			feature_add_term(ft, (f * 7) % nf, -1);
		if (f % 10 == 0)
			ft->denominator = (f + 1) % nf;
	}
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[1]) : 3000, nf = argc > 2 ? atoi(argv[2]) : 5000, excluded;
	char dir[] = "/tmp/mantis-bench-store-XXXXXX", *db;
	struct store_identity id = {"000000000000002a", "1", "2", "3"};
	struct manifest m;
	struct inputs ins = {0};
	struct store st;
	struct error err = {""};
	uint64_t *counters = xmalloc(sizeof *counters * (size_t)nf);
	int64_t *ids = xmalloc(sizeof *ids * (size_t)n);
	double t0, times[3];

	if (!mkdtemp(dir))
		return 1;
	db = xasprintf("%s/profile.db", dir);
	make_manifest(&m, nf);
	ins.path = xstrdup("inputs.txt");
	ins.dir = xstrdup(dir);
	ins.n = n;
	ins.v = xcalloc((size_t)n, sizeof *ins.v);
	for (int i = 0; i < n; i++) {
		ins.v[i].line = i + 1;
		ins.v[i].text = xasprintf("input %d", i);
		ins.v[i].argc = 1;
		ins.v[i].argv = xcalloc(2, sizeof *ins.v[i].argv);
		ins.v[i].argv[0] = xasprintf("%d", i);
	}
	t0 = now();
	if (store_open(&st, db, 1, &err) < 0 || store_begin(&st, &id, 5, &m, "inputs.txt", &err) < 0 ||
	    store_add_inputs(&st, &ins, ids, &err) < 0) {
		fprintf(stderr, "store: %s\n", err.msg);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct run_result r = {RUN_OK, 0, 0, 0.5 + i * 1e-4, 0.4, 0.01, 1000, NULL};

		for (int c = 0; c < nf; c++)
			counters[c] = (uint64_t)(i + 1) * (uint64_t)(c % 97 + 1);
		if (store_add_run(&st, ids[i], "features", 0, &r, NULL, counters, nf, &err) < 0)
			return 1;
		for (int rep = 0; rep < 5; rep++) {
			if (store_add_run(&st, ids[i], "time", rep, &r, NULL, NULL, 0, &err) < 0)
				return 1;
		}
	}
	printf("profile of %d inputs x %d features (%d runs) written in %.1f s\n", n, nf, 6 * n, now() - t0);
	for (int k = 0; k < 3; k++) {
		struct dataset ds;

		t0 = now();
		if (store_load(&st, &m, "wall", &ds, &excluded, &err) < 0) {
			fprintf(stderr, "store: %s\n", err.msg);
			return 1;
		}
		times[k] = now() - t0;
		if (ds.n != n || ds.p != nf || excluded)
			return fprintf(stderr, "store: loaded %d x %d, %d excluded\n", ds.n, ds.p, excluded), 1;
		dataset_release(&ds);
	}
	qsort(times, 3, sizeof *times, compare_double);
	printf("load into the model matrix: %.2f s (median of 3; goal under 2 s: %s)\n", times[1],
	       times[1] < 2 ? "met" : "NOT met");
	store_close(&st);
	for (int k = 0; k < 3; k++) {
		static const char *const suffixes[] = {"", "-wal", "-shm"};
		char *f = xasprintf("%s%s", db, suffixes[k]);

		unlink(f);
		free(f);
	}
	rmdir(dir);
	manifest_release(&m);
	inputs_release(&ins);
	free(counters);
	free(ids);
	free(db);
	return 0;
}
