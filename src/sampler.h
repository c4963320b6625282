/*
 * sampler.h: sampled features, mantis's answer to work that only the whole run can count.
 *
 * Where a program's time is in the content of a large input file (how compressible, how
 * repetitive), the features that measure it sit inside the computation, and their evaluators
 * cost the run (examples/README.md; lz4, encryptor). A sample of the file is cheap to run on:
 * DIR/sandboxed (the instrumented program, changing no file) runs twice, on two excerpts of the
 * input's large files, each made of pieces spread over the file (the first at offset 0, so a
 * header stays a header), the smaller excerpt (a quarter of the larger, or a half: below) a part
 * of the larger. Every feature f is then extrapolated along the line through the two runs to
 * the whole files: with q the share of the files' bytes in a sample,
 *
 *     sampled:f = f(a) + (f(a) - f(b)) * (1 - q_a) / (q_a - q_b)
 *
 * which removes what does not grow with the files (start-up, a key's validation) and scales
 * what does. A feature that describes the input rather than grows with it (a value's mean, its
 * first value, an exit: sampler_extensive) is also offered as it is on the larger sample,
 *
 *     sampled-larger:f = f(a)
 *
 * since the line multiplies the difference between the two samples' means by
 * (1 - q_a) / (q_a - q_b), 133 at q_a = 1%: noise, where the mean is a property of the content
 * (gzip's mean match length); but where the sample's size sets it (bzip2's block is the whole
 * of a small sample, and a first value in its sort follows the block's length) the line is
 * what tells the whole file's, so both are offered and the model takes what fits. Named so,
 * these are features like any other for the model; they cost the two runs (about 1.25 q_a of
 * the program plus twice its fixed work).
 */
#ifndef MANTIS_SAMPLER_H
#define MANTIS_SAMPLER_H
#include <stdint.h>

struct dataset;
struct error;
struct feature;
struct input;
struct manifest;
struct solib_form;

/* The prefix of every extrapolated sampled feature's name, and of those read off the larger
 * sample as they are. */
#define SAMPLER_PREFIX "sampled:"
#define SAMPLER_LARGER_PREFIX "sampled-larger:"
#define SAMPLER_QUADRATIC_PREFIX "sampled-quadratic:"

/* How a sampled feature's value is had from its values on the two samples (its name's prefix). */
enum sampler_way {
	SAMPLER_LINE,      /* sampled:, along the line through the two samples to the whole files */
	SAMPLER_LARGER,    /* sampled-larger:, as it is on the larger sample */
	SAMPLER_QUADRATIC  /* sampled-quadratic:, along the parabola through them and the origin */
};

enum {
	SAMPLER_CHUNKS = 8,      /* pieces of a file in one sample, at most */
	SAMPLER_BY_LINE = 0,     /* chunks: a text file's sample is one line of every 1/q, spread
				  * by bytes (a systematic sample), the smaller every s-th of the
				  * larger's lines; a binary file's is SAMPLER_CHUNKS pieces */
	SAMPLER_SMALLER = 4,     /* the larger sample is this many times the smaller */
	SAMPLER_MIN_BYTES = 4096, /* a file is sampled when its median size is at least this: a
				   * small file sorted whole beside sampled ones is a constant
				   * the parabola multiplies by 1/q (spamfilter's phonebook) */
	SAMPLER_REPS = 3,        /* timed runs of each sample in training: the cost is their median */
	SAMPLER_LINE_REACH = 4096, /* a text file's piece starts past a newline and ends at one
				    * found within this many bytes of its edges */
	SAMPLER_SHORT_REACH = 256, /* ... looked for first this near, with the same result: a line
				    * at a time reads many small pieces */
	SAMPLER_WINDOW = 65536,  /* pieces closer than this are read this many bytes at a time */
	SAMPLER_ALIGN = 16,      /* a binary file's pieces start at a multiple of this many bytes
				  * and take a multiple of it times smaller, so that records of 2,
				  * 4, 8 or 16 bytes after a header of a multiple of them stay
				  * whole (a WAV file's 16-bit samples after its 44 bytes: pieces at
				  * any byte turn most of lame's excerpt into noise, its count
				  * extrapolated from 8 pieces erred 5.6% where aligned 1.3%) */
	SAMPLER_ARGS = 16,       /* argument positions looked at, from the first and from the last */
	SAMPLER_LEAST = 8192,    /* the larger sample has at least this many bytes of the files in
				  * all (or is the whole files): a few hundred bytes a piece say
				  * little about a compressor's matches; training also tries more
				  * (SAMPLER_WARM_UP) */
	SAMPLER_WARM_UP = 65536, /* the least sizes training tries beyond SAMPLER_LEAST (when no
				  * way extrapolates within SAMPLER_GOOD_PERMILLE) are this and 4
				  * times it: a stream's first tens of KiB cost less than its
				  * steady state (gzip's 32 KiB window filling), and below it the
				  * line through the two samples misses (gzip: 14% at 8 KiB) */
	SAMPLER_PAST_WARM_UP = 2, /* with a least size raised past the warm-up, training also
				   * tries the smaller sample at this share of the larger: a
				   * quarter of 64 KiB still lies in gzip's 32 KiB window, and the
				   * line through 16 and 64 KiB missed its instruction count by 3.8%
				   * on the mean input, through 32 and 64 KiB by 1.1% */
	SAMPLER_STDIN = 0,       /* the position of stdin */
	SAMPLER_OPTIONAL_PERMILLE = 100, /* a position that names a file on this many thousandths
					  * of the inputs, not all, is sampled where it does */
	SAMPLER_GOOD_PERMILLE = 20, /* an extrapolated instruction count this close, rescaled (in
				     * thousandths: mantis's 2% goal) needs no larger sample */
};

