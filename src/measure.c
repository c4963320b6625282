/*
 * measure.c: a point of a parameter space becomes one input of the profile store, run as the
 * profiler runs inputs (profile.c): the words with every {NAME} replaced by the point's value
 * (a word that names an existing file relative to the current folder is made absolute, as in
 * an inputs file), optionally after a generator made the point's input folder {input}.
 *
 *   instructions: DIR/inst once, with MANTIS_COUNTERS (a "features" run with its counters);
 *   wall, cpu, maxrss: the executable or DIR/orig `repeat` times ("time" runs), the median.
 *
 * Invariant: a run is made only if the store lacks it (store_has_run), and every finished run is
 * recorded at once in its own transaction, so an interrupted exploration resumes and a repeated
 * one measures nothing. The store's identity is the program (build id and hashes, or the
 * executable's hash) and, in place of an inputs file, the generator command: a point's key is
 * its words, and with a generator those words mean the same files only under the same generator.
 * Generated inputs go to DB.inputs/HASH/, HASH of the generator's words, made once (a .done
 * marker is written after the generator exits 0).
 */
#include "measure.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "space.h"
#include "util.h"

static const char *const keep_braces[] = {"tmp", "input", NULL};

/* Returns the FNV-1a hash h continued over s and a separator. */
static uint64_t fnv(const char *s, uint64_t h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull; /* a word separator */
}

/* Returns whether path is a mantis instrument build directory. */
static int is_builddir(const char *path)
{
	struct stat st;
	char *f = xasprintf("%s/features.json", path);
	int yes = stat(path, &st) == 0 && S_ISDIR(st.st_mode) && access(f, R_OK) == 0;

	free(f);
	return yes;
}

/* Returns the executable the name runs (looked up in PATH without a slash), or NULL. */
static char *find_executable(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *save = NULL, *found = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? realpath(name, NULL) : NULL;
	copy = xstrdup(path ? path : "/usr/bin:/bin");
	for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/%s", *dir ? dir : ".", name);

		if (access(p, X_OK) == 0)
			found = realpath(p, NULL);
		free(p);
	}
	free(copy);
	return found;
}

/* Fills the identity and the programs; returns 0 or -1. */
static int identify(struct measure *me, struct store_identity *id, struct error *err)
{
	const char *prog = me->opt.program;
	uint64_t h = 1469598103934665603ull;

	h = fnv("mantis explore", h);
	if (me->opt.generator)
		h = fnv(me->opt.generator, h);
	snprintf(id->inputs_hash, sizeof id->inputs_hash, "%016llx", (unsigned long long)h);
	me->builddir = is_builddir(prog);
	me->total = -1;
	if (me->builddir) {
		char *mpath = xasprintf("%s/features.json", prog);
		int rc = manifest_read(&me->m, mpath, err);

		free(mpath);
		if (rc < 0)
			return -1;
		me->run = xasprintf("%s/orig", prog);
		me->inst = xasprintf("%s/inst", prog);
		me->total = manifest_find(&me->m, MANIFEST_INSTRUCTIONS);
		snprintf(id->build_id, sizeof id->build_id, "%016llx", (unsigned long long)me->m.build_id);
		return store_hash_file(me->run, id->orig_hash, err) < 0 || store_hash_file(me->inst, id->inst_hash, err) < 0 ? -1 : 0;
	}
	if (!(me->run = find_executable(prog)))
		return error_set(err, "%s: no such executable (nor a mantis instrument build directory)", prog);
	snprintf(id->build_id, sizeof id->build_id, "%016d", 0);
	snprintf(id->inst_hash, sizeof id->inst_hash, "%016d", 0);
	return store_hash_file(me->run, id->orig_hash, err);
}

