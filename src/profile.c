/*
 * profile.c: the profiler (Mantis, 001_ section 2 and 6.1).
 *
 *   read features.json, hash DIR/orig and DIR/inst, parse and hash the inputs file
 *   open profile.db; record the program (new) or check it is the same (resume)
 *   record the inputs; keep this shard's
 *   feature runs: DIR/inst once per input (jobs worker processes, each its own connection)
 *   timing runs: `repeat` rounds, each running DIR/orig once on every input (the first in
 *                order, the others shuffled: run_share), so that drift of the machine spreads
 *                over inputs and can be divided out (pace.h; one at a time unless asked)
 *   recheck runs: DIR/inst a second time (rep 1) on the `recheck` inputs of the shard whose
 *                feature run took longest: a feature that differs between two runs of one
 *                input (a clock reading, an address, a random value) is one no evaluator can
 *                compute again, and training rejects it before slicing (store_unstable_features)
 * Every run skips itself if already recorded and records itself in one transaction, so the
 * profile can be killed at any moment and resumed by running the same command again.
 */
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "fit.h"
#include "inputs.h"
#include "manifest.h"
#include "runner.h"
#include "store.h"
#include "util.h"

extern char **environ;

/* Everything one worker needs. */
struct job {
	const struct profile_options *opt;
	const struct manifest *m;    /* the features */
	struct store *st;            /* this process's connection */
	const struct inputs *ins;    /* the inputs */
	const int64_t *ids;          /* their ids in the store */
	char *orig, *inst;           /* the two programs */
	char *tmp;                   /* a private temporary folder for counters and stderr */
};

char *profile_db_path(const char *dir, const char *db)
{
	return db ? xstrdup(db) : xasprintf("%s/profile.db", dir);
}

/* Returns the first 2 KiB of a file, owned by the caller, or NULL if empty. */
static char *file_head(const char *path)
{
	char buf[2049];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	return xstrdup(buf);
}

/* Runs one input once as kind ("features" or "time", repetition rep) and records it. */
static int run_one(struct job *j, int i, const char *kind, int rep, struct error *err)
{
	int features = strcmp(kind, "features") == 0, rc;
	char *counters_path = xasprintf("%s/counters", j->tmp), *stderr_path = xasprintf("%s/stderr", j->tmp);
	char *env[2] = {xasprintf("MANTIS_COUNTERS=%s", counters_path), NULL};
	struct run_options ro = {.timeout = j->opt->timeout, .stderr_path = stderr_path,
				 .argv0 = j->m->program,
				 .env = features ? env : NULL, .pin_cpu = j->opt->pin_cpu};
	struct run_result res;
	uint64_t *counters = NULL;
	char *head = NULL;

	unlink(counters_path);
	rc = runner_run(features ? j->inst : j->orig, &j->ins->v[i], &ro, &res, err);
	if (rc == 0) {
		struct error ignored;

		if (features)
			counters_read(j->m, counters_path, &counters, &ignored);
		if (res.status != RUN_OK)
			head = file_head(stderr_path);
		rc = store_add_run(j->st, j->ids[i], kind, rep, &res, head, counters, j->m->ncounters, err);
	} else {
		error_prefix(err, "%s:%d", j->ins->path, j->ins->v[i].line);
	}
	free(counters);
	free(head);
	free(env[0]);
	free(counters_path);
	free(stderr_path);
	return rc;
}

/* Returns whether input i belongs to this shard (and to the selection, if any). */
static int in_shard(const struct profile_options *opt, int i)
{
	return (opt->nshards <= 0 || i % opt->nshards == opt->shard - 1) && (!opt->only || opt->only[i]);
}

/*
 * Runs (kind, rep) for every input of the shard where it is missing, worker w of nworkers. The
 * timing rounds after the first go in an order shuffled by the round's number: an input then
 * has other neighbours in time in each round, so that the machine's speed of the moment can be
 * told apart from the input's own time (pace.h; in one order every round, a speed that
 * favoured one stretch of the inputs would be that stretch's time). Returns 0 or -1.
 */
static int run_share(struct job *j, const char *kind, int rep, int w, int nworkers, int *done,
		     int total, struct error *err)
{
	int *order = xcalloc((size_t)j->ins->n + 1, sizeof *order), rc = 0;

	if (strcmp(kind, "time") == 0 && rep > 0) {
		fit_shuffle(order, j->ins->n, (unsigned long)rep);
	} else {
		for (int i = 0; i < j->ins->n; i++)
			order[i] = i;
	}
	for (int p = 0, k = 0; p < j->ins->n && rc == 0; p++) {
		int i = order[p], has;

		if (!in_shard(j->opt, i) || k++ % nworkers != w)
			continue;
		has = store_has_run(j->st, j->ids[i], kind, rep, err);
		if (has < 0 || (!has && run_one(j, i, kind, rep, err) < 0)) {
			rc = -1;
			break;
		}
		if (done) {
			(*done)++;
			if (j->opt->progress)
				fprintf(stderr, "\r%s run%s %d: %d/%d ", kind, strcmp(kind, "time") ? "" : " round",
					rep + 1, *done, total);
		}
	}
	free(order);
	return rc;
}

