/*
 * ir.c: getting a whole program into one module and back out as executables.
 *
 * Front end: clang-14 -g -O<opt> -Xclang -disable-llvm-passes -c -emit-llvm per source (at -O0
 * also -Xclang -disable-O0-optnone), so the bitcode carries the attributes of the user's level
 * but no optimisation yet; LLVMLinkModules2 joins them. Preparation (../shared/notes/llvm-c.md):
 * strip optnone, then LLVMRunPasses("function(mem2reg,simplifycfg<keep-loops;bonus-inst-threshold=0>)") with
 * simplifycfg's speculation off (phi-node-folding-threshold=0, two-entry-phi-node-folding-
 * threshold=0, speculate-one-expensive-inst=false), so an `if` that guards work stays a branch we can count instead of
 * becoming a select; clang's own pipeline later optimises as usual; and every defined global of
 * 16 bytes or more aligned to the largest power of two up to 64 that its size allows
 * (align_large_globals). Back end:
 * clang-14 -O<opt> on the (instrumented) bitcode, which optimises, generates code and links, so
 * the original and the instrumented builds come from the same prepared IR by the same pipeline.
 */
#include "ir.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "util.h"

#define CLANG "clang-14"

/* A growing argv. */
struct args {
	char **v; /* NULL-terminated; the strings are owned */
	int n;    /* count */
};

static void args_add(struct args *a, const char *s)
{
	a->v = xrealloc(a->v, sizeof *a->v * (size_t)(a->n + 2));
	a->v[a->n++] = xstrdup(s);
	a->v[a->n] = NULL;
}

static void args_release(struct args *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

int ir_load(struct ir *ir, const char *path, struct error *err)
{
	LLVMMemoryBufferRef buf;
	char *msg = NULL;
	size_t len = strlen(path);

	ir->ctx = LLVMContextCreate();
	ir->mod = NULL;
	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
		error_set(err, "cannot read %s: %s", path, msg);
		LLVMDisposeMessage(msg);
		ir_release(ir);
		return -1;
	}
	if (len > 3 && strcmp(path + len - 3, ".ll") == 0) {
		if (LLVMParseIRInContext(ir->ctx, buf, &ir->mod, &msg)) {
			error_set(err, "%s: %s", path, msg);
			LLVMDisposeMessage(msg);
			ir_release(ir);
			return -1;
		}
		return 0;
	}
	if (LLVMParseBitcodeInContext2(ir->ctx, buf, &ir->mod)) {
		LLVMDisposeMemoryBuffer(buf);
		ir_release(ir);
		return error_set(err, "%s: not an LLVM bitcode file", path);
	}
	LLVMDisposeMemoryBuffer(buf);
	return 0;
}

/* Returns the base name of path without its extension, owned by the caller. */
static char *stem(const char *path)
{
	const char *base = strrchr(path, '/');
	char *s = xstrdup(base ? base + 1 : path), *dot = strrchr(s, '.');

	if (dot && dot != s)
		*dot = '\0';
	return s;
}

int ir_compile_source(const char *source, const char *opt, char *const *cflags, int ncflags,
		      const char *bc, struct error *err)
{
	struct args a = {0};
	char *level = xasprintf("-O%s", opt);
	int rc;

	args_add(&a, CLANG);
	args_add(&a, "-g");
	args_add(&a, level);
	if (strcmp(opt, "0") == 0) {
		args_add(&a, "-Xclang");
		args_add(&a, "-disable-O0-optnone");
	}
	args_add(&a, "-Xclang");
	args_add(&a, "-disable-llvm-passes");
	for (int f = 0; f < ncflags; f++)
		args_add(&a, cflags[f]);
	args_add(&a, "-c");
	args_add(&a, "-emit-llvm");
	args_add(&a, "-o");
	args_add(&a, bc);
	args_add(&a, source);
	rc = run_command(a.v, NULL, err);
	args_release(&a);
	free(level);
	return rc;
}

int ir_link_files(struct ir *ir, char *const *paths, int n, struct error *err)
{
	memset(ir, 0, sizeof *ir);
	for (int i = 0; i < n; i++) {
		LLVMMemoryBufferRef buf;
		LLVMModuleRef mod;
		char *msg = NULL;

		if (i == 0) {
			if (ir_load(ir, paths[0], err) < 0)
				return -1;
			continue;
		}
		if (LLVMCreateMemoryBufferWithContentsOfFile(paths[i], &buf, &msg)) {
			error_set(err, "cannot read %s: %s", paths[i], msg);
			LLVMDisposeMessage(msg);
			ir_release(ir);
			return -1;
		}
		if (LLVMParseBitcodeInContext2(ir->ctx, buf, &mod)) {
			LLVMDisposeMemoryBuffer(buf);
			ir_release(ir);
			return error_set(err, "%s: not an LLVM bitcode file", paths[i]);
		}
		LLVMDisposeMemoryBuffer(buf);
		if (LLVMLinkModules2(ir->mod, mod)) {
			ir_release(ir);
			return error_set(err, "cannot link %s into the program (duplicate definitions?)",
					 paths[i]);
		}
	}
	return 0;
}

