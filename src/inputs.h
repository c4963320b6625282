/*
 * inputs.h: the inputs file, one run of the program per line.
 *
 * Format (docs/ARCHITECTURE.md, "Inputs file"): shell-quoted words become argv[1..]; `< FILE`
 * feeds stdin; `#` at the start of a word begins a comment; blank lines are skipped; a word that
 * names an existing file or folder relative to the inputs file's folder is replaced by its
 * absolute path (also the VALUE of a `-opt=VALUE` word); `{tmp}` is kept and expanded per run.
 */
#ifndef MANTIS_INPUTS_H
#define MANTIS_INPUTS_H

struct error;

/* One input: the argv words and the stdin of one run of the program. */
struct input {
	int line;         /* 1-based line number in the inputs file, for messages */
	char *text;       /* the line as written, comment and surrounding blanks removed; owned */
	int argc;         /* number of words, not counting a program name */
	char **argv;      /* the words, NULL-terminated, paths resolved, "{tmp}" unexpanded; owned */
	char *stdin_path; /* absolute path of the file fed to stdin, or NULL for none; owned */
};

/* A parsed inputs file. */
struct inputs {
	char *path;      /* the file as named by the user, for messages; owned */
	char *dir;       /* absolute folder that relative paths are resolved against; owned */
	int n;           /* number of inputs */
	struct input *v; /* the inputs in file order; owned */
};

/*
 * Reads and parses the inputs file at path into *ins (which need not be initialised).
 * Returns 0, or -1 with err naming path:line and what is wrong; *ins is then empty.
 * The caller releases *ins with inputs_release.
 */
int inputs_load(struct inputs *ins, const char *path, struct error *err);

/*
 * Parses text as an inputs file called name (used in messages) whose folder is dir (absolute).
 * Returns and owns as inputs_load.
 */
int inputs_parse(struct inputs *ins, const char *text, const char *name, const char *dir,
		 struct error *err);

/* Replaces *word (owned, reallocated) by dir/word when that names an existing path, or does
 * the same for the VALUE of a -opt=VALUE word: the rule every inputs-file word follows. */
void inputs_resolve_word(char **word, const char *dir);

/* Returns the identity of an input (owned by the caller): its resolved words and stdin, joined
 * by separators no argument holds; the profile and eval.db key inputs by it. */
char *input_key(const struct input *in);

/* Returns "SIZE:MTIME" of every existing file in's words and stdin name, space-separated (owned
 * by the caller): what was measured on an input is reused only while they are the same. */
char *input_stamp(const struct input *in);

/* Frees what one input owns (its words, text and stdin) and zeroes it. */
void input_release(struct input *in);

/* Frees everything *ins owns and leaves it empty. */
void inputs_release(struct inputs *ins);

#endif
