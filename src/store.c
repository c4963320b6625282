/*
 * store.c: the profile database.
 *
 * Durability: WAL journal with synchronous=NORMAL survives the process being killed at any
 * moment (a transaction is in the database or not at all); every finished run is one
 * transaction (BEGIN IMMEDIATE ... COMMIT) and UNIQUE(input, kind, rep) makes recording a run
 * twice impossible, so a killed profile resumes with no partial run and no duplicate.
 * Invariant: a counters row exists only for a features run, written in that run's transaction.
 */
#include "store.h"

#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "dataset.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "pace.h"
#include "runner.h"
#include "util.h"

static const char schema[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
	"CREATE TABLE features (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, kind TEXT NOT NULL);\n"
	"CREATE TABLE inputs (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, line INTEGER NOT NULL,\n"
	"  text TEXT NOT NULL, key TEXT NOT NULL UNIQUE);\n"
	"CREATE TABLE runs (id INTEGER PRIMARY KEY, input INTEGER NOT NULL REFERENCES inputs(id),\n"
	"  kind TEXT NOT NULL CHECK (kind IN ('time', 'features')), rep INTEGER NOT NULL,\n"
	"  status TEXT NOT NULL CHECK (status IN ('ok', 'nonzero', 'crash', 'timeout')),\n"
	"  exit_code INTEGER, signal INTEGER, wall REAL, user REAL, sys REAL, maxrss INTEGER,\n"
	"  stderr TEXT, finished TEXT NOT NULL, UNIQUE (input, kind, rep));\n"
	"CREATE TABLE counters (run INTEGER PRIMARY KEY REFERENCES runs(id), data BLOB NOT NULL);\n"
	"INSERT INTO meta VALUES ('schema_version', '1');\n";

static int sql_error(struct store *st, struct error *err, const char *what)
{
	return error_set(err, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

static int exec(struct store *st, const char *sql, struct error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error_set(err, "%s: %s", st->path, msg ? msg : sqlite3_errmsg(st->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int store_hash_file(const char *path, char out[17], struct error *err)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[65536];
	uint64_t h = 1469598103934665603ull;
	size_t n;

	if (!f)
		return error_errno(err, "cannot read %s", path);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	}
	fclose(f);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
	return 0;
}

int store_open(struct store *st, const char *path, int create, struct error *err)
{
	sqlite3_stmt *q;
	int fresh, rc;

	memset(st, 0, sizeof *st);
	st->path = xstrdup(path);
	rc = sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0),
			     NULL);
	if (rc != SQLITE_OK) {
		error_set(err, "cannot open %s: %s", path, st->db ? sqlite3_errmsg(st->db) : "out of memory");
		store_close(st);
		return -1;
	}
	sqlite3_busy_timeout(st->db, 60000);
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM sqlite_master", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW) {
		error_set(err, "%s is not a mantis profile database (%s)", path, sqlite3_errmsg(st->db));
		sqlite3_finalize(q);
		store_close(st);
		return -1;
	}
	fresh = sqlite3_column_int(q, 0) == 0;
	sqlite3_finalize(q);
	if (exec(st, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;", err) < 0 ||
	    (fresh && exec(st, schema, err) < 0)) {
		store_close(st);
		return -1;
	}
	if (!fresh && (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = 'schema_version'",
					  -1, &q, NULL) != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW)) {
		sqlite3_finalize(q);
		error_set(err, "%s is not a mantis profile database", path);
		store_close(st);
		return -1;
	}
	if (!fresh)
		sqlite3_finalize(q);
	return 0;
}

void store_close(struct store *st)
{
	if (st->db)
		sqlite3_close(st->db);
	free(st->path);
	memset(st, 0, sizeof *st);
}

/* Returns meta[key] (owned by the caller) or NULL. */
static char *meta_get(struct store *st, const char *key)
{
	sqlite3_stmt *q;
	char *v = NULL;

	if (sqlite3_prepare_v2(st->db, "SELECT value FROM meta WHERE key = ?", -1, &q, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = xstrdup((const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return v;
}

static int meta_set(struct store *st, const char *key, const char *value, struct error *err)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(st->db, "INSERT OR REPLACE INTO meta VALUES (?, ?)", -1, &q, NULL) != SQLITE_OK)
		return sql_error(st, err, "recording the profile");
	sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, value, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : sql_error(st, err, "recording the profile");
}

/* Records a new profile's identity and features. */
static int record_program(struct store *st, const struct store_identity *id, int repeat,
			  const struct manifest *m, const char *inputs_path, struct error *err)
{
	struct utsname u;
	char buf[64], *machine, *ok = runner_format_exits(runner_ok_exits());
	time_t now = time(NULL);
	sqlite3_stmt *q;
	int rc = 0;

	uname(&u);
	machine = xasprintf("%s %s %s", u.sysname, u.release, u.machine);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (exec(st, "BEGIN IMMEDIATE", err) < 0) {
		free(machine);
		free(ok);
		return -1;
	}
	rc |= meta_set(st, "build_id", id->build_id, err) | meta_set(st, "orig_hash", id->orig_hash, err) |
	      meta_set(st, "inst_hash", id->inst_hash, err) | meta_set(st, "inputs_hash", id->inputs_hash, err) |
	      meta_set(st, "inputs_path", inputs_path, err) | meta_set(st, "machine", machine, err) |
	      meta_set(st, "created", buf, err) | meta_set(st, "ok_exits", ok, err);
	snprintf(buf, sizeof buf, "%d", repeat);
	rc |= meta_set(st, "repeat", buf, err);
	free(machine);
	free(ok);
	if (rc == 0 && sqlite3_prepare_v2(st->db, "INSERT INTO features(id, name, kind) VALUES (?, ?, ?)",
					  -1, &q, NULL) == SQLITE_OK) {
		for (int i = 0; i < m->n && rc == 0; i++) {
			sqlite3_bind_int(q, 1, i);
			sqlite3_bind_text(q, 2, m->v[i].name, -1, SQLITE_STATIC);
			sqlite3_bind_text(q, 3, m->v[i].kind, -1, SQLITE_STATIC);
			rc = sqlite3_step(q) == SQLITE_DONE ? 0 : sql_error(st, err, "recording features");
			sqlite3_reset(q);
		}
		sqlite3_finalize(q);
	}
	if (rc != 0) {
		exec(st, "ROLLBACK", err);
		return -1;
	}
	return exec(st, "COMMIT", err);
}

int store_set_meta(struct store *st, const char *key, const char *value, struct error *err)
{
	return meta_set(st, key, value, err);
}

char *store_get_meta(struct store *st, const char *key)
{
	return meta_get(st, key);
}

int store_begin(struct store *st, const struct store_identity *id, int repeat,
		const struct manifest *m, const char *inputs_path, struct error *err)
{
	char *build = meta_get(st, "build_id"), *orig, *inst, *inputs, *rep, *ok, *now;
	int rc = 0;

	if (!build)
		return record_program(st, id, repeat, m, inputs_path, err);
	orig = meta_get(st, "orig_hash");
	inst = meta_get(st, "inst_hash");
	inputs = meta_get(st, "inputs_hash");
	rep = meta_get(st, "repeat");
	ok = meta_get(st, "ok_exits"); /* a profile made before --ok-exit has none: "" */
	now = runner_format_exits(runner_ok_exits()); /* the rule the runs are judged by */
	if (strcmp(build, id->build_id) || !orig || strcmp(orig, id->orig_hash) || !inst ||
	    strcmp(inst, id->inst_hash))
		rc = error_set(err, "%s profiles another build of the program (it was rebuilt since): "
			       "use --new to start a new profile", st->path);
	else if (!inputs || strcmp(inputs, id->inputs_hash))
		rc = error_set(err, "%s was started with a different inputs file (or the file changed): "
			       "use --new to start a new profile", st->path);
	else if (rep && repeat > 0 && atoi(rep) != repeat)
		rc = error_set(err, "%s was started with --repeat %s, not %d: use --new to start a new "
			       "profile", st->path, rep, repeat);
	else if (strcmp(ok ? ok : "", now))
		rc = error_set(err, "%s was started with --ok-exit %s, not %s: its runs were judged "
			       "by another rule; start a new profile (profile --new, train --fresh)", st->path,
			       ok && *ok ? ok : "(none)", *now ? now : "(none)");
	free(ok);
	free(now);
	free(build);
	free(orig);
	free(inst);
	free(inputs);
	free(rep);
	return rc;
}

int store_add_inputs(struct store *st, const struct inputs *ins, int64_t *ids, struct error *err)
{
	sqlite3_stmt *add = NULL, *get = NULL;
	int rc = 0;

	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO inputs(position, line, text, key) "
				       "VALUES (?, ?, ?, ?)", -1, &add, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "SELECT id FROM inputs WHERE key = ?", -1, &get, NULL) != SQLITE_OK)
		rc = sql_error(st, err, "recording inputs");
	for (int i = 0; rc == 0 && i < ins->n; i++) {
		char *key = input_key(&ins->v[i]);

		sqlite3_bind_int(add, 1, i);
		sqlite3_bind_int(add, 2, ins->v[i].line);
		sqlite3_bind_text(add, 3, ins->v[i].text, -1, SQLITE_STATIC);
		sqlite3_bind_text(add, 4, key, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(get, 1, key, -1, SQLITE_TRANSIENT);
		if (sqlite3_step(add) != SQLITE_DONE || sqlite3_step(get) != SQLITE_ROW)
			rc = sql_error(st, err, "recording inputs");
		else
			ids[i] = sqlite3_column_int64(get, 0);
		sqlite3_reset(add);
		sqlite3_reset(get);
		free(key);
	}
	sqlite3_finalize(add);
	sqlite3_finalize(get);
	if (rc != 0) {
		exec(st, "ROLLBACK", err);
		return -1;
	}
	return exec(st, "COMMIT", err);
}

int store_has_run(struct store *st, int64_t input, const char *kind, int rep, struct error *err)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(st->db, "SELECT 1 FROM runs WHERE input = ? AND kind = ? AND rep = ?",
			       -1, &q, NULL) != SQLITE_OK)
		return sql_error(st, err, "reading runs");
	sqlite3_bind_int64(q, 1, input);
	sqlite3_bind_text(q, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, rep);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : sql_error(st, err, "reading runs");
}

