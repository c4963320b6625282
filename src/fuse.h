/*
 * fuse.h: counter fusion for evaluators: the counters a feature alone reads, added up in one.
 */
#ifndef MANTIS_FUSE_H
#define MANTIS_FUSE_H
#include <llvm-c/Core.h>

#include "manifest.h"

/* What fuse_counters did. */
struct fuse_stats {
	int features; /* features whose counters now add up in one */
	int counters; /* counters that no longer have updates of their own */
};

/*
 * In mod (an evaluator: the counters are globals "__mantis_c.N", updated by load, add, store
 * and read by the recorder's emit calls), for each feature computed[0..n) of m whose sum has
 * two or more counters that no other computed feature reads and that nothing but their
 * updates and the recorder reads, makes the updates of those counters add their share of
 * the sum (delta times the coefficient, over the power of two they all share) to one of
 * them, the representative, whose recorded value is scaled by the inverse of its own
 * coefficient share modulo 2^64; the others record 0. The feature's value (manifest.h: the
 * sum in 64-bit two's complement) is unchanged; the other counters of these features are no
 * longer meaningful on their own. Requires: the recorder's loads feed emit calls directly.
 * Fills *st.
 */
void fuse_counters(LLVMModuleRef mod, const struct manifest *m, const int *computed, int n,
		   struct fuse_stats *st);
#endif
