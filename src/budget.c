/*
 * budget.c: the overhead budget (Mantis 000_ section 3.2: "a procedure that removes
 * instrumentation from the part that incurs high overhead until the overall instrumentation
 * overhead is below our threshold").
 *
 * Algorithm. Round 0 measures the build as made: for each repetition, each calibration input
 * runs DIR/orig then DIR/inst (interleaved, so both meet the same machine state; inst writes its
 * counters, as in a feature run); an input's time is the median of its CPU times (user + sys).
 * The round's ratio is the larger of two: the sums' inst/orig, which the long inputs carry, and
 * the mean of the inputs' inst/orig, in which every input weighs the same, so that a short
 * input's hot code (which a held-out input may run longer) counts as much as a long one's. The
 * first repetition's counters give how often each block runs per second of the original in two
 * ways: pooled (its runs over the inputs' total time) and per input (each input's runs over its
 * own time, averaged); a block's rate is the larger. While the ratio > 1 + F/2 and rounds remain
 * (half the budget on the calibration inputs, so that other inputs, which ran a few points
 * higher, stay within it):
 *   cost(probe) = its block's rate x weight of its kind (instrument.c: a block increment 1, a
 *                 value probe 3 and more), summed per counter a probe is dropped by;
 *   per-run cost  = (ratio - 1) / sum of the costs of the probes still emitted;
 *   drop counters, costliest first, until per-run cost x the remaining cost < 0.6 F/2;
 *   rebuild DIR/inst from DIR/prepared.bc without the dropped counters' probes
 *   (instrument_module_dropping: the same numbering, features and build id) and measure again.
 * The cost per run is re-estimated each round from the new measurement, so probes that cost more
 * than their share (a counter that keeps a loop from being vectorised) are caught on the next.
 * A build measured within the aim is measured again and judged by the mean of the two, so that
 * one lucky measurement does not end the loop.
 * The estimate also charges the counters with what no drop removes (a larger binary, the
 * counters' thread-local array and file: about 0.9 ms a run for the sqlite3 shell's 53,745), so
 * on short runs it drops more than the ratio alone would need.
 * Finally, a counter is dropped when every probe updating it is; every feature reading a dropped
 * counter (a term with a non-zero coefficient, or its denominator) leaves the manifest, which
 * lists the dropped counters (a 0 there means nothing: prune.c never takes such a block as cold).
 *
 * Invariant: DIR/inst, DIR/inst.bc and DIR/features.json always belong together: counters keep
 * their numbers, and every feature left in the manifest reads counters the build updates.
 */
#include "budget.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "codegen.h"
#include "error.h"
#include "inputs.h"
#include "instrument.h"
#include "ir.h"
#include "manifest.h"
#include "runner.h"
#include "util.h"

/* The estimate after dropping must be under this fraction of the budget: the cost model is
 * rough (counters kept in registers cost nothing per run, others more than their weight). */
#define BUDGET_MARGIN 0.6
/* The calibration inputs must come within this fraction of the budget, so that other inputs stay
 * within all of it: at the full budget, chess calibrated to 1.05 ran 1.07 on 20 other inputs,
 * facedetect 1.03 and 1.07, textsearch 1.03 and 1.06 (load 1, --budget 0.05). */
#define BUDGET_AIM 0.5
/* Seconds a calibration run may take before it is killed and the input left out. */
#define BUDGET_TIMEOUT 600

/* The calibration's state. */
struct calib {
	const struct budget_options *o; /* what to do */
	struct budget *b;               /* what was done */
	struct inputs ins;              /* the calibration inputs */
	unsigned char *skip;            /* ins.n: left out (a program crashed or timed out) */
	char *tmp;                      /* scratch parent of the runs; owned */
	char *counters_path;            /* tmp/counters: DIR/inst's counters file; owned */
	char *orig, *inst;              /* DIR/orig, DIR/inst; owned */
	const char *argv0;              /* the name they run as (manifest.h's program), or NULL */
	double *runs;                   /* per counter: its runs in round 0, summed over the inputs */
	double *rate;                   /* per counter: its runs per CPU second of DIR/orig in round
					   0, the mean over the inputs */
};

/* Appends a failure note to b. */
static void add_failure(struct budget *b, char *note)
{
	b->failures = xrealloc(b->failures, sizeof *b->failures * (size_t)(b->nfailures + 1));
	b->failures[b->nfailures++] = note;
}

/* Runs program on input i; returns its CPU seconds, or -1 if it crashed or timed out (the
 * input is then left out and noted), or -2 with err set if it could not be started. */