/* An input of the shard, how long its feature run took, and whether it was rechecked. */
struct timed_input {
	int i;       /* its index in the inputs */
	double wall; /* its feature run's wall time, NaN if none ended ok */
	int has;     /* it has a recheck run already */
};

/* Orders timed inputs by descending wall time, those without one last, ties by position. */
static int longest_first(const void *x, const void *y)
{
	const struct timed_input *a = x, *b = y;

	if (isnan(a->wall) || isnan(b->wall))
		return isnan(a->wall) - isnan(b->wall);
	return a->wall < b->wall ? 1 : a->wall > b->wall ? -1 : a->i - b->i;
}

/*
 * Runs DIR/inst a second time (rep 1) on the opt->recheck inputs of the shard whose feature run
 * ended ok and took longest (a clock read twice differs most there), unless the shard already
 * has that many recheck runs. Returns 0 or -1.
 */
static int run_rechecks(struct job *j, struct error *err)
{
	int n = 0, want = j->opt->recheck, have = 0, rc = 0;
	struct timed_input *v;

	if (want <= 0)
		return 0;
	v = xmalloc(sizeof *v * (size_t)(j->ins->n + 1));
	for (int i = 0; i < j->ins->n; i++) {
		int has;

		if (!in_shard(j->opt, i))
			continue;
		if ((has = store_has_run(j->st, j->ids[i], "features", 1, err)) < 0) {
			rc = -1;
			goto out;
		}
		have += has;
		v[n++] = (struct timed_input){i, store_run_wall(j->st, j->ids[i], "features", 0), has};
	}
	qsort(v, (size_t)n, sizeof *v, longest_first);
	for (int k = 0; k < n && have < want && !isnan(v[k].wall); k++) {
		if (v[k].has)
			continue;
		if (run_one(j, v[k].i, "features", 1, err) < 0) {
			rc = -1;
			goto out;
		}
		have++;
	}
out:
	free(v);
	return rc;
}

/* Makes a private temporary folder for a worker. */
static char *make_tmp(struct error *err)
{
	const char *parent = getenv("TMPDIR");
	char *tmp = xasprintf("%s/mantis-profile-XXXXXX", parent && *parent ? parent : "/tmp");

	if (!mkdtemp(tmp)) {
		error_errno(err, "cannot make a temporary folder %s", tmp);
		free(tmp);
		return NULL;
	}
	return tmp;
}

static void remove_tmp(char *tmp)
{
	char *a = xasprintf("%s/counters", tmp), *b = xasprintf("%s/stderr", tmp);

	unlink(a);
	unlink(b);
	rmdir(tmp);
	free(a);
	free(b);
	free(tmp);
}

/* Worker w of jobs in a child process: its own connection and scratch; never returns. */
static void worker(const struct job *j, const char *db, const char *kind, int rep, int w, int jobs)
{
	struct job mine = *j;
	struct store st;
	struct error e = {""};
	int rc;

	prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed profile takes its workers along */
	mine.tmp = make_tmp(&e);
	rc = mine.tmp ? store_open(&st, db, 0, &e) : -1;
	if (rc == 0) {
		mine.st = &st;
		rc = run_share(&mine, kind, rep, w, jobs, NULL, 0, &e);
		store_close(&st);
	}
	if (rc < 0)
		fprintf(stderr, "mantis: %s\n", e.msg);
	if (mine.tmp)
		remove_tmp(mine.tmp);
	_exit(rc < 0 ? 1 : 0);
}

/* Runs (kind, rep) over the shard with `jobs` worker processes. Returns 0 or -1. */
static int run_parallel(struct job *j, const char *db, const char *kind, int rep, int jobs,
			struct error *err)
{
	pid_t *pids = xcalloc((size_t)jobs, sizeof *pids);
	int failed = 0;

	fflush(NULL);
	for (int w = 0; w < jobs; w++) {
		pids[w] = fork();
		if (pids[w] < 0) {
			failed = 1;
			break;
		}
		if (pids[w] == 0)
			worker(j, db, kind, rep, w, jobs);
	}
	for (int w = 0; w < jobs; w++) {
		int status;

		if (pids[w] > 0 && (waitpid(pids[w], &status, 0) < 0 || !WIFEXITED(status) ||
				    WEXITSTATUS(status) != 0))
			failed = 1;
	}
	free(pids);
	return failed ? error_set(err, "a worker failed while running %s runs (see above); "
				  "what was recorded is kept: run the same command to resume", kind) : 0;
}

/* Counts the shard's inputs. */
static int shard_size(const struct profile_options *opt, const struct inputs *ins)
{
	int n = 0;

	for (int i = 0; i < ins->n; i++)
		n += in_shard(opt, i);
	return n;
}

