/*
 * descriptor.h: an input's descriptors, the features a scheduler can read off a command line
 * without running anything: each argument's numeric value, the size of each file it names, the
 * size of its stdin and of every file together (the "sizes", read by stat), what its data
 * file's content is like (probe.h: read off a 64 KiB sample of it), the numbers of its script
 * (its first small text file: an SQL query's row count, a simulation's steps), and whether a
 * word (a flag, a pattern) is one of its arguments, and the header fields the program reads
 * as values (field.h). The black-box baseline
 * (blackbox.h) models the sizes alone, as the papers' black box does; mantis train offers all
 * of them to its model beside the program's features as "input features", which cost no
 * evaluator.
 */
#ifndef MANTIS_DESCRIPTOR_H
#define MANTIS_DESCRIPTOR_H
struct dataset;
struct input;

enum {
	DESCRIPTOR_ARGS = 16,                       /* argument positions looked at */
	DESCRIPTOR_STDIN = 2 * DESCRIPTOR_ARGS,     /* the index of size(stdin), after each
						     * position's value and file size */
	DESCRIPTOR_ALL = DESCRIPTOR_STDIN + 1,      /* the index of size(all files) */
	DESCRIPTOR_SIZES = DESCRIPTOR_ALL + 1,      /* the sizes: descriptors read by stat */
	DESCRIPTOR_ENTROPY = DESCRIPTOR_SIZES,      /* the index of entropy(data) */
	DESCRIPTOR_REPEATS = DESCRIPTOR_ENTROPY + 1, /* the index of repeats(data) */
	DESCRIPTOR_NEWLINES = DESCRIPTOR_REPEATS + 1, /* the index of newlines(data) */
	DESCRIPTOR_NUMBER = DESCRIPTOR_NEWLINES + 1, /* the index of number(1), the script's
						     * first number */
	DESCRIPTOR_NUMBERS = 16,                    /* its numbers looked at (PROBE_NUMBERS) */
	DESCRIPTOR_N = DESCRIPTOR_NUMBER + DESCRIPTOR_NUMBERS, /* descriptors of every input */
	DESCRIPTOR_WORD = DESCRIPTOR_N,             /* a word's: whether the input has it as an
						     * argument (input:word(W); the word is in
						     * the name) */
	DESCRIPTOR_WORDS = 32,                      /* most words one dataset is given */
	DESCRIPTOR_FIELD = DESCRIPTOR_WORD + 1,     /* a header field's: a number at a fixed
						     * byte of its data file (input:field(
						     * ENC@OFFSET), field.h; in the name) */
};

/* The prefix of every descriptor's feature name. */
#define DESCRIPTOR_PREFIX "input:"
/* The prefix of a word's feature name, input:word(W). */
#define DESCRIPTOR_WORD_PREFIX "input:word("

/*
 * Returns descriptor j's feature name (owned by the caller): "input:arg3" (argument 3's
 * numeric value), "input:size(arg3)", "input:size(stdin)", "input:size(all files)",
 * "input:entropy(data)", "input:repeats(data)", "input:newlines(data)", "input:number(3)" (the
 * script's third number).
 */
char *descriptor_name(int j);
/* Returns a one-line description of descriptor j, owned by the caller. */
char *descriptor_description(int j);
/* Returns the index of the descriptor called name (DESCRIPTOR_WORD for input:word(W), W not
 * empty; DESCRIPTOR_FIELD for a header field's), or -1 when name is not one. */
int descriptor_find(const char *name);
/* Returns the word W of a word descriptor's name, input:word(W) (descriptor_find gives
 * DESCRIPTOR_WORD), owned by the caller. */
char *descriptor_word(const char *name);
/* Returns the description of the descriptor called name (descriptor_description, or a
 * word's), owned by the caller; NULL when name is not one. */
char *descriptor_describe(const char *name);
/* Returns whether descriptor j reads the data file's content (probe.h: probe_file). */
int descriptor_probes(int j);
/* Returns whether descriptor j is a number of the input's script (probe.h: probe_script). */
int descriptor_scripted(int j);
/* Returns the value of the descriptor called name for in: row[j] of descriptor_values for
 * j = descriptor_find(name) < DESCRIPTOR_N; for a word, 1 when one of in's arguments is the
 * word, else 0; for a header field, its number in in's data file (field_read). row is in's
 * descriptor_values (or descriptor_sizes when j reads no content). */
double descriptor_named_value(const struct input *in, const char *name, const double *row);
/*
 * Fills row[0..DESCRIPTOR_SIZES) with in's sizes: per argument position its numeric value
 * (strtod of the whole word, 0 if it is not a number) and the size of the regular file it
 * names (the word, plus the VALUE of a -opt=VALUE word; 0 if none), the size of its stdin, and
 * the bytes of every file it names together.
 */
void descriptor_sizes(const struct input *in, double *row);
/*
 * Fills row[0..DESCRIPTOR_N) with in's descriptors: its sizes, then the probe (probe.h) of its
 * data file (the largest regular file it names, as descriptor_groups), zeros with none, then
 * the numbers of its script: the first file it names (its stdin, then the words and the VALUE
 * of -opt=VALUE words in order) that probe_script finds a script, zeros with none.
 */
void descriptor_values(const struct input *in, double *row);
/* Returns descriptor j's value for in (as descriptor_values). */
double descriptor_value(const struct input *in, int j);
/*
 * Returns per input in[0..n) its group (owned by the caller), numbered from 0 in the order of
 * first appearance, and the number of groups in *ngroups: inputs whose data file is the same
 * file (device and inode) share a group, where an input's data file is the largest regular
 * file it names (its stdin, a word, the VALUE of a -opt=VALUE word; the first of equal
 * sizes); an input naming none is a group of its own. A NULL in[i] is a group of its own.
 * Inputs that share a data file share the way their data drives the program: a model judged
 * on inputs of files it was fitted on is judged on what it has seen.
 */
int *descriptor_groups(const struct input *const *in, int n, int *ngroups);
/*
 * For a descriptor j that reads a file's size: returns 0 when the file in names there can be
 * read, or -1 with errno set (ENOENT, EACCES) and *path (borrowed from in) the file at fault.
 * For one that probes the data file: 0 when in names a regular file, else -1 with errno ENOENT
 * and *path NULL; for a script's number, the same when in names no script. Any other
 * descriptor returns 0.
 */
int descriptor_readable(const struct input *in, int j, const char **path);
/*
 * Appends to ds, after its columns, the descriptors that take more than one value over its
 * rows, row i being in[i]'s, then the words (input:word(W)) that are arguments of two rows or
 * more and not of all, neither numbers nor files nor longer than 64 bytes, the
 * DESCRIPTOR_WORDS of them in the most rows (a flag such as xz's -e, lz4's -BD, a pattern),
 * in the order of their first appearance. Then, before every column, the header fields of
 * the program's first values among ds's columns (field_learn, on the first FIELD_BYTES of each
 * row's data file; none unless every row names one): first, so that a first value they copy
 * exactly is their alias and the model reads the field, free, rather than an evaluator of it.
 * Returns how many columns were added.
 */
int descriptor_add_columns(struct dataset *ds, const struct input *const *in);
#endif
