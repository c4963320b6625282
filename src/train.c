/*
 * train.c: the offline stage and its feedback loop (Mantis, 000_ section 2 and Fig. 1; 001_
 * section 2): features chosen by the model are sliced; a feature whose evaluator costs more
 * than a threshold of the program's time, or computes another value than the profile recorded
 * on some training input, is rejected, and the model is fitted again without it.
 *
 *   build    mantis instrument into PRED/build, unless its recorded words and files are unchanged
 *   profile  profile.c on the training inputs (resumes: recorded runs are kept), and beside the
 *            program's features the input features that vary (descriptor.h: numeric arguments,
 *            file sizes), which cost no evaluator: accepted as soon as a model reads them, so
 *            the model does at least as well as the black box on what it fits
 *   sample   sampled features (sampler.h): DIR/sandboxed on two samples of the input's large
 *            files, every feature extrapolated to the whole files; decided as program features
 *            are, by slices (uncut to training's paths) judged on the training inputs' samples;
 *            when the loop drops them for their cost (none accepted, or most too costly and
 *            a cheaper way among the trials: sampler_give_up), sampled again in a cheaper way
 *            and the loop goes on (sample_cheaper)
 *   loop     fit (SPORE, rejected features excluded) -> the model's undecided features and their
 *            exact copies, sliced together (slice.c) -> each judged on the training inputs:
 *            first on a spread of up to 8 (by program time; rejected at once above four times
 *            the threshold after 3, above twice after 8), then on all: validated (same value as profiled on every input) and cost
 *            (mean of evaluator wall / program median wall) <= threshold -> accepted
 *            until every model feature is accepted; after max_iterations, the model is fitted on
 *            accepted features only
 *   predictor  one evaluator computing all the final model's features (PRED/evaluator, and
 *            PRED/sampled-evaluator for the sampled ones, run on the samples), judged again on
 *            every training input; if they cost more than the threshold (slices add up), the
 *            feature whose rejection saves the most and its stand-ins that would not fit
 *            beside the rest are rejected and the loop goes on; model.json, predictor.json,
 *            train.json
 *   select   with --select adaptive, profile runs only the inputs select.c chooses (validating
 *            the model of every feature); once the predictor is settled, select.c goes on
 *            while the model of the accepted features alone cross-validates over the target,
 *            and the loop runs again on the larger sample (decisions kept)
 *   exact    when the model reads sampled features, the loop again without them (exact_loop)
 *   choice   the input features alone, the exact loop's model (when it costs less) and all
 *            the model's program features, each at degrees 1..d, the input features' rate,
 *            and for a time with an instruction count the rate and the program's candidates
 *            through it, cross-validated on the same 5 folds: the simplest (input before
 *            exact before sampled, lower degree before higher, the program's at once before
 *            through the count) within one standard error of the best is written
 *   gate     when the samples cost more than the threshold (every sampled feature dropped
 *            for its cost, or their runs on the way kept) and the model reads input
 *            features alone: the training inputs it predicts highest, where the samples cost
 *            under the threshold, train a predictor of their own (PRED/long), which predicts
 *            the inputs the model puts at or above the gate (gate_long_inputs); the gate is
 *            then widened over the inputs below it where PRED/long's predictions cost under
 *            the threshold and err less (widen_gate); a model of sampled features is gated
 *            below by the best model without them (gate_sampled), and one of the program's
 *            features replaced by such a pair where the pair errs less (gate_program)
 * Invariant: a feature is decided once per training (accepted or rejected with a reason), and
 * the final model reads only accepted features.
 */
#include "train.h"

#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build.h"
#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "model.h"
#include "predictor.h"
#include "prep.h"
#include "profile.h"
#include "runner.h"
#include "sampledb.h"
#include "sampler.h"
#include "select.h"
#include "slice.h"
#include "solib.h"
#include "snapshot.h"
#include "store.h"
#include "util.h"

#define FIRST_STAGE 8 /* inputs an evaluator is first judged on */
/* An estimate (in instructions) this many times the threshold rejects a feature unbuilt: the
 * estimate counts a library call as one instruction, and on spamfilter it was 3x the measured
 * cost (a parsing slice: 13.5% estimated, 4.7% measured), so the margin is wide. */
#define ESTIMATE_MARGIN 5
/* Seconds the screen before the first fit may spend estimating slices (after building the
 * graph). A reachability costs its graph's size: bzip2 estimates all its features in ~10 s,
 * the sqlite3 shell takes 7 s for each of its 11,739 varying features. The loop's own slicing
 * estimates whatever the fit then picks among those left. */
#define ESTIMATE_SECONDS 120

/* The verdict on one feature's evaluator. */
struct decision {
	char *name;      /* the feature; owned */
	int iteration;   /* the round that decided it */
	int accepted;    /* validated and cheap enough */
	int validated;   /* same value as profiled on every input it ran on */
	double cost;     /* mean evaluator time / program time over the inputs it ran on */
	int ninputs;     /* inputs it ran on */
	int kept, total; /* instructions of its slice, of the program */
	char *reason;    /* why it was rejected, or NULL; owned */
	int expensive;   /* rejected for its cost (not for its value) */
	int in_process;  /* judged by its shared-object form hosted in a process (train's
			  * --in-process), not by its executable */
};

/* The final evaluator's shared-object form (solib.h), run in a host's process (mantis serve):
 * built and judged beside it (predictor.json "in_process"); its cost is the final evaluator's
 * with train's --in-process. */
struct hosted {
	int built;        /* PRED/evaluator.so exists and validated */
	double cost;      /* mean over the inputs of its warm run's time / the program's */
	double cold_cost; /* the same of its cold runs (the first in a fresh host) */
	char *why_not;    /* why there is none, or NULL; owned */
};

/* Training state. */
struct trainer {
	const struct train_options *opt; /* what to do */
	char *build;                     /* PRED/build; owned */
	struct manifest m;               /* its features.json */
	struct inputs ins;               /* the training inputs file */
	struct store_samples samples;    /* the complete inputs of the profile */
	const struct input **input;      /* per sample, its input in ins; owned array */
	int *by_time;                    /* sample indices in ascending program time; owned */
	int *group;                      /* per sample, the group of the inputs that share its data
					  * file (descriptor_groups), which cross-validation holds out
					  * together; owned; NULL: each input alone (no two share
					  * a file, or fewer than GROUPS_LEAST files) */
	struct dataset ds;               /* the samples as a dataset of the metric */
	struct decision *dec;            /* every decided feature; owned */
	int ndec;                        /* their number */
	struct store_unstable *unstable; /* the program features that differ between the feature
					  * run and the recheck run of one input; owned */
	int nunstable;                   /* their number */
	int rechecked;                   /* the inputs with a recheck run compared */
	json_t *iterations;              /* the log of the loop; owned */
	unsigned char *is_block;         /* per counter: it counts a block's entries; owned */
	unsigned char *chosen;           /* --select adaptive: the pool inputs profiled; owned */
	double seconds[5];               /* time spent: build, profile, model, slice, judge */
	json_t *choice;                  /* the final choice: its candidates and the one written,
					  * or NULL when there was none to make; owned */
	struct sampler_plan plan;        /* the input files sampled (npositions 0: none) */
	int planned;                     /* the plan was chosen (once per training) */
	struct sampled_run *sampled;     /* per sample, its sampled runs; owned, NULL when the
					  * dataset has no sampled feature */
	int nsampled;                    /* samples when they were run (the profile reloads) */
	double sandboxed_cost;           /* mean over samples of DIR/sandboxed's two runs' time over
					  * the program's */
	double sampled_cost;             /* the same of what runs on the samples for the final
					  * model: PRED/sampled-evaluator, or DIR/sandboxed */
	json_t *sampling;                /* what sampling did, for train.json; owned */
	int sampled_sliced;              /* the final model's samples run PRED/sampled-evaluator
					  * (a slice), not PRED/build/sandboxed */
	int sampled_hosted;              /* ... whose shared-object form (sampled-evaluator.so)
					  * was built and validated hosted by t->opt->host */
	double sampled_hosted_cost;      /* its runs' mean cost so, warm */
	int exact_only;                  /* the loop leaves every sampled feature out (exact_loop) */
	int sampled_dropped;             /* every sampled feature is left out: those judged cost
					  * more than the threshold, all or most (give_up_sampled) */
	double dropped_least;            /* ... the least cost of those too costly */
	int dropped_hosted;              /* ... all judged in process (sampler_cheaper_share) */
	struct sampler_trial *trials;    /* the ways of sampling tried (their failed owned); owned */
	int ntrials;                     /* their number */
	int kept_trial;                  /* the way sampled, in trials */
	double sample_budget;            /* the most a way's trial may cost, over the program's time:
					  * SAMPLE_ALLOWANCE times the threshold (0), or less once the
					  * loop dropped a way's features (sample_cheaper) */
	double share_budget;             /* the most share of the files a way may take (0: any),
					  * once the loop dropped a way's features judged in
					  * process (sample_cheaper) */
	struct model exact;              /* exact_loop's model (nfeatures 0: none, or its evaluator
					  * did not validate under the threshold); owned */
	double gate;                     /* the least prediction PRED/long predicts for, 0: no gate
					  * (gate_long_inputs) */
	json_t *gating;                  /* what the gate's weighing decided, for train.json; owned */
	double *held_out;                /* per sample, the written model's error when the final
					  * choice's cross-validation held it out; owned, NULL when
					  * there was no choice to make */
	double *held_out_ratio;          /* ... and its actual value over that prediction; owned,
					  * NULL alike */
	double *sampled_each;            /* per sample, the final model's runs on its samples' time
					  * over the program's (final_sampled_evaluator); owned */
	double *widened_err;             /* per sample, PRED/long's error as mantis predict makes
					  * it, held out from its training (widen_gate), INFINITY
					  * where it failed; owned, NULL before a gate is widened */
	struct candidate *unsampled;     /* when the final choice took a model of program or
					  * sampled features: the candidate of least held-out error
					  * among those with none and no evaluator, which a gate
					  * may put below it
					  * (gate_sampled); owned, NULL otherwise */
	struct first_share *first;       /* the first values whose evaluators stop early, with the
					  * share of the run's work done when they are assigned;
					  * owned */
	int nfirst;                      /* how many */
	struct hosted hosted;            /* PRED/evaluator's shared-object form */
};

/* A feature that is a first value (slicer_first_value): its evaluator stops once assigned. */
struct first_share {
	char *name;   /* the feature; owned */
	double share; /* the mean over snapshot runs of the program's instructions executed when
		       * the variable has it, over the run's: what the evaluator costs at most */
};

enum { T_BUILD, T_PROFILE, T_MODEL, T_SLICE, T_JUDGE };

/* Prints a line to the log, if any. */
__attribute__((format(printf, 2, 3))) static void say(const struct trainer *t, const char *fmt, ...)
{
	va_list ap;

	if (!t->opt->log)
		return;
	va_start(ap, fmt);
	vfprintf(t->opt->log, fmt, ap);
	va_end(ap);
	fflush(t->opt->log);
}

struct train_options train_options_default(void)
{
	struct train_options o = {0};

	o.metric = "wall";
	o.fit = fit_options_default();
	o.fit.train_frac = 1;
	o.threshold = 0.05;
	o.repeat = 5;
	o.jobs = 1;
	o.max_iterations = 20;
	o.max_aliases = 8;
	o.input_features = 1;
	o.sample_fraction = 0.01;
	o.select_target = 0.1;
	return o;
}

/* ---- build -------------------------------------------------------------------------------- */

/* Returns the record of the program: working folder and words, one per line (mantis report
 * reads the first), then how its IR is prepared ("prepared N", BUILD_PREPARED); owned. */
static char *program_record(const struct train_options *opt)
{
	struct strbuf sb = {0};
	char *cwd = getcwd(NULL, 0);

	strbuf_add(&sb, cwd ? cwd : "?", strlen(cwd ? cwd : "?"));
	strbuf_addch(&sb, '\n');
	for (int i = 0; i < opt->nwords; i++) {
		strbuf_add(&sb, opt->words[i], strlen(opt->words[i]));
		strbuf_addch(&sb, '\n');
	}
	strbuf_addf(&sb, "prepared %d\n", BUILD_PREPARED);
	free(cwd);
	return strbuf_detach(&sb);
}

/* Returns whether PRED/build was made from the same words, prepared the same way, after every
 * file they name changed. */
static int build_up_to_date(const struct trainer *t, const char *record)
{
	char *manifest = xasprintf("%s/features.json", t->build);
	char *path = xasprintf("%s/program.txt", t->build), *old = read_file(path, NULL, "", &(struct error){""});
	struct stat built, st;
	int ok = old && strcmp(old, record) == 0 && stat(manifest, &built) == 0;

	for (int i = 0; ok && i < t->opt->nwords; i++) {
		if (stat(t->opt->words[i], &st) == 0 && st.st_mtime > built.st_mtime)
			ok = 0;
	}
	free(manifest);
	free(path);
	free(old);
	return ok;
}

/* Instruments the program into PRED/build unless it is up to date; reads the manifest. */
static int build(struct trainer *t, int *rebuilt, struct error *err)
{
	char *record = program_record(t->opt), *path = xasprintf("%s/program.txt", t->build);
	char *manifest = xasprintf("%s/features.json", t->build);
	int rc;

	*rebuilt = !build_up_to_date(t, record);
	if (*rebuilt) {
		say(t, "build: instrumenting the program into %s\n", t->build);
		unlink(path);
		rc = build_instrumented(t->opt->build, t->build, &t->m, err);
		if (rc == 0 && write_file(path, record, strlen(record), err) < 0)
			rc = -1;
	} else {
		say(t, "build: %s is up to date\n", t->build);
		rc = manifest_read(&t->m, manifest, err);
	}
	free(record);
	free(path);
	free(manifest);
	return rc;
}

/* ---- profile ------------------------------------------------------------------------------ */

/* Returns a > b for sorting sample indices by program time. */
static const double *sort_key;
static int by_key(const void *a, const void *b)
{
	double x = sort_key[*(const int *)a], y = sort_key[*(const int *)b];

	return (x > y) - (x < y);
}

/* Profiles the training inputs and loads the complete ones; with --select adaptive, those
 * select_inputs chooses, validating the model fit describes. */
static int profile(struct trainer *t, int fresh, const struct fit_options *fit, struct error *err)
{
	struct profile_options po = {0};
	char *db = profile_db_path(t->build, NULL), *ok;
	struct store st;
	int excluded = 0, rc, pool = 0;

	po.dir = t->build;
	po.inputs = t->opt->inputs;
	po.repeat = t->opt->repeat;
	po.jobs = t->opt->jobs;
	po.timeout = t->opt->timeout;
	po.fresh = fresh;
	po.metric = t->opt->metric;
	po.recheck = PROFILE_RECHECK;
	po.progress = t->opt->log != NULL && isatty(2);
	if (t->opt->select_adaptive) {
		struct select_options so = {t->opt->select_target, 10, 5, t->opt->select_max, t->opt->metric,
					    fit, t->opt->log, t->opt->input_features};

		if (select_inputs(&so, &po, &t->m, &t->chosen, &pool, err) < 0) {
			free(db);
			return -1;
		}
	}
	rc = profile_run(&po, err);
	store_samples_release(&t->samples); /* a second call reloads */
	dataset_release(&t->ds);
	if (rc == 0 && (rc = store_open(&st, db, 0, err)) == 0) {
		rc = store_load(&st, &t->m, t->opt->metric, &t->ds, &excluded, err);
		if (rc == 0) /* a time may go through it (rate.h) */
			dataset_set_count(&t->ds, MANIFEST_INSTRUCTIONS);
		if (rc == 0)
			rc = store_load_samples(&st, &t->m, t->opt->metric, &t->samples, &excluded, err);
		free(t->unstable);
		t->unstable = NULL;
		if (rc == 0 && (t->nunstable = store_unstable_features(&st, &t->m, &t->unstable,
								       &t->rechecked, err)) < 0)
			rc = -1;
		store_close(&st);
	}
	free(db);
	for (int i = 0; i < pool && excluded > 0; i++)
		excluded -= !t->chosen[i]; /* inputs not selected are not left out */
	if (rc < 0)
		return -1;
	if (strcmp(t->opt->metric, "instructions") == 0)
		dataset_drop_prefix(&t->ds, "bycount:"); /* they add up to the metric itself */
	ok = runner_format_exits(runner_ok_exits());
	say(t, "profile: %d inputs complete", t->samples.n);
	if (*ok)
		say(t, " (exit code%s %s counted a success: --ok-exit)", strchr(ok, ',') ? "s" : "",
		    ok);
	if (excluded)
		say(t, ", %d left out (crashed, timed out or exited %s)", excluded,
		    *ok ? "with another code" : "non-zero");
	say(t, "\n");
	free(ok);
	if (t->samples.n < 5)
		return error_set(err, "%s: %d complete inputs; training needs at least 5",
				 t->opt->inputs, t->samples.n);
	return 0;
}

/* The fewest data files that cross-validation holds out by file (descriptor_groups): as many
 * as its folds. With fewer, the inputs differ by their arguments more than by their data. */
#define GROUPS_LEAST 5

/* Pairs each sample with its line of the inputs file, and groups them by data file. */
static int match_inputs(struct trainer *t, struct error *err)
{
	int ngroups;

	inputs_release(&t->ins); /* a second call reloads */
	free(t->input);
	free(t->by_time);
	free(t->group);
	t->group = NULL;
	if (inputs_load(&t->ins, t->opt->inputs, err) < 0)
		return -1;
	t->input = xcalloc((size_t)t->samples.n, sizeof *t->input);
	t->by_time = xcalloc((size_t)t->samples.n, sizeof *t->by_time);
	for (int k = 0; k < t->samples.n; k++) {
		for (int i = 0; i < t->ins.n && !t->input[k]; i++) {
			if (t->ins.v[i].line == t->samples.line[k])
				t->input[k] = &t->ins.v[i];
		}
		if (!t->input[k])
			return error_set(err, "%s: the profile has an input of line %d that the file "
					 "does not (start a new profile with --fresh)", t->opt->inputs,
					 t->samples.line[k]);
		t->by_time[k] = k;
	}
	sort_key = t->samples.wall;
	qsort(t->by_time, (size_t)t->samples.n, sizeof *t->by_time, by_key);
	t->group = descriptor_groups(t->input, t->samples.n, &ngroups);
	if (ngroups < GROUPS_LEAST || ngroups == t->samples.n) {
		free(t->group);
		t->group = NULL;
	} else {
		say(t, "inputs: %d data files among the %d: cross-validation holds out each file's "
		    "inputs together\n", ngroups, t->samples.n);
	}
	return 0;
}

/* Appends to the dataset the input features that take more than one value over the samples
 * (after the program's, so that an exact copy of one is its alias, not its representative),
 * but for the header fields, which go before them: a first value they copy is their alias. */
static void add_input_features(struct trainer *t)
{
	if (t->opt->input_features)
		say(t, "input features: %d vary over the inputs (numeric arguments, file sizes, "
		    "content, script numbers, words, header fields)\n",
		    descriptor_add_columns(&t->ds, t->input));
}

/* ---- sampled features --------------------------------------------------------------------- */

/* Returns whether the feature called name needs the evaluator: a program feature, neither read
 * off the command line (descriptor.h) nor measured on samples (sampler.h). */
static int needs_evaluator(const char *name)
{
	return descriptor_find(name) < 0 && !sampler_feature(name);
}

static int *judge_order(const struct trainer *t);

#define SAMPLE_SHARES 3 /* shares tried: --sample, half and a quarter of it */
#define SAMPLE_LEASTS 2 /* least sizes tried beyond SAMPLER_LEAST: SAMPLER_WARM_UP, 4 times it */
/* A way of sampling may cost up to this times the threshold in its trial: the sandboxed program
 * costs more than the sampled evaluator the judge weighs later (the way kept, on 100 training
 * inputs: gzip 5.4% against 3.5%, bzip2 3.6% against 2.1%, lz4 5.7% against 3.0%, pcre2grep
 * 4.4% against 3.4%), and one run per input is noisy (gzip's 64 KiB way: 3.5% and 5.4% in two
 * trains); the judge has the last word. */
#define SAMPLE_ALLOWANCE 1.5

/* The sampled runs of every sample under plan, each timed reps times: the mean relative error
 * of the extrapolated instruction count once rescaled (sampler_rescaled_error; NaN without the
 * bycount scheme), along the line or the parabola (sampler_value), whichever errs less (an
 * insertion sort's count is the parabola's; *parabola then 1, unless parabola is NULL), in
 * *se its standard error and in *raw the extrapolation's own error, or -1 with err set. Fills
 * runs[] (each owned by the caller) and *failed (owned) with the first failure, if any. */
