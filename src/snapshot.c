/*
 * snapshot.c: runs of an instrumented build whose counters are taken as they grow
 * (snapshot.h). The runtime appends the counters to MANTIS_SNAPSHOTS every
 * MANTIS_SNAPSHOT_INTERVAL seconds as "MANTISS1", build id, number of counters, then per
 * snapshot the nanoseconds since start-up and the counters (little-endian 64-bit words).
 * Invariant: snapshots are read in time order and the final counters (the counters file at
 * exit) close the series, so a counter's last snapshot is its final value.
 */
#include "snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "manifest.h"
#include "predictor.h"
#include "runner.h"
#include "util.h"

static uint64_t le64(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* Appends a snapshot taken at seconds; takes ownership of counters. */
static void snapshots_add(struct snapshots *s, double seconds, uint64_t *counters)
{
	s->seconds = xrealloc(s->seconds, (size_t)(s->n + 1) * sizeof *s->seconds);
	s->counters = xrealloc(s->counters, (size_t)(s->n + 1) * sizeof *s->counters);
	s->seconds[s->n] = seconds;
	s->counters[s->n++] = counters;
}

/* Reads the snapshots file at path (rt/mantisrt.c's format) into *s. Returns 0 or -1. */
static int snapshots_read(const struct manifest *m, const char *path, struct snapshots *s,
			  struct error *err)
{
	FILE *f = fopen(path, "rb");
	size_t nc = (size_t)m->ncounters, size = 8 * (nc + 1);
	unsigned char head[24], *rec = xmalloc(size);
	int rc = 0;

	if (!f || fread(head, 1, sizeof head, f) != sizeof head || memcmp(head, "MANTISS1", 8) != 0 ||
	    le64(head + 8) != m->build_id || le64(head + 16) != (uint64_t)nc)
		rc = error_set(err, "%s: no snapshots of this build's counters (did the program "
			       "handle signal SIGRTMAX-3 itself?)", path);
	while (rc == 0 && fread(rec, 1, size, f) == size) {
		uint64_t *c = xcalloc(nc + 1, sizeof *c);

		for (size_t i = 0; i < nc; i++)
			c[i] = le64(rec + 8 * (i + 1));
		snapshots_add(s, (double)le64(rec) * 1e-9, c);
	}
	if (f)
		fclose(f);
	free(rec);
	return rc;
}

void snapshots_release(struct snapshots *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->counters[i]);
	free(s->counters);
	free(s->seconds);
	memset(s, 0, sizeof *s);
}

/* Returns the period of the snapshots: wall / per, but at least 0.1 ms and the time to write
 * 20 snapshots at 100 MB/s (a snapshot holds every counter: 430 KB for the sqlite3 shell,
 * whose runtime also skips periods when snapshots take a tenth of the run). */
static double snapshot_interval(const struct manifest *m, double wall, int per)
{
	double floor = 20 * 8.0 * ((double)m->ncounters + 1) / 1e8;

	if (floor < 1e-4)
		floor = 1e-4;
	return wall / per > floor ? wall / per : floor;
}

int snapshots_take(const char *inst, const struct manifest *m, const struct input *in,
		   double wall, int per, struct snapshots *s, struct error *err)
{
	char tmp[] = "/tmp/mantis-snapshots-XXXXXX", *path, *env[3];
	struct run_result res;
	uint64_t *counters = NULL;
	int rc = -1;

	memset(s, 0, sizeof *s);
	if (!mkdtemp(tmp))
		return error_errno(err, "cannot make a temporary directory");
	path = xasprintf("%s/snapshots", tmp);
	env[0] = xasprintf("MANTIS_SNAPSHOTS=%s", path);
	env[1] = xasprintf("MANTIS_SNAPSHOT_INTERVAL=%.9f", snapshot_interval(m, wall, per));
	env[2] = NULL;
	if (predictor_measure_env(inst, in, 10 * wall + 10, env, m, &res, &counters, NULL, err) < 0)
		goto out;
	if (res.status != RUN_OK || !counters) {
		error_set(err, "the instrumented program %s", res.status != RUN_OK
			  ? runner_status_name(res.status) : "wrote no counters");
		goto out;
	}
	if (snapshots_read(m, path, s, err) < 0)
		goto out;
	snapshots_add(s, res.wall, counters);
	counters = NULL;
	rc = 0;
out:
	if (rc < 0)
		snapshots_release(s);
	free(counters);
	unlink(path);
	rmdir(tmp);
	free(path);
	free(env[0]);
	free(env[1]);
	return rc;
}

int snapshots_first_reaching(const struct snapshots *s, int c, uint64_t k)
{
	int lo = 0, hi = s->n; /* the answer is in [lo, hi]; hi = n: none */

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->counters[mid][c] >= k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < s->n ? lo : -1;
}
