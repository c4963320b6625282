/*
 * snapshot.h: the counters of one run of an instrumented build as they grew, taken by its
 * runtime every period (rt/mantisrt.c: MANTIS_SNAPSHOTS, MANTIS_SNAPSHOT_INTERVAL) and closed
 * by the final counters: where partial and bounded execution stop (baseline.c), and how far
 * into a run a variable gets its first value (train.c: what an evaluator that stops there
 * costs).
 */
#ifndef MANTIS_SNAPSHOT_H
#define MANTIS_SNAPSHOT_H

#include <stdint.h>

struct error;
struct input;
struct manifest;

/* Snapshots of the counters over one run. */
struct snapshots {
	int n;               /* snapshots, the final counters last */
	double *seconds;     /* per snapshot, seconds since the program started */
	uint64_t **counters; /* per snapshot, the manifest's ncounters values; owned */
};

/*
 * Runs inst (an instrumented build of m's program) on in with its counters taken every wall /
 * per seconds (wall: the program's time on in; but at least 0.1 ms and the time to write 20
 * snapshots at 100 MB/s), killed after 10 times wall plus 10 s, into *s, the final counters
 * last (release with snapshots_release). Returns 0, or -1 with err set when the program does
 * not end well or writes no counters.
 */
int snapshots_take(const char *inst, const struct manifest *m, const struct input *in,
		   double wall, int per, struct snapshots *s, struct error *err);
/* Returns the index of the first snapshot of s whose counter c is at least k (counters only
 * grow), or -1 when none is. */
int snapshots_first_reaching(const struct snapshots *s, int c, uint64_t k);
/* Frees what s owns and zeroes it. */
void snapshots_release(struct snapshots *s);

#endif