static double cpu_run(struct calib *c, const char *program, int i, int with_counters,
		      struct error *err)
{
	char *env[2] = {with_counters ? xasprintf("MANTIS_COUNTERS=%s", c->counters_path) : NULL, NULL};
	struct run_options ro = {.timeout = BUDGET_TIMEOUT, .scratch_parent = c->tmp,
				 .env = with_counters ? env : NULL, .argv0 = c->argv0};
	struct run_result res;
	int rc;

	unlink(c->counters_path);
	rc = runner_run(program, &c->ins.v[i], &ro, &res, err);
	free(env[0]);
	if (rc < 0) {
		error_prefix(err, "%s:%d", c->ins.path, c->ins.v[i].line);
		return -2;
	}
	if (res.status == RUN_CRASH || res.status == RUN_TIMEOUT) {
		add_failure(c->b, res.status == RUN_CRASH
					  ? xasprintf("%s:%d: %s crashed (signal %d)", c->ins.path,
						      c->ins.v[i].line, program, res.signal)
					  : xasprintf("%s:%d: %s timed out", c->ins.path, c->ins.v[i].line,
						      program));
		c->skip[i] = 1;
		return -1;
	}
	return res.user + res.sys;
}

/* Adds DIR/inst's counters of the last run to c->runs, and to c->rate divided by orig_seconds
 * (DIR/orig's CPU time on the same input) and by the number of inputs. */
static void add_counts(struct calib *c, const struct manifest *m, double orig_seconds)
{
	double per_second = 1 / ((orig_seconds > 1e-4 ? orig_seconds : 1e-4) * c->ins.n);
	uint64_t *counters;
	struct error ignored;

	if (counters_read(m, c->counters_path, &counters, &ignored) < 0)
		return;
	for (int k = 0; k < m->ncounters; k++) {
		c->runs[k] += (double)counters[k];
		c->rate[k] += (double)counters[k] * per_second;
	}
	free(counters);
}

/* Measures one round into *r (with counts, adds the first repetition's counters to c->runs and
 * c->rate). Returns 0, or -1 with err set when no input is left or a program cannot start. */
static int measure(struct calib *c, const struct manifest *m, int counts, struct budget_round *r,
		   struct error *err)
{
	int n = c->ins.n, rep = c->o->repeat, left = 0;
	double *t_orig = xcalloc((size_t)(n * rep) + 1, sizeof *t_orig);
	double *t_inst = xcalloc((size_t)(n * rep) + 1, sizeof *t_inst);
	int rc = 0;

	for (int k = 0; k < rep && rc == 0; k++) {
		for (int i = 0; i < n && rc == 0; i++) {
			double a = c->skip[i] ? -1 : cpu_run(c, c->orig, i, 0, err);
			double b = a < 0 ? a : cpu_run(c, c->inst, i, 1, err);

			if (a == -2 || b == -2)
				rc = -1;
			if (b < 0)
				continue;
			t_orig[i * rep + k] = a;
			t_inst[i * rep + k] = b;
			if (k == 0 && counts)
				add_counts(c, m, a);
		}
	}
	r->orig = r->inst = r->ratio = 0;
	for (int i = 0; i < n && rc == 0; i++) {
		double orig, inst;

		if (c->skip[i])
			continue;
		orig = median(&t_orig[i * rep], rep);
		inst = median(&t_inst[i * rep], rep);
		r->orig += orig;
		r->inst += inst;
		r->ratio += inst / (orig > 1e-4 ? orig : 1e-4);
		left++;
	}
	r->ratio /= left > 0 ? left : 1;
	if (r->inst / (r->orig > 1e-4 ? r->orig : 1e-4) > r->ratio)
		r->ratio = r->inst / (r->orig > 1e-4 ? r->orig : 1e-4);
	if (rc == 0 && left == 0)
		rc = error_set(err, "%s: no calibration input ran to the end", c->ins.path);
	c->b->ninputs = left;
	free(t_orig);
	free(t_inst);
	return rc;
}

/* Plans DIR/prepared.bc again and, with drop, rebuilds DIR/inst.bc and DIR/inst without the
 * dropped counters' probes; with sites, returns the probes planned. Returns 0 or -1. */
static int rebuild_inst(const struct budget_options *o, const struct manifest *m,
			const unsigned char *drop, struct probe_site **sites, int *nsites,
			struct error *err)
{
	char *bc = xasprintf("%s/prepared.bc", o->dir), *exe = xasprintf("%s/inst", o->dir);
	struct manifest again = {0};
	struct ir ir = {0};
	int rc = ir_load(&ir, bc, err);