static double sample_all(struct trainer *t, const struct sampler_plan *plan, int reps,
			 const char *exe, struct sampled_run *runs, char **failed, double *se,
			 double *raw, int *parabola, struct error *err)
{
	char *db = xasprintf("%s/sampled.db", t->build), *setting = sampler_setting(plan, reps);
	int total = manifest_find(&t->m, MANIFEST_INSTRUCTIONS), rc, n = 0;
	double *extrapolated = xcalloc((size_t)t->samples.n + 1, sizeof *extrapolated);
	double *along = xcalloc((size_t)t->samples.n + 1, sizeof *along); /* the parabola's */
	double *actual = xcalloc((size_t)t->samples.n + 1, sizeof *actual), error, other, ose, oraw;
	struct sampledb sdb;

	*failed = NULL;
	rc = sampledb_open(&sdb, db, exe, setting, t->m.ncounters, err);
	for (int k = 0; k < t->samples.n && rc == 0; k++) {
		const struct input *in = t->input[k];

		rc = sampledb_get(&sdb, in, &runs[k], err);
		if (rc == 0 && (rc = sampler_run(exe, NULL, &t->m, plan, in, reps,
						 2 + 3 * t->samples.wall[k], &runs[k], err)) == 0)
			rc = sampledb_put(&sdb, in, &runs[k], err);
		rc = rc < 0 ? -1 : 0;
		if (rc == 0 && !runs[k].ok && !*failed)
			*failed = xasprintf("input line %d: the program %s", in->line, runs[k].failure);
		if (rc == 0 && runs[k].ok && total >= 0) {
			actual[n] = feature_value(&t->m.v[total], t->samples.counters[k]);
			along[n] = sampler_value(&runs[k], &t->m.v[total], SAMPLER_QUADRATIC);
			extrapolated[n++] = sampler_value(&runs[k], &t->m.v[total], SAMPLER_LINE);
		}
	}
	if (sdb.db)
		sampledb_close(&sdb);
	free(db);
	free(setting);
	error = sampler_rescaled_error(extrapolated, actual, n, se, raw);
	other = sampler_rescaled_error(along, actual, n, &ose, &oraw);
	if (parabola)
		*parabola = other < error;
	if (other < error) {
		error = other;
		*se = ose;
		*raw = oraw;
	}
	if (total < 0)
		*raw = NAN;
	free(along);
	free(extrapolated);
	free(actual);
	return rc < 0 ? -1 : total >= 0 ? error : NAN;
}

/* Chooses the files to sample (once per training), on the first inputs of the judging order.
 * Returns how many, or -1 with err set. */
static int plan_sampling(struct trainer *t, const char *exe, struct error *err)
{
	int *order = judge_order(t), ntrial = t->samples.n < 3 ? t->samples.n : 3, n;
	double timeout = 2;
	char *why = NULL;

	for (int i = 0; i < ntrial; i++)
		timeout = fmax(timeout, 2 + 3 * t->samples.wall[order[i]]);
	n = sampler_plan_choose(&t->plan, t->opt->sample_fraction, exe, &t->m, t->input,
				t->samples.n, order, ntrial, timeout, &why, err);
	free(order);
	if (n == 0) {
		say(t, "sampled features: none (%s)\n", why);
		json_object_set_new(t->sampling, "reason", json_string(why));
	}
	free(why);
	t->planned = n >= 0;
	return n;
}

/* Frees t's sampled runs. */
static void sampled_release(struct trainer *t)
{
	for (int k = 0; t->sampled && k < t->nsampled; k++)
		sampled_run_release(&t->sampled[k]);
	free(t->sampled);
	t->sampled = NULL;
	t->nsampled = 0;
}

/* Frees runs[0..n) and runs. */
static void runs_free(struct sampled_run *runs, int n)
{
	for (int i = 0; runs && i < n; i++)
		sampled_run_release(&runs[i]);
	free(runs);
}

/* Appends the trials to t->sampling (train.json's "trials"). */
static void log_trials(struct trainer *t, const struct sampler_trial *tr, int n)
{
	json_t *list = json_array();

	for (int i = 0; i < n; i++) {
		json_t *o = json_pack("{s:f, s:I, s:i, s:i}", "fraction", tr[i].fraction, "least",
				      (json_int_t)tr[i].least, "chunks", tr[i].chunks, "smaller",
				      tr[i].smaller ? tr[i].smaller : SAMPLER_SMALLER);

		if (!tr[i].failed)
			json_object_set_new(o, "share", json_real(tr[i].share));
		if (!tr[i].failed && !isnan(tr[i].cost))
			json_object_set_new(o, "cost", json_real(tr[i].cost));
		if (tr[i].failed)
			json_object_set_new(o, "failure", json_string(tr[i].failed));
		else if (!isnan(tr[i].error))
			json_object_set_new(o, "instructions_error",
					    json_pack("{s:f, s:f, s:f, s:b}", "mean", tr[i].error, "se",
						      tr[i].se, "extrapolated", tr[i].raw, "parabola",
						      tr[i].parabola));
		json_array_append_new(list, o);
	}
	json_object_set_new(t->sampling, "trials", list);
}

/* Returns whether some training input's larger sample at fraction of its sampled files (the
 * plan's) grows when its least bytes go from "from" to "to". */
static int least_grows(const struct trainer *t, double fraction, long from, long to)
{
	for (int k = 0; k < t->samples.n; k++) {
		double bytes = sampler_bytes(&t->plan, t->input[k]), q = fraction * bytes;

		if (fmin(bytes, fmax(q, (double)to)) > fmin(bytes, fmax(q, (double)from)))
			return 1;
	}
	return 0;
}

/* Returns whether some trial of tr[0..n) extrapolated the instruction count within
 * SAMPLER_GOOD_PERMILLE: then no larger sample is tried. Unmeasured, there is nothing to try. */
static int extrapolates_well(const struct sampler_trial *tr, int n)
{
	for (int i = 0; i < n; i++) {
		if (!tr[i].failed && !(tr[i].error > SAMPLER_GOOD_PERMILLE / 1e3))
			return 1;
	}
	return 0;
}

/* Logs a way of sampling: "1% (at least 64 KiB) in 8 pieces" (or "a line at a time"), and
 * ", the smaller sample 1/2 of it" when the smaller is not SAMPLER_SMALLER (0 reads as it). */
static void say_way(const struct trainer *t, double fraction, long least, int chunks, int smaller)
{
	char *pieces = sampler_pieces(chunks);

	say(t, "%g%% (at least %ld KiB) %s", 100 * fraction, least / 1024, pieces);
	free(pieces);
	if (smaller && smaller != SAMPLER_SMALLER)
		say(t, ", the smaller sample 1/%d of it", smaller);
}

/* Runs every training input once on its samples in the way of trial x (its fraction, least,
 * chunks and smaller) and fills in x's error, share and cost. Returns 0, or -1 with err set. */
static int run_trial(struct trainer *t, const char *exe, const char *files,
		     struct sampler_trial *x, struct error *err)
{
	struct sampled_run *runs = xcalloc((size_t)t->samples.n + 1, sizeof *runs);

	t->plan.fraction = x->fraction;
	t->plan.least = x->least;
	t->plan.chunks = x->chunks;
	t->plan.smaller = x->smaller;
	x->error = sample_all(t, &t->plan, 1, exe, runs, &x->failed, &x->se, &x->raw,
			      &x->parabola, err);
	x->share = x->cost = 0;
	for (int k = 0; k < t->samples.n && !(x->error < 0) && !x->failed; k++) {
		x->share += (runs[k].share[0] + runs[k].share[1]) / t->samples.n;
		x->cost += runs[k].seconds / fmax(t->samples.wall[k], 1e-6) / t->samples.n;
	}
	runs_free(runs, t->samples.n);
	if (x->error < 0)
		return -1;
	say(t, "sampled features: %s, ", files);
	say_way(t, x->fraction, x->least, x->chunks, x->smaller);
	say(t, ": ");
	if (x->failed)
		say(t, "%s\n", x->failed);
	else if (isnan(x->error))
		say(t, "every input ran (cost %.2f%%)\n", 100 * x->cost);
	else
		say(t, "the instruction count extrapolated%s within %.2f%% on the mean input, "
		    "%.2f%% once rescaled (standard error %.2f%%), cost %.2f%%\n",
		    x->parabola ? " along the parabola" : "", 100 * x->raw, 100 * x->error,
		    100 * x->se, 100 * x->cost);
	return 0;
}

/* Returns the most a way of sampling may cost in its trial (t->sample_budget). */
static double sample_budget(const struct trainer *t)
{
	return t->sample_budget > 0 ? t->sample_budget : SAMPLE_ALLOWANCE * t->opt->threshold;
}

/*
 * Returns sampler_cheapest of tr[0..n) within sample_budget, of the ways whose share is at most
 * t->share_budget where it bounds them, or -1.
 */
static int cheapest_way(const struct trainer *t, const struct sampler_trial *tr, int n)
{
	static char over[] = "takes a larger share than allowed";
	struct sampler_trial *within = xmalloc(sizeof *tr * (size_t)(n + 1));
	int kept;

	memcpy(within, tr, sizeof *tr * (size_t)n);
	for (int i = 0; i < n && t->share_budget > 0; i++) {
		if (!within[i].failed && within[i].share > t->share_budget * (1 + 1e-9))
			within[i].failed = over;
	}
	kept = sampler_cheapest(within, n, t->opt->threshold, sample_budget(t));
	free(within);
	return kept;
}

/* Frees t->trials and their failures. */
static void trials_release(struct trainer *t)
{
	for (int i = 0; i < t->ntrials; i++)
		free(t->trials[i].failed);
	free(t->trials);
	t->trials = NULL;
	t->ntrials = 0;
}

/* Keeps tr[0..n) in t->trials (taking their failures) and kept, the way sampled (-1: none). */
static void keep_trials(struct trainer *t, const struct sampler_trial *tr, int n, int kept)
{
	trials_release(t);
	t->trials = xmalloc(sizeof *tr * (size_t)(n + 1));
	memcpy(t->trials, tr, sizeof *tr * (size_t)n);
	t->ntrials = n;
	t->kept_trial = kept;
}

/*
 * Offers the model sampled features (sampler.h): the files to sample are chosen once; each
 * training input then runs once on its samples (DIR/sandboxed) in each way tried: the pieces
 * spread over each file or a prefix, and where some input's sampled file reads as text a line
 * at a time (a systematic sample: a list's disorder is all of its pairs', where pieces of it
 * hold only their own), at --sample, half and a quarter of it (SAMPLE_SHARES),
 * then, when none extrapolates the instruction count (rescaled) within SAMPLER_GOOD_PERMILLE, at
 * --sample with the larger sample raised to SAMPLER_WARM_UP bytes and 4 times that where that
 * grows some input's (SAMPLE_LEASTS), each with the smaller sample a quarter and a half of the
 * larger (SAMPLER_PAST_WARM_UP); the smaller shares and the larger sizes only when the
 * instruction count measures them. The way kept runs SAMPLER_REPS times, its cost
 * their median. Of the ways whose runs cost at most SAMPLE_ALLOWANCE times the threshold, the
 * cheapest whose extrapolated instruction count, once rescaled (sampler_rescaled_error), is
 * within one standard error of the best on the training inputs is kept (sampler_cheapest; of
 * those that cost at most the threshold alone where some extrapolate within
 * SAMPLER_GOOD_PERMILLE): the runs' cost is mostly the samples' bytes, and a
 * stream's first KiB may cost less than the rest (gzip). If the program fails on a sample of
 * some input there are none. Their cost is judged feature by feature, as the program's are
 * (decide_sampled): the slice of one loop costs less than the whole program on the samples.
 * Returns 0, or -1 with err set.
 */
static int add_sampled_features(struct trainer *t, struct error *err)
{
	static const int chunks[] = {SAMPLER_CHUNKS, 1, SAMPLER_BY_LINE};
	char *exe = xasprintf("%s/sandboxed", t->build), *files, *failed = NULL;
	static const int smaller[] = {SAMPLER_SMALLER, SAMPLER_PAST_WARM_UP};
	struct sampler_trial tr[3 * (SAMPLE_SHARES + 2 * SAMPLE_LEASTS)];
	double t0 = now_seconds(), se, raw;
	int n = 0, kept, added, rc = 0, ways = 2;

	sampled_release(t);
	if (t->opt->sample_fraction <= 0 || (t->planned && t->plan.npositions == 0)) {
		free(exe);
		return 0;
	}
	json_decref(t->sampling);
	t->sampling = json_object();
	if (access(exe, X_OK) != 0) {
		say(t, "sampled features: none (%s is missing: instrument the program again)\n", exe);
		json_object_set_new(t->sampling, "reason", json_string("no sandboxed build"));
		free(exe);
		return 0;
	}
	if ((!t->planned && plan_sampling(t, exe, err) < 0) || t->plan.npositions == 0) {
		free(exe);
		return t->planned ? 0 : -1;
	}
	files = sampler_plan_files(&t->plan);
	for (int k = 0; k < t->samples.n && ways == 2; k++)
		ways += sampler_reads_text(&t->plan, t->input[k]);
	memset(tr, 0, sizeof tr);
	for (int f = 0; f < SAMPLE_SHARES && rc == 0 && (f == 0 || sampler_measured(tr, n)); f++) {
		for (int c = 0; c < ways && rc == 0; c++, n++) {
			tr[n] = (struct sampler_trial){.fraction = t->opt->sample_fraction / (1 << f),
						       .least = SAMPLER_LEAST, .chunks = chunks[c]};
			rc = run_trial(t, exe, files, &tr[n], err);
		}
	}
	for (long l = 0, from = SAMPLER_LEAST; l < SAMPLE_LEASTS && rc == 0 &&
					      !extrapolates_well(tr, n); l++) {
		long least = (long)SAMPLER_WARM_UP << (2 * l);
		int grows = least_grows(t, t->opt->sample_fraction, from, least);

		for (int h = 0; h < 2 && rc == 0 && grows; h++) {
			for (int c = 0; c < ways && rc == 0; c++, n++) {
				tr[n] = (struct sampler_trial){.fraction = t->opt->sample_fraction,
							       .least = least, .chunks = chunks[c],
							       .smaller = smaller[h]};
				rc = run_trial(t, exe, files, &tr[n], err);
			}
		}
		from = least;
	}
	if (rc < 0) {
		for (int i = 0; i < n; i++)
			free(tr[i].failed);
		free(files);
		free(exe);
		return -1;
	}
	kept = cheapest_way(t, tr, n);
	json_object_set_new(t->sampling, "files", json_string(files));
	log_trials(t, tr, n);
	if (kept < 0)
		json_object_set_new(t->sampling, "reason", json_string(tr[0].failed));
	free(files);
	keep_trials(t, tr, n, kept);
	if (kept < 0) {
		free(exe);
		return 0;
	}
	t->plan.fraction = tr[kept].fraction;
	t->plan.least = tr[kept].least;
	t->plan.chunks = tr[kept].chunks;
	t->plan.smaller = tr[kept].smaller;
	t->sampled = xcalloc((size_t)t->samples.n + 1, sizeof *t->sampled);
	t->nsampled = t->samples.n;
	if (sample_all(t, &t->plan, SAMPLER_REPS, exe, t->sampled, &failed, &se, &raw, NULL,
		       err) < 0) {
		free(exe);
		return -1;
	}
	free(failed);
	json_object_set_new(t->sampling, "fraction", json_real(t->plan.fraction));
	json_object_set_new(t->sampling, "least", json_integer(t->plan.least));
	t->sandboxed_cost = 0;
	for (int k = 0; k < t->samples.n; k++)
		t->sandboxed_cost += t->sampled[k].seconds / fmax(t->samples.wall[k], 1e-6) /
				     t->samples.n;
	json_object_set_new(t->sampling, "chunks", json_integer(t->plan.chunks));
	json_object_set_new(t->sampling, "smaller", json_integer(sampler_smaller(&t->plan)));
	json_object_set_new(t->sampling, "sandboxed_cost", json_real(t->sandboxed_cost));
	if (!isnan(t->trials[kept].error))
		json_object_set_new(t->sampling, "instructions_error",
				    json_real(t->trials[kept].error));
	t->seconds[T_PROFILE] += now_seconds() - t0;
	added = sampler_add_columns(&t->ds, &t->m, &t->plan, t->sampled);
	json_object_set_new(t->sampling, "features", json_integer(added));
	say(t, "sampled features: %d vary over the inputs (", added);
	say_way(t, t->plan.fraction, t->plan.least, t->plan.chunks, t->plan.smaller);
	say(t, ", the cheapest way within one standard error of the best; the sandboxed program's "
	    "runs cost %.2f%% of the program's time; %.1f s)\n", 100 * t->sandboxed_cost,
	    now_seconds() - t0);
	free(exe);
	return 0;
}

/* ---- judging evaluators ------------------------------------------------------------------- */

/* Returns sample indices in the order evaluators run on them: a spread of FIRST_STAGE by
 * program time, then the rest (order[0..n), owned by the caller). */
static int *judge_order(const struct trainer *t)
{
	int n = t->samples.n, first = n < FIRST_STAGE ? n : FIRST_STAGE, pos = 0;
	unsigned char *used = xcalloc((size_t)n, 1);
	int *order = xcalloc((size_t)n, sizeof *order);

	for (int j = 0; j < first; j++) {
		int k = t->by_time[first > 1 ? (int)((long)j * (n - 1) / (first - 1)) : 0];

		if (!used[k]) {
			used[k] = 1;
			order[pos++] = k;
		}
	}
	for (int k = 0; k < n; k++) {
		if (!used[k])
			order[pos++] = k;
	}
	free(used);
	return order;
}

/* Returns whether the costs cost[0..n) of an evaluator on the first inputs of judge_order (each
 * its time over the program's) show it too costly to judge further: their median over 4 times
 * threshold once 3 were judged, over twice it at FIRST_STAGE. The median, since the first
 * stage starts at the shortest input, where the evaluator's fixed work (findmaxima's image
 * read whole) is most of the run: 60% there beside 4-5% on the next two made a mean of 24%
 * over three inputs, and the loop rejected at once evaluators that cost 4.6% on the mean
 * input. Sorts cost. */
static int clearly_costly(double *cost, int n, double threshold)
{
	double mid;

	if (n != 3 && n != FIRST_STAGE)
		return 0;
	mid = median(cost, n);
	return n == 3 ? mid > 4 * threshold : mid > 2 * threshold;
}

/*
 * Runs the evaluator exe on in, killed after timeout seconds (predictor_measure): with *hosted
 * and a shared-object form beside it (exe.so, solib.h), that form hosted by t->opt->host,
 * res->wall its warm run (what mantis serve pays); else as a process (*hosted then set to 0).
 * Returns 0, or -1 with err set when it could not be started.
 */
static int run_evaluator(const struct trainer *t, const char *exe, const struct input *in,
			 double timeout, struct run_result *res, uint64_t **counters, int *hosted,
			 struct error *err)
{
	char *so = xasprintf("%s.so", exe);
	double cold;
	int rc;

	*hosted = *hosted && access(so, R_OK) == 0;
	if (*hosted)
		rc = predictor_measure_hosted(t->opt->host, so, in, timeout, &t->m, res, &cold,
					      counters, err);
	else
		rc = predictor_measure(exe, in, timeout, &t->m, res, counters, NULL, err);
	free(so);
	return rc;
}

/*
 * Runs exe on the samples and fills d: validated (the features feats[0..nf) of m have their
 * profiled value on every input), cost, ninputs, reason; its shared-object form, hosted, when
 * d->in_process asks and it has one (run_evaluator; d->in_process then says whether it did). With early, stops once the first
 * stage shows it clearly costly (clearly_costly). Returns 0, or -1 if exe could not be
 * started.
 */
static int judge(struct trainer *t, const char *exe, const int *feats, int nf, int early,
		 struct decision *d, struct error *err)
{
	int *order = judge_order(t), rc = 0;
	double sum = 0, first[FIRST_STAGE];

	d->validated = 1;
	d->ninputs = 0;
	for (int j = 0; j < t->samples.n && !d->reason; j++) {
		int k = order[j];
		double wall = t->samples.wall[k];
		struct run_result res;
		uint64_t *c;

		if ((rc = run_evaluator(t, exe, t->input[k], 2 + 3 * wall, &res, &c, &d->in_process,
					err)) < 0)
			break;
		if (res.status != RUN_OK || !c) {
			d->reason = xasprintf("input line %d: the evaluator %s", t->input[k]->line,
					      res.status == RUN_TIMEOUT ? "ran over 3x the program's time"
					      : res.status != RUN_OK ? runner_status_name(res.status)
								     : "wrote no features");
			d->validated = 0;
		}
		for (int i = 0; i < nf && !d->reason; i++) {
			const struct feature *f = &t->m.v[feats[i]];
			double got = feature_value(f, c), want = feature_value(f, t->samples.counters[k]);

			if (got != want) {
				d->reason = xasprintf("not validated: input line %d: %s is %.17g, the "
						      "program's %.17g", t->input[k]->line, f->name, got,
						      want);
				d->validated = 0;
			}
		}
		free(c);
		sum += res.wall / (wall > 1e-6 ? wall : 1e-6);
		if (d->ninputs < FIRST_STAGE)
			first[d->ninputs] = res.wall / (wall > 1e-6 ? wall : 1e-6);
		d->ninputs++;
		d->cost = sum / d->ninputs;
		if (early && !d->reason && clearly_costly(first, d->ninputs, t->opt->threshold))
			d->reason = xasprintf("cost %.1f%% of the program's time on %d inputs, a median "
					      "%.1f%% (threshold %g%%)", 100 * d->cost, d->ninputs,
					      100 * median(first, d->ninputs), 100 * t->opt->threshold);
	}
	if (rc == 0 && !d->reason && d->cost > t->opt->threshold)
		d->reason = xasprintf("cost %.1f%% of the program's time (threshold %g%%)",
				      100 * d->cost, 100 * t->opt->threshold);
	d->expensive = d->validated && d->cost > t->opt->threshold;
	d->accepted = rc == 0 && !d->reason;
	free(order);
	return rc;
}