/* Returns whether mod defines a function or variable called name. */
static int defines(LLVMModuleRef mod, const char *name)
{
	LLVMValueRef f = LLVMGetNamedFunction(mod, name), g = LLVMGetNamedGlobal(mod, name);

	return (f && !LLVMIsDeclaration(f)) || (g && !LLVMIsDeclaration(g));
}

int ir_link_library(struct ir *ir, const char *path, struct error *err)
{
	LLVMMemoryBufferRef buf;
	LLVMModuleRef lib;
	char *msg = NULL;
	size_t len;

	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
		error_set(err, "cannot read %s: %s", path, msg);
		LLVMDisposeMessage(msg);
		return -1;
	}
	if (LLVMParseBitcodeInContext2(ir->ctx, buf, &lib)) {
		LLVMDisposeMemoryBuffer(buf);
		return error_set(err, "%s: not an LLVM bitcode file", path);
	}
	LLVMDisposeMemoryBuffer(buf);
	for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f)) {
		if (!LLVMIsDeclaration(f) && defines(ir->mod, LLVMGetValueName2(f, &len)))
			LLVMSetLinkage(f, LLVMInternalLinkage);
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g)) {
		if (!LLVMIsDeclaration(g) && defines(ir->mod, LLVMGetValueName2(g, &len)))
			LLVMSetLinkage(g, LLVMInternalLinkage);
	}
	if (LLVMLinkModules2(ir->mod, lib))
		return error_set(err, "cannot link %s into the program", path);
	return 0;
}

int ir_from_sources(struct ir *ir, char *const *sources, int nsources, const char *opt,
		    char *const *cflags, int ncflags, const char *workdir, struct error *err)
{
	char **bcs = xcalloc((size_t)nsources + 1, sizeof *bcs);
	int rc = 0;

	memset(ir, 0, sizeof *ir);
	for (int i = 0; i < nsources && rc == 0; i++) {
		char *name = stem(sources[i]);

		bcs[i] = xasprintf("%s/%03d-%s.bc", workdir, i, name);
		free(name);
		if (ir_compile_source(sources[i], opt, cflags, ncflags, bcs[i], err) < 0)
			rc = error_prefix(err, "compiling %s", sources[i]);
	}
	if (rc == 0)
		rc = ir_link_files(ir, bcs, nsources, err);
	for (int i = 0; i < nsources; i++)
		free(bcs[i]);
	free(bcs);
	return rc;
}

int ir_verify(struct ir *ir, struct error *err)
{
	char *msg = NULL;

	if (LLVMVerifyModule(ir->mod, LLVMReturnStatusAction, &msg)) {
		char *nl = strchr(msg, '\n');

		if (nl)
			*nl = '\0';
		error_set(err, "invalid IR: %s", msg);
		LLVMDisposeMessage(msg);
		return -1;
	}
	LLVMDisposeMessage(msg);
	return 0;
}

/* Sets LLVM's global options for preparation, once per process. */
static void set_llvm_options(void)
{
	static int done;
	static const char *const argv[] = {"mantis", "-phi-node-folding-threshold=0",
					   "-two-entry-phi-node-folding-threshold=0",
					   "-speculate-one-expensive-inst=false"};

	if (!done)
		LLVMParseCommandLineOptions(4, argv, "mantis");
	done = 1;
}

/*
 * Raises the alignment of every defined global of 16 bytes or more (not in a section of its
 * own, where a linker set's entries must stay adjacent) to the largest power of two up to 64
 * that is at most its size. Why: code that works a buffer by aligned blocks counts
 * instructions by the buffer's address modulo the block; a global's address modulo 16 is the
 * linker's choice, and the instrumented program and an evaluator lay their globals out
 * differently (the counters, the deleted globals). xz's 64 KiB input buffer was 8 bytes
 * aligned; liblzma's CLMUL CRC64 peels the bytes before a 16-byte boundary one at a time, and
 * the evaluator of xz's instruction count computed 640 instructions more than the program's
 * on a 256 KiB input (a run's own count does not change: heap blocks are 16-byte aligned, and
 * clang aligns stack arrays of 16 bytes or more).
 */
