/*
 * sampledb.c: PRED/build/sampled.db, the sampled runs of training inputs (sampler.h).
 *
 * One row per (build, setting, input): the build is the FNV-1a hash of the sandboxed
 * executable, so instrumenting again starts empty; the setting is how the inputs are sampled
 * (fraction, pieces, files, repetitions); the input is its key as the profile keys it (inputs.h:
 * resolved words and stdin), and the row is reused only while the size and modification time of
 * every file the input names are the same (input_stamp). Each row is written in its own
 * transaction as soon as the input is measured (WAL, synchronous=NORMAL), so a kill loses at most
 * the input being measured; rows of other builds and settings are kept. A failed run is a row
 * too (ok 0, failure), so it is not run again. Counters are stored as "MSV1" and one LEB128
 * varint each (most are 0 or small: lame's 13,407 counters take 18-20 KB a run, not 105 KB);
 * a database written before reads back its little-endian 64-bit words.
 * Invariant: a row read back holds what sampler_run produced for the same input, build and
 * setting.
 */
#include "sampledb.h"

#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "inputs.h"
#include "sampler.h"
#include "store.h"
#include "util.h"

#define VARINT_MAGIC "MSV1" /* a counters blob of varints */

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
	"INSERT OR IGNORE INTO meta VALUES ('kind', 'mantis sampled runs'), ('schema_version', '1');\n"
	"CREATE TABLE IF NOT EXISTS runs (build TEXT NOT NULL, setting TEXT NOT NULL,\n"
	"  input TEXT NOT NULL, files TEXT NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL,\n"
	"  ok INTEGER NOT NULL, failure TEXT, share_larger REAL NOT NULL,\n"
	"  share_smaller REAL NOT NULL, seconds REAL NOT NULL, counters_larger BLOB,\n"
	"  counters_smaller BLOB, finished TEXT NOT NULL, PRIMARY KEY (build, setting, input));\n";

/* Runs sql; returns 0, or -1 with err naming s's file. */
static int exec(struct sampledb *s, const char *sql, struct error *err)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error_set(err, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int sampledb_open(struct sampledb *s, const char *path, const char *exe, const char *setting,
		  int ncounters, struct error *err)
{
	char hash[17];
	sqlite3_stmt *q = NULL;
	int rc;

	memset(s, 0, sizeof *s);
	s->path = xstrdup(path);
	s->setting = xstrdup(setting);
	s->ncounters = ncounters;
	if (store_hash_file(exe, hash, err) < 0) {
		sampledb_close(s);
		return -1;
	}
	s->build = xstrdup(hash);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		error_set(err, "cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sampledb_close(s);
		return -1;
	}
	sqlite3_busy_timeout(s->db, 60000);
	rc = sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
				       "name NOT IN ('meta', 'runs')", -1, &q, NULL);
	if (rc != SQLITE_OK || sqlite3_step(q) != SQLITE_ROW || sqlite3_column_int(q, 0) != 0) {
		error_set(err, "%s is not a mantis sampled-runs database%s%s%s", path,
			  rc == SQLITE_OK ? "" : " (", rc == SQLITE_OK ? "" : sqlite3_errmsg(s->db),
			  rc == SQLITE_OK ? "" : ")");
		sqlite3_finalize(q);
		sampledb_close(s);
		return -1;
	}
	sqlite3_finalize(q);
	if (exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", err) < 0 ||
	    exec(s, schema, err) < 0) {
		sampledb_close(s);
		return -1;
	}
	return 0;
}

/* Fills c[0..n) from a blob of LEB128 varints after VARINT_MAGIC; returns whether it held
 * exactly n of them. */
static int decode_varints(const unsigned char *b, int len, uint64_t *c, int n)
{
	int at = (int)sizeof VARINT_MAGIC - 1;

	for (int k = 0; k < n; k++) {
		c[k] = 0;
		for (int shift = 0;; shift += 7) {
			if (at >= len || shift > 63)
				return 0;
			c[k] |= (uint64_t)(b[at] & 0x7f) << shift;
			if (!(b[at++] & 0x80))
				break;
		}
	}
	return at == len;
}

/* Returns a copy of the counters blob in column i of q (owned), or NULL when it is NULL or not
 * of n counters: varints (what sampledb_put writes) or, in a database written before them,
 * little-endian words. */
static uint64_t *column_counters(sqlite3_stmt *q, int i, int n)
{
	const unsigned char *b = sqlite3_column_blob(q, i);
	int len = sqlite3_column_bytes(q, i);
	size_t magic = sizeof VARINT_MAGIC - 1;
	uint64_t *c;

	if (!b)
		return NULL;
	c = xcalloc((size_t)n + 1, sizeof *c);
	if ((size_t)len > magic && memcmp(b, VARINT_MAGIC, magic) == 0 && decode_varints(b, len, c, n))
		return c;
	if (len != 8 * n) {
		free(c);
		return NULL;
	}
	for (int k = 0; k < n; k++) {
		for (int byte = 7; byte >= 0; byte--)
			c[k] = c[k] << 8 | b[8 * k + byte];
	}
	return c;
}

