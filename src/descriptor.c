/*
 * descriptor.c: an input's descriptors (descriptor.h), read off its words and files with
 * strtod, stat, a probe of its data file's content and of its script's numbers (probe.c) and the
 * words themselves (a flag, a pattern: input:word(W)), never by running the program:
 * the black box's features (the sizes: 000_ section 6, "BB") and mantis's free input features.
 * Invariant: descriptor j is named descriptor_name(j) everywhere, and descriptor_value(in, j)
 * is row[j] of descriptor_values(in, row), bit for bit (export-c repeats the same operations).
 */
#include "descriptor.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "field.h"
#include "inputs.h"
#include "probe.h"
#include "util.h"

_Static_assert(DESCRIPTOR_NUMBERS == PROBE_NUMBERS, "a descriptor per number a script's probe reads");

char *descriptor_name(int j)
{
	if (j < DESCRIPTOR_ARGS)
		return xasprintf(DESCRIPTOR_PREFIX "arg%d", j + 1);
	if (j < 2 * DESCRIPTOR_ARGS)
		return xasprintf(DESCRIPTOR_PREFIX "size(arg%d)", j - DESCRIPTOR_ARGS + 1);
	if (descriptor_scripted(j))
		return xasprintf(DESCRIPTOR_PREFIX "number(%d)", j - DESCRIPTOR_NUMBER + 1);
	return xstrdup(j == DESCRIPTOR_STDIN      ? DESCRIPTOR_PREFIX "size(stdin)"
		       : j == DESCRIPTOR_ALL      ? DESCRIPTOR_PREFIX "size(all files)"
		       : j == DESCRIPTOR_ENTROPY  ? DESCRIPTOR_PREFIX "entropy(data)"
		       : j == DESCRIPTOR_REPEATS  ? DESCRIPTOR_PREFIX "repeats(data)"
						  : DESCRIPTOR_PREFIX "newlines(data)");
}

char *descriptor_description(int j)
{
	if (j < DESCRIPTOR_ARGS)
		return xasprintf("the numeric value of argument %d (0 when it is not a number)", j + 1);
	if (j < 2 * DESCRIPTOR_ARGS)
		return xasprintf("the size in bytes of the file argument %d names (or its -opt=FILE)",
				 j - DESCRIPTOR_ARGS + 1);
	if (descriptor_scripted(j))
		return xasprintf("number %d of the input's script (its first text file of at most "
				 "64 KiB: stdin, then the files its arguments name), 0 when it has "
				 "fewer", j - DESCRIPTOR_NUMBER + 1);
	return xstrdup(
		j == DESCRIPTOR_STDIN     ? "the size in bytes of the standard input"
		: j == DESCRIPTOR_ALL     ? "the bytes of every file the input names, stdin included"
		: j == DESCRIPTOR_ENTROPY ? "the bits a byte carries in the input's largest file "
					    "(order-0 entropy of a 64 KiB sample)"
		: j == DESCRIPTOR_REPEATS ? "the share of the input's largest file that repeats "
					    "what came shortly before it (4-byte strings of a 64 KiB "
					    "sample)"
					  : "newlines per byte in the input's largest file (a 64 KiB "
					    "sample)");
}

/* Returns whether name is input:word(W) with W not empty. */
static int is_word_name(const char *name)
{
	size_t n = strlen(name), p = strlen(DESCRIPTOR_WORD_PREFIX);

	return n > p + 1 && strncmp(name, DESCRIPTOR_WORD_PREFIX, p) == 0 && name[n - 1] == ')';
}

char *descriptor_word(const char *name)
{
	size_t p = strlen(DESCRIPTOR_WORD_PREFIX);

	return xasprintf("%.*s", (int)(strlen(name) - p - 1), name + p);
}

int descriptor_find(const char *name)
{
	struct field f;

	if (strncmp(name, DESCRIPTOR_PREFIX, strlen(DESCRIPTOR_PREFIX)) != 0)
		return -1;
	if (is_word_name(name))
		return DESCRIPTOR_WORD;
	if (field_parse(name, &f) == 0)
		return DESCRIPTOR_FIELD;
	for (int j = 0; j < DESCRIPTOR_N; j++) {
		char *mine = descriptor_name(j);
		int same = strcmp(mine, name) == 0;

		free(mine);
		if (same)
			return j;
	}
	return -1;
}