	if (rc == 0)
		rc = instrument_module_dropping(&ir, m->schemes, drop, sites, nsites, &again, err);
	if (rc == 0 && (again.build_id != m->build_id || again.ncounters != m->ncounters))
		rc = error_set(err, "%s does not match %s/features.json", bc, o->dir);
	if (rc == 0 && drop)
		rc = codegen_inst(&ir, o->build, o->dir, err);
	if (rc < 0)
		error_prefix(err, "rebuilding %s", exe);
	manifest_release(&again);
	if (ir.ctx)
		ir_release(&ir);
	free(bc);
	free(exe);
	return rc;
}

/* A counter by the estimated cost of its probes, for sorting. */
struct cost {
	double cost;   /* runs per second x weight, summed over the probes dropped with it */
	double runs;   /* runs of those probes */
	int counter;   /* the counter */
};

static int costlier(const void *a, const void *b)
{
	const struct cost *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	return (x->counter > y->counter) - (x->counter < y->counter);
}

/* Returns how often block runs per CPU second of the original: the larger of its rate pooled
 * over the calibration inputs (runs x pooled, pooled = 1 / their total seconds) and its rate
 * per input, averaged; 0 for a probe outside any block (block < 0). */
static double block_rate(const struct calib *cal, int block, double pooled)
{
	if (block < 0)
		return 0;
	return fmax(cal->rate[block], cal->runs[block] * pooled);
}

/*
 * Drops more counters after a round over the budget (see the header comment): fills drop[] and
 * appends to b->drops. Returns how many counters it dropped (0: nothing left that costs).
 */
static int choose_drops(struct budget *b, const struct probe_site *sites, int nsites,
			const struct calib *cal, int ncounters, unsigned char *drop)
{
	const struct budget_round *last = &b->rounds[b->nrounds - 1];
	double pooled = 1 / (b->rounds[0].orig > 1e-4 ? b->rounds[0].orig : 1e-4);
	struct cost *costs = xcalloc((size_t)ncounters + 1, sizeof *costs);
	double total = 0, per_run, need, removed = 0;
	int n = 0, dropped = 0;

	for (int c = 0; c < ncounters; c++)
		costs[c].counter = c;
	for (int i = 0; i < nsites; i++) {
		const struct probe_site *s = &sites[i];
		double rate = block_rate(cal, s->block, pooled);

		if (drop[s->counters[0]])
			continue;
		costs[s->counters[0]].cost += rate * s->weight;
		costs[s->counters[0]].runs += s->block >= 0 ? cal->runs[s->block] : 0;
		total += rate * s->weight;
	}
	if (total <= 0 || last->ratio <= 1) {
		free(costs);
		return 0;
	}
	per_run = (last->ratio - 1) / total;
	need = total - BUDGET_MARGIN * BUDGET_AIM * b->limit / per_run;
	qsort(costs, (size_t)ncounters, sizeof *costs, costlier);
	while (n < ncounters && costs[n].cost > 0)
		n++;
	for (int i = 0; i < n && removed < need; i++) {
		drop[costs[i].counter] = 1;
		b->drops = xrealloc(b->drops, sizeof *b->drops * (size_t)(b->ndrops + 1));
		b->drops[b->ndrops++] = (struct budget_drop){costs[i].counter, costs[i].runs,
							     costs[i].cost, b->nrounds, NULL};
		removed += costs[i].cost;
		dropped++;
	}
	free(costs);
	return dropped;
}

/* Returns, per counter, whether every probe updating it is dropped (and some probe does);
 * owned by the caller. */
static unsigned char *dead_counters(const struct probe_site *sites, int nsites, int ncounters,
				    const unsigned char *drop)
{
	unsigned char *updated = xcalloc((size_t)ncounters + 1, 1), *dead = xcalloc((size_t)ncounters + 1, 1);

	for (int i = 0; i < nsites; i++) {
		for (int k = 0; k < sites[i].ncounters; k++) {
			int c = sites[i].counters[k];

			if (!drop[sites[i].counters[0]])
				updated[c] = 1;
			else if (!updated[c])
				dead[c] = 1;
		}
	}
	for (int c = 0; c < ncounters; c++)
		dead[c] &= !updated[c];
	free(updated);
	return dead;
}

/* Returns whether feature f reads a dead counter. */
static int reads_dead(const struct feature *f, const unsigned char *dead)
{
	if (f->denominator >= 0 && dead[f->denominator])
		return 1;
	for (int t = 0; t < f->nterms; t++) {
		if (f->terms[t].coef != 0 && dead[f->terms[t].counter])
			return 1;
	}
	return 0;
}

/* Removes from m the features reading dead counters (noting them in b, and each drop's first
 * feature) and records the dead counters in m. */
