/*
 * build.c: the instrument pipeline, top to bottom:
 *
 *   sources --clang, no passes--> modules --link--> program      (ir_from_sources) or bitcode
 *   program --prepare: strip optnone, mem2reg, simplifycfg--> DIR/prepared.bc --clang -O--> orig
 *   prepared --instrument(schemes)--> DIR/inst.bc + DIR/features.json --codegen.c + runtime--> inst
 *                                        (and, with opt->sandbox, + sandbox.o--> DIR/sandboxed)
 *
 * Both executables come from the same prepared IR through clang's same -O pipeline, so they
 * differ only by the counters (inst's compile is staged, without debug information: codegen.c).
 * The orig build (writing DIR/prepared.bc too) runs in a child process while the parent
 * instruments and builds inst: on two cores the two compiles overlap (the sqlite3 shell: 32 s
 * of CPU for orig's, 55 for inst's).
 */
#include "build.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codegen.h"
#include "error.h"
#include "instrument.h"
#include "ir.h"
#include "manifest.h"
#include "util.h"

/* Writes DIR/prepared.bc and builds DIR/orig from it, in a child process (so the parent's
 * critical path does not wait for the write either). Returns its pid or -1. */
static pid_t start_orig(const struct ir *ir, const struct build_options *opt, const char *dir,
			struct error *err)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return error_errno(err, "cannot fork to build %s/orig", dir);
	if (pid == 0) {
		struct error child_err = {""};
		char *bc = xasprintf("%s/prepared.bc", dir), *exe = xasprintf("%s/orig", dir);

		if (ir_write(ir, bc, &child_err) < 0 ||
		    ir_build_executable(bc, opt->opt, NULL, 0, opt->ldflags, opt->nldflags, exe,
					&child_err) < 0) {
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

/* Returns the program's name: opt->program's, the first source's or the bitcode's base name
 * without its suffix (.c, .bc, .ll, and mantis cc's .mantis before .bc); owned. */
static char *program_name(const struct build_options *opt)
{
	const char *path = opt->program ? opt->program : opt->nsources ? opt->sources[0] : opt->bitcode;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	static const char *const suffixes[] = {".mantis.bc", ".c", ".bc", ".ll"};
	size_t n = strlen(base);

	for (size_t i = 0; !opt->program && i < sizeof suffixes / sizeof *suffixes; i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && strcmp(base + n - k, suffixes[i]) == 0) {
			n -= k;
			break;
		}
	}
	return xasprintf("%.*s", (int)n, base);
}

int build_instrumented(const struct build_options *opt, const char *dir, struct manifest *m,
		       struct error *err)
{
	char *work = xasprintf("%s/work", dir), *manifest_path = xasprintf("%s/features.json", dir);
	char *name;
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
	name = program_name(opt);
	manifest_set_build(m, opt->schemes, opt->opt, opt->ldflags, opt->nldflags, name);
	free(name);
	if (manifest_write(m, manifest_path, err) < 0 || codegen_inst(&ir, opt, dir, err) < 0)
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

/* ---- the program's words ------------------------------------------------------------------ */

/* Appends s to the NULL-ended list *v of *n strings. */
static void list_add(char ***v, int *n, char *s)
{
	*v = xrealloc(*v, sizeof **v * (size_t)(*n + 2));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Adds the link flags mantis cc recorded for program (PROGRAM.mantis.flags). */
static void read_link_flags(struct build_args *a, const char *program)
{
	char *path = xasprintf("%s.mantis.flags", program), line[4096];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0]) {
			list_add(&a->owned, &a->nowned, xstrdup(line));
			list_add(&a->ldflags, &a->opt.nldflags, a->owned[a->nowned - 1]);
		}
	}
	if (f)
		fclose(f);
	free(path);
}

/* Records whether the failure is a usage error; returns -1. */
static int bad_words(struct build_args *a, int usage)
{
	a->usage = usage;
	return -1;
}