int store_add_run(struct store *st, int64_t input, const char *kind, int rep,
		  const struct run_result *res, const char *stderr_head, const uint64_t *counters,
		  int ncounters, struct error *err)
{
	sqlite3_stmt *q = NULL;
	char when[32];
	time_t now = time(NULL);
	int rc = 0;

	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (exec(st, "BEGIN IMMEDIATE", err) < 0)
		return -1;
	if (sqlite3_prepare_v2(st->db, "INSERT OR IGNORE INTO runs(input, kind, rep, status, exit_code, "
				       "signal, wall, user, sys, maxrss, stderr, finished) VALUES "
				       "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK) {
		rc = sql_error(st, err, "recording a run");
	} else {
		sqlite3_bind_int64(q, 1, input);
		sqlite3_bind_text(q, 2, kind, -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 3, rep);
		sqlite3_bind_text(q, 4, runner_status_name(res->status), -1, SQLITE_STATIC);
		sqlite3_bind_int(q, 5, res->exit_code);
		sqlite3_bind_int(q, 6, res->signal);
		sqlite3_bind_double(q, 7, res->wall);
		sqlite3_bind_double(q, 8, res->user);
		sqlite3_bind_double(q, 9, res->sys);
		sqlite3_bind_int64(q, 10, res->maxrss_kb);
		if (stderr_head)
			sqlite3_bind_text(q, 11, stderr_head, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 12, when, -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = sql_error(st, err, "recording a run");
	}
	sqlite3_finalize(q);
	if (rc == 0 && counters && sqlite3_changes(st->db) == 1) {
		int64_t run = sqlite3_last_insert_rowid(st->db);
		unsigned char *blob = xmalloc((size_t)ncounters * 8 + 1);

		for (int i = 0; i < ncounters; i++) {
			for (int b = 0; b < 8; b++)
				blob[8 * i + b] = (unsigned char)(counters[i] >> (8 * b));
		}
		if (sqlite3_prepare_v2(st->db, "INSERT INTO counters(run, data) VALUES (?, ?)", -1, &q,
				       NULL) != SQLITE_OK) {
			rc = sql_error(st, err, "recording counters");
		} else {
			sqlite3_bind_int64(q, 1, run);
			sqlite3_bind_blob(q, 2, blob, ncounters * 8, SQLITE_STATIC);
			if (sqlite3_step(q) != SQLITE_DONE)
				rc = sql_error(st, err, "recording counters");
			sqlite3_finalize(q);
		}
		free(blob);
	}
	if (rc != 0) {
		exec(st, "ROLLBACK", err);
		return -1;
	}
	return exec(st, "COMMIT", err);
}

/* Per-input completeness, as SQL: one row per input. */
static const char input_state_sql[] =
	"SELECT i.id, i.text,"
	" (SELECT status FROM runs WHERE input = i.id AND kind = 'features' AND rep = 0),"
	" (SELECT count(*) FROM runs r JOIN counters c ON c.run = r.id WHERE r.input = i.id"
	"   AND r.kind = 'features' AND r.rep = 0),"
	" (SELECT count(*) FROM runs WHERE input = i.id AND kind = 'time' AND status = 'ok'),"
	" (SELECT count(*) FROM runs WHERE input = i.id AND status != 'ok'"
	"   AND NOT (kind = 'features' AND rep > 0)),"
	" (SELECT count(*) FROM runs f JOIN runs t ON t.input = f.input AND t.kind = 'time'"
	"   WHERE f.input = i.id AND f.kind = 'features' AND f.rep = 0"
	"   AND (f.status != t.status OR f.exit_code != t.exit_code) AND t.status != 'timeout'),"
	" i.line FROM inputs i ORDER BY i.position";

static int repeat_of(struct store *st)
{
	char *rep = meta_get(st, "repeat");
	int r = rep ? atoi(rep) : 0;

	free(rep);
	return r > 0 ? r : 1;
}

/* Returns the metric (wall, cpu, user, sys or maxrss) of the run q's row holds in columns
 * from..from+3 (wall, user, sys, maxrss). */
static double run_metric(sqlite3_stmt *q, int from, const char *metric)
{
	double wall = sqlite3_column_double(q, from), user = sqlite3_column_double(q, from + 1);
	double sys = sqlite3_column_double(q, from + 2), rss = sqlite3_column_double(q, from + 3);

	return strcmp(metric, "cpu") == 0 ? user + sys : strcmp(metric, "user") == 0 ? user
	       : strcmp(metric, "sys") == 0 ? sys : strcmp(metric, "maxrss") == 0 ? rss : wall;
}

/* Fills t[0..n) with the input's timing runs of metric; returns n (at most cap). */
static int timings(sqlite3_stmt *q, int64_t input, const char *metric, double *t, int cap)
{
	int n = 0;

	sqlite3_bind_int64(q, 1, input);
	while (sqlite3_step(q) == SQLITE_ROW && n < cap)
		t[n++] = run_metric(q, 0, metric);
	sqlite3_reset(q);
	return n;
}

/* Each input's ok timing runs of one metric, the machine's pace divided out (pace.h). */
struct paced {
	int n;          /* inputs with ok timing runs */
	int64_t *id;    /* their ids, ascending; owned */
	double *median; /* each one's median run; owned */
	struct pace pc; /* whether the runs were divided, and their spread before and after */
};

static int compare_ids(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * Loads every ok timing run in the order they were made (by run id) and fills *out with a time
 * metric's (wall, cpu, user or sys) runs divided by the machine's pace where that lowers their
 * spread. Returns 0 or -1 with err set; release with paced_release.
 */
static int paced_load(struct store *st, const char *metric, struct paced *out, struct error *err)
{
	sqlite3_stmt *q;
	int64_t *run_input = NULL;
	double *value = NULL, *divided;
	int *dense, n = 0, cap = 0;

	memset(out, 0, sizeof *out);
	if (sqlite3_prepare_v2(st->db, "SELECT input, wall, user, sys, maxrss FROM runs WHERE kind = "
				       "'time' AND status = 'ok' ORDER BY id", -1, &q, NULL) != SQLITE_OK)
		return sql_error(st, err, "reading the timing runs");
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 1024;
			run_input = xrealloc(run_input, sizeof *run_input * (size_t)cap);
			value = xrealloc(value, sizeof *value * (size_t)cap);
		}
		run_input[n] = sqlite3_column_int64(q, 0);
		value[n++] = run_metric(q, 1, metric);
	}
	sqlite3_finalize(q);
	out->id = xcalloc((size_t)n + 1, sizeof *out->id);
	for (int k = 0; k < n; k++)
		out->id[k] = run_input[k];
	qsort(out->id, (size_t)n, sizeof *out->id, compare_ids);
	for (int k = 0; k < n; k++) {
		if (out->n == 0 || out->id[out->n - 1] != out->id[k])
			out->id[out->n++] = out->id[k];
	}
	dense = xcalloc((size_t)n + 1, sizeof *dense);
	for (int k = 0; k < n; k++)
		dense[k] = (int)((int64_t *)bsearch(&run_input[k], out->id, (size_t)out->n,
						    sizeof *out->id, compare_ids) - out->id);
	divided = xcalloc((size_t)n + 1, sizeof *divided);
	out->median = xcalloc((size_t)out->n + 1, sizeof *out->median);
	pace_divide(dense, value, n, out->n, divided, out->median, &out->pc);
	free(run_input);
	free(value);
	free(dense);
	free(divided);
	return 0;
}

/* Returns input id's median run in p, or NaN if it has none. */
static double paced_median(const struct paced *p, int64_t id)
{
	const int64_t *hit = bsearch(&id, p->id, (size_t)p->n, sizeof *p->id, compare_ids);

	return hit ? p->median[hit - p->id] : NAN;
}

/* Frees what p owns. */
static void paced_release(struct paced *p)
{
	free(p->id);
	free(p->median);
	memset(p, 0, sizeof *p);
}

int store_status(struct store *st, struct store_status *out, struct error *err)
{
	sqlite3_stmt *q, *t;
	double *cvs = NULL, noise = 0;
	int ncv = 0, nnoise = 0;
	struct paced wall;
	static const char *const statuses[] = {"ok", "nonzero", "crash", "timeout"};

	memset(out, 0, sizeof *out);
	out->repeat = repeat_of(st);
	if (sqlite3_prepare_v2(st->db, input_state_sql, -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "SELECT wall, user, sys, maxrss FROM runs WHERE input = ? AND "
				       "kind = 'time' AND status = 'ok'", -1, &t, NULL) != SQLITE_OK)
		return sql_error(st, err, "reading the profile");
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *fs = (const char *)sqlite3_column_text(q, 2);
		int has_counters = sqlite3_column_int(q, 3), ok_times = sqlite3_column_int(q, 4);
		int bad = sqlite3_column_int(q, 5);

		out->inputs++;
		out->mismatched += sqlite3_column_int(q, 6) > 0;
		if (bad > 0) {
			out->failed++;
		} else if (fs && strcmp(fs, "ok") == 0 && has_counters && ok_times >= out->repeat) {
			double v[64];
			int n = timings(t, sqlite3_column_int64(q, 0), "wall", v, 64);

			out->complete++;
			cvs = xrealloc(cvs, sizeof *cvs * (size_t)(ncv + 1));
			cvs[ncv++] = pace_cv(v, n);
			for (int i = 0; n > 1 && i < n; i++) {
				double others[64], m;
				int k = 0;

				for (int j = 0; j < n; j++) {
					if (j != i)
						others[k++] = v[j];
				}
				m = median(others, k);
				if (m > 0) {
					noise += fabs(v[i] - m) / m;
					nnoise++;
				}
			}
		} else {
			out->pending++;
		}
	}
	sqlite3_finalize(q);
	sqlite3_finalize(t);
	out->median_cv = ncv ? median(cvs, ncv) : NAN;
	out->noise_floor = nnoise ? noise / nnoise : NAN;
	free(cvs);
	if (paced_load(st, "wall", &wall, err) < 0)
		return -1;
	out->paced_cv = wall.pc.cv_paced;
	out->paced = wall.pc.divided;
	paced_release(&wall);
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM runs WHERE status = ?", -1, &q, NULL) != SQLITE_OK)
		return sql_error(st, err, "reading the profile");
	for (int s = 0; s < 4; s++) {
		sqlite3_bind_text(q, 1, statuses[s], -1, SQLITE_STATIC);
		if (sqlite3_step(q) == SQLITE_ROW)
			out->runs[s] = sqlite3_column_int(q, 0);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM runs WHERE kind = 'features' AND rep > 0",
			       -1, &q, NULL) != SQLITE_OK)
		return sql_error(st, err, "reading the profile");
	if (sqlite3_step(q) == SQLITE_ROW)
		out->rechecked = sqlite3_column_int(q, 0);
	sqlite3_finalize(q);
	return 0;
}