/* Splits --generator into words (the inputs-file rules) and checks its {NAME}s. Returns 0 or -1. */
static int parse_generator(struct measure *me, struct error *err)
{
	struct inputs ins = {0};

	if (!me->opt.generator)
		return 0;
	if (inputs_parse(&ins, me->opt.generator, "--generator", me->cwd, err) < 0)
		return -1;
	if (ins.n != 1 || ins.v[0].stdin_path) {
		inputs_release(&ins);
		return error_set(err, "--generator: give one command (no '<' redirection)");
	}
	me->gen = ins.v[0].argv;
	me->ngen = ins.v[0].argc;
	ins.v[0].argv = NULL;
	ins.v[0].argc = 0;
	inputs_release(&ins);
	return space_check_words(me->s, me->gen, me->ngen, keep_braces, err);
}

int measure_open(struct measure *me, const struct space *s, const struct measure_options *opt,
		 struct error *err)
{
	struct store_identity id;
	char *db;
	int rc;

	memset(me, 0, sizeof *me);
	me->s = s;
	me->opt = *opt;
	me->cwd = getcwd(NULL, 0);
	if (!me->cwd)
		return error_errno(err, "cannot read the current folder");
	if (identify(me, &id, err) < 0 || parse_generator(me, err) < 0 ||
	    space_check_words(s, opt->words, opt->nwords, keep_braces, err) < 0)
		return -1;
	if (strcmp(opt->metric, "instructions") == 0 && me->total < 0)
		return error_set(err, "the metric 'instructions' needs a build directory instrumented with "
				 "the bycount scheme (mantis instrument --schemes bycount)");
	db = opt->db ? xstrdup(opt->db) : me->builddir ? xasprintf("%s/explore.db", opt->program) : xstrdup("explore.db");
	me->inputs_dir = xasprintf("%s.inputs", db);
	if (store_open(&me->st, db, 1, err) < 0) {
		free(db);
		return -1;
	}
	free(db);
	if (me->opt.repeat <= 0) {
		char *rec = store_get_meta(&me->st, "repeat");

		me->opt.repeat = rec ? atoi(rec) : 3;
		free(rec);
	}
	rc = store_begin(&me->st, &id, me->opt.repeat, &me->m, "(mantis explore)", err);
	if (rc < 0)
		return error_set(err, "%s holds the measurements of another program, build, generator or "
				 "--repeat: give another --db", me->st.path);
	me->tmp = xasprintf("%s/mantis-explore-XXXXXX", getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(me->tmp))
		return error_errno(err, "cannot make a temporary folder %s", me->tmp);
	return 0;
}