/* Returns the decision on name, or NULL. */
static struct decision *decided(const struct trainer *t, const char *name)
{
	for (int i = 0; i < t->ndec; i++) {
		if (strcmp(t->dec[i].name, name) == 0)
			return &t->dec[i];
	}
	return NULL;
}

/* Appends a decision on name (zeroed but for its name and round) and returns it. */
static struct decision *add_decision(struct trainer *t, const char *name, int iteration)
{
	struct decision *d;

	t->dec = xrealloc(t->dec, sizeof *t->dec * (size_t)(t->ndec + 1));
	d = &t->dec[t->ndec++];
	memset(d, 0, sizeof *d);
	d->name = xstrdup(name);
	d->iteration = iteration;
	return d;
}

/* Returns the share of the run's work done when first value name is assigned (first_shares),
 * or NaN when name is none or was not measured. */
static double first_share_of(const struct trainer *t, const char *name)
{
	for (int i = 0; i < t->nfirst; i++) {
		if (strcmp(t->first[i].name, name) == 0)
			return t->first[i].share;
	}
	return NAN;
}

/*
 * If the estimate of the evaluator of mark (slicer_estimate; for a first value d names, whose
 * evaluator stops once assigned, the share of the work done by then, when it was measured) is
 * above ESTIMATE_MARGIN times the threshold, rejects d with that reason and returns 1; returns
 * 0 otherwise.
 */
static int estimated_too_costly(const struct trainer *t, const struct slicer *s,
				const unsigned char *mark, struct decision *d)
{
	double share = first_share_of(t, d->name), estimate;

	if (share <= ESTIMATE_MARGIN * t->opt->threshold)
		return 0;
	estimate = slicer_estimate(s, mark, t->samples.counters, t->samples.n);
	if (estimate <= ESTIMATE_MARGIN * t->opt->threshold)
		return 0;
	d->cost = estimate;
	d->expensive = 1;
	d->reason = xasprintf("estimated cost %.1f%% (the slice's instructions times the profile's "
			      "block entries; threshold %g%%)", 100 * estimate, 100 * t->opt->threshold);
	return 1;
}

/* Returns PRED/build/slice, where the rounds' evaluators are written, made if missing (owned
 * by the caller), or NULL with err set. */
static char *slice_dir(const struct trainer *t, struct error *err)
{
	char *dir = xasprintf("%s/slice", t->build);

	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		error_errno(err, "cannot make %s", dir);
		free(dir);
		return NULL;
	}
	return dir;
}

static int judge_sampled(struct trainer *t, const char *exe, const int *feats, int nf, int reps,
			 int early, struct decision *d, double *each, struct error *err);

/*
 * Decides each of names[0..n), the slicer's features in that order: its own slice written to
 * dir/iterationI-[sampled]K (a program feature's first screened by its estimated cost), judged
 * on the training inputs (judge) or on their samples (judge_sampled, when sampled), and logged.
 * Appends the decisions. Returns 0, or -1 with err set.
 */
static int decide_each(struct trainer *t, struct slicer *s, char **names, int n, int iteration,
		       const char *dir, int sampled, struct error *err)
{
	int rc = 0;

	for (int i = 0; i < n && rc == 0; i++) {
		struct decision *d = add_decision(t, names[i], iteration);
		unsigned char *mark = xcalloc((size_t)s->sdg.n, 1);
		char *exe = xasprintf("%s/iteration%d-%s%d", dir, iteration, sampled ? "sampled" : "", i);
		char *bc = xasprintf("%s.bc", exe);
		struct error werr = {""};
		double t0 = now_seconds();

		d->total = s->sdg.ninsts;
		d->kept = slicer_mark(s, &i, 1, mark);
		d->in_process = t->opt->in_process;
		s->inproc = d->in_process ? t->opt->inproc : NULL;
		if (!(!sampled && estimated_too_costly(t, s, mark, d)) &&
		    slicer_write(s, mark, bc, exe, t->opt->slicert, &werr) < 0)
			d->reason = xasprintf("no evaluator: %s", werr.msg);
		t->seconds[T_SLICE] += now_seconds() - t0;
		t0 = now_seconds();
		if (!d->reason)
			rc = sampled ? judge_sampled(t, exe, &s->feature[i], 1, 1, 1, d, NULL, err)
				     : judge(t, exe, &s->feature[i], 1, 1, d, err);
		t->seconds[T_JUDGE] += now_seconds() - t0;
		say(t, "  %-50s %s", d->name, d->accepted ? "accepted" : "rejected");
		if (d->accepted)
			say(t, ": cost %.2f%%%s%s, validated on %d inputs", 100 * d->cost,
			    sampled ? " on the samples" : "", d->in_process ? " in process" : "",
			    d->ninputs);
		else
			say(t, ": %s", d->reason ? d->reason : err->msg);
		say(t, " (slice: %d of %d instructions)\n", d->kept, d->total);
		free(mark);
		free(exe);
		free(bc);
	}
	return rc;
}

/* Slices the program features names[0..n) together and judges each evaluator; appends
 * decisions. */
static int decide_program(struct trainer *t, char **names, int n, int iteration,
			  struct error *err)
{
	char *dir = slice_dir(t, err);
	struct slicer s;
	double t0 = now_seconds();
	int rc = 0;

	if (!dir)
		return -1;
	if (slicer_init(&s, t->build, names, n, t->samples.counters, t->samples.n, err) < 0) {
		free(dir);
		return -1;
	}
	t->seconds[T_SLICE] += now_seconds() - t0;
	rc = decide_each(t, &s, names, n, iteration, dir, 0, err);
	slicer_release(&s);
	free(dir);
	return rc;
}

/* The difference a sampled evaluator's instruction count (bycount) may have from the sandboxed
 * program's: a slice leaves out the few instructions of the exit's block after its recorder
 * (lz4: 220821981 where the program counts 220821983; bzip2: 1679511 against 1679515),
 * nothing a prediction extrapolated from a sample can tell. Other features must be equal. */
#define SAMPLED_SLACK 64

/* Returns whether the features feats[0..nf) of run r (input k's samples) are what the
 * sandboxed program counted there (an instruction count within the slack above); else sets
 * d->reason. */
static int validate_sampled(struct trainer *t, int k, const struct sampled_run *r,
			    const int *feats, int nf, struct decision *d)
{
	for (int i = 0; i < nf; i++) {
		const struct feature *f = &t->m.v[feats[i]];
		int bycount = strcmp(f->kind, "bycount") == 0;

		for (int j = 0; j < 2 && r->counters[j]; j++) {
			double got = feature_value(f, r->counters[j]);
			double want = feature_value(f, t->sampled[k].counters[j]);
			double slack = bycount ? SAMPLED_SLACK : 0;

			if (fabs(got - want) > slack) {
				d->reason = xasprintf("not validated: input line %d: on the %s sample "
						      "%s is %.17g, the program's %.17g",
						      t->input[k]->line, j ? "smaller" : "larger",
						      f->name, got, want);
				return 0;
			}
		}
	}
	return 1;
}

/*
 * Runs exe (an evaluator of sampled features) on the samples of the training inputs, in
 * judge_order, reps times each, and fills d as judge does: validated when the features
 * feats[0..nf) come out as the sandboxed program counted them there, cost the mean of the two
 * runs' time over the program's (each input's in each[], by sample, when each is not NULL);
 * with early, stops once the first stage shows it clearly costly (clearly_costly). With
 * d->in_process and a shared-object form beside exe (exe.so), that form runs, hosted by
 * t->opt->host (its warm runs' time); d->in_process then says whether it did. Returns 0, or -1
 * with err set.
 */
static int judge_sampled(struct trainer *t, const char *exe, const int *feats, int nf, int reps,
			 int early, struct decision *d, double *each, struct error *err)
{
	int *order = judge_order(t), rc = 0;
	double sum = 0, first[FIRST_STAGE];
	char *so = xasprintf("%s.so", exe);
	struct solib_form form = {so, t->opt->host};

	d->in_process = d->in_process && t->opt->host && access(so, R_OK) == 0;
	d->validated = 1;
	d->ninputs = 0;
	for (int j = 0; j < t->samples.n && !d->reason; j++) {
		int k = order[j];
		struct sampled_run r;

		if ((rc = sampler_run(exe, d->in_process ? &form : NULL, &t->m, &t->plan,
				      t->input[k], reps, 2 + 3 * t->samples.wall[k], &r, err)) < 0)
			break;
		if (!r.ok) {
			d->reason = xasprintf("input line %d: the evaluator %s", t->input[k]->line,
					      r.failure);
			d->validated = 0;
		} else {
			d->validated = validate_sampled(t, k, &r, feats, nf, d);
		}
		sum += r.seconds / fmax(t->samples.wall[k], 1e-6);
		if (each)
			each[k] = r.seconds / fmax(t->samples.wall[k], 1e-6);
		if (d->ninputs < FIRST_STAGE)
			first[d->ninputs] = r.seconds / fmax(t->samples.wall[k], 1e-6);
		sampled_run_release(&r);
		d->ninputs++;
		d->cost = sum / d->ninputs;
		if (early && !d->reason && clearly_costly(first, d->ninputs, t->opt->threshold))
			d->reason = xasprintf("cost %.1f%% of the program's time on the samples of %d "
					      "inputs, a median %.1f%% (threshold %g%%)", 100 * d->cost,
					      d->ninputs, 100 * median(first, d->ninputs),
					      100 * t->opt->threshold);
	}
	if (rc == 0 && !d->reason && d->cost > t->opt->threshold)
		d->reason = xasprintf("cost %.1f%% of the program's time on the samples (threshold "
				      "%g%%)", 100 * d->cost, 100 * t->opt->threshold);
	d->expensive = d->validated && d->cost > t->opt->threshold;
	d->accepted = rc == 0 && !d->reason;
	free(order);
	free(so);
	return rc;
}

/*
 * Slices the program for the features names[0..n) of the manifest into *s, without cutting it
 * to the branch sides training took (a sample takes paths no training run took: lz4's slice
 * cut to the training samples' paths looped forever on a held-out sample of a repetitive
 * file, where the uncut one costs the same); an exit call no run reached, whole or sampled, is
 * no criterion, or every slice of encryptor's would keep its key's O(N^3) validation, whose
 * error exit comes first. Returns 0, or -1 with err set.
 */
static int slice_for_samples(struct trainer *t, char *const *names, int n, struct slicer *s,
			     struct error *err)
{
	uint64_t **runs = xcalloc(3 * (size_t)t->samples.n + 1, sizeof *runs);
	int nruns = 0, rc;

	for (int k = 0; k < t->samples.n; k++) {
		runs[nruns++] = t->samples.counters[k];
		for (int j = 0; j < 2; j++) {
			if (t->sampled[k].counters[j])
				runs[nruns++] = t->sampled[k].counters[j];
		}
	}
	rc = slicer_init_unpruned(s, t->build, names, n, runs, nruns, err);
	free(runs);
	return rc;
}

/*
 * Decides the sampled features names[0..n) in round iteration as decide does the program's:
 * the features they extrapolate are sliced together (slice_for_samples), and each evaluator is
 * judged on the training inputs' samples (judge_sampled): accepted if it computes there what
 * the sandboxed program counted and costs at most the threshold. A sampled feature of the
 * program's whole instruction count keeps nearly the program (lz4: 31,369 of 33,609
 * instructions) and costs what the sandboxed program does; one of a single loop keeps that
 * loop's inputs. Returns 0, or -1 with err set.
 */
static int decide_sampled(struct trainer *t, char **names, int n, int iteration,
			  struct error *err)
{
	char *dir = slice_dir(t, err);
	char **of;
	struct slicer s;
	double t0 = now_seconds();
	int rc = 0;

	if (!dir)
		return -1;
	of = xcalloc((size_t)n + 1, sizeof *of);
	for (int i = 0; i < n; i++)
		of[i] = (char *)sampler_feature(names[i]);
	if (slice_for_samples(t, of, n, &s, err) < 0) {
		free(of);
		free(dir);
		return -1;
	}
	t->seconds[T_SLICE] += now_seconds() - t0;
	rc = decide_each(t, &s, names, n, iteration, dir, 1, err);
	slicer_release(&s);
	free(of);
	free(dir);
	return rc;
}

/* Decides the features names[0..n): the program's (decide_program), then the sampled ones
 * (decide_sampled). Returns 0, or -1 with err set. */
static int decide(struct trainer *t, char **names, int n, int iteration, struct error *err)
{
	char **program = xcalloc((size_t)n + 1, sizeof *program);
	char **sampled = xcalloc((size_t)n + 1, sizeof *sampled);
	int np = 0, ns = 0, rc = 0;

	for (int i = 0; i < n; i++) {
		if (sampler_feature(names[i]))
			sampled[ns++] = names[i];
		else
			program[np++] = names[i];
	}
	if (np > 0)
		rc = decide_program(t, program, np, iteration, err);
	if (rc == 0 && ns > 0)
		rc = decide_sampled(t, sampled, ns, iteration, err);
	free(program);
	free(sampled);
	return rc;
}

/* ---- the unstable screen ------------------------------------------------------------------ */

/* The rejections reject_unstable prints (train.json rejected_before_slicing has them all). */
#define UNSTABLE_SHOWN 8

/*
 * Rejects, before any slicing, every feature of the dataset (or sampled copy of one) that took
 * two values on two runs of the instrumented build on one input (the recheck runs, profile.h):
 * a clock reading, an address or a random value, which fits a time in-sample and which no
 * evaluator computes again (lz4's timeLength_s and cpuEnd were each chosen, sliced and rejected
 * as not validated, one round after another). Features decided already are left alone, so the
 * call is repeated after sampled features are added again. Returns how many it rejected.
 * Requires the dataset with its sampled columns, and t->unstable from the profile.
 */
static int reject_unstable(struct trainer *t)
{
	int rejected = 0;

	for (int j = 0; j < t->ds.p; j++) {
		const char *name = t->ds.names[j], *base = sampler_feature(name);
		struct decision *d;

		for (int u = 0; u < t->nunstable; u++) {
			const struct store_unstable *s = &t->unstable[u];

			if (strcmp(base ? base : name, t->m.v[s->feature].name) != 0 || decided(t, name))
				continue;
			d = add_decision(t, name, 0);
			d->reason = xasprintf("unstable: input line %d gave %.17g, then %.17g on a second "
					      "run of the instrumented build (a clock, an address or a "
					      "random value: no evaluator computes it again)", s->line,
					      s->first, s->second);
			if (++rejected <= UNSTABLE_SHOWN)
				say(t, "  %-50s rejected: %s\n", name, d->reason);
			break;
		}
	}
	return rejected;
}

/* ---- the static screen -------------------------------------------------------------------- */

/*
 * Rejects, before any slicing, the features no evaluator can compute cheaply: an evaluator
 * executes at least the increments of the feature's block counters (the counters of the total
 * instruction count bycount:(program):-:0:total), so their entries over the program's dynamic
 * instructions, averaged over the inputs, bound its cost from below (an instruction per entry).
 * Without the bycount scheme nothing is screened. Returns how many were rejected.
 */
static int screen(struct trainer *t)
{
	int total = manifest_find(&t->m, MANIFEST_INSTRUCTIONS), rejected = 0;
	unsigned char *is_block = xcalloc((size_t)t->m.ncounters + 1, 1);
	double *insts;

	t->is_block = is_block;
	if (total < 0)
		return 0;
	for (int i = 0; i < t->m.v[total].nterms; i++)
		is_block[t->m.v[total].terms[i].counter] = 1;
	insts = xmalloc(sizeof *insts * (size_t)(t->samples.n + 1));
	for (int k = 0; k < t->samples.n; k++) /* a sum over every block: once per input */
		insts[k] = feature_value(&t->m.v[total], t->samples.counters[k]);
	for (int j = 0; j < t->ds.p; j++) {
		int f = manifest_find(&t->m, t->ds.names[j]);
		double bound = 0;
		struct decision *d;

		if (f < 0)
			continue;
		for (int k = 0; k < t->samples.n; k++) {
			double entries = 0;

			for (int i = 0; i < t->m.v[f].nterms; i++) {
				int c = t->m.v[f].terms[i].counter;

				if (is_block[c])
					entries += (double)t->samples.counters[k][c];
			}
			bound += entries / (insts[k] > 1 ? insts[k] : 1) / t->samples.n;
		}
		if (bound <= t->opt->threshold)
			continue;
		d = add_decision(t, t->ds.names[j], 0);
		d->cost = bound;
		d->reason = xasprintf("static: its counters are updated %.1f%% as often as the program "
				      "executes an instruction, so an evaluator costs at least that",
				      100 * bound);
		d->expensive = 1;
		rejected++;
	}
	free(insts);
	say(t, "screen: %d of %d features rejected before slicing (their counters alone cost more "
	    "than the threshold)\n", rejected, t->ds.p);
	return rejected;
}

/* Returns whether column j of the dataset takes more than one value. */
static int varies(const struct dataset *ds, int j)
{
	const double *x = ds->x + (size_t)j * (size_t)ds->n;

	for (int i = 1; i < ds->n; i++) {
		if (x[i] != x[0])
			return 1;
	}
	return 0;
}

/* Returns |the correlation of column j with the metric| (0 when either is constant). */
static double metric_correlation(const struct dataset *ds, int j)
{
	const double *x = ds->x + (size_t)j * (size_t)ds->n;
	double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;

	for (int i = 0; i < ds->n; i++) {
		mx += x[i] / ds->n;
		my += ds->y[i] / ds->n;
	}
	for (int i = 0; i < ds->n; i++) {
		sxy += (x[i] - mx) * (ds->y[i] - my);
		sxx += (x[i] - mx) * (x[i] - mx);
		syy += (ds->y[i] - my) * (ds->y[i] - my);
	}
	return sxx > 0 && syy > 0 ? fabs(sxy) / sqrt(sxx * syy) : 0;
}

/* A column by its correlation with the metric, for sorting. */
struct ranked {
	double r; /* |correlation| */
	int j;    /* the column */
};

static int more_correlated(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->r != y->r)
		return x->r > y->r ? -1 : 1;
	return (x->j > y->j) - (x->j < y->j);
}

/* The training inputs whose runs, snapshot as they grow, tell how far into a run a variable
 * gets its first value (first_shares). */
#define FIRST_SHARE_RUNS 3

/*
 * Fills t->first with the features of s that are first values (slicer_first_value), each
 * with the share of the program's work done when its variable has it: the instructions the
 * program executed by the first snapshot where the variable's assignments reach the value's
 * number, over the run's (slicer_block_sizes times the counters), the mean over those of
 * FIRST_SHARE_RUNS runs of DIR/inst on the training inputs at the half, three quarters and
 * nine tenths of their times (the longer runs, whose 50 snapshots are the finer) that assign
 * it; and 1, the whole run, on the training inputs that never assign it (the profile's count
 * of assignments), where the evaluator runs to the end. Why: such a feature's evaluator stops
 * there (slicer_write), so its cost is that share, where slicer_estimate, which counts the
 * whole run, rejects every one of them (the static slice keeps all that might assign the
 * variable again: djpeg's image width, set while the header is read, at 103% of the run).
 * Runs that fail are left out.
 */
static void first_shares(struct trainer *t, const struct slicer *s)
{
	static const double quantile[FIRST_SHARE_RUNS] = {0.5, 0.75, 0.9};
	struct snapshots snap[FIRST_SHARE_RUNS];
	double *size, *done[FIRST_SHARE_RUNS];
	char *inst = xasprintf("%s/inst", t->build);
	int nsnap = 0, *count = xcalloc((size_t)s->nfeatures + 1, sizeof *count), any = 0;
	int *k = xcalloc((size_t)s->nfeatures + 1, sizeof *k);

	for (int i = 0; i < s->nfeatures; i++)
		any |= (k[i] = slicer_first_value(&s->m, s->feature[i], &count[i])) > 0;
	size = any && t->samples.n > 0 ? slicer_block_sizes(s) : NULL;
	for (int r = 0; size && r < FIRST_SHARE_RUNS; r++) {
		int j = t->by_time[(int)(quantile[r] * (t->samples.n - 1) + 0.5)];
		struct error err = {""};

		if (snapshots_take(inst, &t->m, t->input[j], t->samples.wall[j], 50, &snap[nsnap],
				   &err) < 0) {
			say(t, "estimate: no snapshots of input line %d: %s\n", t->input[j]->line, err.msg);
			continue;
		}
		done[nsnap] = xcalloc((size_t)snap[nsnap].n + 1, sizeof *done[nsnap]);
		for (int i = 0; i < snap[nsnap].n; i++) {
			for (int c = 0; c < s->m.ncounters; c++)
				done[nsnap][i] += size[c] * (double)snap[nsnap].counters[i][c];
		}
		nsnap++;
	}
	for (int i = 0; nsnap > 0 && i < s->nfeatures; i++) {
		double share = 0, early = 0, unassigned = 0;
		int seen = 0;

		if (k[i] == 0)
			continue;
		for (int r = 0; r < nsnap; r++) {
			int at = snapshots_first_reaching(&snap[r], count[i], (uint64_t)k[i]);
			double all = done[r][snap[r].n - 1];

			if (at >= 0 && all > 0) {
				early += done[r][at] / all;
				seen++;
			}
		}
		for (int j = 0; j < t->samples.n; j++)
			unassigned += t->samples.counters[j][count[i]] < (uint64_t)k[i];
		unassigned /= t->samples.n;
		share = unassigned + (1 - unassigned) * (seen > 0 ? early / seen : 1);
		t->first = xrealloc(t->first, sizeof *t->first * (size_t)(t->nfirst + 1));
		t->first[t->nfirst++] = (struct first_share){xstrdup(s->m.v[s->feature[i]].name), share};
	}
	for (int r = 0; r < nsnap; r++) {
		snapshots_release(&snap[r]);
		free(done[r]);
	}
	free(size);
	free(count);
	free(k);
	free(inst);
}

