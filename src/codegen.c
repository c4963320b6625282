/*
 * codegen.c: the compile of DIR/inst, staged so that its slow steps shrink or run in parallel:
 *
 *   instrumented module --strip debug information--> DIR/inst.bc
 *     --clang -O<l> -emit-llvm, memory-dependence walks capped at 100 blocks--> work/inst-opt.bc
 *     --llvm-split-14 -j N--> work/inst-part0 .. inst-part<N-1>
 *     --N back ends at once (clang -O<l> -c -disable-llvm-passes)--> work/inst-part<I>.o
 *     --clang, with the runtime and the user's link flags--> DIR/inst
 *     --clang, with the runtime, sandbox.o and the user's link flags--> DIR/sandboxed (at once)
 *
 * A module under 1 MiB of bitcode takes one clang -c (same flags) to work/inst.o, as the stages
 * cost ~0.1 s more, and the same two links. DIR/sandboxed (when build_options.sandbox is set)
 * is DIR/inst's objects linked also with sandbox.o (rt/sandbox.c), before the user's link flags
 * and so before the C library: its open, fopen, remove, write... are the ones the program
 * calls, so it counts what DIR/inst counts but changes no file and prints nothing (mantis runs
 * it on samples of the inputs at prediction time, whose arguments may name real output files).
 * The program is compiled once for both.
 * Why (the sqlite3 shell, whose inst compile is 3/4 of `mantis instrument`'s wall time, CPU s):
 * the debug information only feeds the back end (21.9 -> 16.3 s without it) and nothing reads
 * DIR/inst's; GVN's non-local memory-dependence queries from the counters' loads walk up to 1000
 * blocks back (GVN 11.3 s, 1.6 in orig's compile), capped at 100 GVN takes 5.6 s and the
 * optimiser 37 s instead of 43; the back end of the optimised module in two halves (hashed by
 * symbol name) takes 7.0 + 8.7 s, in parallel once DIR/orig's compile has left the other core.
 *
 * Invariant: the optimiser sees the whole module, exactly as in one clang run (`-emit-llvm` then
 * `-disable-llvm-passes` gives byte-identical code to one `clang -c`); the split only moves
 * functions into separate objects (internal symbols become hidden ones) and the cap only makes
 * GVN give up sooner in large functions, so the counts are the program's exactly and only code
 * quality could move (bench/overhead measures it). DIR/inst and DIR/sandboxed are linked from
 * the same objects, so they run the same code on the same counters. DIR/orig is not built here:
 * it stays one clang -O<l> of DIR/prepared.bc, with its debug information, as the user would
 * build it.
 */
#include "codegen.h"

#include <assert.h>
#include <errno.h>
#include <llvm-c/DebugInfo.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "error.h"
#include "ir.h"
#include "util.h"

#define CLANG "clang-14"
#define SPLIT "llvm-split-14"
#define SPLIT_MIN_BYTES (1L << 20) /* smaller bitcode is built in one clang */
#define MAX_PARTS 4                /* more parts than this externalise more for little gain */

/* A command line being built. */
struct cmd {
	char **v; /* the words, NULL-ended; the array is owned, the words are not */
	int n;    /* words */
};

/* Appends the word s (not copied). */
static void cmd_add(struct cmd *c, const char *s)
{
	c->v = xrealloc(c->v, sizeof *c->v * (size_t)(c->n + 2));
	c->v[c->n++] = (char *)s;
	c->v[c->n] = NULL;
}

/* Starts a clang command at level (the "-O2" word) with the inst compile's own flags. */
static void cmd_clang(struct cmd *c, const char *level)
{
	cmd_add(c, CLANG);
	cmd_add(c, level);
	cmd_add(c, "-Wno-override-module");
}

/* Appends the runtime object, with sandboxed the sandbox object after it (so before the C
 * library, which the user's flags and clang add after), and the user's link flags. */
static void cmd_link_inputs(struct cmd *c, const struct build_options *opt, int sandboxed)
{
	cmd_add(c, opt->runtime);
	if (sandboxed)
		cmd_add(c, opt->sandbox);
	for (int i = 0; i < opt->nldflags; i++)
		cmd_add(c, opt->ldflags[i]);
}

