/*
 * cfg.h: the control-flow graph of one function with dominators and loop back edges.
 * Requires: a function with a body. Invalidated by any change to the function's blocks or
 * terminators.
 */
#ifndef MANTIS_CFG_H
#define MANTIS_CFG_H

#include <llvm-c/Core.h>

/* An edge, as (block, successor number of its terminator). */
struct cfg_edge {
	int from;  /* source block index */
	int succ;  /* successor number in from's terminator */
	int to;    /* target block index */
};

/* A function's graph; blocks are numbered in layout order, 0 the entry. */
struct cfg {
	LLVMValueRef fn;         /* the function */
	int n;                   /* number of blocks */
	LLVMBasicBlockRef *block;/* n blocks; owned */
	int *nsucc;              /* n successor counts; owned */
	int **succ;              /* successor block indices (may repeat); owned */
	int *npred;              /* n predecessor counts (one per edge); owned */
	int **pred;              /* predecessor block indices; owned */
	int *rpo;                /* reachable blocks in reverse postorder; owned */
	int nrpo;                /* number of reachable blocks */
	int *rpo_number;         /* n: position in rpo, -1 if unreachable; owned */
	int *idom;               /* n: immediate dominator, -1 for the entry and unreachable; owned */
	struct cfg_edge *retreat;/* edges to a block still on the DFS stack (loop edges); owned */
	int nretreat;            /* number of them */
	int *hash_key;           /* private: block pointer hash slots (indices); owned */
	int hash_size;           /* private: slots */
};

/* Builds the graph of fn. */
void cfg_build(struct cfg *cfg, LLVMValueRef fn);
/* Returns the index of block b in cfg, or -1. */
int cfg_index(const struct cfg *cfg, LLVMBasicBlockRef b);
/* Returns whether block a dominates block b (both reachable). */
int cfg_dominates(const struct cfg *cfg, int a, int b);
/* Frees what cfg owns. */
void cfg_release(struct cfg *cfg);

#endif
