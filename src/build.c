/*
 * build.c: the instrument pipeline, top to bottom:
 *
 *   sources --clang, no passes--> modules --link--> program      (ir_from_sources) or bitcode
 *   program --prepare: strip optnone, mem2reg, simplifycfg--> DIR/prepared.bc --clang -O--> orig
 *   prepared --instrument(schemes)--> DIR/inst.bc + DIR/features.json --clang -O + runtime--> inst
 *
 * Both executables come from the same prepared IR through the same clang pipeline, so they
 * differ only by the counters. The orig build runs in a child process while the parent
 * instruments and builds inst: on two cores the two clang back ends overlap (the sqlite3
 * shell: 33 s of back end each).
 */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"
#include "instrument.h"
#include "ir.h"
#include "manifest.h"
#include "util.h"

/* Writes bitcode of ir to DIR/name and builds DIR/exe from it. Returns 0 or -1. */
static int write_and_link(const struct ir *ir, const struct build_options *opt, const char *dir,
			  const char *bc_name, const char *exe_name, int with_runtime,
			  struct error *err)
{
	char *bc = xasprintf("%s/%s", dir, bc_name), *exe = xasprintf("%s/%s", dir, exe_name);
	char *objs[1] = {(char *)opt->runtime};
	int rc = ir_write(ir, bc, err);

	if (rc == 0)
		rc = ir_build_executable(bc, opt->opt, objs, with_runtime ? 1 : 0, opt->ldflags,
					 opt->nldflags, exe, err);
	free(bc);
	free(exe);
	return rc;
}

/* Writes DIR/prepared.bc and builds DIR/orig from it in a child process. Returns its pid or -1. */
static pid_t start_orig(const struct ir *ir, const struct build_options *opt, const char *dir,
			struct error *err)
{
	char *bc = xasprintf("%s/prepared.bc", dir);
	pid_t pid;

	if (ir_write(ir, bc, err) < 0) {
		free(bc);
		return -1;
	}
	free(bc);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno(err, "cannot fork to build %s/orig", dir);
	if (pid == 0) {
		struct error child_err = {""};

		if (write_and_link(ir, opt, dir, "prepared.bc", "orig", 0, &child_err) < 0) {
			fprintf(stderr, "mantis: %s\n", child_err.msg);
			_exit(1);
		}
		_exit(0);
	}
	return pid;
}

/* Waits for the orig build; returns 0 if it succeeded, else -1 (with err set if err). */
static int finish_orig(pid_t pid, const char *dir, struct error *err)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return err ? error_errno(err, "waiting for the build of %s/orig", dir) : -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	return err ? error_set(err, "building %s/orig failed (see above)", dir) : -1;
}

int build_instrumented(const struct build_options *opt, const char *dir, struct manifest *m,
		       struct error *err)
{
	char *work = xasprintf("%s/work", dir), *manifest_path = xasprintf("%s/features.json", dir);
	struct ir ir = {0};
	int rc = -1;
	pid_t orig_builder = 0;

	memset(m, 0, sizeof *m);
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || (mkdir(work, 0777) < 0 && errno != EEXIST)) {
		error_errno(err, "cannot make %s", work);
		goto out;
	}
	if (opt->bitcode ? ir_load(&ir, opt->bitcode, err)
			 : ir_from_sources(&ir, opt->sources, opt->nsources, opt->opt, opt->cflags,
					   opt->ncflags, work, err))
		goto out;
	if (ir_prepare(&ir, err) < 0 || (orig_builder = start_orig(&ir, opt, dir, err)) < 0)
		goto out;
	if (instrument_module(&ir, opt->schemes, m, err) < 0) {
		error_prefix(err, "instrumenting");
		goto out;
	}
	manifest_set_build(m, opt->schemes, opt->opt, opt->ldflags, opt->nldflags);
	if (manifest_write(m, manifest_path, err) < 0 ||
	    write_and_link(&ir, opt, dir, "inst.bc", "inst", 1, err) < 0)
		goto out;
	rc = 0;
out:
	if (orig_builder > 0 && finish_orig(orig_builder, dir, rc == 0 ? err : NULL) < 0)
		rc = -1;
	if (rc < 0)
		manifest_release(m);
	if (ir.ctx)
		ir_release(&ir);
	free(work);
	free(manifest_path);
	return rc;
}
