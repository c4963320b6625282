/*
 * build.h: a build directory made by `mantis instrument`: the original program for timing, the
 * instrumented one for features, and the manifest of those features.
 *
 *   DIR/orig            the program, built from the prepared IR at the user's level
 *   DIR/inst            the same IR with feature counters, linked with the runtime
 *   DIR/features.json   the manifest (manifest.h)
 *   DIR/prepared.bc     the prepared whole-program bitcode both come from
 *   DIR/inst.bc         the instrumented bitcode
 */
#ifndef MANTIS_BUILD_H
#define MANTIS_BUILD_H

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
};

/*
 * Makes dir (it may exist; what it held of a previous build is replaced) and builds it.
 * On success fills *m (caller releases with manifest_release) and returns 0; otherwise
 * returns -1 with err saying which step failed.
 */
int build_instrumented(const struct build_options *opt, const char *dir, struct manifest *m,
		       struct error *err);

#endif
