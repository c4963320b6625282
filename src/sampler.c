/*
 * sampler.c: sampled features (sampler.h): the program run on two excerpts of its input's
 * files, each feature extrapolated along the line through the two runs to the whole files, each
 * count whose whole values on the training inputs the parabola through the two and the origin
 * holds better also along that (an insertion sort's steps grow as the square of its lines:
 * sampler_value), and each that describes the input (a mean, a first value) also as it is on
 * the larger.
 *
 * An excerpt takes q of every sampled file: c pieces of q * size / c bytes at offsets
 * i * size / c (i = 0..c-1; a binary file's rounded down to multiples of SAMPLER_ALIGN, so that
 * its records stay whole), so the first piece keeps the file's header and the others see its
 * middle and its end: a file of segments of different kinds is seen in each of them, where a
 * prefix (c = 1) sees the first; but a block compressor's blocks are larger than a small piece,
 * and there a prefix extrapolates better (lz4: 3.8% against 11% with 8 pieces of 0.5% of
 * its files). A text file can also be sampled a line at a time (c = SAMPLER_BY_LINE): one line
 * after each of n even offsets, n its excerpt's bytes over its mean line, a systematic sample
 * that sees a list's disorder all over it, where 8 pieces see 8 places (a sort's steps are the
 * pairs of lines out of order, of a list of sorted shards too). Training chooses c
 * (sampler_plan_choose, train.c). The smaller excerpt keeps the first 1/s of each piece of the
 * larger (s the plan's smaller, 4 or 2), a line at a time every s-th line of the larger, so it
 * is part of the larger.
 * With q_a and q_b the two excerpts' exact shares of the files' bytes and f(a), f(b) a
 * feature's values,
 *
 *     f(whole) ~ f(a) + (f(a) - f(b)) * (1 - q_a) / (q_a - q_b),
 *
 * the value at share 1 of the line through (q_b, f(b)) and (q_a, f(a)): exact for a feature
 * that is a constant plus a multiple of the bytes read (the line's intercept is the work done
 * whatever the input's size: start-up, parsing a small key file that is not sampled). It is
 * not exact where the first bytes of a stream cost less than the rest (a compressor's window
 * filling): there both excerpts must hold more than that warm-up, so the larger one has at
 * least the plan's least bytes, and the smaller may be half of it (training tries several:
 * train.c). The files keep their names (in a folder per excerpt and file), since programs go
 * by a file's suffix.
 * Invariant: an excerpt is a function of the file's bytes, its size, q, the least bytes and s
 * alone, so the same input gives the same excerpts, in training and in every prediction.
 */
#include "sampler.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "predictor.h"
#include "runner.h"
#include "solib.h"
#include "util.h"


/* The name prefix of each way (enum sampler_way). */
static const char *const way_prefix[] = {SAMPLER_PREFIX, SAMPLER_LARGER_PREFIX,
					 SAMPLER_QUADRATIC_PREFIX};

char *sampler_name(const char *feature, enum sampler_way way)
{
	return xasprintf("%s%s", way_prefix[way], feature);
}

/* Returns the way whose prefix name starts with, or -1 when none does. */
static int prefixed_way(const char *name)
{
	for (size_t w = 0; w < sizeof way_prefix / sizeof *way_prefix; w++) {
		if (strncmp(name, way_prefix[w], strlen(way_prefix[w])) == 0)
			return (int)w;
	}
	return -1;
}

const char *sampler_feature(const char *name)
{
	int w = prefixed_way(name);

	return w < 0 ? NULL : name + strlen(way_prefix[w]);
}

enum sampler_way sampler_way_of(const char *name)
{
	int w = prefixed_way(name);

	return w < 0 ? SAMPLER_LINE : (enum sampler_way)w;
}

int sampler_is_larger(const char *name)
{
	return prefixed_way(name) == SAMPLER_LARGER;
}


int sampler_extensive(const struct feature *f)
{
	const char *what = strrchr(f->name, '.');

	if (strcmp(f->kind, "exit") == 0 || f->denominator >= 0)
		return 0;
	if (strcmp(f->kind, "value") != 0)
		return 1;
	return what && (strcmp(what, ".sum") == 0 || strcmp(what, ".count") == 0);
}

double sampler_value(const struct sampled_run *r, const struct feature *f, enum sampler_way way)
{
	double fa = feature_value(f, r->counters[0]), fb, qa = r->share[0], qb = r->share[1];

	if (way == SAMPLER_LARGER || !r->counters[1] || qa >= 1 || qa <= qb)
		return fa;
	fb = feature_value(f, r->counters[1]);
	if (way == SAMPLER_QUADRATIC && qb > 0)
		return fa / qa + (fa / qa - fb / qb) * (1 - qa) / (qa - qb);
	return fa + (fa - fb) * (1 - qa) / (qa - qb);
}

/* ---- the plan ----------------------------------------------------------------------------- */