/* Appends the cap on GVN's memory-dependence walks (see the opening comment). */
static void cmd_memdep_cap(struct cmd *c)
{
	cmd_add(c, "-mllvm");
	cmd_add(c, "-memdep-block-number-limit=100");
}

/* Runs c and frees its array. Returns 0 or -1. */
static int cmd_run(struct cmd *c, struct error *err)
{
	int rc = run_command(c->v, NULL, err);

	free(c->v);
	c->v = NULL;
	c->n = 0;
	return rc;
}

/* Starts argv (looked up in PATH) without waiting. Returns its pid, or -1 with err. */
static pid_t start(char *const *argv, struct error *err)
{
	pid_t pid;
	int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);

	if (rc != 0) {
		errno = rc;
		return error_errno(err, "cannot run %s", argv[0]);
	}
	return pid;
}

/* Waits for pid (running what). Returns 0 if it exited 0, else -1 with err. */
static int finish(pid_t pid, const char *what, struct error *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error_errno(err, "waiting for %s", what);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return error_set(err, "%s failed (exit status %d)", what,
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}

/* Compiles the parts modules prefix0.. at once, each to prefixI.o. Returns 0 or -1 (all waited). */
static int back_ends(const char *prefix, int parts, const char *level, struct error *err)
{
	pid_t *pids = xcalloc((size_t)parts, sizeof *pids);
	int rc = 0;

	for (int i = 0; i < parts && rc == 0; i++) {
		char *in = xasprintf("%s%d", prefix, i), *out = xasprintf("%s%d.o", prefix, i);
		struct cmd c = {0};

		cmd_clang(&c, level);
		cmd_add(&c, "-c");
		cmd_add(&c, "-Xclang");
		cmd_add(&c, "-disable-llvm-passes");
		cmd_add(&c, "-x");
		cmd_add(&c, "ir");
		cmd_add(&c, in);
		cmd_add(&c, "-o");
		cmd_add(&c, out);
		pids[i] = start(c.v, err);
		rc = pids[i] < 0 ? -1 : 0;
		free(c.v);
		free(in);
		free(out);
	}
	for (int i = 0; i < parts; i++) {
		struct error part_err = {""};

		if (pids[i] > 0 && finish(pids[i], "the back end of " CLANG, &part_err) < 0 && rc == 0)
			rc = error_set(err, "%s", part_err.msg);
	}
	free(pids);
	return rc;
}

/* Starts linking exe from objects[0..n) with cmd_link_inputs' inputs. Returns the pid, or -1. */
static pid_t start_link(char *const *objects, int n, const struct build_options *opt,
			int sandboxed, const char *exe, struct error *err)
{
	struct cmd c = {0};
	pid_t pid;

	cmd_add(&c, CLANG);
	cmd_add(&c, "-o");
	cmd_add(&c, exe);
	for (int i = 0; i < n; i++)
		cmd_add(&c, objects[i]);
	cmd_link_inputs(&c, opt, sandboxed);
	pid = start(c.v, err);
	free(c.v);
	return pid;
}

/*
 * Links exe from objects[0..n) and, with opt->sandbox and sandboxed, at the same time the
 * executable sandboxed from the same objects with the sandbox too. Returns 0, or -1 with err
 * naming the executable that failed (both are waited for).
 */
static int link_both(char *const *objects, int n, const struct build_options *opt,
		     const char *exe, const char *sandboxed, struct error *err)
{
	const char *names[2] = {exe, sandboxed};
	pid_t pids[2] = {0, 0};
	int rc = 0, links = opt->sandbox && sandboxed ? 2 : 1;

	for (int i = 0; i < links && rc == 0; i++) {
		struct error start_err = {""};

		if ((pids[i] = start_link(objects, n, opt, i, names[i], &start_err)) < 0)
			rc = error_set(err, "building %s: %s", names[i], start_err.msg);
	}
	for (int i = 0; i < 2; i++) {
		struct error link_err = {""};

		if (pids[i] > 0 && finish(pids[i], CLANG, &link_err) < 0 && rc == 0)
			rc = error_set(err, "building %s: %s", names[i], link_err.msg);
	}
	return rc;
}

/* The compile of codegen_build for parts >= 2: the objects workdir/inst-partI.o, whose paths
 * are put in objects[0..parts) (owned by the caller). Returns 0 or -1. */
static int compile_in_parts(const char *bitcode, int parts, const char *workdir,
			    const char *level, char **objects, struct error *err)
{
	char *optimised = xasprintf("%s/inst-opt.bc", workdir), *prefix = xasprintf("%s/inst-part", workdir);
	char *split_n = xasprintf("-j=%d", parts), *split_o = xasprintf("-o=%s", prefix);
	struct cmd c = {0};
	int rc;

	cmd_clang(&c, level);
	cmd_memdep_cap(&c);
	cmd_add(&c, "-c");
	cmd_add(&c, "-emit-llvm");
	cmd_add(&c, "-o");
	cmd_add(&c, optimised);
	cmd_add(&c, bitcode);
	rc = cmd_run(&c, err);
	if (rc == 0) {
		cmd_add(&c, SPLIT);
		cmd_add(&c, split_n);
		cmd_add(&c, split_o);
		cmd_add(&c, optimised);
		rc = cmd_run(&c, err);
	}
	if (rc == 0)
		rc = back_ends(prefix, parts, level, err);
	for (int i = 0; i < parts; i++)
		objects[i] = xasprintf("%s%d.o", prefix, i);
	free(optimised);
	free(prefix);
	free(split_n);
	free(split_o);
	return rc;
}

int codegen_build(const char *bitcode, const struct build_options *opt, int parts,
		  const char *workdir, const char *exe, const char *sandboxed, struct error *err)
{
	char *level = xasprintf("-O%s", opt->opt);
	char **objects = xcalloc((size_t)parts, sizeof *objects);
	struct cmd c = {0};
	int rc;

	assert(parts >= 1);
	if (parts > 1) {
		rc = compile_in_parts(bitcode, parts, workdir, level, objects, err);
	} else {
		objects[0] = xasprintf("%s/inst.o", workdir);
		cmd_clang(&c, level);
		cmd_memdep_cap(&c);
		cmd_add(&c, "-c");
		cmd_add(&c, "-o");
		cmd_add(&c, objects[0]);
		cmd_add(&c, bitcode);
		rc = cmd_run(&c, err);
	}
	if (rc < 0)
		error_prefix(err, "building %s", exe);
	else
		rc = link_both(objects, parts, opt, exe, sandboxed, err);
	for (int i = 0; i < parts; i++)
		free(objects[i]);
	free(objects);
	free(level);
	return rc;
}

/* Returns how many parts to build bitcode in: 1 if small, else one per processor (up to 4). */
static int parts_for(const char *bitcode)
{
	struct stat st;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (stat(bitcode, &st) < 0 || st.st_size < SPLIT_MIN_BYTES || cpus < 2)
		return 1;
	return cpus < MAX_PARTS ? (int)cpus : MAX_PARTS;
}

int codegen_inst(struct ir *ir, const struct build_options *opt, const char *dir,
		 struct error *err)
{
	char *bc = xasprintf("%s/inst.bc", dir), *exe = xasprintf("%s/inst", dir);
	char *work = xasprintf("%s/work", dir), *sandboxed = xasprintf("%s/sandboxed", dir);
	int rc;

	LLVMStripModuleDebugInfo(ir->mod);
	rc = ir_write(ir, bc, err);
	if (rc == 0 && mkdir(work, 0777) < 0 && errno != EEXIST)
		rc = error_errno(err, "cannot make %s", work);
	if (rc == 0 && !opt->sandbox && unlink(sandboxed) < 0 && errno != ENOENT)
		rc = error_errno(err, "cannot remove %s (a previous build's)", sandboxed);
	if (rc == 0)
		rc = codegen_build(bc, opt, parts_for(bc), work, exe, sandboxed, err);
	free(bc);
	free(exe);
	free(work);
	free(sandboxed);
	return rc;
}