static void align_large_globals(LLVMModuleRef mod)
{
	LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));

	for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g)) {
		LLVMTypeRef t = LLVMGlobalGetValueType(g);
		const char *section = LLVMGetSection(g);
		size_t len;
		unsigned long long size;
		unsigned align = 16;

		if (LLVMIsDeclaration(g) || (section && *section) || !LLVMTypeIsSized(t) ||
		    strncmp(LLVMGetValueName2(g, &len), "llvm.", 5) == 0)
			continue;
		size = LLVMABISizeOfType(td, t);
		while (align < 64 && size >= 2ull * align)
			align *= 2;
		if (size >= 16 && LLVMGetAlignment(g) < align)
			LLVMSetAlignment(g, align);
	}
	LLVMDisposeTargetData(td);
}

int ir_prepare(struct ir *ir, struct error *err)
{
	unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
	LLVMPassBuilderOptionsRef opts;
	LLVMErrorRef e;

	set_llvm_options();
	for (LLVMValueRef f = LLVMGetFirstFunction(ir->mod); f; f = LLVMGetNextFunction(f))
		LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
	align_large_globals(ir->mod);
	opts = LLVMCreatePassBuilderOptions();
	e = LLVMRunPasses(ir->mod, "function(mem2reg,simplifycfg<keep-loops;bonus-inst-threshold=0>)", NULL, opts);
	LLVMDisposePassBuilderOptions(opts);
	if (e) {
		char *msg = LLVMGetErrorMessage(e);

		error_set(err, "preparing the IR: %s", msg);
		LLVMDisposeErrorMessage(msg);
		return -1;
	}
	return ir_verify(ir, err);
}

int ir_write(const struct ir *ir, const char *path, struct error *err)
{
	if (LLVMWriteBitcodeToFile(ir->mod, path) != 0)
		return error_set(err, "cannot write bitcode to %s", path);
	return 0;
}

/* Runs clang-14 -O<opt> flags[0..nflags) -o out bitcode tail[0..ntail) (objects, then link
 * flags). Returns 0, or -1 with err set by run_command. */
static int clang_on_bitcode(const char *bitcode, const char *opt, char *const *flags, int nflags,
			    char *const *tail, int ntail, const char *out, int quiet,
			    struct error *err)
{
	struct args a = {0};
	char *level = xasprintf("-O%s", opt);
	int rc;

	args_add(&a, CLANG);
	args_add(&a, level);
	args_add(&a, "-Wno-override-module");
	for (int i = 0; i < nflags; i++)
		args_add(&a, flags[i]);
	args_add(&a, "-o");
	args_add(&a, out);
	args_add(&a, bitcode);
	for (int i = 0; i < ntail; i++)
		args_add(&a, tail[i]);
	rc = quiet ? run_command_quiet(a.v, NULL, err) : run_command(a.v, NULL, err);
	args_release(&a);
	free(level);
	return rc;
}

int ir_build_executable(const char *bitcode, const char *opt, char *const *objs, int nobjs,
			char *const *ldflags, int nldflags, const char *out, struct error *err)
{
	char **tail = xcalloc((size_t)(nobjs + nldflags) + 1, sizeof *tail);
	int rc;

	for (int i = 0; i < nobjs; i++)
		tail[i] = objs[i];
	for (int i = 0; i < nldflags; i++)
		tail[nobjs + i] = ldflags[i];
	rc = clang_on_bitcode(bitcode, opt, NULL, 0, tail, nobjs + nldflags, out, 0, err);
	free(tail);
	if (rc < 0)
		return error_prefix(err, "building %s", out);
	return 0;
}

int ir_build_static(const char *bitcode, const char *opt, char *const *objs, int nobjs,
		    char *const *ldflags, int nldflags, const char *out)
{
	int n, rc;
	char **flags = ir_static_flags(ldflags, nldflags, &n);
	char **tail = xcalloc((size_t)(nobjs + n) + 1, sizeof *tail);
	struct error ignored;

	for (int i = 0; i < nobjs; i++)
		tail[i] = objs[i];
	for (int i = 0; i < n; i++)
		tail[nobjs + i] = flags[i];
	rc = clang_on_bitcode(bitcode, opt, NULL, 0, tail, nobjs + n, out, 1, &ignored);
	free(tail);
	ir_flags_free(flags, n);
	return rc;
}

