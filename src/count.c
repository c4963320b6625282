/*
 * count.c: dynamic instruction counts per function and in total, from the bycount features
 * (ByCounter, 003_: "27865*LLOAD 976*meth1()" per method).
 *
 * Algorithm. The instrumentor names each bycount feature bycount:FUNCTION:FILE:LINE:DETAIL
 * (instrument.c): DETAIL is "total", an opcode, "call.NAME" (calls of library function NAME),
 * "call.NAME.bytes" (its summed size parameter) or "alloca.bytes". One pass over the manifest
 * evaluates each feature exactly (64-bit sums of coefficient times counter, feature_sum) and
 * files it under its function; the program's counts are the sums over functions, except its
 * total, which is the feature bycount:(program):-:0:total.
 * Invariant: items are sorted by name and functions keep the manifest's order, so the same
 * counters always give the same listing (mantis count is repeatable to the instruction).
 */
#include "count.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "predictor.h"
#include "runner.h"
#include "util.h"

/* Returns the item called name in *v (n items), appending a zero one if missing. */
static struct count_item *item(struct count_item **v, int *n, const char *name)
{
	for (int i = *n - 1; i >= 0; i--) {
		if (strcmp((*v)[i].name, name) == 0)
			return &(*v)[i];
	}
	*v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
	(*v)[*n] = (struct count_item){xstrdup(name), 0, 0, 0};
	return &(*v)[(*n)++];
}

/* Returns the function of feature f in c, adding it if missing. Features of one function are
 * contiguous in the manifest, so the last one is tried first. */
static struct count_function *function_of(struct count *c, const struct feature *f)
{
	for (int i = c->nfn - 1; i >= 0; i--) {
		struct count_function *fn = &c->fn[i];

		if (fn->line == f->line && strcmp(fn->name, f->function) == 0 &&
		    strcmp(fn->file, f->file) == 0)
			return fn;
	}
	c->fn = xrealloc(c->fn, sizeof *c->fn * (size_t)(c->nfn + 1));
	c->fn[c->nfn] = (struct count_function){.name = xstrdup(f->function),
						.file = xstrdup(f->file), .line = f->line};
	return &c->fn[c->nfn++];
}

/* Returns DETAIL of a bycount feature's name, or NULL if the name is not KIND:F:FILE:LINE:DETAIL
 * for the feature's own function, file and line. */
static const char *detail_of(const struct feature *f)
{
	char *prefix = xasprintf("bycount:%s:%s:%d:", f->function, f->file, f->line);
	size_t len = strlen(prefix);
	const char *detail = strncmp(f->name, prefix, len) == 0 ? f->name + len : NULL;

	free(prefix);
	return detail;
}

/* Files value v of DETAIL under fn. */
static void file_value(struct count_function *fn, const char *detail, uint64_t v)
{
	size_t len = strlen(detail);

	if (strcmp(detail, "total") == 0) {
		fn->total = v;
	} else if (strcmp(detail, "alloca.bytes") == 0) {
		fn->alloca_bytes = v;
	} else if (strncmp(detail, "call.", 5) == 0 && len > 11 && strcmp(detail + len - 6, ".bytes") == 0) {
		char *name = xasprintf("%.*s", (int)(len - 11), detail + 5);
		struct count_item *it = item(&fn->call, &fn->ncall, name);

		it->bytes = v;
		it->has_bytes = 1;
		free(name);
	} else if (strncmp(detail, "call.", 5) == 0) {
		item(&fn->call, &fn->ncall, detail + 5)->n = v;
	} else {
		item(&fn->op, &fn->nop, detail)->n = v;
	}
}

/* Adds the items of src[0..n) into *dst. */
static void add_items(struct count_item **dst, int *ndst, const struct count_item *src, int n)
{
	for (int i = 0; i < n; i++) {
		struct count_item *it = item(dst, ndst, src[i].name);

		it->n += src[i].n;
		it->bytes += src[i].bytes;
		it->has_bytes |= src[i].has_bytes;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct count_item *)a)->name, ((const struct count_item *)b)->name);
}

static void sort_items(struct count_function *fn)
{
	if (fn->nop > 1)
		qsort(fn->op, (size_t)fn->nop, sizeof *fn->op, by_name);
	if (fn->ncall > 1) /* qsort of NULL is undefined even for 0 items */
		qsort(fn->call, (size_t)fn->ncall, sizeof *fn->call, by_name);
}

static void function_release(struct count_function *fn)
{
	for (int i = 0; i < fn->nop; i++)
		free(fn->op[i].name);
	for (int i = 0; i < fn->ncall; i++)
		free(fn->call[i].name);
	free(fn->op);
	free(fn->call);
	free(fn->name);
	free(fn->file);
}

int count_from_counters(struct count *c, const struct manifest *m, const uint64_t *counters,
			struct error *err)
{
	int total = manifest_find(m, MANIFEST_INSTRUCTIONS), kept = 0;

