/*
 * test_instrument.c: the instrumentor on test programs that carry their own expected values.
 *
 * Each tests/programs/NAME.c ends with comment lines:
 *     // run: ARGS            one run of the program (words split at blanks)
 *     // status: N            its expected exit status (default 0)
 *     // expect: FEATURE = V  the exact value the feature must have after that run
 *     // values-first: K      (once, optional) built with mantis instrument --values-first K
 *     // schemes: LIST        (once, optional) built with mantis instrument --schemes LIST
 *     // absent: PREFIX       no feature's name starts with PREFIX
 * Every run also checks transparency: the original and the instrumented build print the same
 * stdout and end with the same status. Needs MANTIS_TOP and MANTIS_RUNTIME (tests/run sets them).
 */
#include <dirent.h>
#include <jansson.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
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
#include "tests.h"
#include "util.h"

static char *programs[64]; /* the .c files of tests/programs, sorted; owned for the process */
static int nprograms;

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void find_programs(void)
{
	const char *top = getenv("MANTIS_TOP");
	char *dir = xasprintf("%s/tests/programs", top ? top : ".");
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)) && nprograms < 64) {
		size_t len = strlen(e->d_name);

		if (len > 2 && strcmp(e->d_name + len - 2, ".c") == 0)
			programs[nprograms++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	free(dir);
	qsort(programs, (size_t)nprograms, sizeof *programs, compare_names);
}

/* Builds tests/programs/name into a fresh directory; returns it (owned); fills *m. */
static char *build_program(const char *name, unsigned schemes, struct manifest *m)
{
	const char *top = getenv("MANTIS_TOP"), *runtime = getenv("MANTIS_RUNTIME");
	char *dir = test_tmpdir(), *out = xasprintf("%s/build", dir), *src = xstrdup(name);
	char *programs_dir = xasprintf("%s/tests/programs", top ? top : ".");
	char *ldflags[] = {"-lm", "-pthread"};
	struct build_options opt = {&src, 1, NULL, NULL, 0, ldflags, 2, "2", schemes, runtime, NULL, NULL};
	struct error err = {""};

	ck_assert_msg(top && runtime, "MANTIS_TOP and MANTIS_RUNTIME must be set (tests/run does)");
	ck_assert_int_eq(chdir(programs_dir), 0); /* so names carry "loops.c", not a path */
	ck_assert_msg(build_instrumented(&opt, out, m, &err) == 0, "%s: %s", name, err.msg);
	free(programs_dir);
	free(src);
	free(dir);
	return out;
}

/* Splits args at blanks into a hand-made input (words owned by the input). */
static struct input make_input(const char *args)
{
	struct input in = {1, "", 0, NULL, NULL};
	char *copy = xstrdup(args), *save = NULL;

	in.argv = xcalloc(32, sizeof *in.argv);
	for (char *w = strtok_r(copy, " \t", &save); w && in.argc < 31; w = strtok_r(NULL, " \t", &save))
		in.argv[in.argc++] = xstrdup(w);
	free(copy);
	return in;
}

static void free_input(struct input *in)
{
	for (int i = 0; i < in->argc; i++)
		free(in->argv[i]);
	free(in->argv);
}

/* Runs the build's orig and inst on args; checks transparency and status; returns counters. */
static uint64_t *run_both(const char *build, const struct manifest *m, const char *args,
			  int want_status, const char *name)
{
	char *tmp = test_tmpdir(), *orig = xasprintf("%s/orig", build), *inst = xasprintf("%s/inst", build);
	char *out_orig = xasprintf("%s/orig.out", tmp), *out_inst = xasprintf("%s/inst.out", tmp);
	char *counters_path = xasprintf("%s/counters", tmp), *env[2] = {NULL, NULL};
	struct input in = make_input(args);
	struct run_options o = {.timeout = 60, .stdout_path = out_orig};
	struct run_result ro, ri;
	struct error err = {""};
	char *a, *b;
	uint64_t *counters;

	env[0] = xasprintf("MANTIS_COUNTERS=%s", counters_path);
	ck_assert_msg(runner_run(orig, &in, &o, &ro, &err) == 0, "%s", err.msg);
	o.stdout_path = out_inst;
	o.env = env;
	ck_assert_msg(runner_run(inst, &in, &o, &ri, &err) == 0, "%s", err.msg);
	ck_assert_msg(ro.exit_code == want_status, "%s (%s): orig exited %d, expected %d", name, args,
		      ro.exit_code, want_status);
	ck_assert_msg(ri.status == ro.status && ri.exit_code == ro.exit_code && ri.signal == ro.signal,
		      "%s (%s): inst ended %s/%d, orig %s/%d", name, args,
		      runner_status_name(ri.status), ri.exit_code, runner_status_name(ro.status),
		      ro.exit_code);
	a = test_read_file(out_orig);
	b = test_read_file(out_inst);
	ck_assert_msg(strcmp(a, b) == 0, "%s (%s): stdout differs:\n%s---\n%s", name, args, a, b);
	ck_assert_msg(counters_read(m, counters_path, &counters, &err) == 0, "%s", err.msg);
	free(a);
	free(b);
	free(env[0]);
	free_input(&in);
	free(counters_path);
	free(out_orig);
	free(out_inst);
	free(orig);
	free(inst);
	free(tmp);
	return counters;
}

/* Checks one "FEATURE = VALUE" expectation. */
static void check_expect(const struct manifest *m, const uint64_t *counters, const char *line,
			 const char *name, const char *args)
{
	char feature[512];
	double want, got;
	int f;

	ck_assert_msg(sscanf(line, "%511s = %lf", feature, &want) == 2, "%s: bad expect line '%s'",
		      name, line);
	f = manifest_find(m, feature);
	ck_assert_msg(f >= 0, "%s: no feature named %s", name, feature);
	got = feature_value(&m->v[f], counters);
	ck_assert_msg(fabs(got - want) <= 1e-9 * fabs(want), "%s (%s): %s = %.17g, expected %.17g",
		      name, args, feature, got, want);
}

/* Returns the schemes a test program is built with: its "// schemes: LIST" (default all), and
 * its "// values-first: K". */
static unsigned schemes_of(const char *text)
{
	const char *line = strstr(text, "\n// values-first:"), *list = strstr(text, "\n// schemes:");
	unsigned schemes = SCHEME_ALL;

	if (list) {
		char words[128];
		struct error err = {""};

		ck_assert(sscanf(list + 12, "%127s", words) == 1);
		ck_assert_msg(instrument_parse_schemes(words, &schemes, &err) == 0, "%s", err.msg);
	}
	return line ? instrument_values_first(schemes, atoi(line + 17)) : schemes;
}

/* Checks that no feature's name starts with prefix. */
static void check_absent(const struct manifest *m, const char *prefix, const char *name)
{
	while (*prefix == ' ')
		prefix++;
	for (int f = 0; f < m->n; f++)
		ck_assert_msg(strncmp(m->v[f].name, prefix, strlen(prefix)) != 0,
			      "%s: feature %s should not exist", name, m->v[f].name);
}

START_TEST(expected_counts)
{
	const char *name = programs[_i], *top = getenv("MANTIS_TOP");
	struct manifest m;
	char *path = xasprintf("%s/tests/programs/%s", top ? top : ".", name);
	char *text = test_read_file(path), *build = build_program(name, schemes_of(text), &m);
	char *save = NULL, args[256] = "";
	uint64_t *counters = NULL;
	int status = 0, runs = 0, expects = 0;

	/* a run's counters are taken at its first expect line, once its status line has been seen */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "// run:", 7) == 0) {
			snprintf(args, sizeof args, "%s", line + 7);
			status = 0;
			free(counters);
			counters = NULL;
			runs++;
		} else if (strncmp(line, "// status:", 10) == 0) {
			status = atoi(line + 10);
		} else if (strncmp(line, "// absent:", 10) == 0) {
			check_absent(&m, line + 10, name);
			expects++;
		} else if (strncmp(line, "// expect:", 10) == 0) {
			if (!counters)
				counters = run_both(build, &m, args, status, name);
			check_expect(&m, counters, line + 10, name, args);
			expects++;
		}
	}
	ck_assert_msg(runs > 0 && expects > 0, "%s: no '// run:' or '// expect:' lines", name);
	free(counters);
	free(path);
	free(text);
	free(build);
	manifest_release(&m);
}
END_TEST