static void remove_features(struct budget *b, struct manifest *m, const unsigned char *dead)
{
	int kept = 0;

	for (int i = 0; i < m->n; i++) {
		struct feature *f = &m->v[i];

		if (!reads_dead(f, dead)) {
			m->v[kept++] = *f;
			continue;
		}
		for (int d = 0; d < b->ndrops; d++) {
			const struct budget_drop *x = &b->drops[d];
			int reads = f->denominator == x->counter;

			for (int t = 0; t < f->nterms; t++)
				reads |= f->terms[t].counter == x->counter && f->terms[t].coef != 0;
			if (!reads || (x->feature && (strncmp(x->feature, "bycount:", 8) != 0 ||
						      strcmp(f->kind, "bycount") == 0)))
				continue; /* named by its first feature, a bycount sum only if nothing else */
			free(x->feature);
			b->drops[d].feature = xstrdup(f->name);
		}
		b->removed = xrealloc(b->removed, sizeof *b->removed * (size_t)(b->nremoved + 1));
		b->removed_kinds = xrealloc(b->removed_kinds, sizeof *b->removed_kinds * (size_t)(b->nremoved + 1));
		b->removed[b->nremoved] = xstrdup(f->name);
		b->removed_kinds[b->nremoved++] = xstrdup(f->kind);
		feature_release(f);
	}
	m->n = kept;
	manifest_index(m);
	free(m->dropped);
	m->dropped = xcalloc((size_t)m->ncounters + 1, sizeof *m->dropped);
	m->ndropped = 0;
	for (int c = 0; c < m->ncounters; c++) {
		if (dead[c])
			m->dropped[m->ndropped++] = c;
	}
}

double budget_ratio(const struct budget *b)
{
	return b->rounds[b->nrounds - 1].ratio;
}

/* Writes DIR/budget.json: the decision and how it was reached. Returns 0 or -1. */
static int write_report(const struct budget *b, const struct budget_options *o, struct error *err)
{
	char *path = xasprintf("%s/budget.json", o->dir);
	json_t *root = json_object(), *rounds = json_array(), *drops = json_array();
	json_t *removed = json_array(), *failures = json_array();
	int rc = 0;

	json_object_set_new(root, "budget", json_real(b->limit));
	json_object_set_new(root, "calibrate", json_string(o->calibrate));
	json_object_set_new(root, "inputs", json_integer(b->ninputs));
	json_object_set_new(root, "repeat", json_integer(o->repeat));
	for (int i = 0; i < b->nrounds; i++)
		json_array_append_new(rounds, json_pack("{s:f, s:f, s:f, s:i, s:i}", "orig", b->rounds[i].orig,
							"inst", b->rounds[i].inst, "ratio",
							b->rounds[i].ratio, "dropped", b->rounds[i].ndropped,
							"measured", b->rounds[i].measured));
	json_object_set_new(root, "rounds", rounds);
	json_object_set_new(root, "ratio", json_real(budget_ratio(b)));
	json_object_set_new(root, "met", json_boolean(budget_ratio(b) <= 1 + b->limit));
	for (int i = 0; i < b->ndrops; i++) {
		const struct budget_drop *d = &b->drops[i];
		json_t *jd = json_pack("{s:i, s:f, s:f, s:i}", "counter", d->counter, "runs", d->runs,
				       "cost", d->cost, "round", d->round);

		if (d->feature)
			json_object_set_new(jd, "feature", json_string(d->feature));
		json_array_append_new(drops, jd);
	}
	json_object_set_new(root, "dropped_counters", drops);
	for (int i = 0; i < b->nremoved; i++)
		json_array_append_new(removed, json_string(b->removed[i]));
	json_object_set_new(root, "removed_features", removed);
	for (int i = 0; i < b->nfailures; i++)
		json_array_append_new(failures, json_string(b->failures[i]));
	json_object_set_new(root, "failures", failures);
	if (json_dump_file(root, path, JSON_INDENT(1) | JSON_REAL_PRECISION(6)) != 0)
		rc = error_errno(err, "cannot write %s", path);
	json_decref(root);
	free(path);
	return rc;
}

/* Appends a measured round to b, made with ndropped counters dropped. */
static struct budget_round *new_round(struct budget *b, int ndropped)
{
	b->rounds = xrealloc(b->rounds, sizeof *b->rounds * (size_t)(b->nrounds + 1));
	b->rounds[b->nrounds] = (struct budget_round){0, 0, 0, ndropped, 1};
	return &b->rounds[b->nrounds++];
}

