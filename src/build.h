/*
 * build.h: a build directory made by `mantis instrument`: the original program for timing, the
 * instrumented one for features, and the manifest of those features.
 *
 *   DIR/orig            the program, built from the prepared IR at the user's level
 *   DIR/inst            the same IR with feature counters, linked with the runtime
 *   DIR/sandboxed       DIR/inst's objects linked also with sandbox.o: the same counters, but it
 *                       changes no file (its writes go to memory files) and prints nothing
 *   DIR/features.json   the manifest (manifest.h)
 *   DIR/prepared.bc     the prepared whole-program bitcode both come from
 *   DIR/inst.bc         the instrumented bitcode, without debug information (codegen.h)
 */
#ifndef MANTIS_BUILD_H
#define MANTIS_BUILD_H

/* How DIR/prepared.bc is made (ir_prepare), numbered: one more whenever that changes, so that
 * mantis train instruments a program again rather than slice a build prepared otherwise
 * (2: large globals aligned). */
#define BUILD_PREPARED 2

struct error;
struct manifest;

/* What to build. */
struct build_options {
	char *const *sources; /* C sources, or NULL */
	int nsources;         /* number of sources */
	const char *bitcode;  /* a .bc or .ll file instead of sources, or NULL */
	char *const *cflags;  /* compiler flags for the sources (-I, -D, -std=...) */
	int ncflags;
	char *const *ldflags; /* linker flags (-l, -L, -pthread) */
	int nldflags;
	const char *opt;      /* optimisation level: "0", "1", "2", "3", "s" or "z" */
	unsigned schemes;     /* SCHEME_* bits (instrument.h) */
	const char *runtime;  /* the runtime object (mantisrt.o) */
	const char *sandbox;  /* the sandbox runtime object (sandbox.o), or NULL: no DIR/sandboxed */
	const char *program;  /* the program's name, or NULL: the first source's or the bitcode's
				 base name without its suffix; every run of the build gives it
				 as argv[0] (manifest.h) */
};

/* A program given as mantis instrument's words (-o DIR, options, sources or bitcode or a
 * program built with mantis cc, compiler and linker flags), parsed. */
struct build_args {
	struct build_options opt; /* what to build; its arrays point into the lists below */
	const char *dir;          /* the -o DIR word, or NULL */
	char **sources;           /* the .c words; the array is owned, not the words */
	char **cflags;            /* compiler flags; array owned */
	char **ldflags;           /* linker flags; array owned */
	char **owned;             /* strings made while parsing (recorded bitcode, link flags); owned */
	int nowned;               /* their number */
	int usage;                /* after a failed parse: 1 if the words are wrong, 0 if a file is */
};
/*
 * Parses words[0..n) as mantis instrument does (its --help says how). The opt.runtime and
 * opt.sandbox fields are left NULL for the caller. Returns 0, or -1 with err saying which word
 * is wrong and a->usage telling a usage error from a missing or unreadable file. Release a with
 * build_args_release.
 */
int build_args_parse(struct build_args *a, char **words, int n, struct error *err);
/* Frees what a owns. */
void build_args_release(struct build_args *a);

/*
 * Makes dir (it may exist; what it held of a previous build is replaced) and builds it.
 * On success fills *m (caller releases with manifest_release) and returns 0; otherwise
 * returns -1 with err saying which step failed.
 */
int build_instrumented(const struct build_options *opt, const char *dir, struct manifest *m,
		       struct error *err);

#endif
