/*
 * cdep.h: post-dominators and control dependence of one function, for the slicer.
 * Requires: a cfg of the function (cfg.h). Invalidated with it.
 */
#ifndef MANTIS_CDEP_H
#define MANTIS_CDEP_H

struct cfg;

/* Post-dominator tree and control dependences of a function's blocks. */
struct cdep {
	int n;        /* blocks; block n is the virtual exit */
	int *ipdom;   /* n+1: immediate post-dominator (n: the virtual exit), -1 for the exit itself
			 and for blocks the entry does not reach; owned */
	int *ncd;     /* n: how many blocks each block is control dependent on; owned */
	int **cd;     /* n: those blocks (their terminators decide), without repeats; owned */
	int *fake;    /* n: 1 if a fake edge to the exit was added from this block (it lies in a
			 loop that never reaches a return); owned */
};

/* Computes the post-dominators and control dependences of cfg's function. */
void cdep_build(struct cdep *cd, const struct cfg *cfg);
/* Frees what cd owns. */
void cdep_release(struct cdep *cd);

#endif