/* Decodes a counters blob of the right length into c. Returns 0 or -1. */
static int decode_counters(const void *blob, int bytes, const struct manifest *m, uint64_t *c)
{
	const unsigned char *b = blob;

	if (bytes != m->ncounters * 8)
		return -1;
	for (int i = 0; i < m->ncounters; i++) {
		c[i] = 0;
		for (int k = 7; k >= 0; k--)
			c[i] = c[i] << 8 | b[8 * i + k];
	}
	return 0;
}

int store_load_samples(struct store *st, const struct manifest *m, const char *metric,
		       struct store_samples *out, int *excluded, struct error *err)
{
	int repeat = repeat_of(st), instructions = strcmp(metric, "instructions") == 0, cap = 0, total = -1;
	int paced_metric = !instructions && strcmp(metric, "maxrss") != 0;
	struct paced wall = {0}, time = {0};
	sqlite3_stmt *q, *t, *cq;

	memset(out, 0, sizeof *out);
	*excluded = 0;
	if (instructions && (total = manifest_find(m, MANIFEST_INSTRUCTIONS)) < 0)
		return error_set(err, "the metric 'instructions' needs the bycount scheme (instrument "
				 "with --schemes including bycount)");
	if (paced_load(st, "wall", &wall, err) < 0 ||
	    (paced_metric && paced_load(st, metric, &time, err) < 0)) {
		paced_release(&wall);
		return -1;
	}
	if (sqlite3_prepare_v2(st->db, input_state_sql, -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "SELECT wall, user, sys, maxrss FROM runs WHERE input = ? AND "
				       "kind = 'time' AND status = 'ok'", -1, &t, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "SELECT c.data FROM runs r JOIN counters c ON c.run = r.id WHERE "
				       "r.input = ? AND r.kind = 'features' AND r.rep = 0", -1, &cq, NULL) != SQLITE_OK) {
		paced_release(&wall);
		paced_release(&time);
		return sql_error(st, err, "reading the profile");
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		int64_t input = sqlite3_column_int64(q, 0);
		const char *fs = (const char *)sqlite3_column_text(q, 2);
		uint64_t *c;
		double v[64];
		int nt, k = out->n;

		if (sqlite3_column_int(q, 5) > 0 || !fs || strcmp(fs, "ok") != 0 ||
		    sqlite3_column_int(q, 3) == 0 || sqlite3_column_int(q, 4) < repeat) {
			(*excluded)++;
			continue;
		}
		c = xcalloc((size_t)m->ncounters + 1, sizeof *c);
		sqlite3_bind_int64(cq, 1, input);
		if (sqlite3_step(cq) != SQLITE_ROW ||
		    decode_counters(sqlite3_column_blob(cq, 0), sqlite3_column_bytes(cq, 0), m, c) < 0) {
			sqlite3_reset(cq);
			free(c);
			(*excluded)++;
			continue;
		}
		sqlite3_reset(cq);
		if (k == cap) {
			cap = cap ? 2 * cap : 256;
			out->text = xrealloc(out->text, sizeof *out->text * (size_t)cap);
			out->line = xrealloc(out->line, sizeof *out->line * (size_t)cap);
			out->counters = xrealloc(out->counters, sizeof *out->counters * (size_t)cap);
			out->wall = xrealloc(out->wall, sizeof *out->wall * (size_t)cap);
			out->metric = xrealloc(out->metric, sizeof *out->metric * (size_t)cap);
		}
		out->text[k] = xstrdup((const char *)sqlite3_column_text(q, 1));
		out->line[k] = sqlite3_column_int(q, 7);
		out->counters[k] = c;
		out->wall[k] = paced_median(&wall, input);
		if (instructions) {
			out->metric[k] = feature_value(&m->v[total], c);
		} else if (paced_metric) {
			out->metric[k] = paced_median(&time, input);
		} else {
			nt = timings(t, input, metric, v, 64);
			out->metric[k] = median(v, nt);
		}
		out->n++;
	}
	sqlite3_finalize(q);
	sqlite3_finalize(t);
	sqlite3_finalize(cq);
	paced_release(&wall);
	paced_release(&time);
	return 0;
}