/* Returns feature name's value, failing the test if it is missing. */
static double value_of(const struct manifest *m, const uint64_t *c, const char *name)
{
	int f = manifest_find(m, name);

	ck_assert_msg(f >= 0, "no feature %s", name);
	return feature_value(&m->v[f], c);
}

START_TEST(bycount_totals_add_up_and_grow_linearly)
{
	struct manifest m;
	char *build = build_program("values.c", SCHEME_BYCOUNT, &m);
	double total[3];

	for (int r = 0; r < 3; r++) {
		char args[16];
		uint64_t *c;
		double by_function = 0, by_opcode = 0;

		snprintf(args, sizeof args, "%d", 10 * (r + 1));
		c = run_both(build, &m, args, 0, "values.c");
		total[r] = value_of(&m, c, "bycount:(program):-:0:total");
		for (int i = 0; i < m.n; i++) {
			const struct feature *f = &m.v[i];

			if (strcmp(f->kind, "bycount") != 0 || strstr(f->name, ":total") == NULL)
				continue;
			if (strcmp(f->function, "(program)") != 0)
				by_function += feature_value(f, c);
		}
		for (int i = 0; i < m.n; i++) {
			if (strcmp(m.v[i].function, "(program)") == 0 && !strstr(m.v[i].name, ":total"))
				by_opcode += feature_value(&m.v[i], c);
		}
		ck_assert_double_eq(by_function, total[r]);
		ck_assert_double_eq(by_opcode, total[r]);
		free(c);
	}
	/* values.c does the same work per k: the count grows by the same amount per 10 */
	ck_assert(total[0] > 0);
	ck_assert_double_eq(total[2] - total[1], total[1] - total[0]);
	free(build);
	manifest_release(&m);
}
END_TEST

