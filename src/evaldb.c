/*
 * evaldb.c: PRED/eval.db, the measurements of mantis eval.
 *
 * One row per (predictor, setting, input): the predictor is the FNV-1a hashes of the files it is
 * made of (model.json, predictor.json, build/features.json, build/orig, build/inst, evaluator,
 * build/sandboxed, sampled-evaluator),
 * so training again makes a new predictor whose rows start empty; the setting is how eval
 * measures (metric, repeat, timeout, budget); the input is its key as the profile keys it
 * (inputs.h: resolved words and stdin). A row also keeps the size and modification time of every
 * file the input names, and is reused only while they are unchanged. Each row is written in its
 * own transaction as soon as the input is measured (WAL, synchronous=NORMAL), so a kill loses at
 * most the input being measured. Rows of other predictors and settings are never deleted.
 * Invariant: a row reused holds what measuring the same input with the same predictor, in the
 * same way, produced; NaN predictions and costs are stored as NULL.
 */
#include "evaldb.h"

#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "error.h"
#include "inputs.h"
#include "store.h"
#include "util.h"

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
	"INSERT OR IGNORE INTO meta VALUES ('kind', 'mantis eval'), ('schema_version', '1');\n"
	"CREATE TABLE IF NOT EXISTS samples (predictor TEXT NOT NULL, setting TEXT NOT NULL,\n"
	"  input TEXT NOT NULL, files TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL,\n"
	"  ok INTEGER NOT NULL, why TEXT, actual REAL, again REAL, warned INTEGER NOT NULL,\n"
	"  baselines INTEGER NOT NULL, features BLOB,\n"
	"  mantis REAL, mantis_cost REAL, linear REAL, linear_cost REAL,\n"
	"  partial_execution REAL, partial_execution_cost REAL,\n"
	"  bounded_execution REAL, bounded_execution_cost REAL, blackbox REAL, blackbox_cost REAL,\n"
	"  finished TEXT NOT NULL, start_cost REAL, drift REAL, call_cost REAL, inproc_cost REAL,\n"
	"  PRIMARY KEY (predictor, setting, input));\n";

/* Columns added after the first schema, each to a samples table made before it (old rows get
 * NULL): start_cost (session 12), drift (session 15), call_cost (session 29), inproc_cost
 * (session 64). */
static const char *const added_columns[] = {"start_cost", "drift", "call_cost", "inproc_cost"};

/* The columns of the predictions, by[k] then cost[k] for each k, in the schema's order. */
static const char prediction_columns[] =
	"mantis, mantis_cost, linear, linear_cost, partial_execution, partial_execution_cost, "
	"bounded_execution, bounded_execution_cost, blackbox, blackbox_cost";