double store_run_wall(struct store *st, int64_t input, const char *kind, int rep)
{
	sqlite3_stmt *q;
	double wall = NAN;

	if (sqlite3_prepare_v2(st->db, "SELECT wall FROM runs WHERE input = ? AND kind = ? AND rep = ? "
				       "AND status = 'ok'", -1, &q, NULL) != SQLITE_OK)
		return NAN;
	sqlite3_bind_int64(q, 1, input);
	sqlite3_bind_text(q, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 3, rep);
	if (sqlite3_step(q) == SQLITE_ROW)
		wall = sqlite3_column_double(q, 0);
	sqlite3_finalize(q);
	return wall;
}

/* Returns whether two values of a feature differ (two NaNs do not). */
static int values_differ(double a, double b)
{
	return a != b && !(isnan(a) && isnan(b));
}

int store_unstable_features(struct store *st, const struct manifest *m, struct store_unstable **out,
			    int *compared, struct error *err)
{
	uint64_t *a = xcalloc((size_t)m->ncounters + 1, sizeof *a);
	uint64_t *b = xcalloc((size_t)m->ncounters + 1, sizeof *b);
	unsigned char *seen = xcalloc((size_t)m->n + 1, 1);
	sqlite3_stmt *q;
	int n = 0;

	*out = NULL;
	*compared = 0;
	if (sqlite3_prepare_v2(st->db, "SELECT i.line, ca.data, cb.data FROM runs ra"
				       " JOIN counters ca ON ca.run = ra.id"
				       " JOIN runs rb ON rb.input = ra.input AND rb.kind = 'features' AND rb.rep > 0"
				       " JOIN counters cb ON cb.run = rb.id JOIN inputs i ON i.id = ra.input"
				       " WHERE ra.kind = 'features' AND ra.rep = 0 AND ra.status = 'ok'"
				       " AND rb.status = 'ok' ORDER BY i.position, rb.rep", -1, &q, NULL) != SQLITE_OK) {
		n = sql_error(st, err, "reading the recheck runs");
		goto out;
	}
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (decode_counters(sqlite3_column_blob(q, 1), sqlite3_column_bytes(q, 1), m, a) < 0 ||
		    decode_counters(sqlite3_column_blob(q, 2), sqlite3_column_bytes(q, 2), m, b) < 0)
			continue;
		(*compared)++;
		for (int f = 0; f < m->n; f++) {
			double x = feature_value(&m->v[f], a), y = feature_value(&m->v[f], b);

			if (seen[f] || !values_differ(x, y))
				continue;
			seen[f] = 1;
			*out = xrealloc(*out, sizeof **out * (size_t)(n + 1));
			(*out)[n++] = (struct store_unstable){f, sqlite3_column_int(q, 0), x, y};
		}
	}
	sqlite3_finalize(q);