/* Which of an input's files are sampled, and how much of them. */
struct sampler_plan {
	double fraction; /* the larger sample's share of the sampled files' bytes */
	long least;      /* ... raised to at least this many bytes in all (SAMPLER_LEAST or more;
			  * 0 reads as SAMPLER_LEAST) */
	int chunks;      /* pieces of each file in a sample, spread over it (1: a prefix;
			  * SAMPLER_BY_LINE: a line at a time) */
	int smaller;     /* the larger sample is this many times the smaller, piece by piece
			  * (0 reads as SAMPLER_SMALLER) */
	long align;      /* a binary file's pieces start at multiples of this many bytes (0
			  * reads as SAMPLER_ALIGN; 1: at any byte, as predictors sampled whose
			  * predictor.json has no "align") */
	int npositions;  /* files sampled */
	int *positions;  /* each N for argument N (1: the first word), -N for the N-th word from
			  * the last (-1: the last; the file's place when options come before it in
			  * varying numbers), SAMPLER_STDIN for stdin; owned */
	int *optional;   /* per position, 1 when some training inputs named no regular file there
			  * (spamfilter's third list of one to six): sampled where one is named,
			  * and an input without one is no error ("arg6?" in predictor.json);
			  * owned, or NULL: none optional */
};

/* What one input's sampled runs measured. */
struct sampled_run {
	uint64_t *counters[2]; /* counters of the run on the larger (0) and smaller (1) sample;
				* owned */
	double share[2];       /* the samples' share of the sampled files' bytes (1: whole) */
	double seconds;        /* wall time of making the samples and of the two runs (each the
				* median over repetitions) */
	int ok;                /* both runs exited 0 and wrote their counters */
	char *failure;         /* why not, one phrase, or NULL; owned */
	int tainted;           /* a run in this process (solib_form without host) crashed or ran
				* over its time: the process's state is unknown (solib.h) */
};

/* One way of sampling tried in training. */
struct sampler_trial {
	double fraction; /* the larger sample's share */
	long least;      /* ... raised to at least this many bytes */
	int chunks;      /* pieces per file (SAMPLER_BY_LINE: a line at a time) */
	int smaller;     /* the larger sample over the smaller (0: SAMPLER_SMALLER) */
	double share;    /* the two samples' share of the files' bytes, summed, on the mean input:
			  * what the runs' cost mostly is */
	double cost;     /* the runs' time over the program's on the mean input (NaN: not
			  * measured) */
	double error;    /* mean relative error of the extrapolated instruction count over the
			  * training inputs once rescaled (sampler_rescaled_error; NaN: not
			  * measured): what the way is judged by */
	double se;       /* its standard error */
	double raw;      /* the extrapolated count's own mean relative error (NaN: not measured) */
	int parabola;    /* the count is extrapolated along the parabola, which errs less there
			  * (sampler_value), not the line */
	char *failed;    /* the first input the program failed on, or NULL; owned */
};