/* Returns words joined with spaces, each single-quoted when it holds anything but safe bytes. */
static char *join_words(char *const *words, int n)
{
	struct strbuf sb = {0};

	strbuf_add(&sb, "", 0);
	for (int i = 0; i < n; i++) {
		int plain = *words[i] != '\0' && strspn(words[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
						  "0123456789-_./=:,+@%{}") == strlen(words[i]);

		if (i)
			strbuf_addch(&sb, ' ');
		if (!plain)
			strbuf_addch(&sb, '\'');
		for (const char *c = words[i]; *c; c++) {
			if (*c == '\'' && !plain)
				strbuf_add(&sb, "'\\''", 4);
			else
				strbuf_addch(&sb, *c);
		}
		if (!plain)
			strbuf_addch(&sb, '\'');
	}
	return strbuf_detach(&sb);
}

/* Replaces {input} in every word by dir (words owned, reallocated). */
static void put_input(char **words, int n, const char *dir)
{
	for (int i = 0; dir && i < n; i++) {
		char *at;

		while ((at = strstr(words[i], "{input}"))) {
			char *w = xasprintf("%.*s%s%s", (int)(at - words[i]), words[i], dir, at + 7);

			free(words[i]);
			words[i] = w;
		}
	}
}

/* Frees words[0..n) and the array. */
static void free_words(char **words, int n)
{
	for (int i = 0; i < n; i++)
		free(words[i]);
	free(words);
}

/* Makes the point's generated input folder (once); returns its path (owned) or NULL with err. */
static char *generate(struct measure *me, const double *u, struct error *err)
{
	int n;
	char **words = space_substitute(me->s, u, me->gen, me->ngen, &n), *key, *dir, *done, *out;
	uint64_t h = 1469598103934665603ull;

	for (int i = 0; i < n; i++)
		h = fnv(words[i], h);
	dir = xasprintf("%s/%016llx", me->inputs_dir, (unsigned long long)h);
	done = xasprintf("%s/.done", dir);
	out = xasprintf("%s/.stdout", dir);
	put_input(words, n, dir);
	key = NULL;
	if (access(done, F_OK) != 0) {
		if ((mkdir(me->inputs_dir, 0777) < 0 && errno != EEXIST) || (mkdir(dir, 0777) < 0 && errno != EEXIST)) {
			error_errno(err, "cannot make %s", dir);
		} else if (run_command(words, out, err) == 0) {
			FILE *f = fopen(done, "w");

			if (f && fclose(f) == 0)
				key = dir;
			else
				error_errno(err, "cannot write %s", done);
		} else {
			char *where = space_describe(me->s, u);

			error_prefix(err, "the generator failed at %s", where);
			free(where);
		}
	} else {
		key = dir;
	}
	if (!key)
		free(dir);
	free(done);
	free(out);
	free_words(words, n);
	return key;
}

/* Returns the first 2 KiB of a file (owned) or NULL. */
static char *file_head(const char *path)
{
	FILE *f = fopen(path, "r");
	char buf[2049];
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? xstrdup(buf) : NULL;
}

/* Runs the input once as kind/rep and records it. Returns 0 or -1. */
static int run_once(struct measure *me, const struct input *in, int64_t id, const char *kind, int rep,
		    struct error *err)
{
	int features = strcmp(kind, "features") == 0, rc;
	char *counters_path = xasprintf("%s/counters", me->tmp), *stderr_path = xasprintf("%s/stderr", me->tmp);
	char *env[2] = {xasprintf("MANTIS_COUNTERS=%s", counters_path), NULL};
	struct run_options ro = {.timeout = me->opt.timeout, .stderr_path = stderr_path,
				 .env = features ? env : NULL, .argv0 = me->m.program};
	struct run_result res;
	uint64_t *counters = NULL;
	char *head = NULL;

	unlink(counters_path);
	rc = runner_run(features ? me->inst : me->run, in, &ro, &res, err);
	if (rc == 0) {
		struct error ignored;

		if (features)
			counters_read(&me->m, counters_path, &counters, &ignored);
		if (res.status != RUN_OK)
			head = file_head(stderr_path);
		rc = store_add_run(&me->st, id, kind, rep, &res, head, counters, me->m.ncounters, err);
		me->runs++;
	}
	unlink(counters_path);
	unlink(stderr_path);
	free(counters);
	free(head);
	free(env[0]);
	free(counters_path);
	free(stderr_path);
	return rc;
}

/* Reads the point's value of the metric from its recorded runs into *y; returns 0, or -1 with
 * err saying how its runs ended when they are not all ok. */
static int read_value(struct measure *me, int64_t id, double *y, struct error *err)
{
	int instructions = strcmp(me->opt.metric, "instructions") == 0, n = 0, rc = 0;
	sqlite3_stmt *q;
	double v[64];

	if (sqlite3_prepare_v2(me->st.db, "SELECT r.status, r.exit_code, r.signal, r.wall, r.user, r.sys, "
				"r.maxrss, c.data FROM runs r LEFT JOIN counters c ON c.run = r.id WHERE r.input = ? "
				"AND r.kind = ? ORDER BY r.rep", -1, &q, NULL) != SQLITE_OK)
		return error_set(err, "%s: %s", me->st.path, sqlite3_errmsg(me->st.db));
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, instructions ? "features" : "time", -1, SQLITE_STATIC);
	while (rc == 0 && sqlite3_step(q) == SQLITE_ROW && n < 64) {
		const char *status = (const char *)sqlite3_column_text(q, 0);

		if (strcmp(status, "ok") != 0) {
			rc = error_set(err, "%s (exit code %d, signal %d)", status, sqlite3_column_int(q, 1),
				       sqlite3_column_int(q, 2));
		} else if (instructions) {
			const unsigned char *b = sqlite3_column_blob(q, 7);
			uint64_t *c = xcalloc((size_t)me->m.ncounters + 1, sizeof *c);

			if (!b || sqlite3_column_bytes(q, 7) != me->m.ncounters * 8) {
				rc = error_set(err, "no counters (the instrumented build wrote none)");
			} else {
				for (int i = 0; i < me->m.ncounters; i++) {
					for (int k = 7; k >= 0; k--)
						c[i] = c[i] << 8 | b[8 * i + k];
				}
				v[n++] = feature_value(&me->m.v[me->total], c);
			}
			free(c);
		} else {
			double wall = sqlite3_column_double(q, 3), cpu = sqlite3_column_double(q, 4) + sqlite3_column_double(q, 5);

			v[n++] = strcmp(me->opt.metric, "cpu") == 0 ? cpu
				 : strcmp(me->opt.metric, "maxrss") == 0 ? sqlite3_column_double(q, 6) : wall;
		}
	}
	sqlite3_finalize(q);
	if (rc == 0 && n == 0)
		rc = error_set(err, "no run recorded");
	if (rc == 0)
		*y = median(v, n);
	return rc;
}