START_TEST(schemes_select_features)
{
	struct manifest m;
	char *build = build_program("branches.c", SCHEME_LOOP, &m);

	for (int i = 0; i < m.n; i++)
		ck_assert_msg(strcmp(m.v[i].kind, "loop") == 0, "%s with --schemes loop", m.v[i].name);
	ck_assert_int_eq(m.n, 1);
	free(build);
	manifest_release(&m);
}
END_TEST

/* codegen's staged build (optimiser, llvm-split, back ends in parallel, link), forced on a small
 * program whose static compare lands in another part than main, which hands it to qsort: the
 * same output and exactly the same counters as the one-clang build. */
START_TEST(split_build_counts_as_one_build)
{
	struct manifest m;
	char *build = build_program("calls.c", SCHEME_ALL, &m), *bc = xasprintf("%s/inst.bc", build);
	char *work = xasprintf("%s/work", build), *exe = xasprintf("%s/inst", build);
	char *part1 = xasprintf("%s/inst-part1.o", work), *ldflags[] = {"-lm", "-pthread"};
	struct build_options opt = {NULL, 0, NULL, NULL, 0, ldflags, 2, "2", SCHEME_ALL,
				    getenv("MANTIS_RUNTIME"), NULL, NULL};
	struct error err = {""};
	uint64_t *whole = run_both(build, &m, "10", 0, "calls.c"), *split;

	ck_assert_msg(access(part1, F_OK) != 0, "calls.c is under 1 MiB: built in one clang");
	ck_assert_msg(codegen_build(bc, &opt, 2, work, exe, NULL, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(access(part1, R_OK), 0);
	split = run_both(build, &m, "10", 0, "calls.c");
	ck_assert_double_eq(value_of(&m, split, "call:fib:calls.c:6"), 177);
	ck_assert_double_eq(value_of(&m, split, "call:(indirect):calls.c:34:count"), 10);
	for (int i = 0; i < m.ncounters; i++)
		ck_assert_msg(whole[i] == split[i], "counter %d: %llu in one part, %llu in two", i,
			      (unsigned long long)whole[i], (unsigned long long)split[i]);
	free(whole);
	free(split);
	free(bc);
	free(work);
	free(exe);
	free(part1);
	free(build);
	manifest_release(&m);
}
END_TEST

START_TEST(threads_are_clean_under_thread_sanitizer)
{
	struct manifest m;
	char *build = build_program("threads.c", SCHEME_ALL, &m), *tsan = xasprintf("%s/inst-tsan", build);
	char *cmd = xasprintf("clang-14 -O1 -g -fsanitize=thread -Wno-override-module %s/inst.bc %s "
			      "-o %s -pthread", build, getenv("MANTIS_RUNTIME"), tsan);
	char *tmp = test_tmpdir(), *out = xasprintf("%s/out", tmp), *counters_path = xasprintf("%s/c", tmp);
	char *env[3] = {xasprintf("MANTIS_COUNTERS=%s", counters_path),
			"TSAN_OPTIONS=halt_on_error=1 exitcode=66", NULL};
	char *words[] = {"x", NULL};
	struct input in = {1, "", 1, words, NULL};
	struct run_options o = {.timeout = 60, .stdout_path = out, .env = env};
	struct run_result r;
	struct error err = {""};
	uint64_t *c;
	char *text;

	ck_assert_int_eq(system(cmd), 0);
	ck_assert_msg(runner_run(tsan, &in, &o, &r, &err) == 0, "%s", err.msg);
	ck_assert_msg(r.status == RUN_OK, "under ThreadSanitizer: %s, exit %d (66: a data race)",
		      runner_status_name(r.status), r.exit_code);
	text = test_read_file(out);
	ck_assert_str_eq(text, "16500\n");
	ck_assert_msg(counters_read(&m, counters_path, &c, &err) == 0, "%s", err.msg);
	ck_assert_double_eq(value_of(&m, c, "loop:work:threads.c:10"), 11000);
	free(c);
	free(text);
	free(env[0]);
	free(counters_path);
	free(out);
	free(tmp);
	free(cmd);
	free(tsan);
	free(build);
	manifest_release(&m);
}
END_TEST

/* One branch condition's counts on a line, from either tool. */
struct branch_count {
	char file[256]; /* base name */
	int line;
	double t, f;    /* times true, times false */
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Reads llvm-cov's branch regions (export -format=text) into *out; returns how many. */
static int llvm_cov_branches(const char *json_path, struct branch_count **out)
{
	json_error_t jerr;
	json_t *root = json_load_file(json_path, 0, &jerr), *files, *f, *b;
	size_t i, k;
	int n = 0;

	ck_assert_msg(root != NULL, "%s: %s", json_path, jerr.text);
	*out = NULL;
	files = json_object_get(json_array_get(json_object_get(root, "data"), 0), "files");
	json_array_foreach(files, i, f) {
		const char *name = base_name(json_string_value(json_object_get(f, "filename")));

		json_array_foreach(json_object_get(f, "branches"), k, b) {
			struct branch_count *c;

			*out = xrealloc(*out, sizeof **out * (size_t)(n + 1));
			c = &(*out)[n++];
			snprintf(c->file, sizeof c->file, "%s", name);
			c->line = (int)json_integer_value(json_array_get(b, 0));
			c->t = json_number_value(json_array_get(b, 4));
			c->f = json_number_value(json_array_get(b, 5));
		}
	}
	json_decref(root);
	return n;
}

/* Builds name with clang's coverage instrumentation, runs it on args, exports its coverage
 * (format "text": JSON, or "lcov"); returns the file's path (owned). Atomic counter updates:
 * clang's default increments race between threads (threads.c lost 1,000 of 11,000 once). */
static char *coverage_export(const char *name, const char *args, const char *format)
{
	char *tmp = test_tmpdir(), *exe = xasprintf("%s/cov", tmp), *raw = xasprintf("%s/p.profraw", tmp);
	char *data = xasprintf("%s/p.profdata", tmp), *json = xasprintf("%s/cov.json", tmp), *cmd;

	cmd = xasprintf("clang-14 -O0 -g -fprofile-instr-generate -fprofile-update=atomic -fcoverage-mapping -o %s %s -lm -pthread && "
			"LLVM_PROFILE_FILE=%s %s %s > /dev/null && llvm-profdata-14 merge -o %s %s && "
			"llvm-cov-14 export -format=%s -instr-profile %s %s > %s",
			exe, name, raw, exe, args, data, raw, format, data, exe, json);
	ck_assert_msg(system(cmd) == 0, "%s", cmd);
	free(cmd);
	free(exe);
	free(raw);
	free(data);
	free(tmp);
	return json;
}

START_TEST(branch_counts_agree_with_llvm_cov)
{
	static const char *const cases[][2] = {
		{"branches.c", "5"}, {"loops.c", "10"}, {"values.c", "7"}, {"calls.c", "12"}, {"exits.c", "7"},
	};
	int lines_compared = 0;

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct manifest m;
		char *build = build_program(cases[c][0], SCHEME_BRANCH, &m);
		uint64_t *counters = run_both(build, &m, cases[c][1], 0, cases[c][0]);
		char *json = coverage_export(cases[c][0], cases[c][1], "text");
		struct branch_count *theirs, ours[256];
		int ntheirs = llvm_cov_branches(json, &theirs), nours = 0;

		/* ours: the true/false pairs of branch features, in manifest (evaluation) order */
		for (int i = 0; i < m.n && nours < 256; i++) {
			const struct feature *f = &m.v[i];

			if (strcmp(f->kind, "branch") != 0 || !strstr(f->name, ":true"))
				continue;
			snprintf(ours[nours].file, sizeof ours[nours].file, "%s", base_name(f->file));
			ours[nours].line = f->line;
			ours[nours].t = feature_value(f, counters);
			ours[nours].f = feature_value(&m.v[i + 1], counters);
			nours++;
		}
		for (int a = 0; a < nours; a++) {
			int mine = 0, other = 0, ka = 0, kb = 0;

			for (int x = 0; x < nours; x++)
				mine += ours[x].line == ours[a].line && !strcmp(ours[x].file, ours[a].file);
			for (int x = 0; x < ntheirs; x++)
				other += theirs[x].line == ours[a].line && !strcmp(theirs[x].file, ours[a].file);
			if (mine != other)
				continue; /* switches and lines simplifycfg merged differ: not comparable */
			for (int x = 0; x < a; x++)
				ka += ours[x].line == ours[a].line && !strcmp(ours[x].file, ours[a].file);
			for (int x = 0; x < ntheirs; x++) {
				if (theirs[x].line != ours[a].line || strcmp(theirs[x].file, ours[a].file))
					continue;
				if (kb++ == ka) {
					ck_assert_msg(theirs[x].t == ours[a].t && theirs[x].f == ours[a].f,
						      "%s:%d: mantis %g/%g, llvm-cov %g/%g", ours[a].file,
						      ours[a].line, ours[a].t, ours[a].f, theirs[x].t, theirs[x].f);
					lines_compared++;
				}
			}
		}
		free(theirs);
		free(json);
		free(counters);
		free(build);
		manifest_release(&m);
	}
	ck_assert_msg(lines_compared >= 15, "only %d branches could be compared", lines_compared);
}
END_TEST

/* One source line's execution count, from either tool. */
struct line_count {
	char file[256]; /* base name */
	int line;
	double count;
};

/* Sets the count of file:line in lines[0..*n) to the larger of it and count (adding it). */
static void raise_line(struct line_count **lines, int *n, const char *file, int line, double count)
{
	struct line_count *l;

	for (int i = 0; i < *n; i++) {
		if ((*lines)[i].line == line && strcmp((*lines)[i].file, file) == 0) {
			if (count > (*lines)[i].count)
				(*lines)[i].count = count;
			return;
		}
	}
	*lines = xrealloc(*lines, sizeof **lines * (size_t)(*n + 1));
	l = &(*lines)[(*n)++];
	snprintf(l->file, sizeof l->file, "%s", file);
	l->line = line;
	l->count = count;
}

/* Reads llvm-cov's line counts (export -format=lcov: "SF:FILE", then "DA:LINE,COUNT"), which
 * are show's: per line, the largest count of the regions starting on it and of the region it
 * starts in. Returns how many. */
static int llvm_cov_lines(const char *lcov_path, struct line_count **out)
{
	char *text = test_read_file(lcov_path), *save = NULL, file[256] = "";
	int n = 0;

	*out = NULL;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int line;
		unsigned long long count;

		if (strncmp(l, "SF:", 3) == 0)
			snprintf(file, sizeof file, "%s", base_name(l + 3));
		else if (sscanf(l, "DA:%d,%llu", &line, &count) == 2)
			raise_line(out, &n, file, line, (double)count);
	}
	free(text);
	return n;
}

/* Returns the counter a block's !mantis.block tag names, or -1 if it has none (unreachable). */
static int block_counter(LLVMBasicBlockRef b, unsigned kind)
{
	for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
		LLVMValueRef tag = LLVMGetMetadata(x, kind), op;

		if (!tag)
			continue;
		LLVMGetMDNodeOperands(tag, &op);
		return (int)LLVMConstIntGetZExtValue(op);
	}
	return -1;
}

