/*
 * slice.h: feature evaluators: executable static slices of an instrumented program that compute
 * chosen features and nothing else they can avoid (Mantis 000_ and 001_ section 5, issue 6).
 *
 *   DIR (mantis instrument) --prepared.bc, instrumented anew: only the features' counters, each
 *   a plain global; a recorder __mantis_slice_dump before every exit--> module
 *   module --pta, sdg (once)--> per feature: two-pass slice from the recorder's calls
 *   marks --rebuild: delete unmarked instructions, branches to post-dominators--> evaluator
 */
#ifndef MANTIS_SLICE_H
#define MANTIS_SLICE_H

#include "fuse.h"
#include "ir.h"
#include "manifest.h"
#include "promote.h"
#include "pta.h"
#include "sdg.h"

struct error;

/* A program prepared for slicing on some of its features. */
struct slicer {
	char *dir;              /* the build directory; owned */
	struct manifest m;      /* DIR/features.json */
	struct ir ir;           /* the program with the recorder; owned */
	struct pta pta;         /* its points-to facts */
	struct sdg sdg;         /* its dependence graph */
	int nfeatures;          /* features being sliced */
	int *feature;           /* their indices in m; owned */
	int **criteria;         /* per feature, its recorder's nodes; owned */
	int *ncriteria;         /* how many */
	struct intvec exits;    /* pairs (recorder call node, exit call node) before exit calls */
	int nexits, nexits_dropped; /* exit calls, and those left without a recorder (unreached) */
	int pruned;             /* branches cut to the side training took (prune.h) */
	int emptied;            /* functions no training run entered, made to return at once */
	double analysis_seconds;/* time to instrument, analyse and build the graph */
	struct fuse_stats fused;       /* counter fusion in the last evaluator written */
	struct promote_stats promoted; /* counter promotion in the last evaluator written */
	int stops_early;        /* the last evaluator written stops once it has its features:
				   all are first values (slicer_first_value) */
	const char *inproc;     /* inproc.o: slicer_write also builds each evaluator's shared-
				   object form EXE.so (solib.h); NULL: it does not */
	char *solib_refusal;    /* why the last evaluator written has no such form, or NULL;
				   owned */
};

/*
 * Reads DIR (made by mantis instrument), instruments its prepared bitcode for the features
 * names[0..n) of DIR/features.json, and builds the graph once.
 * runs[0..nruns) are DIR/inst's counters on the training inputs, or NULL: an exit call that
 * no training run reached (by its exit feature) is then no criterion, so the decisions that
 * lead to error exits (a failed malloc, a bad read) need not be computed; the evaluator is
 * validated on those inputs. With runs NULL, every exit is a criterion.
 * Returns 0, or -1 with err naming the file or feature at fault.
 */
int slicer_init(struct slicer *s, const char *dir, char *const *names, int n,
		uint64_t *const *runs, int nruns, struct error *err);
/*
 * As slicer_init, but no branch side is cut to the side the runs took (prune.h): the runs only
 * tell which exit calls are criteria. For an evaluator run where training did not go (on
 * samples of the input: sampler.h), whose every branch must stay.
 */
int slicer_init_unpruned(struct slicer *s, const char *dir, char *const *names, int n,
			 uint64_t *const *runs, int nruns, struct error *err);

/*
 * Marks in mark[0..s->sdg.n) (zeroed by the caller) the slice of the features which[0..n)
 * (indices into s->feature). Returns the number of the program's instructions kept.
 */
int slicer_mark(struct slicer *s, const int *which, int n, unsigned char *mark);

/*
 * Returns K when feature f of m is the K-th value a variable is assigned (VAR.first: 1,
 * VAR.vK: K), setting *count to the counter of the variable's assignments (VAR.count's);
 * returns 0 for any other feature. Such a value is final once assigned: an evaluator that
 * computes only such features stops there (slicer_write).
 */
int slicer_first_value(const struct manifest *m, int f, int *count);
/*
 * Writes the evaluator of mark as bitcode to bc and builds the executable exe with clang at the
 * program's optimisation level, with runtime (slicert.o) and the program's link flags. Where
 * every feature it computes is a first value, the evaluator stops once it has them
 * (s->stops_early). With s->inproc, also its shared-object form exe.so (solib_build), or
 * s->solib_refusal says why there is none (no error). The module is copied; s is unchanged
 * but for its statistics of the last evaluator. Returns 0, or -1 with err set (a module that does not verify is an error of the
 * slicer, named as such).
 */
int slicer_write(struct slicer *s, const unsigned char *mark, const char *bc, const char *exe,
		 const char *runtime, struct error *err);

/*
 * Appends to out "FILE:LINE" for every source line with a kept instruction of the program (not
 * of the counters), sorted, one per line. Returns the number of lines.
 */
int slicer_lines(const struct slicer *s, const unsigned char *mark, struct strbuf *out);
/*
 * Appends to out why the slice mark of feature which (an index into s->feature) keeps the
 * source line file_line ("FILE:LINE", FILE matched as a path suffix): a shortest chain of
 * dependences from an instruction of that line to the feature's recorder (or to the record
 * at an exit the slice keeps, which the slice keeps its values for), one node a line, with
 * each edge's kind. Returns the chain's length, 0 if no kept instruction of the program
 * is on that line, -1 if file_line is not FILE:LINE.
 */
int slicer_why(const struct slicer *s, const unsigned char *mark, int which,
	       const char *file_line, struct strbuf *out);

/*
 * Returns the estimated cost of mark's evaluator on runs[0..nruns) (DIR/inst's counters):
 * the mean over runs of (sum over blocks of entries x kept instructions) over (sum of entries
 * x all instructions), the entries from the blocks' tagged counters, the instructions those of
 * the program (with a source position: not the counters' probes). No run is needed; a library
 * call counts as one instruction. Returns -1 without runs.
 */
double slicer_estimate(const struct slicer *s, const unsigned char *mark, uint64_t *const *runs,
		       int nruns);
/*
 * Returns per counter of the manifest the instructions of the program (as slicer_estimate counts
 * them) in the blocks whose entries it counts: the sum over counters of this times a run's
 * counters is the instructions the run executed, as the estimate sees them. Owned by the
 * caller.
 */
double *slicer_block_sizes(const struct slicer *s);
/*
 * Returns per node of s->sdg (an array of s->sdg.n, owned by the caller) the share
 * slicer_estimate gives its instruction: the mean over runs of its block's entries over the
 * run's sum of entries x instructions; a call's on its call-site node, other nodes 0. The
 * weights of a slice's marked nodes add up to at most its slicer_estimate (a call kept only
 * for its value, its site unmarked, is not counted). NULL without runs.
 */
double *slicer_weights(const struct slicer *s, uint64_t *const *runs, int nruns);
/*
 * As slicer_mark, within bound (sdg_slice_within; NULL: none): when bound->sum ends above
 * bound->limit, marking stopped there, mark holds part of the slice, and the slice's weight
 * (with slicer_weights: a lower bound of its estimate) is at least bound->sum. Returns the
 * number of the program's instructions kept in mark.
 */
int slicer_mark_within(struct slicer *s, const int *which, int n, unsigned char *mark,
		       struct sdg_bound *bound);
/* Frees what s owns. */
void slicer_release(struct slicer *s);

#endif