/* Returns the point's input: the substituted words, paths resolved. The caller frees it. */
static void make_input(struct measure *me, const double *u, const char *dir, struct input *in)
{
	char **words = space_substitute(me->s, u, me->opt.words, me->opt.nwords, &in->argc);

	put_input(words, in->argc, dir);
	for (int i = 0; i < in->argc; i++)
		inputs_resolve_word(&words[i], me->cwd);
	in->argv = words;
	in->text = join_words(words, in->argc);
	in->line = 0;
	in->stdin_path = NULL;
}

int measure_point(void *ctx, const double *u, double *y, struct error *err)
{
	struct measure *me = ctx;
	int instructions = strcmp(me->opt.metric, "instructions") == 0, rc = 0, fresh = 0;
	int reps = instructions ? 1 : me->opt.repeat;
	char *dir = NULL;
	struct input in;
	struct inputs one;
	int64_t id;

	if (me->gen && !(dir = generate(me, u, err)))
		return -1;
	make_input(me, u, dir, &in);
	one = (struct inputs){NULL, NULL, 1, &in};
	rc = store_add_inputs(&me->st, &one, &id, err);
	for (int r = 0; rc == 0 && r < reps; r++) {
		const char *kind = instructions ? "features" : "time";
		int has = store_has_run(&me->st, id, kind, r, err);

		if (has < 0)
			rc = -1;
		else if (!has && (rc = run_once(me, &in, id, kind, r, err)) == 0)
			fresh = 1;
	}
	if (rc == 0 && read_value(me, id, y, err) < 0) {
		char *where = space_describe(me->s, u);

		error_prefix(err, "%s failed at %s (%s)", me->opt.program, where, in.text);
		free(where);
		rc = -1;
	}
	if (rc == 0) {
		me->fresh_points += fresh;
		me->reused_points += !fresh;
	}
	free_words(in.argv, in.argc);
	free(in.text);
	free(dir);
	return rc;
}

void measure_close(struct measure *me)
{
	if (me->st.db)
		store_close(&me->st);
	if (me->tmp)
		rmdir(me->tmp);
	manifest_release(&me->m);
	if (me->gen)
		free_words(me->gen, me->ngen);
	free(me->run);
	free(me->inst);
	free(me->inputs_dir);
	free(me->cwd);
	free(me->tmp);
	memset(me, 0, sizeof *me);
}