/* Returns the name of file position j in predictor.json ("arg3", "arg-1", "stdin"); owned. */
static char *position_name(int j)
{
	return j == SAMPLER_STDIN ? xstrdup("stdin") : xasprintf("arg%d", j);
}

char *sampler_plan_files(const struct sampler_plan *plan)
{
	struct strbuf sb = {0};

	strbuf_add(&sb, "", 0);
	for (int i = 0; i < plan->npositions; i++) {
		char *name = position_name(plan->positions[i]);

		strbuf_addf(&sb, "%s%s%s", i ? "," : "", name, sampler_optional(plan, i) ? "?" : "");
		free(name);
	}
	return strbuf_detach(&sb);
}

long sampler_least(const struct sampler_plan *plan)
{
	return plan->least > 0 ? plan->least : SAMPLER_LEAST;
}

int sampler_smaller(const struct sampler_plan *plan)
{
	return plan->smaller > 0 ? plan->smaller : SAMPLER_SMALLER;
}

long sampler_align(const struct sampler_plan *plan)
{
	return plan->align > 0 ? plan->align : SAMPLER_ALIGN;
}

char *sampler_setting(const struct sampler_plan *plan, int reps)
{
	char *files = sampler_plan_files(plan);
	char *setting = xasprintf("fraction=%.17g least=%ld chunks=%d smaller=%d align=%ld "
				  "files=%s reps=%d", plan->fraction, sampler_least(plan),
				  plan->chunks, sampler_smaller(plan), sampler_align(plan), files,
				  reps);

	free(files);
	return setting;
}

int sampler_plan_parse_files(struct sampler_plan *plan, const char *files, struct error *err)
{
	char *copy = xstrdup(files), *save = NULL;
	int rc = 0;

	free(plan->positions);
	free(plan->optional);
	plan->npositions = 0;
	plan->positions = xcalloc(strlen(files) + 1, sizeof *plan->positions);
	plan->optional = xcalloc(strlen(files) + 1, sizeof *plan->optional);
	for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(w);
		char *end;
		long k;

		if (len > 0 && w[len - 1] == '?') {
			plan->optional[plan->npositions] = 1;
			w[len - 1] = '\0';
		}
		if (strcmp(w, "stdin") == 0) {
			plan->positions[plan->npositions++] = SAMPLER_STDIN;
			continue;
		}
		k = strncmp(w, "arg", 3) == 0 ? strtol(w + 3, &end, 10) : 0;
		if (k == 0 || labs(k) > SAMPLER_ARGS || *end != '\0')
			rc = error_set(err, "sampled file '%s' is not argN or arg-N (N from 1 to %d) or "
				       "stdin", w, SAMPLER_ARGS);
		else
			plan->positions[plan->npositions++] = (int)k;
	}
	free(copy);
	return rc;
}

int sampler_optional(const struct sampler_plan *plan, int i)
{
	return plan->optional && plan->optional[i];
}

void sampler_plan_release(struct sampler_plan *plan)
{
	free(plan->positions);
	free(plan->optional);
	memset(plan, 0, sizeof *plan);
}

/* ---- excerpts ----------------------------------------------------------------------------- */

/* Returns the size of the regular file at path, or -1. */
static off_t regular_size(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
}

/*
 * Finds the file of position j in in: *word is the index of the word holding it (in->argc for
 * stdin; -1 when in has no word there) and *offset where its path starts in that word (after
 * "-opt=" for such a word). Returns its path (borrowed from in), or NULL when in names no
 * regular file there.
 */
static const char *position_file(const struct input *in, int j, int *word, size_t *offset)
{
	const char *w, *eq;

	*offset = 0;
	if (j == SAMPLER_STDIN) {
		*word = in->argc;
		return regular_size(in->stdin_path) >= 0 ? in->stdin_path : NULL;
	}
	*word = j > 0 ? j - 1 : in->argc + j;
	if (*word < 0 || *word >= in->argc) {
		*word = -1;
		return NULL;
	}
	w = in->argv[*word];
	if (regular_size(w) >= 0)
		return w;
	eq = strchr(w, '=');
	if (eq && regular_size(eq + 1) >= 0) {
		*offset = (size_t)(eq + 1 - w);
		return eq + 1;
	}
	return NULL;
}

const char *sampler_unreadable(const struct sampler_plan *plan, const struct input *in,
			       char **position)
{
	for (int i = 0; i < plan->npositions; i++) {
		int j = plan->positions[i], word;
		size_t offset;
		const char *path = position_file(in, j, &word, &offset), *eq;

		*position = position_name(j);

		if ((path && access(path, R_OK) == 0) || (!path && sampler_optional(plan, i))) {
			free(*position);
			continue;
		}
		if (path || j == SAMPLER_STDIN)
			return path ? path : "";
		if (word < 0)
			return "";
		eq = strchr(in->argv[word], '=');
		return eq && in->argv[word][0] == '-' ? eq + 1 : in->argv[word];
	}
	*position = NULL;
	return NULL;
}