/*
 * Returns the mean relative error of actual[k] (k < n) predicted by the power law of
 * extrapolated[k] exp(a) * extrapolated[k]^b fitted by least squares to the logarithms of the
 * other inputs (leave-one-out, by the fit's leverages), in *se its standard error and in *raw
 * the extrapolation's own mean relative error |extrapolated / actual - 1|. An input
 * whose extrapolation is not positive errs by 1 and takes no part in the fit; one the others
 * cannot predict (leverage 1) errs as its extrapolation does; fewer than 3 positive, or all
 * alike, each errs as its extrapolation does. Why: the model rescales the sampled counts it is
 * given (a coefficient, a degree), so a way whose extrapolation errs by a steady factor or
 * power serves it as well as one that does not; what no fit undoes is the scatter about that
 * law (bzip2: its 0.25% ways err 24-27% as extrapolated, 11% rescaled, its 1% ways 18-20% and
 * 17-18%; the model on 0.25% in 8 pieces erred 1.33% on held-out inputs, on 1% 2.8%).
 */
double sampler_rescaled_error(const double *extrapolated, const double *actual, int n,
			      double *se, double *raw);
/*
 * Returns the index of the trial of tr[0..n) to keep: among those that did not fail and cost at
 * most budget (all that did not fail when none does), the cheapest (the smallest share, then,
 * among shares within 1% of each other, the more pieces, then the smaller error) whose error
 * is within one standard error of the best one's; the best (the first) when none measured an
 * error; -1 when all failed. So a larger sample is kept only when it extrapolates better
 * beyond the noise, and only when the budget allows it; a prefix only when it extrapolates
 * better than pieces spread over the files beyond the noise (a stream's warm-up: gzip's); a
 * line at a time only when it extrapolates best, since it breaks the file's local order (a
 * compressor's matches, a record over several lines) that pieces keep. But where some trials
 * cost at most the threshold (and budget) and extrapolate within SAMPLER_GOOD_PERMILLE, the
 * choice is made among those alone. Why: a budget over the threshold bets that the slice of
 * one count costs less than the whole program on the samples; where it does not (pcre2grep,
 * whose two runs' start is most of their cost), the features of a way over the threshold are
 * judged astride it, the loop keeps those that timing's noise lets under (pcre2grep: a rare
 * match's count, extrapolated 27% off on a held-out file, 16.9% held out), while a cheaper
 * way's whole count (0.95% against 0.44%, at 4.5% against 7.0%) is itself a model.
 */
int sampler_cheapest(const struct sampler_trial *tr, int n, double threshold, double budget);
/*
 * Returns the index of the way of tr[0..n) to sample in once the features read on way kept were
 * judged to cost more than threshold (the least of them least), or -1: sampler_cheapest
 * among the ways whose trial cost at most kept's scaled by threshold / least (*budget; a
 * sampled evaluator runs on the samples, so its cost goes with theirs), if that way takes a
 * smaller share than kept; where none does and the features cost more than twice the
 * threshold, among those whose trial cost at most half kept's (*budget then): a step down
 * whose features the judge weighs again. Why: features judged at first on the shortest
 * inputs, where a run's fixed work weighs most, cost more there than on the mean input
 * (encryptor at 256 KiB, 54.9% in its trial: 33-51% on 3 inputs, so a budget of 8.4%, under
 * its cheapest way's 9.4%; stepping down through 64 KiB to 8 KiB its features cost 4-7%).
 */
int sampler_cheaper(const struct sampler_trial *tr, int n, int kept, double least,
		    double threshold, double *budget);
/*
 * Returns sampler_cheaper's way for features judged in their caller's process (solib.h), or -1:
 * each way's cost taken as least scaled by its share over kept's, and *share the most share a
 * way may take (kept's scaled by threshold / least, or half of it on the step down). Why: a
 * trial runs the sandboxed program as a process twice, so its cost is mostly two process
 * starts and hardly follows the share, while a hosted evaluator pays no start and its cost
 * follows the samples' bytes (pcre2grep in session 66: trials at 17-30% whatever the share,
 * 1% a line at a time kept, its features judged at 5.6-9.1% in process; by trial cost no way
 * was cheaper, by share the ways at 0.5% were).
 */
int sampler_cheaper_share(const struct sampler_trial *tr, int n, int kept, double least,
			  double threshold, double *share);
