/*
 * promote.h: counter promotion for evaluators: a loop's counter updates kept in a local.
 */
#ifndef MANTIS_PROMOTE_H
#define MANTIS_PROMOTE_H
#include <llvm-c/Core.h>

/* What promote_counters did. */
struct promote_stats {
	int loops;    /* loops whose counters now live in locals */
	int counters; /* (loop, counter) pairs promoted */
	int unsafe;   /* loops left alone: a call in them may read or write a counter */
};

/*
 * Promotes the counters of mod (the globals named "__mantis_c.N" of an evaluator, each read or
 * written only by loads and stores of it) in every outermost loop that calls nothing that
 * could read or write them, could jump out of the loop (longjmp) or is unknown (an indirect
 * call, a library function given a function pointer), and that no jump through an address
 * (computed goto) enters or leaves: each such counter gets a local (an
 * alloca that the optimiser makes a register), loaded from the global on every edge into the
 * loop and stored back on every edge out of it. Requires: mod verified, ideally optimised
 * (inlining leaves hot loops with no calls). Invalidates: every cfg of mod (edges are split).
 * Fills *st; the counts the program ends with are unchanged.
 */
void promote_counters(LLVMModuleRef mod, struct promote_stats *st);
#endif