/*
 * Rejects, before the first fit, features that vary over the inputs and whose slice is
 * estimated to cost more than ESTIMATE_MARGIN times the threshold (slicer_estimate): one graph
 * for all of them, one reachability each, nothing built or run; the most correlated with the
 * metric first, for ESTIMATE_SECONDS at most. A reachability stops as soon as the weight of
 * what it marked (slicer_weights, a lower bound of the estimate) passes the limit: most
 * features of a large program lie in its hot loops and are rejected after a small part of
 * their slice. Returns how many were rejected, or -1 with err set.
 */
static int estimate_all(struct trainer *t, struct error *err)
{
	char **names = xcalloc((size_t)t->ds.p + 1, sizeof *names);
	struct ranked *order = xcalloc((size_t)t->ds.p + 1, sizeof *order);
	struct slicer s;
	int n = 0, rejected = 0, done = 0, stopped = 0, early = 0;
	double t0 = now_seconds(), t1, *weight;

	for (int j = 0; j < t->ds.p; j++) {
		if (varies(&t->ds, j) && !decided(t, t->ds.names[j]) &&
		    needs_evaluator(t->ds.names[j]))
			order[n++] = (struct ranked){metric_correlation(&t->ds, j), j};
	}
	qsort(order, (size_t)n, sizeof *order, more_correlated);
	for (int i = 0; i < n; i++)
		names[i] = t->ds.names[order[i].j];
	free(order);
	if (n == 0 || slicer_init(&s, t->build, names, n, t->samples.counters, t->samples.n, err) < 0) {
		free(names);
		return n == 0 ? 0 : -1;
	}
	weight = slicer_weights(&s, t->samples.counters, t->samples.n);
	first_shares(t, &s);
	t1 = now_seconds();
	for (int i = 0; i < n && now_seconds() - t1 < ESTIMATE_SECONDS; i++, done++) {
		unsigned char *mark = xcalloc((size_t)s.sdg.n, 1);
		struct sdg_bound bound = {weight, ESTIMATE_MARGIN * t->opt->threshold, 0};
		struct decision d = {.name = names[i]};

		if (first_share_of(t, names[i]) <= bound.limit) {
			free(mark);
			early++;
			continue;
		}
		d.kept = slicer_mark_within(&s, &i, 1, mark, weight ? &bound : NULL);
		if (bound.sum > bound.limit) {
			d.cost = bound.sum;
			d.reason = xasprintf("estimated cost over %.1f%% (the slice's instructions "
					     "times the profile's block entries, counted until they "
					     "passed %g times the threshold %g%%)", 100 * bound.sum,
					     (double)ESTIMATE_MARGIN, 100 * t->opt->threshold);
			stopped++;
		}
		if (d.reason || estimated_too_costly(t, &s, mark, &d)) {
			struct decision *r = add_decision(t, names[i], 0);

			r->cost = d.cost;
			r->expensive = 1;
			r->reason = d.reason;
			r->kept = d.kept;
			r->total = s.sdg.ninsts;
			rejected++;
		}
		free(mark);
	}
	free(weight);
	slicer_release(&s);
	free(names);
	t->seconds[T_SLICE] += now_seconds() - t0;
	say(t, "estimate: %d of %d varying features rejected by their slice's estimated cost "
	    "(%d estimated, the most correlated with the metric first, %d of them stopped once "
	    "over; first values within it, whose evaluators stop once assigned: %d; %.1f s)\n",
	    rejected, n, done, stopped, early, now_seconds() - t0);
	return rejected;
}

/* ---- the loop ----------------------------------------------------------------------------- */

/* Fits a model on the training profile with fo, adding the time to the model step. Returns 0,
 * or -1 with err set. */
static int fit_with(struct trainer *t, const struct fit_options *fo, struct model *model,
		    struct error *err)
{
	struct prep pr;
	double t0 = now_seconds();
	int rc = fit_model(&t->ds, fo, model, &pr, err);

	if (rc == 0)
		prep_release(&pr);
	t->seconds[T_MODEL] += now_seconds() - t0;
	return rc;
}

/* Fits the model at the given degree without the features excluded[0..nexcluded). */
static int fit_at(struct trainer *t, int degree, char **excluded, int nexcluded,
		  struct model *model, struct error *err)
{
	struct fit_options fo = t->opt->fit;

	fo.degree = degree;
	fo.exclude = excluded;
	fo.nexclude = nexcluded;
	return fit_with(t, &fo, model, err);
}

/* Returns whether every block counter (with a non-zero coefficient) of feature g is one of f's,
 * and g has one. */
static int blocks_within(const struct trainer *t, const struct feature *g, const struct feature *f)
{
	int any = 0;

	for (int i = 0; i < g->nterms; i++) {
		int c = g->terms[i].counter, found = 0;

		if (!t->is_block[c] || g->terms[i].coef == 0)
			continue;
		any = 1;
		for (int j = 0; j < f->nterms && !found; j++)
			found = f->terms[j].counter == c && f->terms[j].coef != 0;
		if (!found)
			return 0;
	}
	return any;
}

/*
 * Rejects the undecided feature name without slicing it when the blocks of a feature rejected
 * for its cost are all among its own: its evaluator has to count their entries too, so it costs
 * at least as much. Returns 1 if it was rejected.
 */
static int reject_dominated(struct trainer *t, const char *name, int iteration)
{
	int f = manifest_find(&t->m, name);

	for (int i = 0; f >= 0 && i < t->ndec; i++) {
		int g = manifest_find(&t->m, t->dec[i].name);
		struct decision *d;
		char *reason;

		if (!t->dec[i].expensive || g < 0 || !blocks_within(t, &t->m.v[g], &t->m.v[f]))
			continue;
		reason = xasprintf("counts every block %s counts, which was rejected (%s)",
				   t->dec[i].name, t->dec[i].reason);
		d = add_decision(t, name, iteration);
		d->expensive = 1;
		d->reason = reason;
		say(t, "  %-50s rejected: %s\n", name, reason);
		return 1;
	}
	return 0;
}

/* Fills *names (owned array, borrowed strings) with the rejected features, and every sampled
 * feature while exact_loop runs or once they are dropped; returns how many. */
static int rejected_names(const struct trainer *t, char ***names)
{
	int n = 0;

	*names = xcalloc((size_t)t->ndec + (size_t)t->ds.p + 1, sizeof **names);
	for (int i = 0; i < t->ndec; i++) {
		if (!t->dec[i].accepted)
			(*names)[n++] = t->dec[i].name;
	}
	for (int j = 0; (t->exact_only || t->sampled_dropped) && j < t->ds.p; j++) {
		if (sampler_feature(t->ds.names[j]))
			(*names)[n++] = t->ds.names[j];
	}
	return n;
}

/* Fills *names with every dataset feature not accepted (the fallback's exclusions): the
 * program's undecided or rejected ones (input features need no evaluator), and every sampled
 * one while exact_loop runs or once they are dropped. */
static int unaccepted_names(const struct trainer *t, char ***names)
{
	int n = 0;

	*names = xcalloc((size_t)t->ds.p + 1, sizeof **names);
	for (int j = 0; j < t->ds.p; j++) {
		const struct decision *d = decided(t, t->ds.names[j]);

		if (((!d || !d->accepted) && descriptor_find(t->ds.names[j]) < 0) ||
		    ((t->exact_only || t->sampled_dropped) && sampler_feature(t->ds.names[j])))
			(*names)[n++] = t->ds.names[j];
	}
	return n;
}

/* Accepts the input feature name in round iteration: nothing to slice, it costs no evaluator. */
static void accept_input_feature(struct trainer *t, const char *name, int iteration)
{
	struct decision *d = add_decision(t, name, iteration);

	d->accepted = 1;
	d->validated = 1;
	say(t, "  %-50s accepted: read off the input, no evaluator\n", name);
}

/* Fills *names with the model's undecided features and their exact copies (up to
 * max_aliases each), borrowed from model, rejecting the dominated ones on the way (see
 * reject_dominated) and accepting the input features; returns how many are left to slice. */
static int undecided_names(struct trainer *t, const struct model *model, int iteration,
			   char ***names)
{
	int n = 0, cap = 0;

	*names = NULL;
	for (int f = 0; f < model->nfeatures; f++) {
		const struct model_feature *mf = &model->features[f];

		if (decided(t, mf->name))
			continue;
		if (descriptor_find(mf->name) >= 0) {
			accept_input_feature(t, mf->name, iteration);
			continue;
		}
		for (int a = -1; a < mf->naliases && a < t->opt->max_aliases; a++) {
			char *name = a < 0 ? mf->name : mf->aliases[a].name;
			const char *of = sampler_feature(name);

			if (decided(t, name) || manifest_find(&t->m, of ? of : name) < 0 ||
			    (!of && reject_dominated(t, name, iteration)))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 16;
				*names = xrealloc(*names, sizeof **names * (size_t)cap);
			}
			(*names)[n++] = name;
		}
	}
	return n;
}

/* Returns whether a dataset feature other than excluded[0..n) takes more than one value. */
static int varies_besides(const struct trainer *t, char **excluded, int n)
{
	for (int j = 0; j < t->ds.p; j++) {
		int out = 0;

		for (int i = 0; i < n && !out; i++)
			out = strcmp(excluded[i], t->ds.names[j]) == 0;
		if (!out && varies(&t->ds, j))
			return 1;
	}
	return 0;
}

/* Fills *model with the constant model: the median of the training metric, no feature. */
static void constant_model(const struct trainer *t, struct model *model)
{
	double *y = xcalloc((size_t)t->ds.n + 1, sizeof *y), mre = 0;

	memcpy(y, t->ds.y, sizeof *y * (size_t)t->ds.n);
	memset(model, 0, sizeof *model);
	model->algorithm = xstrdup("constant");
	model->metric = xstrdup(t->ds.metric);
	model->fit = xstrdup(t->opt->fit.relative ? "relative" : "absolute");
	model->degree = t->opt->fit.degree;
	model->intercept = median(y, t->ds.n);
	for (int i = 0; i < t->ds.n; i++)
		mre += fabs(t->ds.y[i] - model->intercept) / fabs(t->ds.y[i]) / t->ds.n;
	model->ntrain = t->ds.n;
	model->train_mre = mre;
	model->test_mre = NAN;
	free(y);
}

/* Returns whether every feature the model reads is accepted. */
static int all_accepted(const struct trainer *t, const struct model *model)
{
	for (int f = 0; f < model->nfeatures; f++) {
		const struct decision *d = decided(t, model->features[f].name);

		if (!d || !d->accepted)
			return 0;
	}
	return 1;
}

/* Appends one round to the log. */
static void log_iteration(struct trainer *t, int iteration, const struct model *model)
{
	json_t *it = json_object(), *feats = json_array(), *decs = json_array();
	struct strbuf sb = {0};

	model_format(model, &sb);
	for (int f = 0; f < model->nfeatures; f++)
		json_array_append_new(feats, json_string(model->features[f].name));
	for (int i = 0; i < t->ndec; i++) {
		const struct decision *d = &t->dec[i];
		json_t *o;

		if (d->iteration != iteration)
			continue;
		o = json_object();
		json_object_set_new(o, "name", json_string(d->name));
		json_object_set_new(o, "accepted", json_boolean(d->accepted));
		json_object_set_new(o, "validated", json_boolean(d->validated));
		json_object_set_new(o, "cost", json_real(d->cost));
		if (d->in_process)
			json_object_set_new(o, "in_process", json_true());
		json_object_set_new(o, "inputs", json_integer(d->ninputs));
		json_object_set_new(o, "kept", json_integer(d->kept));
		json_object_set_new(o, "total", json_integer(d->total));
		if (d->reason)
			json_object_set_new(o, "reason", json_string(d->reason));
		json_array_append_new(decs, o);
	}
	json_object_set_new(it, "iteration", json_integer(iteration));
	json_object_set_new(it, "model", json_string(sb.buf));
	json_object_set_new(it, "train_mre", json_real(model->train_mre));
	json_object_set_new(it, "features", feats);
	json_object_set_new(it, "decisions", decs);
	if (t->exact_only) /* a round of exact_loop */
		json_object_set_new(it, "exact", json_true());
	json_array_append_new(t->iterations, it);
	strbuf_release(&sb);
}

/*
 * Returns the way of t->trials to sample in once the kept way's features, judged at least
 * least (all in process when hosted), cost more than the threshold, or -1: sampler_cheaper,
 * by share where they ran hosted (sampler_cheaper_share). Fills *budget with the most a way's
 * trial may cost and *share with the most share it may take (each 0 where the other bounds).
 */
static int cheaper_way(const struct trainer *t, double least, int hosted, double *budget,
		       double *share)
{
	*budget = *share = 0;
	if (hosted)
		return sampler_cheaper_share(t->trials, t->ntrials, t->kept_trial, least,
					     t->opt->threshold, share);
	return sampler_cheaper(t->trials, t->ntrials, t->kept_trial, least, t->opt->threshold,
			       budget);
}

/*
 * Drops every sampled feature (t->sampled_dropped) when sampler_give_up says so of those judged
 * on the way kept (sample_cheaper forgets the decisions of the way before): none accepted once
 * SAMPLER_GIVE_UP_TRIES cost too much, their cost has a floor the slices cannot go under, the
 * program's own fixed work (start-up, set-up) run twice, on two samples (lame's encoder sets
 * up in about 6 ms a run; the loop judged 135 sampled features at 7-23% against a 5%
 * threshold in 20 rounds and 48 minutes, and kept none); or the too costly outnumber the
 * accepted and a cheaper way is among the trials (encryptor at 256 KiB: one accepted in round
 * 1 kept the way 20 rounds, 98 judged at a median 32-42%, 24.1% off; the run that gave it up
 * in round 3 kept 8 KiB, 11.1%). Logs why in round iteration.
 */
static void give_up_sampled(struct trainer *t, int iteration)
{
	int costly = 0, accepted = 0, hosted = 1, cheaper;
	double least = INFINITY, budget, share;

	for (int i = 0; i < t->ndec; i++) {
		const struct decision *d = &t->dec[i];

		if (!sampler_feature(d->name))
			continue;
		accepted += d->accepted;
		if (d->expensive && d->validated) {
			costly++;
			least = fmin(least, d->cost);
			hosted &= d->in_process;
		}
	}
	if (t->sampled_dropped || t->exact_only)
		return;
	hosted = hosted && costly > 0;
	cheaper = cheaper_way(t, least, hosted, &budget, &share) >= 0;
	if (!sampler_give_up(costly, accepted, cheaper))
		return;
	t->sampled_dropped = 1;
	t->dropped_least = least;
	t->dropped_hosted = hosted;
	if (accepted == 0)
		say(t, "sampled features: left out from round %d on: the %d judged all cost more than "
		    "the threshold (the least %.1f%%: the program's fixed work, run on two samples)\n",
		    iteration + 1, costly, 100 * least);
	else
		say(t, "sampled features: left out from round %d on: %d judged cost more than the "
		    "threshold (the least %.1f%%) against %d accepted, and the trials have a cheaper "
		    "way\n",
		    iteration + 1, costly, 100 * least, accepted);
	json_object_set_new(t->sampling, "dropped", json_pack("{s:i, s:i, s:i, s:f}", "round",
							       iteration + 1, "judged", costly,
							       "accepted", accepted, "least_cost",
							       least));
}

/*
 * The feedback loop from round first on: leaves in *model the last model, every feature of
 * which is accepted. Returns the number of the last round, or -1 with err set.
 */
static int feedback_loop(struct trainer *t, struct model *model, int first, struct error *err)
{
	int iteration, done = 0;

	for (iteration = first; !done; iteration++) {
		char **excluded, **names;
		int nexcluded = rejected_names(t, &excluded), n, rc;
		struct strbuf sb = {0};

		if (iteration > t->opt->max_iterations) {
			free(excluded);
			nexcluded = unaccepted_names(t, &excluded);
			say(t, "iteration %d: %d rounds done; fitting on the %d accepted features only\n",
			    iteration, t->opt->max_iterations, t->ds.p - nexcluded);
			done = 1;
		}
		rc = fit_at(t, t->opt->fit.degree, excluded, nexcluded, model, err);
		if (rc < 0 && !varies_besides(t, excluded, nexcluded)) {
			constant_model(t, model);
			say(t, "no feature is left: the prediction is the training median\n");
			done = 1;
			rc = 0;
		}
		free(excluded);
		if (rc < 0)
			return -1;
		model_format(model, &sb);
		say(t, "iteration %d: %s (train MRE %.2f%%)\n", iteration, sb.buf, 100 * model->train_mre);
		strbuf_release(&sb);
		n = done ? 0 : undecided_names(t, model, iteration, &names);
		if (n > 0)
			rc = decide(t, names, n, iteration, err);
		if (n > 0)
			free(names);
		if (rc == 0)
			give_up_sampled(t, iteration);
		log_iteration(t, iteration, model);
		if (rc < 0)
			return -1;
		if (done || all_accepted(t, model))
			return iteration;
		model_release(model);
	}
	return iteration;
}

/* ---- the predictor ------------------------------------------------------------------------ */

/* Fills names[0..) with the model's features the evaluator computes (borrowed; input and
 * sampled features need none); returns how many. */
static int program_features(const struct model *model, char **names)
{
	int n = 0;

	for (int f = 0; f < model->nfeatures; f++) {
		if (needs_evaluator(model->features[f].name))
			names[n++] = model->features[f].name;
	}
	return n;
}

/* Returns how many of the model's features are sampled ones. */
static int count_sampled_features(const struct model *model)
{
	int n = 0;

	for (int f = 0; f < model->nfeatures; f++)
		n += sampler_feature(model->features[f].name) != NULL;
	return n;
}

/*
 * Judges the shared-object form of exe (exe.so, made by slicer_write with s->inproc, unless
 * s->solib_refusal says why not) on the inputs d ran on, run by t->opt->host, into t->hosted:
 * validated against the profile as judge validates, its warm and cold costs. One that does
 * not validate is removed. For the record only: d, the evaluator's own, decides.
 */
static void judge_hosted(struct trainer *t, const char *exe, const struct slicer *s,
			 const struct decision *d)
{
	char *so = xasprintf("%s.so", exe);
	int *order = judge_order(t), n = 0;
	struct hosted *h = &t->hosted;
	struct error err = {""};

	free(h->why_not);
	memset(h, 0, sizeof *h);
	if (s->solib_refusal)
		h->why_not = xstrdup(s->solib_refusal);
	for (int j = 0; j < d->ninputs && !h->why_not; j++) {
		int k = order[j];
		double wall = t->samples.wall[k], cold;
		struct run_result res;
		uint64_t *c = NULL;

		if (predictor_measure_hosted(t->opt->host, so, t->input[k], 2 + 3 * wall, &t->m, &res,
					     &cold, &c, &err) < 0)
			h->why_not = xstrdup(err.msg);
		else if (res.status != RUN_OK || !c)
			h->why_not = xasprintf("input line %d: %s", t->input[k]->line, res.status !=
					       RUN_OK ? runner_status_name(res.status)
						      : "it wrote no features");
		for (int i = 0; i < s->nfeatures && !h->why_not; i++) {
			const struct feature *f = &t->m.v[s->feature[i]];

			if (feature_value(f, c) != feature_value(f, t->samples.counters[k]))
				h->why_not = xasprintf("input line %d: %s is %.17g, the program's "
						       "%.17g", t->input[k]->line, f->name,
						       feature_value(f, c),
						       feature_value(f, t->samples.counters[k]));
		}
		free(c);
		if (wall < 1e-6)
			wall = 1e-6;
		h->cost += res.wall / wall;
		h->cold_cost += cold / wall;
		n++;
	}
	h->built = !h->why_not && n > 0;
	if (h->built) {
		h->cost /= n;
		h->cold_cost /= n;
	} else {
		if (!h->why_not)
			h->why_not = xstrdup("no input");
		unlink(so);
	}
	free(order);
	free(so);
}

/* Builds PRED/evaluator for the model's program features and judges it on every input into
 * *d (and its shared-object form, when t->opt->host is given, into t->hosted; with
 * t->opt->in_process, d's cost is then that form's). */