char *descriptor_describe(const char *name)
{
	int j = descriptor_find(name);
	struct field f;
	char *word, *text;

	if (j < 0)
		return NULL;
	if (j < DESCRIPTOR_N)
		return descriptor_description(j);
	if (j == DESCRIPTOR_FIELD && field_parse(name, &f) == 0)
		return field_describe(&f);
	word = descriptor_word(name);
	text = xasprintf("1 when \"%s\" is one of the arguments, else 0", word);
	free(word);
	return text;
}

int descriptor_probes(int j)
{
	return j >= DESCRIPTOR_SIZES && j < DESCRIPTOR_NUMBER;
}

int descriptor_scripted(int j)
{
	return j >= DESCRIPTOR_NUMBER && j < DESCRIPTOR_N;
}

/* Returns 1 when word is one of in's arguments, else 0. */
static double has_word(const struct input *in, const char *word)
{
	for (int i = 0; i < in->argc; i++) {
		if (strcmp(in->argv[i], word) == 0)
			return 1;
	}
	return 0;
}

static const char *data_file_path(const struct input *in);

double descriptor_named_value(const struct input *in, const char *name, const double *row)
{
	int j = descriptor_find(name);
	struct field f;
	char *word;
	double v;

	assert(j >= 0);
	if (j < DESCRIPTOR_N)
		return row[j];
	if (j == DESCRIPTOR_FIELD && field_parse(name, &f) == 0)
		return field_read(data_file_path(in), &f);
	word = descriptor_word(name);
	v = has_word(in, word);
	free(word);
	return v;
}

/* Returns the size of the file at path, 0 if it is not a regular file. */
static double file_size(const char *path)
{
	struct stat st;

	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0;
}

/* Returns the bytes of the files word names: itself, and the VALUE of a -opt=VALUE word. */
static double word_size(const char *word)
{
	const char *eq = strchr(word, '=');

	return file_size(word) + (eq ? file_size(eq + 1) : 0);
}

/* Returns word's numeric value: strtod of all of it, 0 if it is not a number. */
static double word_number(const char *word)
{
	char *end;
	double v = strtod(word, &end);

	return *end == '\0' && end != word ? v : 0;
}

/* A file's identity. */
struct file_id {
	dev_t dev; /* its device */
	ino_t ino; /* its inode on it */
};

/* An input's data file, as data_file finds it. */
struct data_file {
	const char *path;   /* its path, borrowed from the input; NULL until one is found */
	struct file_id id;  /* its identity */
	double size;        /* its size in bytes */
};

/* Considers path as the data file: takes it into *best when it is a regular file larger than
 * best's (or the first). */
static void consider_file(const char *path, struct data_file *best)
{
	struct stat st;

	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (best->path && (double)st.st_size <= best->size))
		return;
	*best = (struct data_file){path, {st.st_dev, st.st_ino}, (double)st.st_size};
}

/* Returns whether in names a regular file, with the largest one (the first of equal sizes:
 * stdin, then the words in order) in *best. */
static int data_file(const struct input *in, struct data_file *best)
{
	*best = (struct data_file){NULL, {0, 0}, 0};
	consider_file(in->stdin_path, best);
	for (int i = 0; i < in->argc; i++) {
		const char *eq = strchr(in->argv[i], '=');

		consider_file(in->argv[i], best);
		if (eq)
			consider_file(eq + 1, best);
	}
	return best->path != NULL;
}

/* Returns the path of in's script (borrowed from in), the first file it names that is one
 * (probe_script), with its numbers in numbers[0..DESCRIPTOR_NUMBERS); NULL (numbers all zeros)
 * when it names none. */
static const char *script_file(const struct input *in, double *numbers)
{
	if (in->stdin_path && probe_script(in->stdin_path, numbers))
		return in->stdin_path;
	for (int i = 0; i < in->argc; i++) {
		const char *eq = strchr(in->argv[i], '=');

		if (probe_script(in->argv[i], numbers))
			return in->argv[i];
		if (eq && probe_script(eq + 1, numbers))
			return eq + 1;
	}
	return NULL;
}

/* Returns the path of in's data file (borrowed from in), NULL when it names none. */
static const char *data_file_path(const struct input *in)
{
	struct data_file best;

	return data_file(in, &best) ? best.path : NULL;
}

