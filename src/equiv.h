/*
 * equiv.h: the blocks of one function that every run enters equally often, so that one counter
 * serves them all (instrument.c: control-equivalent blocks share a counter).
 * Requires: a cfg of the function (cfg.h). Invalidated with it.
 */
#ifndef MANTIS_EQUIV_H
#define MANTIS_EQUIV_H

struct cfg;

/* Groups of blocks with equal counts, each named by its first block in dominance order. */
struct equiv {
	int n;       /* blocks */
	int *leader; /* n: the block whose count this block's always equals (itself if no other
			does; it dominates the block), -1 for blocks the entry does not reach; owned */
	int nshared; /* blocks whose leader is another block */
};

/*
 * Groups cfg's blocks by equal counts. barrier[k] != 0 says block k holds an instruction after
 * which the process may end or control may come back without passing the block's entry again
 * (a call of a defined function, exit, longjmp, setjmp, an indirect call): two blocks are only
 * grouped when no block between them is one. A function with an irreducible cycle gets no
 * groups. Fills *eq (release with equiv_release).
 */
void equiv_build(struct equiv *eq, const struct cfg *cfg, const unsigned char *barrier);
/* Frees what eq owns. */
void equiv_release(struct equiv *eq);

#endif