static int build_evaluator(struct trainer *t, const struct model *model, struct decision *d,
			   struct error *err)
{
	char **names = xcalloc((size_t)model->nfeatures + 1, sizeof *names);
	char *exe = xasprintf("%s/evaluator", t->opt->dir), *bc = xasprintf("%s/evaluator.bc", t->opt->dir);
	int *all = xcalloc((size_t)model->nfeatures + 1, sizeof *all), rc;
	int n = program_features(model, names);
	struct slicer s;
	unsigned char *mark;
	double t0 = now_seconds();

	for (int f = 0; f < n; f++)
		all[f] = f;
	rc = slicer_init(&s, t->build, names, n, t->samples.counters, t->samples.n, err);
	if (rc == 0) {
		mark = xcalloc((size_t)s.sdg.n, 1);
		d->total = s.sdg.ninsts;
		d->kept = slicer_mark(&s, all, n, mark);
		s.inproc = t->opt->host ? t->opt->inproc : NULL;
		rc = slicer_write(&s, mark, bc, exe, t->opt->slicert, err);
		t->seconds[T_SLICE] += now_seconds() - t0;
		t0 = now_seconds();
		d->in_process = 0; /* the executable, which mantis predict runs, validated */
		if (rc == 0)
			rc = judge(t, exe, s.feature, n, 0, d, err);
		if (rc == 0 && t->opt->host)
			judge_hosted(t, exe, &s, d);
		if (rc == 0 && t->opt->in_process && t->hosted.built) {
			d->cost = t->hosted.cost; /* what mantis serve pays */
			d->in_process = 1;
		}
		t->seconds[T_JUDGE] += now_seconds() - t0;
		free(mark);
		slicer_release(&s);
	}
	if (rc == 0 && !d->validated)
		rc = error_set(err, "the evaluator of the final model's features is unsound: %s",
			       d->reason);
	free(names);
	free(all);
	free(exe);
	free(bc);
	return rc;
}

/* Writes PRED/train.json: the program, the inputs file (absolute), the steps' times, the early
 * rejections, the loop's rounds and the final evaluator. */
static int write_log(struct trainer *t, const struct model *model, const struct decision *final,
		     struct error *err)
{
	static const char *const steps[] = {"build", "profile", "model", "slice", "judge"};
	char *path = xasprintf("%s/train.json", t->opt->dir);
	json_t *root = json_object(), *times = json_object(), *program = json_array(), *fin;
	json_t *early = json_array();
	struct strbuf sb = {0};
	char *inputs = realpath(t->opt->inputs, NULL);
	int rc = 0;

	for (int i = 0; i < t->ndec; i++) {
		if (t->dec[i].iteration == 0)
			json_array_append_new(early, json_pack("{s:s, s:f, s:s}", "name", t->dec[i].name,
							       "cost", t->dec[i].cost, "reason",
							       t->dec[i].reason));
	}

	for (int i = 0; i < t->opt->nwords; i++)
		json_array_append_new(program, json_string(t->opt->words[i]));
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++)
		json_object_set_new(times, steps[i], json_real(t->seconds[i]));
	model_format(model, &sb);
	fin = json_pack("{s:s, s:f, s:i, s:i, s:b, s:i}", "model", sb.buf, "cost", final->cost,
			"kept", final->kept, "total", final->total, "validated", final->validated,
			"inputs", final->ninputs);
	if (final->in_process)
		json_object_set_new(fin, "in_process", json_true());
	json_object_set_new(root, "program", program);
	json_object_set_new(root, "inputs", json_string(inputs ? inputs : t->opt->inputs));
	json_object_set_new(root, "metric", json_string(t->opt->metric));
	json_object_set_new(root, "threshold", json_real(t->opt->threshold));
	if (t->opt->in_process)
		json_object_set_new(root, "in_process", json_true());
	json_object_set_new(root, "seconds", times);
	json_object_set_new(root, "rejected_before_slicing", early);
	json_object_set_new(root, "iterations", json_incref(t->iterations));
	json_object_set_new(root, "final", fin);
	if (t->choice)
		json_object_set_new(root, "choice", json_incref(t->choice));
	if (t->sampling)
		json_object_set_new(root, "sampling", json_incref(t->sampling));
	if (t->gating)
		json_object_set_new(root, "gate", json_incref(t->gating));
	if (t->opt->only_lines) { /* a gated predictor: the lines of the inputs file it trained on */
		json_t *lines = json_array();

		for (int i = 0; i < t->opt->nonly_lines; i++)
			json_array_append_new(lines, json_integer(t->opt->only_lines[i]));
		json_object_set_new(root, "lines", lines);
	}
	if (json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	strbuf_release(&sb);
	free(inputs);
	free(path);
	return rc;
}

/* Returns how many of the model's features are the program's (an evaluator computes them). */
static int count_program_features(const struct model *model)
{
	char **names = xcalloc((size_t)model->nfeatures + 1, sizeof *names);
	int n = program_features(model, names);

	free(names);
	return n;
}

/* Returns the program features the model's sampled features extrapolate, in *names (owned
 * array, borrowed names); returns how many. */
static int sampled_underlying(const struct model *model, char ***names)
{
	int n = 0;

	*names = xcalloc((size_t)model->nfeatures + 1, sizeof **names);
	for (int f = 0; f < model->nfeatures; f++) {
		const char *of = sampler_feature(model->features[f].name);
		int seen = 0;

		for (int i = 0; of && i < n && !seen; i++)
			seen = strcmp((*names)[i], of) == 0;
		if (of && !seen)
			(*names)[n++] = (char *)of;
	}
	return n;
}

/* Removes exe.so. */
static void unlink_so(const char *exe)
{
	char *so = xasprintf("%s.so", exe);

	unlink(so);
	free(so);
}

/*
 * Judges the shared-object form of the sampled evaluator exe (exe.so, when slicing built one)
 * hosted by t->opt->host on every training input's samples, as judge_sampled judges exe (the
 * features feats[0..nf)), into t->sampled_hosted (validated on every input) and
 * t->sampled_hosted_cost; with t->opt->in_process, each input's cost into t->sampled_each.
 * Returns 0, or -1 with err set.
 */
static int judge_sampled_hosted(struct trainer *t, const char *exe, const int *feats, int nf,
				struct error *err)
{
	struct decision h = {.in_process = 1};
	double *each = xcalloc((size_t)t->samples.n + 1, sizeof *each);
	int rc = judge_sampled(t, exe, feats, nf, SAMPLER_REPS, 0, &h, each, err);

	t->sampled_hosted = rc == 0 && h.in_process && h.validated && h.ninputs == t->samples.n;
	t->sampled_hosted_cost = h.cost;
	if (t->sampled_hosted && t->opt->in_process)
		memcpy(t->sampled_each, each, (size_t)t->samples.n * sizeof *each);
	free(each);
	free(h.reason);
	return rc;
}

/*
 * Builds PRED/sampled-evaluator, the slice of the features the model's sampled features
 * extrapolate (slice_for_samples), judges it on every training input's samples (SAMPLER_REPS
 * runs each) and adds its cost to final->cost; where it does not validate, the samples run
 * DIR/sandboxed, which counts every feature (its cost then). Returns 0, or -1 with err set.
 */
static int final_sampled_evaluator(struct trainer *t, const struct model *model,
				   struct decision *final, struct error *err)
{
	char **names, *exe = xasprintf("%s/sampled-evaluator", t->opt->dir);
	char *bc = xasprintf("%s.bc", exe);
	int n = sampled_underlying(model, &names), rc;
	struct decision d = {0};
	struct slicer s;
	double t0 = now_seconds();

	free(t->sampled_each);
	t->sampled_each = xcalloc((size_t)t->samples.n + 1, sizeof *t->sampled_each);
	rc = slice_for_samples(t, names, n, &s, err);
	if (rc == 0) {
		unsigned char *mark = xcalloc((size_t)s.sdg.n, 1);
		int *all = xcalloc((size_t)n + 1, sizeof *all);
		struct error werr = {""};

		for (int i = 0; i < n; i++)
			all[i] = i;
		d.total = s.sdg.ninsts;
		d.kept = slicer_mark(&s, all, n, mark);
		s.inproc = t->opt->host ? t->opt->inproc : NULL;
		if (slicer_write(&s, mark, bc, exe, t->opt->slicert, &werr) < 0)
			d.reason = xasprintf("no evaluator: %s", werr.msg);
		t->seconds[T_SLICE] += now_seconds() - t0;
		t0 = now_seconds();
		if (!d.reason)
			rc = judge_sampled(t, exe, s.feature, n, SAMPLER_REPS, 0, &d,
					   t->sampled_each, err);
		if (rc == 0 && d.validated && d.ninputs == t->samples.n)
			rc = judge_sampled_hosted(t, exe, s.feature, n, err);
		t->seconds[T_JUDGE] += now_seconds() - t0;
		free(mark);
		free(all);
		slicer_release(&s);
	}
	if (rc == 0) {
		t->sampled_sliced = d.validated && d.ninputs == t->samples.n;
		t->sampled_cost = t->sampled_sliced ? d.cost : t->sandboxed_cost;
		if (t->sampled_sliced && t->sampled_hosted && t->opt->in_process)
			t->sampled_cost = t->sampled_hosted_cost; /* what mantis serve pays */
		for (int k = 0; !t->sampled_sliced && k < t->samples.n; k++)
			t->sampled_each[k] = t->sampled[k].ok ? t->sampled[k].seconds /
				fmax(t->samples.wall[k], 1e-6) : INFINITY;
		final->cost += t->sampled_cost;
		if (t->sampled_sliced)
			say(t, "sampled evaluator: %d features, %d of %d instructions, cost %.2f%% on "
			    "the samples, validated on %d inputs\n", n, d.kept, d.total,
			    100 * d.cost, d.ninputs);
		if (t->sampled_sliced && t->sampled_hosted)
			say(t, "sampled evaluator in process (sampled-evaluator.so, which mantis serve "
			    "runs): validated, cost %.2f%% on the samples\n",
			    100 * t->sampled_hosted_cost);
		else
			say(t, "sampled evaluator: %s; the sandboxed program runs the samples, cost "
			    "%.2f%%\n", d.reason ? d.reason : "not validated", 100 * t->sandboxed_cost);
		json_object_set_new(t->sampling, "evaluator", json_pack("{s:b, s:f, s:i, s:i, s:s?}",
			"kept", t->sampled_sliced, "cost", d.cost, "kept_instructions", d.kept,
			"total_instructions", d.total, "reason", d.reason));
		if (t->sampled_hosted)
			json_object_set_new(json_object_get(t->sampling, "evaluator"),
					    "in_process_cost", json_real(t->sampled_hosted_cost));
		json_object_set_new(t->sampling, "cost", json_real(t->sampled_cost));
		say(t, "the predictor costs %.2f%% of the program's time\n", 100 * final->cost);
	}
	if (!t->sampled_sliced)
		unlink(exe);
	if (!t->sampled_sliced || !t->sampled_hosted)
		unlink_so(exe);
	unlink(bc);
	free(d.reason);
	free(names);
	free(exe);
	free(bc);
	return rc;
}

/* Returns the index of mf's alias that the larger sample reads as it is and that mf is a
 * multiple of on every training input (no offset: model_swap_alias), not rejected, or -1 when
 * it has none. */
static int larger_sample_copy(const struct trainer *t, const struct model_feature *mf)
{
	for (int a = 0; a < mf->naliases; a++) {
		const struct model_alias *al = &mf->aliases[a];
		const struct decision *d = decided(t, al->name);

		if (sampler_is_larger(al->name) && al->a == 0 && (!d || d->accepted) &&
		    manifest_find(&t->m, sampler_feature(al->name)) >= 0)
			return a;
	}
	return -1;
}

/*
 * Where the model reads sampled features, every prediction runs the samples anyway; a program
 * feature of the model with an exact copy on the larger sample (larger_sample_copy: a value the
 * arguments set, as bzip2's block size, which bzip2's count read beside four sampled features)
 * is read off that run instead, so that no evaluator, and no process start, is spent on it
 * (bzip2's evaluator of its block size alone: 2.0% of the program's 6.4%). The copy takes the
 * feature's place in the model (model_swap_alias: the same predictions), and is accepted;
 * final_sampled_evaluator's slice computes it and is judged with it.
 */
static void read_off_samples(struct trainer *t, struct model *model)
{
	if (count_sampled_features(model) == 0)
		return;
	for (int f = 0; f < model->nfeatures; f++) {
		struct model_feature *mf = &model->features[f];
		int a = needs_evaluator(mf->name) ? larger_sample_copy(t, mf) : -1;

		if (a < 0 || model_swap_alias(model, f, a) < 0)
			continue;
		if (!decided(t, mf->name)) {
			struct decision *d = add_decision(t, mf->name,
							   (int)json_array_size(t->iterations));

			d->accepted = d->validated = 1;
		}
		say(t, "evaluator: %s is read off the larger sample: it is %.6g * %s on every "
		    "training input\n", mf->aliases[a].name, 1 / mf->aliases[a].b, mf->name);
	}
}

/* Builds PRED/evaluator for the final model (none if it reads no program feature but those
 * read_off_samples moves to the samples) and judges it into *final. Returns 0 or -1 with err
 * set. */
static int final_evaluator(struct trainer *t, struct model *model, struct decision *final,
			   struct error *err)
{
	char *exe = xasprintf("%s/evaluator", t->opt->dir);
	char *bc = xasprintf("%s/evaluator.bc", t->opt->dir);
	char *sampled = xasprintf("%s/sampled-evaluator", t->opt->dir);
	char *so = xasprintf("%s/evaluator.so", t->opt->dir);
	int rc = 0, n;

	read_off_samples(t, model);
	n = count_program_features(model);
	unlink(exe);
	unlink(bc);
	unlink(sampled);
	unlink(so);
	free(so);
	free(t->hosted.why_not);
	memset(&t->hosted, 0, sizeof t->hosted);
	free(exe);
	free(bc);
	free(sampled);
	t->sampled_sliced = 0;
	t->sampled_hosted = 0;
	memset(final, 0, sizeof *final);
	if (n == 0) {
		final->validated = 1;
		say(t, "evaluator: none (%s)\n", !model->nfeatures
		    ? "the model reads no feature: every prediction is the same"
		    : count_sampled_features(model) ? "the model reads input and sampled features"
		    : "the model reads only input features, read off the input");
	} else {
		rc = build_evaluator(t, model, final, err);
		if (rc == 0)
			say(t, "evaluator: %d features, cost %.2f%% of the program's time%s, "
			    "validated on %d inputs\n", n, 100 * final->cost,
			    final->in_process ? " in process" : "", final->ninputs);
		if (rc == 0 && t->hosted.built)
			say(t, "evaluator in process (evaluator.so, which mantis serve runs): "
			    "validated, cost %.2f%% of the program's time (%.2f%% cold)\n",
			    100 * t->hosted.cost, 100 * t->hosted.cold_cost);
		else if (rc == 0 && t->hosted.why_not)
			say(t, "evaluator in process: none, %s\n", t->hosted.why_not);
	}
	if (rc == 0 && count_sampled_features(model) > 0)
		rc = final_sampled_evaluator(t, model, final, err);
	return rc;
}

/* Returns whether name is one of the model's features or an accepted exact copy of one. */
static int in_model_or_copy(const struct trainer *t, const struct model *model, const char *name)
{
	const struct decision *d = decided(t, name);

	for (int f = 0; f < model->nfeatures; f++) {
		const struct model_feature *mf = &model->features[f];

		if (strcmp(mf->name, name) == 0)
			return 1;
		for (int a = 0; a < mf->naliases && d && d->accepted; a++) {
			if (strcmp(mf->aliases[a].name, name) == 0)
				return 1;
		}
	}
	return 0;
}

/* Returns whether name is one of the model's features other than except. */
static int in_model_besides(const struct model *model, const char *name, const char *except)
{
	for (int f = 0; f < model->nfeatures; f++) {
		if (strcmp(model->features[f].name, name) == 0)
			return strcmp(name, except) != 0;
	}
	return 0;
}

/*
 * When the final evaluator costs more than the threshold though each feature's own did not
 * (slices of several features add up: findmaxima's two features, 3-4% each, cost 8.2%
 * together), rejects in round iteration the model's accepted feature whose rejection saves the
 * most (sampler_rejection: a sampled one saves nothing while another of the model's is
 * sampled), and with it every accepted feature outside the rest of the model that costs more
 * than the room the rest leaves (threshold - (joint cost - the saving)): its copies and other
 * stand-ins, which the next fit would pick one by one; a sampled one adds nothing while the
 * rest reads sampled features. Never a feature of keep (NULL: none) or an accepted copy of
 * one (read_off_samples moved it to the samples in keep). Why the saving: on
 * bzip2's count the model read the block size (1.3%) and four sampled features (4.0-4.8%
 * alone, 4.1% together: one runs on the samples), together 5.3-6.1%; the costliest alone was
 * always a sampled feature, whose rejection saved nothing, and the loop rejected one a round
 * for 14 rounds, from 1.2% cross-validated to 4.7%; at a threshold of 3% on one profile, 12
 * rounds and 2.62% against 4 rounds and 1.07% (bench/RESULTS.md, session 24). Returns 1 if it
 * rejected any, else 0.
 */
static int reject_for_cost(struct trainer *t, const struct model *model,
			   const struct decision *final, int iteration, const struct model *keep)
{
	struct sampler_cost *c;
	struct decision *worst;
	double room, saving;
	int n = 0, w, rest_sampled;

	if (model->nfeatures == 0 || final->cost <= t->opt->threshold)
		return 0;
	c = xcalloc((size_t)model->nfeatures, sizeof *c);
	for (int f = 0; f < model->nfeatures; f++) {
		struct decision *d = decided(t, model->features[f].name);

		c[f].cost = d ? d->cost : 0;
		c[f].sampled = sampler_feature(model->features[f].name) != NULL;
		c[f].eligible = d && d->accepted && !(keep && in_model_or_copy(t, keep, d->name));
	}
	w = sampler_rejection(c, model->nfeatures, t->sampled_cost, &saving);
	free(c);
	if (w < 0)
		return 0;
	worst = decided(t, model->features[w].name);
	/* nothing saved (only sampled features, their runs alone over the threshold): they go one
	 * by one, and the room is reckoned as if their costs added up */
	room = t->opt->threshold - (final->cost - (saving > 0 ? saving : worst->cost));
	rest_sampled = count_sampled_features(model) - (sampler_feature(worst->name) != NULL) > 0;
	say(t, "the evaluator of the %d features together costs %.2f%%, over the threshold: "
	    "rejecting %s (%.2f%% alone, saving %.2f%%), and every stand-in over %.2f%%\n",
	    model->nfeatures, 100 * final->cost, worst->name, 100 * worst->cost, 100 * saving,
	    100 * room);
	for (int i = 0; i < t->ndec; i++) {
		struct decision *d = &t->dec[i];

		if (d != worst && rest_sampled && sampler_feature(d->name))
			continue; /* the runs on the samples are made anyway */
		if (!d->accepted || d->cost <= room || in_model_besides(model, d->name, worst->name) ||
		    (keep && in_model_or_copy(t, keep, d->name)))
			continue;
		d->accepted = 0;
		d->expensive = 1;
		d->iteration = iteration;
		free(d->reason);
		d->reason = xasprintf("with the final model's other features (together %.1f%% with "
				      "%s) it leaves %.1f%% of the threshold, and it costs %.1f%%",
				      100 * final->cost, worst->name, 100 * room, 100 * d->cost);
		n++;
	}
	return n > 0;
}

/* Writes the build's manifest cut to the n features names[] as dir/file. Returns 0 or -1 with
 * err set. */
static int write_cut(const struct trainer *t, const char *file, char *const *names, int n,
		     struct error *err)
{
	char *path = xasprintf("%s/%s", t->opt->dir, file);
	struct manifest m;
	int rc;

	manifest_subset(&t->m, names, n, &m);
	rc = manifest_write(&m, path, err);
	manifest_release(&m);
	free(path);
	return rc;
}

/* Writes PRED/features.json: the build's manifest cut to what a prediction reads (the model's
 * program features, those its sampled ones extrapolate), so that mantis predict does not read
 * the build's every feature; and for an instruction-count predictor PRED/instructions.json:
 * cut to what eval counts, the program's instruction count (MANIFEST_INSTRUCTIONS), apart: its
 * terms, one per block of the program (bzip2's 4,472), were most of features.json, and
 * reading them 1.6-2.5 ms of bzip2's 13-16 ms prediction command. */
static int write_model_manifest(const struct trainer *t, const struct model *model,
				struct error *err)
{
	char **names = xcalloc((size_t)model->nfeatures + 1, sizeof *names);
	char *counted[] = {MANIFEST_INSTRUCTIONS};
	int rc;

	for (int f = 0; f < model->nfeatures; f++) {
		const char *of = sampler_feature(model->features[f].name);

		names[f] = of ? (char *)of : model->features[f].name;
	}
	rc = write_cut(t, "features.json", names, model->nfeatures, err);
	if (rc == 0 && strcmp(t->opt->metric, "instructions") == 0)
		rc = write_cut(t, "instructions.json", counted, 1, err);
	free(names);
	return rc;
}

