/*
 * count.h: a program's dynamic instruction counts on one input (ByCounter's listing, 003_):
 * per function and in total, the instructions of each LLVM opcode, the calls of each library
 * function with their size parameter (memcpy/memset bytes, malloc bytes, ...), and the bytes of
 * dynamic allocas. Read from the bycount features of a build made by mantis instrument.
 */
#ifndef MANTIS_COUNT_H
#define MANTIS_COUNT_H

#include <jansson.h>
#include <stdint.h>

struct error;
struct input;
struct manifest;
struct run_result;

/* One named count: an opcode's instructions, or a library function's calls and size. */
struct count_item {
	char *name;     /* opcode (add, load...) or library function (memcpy, sqrt...); owned */
	uint64_t n;     /* instructions of the opcode, or calls of the function */
	uint64_t bytes; /* the summed size parameter (bytes, or elements times size); 0 if none */
	int has_bytes;  /* 1 if the function has a size parameter (then bytes is recorded) */
};

/* The counts of one function, or of the whole program. */
struct count_function {
	char *name;            /* the function, or "(program)"; owned */
	char *file;            /* its source file ("-" for the program); owned */
	int line;              /* its definition's line (0 for the program) */
	uint64_t total;        /* instructions executed in it */
	struct count_item *op; /* per opcode, sorted by name; owned */
	int nop;
	struct count_item *call; /* per library function called, sorted by name; owned */
	int ncall;
	uint64_t alloca_bytes; /* bytes of dynamic allocas (variable-length arrays) */
};

/* The counts of one run. */
struct count {
	struct count_function program; /* the sums over every function */
	struct count_function *fn;     /* the functions that executed an instruction, in the
					  manifest's order; owned */
	int nfn;
};

/*
 * Aggregates the bycount features of m, evaluated exactly (64-bit) on counters, into *c
 * (release with count_release). Returns 0, or -1 with err set when m has no bycount features
 * (the build was made without that scheme).
 */
int count_from_counters(struct count *c, const struct manifest *m, const uint64_t *counters,
			struct error *err);

/*
 * Runs DIR/inst on in (a scratch folder as working directory, killed after timeout seconds, 0:
 * never) and aggregates its counts into *c; *res says how the program ended. Returns 0, or -1
 * with err set: DIR is not a build of mantis instrument, has no bycount scheme, the program
 * could not start or wrote no counters.
 */
int count_run(struct count *c, const char *dir, const struct input *in, double timeout,
	      struct run_result *res, struct error *err);

/* Returns the instructions of opcode op in f (0 if none). */
uint64_t count_opcode(const struct count_function *f, const char *op);

/* Returns the item of library function name in f, or NULL. */
const struct count_item *count_call(const struct count_function *f, const char *name);

/*
 * Returns c as {"total", "opcodes": {OP: n}, "calls": {NAME: {"calls", "bytes"?}},
 * "alloca_bytes", "functions": {NAME: {"file", "line", "total", "opcodes", "calls",
 * "alloca_bytes"}}}, keys sorted by name so that the same counts print the same, items that
 * never executed left out; owned by the caller.
 */
json_t *count_json(const struct count *c);

/* Frees what c owns and zeroes it. */
void count_release(struct count *c);

#endif