out:
	free(a);
	free(b);
	free(seen);
	return n;
}

int store_samples_keep_lines(struct store_samples *s, const int *lines, int nlines, int *rows)
{
	int n = 0;

	for (int k = 0; k < s->n; k++) {
		int keep = 0;

		for (int i = 0; i < nlines && !keep; i++)
			keep = lines[i] == s->line[k];
		if (!keep) {
			free(s->text[k]);
			free(s->counters[k]);
			continue;
		}
		s->text[n] = s->text[k];
		s->line[n] = s->line[k];
		s->counters[n] = s->counters[k];
		s->wall[n] = s->wall[k];
		s->metric[n] = s->metric[k];
		if (rows)
			rows[n] = k;
		n++;
	}
	return s->n = n;
}

void store_samples_release(struct store_samples *s)
{
	for (int k = 0; k < s->n; k++) {
		free(s->text[k]);
		free(s->counters[k]);
	}
	free(s->text);
	free(s->line);
	free(s->counters);
	free(s->wall);
	free(s->metric);
	memset(s, 0, sizeof *s);
}

int store_load(struct store *st, const struct manifest *m, const char *metric,
	       struct dataset *ds, int *excluded, struct error *err)
{
	struct store_samples s;
	int n;

	memset(ds, 0, sizeof *ds);
	if (store_load_samples(st, m, metric, &s, excluded, err) < 0)
		return -1;
	n = s.n;
	ds->n = n;
	ds->p = m->n;
	ds->metric = xstrdup(metric);
	ds->ids = xcalloc((size_t)n + 1, sizeof *ds->ids);
	ds->names = xcalloc((size_t)m->n + 1, sizeof *ds->names);
	for (int f = 0; f < m->n; f++)
		ds->names[f] = xstrdup(m->v[f].name);
	ds->y = xmalloc(sizeof *ds->y * (size_t)(n ? n : 1));
	ds->x = xmalloc(sizeof *ds->x * (size_t)(n ? n : 1) * (size_t)(m->n ? m->n : 1));
	for (int i = 0; i < n; i++) {
		ds->ids[i] = s.text[i];
		s.text[i] = NULL;
		ds->y[i] = s.metric[i];
		for (int f = 0; f < m->n; f++)
			ds->x[(size_t)f * (size_t)n + (size_t)i] = feature_value(&m->v[f], s.counters[i]);
	}
	store_samples_release(&s);
	return 0;
}