/* Writes features.json, model.json, predictor.json and train.json for the final model, whose
 * evaluator (already built) was judged into *final. */
static int write_predictor(struct trainer *t, const struct model *model,
			   const struct decision *final, int iterations, struct error *err)
{
	struct predictor_info info = {0};
	char *path = xasprintf("%s/model.json", t->opt->dir);
	int rc = 0;

	info.metric = t->opt->metric ? (char *)t->opt->metric : "wall";
	info.threshold = t->opt->threshold;
	info.cost = final->cost;
	info.ntrain = t->samples.n;
	info.iterations = iterations;
	info.has_evaluator = count_program_features(model) > 0;
	info.ok_exits = runner_ok_exits();
	if (count_sampled_features(model) > 0) {
		info.plan = t->plan;
		info.sampled_cost = t->sampled_cost;
		info.sampled_program = t->sampled_sliced ? "sampled-evaluator" : "build/sandboxed";
		info.has_sampled_inproc = t->sampled_sliced && t->sampled_hosted;
		info.sampled_inproc_cost = t->sampled_hosted_cost;
	}
	info.gate = t->gate;
	info.has_inproc = t->hosted.built;
	info.inproc_cost = t->hosted.cost;
	info.inproc_cold_cost = t->hosted.cold_cost;
	if (rc == 0)
		rc = write_model_manifest(t, model, err);
	if (rc == 0)
		rc = model_write(model, path, err);
	if (rc == 0)
		rc = write_log(t, model, final, err);
	if (rc == 0)
		rc = predictor_write_info(t->opt->dir, &info, err);
	free(path);
	return rc;
}

/* Fills *names with every program feature of the dataset (the input-only model's exclusions). */
static int program_names(const struct trainer *t, char ***names)
{
	int n = 0;

	*names = xcalloc((size_t)t->ds.p + 1, sizeof **names);
	for (int j = 0; j < t->ds.p; j++) {
		if (descriptor_find(t->ds.names[j]) < 0)
			(*names)[n++] = t->ds.names[j];
	}
	return n;
}

#define TIE 1e-9 /* a difference of mean relative errors below this is rounding: a tie */

/* One model the final choice weighs: a feature set fitted at a degree. */
struct candidate {
	int program;     /* 1: the loop's program features and the input features; 0: input alone */
	int rate;        /* with input alone: 1 for the rate learner (rate.h), 0 for the fit's */
	int per_count;   /* 1: a time through the instruction count (fit_options.per_count) */
	int exact;       /* with program: 1 if no sampled feature may enter (their runs cost) */
	int degree;      /* the fit's highest total degree */
	char **excluded; /* the fit's exclusions; owned array, borrowed names */
	int nexcluded;   /* how many */
	double cv;       /* mean held-out relative error under cross-validation */
	double *e;       /* each training input's held-out error; owned */
	double *ratio;   /* each one's actual value over its held-out prediction; owned */
	double diff;     /* mean paired difference of e from the best candidate's */
	double se;       /* the standard error of that difference */
};

/* Fills *names with the program features outside the model (owned array, borrowed names):
 * the exclusions of a refit that reads no program feature the loop's evaluator does not. Its
 * accepted copies stay, so that a feature read_off_samples replaced is the refit's again, not
 * an input feature equal to it. */
static int outside_model_names(const struct trainer *t, const struct model *model, char ***names)
{
	int n = 0;

	*names = xcalloc((size_t)t->ds.p + 1, sizeof **names);
	for (int j = 0; j < t->ds.p; j++) {
		char *name = t->ds.names[j];

		if (descriptor_find(name) < 0 && !in_model_or_copy(t, model, name))
			(*names)[n++] = name;
	}
	return n;
}

/* Appends every sampled feature of the dataset to c->excluded (an exact candidate's). */
static void exclude_sampled(const struct trainer *t, struct candidate *c)
{
	c->excluded = xrealloc(c->excluded, ((size_t)c->nexcluded + (size_t)t->ds.p + 1) *
			       sizeof *c->excluded);
	for (int j = 0; j < t->ds.p; j++) {
		if (sampler_feature(t->ds.names[j]))
			c->excluded[c->nexcluded++] = t->ds.names[j];
	}
}

/*
 * Fills c[] with the final choice's candidates, simplest first: the input features alone at
 * degrees 1..d (when they vary), then their rate (rate.h: a size times the rate of the
 * training inputs nearest in a few of them; as free, a table no polynomial of low degree
 * holds), for a time the profile counted the instructions of first through the instruction
 * count (the instructions a unit times the time an instruction, each read off the inputs
 * nearest in its own features: the count is exact and the time an instruction varies over a
 * few times where the time a unit varies over decades, so it is the rate's form for a time;
 * the time a unit at once only where it errs less by more than a standard error), then, when
 * the model reads sampled features and exact_loop
 * left a model, the exact features alone (no sampled runs, whose cost is two more process
 * starts and the samples' share of the work) at degrees 1..d, then the model's program
 * features with the input features at degrees 1..d (when it reads any); degree d with the
 * program's is the loop's model (exact_loop's for the exact ones), refitted on every accepted
 * feature as the loop fitted it, lower degrees on the model's own features only, so a refit
 * needs no feature the loop's evaluators do not compute. Last, for a time the profile counted
 * the instructions of, the program's candidates again through the count: their polynomial
 * fitted to the instructions (exact where the program's features are: lz4's count within 1%
 * from its samples, where its time a byte is not), times the time an instruction of the
 * training inputs nearest in input features (lz4's: 0.045 ns on repetitive data, 0.060 on
 * text, 0.080 on binary data at its HC levels); last, so that the time at once is kept where
 * it does as well.
 * Degrees below d only for SPORE (the others have none). Returns how many; *loop is the loop's
 * model's index.
 */
static int candidates_make(struct trainer *t, const struct model *model, struct candidate *c,
			   int *loop)
{
	int d = t->opt->fit.degree, n = 0, lowest;
	int sampled = count_sampled_features(model) > 0;
	int program = count_program_features(model) > 0 || sampled;
	char **no_input;
	int ninput = program_names(t, &no_input);

	lowest = strncmp(t->opt->fit.algorithm, "spore", 5) == 0 ? 1 : d;
	*loop = -1;
	if (t->opt->input_features && ninput < t->ds.p) {
		for (int k = lowest; k <= d; k++) {
			c[n] = (struct candidate){.degree = k, .nexcluded = ninput};
			c[n].excluded = xcalloc((size_t)ninput + 1, sizeof *no_input);
			memcpy(c[n].excluded, no_input, sizeof *no_input * (size_t)ninput);
			if (!program && k == d)
				*loop = n;
			n++;
		}
		for (int per = t->ds.count != NULL; per >= 0; per--) {
			c[n] = (struct candidate){.rate = 1, .per_count = per, .degree = 1,
						  .nexcluded = ninput};
			c[n].excluded = xcalloc((size_t)ninput + 1, sizeof *no_input);
			memcpy(c[n].excluded, no_input, sizeof *no_input * (size_t)ninput);
			n++;
		}
	}
	free(no_input);
	for (int per = 0; per <= (t->ds.count != NULL); per++) {
		for (int exact = sampled && t->exact.nfeatures > 0; exact >= 0; exact--) {
			for (int k = lowest; program && k <= d; k++) {
				c[n] = (struct candidate){.program = 1, .per_count = per,
							  .exact = exact, .degree = k};
				c[n].nexcluded = k == d ? unaccepted_names(t, &c[n].excluded)
					: outside_model_names(t, exact ? &t->exact : model,
							      &c[n].excluded);
				if (exact)
					exclude_sampled(t, &c[n]);
				else if (k == d && !per)
					*loop = n;
				n++;
			}
		}
	}
	return n;
}

/* Returns the fit options of candidate c: t's, at c's degree and exclusions, with the rate
 * learner for a rate. */
static struct fit_options candidate_options(const struct trainer *t, const struct candidate *c)
{
	struct fit_options fo = t->opt->fit;

	fo.exclude = c->excluded;
	fo.nexclude = c->nexcluded;
	fo.degree = c->degree;
	if (c->rate)
		fo.algorithm = "rate";
	fo.per_count = c->per_count;
	return fo;
}

/* The least training inputs on which the final choice selects the program's features again in
 * each fold (nested_fit): on fewer, a fold's choice is worse than the choice on all of them and
 * the nested estimate pessimistic (session 39: tests/cli/train-read-off.t's 16 inputs, 13 a
 * fold, wrote the input features at 2.46% held out against the program's 1.33%). */
#define NESTED_LEAST 40

/* The feedback loop's choice of features made again on each fold's rows (nested_fit). */
struct refold {
	struct trainer *t;               /* whose loop's fit it makes again */
	int exact;                       /* 1: sampled features left out, as exact_loop does */
	int fitted[SELECT_FOLDS];        /* the fold's choice is made */
	char **chosen[SELECT_FOLDS];     /* its program and sampled features (owned array,
					  * names borrowed from t->ds) */
	int nchosen[SELECT_FOLDS];       /* how many */
};

/* Makes r's choice on fold's rows, part: the loop's fit (every feature but those rejected, and
 * the sampled ones when r->exact) at the loop's degree; none when it fails. */
static void refold_choose(struct refold *r, int fold, const struct dataset *part,
			  const struct fit_options *fo)
{
	struct trainer *t = r->t;
	struct fit_options lo = t->opt->fit;
	char **excluded;
	int n = rejected_names(t, &excluded);
	struct model m;
	struct prep pr;
	struct error ignored;

	excluded = xrealloc(excluded, ((size_t)n + (size_t)t->ds.p + 1) * sizeof *excluded);
	for (int j = 0; r->exact && j < t->ds.p; j++) {
		if (sampler_feature(t->ds.names[j]))
			excluded[n++] = t->ds.names[j];
	}
	lo.exclude = excluded;
	lo.nexclude = n;
	lo.group = fo->group;
	lo.train_frac = 1;
	r->fitted[fold] = 1;
	r->chosen[fold] = xcalloc((size_t)t->ds.p + 1, sizeof **r->chosen);
	if (fit_model(part, &lo, &m, &pr, &ignored) == 0) {
		for (int j = 0; j < t->ds.p; j++) {
			int reads = 0;

			for (int f = 0; f < m.nfeatures && !reads; f++)
				reads = strcmp(m.features[f].name, t->ds.names[j]) == 0;
			if (reads && descriptor_find(t->ds.names[j]) < 0)
				r->chosen[fold][r->nchosen[fold]++] = t->ds.names[j];
		}
		model_release(&m);
		prep_release(&pr);
	}
	free(excluded);
}

/* A select_fit_fn: fits a program candidate on a fold's rows with the program and sampled
 * features the loop's fit chooses on those rows (refold_choose, made once a fold and kept)
 * that the candidate does not exclude, in place of those it chose on every training input.
 * Why the fold's choice: the loop chose its features on every training input, so a candidate
 * that reads them is cross-validated on rows that chose it, which flatters it where the loop
 * chose among many for few inputs: lame's sampled model, its 5 features out of 9681 sampled
 * ones on 98 inputs, cross-validated at 5.8% and erred 10.2% on 200 held-out inputs (session
 * 45). Why not what the candidate excludes: its written refit cannot read them (a lower
 * degree reads the loop model's features only, which have no evaluator else), so a fold that
 * read them judged another model: lz4's (program, degree 2) cross-validated at 8.9% on the
 * fold's choices and its refit on the model's features erred 29.7% on its own rows (session
 * 52). */
static int nested_fit(void *ctx, int fold, const struct dataset *part,
		      const struct fit_options *fo, struct model *model, struct prep *prep,
		      struct error *err)
{
	struct refold *r = ctx;
	struct trainer *t = r->t;
	struct fit_options co = *fo;
	char **excluded = xcalloc((size_t)fo->nexclude + (size_t)t->ds.p + 1, sizeof *excluded);
	int rc;

	assert(fold >= 0 && fold < SELECT_FOLDS);
	if (!r->fitted[fold])
		refold_choose(r, fold, part, fo);
	co.exclude = excluded;
	co.nexclude = select_nested_exclusions(&t->ds, fo->exclude, fo->nexclude,
					       r->chosen[fold], r->nchosen[fold], excluded);
	rc = fit_model(part, &co, model, prep, err);
	free(excluded);
	return rc;
}

/* Releases r's choices. */
static void refold_release(struct refold *r)
{
	for (int f = 0; f < SELECT_FOLDS; f++)
		free(r->chosen[f]);
}

/* Cross-validates c (select_cross_validate) into c->e, c->ratio and c->cv; a program candidate
 * on NESTED_LEAST or more inputs with the loop's choice made again in each fold (nested_fit,
 * refold[c->exact]). */
static void candidate_score(struct trainer *t, struct candidate *c, struct refold *refold)
{
	struct fit_options fo = candidate_options(t, c);
	double t0 = now_seconds();
	int nested = c->program && t->ds.n >= NESTED_LEAST;

	c->e = xcalloc((size_t)t->ds.n + 1, sizeof *c->e);
	c->ratio = xcalloc((size_t)t->ds.n + 1, sizeof *c->ratio);
	c->cv = select_cross_validate_with(&t->ds, &fo, t->group, nested ? nested_fit : NULL,
					   &refold[c->exact], c->e, c->ratio);
	t->seconds[T_MODEL] += now_seconds() - t0;
}

/* Sets c->diff and c->se: c's errors against best's over the n inputs (select_compare). */
static void candidate_compare(struct candidate *c, const struct candidate *best,
			      const int *group, int n)
{
	c->diff = select_compare(c->e, best->e, group, n, &c->se);
}

/* Returns the candidate's description for the log and train.json; owned by the caller. */
static char *candidate_name(const struct candidate *c)
{
	if (c->rate)
		return xstrdup(c->per_count ? "the input features' rate through the instruction count "
			       "(nearest training inputs)" : "the input features' rate (nearest "
			       "training inputs)");
	return xasprintf("%s%s, degree %d", !c->program ? "the input features alone" : c->exact
			 ? "the program's exact features (no sampled ones)" : "the program's features",
			 c->per_count ? " through the instruction count" : "", c->degree);
}

/* Returns train.json's name of c's features: "input", "rate", "exact" or "program", with
 * "-instructions" through the instruction count (static). */
static const char *candidate_kind(const struct candidate *c)
{
	if (c->rate)
		return c->per_count ? "rate-instructions" : "rate";
	if (!c->program)
		return "input";
	if (c->exact)
		return c->per_count ? "exact-instructions" : "exact";
	return c->per_count ? "program-instructions" : "program";
}

/* Logs the model's interval (model_set_interval) as train found it. */
static void say_interval(struct trainer *t, const struct model *model)
{
	const struct model_interval *iv = &model->interval;
	const char *by = t->group ? " (by data file)" : "";

	if (iv->level > 0 && isfinite(iv->high))
		say(t, "interval: %.0f%% of the training inputs%s, held out, measured %.3gx to %.3gx "
		    "their prediction\n", 100 * iv->level, by, iv->low, iv->high);
	else if (iv->level > 0)
		say(t, "interval: %.0f%% of the training inputs%s, held out, measured %.3gx their "
		    "prediction or more (some were predicted at 0 or below)\n", 100 * iv->level, by,
		    iv->low);
}

/* Logs the candidates' scores, stores them in t->choice, and returns the index of the simplest
 * within one standard error of the best (loop: when no score is a number). */
static int candidates_choose(struct trainer *t, struct candidate *c, int n, int loop)
{
	int best = 0, chosen = -1;
	json_t *list = json_array();
	char *name;

	for (int i = 1; i < n; i++) {
		if (c[i].cv < c[best].cv)
			best = i;
	}
	for (int i = 0; i < n; i++) {
		name = candidate_name(&c[i]);
		candidate_compare(&c[i], &c[best], t->group, t->ds.n);
		if (chosen < 0 && c[i].diff <= c[i].se + TIE)
			chosen = i;
		say(t, "choice: %s: cross-validated error %.2f%% (%+.2f points from the best, "
		    "standard error %.2f)\n", name, 100 * c[i].cv, 100 * c[i].diff, 100 * c[i].se);
		json_array_append_new(list, json_pack("{s:s, s:i, s:f, s:f, s:f}", "features",
			candidate_kind(&c[i]), "degree", c[i].degree, "cv", c[i].cv,
			"difference", c[i].diff, "standard_error", c[i].se));
		free(name);
	}
	if (chosen < 0) /* no score is a number (every fit failed): keep the loop's model */
		chosen = loop;
	t->choice = json_pack("{s:o, s:s, s:i}", "candidates", list, "chosen",
			      candidate_kind(&c[chosen]), "degree", c[chosen].degree);
	name = candidate_name(&c[chosen]);
	say(t, "choice: %s%s\n", name, c[chosen].program ? "" : " (no evaluator)");
	free(name);
	return chosen;
}

/* Adds to train.json's choice (when there is one) the written model's held-out error on each
 * training input, by the input's line in the inputs file: what a gate's first predictor weighs
 * its PRED/long against, input by input (train_gated); and its ratio, actual over predicted,
 * which a widened gate's PRED/long sets its interval by (widen_gate). */
static void record_held_out(struct trainer *t)
{
	json_t *lines, *errors, *ratios;

	if (!t->choice || !t->held_out)
		return;
	assert(t->samples.n == t->ds.n); /* the dataset's rows are the samples' */
	lines = json_array();
	errors = json_array();
	ratios = json_array();
	for (int k = 0; k < t->samples.n; k++) {
		json_array_append_new(lines, json_integer(t->samples.line[k]));
		json_array_append_new(errors, json_real(t->held_out[k]));
		json_array_append_new(ratios, isfinite(t->held_out_ratio[k])
				      ? json_real(t->held_out_ratio[k]) : json_null());
	}
	json_object_set_new(t->choice, "held_out", json_pack("{s:o, s:o, s:o}", "lines", lines,
							      "errors", errors, "ratios", ratios));
}

/* Moves into t->unsampled the candidate of c[0..n) of least held-out error among those that
 * read neither program nor sampled features (none when none scored). */
static void keep_unsampled(struct trainer *t, struct candidate *c, int n)
{
	int best = -1;

	for (int i = 0; i < n; i++) {
		if (!c[i].program && isfinite(c[i].cv) && (best < 0 || c[i].cv < c[best].cv))
			best = i;
	}
	if (best < 0)
		return;
	t->unsampled = xmalloc(sizeof *t->unsampled);
	*t->unsampled = c[best];
	c[best].excluded = NULL;
	c[best].e = NULL;
	c[best].ratio = NULL;
}

/*
 * The final choice (Hastie, Tibshirani and Friedman's one-standard-error rule): every
 * candidate (candidates_make) is cross-validated on the same folds, and the simplest one whose
 * mean error exceeds the best's by at most one standard error of their per-input paired
 * difference (its standard error counting each error up to 100%: select_compare) is written: the input features alone (no evaluator), as a polynomial and then as
 * a rate, before the program's exact ones (no sampled runs) before all the program's, a lower
 * degree before a higher, and the program's through the instruction count last. Why the
 * exact ones: a sampled feature costs two process starts and its samples' share of the work,
 * which it must pay for in accuracy beyond one standard error. Cross-validation judges a model on the training range, where
 * a cube and a line may look alike; past it, the line is the safer guess. The loop's
 * decisions stand; only which model is written changes. The written model's interval is the
 * spread of its candidate's held-out ratios (model_set_interval). When the loop's fit found no
 * term (a constant), every candidate is weighed against the others alone. Returns 1 if the
 * model was replaced (*final then describes its evaluator), 0 if not (also when the refit
 * fails), -1 with err set.
 */
static int choose_final(struct trainer *t, struct model *model, struct decision *final,
			struct error *err)
{
	struct candidate c[5 * MODEL_MAX_DEGREE + 4];
	struct refold refold[2] = {{.t = t, .exact = 0}, {.t = t, .exact = 1}};
	int n, loop, chosen, rc = 0;

	if (t->opt->fit.degree > MODEL_MAX_DEGREE)
		return 0;
	n = candidates_make(t, model, c, &loop);
	if (model->nfeatures == 0) /* the loop's fit found no term: none of them is its model */
		loop = -1;
	for (int i = 0; i < n; i++)
		candidate_score(t, &c[i], refold);
	refold_release(&refold[0]);
	refold_release(&refold[1]);
	chosen = n < 2 ? loop : candidates_choose(t, c, n, loop);
	if (chosen != loop) {
		struct fit_options fo = candidate_options(t, &c[chosen]);
		struct model refit;

		fo.group = t->group;
		if (fit_with(t, &fo, &refit, err) == 0) {
			model_release(model);
			*model = refit;
			rc = 1;
			if (loop < 0 || c[loop].program) { /* else there was no evaluator, and is none */
				free(final->reason);
				rc = final_evaluator(t, model, final, err) < 0 ? -1 : 1;
			}
		} else {
			chosen = loop;
		}
	}
	if (chosen >= 0) {
		model_set_interval(model, c[chosen].ratio, t->group, t->ds.n, MODEL_INTERVAL_LEVEL);
		say_interval(t, model);
		t->held_out = c[chosen].e;
		t->held_out_ratio = c[chosen].ratio;
		c[chosen].e = NULL;
		c[chosen].ratio = NULL;
		record_held_out(t);
		if (c[chosen].program) /* for a gate below it (gate_sampled, gate_program) */
			keep_unsampled(t, c, n);
	}
	for (int i = 0; i < n; i++) {
		free(c[i].excluded);
		free(c[i].e);
		free(c[i].ratio);
	}
	return rc;
}