int ir_build_shared(const char *bitcode, const char *opt, char *const *objs, int nobjs,
		    char *const *ldflags, int nldflags, const char *out, struct error *err)
{
	char *flags[] = {"-fPIC", "-shared", "-Wl,-Bsymbolic"};
	char **tail = xcalloc((size_t)(nobjs + nldflags) + 1, sizeof *tail);
	int n = 0, rc;

	for (int i = 0; i < nobjs; i++)
		tail[n++] = objs[i];
	for (int i = 0; i < nldflags; i++)
		if (strcmp(ldflags[i], "-static") != 0)
			tail[n++] = ldflags[i];
	rc = clang_on_bitcode(bitcode, opt, flags, 3, tail, n, out, 1, err);
	free(tail);
	return rc;
}

/* Returns the shared library the linker takes for -lname: libNAME.so in the first folder of
 * the -L flags of ldflags[0..n) that has it, else where clang finds it (-print-file-name,
 * which does not read -L); NULL when none has it; owned. */
static char *library_file(const char *name, char *const *ldflags, int n)
{
	char tmp[] = "/tmp/mantis-lib-XXXXXX", path[4096], *found = NULL;
	int fd;
	struct args a = {0};
	struct error ignored;
	char *flag = xasprintf("-print-file-name=lib%s.so", name);
	ssize_t got;

	for (int i = 0; i < n && !found; i++) {
		if (strncmp(ldflags[i], "-L", 2) == 0 && ldflags[i][2]) {
			found = xasprintf("%s/lib%s.so", ldflags[i] + 2, name);
			if (access(found, R_OK) != 0) {
				free(found);
				found = NULL;
			}
		}
	}
	if (found) {
		free(flag);
		return found;
	}
	fd = mkstemp(tmp);
	args_add(&a, CLANG);
	args_add(&a, flag);
	if (fd >= 0 && run_command(a.v, tmp, &ignored) == 0 &&
	    (got = pread(fd, path, sizeof path - 1, 0)) > 0) {
		path[got] = '\0';
		path[strcspn(path, "\n")] = '\0';
		if (strchr(path, '/') && access(path, R_OK) == 0)
			found = xstrdup(path);
	}
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	args_release(&a);
	free(flag);
	return found;
}

/* Adds to a each -l word of the GNU ld script at path that a does not hold yet (its comments
 * skipped); nothing when path is not a script (an ELF object, or binary). */
static void script_libraries(const char *path, struct args *a)
{
	char buf[16384];
	FILE *f = fopen(path, "rb");
	size_t got = f ? fread(buf, 1, sizeof buf - 1, f) : 0;

	if (f)
		fclose(f);
	if (got == 0 || memchr(buf, '\0', got) || memcmp(buf, "\177ELF", got < 4 ? got : 4) == 0)
		return;
	buf[got] = '\0';
	for (char *open = strstr(buf, "/*"), *close; open; open = strstr(open, "/*")) {
		close = strstr(open + 2, "*/");
		memset(open, ' ', (size_t)((close ? close + 2 : buf + got) - open));
	}
	for (char *save = NULL, *w = strtok_r(buf, " \t\r\n(),", &save); w;
	     w = strtok_r(NULL, " \t\r\n(),", &save)) {
		int seen = 0;

		if (strncmp(w, "-l", 2) != 0 || !w[2])
			continue;
		for (int i = 0; i < a->n && !seen; i++)
			seen = strcmp(a->v[i], w) == 0;
		if (!seen)
			args_add(a, w);
	}
}

char **ir_static_flags(char *const *ldflags, int n, int *nout)
{
	struct args a = {0};

	for (int i = 0; i < n; i++)
		args_add(&a, ldflags[i]);
	for (int i = 0; i < n; i++) {
		char *file;

		if (strncmp(ldflags[i], "-l", 2) != 0 || !ldflags[i][2] ||
		    !(file = library_file(ldflags[i] + 2, ldflags, n)))
			continue;
		script_libraries(file, &a);
		free(file);
	}
	args_add(&a, "-static");
	*nout = a.n;
	return a.v;
}

void ir_flags_free(char **flags, int n)
{
	struct args a = {flags, n};

	args_release(&a);
}

int ir_optimise(const char *bitcode, const char *opt, const char *out, struct error *err)
{
	static char *const flags[] = {"-c", "-emit-llvm"};

	if (clang_on_bitcode(bitcode, opt, flags, 2, NULL, 0, out, 0, err) < 0)
		return error_prefix(err, "optimising %s", bitcode);
	return 0;
}

void ir_release(struct ir *ir)
{
	if (ir->ctx)
		LLVMContextDispose(ir->ctx);
	ir->ctx = NULL;
	ir->mod = NULL;
}