	memset(c, 0, sizeof *c);
	if (total < 0)
		return error_set(err, "no instruction counts: the build was instrumented without the "
				 "bycount scheme");
	c->program = (struct count_function){.name = xstrdup("(program)"), .file = xstrdup("-"),
					     .total = feature_sum(&m->v[total], counters)};
	for (int i = 0; i < m->n; i++) {
		const struct feature *f = &m->v[i];
		const char *detail;

		if (strcmp(f->kind, "bycount") != 0 || strcmp(f->function, "(program)") == 0 ||
		    !(detail = detail_of(f)))
			continue;
		file_value(function_of(c, f), detail, feature_sum(f, counters));
	}
	for (int i = 0; i < c->nfn; i++) {
		struct count_function *fn = &c->fn[i];

		if (fn->total == 0) { /* it never ran */
			function_release(fn);
			continue;
		}
		sort_items(fn);
		add_items(&c->program.op, &c->program.nop, fn->op, fn->nop);
		add_items(&c->program.call, &c->program.ncall, fn->call, fn->ncall);
		c->program.alloca_bytes += fn->alloca_bytes;
		c->fn[kept++] = *fn;
	}
	c->nfn = kept;
	sort_items(&c->program);
	return 0;
}

int count_run(struct count *c, const char *dir, const struct input *in, double timeout,
	      struct run_result *res, struct error *err)
{
	char *manifest_path = xasprintf("%s/features.json", dir), *inst = xasprintf("%s/inst", dir);
	struct manifest m;
	uint64_t *counters = NULL;
	int rc = -1;

	memset(c, 0, sizeof *c);
	if (manifest_read(&m, manifest_path, err) < 0)
		goto out_paths;
	if (manifest_find(&m, MANIFEST_INSTRUCTIONS) < 0) {
		error_set(err, "%s: no instruction counts: instrument with --schemes including bycount",
			  manifest_path);
		goto out;
	}
	if (predictor_measure(inst, in, timeout, &m, res, &counters, NULL, err) < 0)
		goto out;
	if (!counters) {
		error_set(err, "%s wrote no counters (it ended: %s)", inst, runner_status_name(res->status));
		goto out;
	}
	rc = count_from_counters(c, &m, counters, err);
out:
	free(counters);
	manifest_release(&m);
out_paths:
	free(manifest_path);
	free(inst);
	return rc;
}

uint64_t count_opcode(const struct count_function *f, const char *op)
{
	for (int i = 0; i < f->nop; i++) {
		if (strcmp(f->op[i].name, op) == 0)
			return f->op[i].n;
	}
	return 0;
}

const struct count_item *count_call(const struct count_function *f, const char *name)
{
	for (int i = 0; i < f->ncall; i++) {
		if (strcmp(f->call[i].name, name) == 0)
			return &f->call[i];
	}
	return NULL;
}

/* Returns one function's (or the program's) counts as a JSON object. */
static json_t *function_json(const struct count_function *f, int with_place)
{
	json_t *o = json_object(), *ops = json_object(), *calls = json_object();

	if (with_place) {
		json_object_set_new(o, "file", json_string(f->file));
		json_object_set_new(o, "line", json_integer(f->line));
	}
	json_object_set_new(o, "total", json_integer((json_int_t)f->total));
	for (int i = 0; i < f->nop; i++) {
		if (f->op[i].n)
			json_object_set_new(ops, f->op[i].name, json_integer((json_int_t)f->op[i].n));
	}
	for (int i = 0; i < f->ncall; i++) {
		json_t *call;

		if (!f->call[i].n)
			continue;
		call = json_pack("{s:I}", "calls", (json_int_t)f->call[i].n);
		if (f->call[i].has_bytes)
			json_object_set_new(call, "bytes", json_integer((json_int_t)f->call[i].bytes));
		json_object_set_new(calls, f->call[i].name, call);
	}
	json_object_set_new(o, "opcodes", ops);
	json_object_set_new(o, "calls", calls);
	json_object_set_new(o, "alloca_bytes", json_integer((json_int_t)f->alloca_bytes));
	return o;
}

json_t *count_json(const struct count *c)
{
	json_t *root = function_json(&c->program, 0), *fns = json_object();

	for (int i = 0; i < c->nfn; i++) {
		const struct count_function *f = &c->fn[i];
		json_t *o = function_json(f, 1);

		if (json_object_get(fns, f->name)) { /* two static functions of one name */
			char *key = xasprintf("%s (%s:%d)", f->name, f->file, f->line);

			json_object_set_new(fns, key, o);
			free(key);
		} else {
			json_object_set_new(fns, f->name, o);
		}
	}
	json_object_set_new(root, "functions", fns);
	return root;
}

void count_release(struct count *c)
{
	function_release(&c->program);
	for (int i = 0; i < c->nfn; i++)
		function_release(&c->fn[i]);
	free(c->fn);
	memset(c, 0, sizeof *c);
}
