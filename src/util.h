/*
 * util.h: allocation that cannot fail and small string helpers shared by every module.
 *
 * Running out of memory is not a recoverable condition for a command-line tool (git and SQLite's
 * shell take the same view): x* functions print one line and abort instead of returning NULL.
 */
#ifndef MANTIS_UTIL_H
#define MANTIS_UTIL_H

#include <stddef.h>

/* Returns n bytes of fresh memory, owned by the caller; never NULL. */
void *xmalloc(size_t n);
/* Returns n zeroed elements of size bytes, owned by the caller; never NULL. */
void *xcalloc(size_t n, size_t size);
/* Returns p resized to n bytes (p may be NULL), owned by the caller; never NULL. */
void *xrealloc(void *p, size_t n);
/* Returns a copy of s, owned by the caller. */
char *xstrdup(const char *s);
/* Returns a printf-formatted string, owned by the caller. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable NUL-terminated byte string. */
struct strbuf {
	char *buf;  /* the bytes, always NUL-terminated once anything was added; owned */
	size_t len; /* bytes used, without the NUL */
	size_t cap; /* bytes allocated */
};

/* Appends n bytes of s. */
void strbuf_add(struct strbuf *sb, const char *s, size_t n);
/* Appends one byte. */
void strbuf_addch(struct strbuf *sb, char c);
/* Appends printf-formatted text. */
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Returns the string, ownership passed to the caller ("" if empty), and resets sb. */
char *strbuf_detach(struct strbuf *sb);
/* Frees the bytes and resets sb. */
void strbuf_release(struct strbuf *sb);

/*
 * A map from pointers (LLVM values, blocks) to non-negative ints, by open addressing with
 * linear probing; the table doubles at half load, so lookups stay O(1).
 */
struct ptrmap {
	const void **key; /* slots' keys, NULL if free; owned */
	int *val;         /* slots' values; owned */
	size_t cap;       /* slots, a power of two or 0 */
	size_t n;         /* keys present */
};

/* Sets key's value (key != NULL, val >= 0), replacing an old one. */
void ptrmap_put(struct ptrmap *map, const void *key, int val);
/* Returns key's value, or -1 if it has none. */
int ptrmap_get(const struct ptrmap *map, const void *key);
/* Frees the table and resets map. */
void ptrmap_release(struct ptrmap *map);

/* A growable array of ints. */
struct intvec {
	int *v;  /* the elements; owned */
	int n;   /* used */
	int cap; /* allocated */
};

/* Appends x. */
void intvec_push(struct intvec *iv, int x);
/* Frees the elements and resets iv. */
void intvec_release(struct intvec *iv);

struct error;

/*
 * Runs argv (argv[0] looked up in PATH) and waits; its stdout goes to stdout_path (truncated)
 * or is inherited when NULL; stderr is inherited. Returns 0 if it exited 0, else -1 with err
 * naming the command and its status.
 */
int run_command(char *const *argv, const char *stdout_path, struct error *err);
/* As run_command, with its stderr sent to /dev/null: for an attempt whose failure the caller
 * handles (a static link it falls back from), whose complaints would mislead. */
int run_command_quiet(char *const *argv, const char *stdout_path, struct error *err);

/*
 * Reads the whole file at path into a NUL-terminated buffer (owned by the caller) and sets *len
 * (if len is not NULL). Returns NULL with err saying "cannot open WHAT PATH: reason" on failure
 * (what names the kind of file, e.g. "inputs file ", or is "").
 */
char *read_file(const char *path, size_t *len, const char *what, struct error *err);
/* Writes n bytes to path through a temporary file renamed over it. Returns 0 or -1 with err. */
int write_file(const char *path, const char *data, size_t n, struct error *err);

/* Sorts v[0..n) ascending in place. */
void sort_doubles(double *v, int n);
/* Returns the median of v[0..n) (n > 0), sorting v in place. */
double median(double *v, int n);

/* Returns a copy of s with every "{tmp}" replaced by tmp, owned by the caller. */
char *str_replace_tmp(const char *s, const char *tmp);

/* Removes the folder dir and everything in it; best effort. */
void remove_tree(const char *dir);
/* Returns the seconds of CLOCK_MONOTONIC: differences of two are wall time. */
double now_seconds(void);
#endif