/*
 * Measures the build in DIR/inst into *r as measure does; when it comes within the aim, measures
 * it once more and keeps the means: on this machine one measurement of 10 inputs (3 runs each)
 * read 1.01 where three others of the same build read 1.06 to 1.11, and a lucky one must not
 * end the calibration. Returns 0 or -1.
 */
static int measure_build(struct calib *c, const struct manifest *m, int counts,
			 struct budget_round *r, struct error *err)
{
	struct budget_round again = *r;

	if (measure(c, m, counts, r, err) < 0)
		return -1;
	if (r->ratio > 1 + BUDGET_AIM * c->b->limit)
		return 0;
	if (measure(c, m, 0, &again, err) < 0)
		return -1;
	r->orig = (r->orig + again.orig) / 2;
	r->inst = (r->inst + again.inst) / 2;
	r->ratio = (r->ratio + again.ratio) / 2;
	r->measured = 2;
	return 0;
}

/* Drops, rebuilds and measures until the budget is met or the rounds run out; then removes
 * the features of dropped counters and writes the manifest. Returns 0 or -1. */
static int drop_rounds(struct calib *c, struct manifest *m, struct error *err)
{
	struct budget *b = c->b;
	struct probe_site *sites = NULL;
	int nsites = 0, rc;
	unsigned char *drop, *dead;
	char *path;

	if (budget_ratio(b) <= 1 + BUDGET_AIM * b->limit)
		return 0;
	rc = rebuild_inst(c->o, m, NULL, &sites, &nsites, err);
	drop = xcalloc((size_t)m->ncounters + 1, 1);
	path = xasprintf("%s/features.json", c->o->dir);

	for (int round = 1; rc == 0 && round <= c->o->max_rounds &&
			    budget_ratio(b) > 1 + BUDGET_AIM * b->limit; round++) {
		if (choose_drops(b, sites, nsites, c, m->ncounters, drop) == 0)
			break;
		rc = rebuild_inst(c->o, m, drop, NULL, NULL, err);
		if (rc == 0)
			rc = measure_build(c, m, 0, new_round(b, b->ndrops), err);
	}
	if (rc == 0 && b->ndrops > 0) {
		dead = dead_counters(sites, nsites, m->ncounters, drop);
		remove_features(b, m, dead);
		free(dead);
		rc = manifest_write(m, path, err);
	}
	instrument_sites_free(sites, nsites);
	free(drop);
	free(path);
	return rc;
}

int budget_apply(struct budget *b, const struct budget_options *o, struct manifest *m,
		 struct error *err)
{
	struct calib c = {.o = o, .b = b};
	const char *parent = getenv("TMPDIR");
	int rc = -1;

	memset(b, 0, sizeof *b);
	b->limit = o->limit;
	if (inputs_load(&c.ins, o->calibrate, err) < 0)
		return -1;
	if (c.ins.n == 0) {
		error_set(err, "%s: no inputs", o->calibrate);
		goto out;
	}
	c.tmp = xasprintf("%s/mantis-budget-XXXXXX", parent && *parent ? parent : "/tmp");
	if (!mkdtemp(c.tmp)) {
		error_errno(err, "cannot make a temporary folder %s", c.tmp);
		goto out;
	}
	c.counters_path = xasprintf("%s/counters", c.tmp);
	c.orig = xasprintf("%s/orig", o->dir);
	c.inst = xasprintf("%s/inst", o->dir);
	c.argv0 = m->program;
	c.skip = xcalloc((size_t)c.ins.n + 1, 1);
	c.runs = xcalloc((size_t)m->ncounters + 1, sizeof *c.runs);
	c.rate = xcalloc((size_t)m->ncounters + 1, sizeof *c.rate);
	if (measure_build(&c, m, 1, new_round(b, 0), err) == 0 && drop_rounds(&c, m, err) == 0)
		rc = write_report(b, o, err);
	unlink(c.counters_path);
	rmdir(c.tmp);
out:
	inputs_release(&c.ins);
	free(c.runs);
	free(c.rate);
	free(c.skip);
	free(c.tmp);
	free(c.counters_path);
	free(c.orig);
	free(c.inst);
	return rc;
}

void budget_release(struct budget *b)
{
	for (int i = 0; i < b->ndrops; i++)
		free(b->drops[i].feature);
	for (int i = 0; i < b->nremoved; i++) {
		free(b->removed[i]);
		free(b->removed_kinds[i]);
	}
	for (int i = 0; i < b->nfailures; i++)
		free(b->failures[i]);
	free(b->rounds);
	free(b->drops);
	free(b->removed);
	free(b->removed_kinds);
	free(b->failures);
	memset(b, 0, sizeof *b);
}