/* Returns the mean length of the lines in the first SAMPLER_LINE_REACH bytes of the file open
 * at fd when it reads as text: they hold a newline and no control byte but tabs, newlines and
 * carriage returns (a binary file's runs of bytes hold some); 0 when it does not. A text file's
 * excerpts hold whole lines (write_excerpt). */
static double text_line_length(int fd)
{
	unsigned char buf[SAMPLER_LINE_REACH];
	ssize_t got = pread(fd, buf, sizeof buf, 0), end = 0;
	int newlines = 0;

	for (ssize_t i = 0; i < got; i++) {
		if ((buf[i] < 32 && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r') ||
		    buf[i] == 127)
			return 0;
		if (buf[i] == '\n') {
			newlines++;
			end = i + 1;
		}
	}
	return newlines ? (double)end / newlines : 0;
}

/* A file's bytes read ahead: the pieces of a line at a time lie close together, and one read
 * of many of them costs less than a read each. */
struct window {
	int fd;     /* the file */
	char *buf;  /* its bytes from `from`; owned */
	off_t from; /* where buf starts in the file */
	long got;   /* bytes in buf (-1: none read yet) */
	long cap;   /* buf's size */
};

/* Points *p at the file's bytes from `from` on, up to want of them (fewer only at the file's
 * end), read through w (want at most w->cap). Returns how many, or -1 with errno set. */
static long window_read(struct window *w, off_t from, long want, char **p)
{
	long avail;

	if (w->got < 0 || from < w->from ||
	    (from + want > w->from + w->got && w->got == w->cap)) {
		if ((w->got = (long)pread(w->fd, w->buf, (size_t)w->cap, from)) < 0)
			return -1;
		w->from = from;
	}
	*p = w->buf + (from - w->from);
	avail = (long)(w->from + w->got - from);
	return avail < want ? (avail > 0 ? avail : 0) : want;
}

/* Points *piece at the piece of about len bytes meant to start at `at`, read through w; with
 * lines, of whole lines: it starts at the file's start or just past the first newline of the
 * SAMPLER_LINE_REACH bytes from at (at when there is none), and runs on to the end of the line
 * it stops in, where that end is within SAMPLER_LINE_REACH bytes. A newline is looked for
 * within SAMPLER_SHORT_REACH bytes first, with the same result. Returns the piece's bytes, or
 * -1 with errno set. */
static long read_piece(struct window *w, off_t at, long len, int lines, char **piece)
{
	long reach = lines ? SAMPLER_SHORT_REACH : 0, before = at > 0 && lines, got, n, start;
	char *nl, *buf;

	for (;;) {
		if ((got = window_read(w, at - before, len + 2 * reach + before, &buf)) < 0)
			return -1;
		start = 0;
		if (before) {
			nl = memchr(buf, '\n', (size_t)(got < reach + 1 ? got : reach + 1));
			if (!nl && reach < SAMPLER_LINE_REACH && got > reach + 1) {
				reach = SAMPLER_LINE_REACH;
				continue;
			}
			start = nl ? nl - buf + 1 : 1;
		}
		*piece = buf + start;
		got = got - start < len + reach ? got - start : len + reach;
		n = got < len ? got : len;
		if (!lines || n <= 0 || (*piece)[n - 1] == '\n')
			return n;
		if ((nl = memchr(*piece + n, '\n', (size_t)(got - n))))
			return nl + 1 - *piece;
		if (reach == SAMPLER_LINE_REACH || got < len + reach)
			return n;
		reach = SAMPLER_LINE_REACH;
	}
}

/* Returns how many lines a sample of share q of a text file of size bytes takes a line at a
 * time, its lines line bytes long on average: the nearest whole number, at least 1. */
static int lines_sampled(double q, off_t size, double line)
{
	long n = (long)(q * (double)size / line + 0.5);

	return n > 1 ? (int)n : 1;
}

/* The bytes of a sample's stream buffer: a write(2) per 64 KiB, not per 4 KiB (a request to
 * mantis serve writes two samples). */
#define SAMPLE_BUFFER (1 << 16)

/*
 * Copies every every-th of chunks pieces of about len bytes each, at offsets i * size / chunks,
 * from fd to path; with lines, each piece of whole lines (read_piece), so that a program that
 * rejects a cut line (a "Name, number" list) runs on the excerpt as on the file; without, each
 * at its offset rounded down to a multiple of align (its records whole: SAMPLER_ALIGN). A piece of
 * len / s bytes from the same start is then still the first part of the piece of len, and a
 * line at a time (len 1) the smaller sample takes every s-th of the larger's pieces. Pieces
 * less than SAMPLER_WINDOW apart are read that many bytes at a time. Returns the bytes
 * written, or -1 with err set.
 */
static long write_excerpt(int fd, off_t size, int chunks, long len, int every, int lines,
			  long align, const char *from, const char *path, struct error *err)
{
	int to = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	FILE *out = to >= 0 ? fdopen(to, "w") : NULL;
	long close_by = (double)size / chunks < SAMPLER_WINDOW ? SAMPLER_WINDOW : 0;
	struct window w = {.fd = fd, .got = -1, .cap = len + 2 * SAMPLER_LINE_REACH + 1 + close_by};
	long total = 0;
	char *buffer;

	if (!out) {
		total = error_errno(err, "cannot write the sample %s", path);
		if (to >= 0)
			close(to);
		return total;
	}
	buffer = xmalloc(SAMPLE_BUFFER);
	setvbuf(out, buffer, _IOFBF, SAMPLE_BUFFER);
	w.buf = xmalloc((size_t)w.cap);
	for (int i = 0; i < chunks && total >= 0; i += every) {
		char *piece;
		off_t at = (off_t)((double)size * i / chunks);
		long n = read_piece(&w, lines ? at : at - at % align, len, lines, &piece);

		if (n < 0)
			total = error_errno(err, "cannot read %s", from);
		else if (fwrite(piece, 1, (size_t)n, out) != (size_t)n)
			total = error_errno(err, "cannot write the sample %s", path);
		else
			total += n;
	}
	free(w.buf);
	if (fclose(out) != 0 && total >= 0)
		total = error_errno(err, "cannot write the sample %s", path);
	free(buffer);
	return total;
}

/* Returns the bytes of a piece of about len bytes of a file sampled by plan: of a text file
 * (whole lines are taken around it) or where plan aligns nothing, len; of a binary file, len
 * rounded to the nearest multiple of smaller times the alignment, or where len is less, times
 * the largest power of two that fits (one multiple at least): the smaller sample's pieces
 * are whole records too, and a small file's sample stays small. */
static long piece_bytes(const struct sampler_plan *plan, double len, int text)
{
	long record = sampler_align(plan), units;

	if (text || record == 1)
		return (long)len;
	while (record > 1 && (double)(record * sampler_smaller(plan)) > len)
		record /= 2;
	units = (long)(len / (double)(record * sampler_smaller(plan)) + 0.5);
	return (units > 1 ? units : 1) * record * sampler_smaller(plan);
}

/* Returns a copy of in (words, stdin, line, text) that input_release frees. */
static void input_copy(struct input *out, const struct input *in)
{
	memset(out, 0, sizeof *out);
	out->line = in->line;
	out->text = xstrdup(in->text ? in->text : "");
	out->argc = in->argc;
	out->argv = xcalloc((size_t)in->argc + 1, sizeof *out->argv);
	for (int i = 0; i < in->argc; i++)
		out->argv[i] = xstrdup(in->argv[i]);
	out->stdin_path = in->stdin_path ? xstrdup(in->stdin_path) : NULL;
}

/* Replaces, in out, the file at (word, offset) by path. */
static void input_replace(struct input *out, int word, size_t offset, const char *path)
{
	char **slot = word == out->argc ? &out->stdin_path : &out->argv[word];
	char *now = xasprintf("%.*s%s", (int)offset, *slot, path);

	free(*slot);
	*slot = now;
}

/* Returns the larger excerpt's share of total bytes: the plan's fraction, raised to its least
 * bytes, at most 1. */
static double larger_share(const struct sampler_plan *plan, double total)
{
	double q = plan->fraction;

	if (total > 0 && q * total < (double)sampler_least(plan))
		q = (double)sampler_least(plan) / total;
	return q < 1 ? q : 1;
}

/* Returns the path of plan's i-th file in in, or NULL when there is none there or an earlier
 * position of plan is the same word (arg-1 and arg3 of a three-word input): sampled once. */
static const char *planned_file(const struct sampler_plan *plan, const struct input *in, int i,
				int *word, size_t *offset)
{
	const char *path = position_file(in, plan->positions[i], word, offset);

	for (int k = 0; path && k < i; k++) {
		int other;
		size_t o;

		if (position_file(in, plan->positions[k], &other, &o) && other == *word)
			return NULL;
	}
	return path;
}

int sampler_reads_text(const struct sampler_plan *plan, const struct input *in)
{
	int text = 0;

	for (int i = 0; i < plan->npositions && !text; i++) {
		int word, fd;
		size_t offset;
		const char *path = planned_file(plan, in, i, &word, &offset);

		if (path && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
			text = text_line_length(fd) > 0;
			close(fd);
		}
	}
	return text;
}

double sampler_bytes(const struct sampler_plan *plan, const struct input *in)
{
	double total = 0;

	for (int i = 0; i < plan->npositions; i++) {
		int word;
		size_t offset;
		const char *path = planned_file(plan, in, i, &word, &offset);

		if (path)
			total += (double)regular_size(path);
	}
	return total;
}

int sampler_make_inputs(const struct sampler_plan *plan, const struct input *in,
			const char *dir, struct input *out, double share[2], struct error *err)
{
	double total = sampler_bytes(plan, in), written[2] = {0, 0}, q;
	int rc = 0;

	input_copy(&out[0], in);
	input_copy(&out[1], in);
	q = larger_share(plan, total);
	for (int i = 0; i < plan->npositions && rc == 0 && q < 1; i++) {
		int word, fd;
		size_t offset;
		const char *path = planned_file(plan, in, i, &word, &offset);
		const char *base;
		off_t size;
		long piece;
		double line;
		int by_line, chunks;

		if (!path)
			continue;
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
			rc = error_errno(err, "cannot read %s", path);
			break;
		}
		size = regular_size(path);
		base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		line = text_line_length(fd);
		by_line = plan->chunks == SAMPLER_BY_LINE && line > 0;
		chunks = by_line ? lines_sampled(q, size, line)
			 : plan->chunks == SAMPLER_BY_LINE ? SAMPLER_CHUNKS : plan->chunks;
		piece = by_line ? 1 : piece_bytes(plan, q * (double)size / chunks, line > 0);
		for (int k = 0; k < 2 && rc == 0; k++) {
			char *sub = xasprintf("%s/%c%d", dir, "ab"[k], i), *file;
			long len = k == 0 || by_line ? piece : piece / sampler_smaller(plan), got;
			int every = k == 1 && by_line ? sampler_smaller(plan) : 1;

			if (mkdir(sub, 0700) < 0 && errno != EEXIST)
				rc = error_errno(err, "cannot make %s", sub);
			file = xasprintf("%s/%s", sub, base);
			if (rc == 0 && (got = write_excerpt(fd, size, chunks, len, every, line > 0,
							  sampler_align(plan), path, file,
							  err)) < 0)
				rc = -1;
			else if (rc == 0) {
				written[k] += (double)got;
				input_replace(&out[k], word, offset, file);
			}
			free(file);
			free(sub);
		}
		close(fd);
	}
	share[0] = q < 1 && total > 0 ? written[0] / total : 1;
	share[1] = q < 1 && total > 0 ? written[1] / total : 1;
	if (rc < 0) {
		input_release(&out[0]);
		input_release(&out[1]);
	}
	return rc;
}