/* Parses one word (with its argument at words[*i + 1] if it takes one). Returns 0 or -1. */
static int parse_word(struct build_args *a, char **words, int n, int *i, struct error *err)
{
	char *w = words[*i];

	if (strcmp(w, "-o") == 0 || strcmp(w, "--output") == 0) {
		if (++*i == n)
			return error_set(err, "%s needs a directory", w), bad_words(a, 1);
		a->dir = words[*i];
	} else if (strcmp(w, "--schemes") == 0 || starts_with(w, "--schemes=")) {
		const char *list = w[9] == '=' ? w + 10 : (++*i < n ? words[*i] : NULL);

		if (!list)
			return error_set(err, "--schemes needs a list"), bad_words(a, 1);
		if (instrument_parse_schemes(list, &a->opt.schemes, err) < 0) {
			char *msg = xasprintf("--schemes: %s", err->msg);

			error_set(err, "%s", msg);
			free(msg);
			return bad_words(a, 1);
		}
	} else if (starts_with(w, "-O") && strlen(w) == 3 && strchr("0123sz", w[2])) {
		a->opt.opt = w + 2;
	} else if (strcmp(w, "-include") == 0 || strcmp(w, "-isystem") == 0 ||
		   strcmp(w, "-I") == 0 || strcmp(w, "-D") == 0 || strcmp(w, "-U") == 0) {
		list_add(&a->cflags, &a->opt.ncflags, w);
		if (++*i == n)
			return error_set(err, "%s needs an argument", w), bad_words(a, 1);
		list_add(&a->cflags, &a->opt.ncflags, words[*i]);
	} else if (starts_with(w, "-I") || starts_with(w, "-D") || starts_with(w, "-U") ||
		   starts_with(w, "-std=") || starts_with(w, "-f")) {
		list_add(&a->cflags, &a->opt.ncflags, w);
	} else if (strcmp(w, "-l") == 0 || strcmp(w, "-L") == 0) {
		list_add(&a->ldflags, &a->opt.nldflags, w);
		if (++*i == n)
			return error_set(err, "%s needs an argument", w), bad_words(a, 1);
		list_add(&a->ldflags, &a->opt.nldflags, words[*i]);
	} else if (starts_with(w, "-l") || starts_with(w, "-L")) {
		list_add(&a->ldflags, &a->opt.nldflags, w);
	} else if (strcmp(w, "-pthread") == 0) {
		list_add(&a->cflags, &a->opt.ncflags, w);
		list_add(&a->ldflags, &a->opt.nldflags, w);
	} else if (w[0] == '-') {
		return error_set(err, "unknown option '%s'", w), bad_words(a, 1);
	} else if (ends_with(w, ".c")) {
		list_add(&a->sources, &a->opt.nsources, w);
	} else if (ends_with(w, ".bc") || ends_with(w, ".ll")) {
		if (a->opt.bitcode)
			return error_set(err, "give one bitcode file, not %s and %s", a->opt.bitcode, w),
			       bad_words(a, 1);
		a->opt.bitcode = w;
	} else if (access(w, F_OK) == 0) {
		char *bc = xasprintf("%s.mantis.bc", w);

		list_add(&a->owned, &a->nowned, bc);
		if (access(bc, R_OK) != 0)
			return error_set(err, "%s: no bitcode recorded for it (%s); build it with "
					 "CC=\"mantis cc\", or give its C sources or bitcode", w, bc),
			       bad_words(a, 0);
		if (a->opt.bitcode)
			return error_set(err, "give one program, not %s and %s", a->opt.bitcode, w),
			       bad_words(a, 1);
		a->opt.bitcode = bc;
		a->opt.program = w;
		read_link_flags(a, w);
	} else {
		return error_set(err, "'%s': give C sources (.c), one bitcode file (.bc, .ll) or a "
				 "program built with CC=\"mantis cc\"", w), bad_words(a, 1);
	}
	return 0;
}

int build_args_parse(struct build_args *a, char **words, int n, struct error *err)
{
	memset(a, 0, sizeof *a);
	a->opt.opt = "2";
	a->opt.schemes = SCHEME_ALL;
	for (int i = 0; i < n; i++) {
		if (parse_word(a, words, n, &i, err) < 0)
			return -1;
	}
	a->opt.sources = a->sources;
	a->opt.cflags = a->cflags;
	a->opt.ldflags = a->ldflags;
	if (!a->opt.nsources && !a->opt.bitcode)
		return error_set(err, "no program given (C sources or a bitcode file)"),
		       bad_words(a, 1);
	if (a->opt.nsources && a->opt.bitcode)
		return error_set(err, "give C sources or a bitcode file, not both"),
		       bad_words(a, 1);
	for (int i = 0; i < a->opt.nsources; i++) {
		if (access(a->sources[i], R_OK) != 0)
			return error_set(err, "cannot read %s", a->sources[i]), bad_words(a, 0);
	}
	if (a->opt.bitcode && access(a->opt.bitcode, R_OK) != 0)
		return error_set(err, "cannot read %s", a->opt.bitcode), bad_words(a, 0);
	return 0;
}

void build_args_release(struct build_args *a)
{
	for (int i = 0; i < a->nowned; i++)
		free(a->owned[i]);
	free(a->owned);
	free(a->sources);
	free(a->cflags);
	free(a->ldflags);
	memset(a, 0, sizeof *a);
}