/* The sampled features judged too costly before the loop gives a way of sampling up. */
#define SAMPLER_GIVE_UP_TRIES 6
/* ... and, where some were accepted, how many of them for each accepted one. */
#define SAMPLER_GIVE_UP_RATIO 3
/*
 * Returns 1 when the feedback loop gives up the way of sampling whose features it judged:
 * costly of them cost more than the threshold and accepted were accepted; cheaper tells
 * whether a cheaper way is among the trials (sampler_cheaper >= 0). Once SAMPLER_GIVE_UP_TRIES
 * were too costly it gives up where none was accepted (the program's fixed work, run on two
 * samples, may cost more than the threshold on every way), and where the costly outnumber the
 * accepted SAMPLER_GIVE_UP_RATIO to 1 and a cheaper way exists: one early acceptance, a cost
 * astride the threshold, would otherwise keep a way whose features are mostly too costly
 * (encryptor at 256 KiB: 1 accepted, 8 judged at 33-51% by round 3, 98 by round 20).
 * Returns 0 otherwise.
 */
int sampler_give_up(int costly, int accepted, int cheaper);
/* Returns the least bytes of plan's larger sample (its least, SAMPLER_LEAST when 0). */
long sampler_least(const struct sampler_plan *plan);
/* Returns how many times plan's larger sample is the smaller (its smaller, SAMPLER_SMALLER
 * when 0). */
int sampler_smaller(const struct sampler_plan *plan);
/* Returns the alignment of plan's pieces of a binary file (its align, SAMPLER_ALIGN when 0). */
long sampler_align(const struct sampler_plan *plan);
/* Returns whether plan's i-th position is optional (sampled where the input names a file). */
int sampler_optional(const struct sampler_plan *plan, int i);
/* Returns whether some trial of tr[0..n) ran on every input and measured an error. */
int sampler_measured(const struct sampler_trial *tr, int n);

/* One feature of a model whose predictor costs more than the threshold (sampler_rejection). */
struct sampler_cost {
	double cost;  /* its own evaluator's cost, judged alone (a sampled feature's includes the
		       * runs on the samples) */
	int sampled;  /* it is a sampled feature */
	int eligible; /* it may be rejected (accepted, and no other model keeps it) */
};

/*
 * Returns which of a model's features c[0..n) to reject when its predictor costs more than
 * the threshold, and in *saving what that saves: a program feature its own cost; a sampled one
 * nothing while another of the model's is sampled, since the runs on the samples serve them
 * all, and runs_cost (theirs) when it is the last. The eligible one that saves the most, the
 * costliest alone among equals; -1 when none is eligible.
 */
int sampler_rejection(const struct sampler_cost *c, int n, double runs_cost, double *saving);

/* Returns the name of a program feature had from the samples in way (owned by the caller). */
char *sampler_name(const char *feature, enum sampler_way way);
/* Returns the program feature a sampled feature name stands for (a pointer into name), or
 * NULL when name is not a sampled feature's. */
const char *sampler_feature(const char *name);
/* Returns whether name is a sampled feature's read off the larger sample as it is. */
int sampler_is_larger(const char *name);
/* Returns the way a sampled feature's name says it is had (name a sampled feature's). */
enum sampler_way sampler_way_of(const char *name);

/*
 * Returns whether feature f grows with the input the program reads (a branch, loop, call or
 * instruction count, a value's sum or number of assignments) rather than describes it (a
 * value's mean, first or K-th value, an exit taken or not): only the latter are also offered
 * as they are on the larger sample.
 */
int sampler_extensive(const struct feature *f);

/*
 * Returns f's value from run r in way: as it is on the larger sample, f(a); along the line
 * (the formula above); or along the parabola through the origin, the line of f(q) / q:
 *
 *     f(whole) ~ f(a) / q_a + (f(a) / q_a - f(b) / q_b) * (1 - q_a) / (q_a - q_b),
 *
 * exact for a feature that is a multiple of the bytes plus one of their square (an insertion
 * sort's steps on a list in random order: the pairs of lines out of order). f(a) alone when
 * the larger sample was the whole files.
 */
double sampler_value(const struct sampled_run *r, const struct feature *f, enum sampler_way way);

/*
 * Returns the first file of in that plan samples and that cannot be read: the word (or the
 * value of a -opt=FILE word) at that position, borrowed from in; "" when in has no argument
 * there or no stdin (an optional position is skipped where in names no regular file); NULL
 * when every file plan samples is a readable regular file. *position is then that position's
 * name ("arg3", "stdin"; owned by the caller), else NULL.
 */
const char *sampler_unreadable(const struct sampler_plan *plan, const struct input *in,
			       char **position);

/* Returns how a sample takes its pieces, for a log or a report: "in 8 pieces", "in 1 piece"
 * (a prefix) or "a line at a time" (SAMPLER_BY_LINE); owned by the caller. */
char *sampler_pieces(int chunks);

/* Returns whether some file of in that plan samples reads as text (a line at a time is then
 * a way of its own). */