/* ---- runs --------------------------------------------------------------------------------- */

/* Returns a new private folder for the excerpts, in memory (/dev/shm) where the machine has it:
 * they are written and read once per prediction. NULL with errno set; owned by the caller. */
static char *excerpt_folder(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xstrdup("/dev/shm/mantis-sample-XXXXXX");

	if (mkdtemp(dir))
		return dir;
	free(dir);
	dir = xasprintf("%s/mantis-sample-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir))
		return dir;
	free(dir);
	return NULL;
}

/* Returns why run res of a sample failed (owned), or NULL when it ran to its end and wrote
 * counters. */
static char *failure_of(const struct run_result *res, const uint64_t *counters,
			const char *unreadable, const char *which)
{
	if (unreadable)
		return xasprintf("could not read %s", unreadable);
	if (res->status == RUN_TIMEOUT)
		return xasprintf("timed out on the %s sample", which);
	if (res->status == RUN_CRASH)
		return xasprintf("crashed (signal %d) on the %s sample", res->signal, which);
	if (res->status != RUN_OK)
		return xasprintf("exited with status %d on the %s sample", res->exit_code, which);
	if (!counters)
		return xasprintf("wrote no counters on the %s sample", which);
	return NULL;
}

int sampler_run(const char *exe, const struct solib_form *form, const struct manifest *m,
		const struct sampler_plan *plan, const struct input *in, int reps, double timeout,
		struct sampled_run *r, struct error *err)
{
	static const char *const which[] = {"larger", "smaller"};
	struct input sample[2];
	double *walls = xcalloc((size_t)reps + 1, sizeof *walls);
	char *dir = excerpt_folder();
	int rc = 0, runs;
	double t0;

	memset(r, 0, sizeof *r);
	if (!dir) {
		free(walls);
		return error_errno(err, "cannot make a folder for the input's samples");
	}
	t0 = now_seconds();
	if (sampler_make_inputs(plan, in, dir, sample, r->share, err) < 0) {
		remove_tree(dir);
		free(dir);
		free(walls);
		return -1;
	}
	r->seconds = now_seconds() - t0; /* a prediction makes them too */
	runs = r->share[0] >= 1 ? 1 : 2; /* the whole files: nothing to extrapolate */
	for (int k = 0; k < runs && rc == 0 && !r->failure; k++) {
		for (int rep = 0; rep < reps && rc == 0 && !r->failure; rep++) {
			struct run_result res;
			uint64_t *counters = NULL;
			char *unreadable = NULL;

			rc = predictor_measure_form(exe, form, &sample[k], timeout, m, &res,
						    &counters, &unreadable, err);
			if (rc == 0 && form && form->so && !form->host &&
			    (res.status == RUN_CRASH || res.status == RUN_TIMEOUT))
				r->tainted = 1;
			if (rc == 0 && rep == 0 &&
			    !(r->failure = failure_of(&res, counters, unreadable, which[k]))) {
				r->counters[k] = counters;
				counters = NULL;
			}
			walls[rep] = res.wall;
			free(counters);
			free(unreadable);
		}
		if (rc == 0 && !r->failure)
			r->seconds += median(walls, reps);
	}
	r->ok = rc == 0 && !r->failure;
	input_release(&sample[0]);
	input_release(&sample[1]);
	remove_tree(dir);
	free(dir);
	free(walls);
	if (rc < 0)
		sampled_run_release(r);
	return rc;
}

void sampled_run_release(struct sampled_run *r)
{
	free(r->counters[0]);
	free(r->counters[1]);
	free(r->failure);
	memset(r, 0, sizeof *r);
}

int sampler_quadratic_better(const double *quadratic, const double *line, const double *whole,
			     int n)
{
	double *eq = xcalloc((size_t)n + 1, sizeof *eq), *el = xcalloc((size_t)n + 1, sizeof *el);
	int k = 0, better;

	for (int i = 0; i < n; i++) {
		if (whole[i] != 0) {
			eq[k] = fabs(quadratic[i] / whole[i] - 1);
			el[k++] = fabs(line[i] / whole[i] - 1);
		}
	}
	better = k > 0 && median(eq, k) < median(el, k) / 2;
	free(eq);
	free(el);
	return better;
}

/* Appends to ds the column values of feature f had in way. */
static void add_way_column(struct dataset *ds, const struct feature *f, enum sampler_way way,
			   const double *values)
{
	char *name = sampler_name(f->name, way);

	dataset_add_column(ds, name, values);
	free(name);
}

/* Fills column[0..n) with feature f had from runs[0..n) in way. Returns whether it varies. */
static int way_column(const struct sampled_run *runs, int n, const struct feature *f,
		      enum sampler_way way, double *column)
{
	int varies = 0;

	for (int i = 0; i < n; i++) {
		column[i] = sampler_value(&runs[i], f, way);
		varies |= column[i] != column[0];
	}
	return varies;
}

int sampler_add_columns(struct dataset *ds, const struct manifest *m,
			const struct sampler_plan *plan, const struct sampled_run *runs)
{
	double *line = xcalloc((size_t)ds->n + 1, sizeof *line);
	double *other = xcalloc((size_t)ds->n + 1, sizeof *other);
	int added = 0;

	for (int f = 0; f < m->n; f++) {
		int extensive = sampler_extensive(&m->v[f]), whole = dataset_find(ds, m->v[f].name);
		enum sampler_way way = extensive ? SAMPLER_QUADRATIC : SAMPLER_LARGER;

		if (way_column(runs, ds->n, &m->v[f], SAMPLER_LINE, line) &&
		    (extensive || plan->chunks != SAMPLER_BY_LINE)) {
			add_way_column(ds, &m->v[f], SAMPLER_LINE, line);
			added++;
		}
		if (!way_column(runs, ds->n, &m->v[f], way, other) ||
		    (extensive && (whole < 0 || !sampler_quadratic_better(other, line,
						   ds->x + (size_t)whole * (size_t)ds->n, ds->n))))
			continue;
		add_way_column(ds, &m->v[f], way, other);
		added++;
	}
	free(line);
	free(other);
	return added;
}

/* ---- choosing the files ------------------------------------------------------------------- */

/* Returns the median size of the files position j names over in[0..n), where it names one,
 * and in *named on how many; -1 when it names none. */
static double median_size(const struct input *const *in, int n, int j, int *named)
{
	double *sizes = xcalloc((size_t)n + 1, sizeof *sizes), mid;

	*named = 0;
	for (int i = 0; i < n; i++) {
		int word;
		size_t offset;
		const char *path = position_file(in[i], j, &word, &offset);

		if (path)
			sizes[(*named)++] = (double)regular_size(path);
	}
	mid = *named > 0 ? median(sizes, *named) : -1;
	free(sizes);
	return mid;
}

/* Returns whether position j names, on every input of in[0..n) where it names a file, a word
 * one of plan's positions names: the same file, not to be sampled twice. */
static int same_as_planned(const struct sampler_plan *plan, const struct input *const *in, int n,
			   int j)
{
	for (int k = 0; k < plan->npositions; k++) {
		int same = 1;

		for (int i = 0; i < n && same; i++) {
			int a, b;
			size_t o;

			if (!position_file(in[i], j, &a, &o))
				continue;
			position_file(in[i], plan->positions[k], &b, &o);
			same = a == b;
		}
		if (same)
			return 1;
	}
	return 0;
}

/* Runs exe on trial inputs with position j sampled alone. Returns NULL when every run went to
 * its end, else why not (owned); -1 in *rc with err set when exe could not be run. */
static char *trial_failure(int j, double fraction, const char *exe, const struct manifest *m,
			   const struct input *const *in, const int *trial, int ntrial,
			   double timeout, int *rc, struct error *err)
{
	struct sampler_plan alone = {.fraction = fraction, .chunks = SAMPLER_CHUNKS,
				     .npositions = 1, .positions = &j};
	char *failed = NULL;

	*rc = 0;
	for (int t = 0; t < ntrial && !failed && *rc == 0; t++) {
		struct sampled_run r;

		if ((*rc = sampler_run(exe, NULL, m, &alone, in[trial[t]], 1, timeout, &r, err)) < 0)
			break;
		if (!r.ok) {
			char *name = position_name(j);

			failed = xasprintf("sampling %s, the program %s (input line %d)", name,
					   r.failure, in[trial[t]]->line);
			free(name);
		}
		sampled_run_release(&r);
	}
	return failed;
}

int sampler_plan_choose(struct sampler_plan *plan, double fraction, const char *exe,
			const struct manifest *m, const struct input *const *in, int n,
			const int *trial, int ntrial, double timeout, char **why, struct error *err)
{
	int candidates = 0;

	sampler_plan_release(plan);
	plan->fraction = fraction;
	plan->chunks = SAMPLER_CHUNKS;
	plan->positions = xcalloc(2 * SAMPLER_ARGS + 1, sizeof *plan->positions);
	plan->optional = xcalloc(2 * SAMPLER_ARGS + 1, sizeof *plan->optional);
	*why = NULL;
	/* stdin, the words from the first, the words from the last */
	for (int c = 0; c <= 2 * SAMPLER_ARGS; c++) {
		int j = c == 0 ? SAMPLER_STDIN : c <= SAMPLER_ARGS ? c : SAMPLER_ARGS - c, rc, named;
		char *failed;

		if (median_size(in, n, j, &named) < SAMPLER_MIN_BYTES ||
		    1000L * named < (long)SAMPLER_OPTIONAL_PERMILLE * n ||
		    same_as_planned(plan, in, n, j))
			continue;
		candidates++;
		failed = trial_failure(j, fraction, exe, m, in, trial, ntrial, timeout, &rc, err);
		if (rc < 0)
			return -1;
		if (!failed) {
			plan->optional[plan->npositions] = named < n;
			plan->positions[plan->npositions++] = j;
		}
		else if (!*why)
			*why = failed;
		else
			free(failed);
	}
	if (candidates == 0)
		*why = xasprintf("no input file is of %d KiB or more on most training inputs",
				 SAMPLER_MIN_BYTES / 1024);
	if (plan->npositions > 0) {
		free(*why);
		*why = NULL;
	}
	return plan->npositions;
}

/* ---- choosing the share ------------------------------------------------------------------- */

/* Returns |extrapolated / actual - 1|, the extrapolation's own relative error (actual 0 as 1). */
static double raw_error(double extrapolated, double actual)
{
	return fabs(extrapolated - actual) / (actual > 0 ? actual : 1);
}

double sampler_rescaled_error(const double *extrapolated, const double *actual, int n,
			      double *se, double *raw)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, mean = 0, square = 0, a, b;
	int m = 0;

	for (int k = 0; k < n; k++) {
		if (extrapolated[k] > 0 && actual[k] > 0) {
			mx += log(extrapolated[k]);
			my += log(actual[k]);
			m++;
		}
	}
	mx /= m > 0 ? m : 1;
	my /= m > 0 ? m : 1;
	for (int k = 0; k < n; k++) {
		if (extrapolated[k] > 0 && actual[k] > 0) {
			double dx = log(extrapolated[k]) - mx;

			sxx += dx * dx;
			sxy += dx * (log(actual[k]) - my);
		}
	}
	b = sxx > 0 ? sxy / sxx : 0;
	a = my - b * mx;
	*raw = 0;
	for (int k = 0; k < n; k++) {
		double e = raw_error(extrapolated[k], actual[k]);

		*raw += e / n;
		if (!(extrapolated[k] > 0))
			e = 1;
		else if (m >= 3 && sxx > 0 && actual[k] > 0) {
			double x = log(extrapolated[k]), y = log(actual[k]);
			double leverage = 1.0 / m + (x - mx) * (x - mx) / sxx;

			if (leverage < 1 - 1e-9)
				e = fabs(expm1(-(y - a - b * x) / (1 - leverage)));
		}
		mean += e / n;
		square += e * e / n;
	}
	*se = n > 1 ? sqrt(fmax(square - mean * mean, 0) / (n - 1)) : 0;
	return mean;
}

