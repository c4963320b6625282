/*
 * build.c: the instrument pipeline, top to bottom:
 *
 *   sources --clang, no passes--> modules --link--> program      (ir_from_sources) or bitcode
 *   program --prepare: strip optnone, mem2reg, simplifycfg--> DIR/prepared.bc --clang -O--> orig
 *   prepared --instrument(schemes)--> DIR/inst.bc + DIR/features.json --clang -O + runtime--> inst
 *
 * Both executables come from the same prepared IR through the same clang pipeline, so they
 * differ only by the counters.
 */
#include "build.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

int build_instrumented(const struct build_options *opt, const char *dir, struct manifest *m,
		       struct error *err)
{
	char *work = xasprintf("%s/work", dir), *manifest_path = xasprintf("%s/features.json", dir);
	struct ir ir = {0};
	int rc = -1;

	memset(m, 0, sizeof *m);
	if ((mkdir(dir, 0777) < 0 && errno != EEXIST) || (mkdir(work, 0777) < 0 && errno != EEXIST)) {
		error_errno(err, "cannot make %s", work);
		goto out;
	}
	if (opt->bitcode ? ir_load(&ir, opt->bitcode, err)
			 : ir_from_sources(&ir, opt->sources, opt->nsources, opt->opt, opt->cflags,
					   opt->ncflags, work, err))
		goto out;
	if (ir_prepare(&ir, err) < 0 ||
	    write_and_link(&ir, opt, dir, "prepared.bc", "orig", 0, err) < 0)
		goto out;
	if (instrument_module(&ir, opt->schemes, m, err) < 0) {
		error_prefix(err, "instrumenting");
		goto out;
	}
	if (manifest_write(m, manifest_path, err) < 0 ||
	    write_and_link(&ir, opt, dir, "inst.bc", "inst", 1, err) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		manifest_release(m);
	if (ir.ctx)
		ir_release(&ir);
	free(work);
	free(manifest_path);
	return rc;
}