/* Runs sql; returns 0, or -1 with err naming e's file. */
static int exec(struct evaldb *e, const char *sql, struct error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(e->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error_set(err, "%s: %s", e->path, msg ? msg : sqlite3_errmsg(e->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

/* Returns the identity of the predictor in pred (owned by the caller), or NULL with err set
 * when one of its files cannot be read. */
static char *identity(const char *pred, struct error *err)
{
	static const char *const parts[] = {"model.json", "predictor.json", "build/features.json",
					    "build/orig", "build/inst", "evaluator",
					    "build/sandboxed", "sampled-evaluator",
					    /* a gated predictor's, when there is one */
					    "long/model.json", "long/predictor.json", "long/features.json",
					    "long/evaluator", "long/sampled-evaluator"};
	struct strbuf sb = {0};

	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
		char *path = xasprintf("%s/%s", pred, parts[i]), hash[17] = "-";
		struct stat st;
		int rc = 0, found = stat(path, &st) == 0;

		if (found || i < 5) /* none: no evaluator, or an older build */
			rc = store_hash_file(path, hash, err);
		free(path);
		if (rc < 0) {
			strbuf_release(&sb);
			return NULL;
		}
		if (i < 8 || found) /* a predictor without a gate is known as before gates */
			strbuf_addf(&sb, "%s%s%s", i ? " " : "", i < 8 ? "" : parts[i], hash);
	}
	return strbuf_detach(&sb);
}

/* Adds to e's samples table every column of added_columns it lacks. Returns 0 or -1. */
static int add_columns(struct evaldb *e, struct error *err)
{
	for (size_t i = 0; i < sizeof added_columns / sizeof *added_columns; i++) {
		sqlite3_stmt *q = NULL;
		int found = 0;

		if (sqlite3_prepare_v2(e->db, "SELECT count(*) FROM pragma_table_info('samples') "
					      "WHERE name = ?", -1, &q, NULL) == SQLITE_OK) {
			sqlite3_bind_text(q, 1, added_columns[i], -1, SQLITE_STATIC);
			if (sqlite3_step(q) == SQLITE_ROW)
				found = sqlite3_column_int(q, 0) > 0;
		}
		sqlite3_finalize(q);
		if (!found) {
			char *sql = xasprintf("ALTER TABLE samples ADD COLUMN %s REAL", added_columns[i]);
			int rc = exec(e, sql, err);

			free(sql);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

int evaldb_open(struct evaldb *e, const char *pred, const char *setting, struct error *err)
{
	sqlite3_stmt *q = NULL;
	int rc;

	memset(e, 0, sizeof *e);
	e->path = xasprintf("%s/eval.db", pred);
	if (!(e->predictor = identity(pred, err))) {
		evaldb_close(e);
		return -1;
	}
	e->setting = xstrdup(setting);
	if (sqlite3_open_v2(e->path, &e->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		error_set(err, "cannot open %s: %s", e->path,
			  e->db ? sqlite3_errmsg(e->db) : "out of memory");
		evaldb_close(e);
		return -1;
	}
	sqlite3_busy_timeout(e->db, 60000);
	rc = sqlite3_prepare_v2(e->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				       "name NOT IN ('meta', 'samples')", -1, &q, NULL);
	if (rc != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW || sqlite3_column_int(q, 0) != 0) {
		error_set(err, "%s is not a mantis eval database%s%s%s", e->path, rc == SQLITE_OK ? "" : " (",
			  rc == SQLITE_OK ? "" : sqlite3_errmsg(e->db), rc == SQLITE_OK ? "" : ")");
		sqlite3_finalize(q);
		evaldb_close(e);
		return -1;
	}
	sqlite3_finalize(q);
	if (exec(e, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", err) < 0 ||
	    exec(e, schema, err) < 0 || add_columns(e, err) < 0) {
		evaldb_close(e);
		return -1;
	}
	return 0;
}

/* Returns column i of q as a double, NaN for NULL. */
static double column_number(sqlite3_stmt *q, int i)
{
	return sqlite3_column_type(q, i) == SQLITE_NULL ? NAN : sqlite3_column_double(q, i);
}

/* Binds x to parameter i of q, NULL for NaN. */
static void bind_number(sqlite3_stmt *q, int i, double x)
{
	if (isnan(x))
		sqlite3_bind_null(q, i);
	else
		sqlite3_bind_double(q, i, x);
}

int evaldb_get(struct evaldb *e, const struct input *in, int baselines, struct eval_sample *s,
	       struct error *err)
{
	char *sql = xasprintf("SELECT ok, why, actual, again, warned, baselines, features, %s, "
			      "start_cost, drift, call_cost, inproc_cost FROM samples WHERE predictor = ? AND "
			      "setting = ? AND "
			      "input = ? AND files = ? AND baselines >= ?", prediction_columns);
	char *key = input_key(in), *files = input_stamp(in);
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(e->db, sql, -1, &q, NULL) != SQLITE_OK) {
		error_set(err, "%s: %s", e->path, sqlite3_errmsg(e->db));
		rc = -1;
		goto out;
	}
	sqlite3_bind_text(q, 1, e->predictor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, e->setting, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, files, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 5, baselines);
	rc = sqlite3_step(q);
	if (rc != SQLITE_ROW) {
		if (rc != SQLITE_DONE)
			error_set(err, "%s: %s", e->path, sqlite3_errmsg(e->db));
		rc = rc == SQLITE_DONE ? 0 : -1;
		goto out;
	}
	rc = 1;
	s->ok = sqlite3_column_int(q, 0);
	s->why = sqlite3_column_text(q, 1) ? xstrdup((const char *)sqlite3_column_text(q, 1)) : NULL;
	s->actual = column_number(q, 2);
	s->again = column_number(q, 3);
	s->warned = sqlite3_column_int(q, 4);
	s->baselines = sqlite3_column_int(q, 5);
	s->features = xcalloc((size_t)s->nfeatures + 1, sizeof *s->features);
	if (sqlite3_column_bytes(q, 6) == (int)(sizeof(double) * (size_t)s->nfeatures) && s->nfeatures)
		memcpy(s->features, sqlite3_column_blob(q, 6), sizeof(double) * (size_t)s->nfeatures);
	for (int k = 0; k < NPREDICTORS; k++) {
		s->by[k] = column_number(q, 7 + 2 * k);
		s->cost[k] = column_number(q, 8 + 2 * k);
	}
	s->start_cost = column_number(q, 7 + 2 * NPREDICTORS);
	s->drift = column_number(q, 8 + 2 * NPREDICTORS);
	s->call_cost = column_number(q, 9 + 2 * NPREDICTORS);
	s->inproc_cost = column_number(q, 10 + 2 * NPREDICTORS);
out:
	sqlite3_finalize(q);
	free(sql);
	free(key);
	free(files);
	return rc;
}

int evaldb_put(struct evaldb *e, const struct input *in, const struct eval_sample *s,
	       struct error *err)
{
	char *sql = xasprintf("INSERT OR REPLACE INTO samples (predictor, setting, input, files, text, "
			      "line, ok, why, actual, again, warned, baselines, features, %s, finished, "
			      "start_cost, drift, call_cost, inproc_cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
			      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			      prediction_columns);
	char *key = input_key(in), *files = input_stamp(in), date[32];
	time_t now = time(NULL);
	sqlite3_stmt *q = NULL;
	int rc = 0;

	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (sqlite3_prepare_v2(e->db, sql, -1, &q, NULL) != SQLITE_OK) {
		rc = error_set(err, "%s: %s", e->path, sqlite3_errmsg(e->db));
		goto out;
	}
	sqlite3_bind_text(q, 1, e->predictor, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, e->setting, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, files, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 5, in->text, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 6, in->line);
	sqlite3_bind_int(q, 7, s->ok);
	if (s->why)
		sqlite3_bind_text(q, 8, s->why, -1, SQLITE_STATIC);
	bind_number(q, 9, s->actual);
	bind_number(q, 10, s->again);
	sqlite3_bind_int(q, 11, s->warned);
	sqlite3_bind_int(q, 12, s->baselines);
	sqlite3_bind_blob(q, 13, s->features, (int)(sizeof(double) * (size_t)s->nfeatures),
			  SQLITE_STATIC);
	for (int k = 0; k < NPREDICTORS; k++) {
		bind_number(q, 14 + 2 * k, s->by[k]);
		bind_number(q, 15 + 2 * k, s->cost[k]);
	}
	sqlite3_bind_text(q, 24, date, -1, SQLITE_STATIC);
	bind_number(q, 25, s->start_cost);
	bind_number(q, 26, s->drift);
	bind_number(q, 27, s->call_cost);
	bind_number(q, 28, s->inproc_cost);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = error_set(err, "%s: cannot record line %d: %s", e->path, in->line,
			       sqlite3_errmsg(e->db));
out:
	sqlite3_finalize(q);
	free(sql);
	free(key);
	free(files);
	return rc;
}

void evaldb_close(struct evaldb *e)
{
	if (e->db)
		sqlite3_close(e->db);
	free(e->path);
	free(e->predictor);
	free(e->setting);
	memset(e, 0, sizeof *e);
}