/*
 * --select adaptive, once the loop has settled: goes on selecting (select_inputs from the inputs
 * already chosen) while the model of the accepted features alone, the kind train ends with,
 * cross-validates over the target, and reloads what was profiled. Returns how many inputs
 * were added (0: the final model validates, or the budget is spent), or -1 with err set.
 */
static int more_inputs(struct trainer *t, struct error *err)
{
	struct fit_options fo = t->opt->fit;
	char **excluded; /* borrowed from t->ds, which profile() reloads after selecting */
	int before = t->samples.n;
	double t0 = now_seconds();

	int ninput = 0;

	for (int j = 0; j < t->ds.p; j++)
		ninput += descriptor_find(t->ds.names[j]) >= 0;
	fo.nexclude = unaccepted_names(t, &excluded);
	fo.exclude = excluded;
	say(t, "select: validating the model of the accepted features alone (%d of %d program "
	    "features, %d input features)\n", t->ds.p - ninput - fo.nexclude, t->ds.p - ninput,
	    ninput);
	if (profile(t, 0, &fo, err) < 0 || match_inputs(t, err) < 0) {
		free(excluded);
		return -1;
	}
	add_input_features(t);
	free(excluded);
	t->seconds[T_PROFILE] += now_seconds() - t0;
	if (add_sampled_features(t, err) < 0)
		return -1;
	return t->samples.n - before;
}

static void trainer_release(struct trainer *t)
{
	for (int i = 0; i < t->ndec; i++) {
		free(t->dec[i].name);
		free(t->dec[i].reason);
	}
	free(t->dec);
	free(t->unstable);
	free(t->build);
	manifest_release(&t->m);
	inputs_release(&t->ins);
	store_samples_release(&t->samples);
	dataset_release(&t->ds);
	free(t->input);
	free(t->by_time);
	free(t->group);
	free(t->held_out);
	free(t->held_out_ratio);
	free(t->sampled_each);
	free(t->widened_err);
	if (t->unsampled) {
		free(t->unsampled->excluded);
		free(t->unsampled->e);
		free(t->unsampled->ratio);
		free(t->unsampled);
	}
	for (int i = 0; i < t->nfirst; i++)
		free(t->first[i].name);
	free(t->first);
	free(t->hosted.why_not);
	free(t->is_block);
	free(t->chosen);
	json_decref(t->iterations);
	json_decref(t->choice);
	sampled_release(t);
	sampler_plan_release(&t->plan);
	model_release(&t->exact);
	json_decref(t->sampling);
	json_decref(t->gating);
	trials_release(t);
}

/*
 * When the model reads sampled features: the feedback loop again, from the next round, with
 * every sampled feature left out, so that the final choice's exact candidate is the model train
 * would write without them, its features decided as any are. Why: the loop takes the features
 * that fit best first, and on bzip2's wall time it took sampled proxies of the input's size
 * (cost 2.0%) and never decided the exact features that had predicted within 2.5% at a cost of
 * 0.7%. Its evaluator's joint cost cuts it as the main loop's does (reject_for_cost), except
 * that no feature model reads is rejected. Leaves that model in t->exact if its evaluator
 * validates and costs less than the threshold and than model's (evaluator and sampled runs);
 * else none. Rebuilds model's evaluator into *final. Returns the last round, or -1 with err
 * set.
 */
static int exact_loop(struct trainer *t, struct model *model, struct decision *final,
		      int iterations, struct error *err)
{
	struct decision d = {0};
	int rc;

	if (count_sampled_features(model) == 0)
		return iterations;
	say(t, "exact: the loop again without sampled features, for the final choice\n");
	t->exact_only = 1;
	do {
		model_release(&t->exact);
		free(d.reason);
		d.reason = NULL;
		rc = iterations = feedback_loop(t, &t->exact, iterations + 1, err);
		if (rc >= 0)
			rc = final_evaluator(t, &t->exact, &d, err);
	} while (rc >= 0 && reject_for_cost(t, &t->exact, &d, iterations + 1, model));
	t->exact_only = 0;
	if (rc >= 0) {
		free(final->reason);
		rc = final_evaluator(t, model, final, err);
	}
	if (rc >= 0 && count_program_features(&t->exact) == 0)
		say(t, "exact: no candidate (the model reads no exact program feature)\n");
	else if (rc >= 0 && (!d.validated || d.cost > t->opt->threshold || d.cost >= final->cost))
		say(t, "exact: no candidate (its evaluator %s %.2f%%, the model's %.2f%%)\n",
		    d.validated ? "costs" : "does not validate; it costs", 100 * d.cost,
		    100 * final->cost);
	else if (rc >= 0)
		say(t, "exact: a candidate at a cost of %.2f%% (the model's %.2f%%)\n", 100 * d.cost,
		    100 * final->cost);
	if (rc < 0 || count_program_features(&t->exact) == 0 || !d.validated ||
	    d.cost > t->opt->threshold || d.cost >= final->cost)
		model_release(&t->exact);
	free(d.reason);
	return rc < 0 ? -1 : iterations;
}

/* Forgets every decision on a sampled feature. */
static void forget_sampled(struct trainer *t)
{
	int n = 0;

	for (int i = 0; i < t->ndec; i++) {
		if (sampler_feature(t->dec[i].name)) {
			free(t->dec[i].name);
			free(t->dec[i].reason);
		} else {
			t->dec[n++] = t->dec[i];
		}
	}
	t->ndec = n;
}

/*
 * Once the loop dropped the sampled features (give_up_sampled: those judged cost more than the
 * threshold, all or most), samples the inputs again in a cheaper way (sampler_cheaper: the
 * cheapest within one standard error of the best among those whose trials cost at most the
 * kept way's scaled by the threshold over the least judged cost). Its columns and decisions
 * replace the old way's (the same names, other samples), and the loop goes on. Why: on this
 * AMD host bzip2's 1% in 8 pieces cost 6.3% in its trial, within 1.5 times a 5% threshold, and
 * its sampled features 5.0-5.8% judged; the loop dropped them all and wrote a model of exact
 * features alone, cross-validated 23.9%; 0.25% in 8 pieces costs 4.2%. Features judged in
 * process bound the way's share instead (cheaper_way). Returns 1 when the way changed, 0 when
 * not, -1 with err set.
 */
static int sample_cheaper(struct trainer *t, struct error *err)
{
	double budget, share;
	json_t *before;

	if (!t->sampled_dropped ||
	    cheaper_way(t, t->dropped_least, t->dropped_hosted, &budget, &share) < 0)
		return 0;
	if (t->dropped_hosted)
		say(t, "sampled features: the way again among those whose samples take at most "
		    "%.3f%% of the files (the kept way's %.3f%%, its features' least %.2f%% in "
		    "process against the threshold)\n", 100 * share,
		    100 * t->trials[t->kept_trial].share, 100 * t->dropped_least);
	else
		say(t, "sampled features: the way again among those whose trial cost at most %.2f%% "
		    "(the kept way's %.2f%%, its features' least %.2f%% against the threshold)\n",
		    100 * budget, 100 * t->trials[t->kept_trial].cost, 100 * t->dropped_least);
	forget_sampled(t);
	dataset_drop_prefix(&t->ds, SAMPLER_PREFIX);
	dataset_drop_prefix(&t->ds, SAMPLER_LARGER_PREFIX);
	dataset_drop_prefix(&t->ds, SAMPLER_QUADRATIC_PREFIX);
	t->sampled_dropped = 0;
	t->sample_budget = budget;
	t->share_budget = share;
	before = json_incref(t->sampling);
	if (add_sampled_features(t, err) < 0) {
		json_decref(before);
		return -1;
	}
	reject_unstable(t);
	if (t->dropped_hosted)
		json_object_set_new(t->sampling, "share_budget", json_real(share));
	else
		json_object_set_new(t->sampling, "budget", json_real(budget));
	json_object_set_new(t->sampling, "before", before);
	return 1;
}

/* ---- the gate: samples where they are cheap ------------------------------------------------ */

/* The fewest training inputs a gated predictor is trained on. */
#define GATE_LEAST 12
/* The inputs at the gate's edge whose mean cost it bounds: the samples' cost falls as the
 * program's time grows, so those let through cost the threshold at most, or little more. */
#define GATE_EDGE 5

/* Keeps of the profile's inputs those on the lines t->opt->only_lines, in their order: the
 * training inputs of a gated predictor. */
static void keep_only_lines(struct trainer *t)
{
	int all = t->samples.n, *rows = xcalloc((size_t)all + 1, sizeof *rows), n;
	struct dataset kept;

	assert(t->ds.n == all);
	n = store_samples_keep_lines(&t->samples, t->opt->only_lines, t->opt->nonly_lines, rows);
	dataset_subset(&t->ds, rows, n, &kept);
	dataset_release(&t->ds);
	t->ds = kept;
	free(rows);
	say(t, "gate: trained on %d of the %d inputs, those the gate lets through\n", n, all);
}

/* Returns the model's prediction on each training input (owned), or NULL when it reads a
 * feature the dataset lacks. */
static double *training_predictions(const struct trainer *t, const struct model *model)
{
	double *predicted = xcalloc((size_t)t->samples.n + 1, sizeof *predicted);
	double *values = xcalloc((size_t)model->nfeatures + 1, sizeof *values);
	int *column = xcalloc((size_t)model->nfeatures + 1, sizeof *column);

	for (int i = 0; i < model->nfeatures; i++) {
		if ((column[i] = dataset_find(&t->ds, model->features[i].name)) < 0) {
			free(predicted);
			predicted = NULL;
			break;
		}
	}
	for (int k = 0; predicted && k < t->samples.n; k++) {
		for (int i = 0; i < model->nfeatures; i++)
			values[i] = t->ds.x[(size_t)column[i] * (size_t)t->ds.n + (size_t)k];
		predicted[k] = model_eval(model, values);
	}
	free(values);
	free(column);
	return predicted;
}

/*
 * Returns each training input's cost of its sampled runs, their time over the program's: in
 * the way kept, or with cheapest in the cheapest way tried (the trial's runs, read back from
 * sampled.db; the gated training tries the ways again on its own inputs and may keep a cheaper
 * one, where the kept way costs too much on every set of inputs the gate could let through:
 * pcre2grep's prefix of 1%, where 0.25% in 8 pieces costs a third less on its longest inputs).
 * Owned by the caller; NULL with err set when the runs cannot be read.
 */
static double *gate_costs(struct trainer *t, int cheapest, struct error *err)
{
	int n = t->samples.n, way = -1;
	double *cost = xcalloc((size_t)n + 1, sizeof *cost), se, raw;
	struct sampler_plan plan = t->plan; /* borrows t->plan's files */
	struct sampled_run *runs = t->sampled;
	char *exe = NULL, *failed = NULL;

	for (int i = 0; cheapest && i < t->ntrials; i++) {
		if (!t->trials[i].failed && !isnan(t->trials[i].cost) &&
		    (way < 0 || t->trials[i].cost < t->trials[way].cost))
			way = i;
	}
	if (way >= 0) {
		plan.fraction = t->trials[way].fraction;
		plan.least = t->trials[way].least;
		plan.chunks = t->trials[way].chunks;
		plan.smaller = t->trials[way].smaller;
		runs = xcalloc((size_t)n + 1, sizeof *runs);
		exe = xasprintf("%s/sandboxed", t->build);
		if (sample_all(t, &plan, 1, exe, runs, &failed, &se, &raw, NULL, err) < 0) {
			free(cost);
			cost = NULL;
		}
	}
	for (int k = 0; cost && k < n; k++)
		cost[k] = runs[k].ok ? runs[k].seconds / fmax(t->samples.wall[k], 1e-6) : INFINITY;
	if (way >= 0)
		runs_free(runs, n);
	free(failed);
	free(exe);
	return cost;
}

/* Points dir/build at PRED/build (the gated predictor's build and profile are its gate's).
 * Returns 0 or -1 with errno set. */
static int share_build(const char *dir)
{
	char *link = xasprintf("%s/build", dir);
	struct stat st;
	int rc = 0;

	if (lstat(link, &st) == 0 && !S_ISLNK(st.st_mode))
		remove_tree(link);
	if (lstat(link, &st) != 0)
		rc = symlink("../build", link);
	free(link);
	return rc;
}

/* Fills gated[j], j < n, with the held-out error that the model train wrote in dir made on
 * the input of line lines[j] (its final choice's record, record_held_out). Returns 0, or -1
 * when dir/train.json has no such record or it misses one of the lines. */
static int gated_held_out(const char *dir, const int *lines, int n, double *gated)
{
	char *path = xasprintf("%s/train.json", dir);
	json_t *log = json_load_file(path, 0, NULL);
	json_t *rec = json_object_get(json_object_get(log, "choice"), "held_out");
	json_t *at = json_object_get(rec, "lines"), *errors = json_object_get(rec, "errors");
	size_t size = json_array_size(at) == json_array_size(errors) ? json_array_size(at) : 0;
	int found = 0;

	for (int j = 0; j < n; j++) {
		gated[j] = NAN;
		for (size_t i = 0; i < size; i++) {
			if (json_integer_value(json_array_get(at, i)) == lines[j]) {
				gated[j] = json_number_value(json_array_get(errors, i));
				found++;
				break;
			}
		}
	}
	json_decref(log);
	free(path);
	return found == n ? 0 : -1;
}

/* Weighs the gated predictor's model (in dir, trained on the inputs of lines[0..n), the first
 * n of order) against this model, both held out on those inputs, by the one-standard-error
 * rule of the final choice (select_compare): PRED/long costs its samples' runs, so it must err
 * less by more than a standard error of the paired difference. Returns 1 when it does or when
 * there is nothing to weigh (either record missing), else 0 with why set; records both means
 * and the standard error in t->gating. */
static int gated_errs_less(struct trainer *t, const char *dir, const int *order,
			   const int *lines, int n, struct error *why)
{
	double *first = xcalloc((size_t)n + 1, sizeof *first), *gated = xcalloc((size_t)n + 1,
		sizeof *gated), first_mean = 0, gated_mean = 0, se;
	int *group, less;

	if (!t->held_out || gated_held_out(dir, lines, n, gated) < 0) {
		free(first);
		free(gated);
		return 1;
	}
	for (int j = 0; j < n; j++) {
		first[j] = t->held_out[order[j]];
		first_mean += first[j] / n;
		gated_mean += gated[j] / n;
	}
	group = select_groups_of(t->group, order, n);
	less = select_clearly_less(gated, first, group, n, &se);
	json_object_set_new(t->gating, "held_out", json_pack("{s:f, s:f, s:f}", "long", gated_mean,
							      "first", first_mean, "standard_error", se));
	say(t, "gate: on those inputs, held out, %s's model errs %.2f%% and this one %.2f%% (a "
	    "standard error of %.2f points)\n", dir, 100 * gated_mean, 100 * first_mean, 100 * se);
	if (!less)
		error_set(why, "on those inputs, held out, its model errs %.2f%%, this one %.2f%%: "
			  "not less by more than a standard error (%.2f points)", 100 * gated_mean,
			  100 * first_mean, 100 * se);
	free(group);
	free(first);
	free(gated);
	return less;
}

/* Trains the gated predictor in dir on the first n inputs of order; returns 1 when its model
 * reads features its samples or an evaluator compute and errs less than this model on those
 * inputs, both held out, by more than a standard error (gated_errs_less: it is kept), else 0,
 * saying why. */
static int train_gated(struct trainer *t, const char *dir, const int *order, int n)
{
	struct train_options sub = *t->opt;
	int *lines = xcalloc((size_t)n + 1, sizeof *lines), kept = 0;
	char *path = xasprintf("%s/model.json", dir);
	struct error why = {""};
	struct model m = {0};

	for (int j = 0; j < n; j++)
		lines[j] = t->samples.line[order[j]];
	sub.dir = dir;
	sub.only_lines = lines;
	sub.nonly_lines = n;
	sub.select_adaptive = 0;
	sub.fresh = 0;
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || share_build(dir) < 0)
		error_errno(&why, "cannot make %s", dir);
	else if (train_run(&sub, &why) == 0 && model_read(&m, path, &why) == 0)
		kept = count_program_features(&m) + count_sampled_features(&m) > 0;
	say(t, "gate: ---- the end of %s's training ----\n", dir);
	if (kept)
		kept = gated_errs_less(t, dir, order, lines, n, &why);
	if (why.msg[0])
		say(t, "gate: none: %s\n", why.msg);
	else if (!kept)
		say(t, "gate: none: the model of those inputs reads input features alone, as this "
		    "one\n");
	json_object_set_new(t->gating, "kept", json_boolean(kept));
	if (!kept)
		json_object_set_new(t->gating, "reason", json_string(why.msg[0] ? why.msg
			: "the gated model reads input features alone"));
	model_release(&m);
	free(path);
	free(lines);
	return kept;
}

/*
 * Sets the interval of PRED/long's model (in dir) by the held-out ratios, actual over
 * predicted, of the first n inputs of order, which the gate now lets through: its own
 * training inputs' from its final choice (train.json choice.held_out.ratios) and the widened
 * ones' from ratio[] (PRED/long's predictions there, held out by nature): without them, the
 * interval of its longer inputs under-covered the widened ones (lame: 85% of the 90% it
 * claims). Returns 0, or -1 with why set (the interval stays as trained).
 */
static int widen_interval(struct trainer *t, const char *dir, const int *order, int n,
			  int through, const double *ratio, struct error *why)
{
	char *log_path = xasprintf("%s/train.json", dir), *model_path = xasprintf("%s/model.json", dir);
	json_t *log = json_load_file(log_path, 0, NULL);
	json_t *rec = json_object_get(json_object_get(log, "choice"), "held_out");
	json_t *lines = json_object_get(rec, "lines"), *ratios = json_object_get(rec, "ratios");
	double *all = xcalloc((size_t)n + 1, sizeof *all);
	int *group = select_groups_of(t->group, order, n), rc = 0;
	struct model m = {0};

	for (int j = 0; j < n; j++)
		all[j] = j < through ? NAN : ratio[order[j]];
	for (size_t i = 0; i < json_array_size(lines) && i < json_array_size(ratios); i++) {
		for (int j = 0; j < through; j++) {
			if (json_integer_value(json_array_get(lines, i)) == t->samples.line[order[j]] &&
			    json_is_number(json_array_get(ratios, i)))
				all[j] = json_number_value(json_array_get(ratios, i));
		}
	}
	for (int j = 0; j < n && rc == 0; j++) {
		if (!isfinite(all[j]))
			rc = error_set(why, "%s has no held-out ratio of the input on line %d", log_path,
				       t->samples.line[order[j]]);
	}
	if (rc == 0 && (rc = model_read(&m, model_path, why)) == 0) {
		model_set_interval(&m, all, group, n, MODEL_INTERVAL_LEVEL);
		rc = model_write(&m, model_path, why);
		say(t, "gate: %s's interval, over the %d inputs let through: %.3gx to %.3gx its "
		    "prediction for %.0f%% of them\n", dir, n, m.interval.low, m.interval.high,
		    100 * m.interval.level);
	}
	model_release(&m);
	json_decref(log);
	free(all);
	free(group);
	free(log_path);
	free(model_path);
	return rc;
}

/*
 * Returns how many inputs the gate lets through once widened (select_gate_widen) over the
 * training inputs below it, which PRED/long (in dir, trained on the first `through` of order)
 * never saw: its predictions there, as mantis predict makes them (the sampled evaluator on
 * the samples, no longer the sandboxed program the gate was first sized by: lame's cost 2.7%
 * where the sandboxed program's was 6.6%), cost each input their time over the program's,
 * and err each as held out; the first model's errors are its final choice's, held out too.
 * through when PRED/long cannot run or nothing is gained.
 */
static int widen_gate(struct trainer *t, const char *dir, const int *order,
		      const double *predicted, int through)
{
	int n = t->samples.n, widened = through;
	double *cost = xcalloc((size_t)n + 1, sizeof *cost), *gated = xcalloc((size_t)n + 1,
		sizeof *gated), *ratio = xcalloc((size_t)n + 1, sizeof *ratio), mean = 0;
	struct predictor p = {0};
	struct error err = {""};

	if (!t->held_out || predictor_open(&p, dir, &err) < 0) {
		if (err.msg[0])
			say(t, "gate: not widened: %s\n", err.msg);
		predictor_release(&p);
		free(cost);
		free(gated);
		free(ratio);
		return through;
	}
	for (int k = 0; k < n; k++) {
		struct prediction out = {0};

		cost[k] = INFINITY;
		gated[k] = INFINITY;
		ratio[k] = NAN;
		if (predictor_run(&p, t->input[k], fmax(10 * t->samples.wall[k], 10), &out, &err) < 0)
			continue;
		cost[k] = out.seconds / fmax(t->samples.wall[k], 1e-6);
		gated[k] = fabs(out.value - t->ds.y[k]) / fmax(fabs(t->ds.y[k]), 1e-300);
		ratio[k] = out.value > 0 ? t->ds.y[k] / out.value : NAN;
		prediction_release(&out);
	}
	widened = select_gate_widen(order, predicted, cost, gated, t->held_out, t->group, n,
				    through, GATE_EDGE, t->opt->threshold);
	free(t->widened_err);
	t->widened_err = gated;
	gated = NULL;
	for (int j = 0; j < widened; j++)
		mean += cost[order[j]] / widened;
	if (widened > through) {
		say(t, "gate: widened to %d inputs: %s's predictions cost %.1f%% of the program's time "
		    "on them, and on the %d it never saw err less than this model's, held out\n",
		    widened, dir, 100 * mean, widened - through);
		json_object_set_new(t->gating, "widened", json_pack("{s:i, s:f}", "inputs",
				    widened, "cost", mean));
		if (widen_interval(t, dir, order, widened, through, ratio, &err) < 0)
			say(t, "gate: %s's interval stays its own training inputs': %s\n", dir,
			    err.msg);
	}
	predictor_release(&p);
	free(cost);
	free(gated);
	free(ratio);
	return widened;
}