/* Records the environment the runs see, once. */
static int record_environment(struct store *st, struct error *err)
{
	struct strbuf sb = {0};
	char *old = store_get_meta(st, "environment");
	int rc;

	if (old) {
		free(old);
		return 0;
	}
	strbuf_add(&sb, "", 0);
	for (char **e = environ; *e; e++) {
		strbuf_add(&sb, *e, strlen(*e));
		strbuf_addch(&sb, '\n');
	}
	rc = store_set_meta(st, "environment", sb.buf, err);
	strbuf_release(&sb);
	return rc;
}

/* Moves an existing database aside for --new. */
static int set_aside(const char *db, struct error *err)
{
	char stamp[32], *aside;
	time_t now = time(NULL);
	int rc = 0;

	if (access(db, F_OK) != 0)
		return 0;
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", localtime(&now));
	aside = xasprintf("%s.%s", db, stamp);
	if (rename(db, aside) < 0)
		rc = error_errno(err, "cannot move %s aside", db);
	else
		fprintf(stderr, "mantis: the previous profile is kept as %s\n", aside);
	for (int k = 0; rc == 0 && k < 2; k++) { /* the WAL and its index go along */
		const char *suffix = k == 0 ? "-wal" : "-shm";
		char *a = xasprintf("%s%s", db, suffix), *b = xasprintf("%s%s", aside, suffix);

		rename(a, b);
		free(a);
		free(b);
	}
	free(aside);
	return rc;
}

/* Fills id from the build directory and the inputs file. */
static int identify(const struct profile_options *opt, const struct manifest *m,
		    struct store_identity *id, char **orig, char **inst, struct error *err)
{
	snprintf(id->build_id, sizeof id->build_id, "%016llx", (unsigned long long)m->build_id);
	*orig = xasprintf("%s/orig", opt->dir);
	*inst = xasprintf("%s/inst", opt->dir);
	if (store_hash_file(*orig, id->orig_hash, err) < 0 || store_hash_file(*inst, id->inst_hash, err) < 0 ||
	    store_hash_file(opt->inputs, id->inputs_hash, err) < 0)
		return -1;
	return 0;
}

int profile_run(const struct profile_options *opt, struct error *err)
{
	char *manifest_path = xasprintf("%s/features.json", opt->dir), *db = profile_db_path(opt->dir, opt->db);
	struct job j = {opt, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
	struct manifest m = {0};
	struct inputs ins = {0};
	struct store st = {0};
	struct store_identity id;
	int64_t *ids = NULL;
	int rc = -1, repeat = opt->repeat, total, jobs = opt->jobs > 0 ? opt->jobs : 1;

	if (manifest_read(&m, manifest_path, err) < 0 || inputs_load(&ins, opt->inputs, err) < 0 ||
	    identify(opt, &m, &id, &j.orig, &j.inst, err) < 0)
		goto out;
	if (ins.n == 0) {
		error_set(err, "%s has no inputs", opt->inputs);
		goto out;
	}
	if ((opt->fresh && set_aside(db, err) < 0) || store_open(&st, db, 1, err) < 0)
		goto out;
	if (repeat <= 0) {
		char *rec = store_get_meta(&st, "repeat");

		repeat = rec ? atoi(rec) : 5;
		free(rec);
	}
	if (store_begin(&st, &id, repeat, &m, opt->inputs, err) < 0 || record_environment(&st, err) < 0 ||
	    (opt->metric && store_set_meta(&st, "metric", opt->metric, err) < 0))
		goto out;
	ids = xcalloc((size_t)ins.n, sizeof *ids);
	if (store_add_inputs(&st, &ins, ids, err) < 0)
		goto out;
	j.m = &m;
	j.st = &st;
	j.ins = &ins;
	j.ids = ids;
	if (!(j.tmp = make_tmp(err)))
		goto out;
	total = shard_size(opt, &ins);
	if (jobs > 1 && run_parallel(&j, db, "features", 0, jobs, err) < 0)
		goto out;
	if (jobs == 1) {
		int done = 0;

		if (run_share(&j, "features", 0, 0, 1, &done, total, err) < 0)
			goto out;
	}
	for (int r = 0; r < repeat; r++) {
		int done = 0;

		if (opt->parallel_timing && jobs > 1) {
			if (run_parallel(&j, db, "time", r, jobs, err) < 0)
				goto out;
		} else if (run_share(&j, "time", r, 0, 1, &done, total, err) < 0) {
			goto out;
		}
	}
	if (run_rechecks(&j, err) < 0)
		goto out;
	if (opt->progress)
		fprintf(stderr, "\r%*s\r", 40, "");
	rc = 0;
out:
	if (j.tmp)
		remove_tmp(j.tmp);
	if (st.db)
		store_close(&st);
	manifest_release(&m);
	inputs_release(&ins);
	free(ids);
	free(j.orig);
	free(j.inst);
	free(manifest_path);
	free(db);
	return rc;
}