void descriptor_sizes(const struct input *in, double *row)
{
	memset(row, 0, sizeof *row * DESCRIPTOR_SIZES);
	for (int i = 0; i < in->argc; i++) {
		double size = word_size(in->argv[i]);

		if (i < DESCRIPTOR_ARGS) {
			row[i] = word_number(in->argv[i]);
			row[DESCRIPTOR_ARGS + i] = size;
		}
		row[DESCRIPTOR_ALL] += size;
	}
	row[DESCRIPTOR_STDIN] = file_size(in->stdin_path);
	row[DESCRIPTOR_ALL] += row[DESCRIPTOR_STDIN];
}

void descriptor_values(const struct input *in, double *row)
{
	const char *path = data_file_path(in);
	struct probe pr;

	descriptor_sizes(in, row);
	if (!path || probe_file(path, &pr) != 0)
		pr = (struct probe){0, 0, 0};
	row[DESCRIPTOR_ENTROPY] = pr.entropy;
	row[DESCRIPTOR_REPEATS] = pr.repeats;
	row[DESCRIPTOR_NEWLINES] = pr.newlines;
	script_file(in, row + DESCRIPTOR_NUMBER);
}

double descriptor_value(const struct input *in, int j)
{
	double row[DESCRIPTOR_N];

	if (j < DESCRIPTOR_SIZES)
		descriptor_sizes(in, row);
	else
		descriptor_values(in, row);
	return row[j];
}



int *descriptor_groups(const struct input *const *in, int n, int *ngroups)
{
	int *group = xcalloc((size_t)n + 1, sizeof *group), *has = xcalloc((size_t)n + 1, sizeof *has);
	struct file_id *id = xcalloc((size_t)n + 1, sizeof *id);

	*ngroups = 0;
	for (int i = 0; i < n; i++) {
		struct data_file best = {NULL, {0, 0}, 0};

		has[i] = in[i] && data_file(in[i], &best);
		id[i] = best.id;
		group[i] = -1;
		for (int j = 0; j < i && has[i]; j++) {
			if (has[j] && id[j].dev == id[i].dev && id[j].ino == id[i].ino) {
				group[i] = group[j];
				break;
			}
		}
		if (group[i] < 0)
			group[i] = (*ngroups)++;
	}
	free(has);
	free(id);
	return group;
}

int descriptor_readable(const struct input *in, int j, const char **path)
{
	const char *word, *eq;

	*path = NULL;
	if (j == DESCRIPTOR_WORD)
		return 0;
	if (descriptor_scripted(j)) {
		double numbers[DESCRIPTOR_NUMBERS];

		if (script_file(in, numbers))
			return 0;
		errno = ENOENT;
		return -1;
	}
	if (j >= DESCRIPTOR_SIZES) {
		if (data_file_path(in))
			return 0;
		errno = ENOENT;
		return -1;
	}
	if (j == DESCRIPTOR_STDIN) {
		*path = in->stdin_path;
		return in->stdin_path ? access(in->stdin_path, R_OK) : 0;
	}
	if (j < DESCRIPTOR_ARGS || j >= 2 * DESCRIPTOR_ARGS)
		return 0;
	if (j - DESCRIPTOR_ARGS >= in->argc) {
		errno = ENOENT;
		return -1;
	}
	word = in->argv[j - DESCRIPTOR_ARGS];
	eq = strchr(word, '=');
	*path = word;
	if (access(word, R_OK) == 0)
		return 0;
	if (eq && errno == ENOENT) {
		*path = eq + 1;
		return access(eq + 1, R_OK);
	}
	return -1;
}

/* A word of the inputs' arguments, as descriptor_add_columns counts it. */
struct word_count {
	const char *word; /* borrowed from an input */
	int rows;         /* the rows that have it */
};

/* Returns whether word may be a word feature: not a number, no file (nor -opt=FILE), not
 * empty, at most 64 bytes of printable ASCII. */
static int word_feature(const char *word)
{
	char *end;
	size_t n = strlen(word);

	strtod(word, &end);
	if (n == 0 || n > 64 || (*end == '\0' && end != word) || word_size(word) > 0 ||
	    access(word, F_OK) == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (word[i] < 0x20 || word[i] > 0x7e)
			return 0;
	}
	return 1;
}

/* Counts in *words (grown; *nwords of them) the rows of in[0..n) that have each word feature,
 * a row counting a word once, in the order of first appearance. */
