/*
 * instrument.h: feature instrumentation of a prepared module (Mantis 000_ and 001_ section 3,
 * ByCounter's per-block counting).
 */
#ifndef MANTIS_INSTRUMENT_H
#define MANTIS_INSTRUMENT_H

#include <llvm-c/Core.h>

struct error;
struct ir;
struct manifest;

/* Feature schemes, selectable with --schemes. */
enum {
	SCHEME_BRANCH = 1,  /* conditional branches: true and false; switches: each case */
	SCHEME_LOOP = 2,    /* natural loops (and irreducible cycles): iterations */
	SCHEME_CALL = 4,    /* calls of defined functions; external call sites and their sizes */
	SCHEME_VALUE = 8,   /* named variables: sum, count, mean, first value assigned */
	SCHEME_EXIT = 16,   /* exit/abort/longjmp calls and error returns of main */
	SCHEME_BYCOUNT = 32,/* dynamic instruction counts per opcode, per function and in total */
	SCHEME_ALL = 63,
	/* A variant of bycount, for measuring ByCounter's claim (bench/count): one counter
	 * increment per instruction (per function and opcode) instead of per block, the same
	 * counts. Only as --schemes bycount-per-instruction; not part of all. With no other
	 * scheme, blocks get no counters of their own (so such a build cannot be sliced). */
	SCHEME_PER_INSTRUCTION = 64,
	/* For tests and benchmarks: every block its own counter, none shared between
	 * control-equivalent blocks (the counts must be the same). Not a --schemes word. */
	SCHEME_SEPARATE_BLOCKS = 128,
	/* Bits 8-15 of a schemes word: K, the number of first values (versions) of each variable
	 * the value scheme records as .v1 ... .vK (mantis instrument --values-first K); 0 or 1:
	 * only .first. Kept with the schemes (features.json) so the slicer numbers counters alike. */
	SCHEME_VALUES_FIRST_SHIFT = 8,
	SCHEME_VALUES_FIRST_MAX = 64,
	/* Struct fields as the value scheme counts variables: a store to a field of a struct (a
	 * getelementptr whose last step selects a field) is an assignment of that field, one
	 * variable per function and field, named TAG.MEMBER (members.h). Not part of all: as
	 * --schemes all,fields. */
	SCHEME_FIELD = 1 << 16,
};

/* Returns schemes with K first values per variable (1 <= k <= SCHEME_VALUES_FIRST_MAX). */
unsigned instrument_values_first(unsigned schemes, int k);

/* The name prefix of the counter globals of instrument_module_for_slicing (@__mantis_c.C): the
 * recorder, counter fusion and promotion find them by it. */
#define INSTRUMENT_SLOT_PREFIX "__mantis_c."
/* Returns counter c's global in mod (instrument_module_for_slicing), or NULL when it has none. */
LLVMValueRef instrument_slot(LLVMModuleRef mod, int c);

/*
 * The same instrumentation for the slicer (issue 6), on the same prepared module, so counter
 * numbers and feature names are those of the manifest: only the counters keep[c] != 0 (c <
 * nkeep, the manifest's number of counters) are updated, each in a plain (not thread-local)
 * internal global @__mantis_c.C of its own that a points-to analysis tells apart. Threads are
 * not wrapped. Each block's first instruction (after its phis) carries !mantis.block !{i64 C}:
 * C is the counter of the block's entries, kept or not. Returns 0, or -1 with err set (also when
 * the program's counters do not number nkeep: the manifest is from another program).
 */
int instrument_module_for_slicing(struct ir *ir, unsigned schemes, const unsigned char *keep,
				  int nkeep, struct manifest *m, struct error *err);

/* A planned probe as the overhead budget sees it (budget.c). */
struct probe_site {
	int *counters;   /* the counters it updates, counters[0] the one it is dropped by; owned */
	int ncounters;   /* their number (3 and more for a value probe: sum, count, first values) */
	int block;       /* the counter of the block it is in: how often it runs */
	double weight;   /* its cost per run relative to a block increment's (instrument.c) */
};

/*
 * instrument_module, dropping counters: the probes whose first counter c has drop[c] != 0 (c <
 * the number of counters) are not emitted; counter numbers, features and the build id are those
 * of the full instrumentation (the caller removes the features that read dropped counters).
 * drop may be NULL. If sites is not NULL, *sites gets every planned probe, emitted or not, and
 * *nsites their number (free with instrument_sites_free). Returns 0, or -1 with err set.
 */
int instrument_module_dropping(struct ir *ir, unsigned schemes, const unsigned char *drop,
			       struct probe_site **sites, int *nsites, struct manifest *m,
			       struct error *err);
/* Frees n sites made by instrument_module_dropping. */
void instrument_sites_free(struct probe_site *sites, int n);

/* Parses "branch,loop,..." or "all" into *schemes. Returns 0, or -1 naming the bad word. */
int instrument_parse_schemes(const char *list, unsigned *schemes, struct error *err);

/*
 * Instruments ir's module (prepared by ir_prepare) for the schemes: adds the counter array
 * __mantis_counters and the probes that update it, and fills *m (initialised empty by the
 * caller) with every feature. Requires: a prepared, verified module. Invalidates: any cfg.
 * Returns 0, or -1 with err set.
 */
int instrument_module(struct ir *ir, unsigned schemes, struct manifest *m, struct error *err);

#endif