int sampler_reads_text(const struct sampler_plan *plan, const struct input *in);

/* Returns the bytes of the files of in that plan samples, in all. */
double sampler_bytes(const struct sampler_plan *plan, const struct input *in);

/*
 * Writes in's two samples under plan into folder dir (made by the caller) and fills *out[0..2)
 * with in, its sampled files replaced by them (release each with input_release (inputs.h)), and
 * share[0..2) with their share of the files' bytes. Returns 0, or -1 with err naming the file
 * that could not be read or written.
 */
int sampler_make_inputs(const struct sampler_plan *plan, const struct input *in,
			const char *dir, struct input *out, double share[2], struct error *err);

/*
 * Runs exe (a DIR/sandboxed or a sampled evaluator) on in's two samples under plan, as form
 * says (predictor_measure_form; NULL: as a process), reps times each (the counters of the
 * first), killed after timeout seconds (0: none), into *r (release with sampled_run_release).
 * A run that fails is no error: r->ok is 0 and r->failure says why. Returns 0, or -1 with err
 * set when exe could not be run or a sample could not be made.
 */
int sampler_run(const char *exe, const struct solib_form *form, const struct manifest *m,
		const struct sampler_plan *plan, const struct input *in, int reps, double timeout,
		struct sampled_run *r, struct error *err);
/* Frees what r owns and zeroes it. */
void sampled_run_release(struct sampled_run *r);

/*
 * Appends to ds a column "sampled:NAME" for every feature of m whose extrapolated value takes
 * more than one value over runs[0..ds->n) (all ok), "sampled-larger:NAME" for every one
 * that does not grow with the input (sampler_extensive) and whose larger sample's value does,
 * and "sampled-quadratic:NAME" for every one that grows with it, has a column NAME in ds (its
 * whole value) and is had along the parabola within half the line's median relative error
 * on ds's rows (sampler_quadratic_better). Where plan samples a line at a time, one that
 * does not grow has no "sampled:" column: the smaller sample's lines are a subset of the
 * larger's like any other, so their mean differs from the larger's by noise alone, which the
 * line multiplies by 1 / (q_a - q_b) (spamfilter's 0/1 flag's mean at -1.36, squared in its
 * model: a count predicted negative). Returns how many were appended.
 */
int sampler_add_columns(struct dataset *ds, const struct manifest *m,
			const struct sampler_plan *plan, const struct sampled_run *runs);
/* Returns whether quadratic[0..n) err from whole[0..n) (rows where whole is 0 skipped) by
 * less than half of what line[0..n) err, in median relative error: the median, as an unsampled
 * file's work (spamfilter's phonebook sorted whole) is a constant the parabola through the
 * origin misses where the sampled work is small. */
int sampler_quadratic_better(const double *quadratic, const double *line, const double *whole,
			     int n);

/*
 * Chooses the files to sample for the training inputs in[0..n) (all of which ran to their end):
 * the positions (stdin, then argN, then arg-N) that name a regular file on every input (or,
 * optional, on at least SAMPLER_OPTIONAL_PERMILLE of them), of median size (where named) at
 * least SAMPLER_MIN_BYTES and not the word of a position chosen before on every input naming
 * one, each of which, sampled alone at fraction, leaves the program (exe, a DIR/sandboxed)
 * running to its end on every input in[trial[0..ntrial)). Fills *plan (release
 * with sampler_plan_release) and returns how many files it samples; when none, *why (owned by
 * the caller) says why. Returns -1 with err set when exe could not be run.
 */
int sampler_plan_choose(struct sampler_plan *plan, double fraction, const char *exe,
			const struct manifest *m, const struct input *const *in, int n,
			const int *trial, int ntrial, double timeout, char **why, struct error *err);

/* Returns plan's files as "arg3,arg-1,arg4?,stdin" (owned by the caller): how predictor.json
 * names them, an optional position followed by "?". */
char *sampler_plan_files(const struct sampler_plan *plan);
/* Returns how plan samples, timed reps times a run, as sampled.db keys it: everything an
 * excerpt and its runs depend on beside the input (owned by the caller). */
char *sampler_setting(const struct sampler_plan *plan, int reps);
/* Sets plan's files from a string of sampler_plan_files. Returns 0, or -1 with err naming the
 * word that is not a file position. */
int sampler_plan_parse_files(struct sampler_plan *plan, const char *files, struct error *err);
/* Frees what plan owns and zeroes it. */
void sampler_plan_release(struct sampler_plan *plan);
#endif