static void count_words(const struct input *const *in, int n, struct word_count **words,
			int *nwords)
{
	for (int r = 0; r < n; r++) {
		for (int i = 0; i < in[r]->argc; i++) {
			const char *w = in[r]->argv[i];
			int k = 0, seen = 0;

			for (int e = 0; e < i && !seen; e++)
				seen = strcmp(in[r]->argv[e], w) == 0;
			if (seen || !word_feature(w))
				continue;
			while (k < *nwords && strcmp((*words)[k].word, w) != 0)
				k++;
			if (k == *nwords) {
				*words = xrealloc(*words, sizeof **words * (size_t)(*nwords + 1));
				(*words)[(*nwords)++] = (struct word_count){w, 0};
			}
			(*words)[k].rows++;
		}
	}
}

/* Appends to ds the word features of in (descriptor_add_columns); returns how many. */
static int add_word_columns(struct dataset *ds, const struct input *const *in)
{
	struct word_count *words = NULL;
	double *column = xcalloc((size_t)ds->n + 1, sizeof *column);
	int nwords = 0, added = 0;

	count_words(in, ds->n, &words, &nwords);
	for (int least = ds->n - 1; least >= 2 && added < DESCRIPTOR_WORDS; least--) {
		for (int k = 0; k < nwords && added < DESCRIPTOR_WORDS; k++) {
			char *name;

			if (words[k].rows != least)
				continue;
			name = xasprintf(DESCRIPTOR_WORD_PREFIX "%s)", words[k].word);
			for (int r = 0; r < ds->n; r++)
				column[r] = has_word(in[r], words[k].word);
			dataset_add_column(ds, name, column);
			free(name);
			added++;
		}
	}
	free(words);
	free(column);
	return added;
}

/* Fills head[i][0..len[i]) (owned by the caller) with the first FIELD_BYTES of in[i]'s data
 * file. Returns 0, or -1 (nothing to free) when some input names none or it cannot be read. */
static int read_heads(const struct input *const *in, int n, unsigned char **head, size_t *len)
{
	for (int i = 0; i < n; i++) {
		const char *path = data_file_path(in[i]);
		FILE *f = path ? fopen(path, "rb") : NULL;

		head[i] = f ? xmalloc(FIELD_BYTES) : NULL;
		len[i] = f ? fread(head[i], 1, FIELD_BYTES, f) : 0;
		if (f)
			fclose(f);
		if (!f) {
			while (i >= 0)
				free(head[i--]);
			return -1;
		}
	}
	return 0;
}

/* Inserts before ds's columns the header fields of its first values (descriptor_add_columns);
 * returns how many. */
static int add_field_columns(struct dataset *ds, const struct input *const *in)
{
	unsigned char **head = xcalloc((size_t)ds->n + 1, sizeof *head);
	size_t *len = xcalloc((size_t)ds->n + 1, sizeof *len);
	double *column = xcalloc((size_t)ds->n + 1, sizeof *column);
	struct field fields[FIELDS_MOST];
	int found = 0;

	if (read_heads(in, ds->n, head, len) == 0) {
		found = field_learn(ds, (const unsigned char *const *)head, len, fields,
				    FIELDS_MOST);
		for (int k = 0; k < found; k++) {
			char *name = field_name(&fields[k]);

			for (int i = 0; i < ds->n; i++)
				column[i] = field_decode(&fields[k], head[i], len[i]);
			dataset_insert_column(ds, k, name, column);
			free(name);
		}
		for (int i = 0; i < ds->n; i++)
			free(head[i]);
	}
	free(head);
	free(len);
	free(column);
	return found;
}

int descriptor_add_columns(struct dataset *ds, const struct input *const *in)
{
	double *row = xcalloc((size_t)ds->n * DESCRIPTOR_N + 1, sizeof *row);
	double *column = xcalloc((size_t)ds->n + 1, sizeof *column);
	int added = 0;

	for (int i = 0; i < ds->n; i++)
		descriptor_values(in[i], row + (size_t)i * DESCRIPTOR_N);
	for (int j = 0; j < DESCRIPTOR_N; j++) {
		int varies = 0;

		for (int i = 0; i < ds->n; i++) {
			column[i] = row[(size_t)i * DESCRIPTOR_N + (size_t)j];
			varies |= column[i] != column[0];
		}
		if (varies) {
			char *name = descriptor_name(j);

			dataset_add_column(ds, name, column);
			free(name);
			added++;
		}
	}
	free(row);
	free(column);
	added += add_word_columns(ds, in);
	return added + add_field_columns(ds, in);
}