/*
 * Our line counts: per source line, the largest count of a block holding one of its
 * instructions, leaving out debug intrinsics, phis (mem2reg gives them the line of the
 * variable's declaration: `int s = 0;` would count the loop header's entries) and unconditional
 * branches (a jump carries the line of the statement it ends or enters: `do {`, `break;`,
 * `return 0;`, a switch's closing brace, where llvm-cov counts the region starting or going on
 * there, not the jump). The block counters are found as the slicer finds them: DIR/prepared.bc
 * instrumented again for slicing tags each block's first instruction with its counter
 * (instrument.h), numbered as DIR/inst's counters. Returns how many lines.
 */
static int mantis_lines(const char *build, const struct manifest *m, const uint64_t *counters,
			struct line_count **out)
{
	char *bc = xasprintf("%s/prepared.bc", build);
	unsigned char *keep = xcalloc((size_t)m->ncounters + 1, 1);
	struct manifest again = {0};
	struct error err = {""};
	struct ir ir;
	unsigned kind;
	int n = 0;

	ck_assert_msg(ir_load(&ir, bc, &err) == 0, "%s", err.msg);
	ck_assert_msg(instrument_module_for_slicing(&ir, m->schemes, keep, m->ncounters, &again, &err) == 0,
		      "%s", err.msg);
	kind = LLVMGetMDKindIDInContext(ir.ctx, "mantis.block", 12);
	*out = NULL;
	for (LLVMValueRef fn = LLVMGetFirstFunction(ir.mod); fn; fn = LLVMGetNextFunction(fn)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
			int c = block_counter(b, kind);

			for (LLVMValueRef x = LLVMGetFirstInstruction(b); x && c >= 0; x = LLVMGetNextInstruction(x)) {
				LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(x), scope;
				LLVMValueRef callee;
				size_t len;
				unsigned flen;

				if (LLVMIsAPHINode(x) || (LLVMIsABranchInst(x) && !LLVMIsConditional(x)) ||
				    (LLVMIsACallInst(x) && LLVMIsAFunction(callee = LLVMGetCalledValue(x)) &&
				     strncmp(LLVMGetValueName2(callee, &len), "llvm.dbg.", 9) == 0))
					continue;
				if (!loc || LLVMDILocationGetLine(loc) == 0 || !(scope = LLVMDILocationGetScope(loc)) ||
				    !LLVMDIScopeGetFile(scope))
					continue;
				raise_line(out, &n, base_name(LLVMDIFileGetFilename(LLVMDIScopeGetFile(scope), &flen)),
					   (int)LLVMDILocationGetLine(loc), (double)counters[c]);
			}
		}
	}
	manifest_release(&again);
	ir_release(&ir);
	free(keep);
	free(bc);
	return n;
}