/* Returns whether trials x and y take the same share of the bytes, but for the rounding of
 * their pieces (within 1%): the same way of sampling, but for where the pieces lie. */
static int same_share(const struct sampler_trial *x, const struct sampler_trial *y)
{
	return fabs(x->share - y->share) <= 0.01 * fmax(x->share, y->share);
}

char *sampler_pieces(int chunks)
{
	if (chunks == SAMPLER_BY_LINE)
		return xstrdup("a line at a time");
	return xasprintf("in %d piece%s", chunks, chunks > 1 ? "s" : "");
}

/* Returns whether trial x, of the same share as y, goes before it: the more pieces (a sample
 * spread over the file stands for all of it, a prefix for its head), then the smaller error. */
static int spread_first(const struct sampler_trial *x, const struct sampler_trial *y)
{
	return x->chunks != y->chunks ? x->chunks > y->chunks : x->error < y->error;
}

/* Returns whether trial x may be kept: it ran everywhere and, when within_budget, costs at most
 * budget (or was not timed). */
static int eligible(const struct sampler_trial *x, int within_budget, double budget)
{
	return !x->failed && (!within_budget || !(x->cost > budget));
}

/* Returns whether trial x errs at most most (NAN: whatever it erred, or whether measured). */
static int errs_at_most(const struct sampler_trial *x, double most)
{
	return isnan(most) || x->error <= most;
}

