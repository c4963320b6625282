/*
 * sampledb.h: PRED/build/sampled.db (SQLite), every input's sampled runs (sampler.h), so that
 * a training resumed after a kill, eval's baselines and the report read what training measured
 * instead of running the samples again. Schema: docs/ARCHITECTURE.md ("sampled.db").
 */
#ifndef MANTIS_SAMPLEDB_H
#define MANTIS_SAMPLEDB_H

struct error;
struct input;
struct sampled_run;

/* An open sampled.db, for one sandboxed build and one way of sampling. */
struct sampledb {
	struct sqlite3 *db; /* the connection; owned */
	char *path;         /* the file, for messages; owned */
	char *build;        /* the sandboxed build's hash: runs of another build are not read */
	char *setting;      /* how the inputs are sampled (fraction, chunks, files, repetitions) */
	int ncounters;      /* counters per run (the build's manifest) */
};

/*
 * Opens the database at path (made if missing) for runs of the executable exe with ncounters
 * counters, sampled as setting says. Returns 0, or -1 with err set (the file cannot be opened,
 * is not a sampled-runs database, or exe cannot be read).
 */
int sampledb_open(struct sampledb *s, const char *path, const char *exe, const char *setting,
		  int ncounters, struct error *err);
/* Looks for in's runs (its words, stdin, and the size and time of the files it names). Returns
 * 1 with *r filled (release with sampled_run_release), 0 if there are none, -1 on an error. */
int sampledb_get(struct sampledb *s, const struct input *in, struct sampled_run *r,
		 struct error *err);
/* Records r as in's runs (replacing earlier ones), in one transaction. Returns 0 or -1. */
int sampledb_put(struct sampledb *s, const struct input *in, const struct sampled_run *r,
		 struct error *err);
/* Closes s. */
void sampledb_close(struct sampledb *s);
#endif