/* Returns counters c[0..n) as VARINT_MAGIC and one LEB128 varint each (owned; its size in
 * *len), or NULL when c is NULL. */
static unsigned char *counters_blob(const uint64_t *c, int n, int *len)
{
	unsigned char *b;
	size_t at = sizeof VARINT_MAGIC - 1;

	*len = 0;
	if (!c)
		return NULL;
	b = xcalloc(at + 10 * (size_t)n + 1, 1);
	memcpy(b, VARINT_MAGIC, at);
	for (int k = 0; k < n; k++) {
		uint64_t v = c[k];

		do {
			b[at++] = (unsigned char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
			v >>= 7;
		} while (v);
	}
	*len = (int)at;
	return b;
}

int sampledb_get(struct sampledb *s, const struct input *in, struct sampled_run *r,
		 struct error *err)
{
	char *key = input_key(in), *files = input_stamp(in);
	sqlite3_stmt *q = NULL;
	int rc;

	memset(r, 0, sizeof *r);
	if (sqlite3_prepare_v2(s->db, "SELECT ok, failure, share_larger, share_smaller, seconds, "
				      "counters_larger, counters_smaller FROM runs WHERE build = ? AND "
				      "setting = ? AND input = ? AND files = ?", -1, &q, NULL) != SQLITE_OK) {
		rc = error_set(err, "%s: %s", s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	sqlite3_bind_text(q, 1, s->build, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, s->setting, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, files, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? 0 : error_set(err, "%s: %s", s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	rc = 1;
	r->ok = sqlite3_column_int(q, 0);
	if (sqlite3_column_text(q, 1))
		r->failure = xstrdup((const char *)sqlite3_column_text(q, 1));
	r->share[0] = sqlite3_column_double(q, 2);
	r->share[1] = sqlite3_column_double(q, 3);
	r->seconds = sqlite3_column_double(q, 4);
	r->counters[0] = column_counters(q, 5, s->ncounters);
	r->counters[1] = column_counters(q, 6, s->ncounters);
	if (r->ok && !r->counters[0])
		rc = 0; /* a row of another manifest's size: measure again */
	if (rc == 0)
		sampled_run_release(r);
out:
	sqlite3_finalize(q);
	free(key);
	free(files);
	return rc;
}

int sampledb_put(struct sampledb *s, const struct input *in, const struct sampled_run *r,
		 struct error *err)
{
	char *key = input_key(in), *files = input_stamp(in), date[32];
	int len[2];
	unsigned char *blobs[2] = {counters_blob(r->counters[0], s->ncounters, &len[0]),
				   counters_blob(r->counters[1], s->ncounters, &len[1])};
	time_t now = time(NULL);
	sqlite3_stmt *q = NULL;
	int rc = 0;

	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO runs (build, setting, input, files, "
				      "text, line, ok, failure, share_larger, share_smaller, seconds, "
				      "counters_larger, counters_smaller, finished) VALUES (?, ?, ?, ?, "
				      "?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", -1, &q, NULL) != SQLITE_OK) {
		rc = error_set(err, "%s: %s", s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	sqlite3_bind_text(q, 1, s->build, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, s->setting, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 4, files, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 5, in->text ? in->text : "", -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 6, in->line);
	sqlite3_bind_int(q, 7, r->ok);
	if (r->failure)
		sqlite3_bind_text(q, 8, r->failure, -1, SQLITE_STATIC);
	sqlite3_bind_double(q, 9, r->share[0]);
	sqlite3_bind_double(q, 10, r->share[1]);
	sqlite3_bind_double(q, 11, r->seconds);
	for (int k = 0; k < 2; k++) {
		if (blobs[k])
			sqlite3_bind_blob(q, 12 + k, blobs[k], len[k], SQLITE_STATIC);
	}
	sqlite3_bind_text(q, 14, date, -1, SQLITE_STATIC);
	if (sqlite3_step(q) != SQLITE_DONE)
		rc = error_set(err, "%s: cannot record line %d: %s", s->path, in->line,
			       sqlite3_errmsg(s->db));
out:
	sqlite3_finalize(q);
	free(blobs[0]);
	free(blobs[1]);
	free(key);
	free(files);
	return rc;
}

void sampledb_close(struct sampledb *s)
{
	if (s->db)
		sqlite3_close(s->db);
	free(s->path);
	free(s->build);
	free(s->setting);
	memset(s, 0, sizeof *s);
}
