/*
 * prune.h: profile-guided pruning for slicing: the branch sides no training run took are cut
 * from the program the slicer analyses, as the exit calls no run reached are (slice.h).
 */
#ifndef MANTIS_PRUNE_H
#define MANTIS_PRUNE_H
#include <llvm-c/Core.h>
#include <stdint.h>

/*
 * Turns every conditional branch of mod whose one successor no training run entered (its
 * !mantis.block counter is 0 in every runs[0..nruns), each of ncounters values) and whose other
 * successor some run did into an unconditional branch to the latter, then deletes the blocks
 * no longer reachable. A block whose counter is one of dropped[0..ndropped) (the overhead budget
 * removed its probe: manifest.h) is taken as entered. A function whose entry block no run
 * entered returns at once instead (zero, where it returns a value); *emptied counts them.
 * Requires: mod instrumented by instrument_module_for_slicing (the tags). Invalidates: every
 * cfg and analysis of mod. Returns the number of branches cut.
 */
int prune_cold_edges(LLVMModuleRef mod, uint64_t *const *runs, int nruns, int ncounters,
		     const int *dropped, int ndropped, int *emptied);
/* Returns the entry counter tagged on block b (!mantis.block), or -1. */
int prune_block_counter(LLVMBasicBlockRef b);
#endif