int store_merge(struct store *dst, char *const *srcs, int nsrc, struct error *err)
{
	static const char copy_sql[] =
		"INSERT OR IGNORE INTO meta SELECT * FROM src.meta;"
		"INSERT OR IGNORE INTO features SELECT * FROM src.features;"
		"INSERT OR IGNORE INTO inputs(position, line, text, key)"
		"  SELECT position, line, text, key FROM src.inputs ORDER BY position;"
		"INSERT OR IGNORE INTO runs(input, kind, rep, status, exit_code, signal, wall, user, sys,"
		"  maxrss, stderr, finished)"
		"  SELECT d.id, r.kind, r.rep, r.status, r.exit_code, r.signal, r.wall, r.user, r.sys,"
		"  r.maxrss, r.stderr, r.finished FROM src.runs r JOIN src.inputs s ON s.id = r.input"
		"  JOIN main.inputs d ON d.key = s.key;"
		"INSERT OR IGNORE INTO counters(run, data)"
		"  SELECT dr.id, c.data FROM src.counters c JOIN src.runs r ON r.id = c.run"
		"  JOIN src.inputs s ON s.id = r.input JOIN main.inputs d ON d.key = s.key"
		"  JOIN main.runs dr ON dr.input = d.id AND dr.kind = r.kind AND dr.rep = r.rep;";

	for (int i = 0; i < nsrc; i++) {
		char *attach = sqlite3_mprintf("ATTACH %Q AS src", srcs[i]), *mine, *theirs;
		sqlite3_stmt *q;
		int same = 1;
		static const char *const keys[] = {"build_id", "orig_hash", "inst_hash", "inputs_hash",
						   "ok_exits"};

		if (exec(dst, attach, err) < 0) {
			sqlite3_free(attach);
			return -1;
		}
		sqlite3_free(attach);
		if (sqlite3_prepare_v2(dst->db, "SELECT value FROM src.meta WHERE key = ?", -1, &q, NULL) != SQLITE_OK) {
			error_set(err, "%s is not a mantis profile database", srcs[i]);
			exec(dst, "DETACH src", err);
			return -1;
		}
		for (size_t k = 0; k < sizeof keys / sizeof *keys && same; k++) {
			mine = meta_get(dst, keys[k]);
			sqlite3_bind_text(q, 1, keys[k], -1, SQLITE_STATIC);
			theirs = sqlite3_step(q) == SQLITE_ROW ? xstrdup((const char *)sqlite3_column_text(q, 0)) : NULL;
			sqlite3_reset(q);
			if (!theirs && strcmp(keys[k], "ok_exits") == 0)
				theirs = xstrdup(""); /* made before --ok-exit: none */
			same = !mine || (theirs && strcmp(mine, theirs) == 0);
			free(mine);
			free(theirs);
		}
		sqlite3_finalize(q);
		if (!same) {
			exec(dst, "DETACH src", err);
			return error_set(err, "%s profiles another program, build, inputs file or "
					 "--ok-exit than %s", srcs[i], dst->path);
		}
		if (exec(dst, "BEGIN IMMEDIATE", err) < 0 || exec(dst, copy_sql, err) < 0 ||
		    exec(dst, "COMMIT", err) < 0) {
			struct error ignored;

			exec(dst, "ROLLBACK", &ignored);
			exec(dst, "DETACH src", &ignored);
			return error_prefix(err, "merging %s", srcs[i]);
		}
		if (exec(dst, "DETACH src", err) < 0)
			return -1;
	}
	return 0;
}