/* Returns sampler_cheapest's choice among the trials of tr[0..n) that may be kept within
 * budget and err at most most (NAN: any), or -1 when none may. */
static int cheapest_of(const struct sampler_trial *tr, int n, double budget, double most)
{
	int best = -1, kept = -1, within = 0;

	for (int i = 0; i < n; i++)
		within |= eligible(&tr[i], 1, budget) && errs_at_most(&tr[i], most);
	if (!isnan(most) && !within)
		return -1;
	for (int i = 0; i < n; i++) {
		if (eligible(&tr[i], within, budget) && errs_at_most(&tr[i], most) &&
		    (best < 0 || tr[i].error < tr[best].error))
			best = i;
	}
	if (best < 0 || isnan(tr[best].error))
		return best;
	for (int i = 0; i < n; i++) {
		if (!eligible(&tr[i], within, budget) ||
		    !(tr[i].error <= tr[best].error + tr[best].se) ||
		    (tr[i].chunks == SAMPLER_BY_LINE && i != best))
			continue;
		if (kept < 0 || (same_share(&tr[i], &tr[kept]) ? spread_first(&tr[i], &tr[kept])
							       : tr[i].share < tr[kept].share))
			kept = i;
	}
	return kept;
}

int sampler_cheapest(const struct sampler_trial *tr, int n, double threshold, double budget)
{
	int k = cheapest_of(tr, n, fmin(threshold, budget), SAMPLER_GOOD_PERMILLE / 1e3);

	return k >= 0 ? k : cheapest_of(tr, n, budget, NAN);
}