/*
 * Sets t->gate and makes PRED/long when the samples pay on the longer inputs only. When the
 * model (in *model) reads the input's features alone and the samples cost more than the
 * threshold (the loop dropped every sampled feature for its cost, or it ended on a way whose
 * runs cost more on average: lame's third train at 0.25%, 11.3%, its last round's sampled
 * model over the threshold and the rate chosen, never weighed a gate), that cost is mostly
 * fixed (the program's start-up and set-up, run on two samples: gzip's cost 48% of a 17 ms
 * run, 4% of a 200 ms one here), so on the inputs the
 * model predicts longest it may be under the threshold: the gate lets through the most
 * inputs, by descending prediction, whose sampled runs (gate_costs) cost at most the
 * threshold on average (select_gate_size), and PRED/long is trained on them alone (a training of its own, on the same
 * build and profile); it is kept when its model reads features the samples or an evaluator
 * compute and its cross-validated error is below this model's on the same inputs held out
 * (the rate of the input features may beat the samples where they pay: xz). The gate is then the prediction halfway between the last input let through and
 * the first kept out; mantis predict runs PRED/long on an input this model predicts at or
 * above it (predictor_choose), and this model alone below. A gated predictor has no gate.
 */
/* Returns the training inputs' indices by descending predicted[] (owned). */
static int *by_prediction(const double *predicted, int n)
{
	int *order = xcalloc((size_t)n + 1, sizeof *order);

	for (int k = 0; k < n; k++)
		order[k] = k;
	sort_key = predicted;
	qsort(order, (size_t)n, sizeof *order, by_key); /* ascending, then turned around */
	for (int j = 0; j < n / 2; j++) {
		int k = order[j];

		order[j] = order[n - 1 - j];
		order[n - 1 - j] = k;
	}
	return order;
}

/* Returns how many inputs of order the gate lets through (select_gate_size) by the way kept's
 * costs, or when none by the cheapest way's, setting *cost to those costs (owned) and *cheapest;
 * -1 with err set when the runs cannot be read. */
static int gate_through(struct trainer *t, const int *order, const double *predicted,
			double **cost, int *cheapest, struct error *err)
{
	int through;

	*cheapest = 0;
	if (!(*cost = gate_costs(t, 0, err)))
		return -1;
	if ((through = select_gate_size(order, predicted, *cost, t->samples.n, GATE_LEAST,
					GATE_EDGE, t->opt->threshold)) > 0)
		return through;
	free(*cost);
	*cheapest = 1;
	if (!(*cost = gate_costs(t, 1, err)))
		return -1;
	return select_gate_size(order, predicted, *cost, t->samples.n, GATE_LEAST, GATE_EDGE,
				t->opt->threshold);
}

/* Returns the mean of v[order[0..n)]. */
static double mean_over(const double *v, const int *order, int n)
{
	double sum = 0;

	for (int j = 0; j < n; j++)
		sum += v[order[j]] / n;
	return sum;
}

/* Returns the gate between the first `through` inputs of order and the rest: the prediction
 * halfway between the last let through and the first kept out. */
static double gate_between(const double *predicted, const int *order, int through)
{
	return (predicted[order[through - 1]] + predicted[order[through]]) / 2;
}

/* Trains PRED/long in dir on the first `through` inputs of order (train_gated) and, where it is
 * kept, widens the gate (widen_gate) and sets t->gate; records the gate and the samples' mean
 * cost[] there in t->gating. */
static void gate_train(struct trainer *t, const char *dir, const int *order,
		       const double *predicted, const double *cost, int through)
{
	json_object_set_new(t->gating, "at_least", json_real(gate_between(predicted, order,
									   through)));
	json_object_set_new(t->gating, "cost", json_real(mean_over(cost, order, through)));
	if (train_gated(t, dir, order, through)) {
		int widened = widen_gate(t, dir, order, predicted, through);

		t->gate = gate_between(predicted, order, widened);
		json_object_set_new(t->gating, "at_least", json_real(t->gate));
	}
}

static void gate_long_inputs(struct trainer *t, const struct model *model)
{
	char *dir = xasprintf("%s/%s", t->opt->dir, PREDICTOR_GATED);
	int n = t->samples.n, *order = NULL, through = -1, cheapest = 0;
	double *predicted = NULL, *cost = NULL, all = 0;
	struct error why = {""};

	t->gate = 0;
	if (!t->opt->only_lines && (t->sampled_dropped || t->sandboxed_cost > t->opt->threshold) &&
	    t->sampled && t->nsampled == n &&
	    count_program_features(model) + count_sampled_features(model) == 0 &&
	    (predicted = training_predictions(t, model))) {
		order = by_prediction(predicted, n);
		if ((through = gate_through(t, order, predicted, &cost, &cheapest, &why)) < 0)
			say(t, "gate: none: %s\n", why.msg);
	}
	for (int k = 0; through >= 0 && k < n; k++)
		all += cost[k] / n;
	if (through >= 0)
		t->gating = json_pack("{s:f, s:i, s:s}", "cost_all", all, "inputs", through, "way",
				      cheapest ? "cheapest" : "kept");
	if (through == 0) {
		say(t, "gate: none: the samples cost %.1f%% of the program's time on average, and "
		    "more than the threshold on the %d or more inputs the model predicts highest, "
		    "in the way kept and in the cheapest\n", 100 * all, GATE_LEAST);
		json_object_set_new(t->gating, "kept", json_false());
	} else if (through > 0) {
		say(t, "gate: the samples cost %.1f%% of the program's time on average, %.1f%% on the "
		    "%d inputs the model predicts at %g or more (in the %s way): %s is trained on "
		    "them\n", 100 * all, 100 * mean_over(cost, order, through), through,
		    gate_between(predicted, order, through), cheapest ? "cheapest" : "kept", dir);
		gate_train(t, dir, order, predicted, cost, through);
	}
	if (!(t->gate > 0))
		remove_tree(dir);
	free(order);
	free(predicted);
	free(cost);
	free(dir);
}

/* Writes the unsampled candidate's model below a gate, in place of the model chosen: model
 * becomes *unsampled (moved), its interval and held-out record the candidate's, and t->choice
 * names it, with the one it replaced under `replaced` ("above_gate" for a sampled model that
 * predicts above it, "replaced" for a program's model PRED/long took over); rebuilds *final.
 * Returns 0, or -1 with err set. */
static int written_below_gate(struct trainer *t, struct model *model, struct model *unsampled,
			      const char *replaced, struct decision *final, struct error *err)
{
	struct candidate *u = t->unsampled;

	model_release(model);
	*model = *unsampled;
	*unsampled = (struct model){0};
	model_set_interval(model, t->held_out_ratio, t->group, t->ds.n, MODEL_INTERVAL_LEVEL);
	say_interval(t, model);
	record_held_out(t);
	json_object_set_new(t->choice, replaced, json_pack("{s:O, s:O}", "features",
		json_object_get(t->choice, "chosen"), "degree", json_object_get(t->choice, "degree")));
	json_object_set_new(t->choice, "chosen", json_string(candidate_kind(u)));
	json_object_set_new(t->choice, "degree", json_integer(u->degree));
	return final_evaluator(t, model, final, err);
}

/*
 * A gate below a model of sampled features. Where the final choice took one (t->unsampled is
 * then the candidate of least held-out error without samples or an evaluator), its samples'
 * runs cost a fixed work on every input (two process starts, the program's set-up), so on the
 * inputs predicted shortest they may cost several times the threshold however little they
 * cost on average (lame: 4.7% on average in training, 7-19% on the shortest two fifths held
 * out, where the black box erred less than the samples). The gate narrows the sampled model
 * (select_gate_narrow): by descending prediction of the unsampled one, it lets through the most
 * inputs whose samples cost at most the threshold on the last GATE_EDGE of them, leaving
 * GATE_EDGE or more below, where those below cost more on average and the sampled model does
 * not err less there, held out, by more than a standard error: there its samples cost more
 * than the threshold and do not pay for it. PRED/long is trained on the inputs let through as
 * any gate's (gate_train: kept where it errs less there than the unsampled model by more than
 * a standard error, widened where it pays); once it is kept the unsampled model is written,
 * and predicts below the gate; else the sampled model stays, on every input. Requires
 * choose_final and the sampled model's evaluators (t->sampled_each); a gate it weighs is the
 * only one (gate_long_inputs is not run). Returns 0, or -1 with err set.
 */
static int gate_sampled(struct trainer *t, struct model *model, struct decision *final,
			struct error *err)
{
	struct candidate *u = t->unsampled;
	int n = t->samples.n, *order, through, rc = 0;
	double *predicted = NULL, *held = t->held_out, *held_ratio = t->held_out_ratio;
	struct fit_options fo;
	struct model unsampled = {0};
	struct gate_narrowing below;
	struct error why = {""};
	char *name, *dir;

	if (!u || t->opt->only_lines || !t->sampled_each || !t->held_out || !t->choice ||
	    count_program_features(model) > 0 || count_sampled_features(model) == 0)
		return 0;
	fo = candidate_options(t, u);
	fo.group = t->group;
	name = candidate_name(u);
	if (fit_with(t, &fo, &unsampled, &why) < 0) {
		say(t, "gate: none below the sampled model: %s: %s\n", name, why.msg);
		free(name);
		return 0;
	}
	if (!(predicted = training_predictions(t, &unsampled))) {
		say(t, "gate: none below the sampled model: %s reads a feature the profile lacks\n",
		    name);
		model_release(&unsampled);
		free(name);
		return 0;
	}
	order = by_prediction(predicted, n);
	through = select_gate_narrow(order, predicted, t->sampled_each, t->held_out, u->e,
				     t->group, n, GATE_LEAST, GATE_EDGE, t->opt->threshold, &below);
	if (below.below == 0)
		say(t, "gate: none below the sampled model: its samples cost more than the threshold "
		    "on the %d or more inputs %s predicts highest\n", GATE_LEAST, name);
	else
		say(t, "gate: %s the sampled model: its samples cost %.1f%% of the program's time on "
		    "the %d inputs %s predicts lowest, where it errs %.2f%% held out and that one "
		    "%.2f%% (a standard error of %.2f points)%s\n", through ? "below" : "none below",
		    100 * below.cost, below.below, name, 100 * below.sampled, 100 * below.unsampled,
		    100 * below.se, through ? "" : below.cost > t->opt->threshold
		    ? ": they pay for their cost there" : ": under the threshold");
	if (through > 0) {
		dir = xasprintf("%s/%s", t->opt->dir, PREDICTOR_GATED);
		say(t, "gate: %s predicts below %g, and %s is trained on the %d inputs above\n", name,
		    gate_between(predicted, order, through), dir, through);
		t->gating = json_pack("{s:s, s:i, s:f, s:f, s:f}", "below", candidate_kind(u),
				      "inputs", through, "cost_below", below.cost, "sampled_below",
				      below.sampled, "unsampled_below", below.unsampled);
		t->held_out = u->e; /* the first model's, as gate_train weighs PRED/long against */
		t->held_out_ratio = u->ratio;
		gate_train(t, dir, order, predicted, t->sampled_each, through);
		if (t->gate > 0) {
			u->e = u->ratio = NULL;
			free(held);
			free(held_ratio);
			rc = written_below_gate(t, model, &unsampled, "above_gate", final, err);
		} else {
			t->held_out = held;
			t->held_out_ratio = held_ratio;
			remove_tree(dir);
		}
		free(dir);
	}
	model_release(&unsampled);
	free(name);
	free(order);
	free(predicted);
	return rc;
}

/* Returns 1 when the gated pair errs less over all the training inputs than the program's
 * model, t->held_out, by more than a standard error of the paired difference
 * (select_clearly_less), each error held out: PRED/long's (in dir) on the first `widened` of
 * order (its final choice's record on the first `through`, which it trained on, and
 * widen_gate's on the rest), the unsampled candidate u's below; records the means in
 * t->gating "pair" and says them. Else 0 (also where a record is missing). */
static int pair_errs_less(struct trainer *t, const struct candidate *u, const char *dir,
			  const int *order, int through, int widened)
{
	int n = t->samples.n, *lines = xcalloc((size_t)n + 1, sizeof *lines), *group, less = 0;
	double *pair = xcalloc((size_t)n + 1, sizeof *pair), *program = xcalloc((size_t)n + 1,
		sizeof *program), pair_mean = 0, program_mean = 0, se = 0;

	for (int j = 0; j < through; j++)
		lines[j] = t->samples.line[order[j]];
	if (gated_held_out(dir, lines, through, pair) == 0 && (widened == through ||
							       t->widened_err)) {
		for (int j = 0; j < n; j++) {
			if (j >= widened)
				pair[j] = u->e[order[j]];
			else if (j >= through)
				pair[j] = t->widened_err[order[j]];
			program[j] = t->held_out[order[j]];
			pair_mean += pair[j] / n;
			program_mean += program[j] / n;
		}
		group = select_groups_of(t->group, order, n);
		less = select_clearly_less(pair, program, group, n, &se);
		free(group);
		json_object_set_new(t->gating, "pair", json_pack("{s:f, s:f, s:f}", "pair",
			pair_mean, "program", program_mean, "standard_error", se));
		say(t, "gate: on all %d inputs, held out, the gated pair (%s above it, the model "
		    "without an evaluator below) errs %.2f%% and the program's model %.2f%% (a "
		    "standard error of %.2f points)%s\n", n, dir, 100 * pair_mean,
		    100 * program_mean, 100 * se, less ? "" : ": the program's model stays");
	}
	free(lines);
	free(pair);
	free(program);
	return less;
}

/*
 * A gate below a model of the program's features (no sampled ones), where the samples cost
 * over the threshold on average: the final choice took a model that runs an evaluator on
 * every input, which gate_long_inputs cannot gate (its first model reads the input's
 * features, free, to choose). So the best model without samples or an evaluator
 * (t->unsampled) orders the training inputs by its prediction, the gate lets through as many
 * of the highest as gate_long_inputs would (gate_through: their samples' runs cost at most
 * the threshold), and PRED/long, trained on them, is kept where it errs less there than the
 * program's model, both held out, by more than a standard error (gate_train, widened alike).
 * The pair, PRED/long above the gate and the unsampled model below it, is then written where
 * it errs less over all the training inputs than the program's model, each held out, by more
 * than a standard error (pair_errs_less): below the gate the unsampled model may err more
 * than the program's, whose evaluator it saves. Else the program's model stays on every
 * input. Encryptor took this path: its key's exact values with the file's size, 43.0%
 * cross-validated, against the input features' 45.6%, the samples, whose runs repeat the
 * key's set-up, dropped for their cost over all inputs. Requires choose_final. Returns 0, or
 * -1 with err set.
 */
static int gate_program(struct trainer *t, struct model *model, struct decision *final,
			struct error *err)
{
	struct candidate *u = t->unsampled;
	int n = t->samples.n, *order, through, cheapest, widened, rc = 0;
	double *predicted, *cost = NULL, *held = t->held_out, *held_ratio = t->held_out_ratio;
	struct model unsampled = {0};
	struct fit_options fo;
	struct error why = {""};
	char *name, *dir;

	if (!u || t->opt->only_lines || !t->held_out || !t->choice || !t->sampled ||
	    t->nsampled != n || !(t->sampled_dropped || t->sandboxed_cost > t->opt->threshold) ||
	    count_program_features(model) == 0 || count_sampled_features(model) > 0)
		return 0;
	fo = candidate_options(t, u);
	fo.group = t->group;
	name = candidate_name(u);
	if (fit_with(t, &fo, &unsampled, &why) < 0 ||
	    !(predicted = training_predictions(t, &unsampled))) {
		say(t, "gate: none below the program's model: %s: %s\n", name,
		    why.msg[0] ? why.msg : "it reads a feature the profile lacks");
		model_release(&unsampled);
		free(name);
		return 0;
	}
	order = by_prediction(predicted, n);
	if ((through = gate_through(t, order, predicted, &cost, &cheapest, &why)) <= 0)
		say(t, "gate: none below the program's model: %s\n", through < 0 ? why.msg
		    : "the samples cost more than the threshold on the inputs the model without "
		      "them predicts highest");
	if (through > 0) {
		dir = xasprintf("%s/%s", t->opt->dir, PREDICTOR_GATED);
		say(t, "gate: the samples cost %.1f%% of the program's time on the %d inputs %s "
		    "predicts at %g or more (in the %s way): %s is trained on them, against the "
		    "program's model\n", 100 * mean_over(cost, order, through), through, name,
		    gate_between(predicted, order, through), cheapest ? "cheapest" : "kept", dir);
		t->gating = json_pack("{s:s, s:i, s:s}", "below", candidate_kind(u), "inputs",
				      through, "way", cheapest ? "cheapest" : "kept");
		gate_train(t, dir, order, predicted, cost, through);
		for (widened = 0; t->gate > 0 && widened < n && predicted[order[widened]] >= t->gate;)
			widened++;
		if (t->gate > 0 && !pair_errs_less(t, u, dir, order, through, widened)) {
			t->gate = 0;
			json_object_set_new(t->gating, "kept", json_false());
			json_object_set_new(t->gating, "reason", json_string(
				"the gated pair errs no less than the program's model"));
		}
		if (t->gate > 0) {
			t->held_out = u->e;
			t->held_out_ratio = u->ratio;
			u->e = u->ratio = NULL;
			free(held);
			free(held_ratio);
			rc = written_below_gate(t, model, &unsampled, "replaced", final, err);
		} else {
			remove_tree(dir);
		}
		free(dir);
	}
	model_release(&unsampled);
	free(name);
	free(order);
	free(predicted);
	free(cost);
	return rc;
}

int train_run(const struct train_options *opt, struct error *err)
{
	struct trainer t = {0};
	struct model model = {0};
	struct decision final = {0};
	double t0 = now_seconds();
	int rebuilt = 0, iterations = 0, rc = -1, more = 0, rejected;

	t.opt = opt;
	t.build = xasprintf("%s/build", opt->dir);
	t.iterations = json_array();
	if (mkdir(opt->dir, 0777) < 0 && errno != EEXIST) {
		error_errno(err, "cannot make %s", opt->dir);
		goto out;
	}
	if (build(&t, &rebuilt, err) < 0)
		goto out;
	t.seconds[T_BUILD] = now_seconds() - t0;
	t0 = now_seconds();
	if (profile(&t, opt->fresh || rebuilt, &opt->fit, err) < 0)
		goto out;
	if (opt->only_lines)
		keep_only_lines(&t);
	if (match_inputs(&t, err) < 0)
		goto out;
	add_input_features(&t);
	t.seconds[T_PROFILE] = now_seconds() - t0;
	if (add_sampled_features(&t, err) < 0)
		goto out;
	rejected = reject_unstable(&t);
	say(&t, "recheck: %d features differ between two runs of the instrumented build on one of "
	    "%d inputs: rejected before slicing%s\n", rejected, t.rechecked,
	    rejected > UNSTABLE_SHOWN ? " (all in train.json, rejected_before_slicing)" : "");
	screen(&t);
	if (estimate_all(&t, err) < 0)
		goto out;
	do {
		do {
			model_release(&model);
			free(final.reason);
			final.reason = NULL;
			if ((iterations = feedback_loop(&t, &model, iterations + 1, err)) < 0 ||
			    final_evaluator(&t, &model, &final, err) < 0)
				goto out;
		} while (reject_for_cost(&t, &model, &final, iterations + 1, NULL));
	} while ((more = opt->select_adaptive ? more_inputs(&t, err) : 0) > 0 ||
		 (more == 0 && (more = sample_cheaper(&t, err)) > 0));
	if (more < 0 || (iterations = exact_loop(&t, &model, &final, iterations, err)) < 0 ||
	    choose_final(&t, &model, &final, err) < 0)
		goto out;
	if (gate_sampled(&t, &model, &final, err) < 0 ||
	    (!t.gating && gate_program(&t, &model, &final, err) < 0))
		goto out;
	if (!t.gating)
		gate_long_inputs(&t, &model);
	rc = write_predictor(&t, &model, &final, iterations, err);
out:
	free(final.reason);
	model_release(&model);
	trainer_release(&t);
	return rc;
}