/*
 * Line counts against llvm-cov's (the -O0 coverage build of the same source, same input; lcov
 * export, whose counts are llvm-cov show's). The lines compared are those with a count in
 * llvm-cov and an instruction of ours as mantis_lines counts them; the others have none left
 * after mem2reg or only a jump: braces, declarations with a constant initial value, `(void)x;`,
 * labels, `goto`, `do {`, `return CONSTANT;` (79 of llvm-cov's 208 lines on these programs). Our
 * count of a line is the largest count of its blocks, as llvm-cov's is the largest count of the
 * regions starting on it (and of the one it starts inside).
 */
START_TEST(line_counts_agree_with_llvm_cov)
{
	static const char *const cases[][2] = {
		{"branches.c", "5"}, {"loops.c", "10"}, {"values.c", "7"}, {"calls.c", "12"}, {"exits.c", "7"},
		{"hard.c", "5"}, {"recursion.c", "5"}, {"threads.c", "x"},
	};
	struct strbuf bad = {0};
	int compared = 0;

	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		struct manifest m;
		char *build = build_program(cases[c][0], SCHEME_LOOP, &m);
		uint64_t *counters = run_both(build, &m, cases[c][1], 0, cases[c][0]);
		char *lcov = coverage_export(cases[c][0], cases[c][1], "lcov");
		struct line_count *theirs, *ours;
		int ntheirs = llvm_cov_lines(lcov, &theirs), nours = mantis_lines(build, &m, counters, &ours);

		for (int a = 0; a < nours; a++) {
			for (int t = 0; t < ntheirs; t++) {
				if (theirs[t].line != ours[a].line || strcmp(theirs[t].file, ours[a].file) != 0)
					continue;
				compared++;
				if (theirs[t].count != ours[a].count)
					strbuf_addf(&bad, "\n  %s:%d: mantis %g, llvm-cov %g", ours[a].file,
						    ours[a].line, ours[a].count, theirs[t].count);
			}
		}
		free(theirs);
		free(ours);
		free(lcov);
		free(counters);
		free(build);
		manifest_release(&m);
	}
	ck_assert_msg(bad.len == 0, "line counts differ:%s", bad.buf);
	ck_assert_msg(compared >= 120, "only %d lines could be compared", compared); /* 129 of 208 */
	strbuf_release(&bad);
}
END_TEST

Suite *suite_instrument(void)
{
	Suite *s = suite_create("instrument");
	TCase *tc = tcase_create("programs");

	find_programs();
	tcase_set_timeout(tc, 120);
	if (nprograms > 0)
		tcase_add_loop_test(tc, expected_counts, 0, nprograms);
	tcase_add_test(tc, bycount_totals_add_up_and_grow_linearly);
	tcase_add_test(tc, schemes_select_features);
	tcase_add_test(tc, split_build_counts_as_one_build);
	tcase_add_test(tc, threads_are_clean_under_thread_sanitizer);
	tcase_add_test(tc, branch_counts_agree_with_llvm_cov);
	tcase_add_test(tc, line_counts_agree_with_llvm_cov);
	suite_add_tcase(s, tc);
	return s;
}