/* Returns sampler_cheapest of tr[0..n) within budget if it takes a smaller share than kept,
 * or -1. */
static int cheaper_within(const struct sampler_trial *tr, int n, int kept, double threshold,
			  double budget)
{
	int k = sampler_cheapest(tr, n, threshold, budget);

	return k >= 0 && tr[k].cost <= budget && tr[k].share < tr[kept].share ? k : -1;
}

int sampler_cheaper(const struct sampler_trial *tr, int n, int kept, double least,
		    double threshold, double *budget)
{
	int k;

	*budget = 0;
	if (kept < 0 || kept >= n || !(least > threshold))
		return -1;
	*budget = tr[kept].cost * threshold / least;
	k = cheaper_within(tr, n, kept, threshold, *budget);
	if (k < 0 && least > 2 * threshold) {
		*budget = tr[kept].cost / 2;
		k = cheaper_within(tr, n, kept, threshold, *budget);
	}
	return k;
}

int sampler_cheaper_share(const struct sampler_trial *tr, int n, int kept, double least,
			  double threshold, double *share)
{
	struct sampler_trial *scaled;
	double budget;
	int k;

	*share = 0;
	if (kept < 0 || kept >= n || !(tr[kept].share > 0) || !(least > 0))
		return -1;
	scaled = xmalloc(sizeof *scaled * (size_t)n);
	memcpy(scaled, tr, sizeof *scaled * (size_t)n);
	for (int i = 0; i < n; i++)
		scaled[i].cost = least * tr[i].share / tr[kept].share;
	k = sampler_cheaper(scaled, n, kept, least, threshold, &budget);
	*share = budget * tr[kept].share / least;
	free(scaled);
	return k;
}

int sampler_give_up(int costly, int accepted, int cheaper)
{
	if (costly < SAMPLER_GIVE_UP_TRIES)
		return 0;
	return accepted == 0 || (cheaper && costly >= SAMPLER_GIVE_UP_RATIO * accepted);
}

int sampler_measured(const struct sampler_trial *tr, int n)
{
	for (int i = 0; i < n; i++) {
		if (!tr[i].failed && !isnan(tr[i].error))
			return 1;
	}
	return 0;
}

int sampler_rejection(const struct sampler_cost *c, int n, double runs_cost, double *saving)
{
	int sampled = 0, worst = -1;

	for (int i = 0; i < n; i++)
		sampled += c[i].sampled;
	*saving = 0;
	for (int i = 0; i < n; i++) {
		double s = !c[i].sampled ? c[i].cost : sampled > 1 ? 0 : runs_cost;

		if (c[i].eligible && (worst < 0 || s > *saving ||
				      (s == *saving && c[i].cost > c[worst].cost))) {
			worst = i;
			*saving = s;
		}
	}
	return worst;
}
