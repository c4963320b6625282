/*
 * cc.c: the compiler wrapper behind `mantis cc`.
 *
 * Compile step:  clang-14 ARGS; then, per source, clang-14 -g -O<level> (no LLVM passes)
 *                FLAGS -emit-llvm -c -o OBJECT.bc SOURCE; then objcopy --add-section
 *                .mantis_bc=<absolute path of OBJECT.bc> (non-loaded, read-only) OBJECT.
 * Link step:     clang-14 ARGS; then the bitcode of each input: objects (their .mantis_bc),
 *                archives (each member's, via ar p), shared libraries and -lNAME found in the
 *                -L folders (REALPATH.mantis.bc), C sources (compiled); linked into
 *                OUTPUT.mantis.bc, libraries as a linker takes them (ir_link_library: the
 *                program's own definitions win); the flags not folded in go to
 *                OUTPUT.mantis.flags.
 * Anything else (-E, -S, -M, --version...) is only passed through. The real build's outputs
 * are exactly clang's: the bitcode is extra.
 */
#include "cc.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "ir.h"
#include "util.h"

/* A list of strings (owned or not, as the field says). */
struct strs {
	char **v; /* the strings */
	int n;    /* count */
};

static void strs_add(struct strs *l, char *s)
{
	l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 2));
	l->v[l->n++] = s;
	l->v[l->n] = NULL;
}

/* The command line, sorted into what each step needs. */
struct cc_line {
	int compile_only;      /* -c */
	int other;             /* -E, -S, -M, -MM, --version, -v, ...: nothing to record */
	const char *output;    /* -o, or NULL */
	const char *opt;       /* the last -O level ("0" if none) */
	struct strs sources;   /* .c files (not owned) */
	struct strs inputs;    /* objects, archives, shared libraries given as files (not owned) */
	struct strs libs;      /* NAME of each -lNAME (not owned) */
	struct strs libdirs;   /* -L folders (not owned) */
	struct strs cflags;    /* flags for the bitcode compile (not owned) */
	struct strs keep;      /* link flags to record if not folded in (owned) */
	int is_static;         /* -static: -l finds archives only */
};

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* What a link input is, by its first bytes (not its name: make builds use .sho, .lo...). */
enum input_kind { NOT_AN_INPUT, OBJECT, SHARED, ARCHIVE };

static enum input_kind input_kind(const char *path)
{
	unsigned char head[18];
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(head, 1, sizeof head, f) : 0;

	if (f)
		fclose(f);
	if (n >= 8 && memcmp(head, "!<arch>\n", 8) == 0)
		return ARCHIVE;
	if (n == sizeof head && memcmp(head, "\x7f" "ELF", 4) == 0) {
		int type = head[5] == 1 ? head[16] | head[17] << 8 : head[17] | head[16] << 8;

		return type == 1 ? OBJECT : type == 3 ? SHARED : NOT_AN_INPUT;
	}
	return NOT_AN_INPUT;
}

/* Flags with a separate argument that only matter to dependency output or linking. */
static int takes_argument(const char *a)
{
	return strcmp(a, "-MF") == 0 || strcmp(a, "-MT") == 0 || strcmp(a, "-MQ") == 0 ||
	       strcmp(a, "-Xlinker") == 0;
}

static void parse_line(struct cc_line *cl, char *const *args, int nargs)
{
	memset(cl, 0, sizeof *cl);
	cl->opt = "0";
	for (int i = 0; i < nargs; i++) {
		char *a = args[i];

		if (strcmp(a, "-c") == 0) {
			cl->compile_only = 1;
		} else if (strcmp(a, "-E") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-M") == 0 ||
			   strcmp(a, "-MM") == 0 || strcmp(a, "--version") == 0 || strcmp(a, "-v") == 0 ||
			   strncmp(a, "-print", 6) == 0 || strncmp(a, "-dump", 5) == 0) {
			cl->other = 1;
		} else if (strcmp(a, "-o") == 0 && i + 1 < nargs) {
			cl->output = args[++i];
		} else if (strncmp(a, "-O", 2) == 0) {
			cl->opt = a[2] == '\0' ? "1" : strcmp(a + 2, "fast") == 0 ? "3" : strcmp(a + 2, "g") == 0 ? "1" : a + 2;
			strs_add(&cl->cflags, a);
		} else if (takes_argument(a) && i + 1 < nargs) {
			i++;
		} else if (strcmp(a, "-MD") == 0 || strcmp(a, "-MMD") == 0 || strcmp(a, "-MP") == 0) {
			continue;
		} else if (strncmp(a, "-l", 2) == 0) {
			if (a[2])
				strs_add(&cl->libs, a + 2);
			else if (i + 1 < nargs)
				strs_add(&cl->libs, args[++i]);
		} else if (strncmp(a, "-L", 2) == 0) {
			if (a[2])
				strs_add(&cl->libdirs, a + 2);
			else if (i + 1 < nargs)
				strs_add(&cl->libdirs, args[++i]);
		} else if (strcmp(a, "-pthread") == 0) {
			strs_add(&cl->cflags, a);
			strs_add(&cl->keep, xstrdup(a));
		} else if (strcmp(a, "-static") == 0) {
			cl->is_static = 1;
		} else if (strcmp(a, "-shared") == 0 || strcmp(a, "-rdynamic") == 0 ||
			   strncmp(a, "-Wl,", 4) == 0 || strcmp(a, "-s") == 0) {
			continue;
		} else if (a[0] == '-') {
			strs_add(&cl->cflags, a);
		} else if (ends_with(a, ".c")) {
			strs_add(&cl->sources, a);
		} else if (input_kind(a) != NOT_AN_INPUT) {
			strs_add(&cl->inputs, a);
		} else {
			strs_add(&cl->cflags, a); /* an argument of a flag we pass on (-include FILE) */
		}
	}
}

/* Returns the object a source compiles to with -c: -o, or its base name with .o. */
static char *object_of(const struct cc_line *cl, const char *source)
{
	const char *base = strrchr(source, '/');
	char *o;

	if (cl->output && cl->sources.n == 1)
		return xstrdup(cl->output);
	o = xstrdup(base ? base + 1 : source);
	o[strlen(o) - 1] = 'o';
	return o;
}

/* Writes bitcode of source to bc. */
static int compile_bitcode(const struct cc_line *cl, const char *source, const char *bc,
			   struct error *err)
{
	return ir_compile_source(source, cl->opt, cl->cflags.v, cl->cflags.n, bc, err);
}

/* Records bc's absolute path in object's .mantis_bc section. */
static int embed_path(const char *object, const char *bc, struct error *err)
{
	char path[PATH_MAX], tmp[] = "/tmp/mantis-cc-XXXXXX", *section;
	int fd = mkstemp(tmp), rc;
	char *argv[] = {"objcopy", "--add-section", NULL, "--set-section-flags",
			".mantis_bc=noload,readonly", (char *)object, NULL};

	if (fd < 0)
		return error_errno(err, "cannot make a temporary file");
	if (!realpath(bc, path) || write(fd, path, strlen(path)) != (ssize_t)strlen(path)) {
		close(fd);
		unlink(tmp);
		return error_errno(err, "cannot record the bitcode of %s", object);
	}
	close(fd);
	section = xasprintf(".mantis_bc=%s", tmp);
	argv[2] = section;
	rc = run_command(argv, NULL, err);
	unlink(tmp);
	free(section);
	return rc;
}

/* Returns the bitcode path recorded in object (owned), or NULL if it has none. */
static char *recorded_path(const char *object)
{
	char tmp[] = "/tmp/mantis-cc-XXXXXX", junk[] = "/tmp/mantis-cc-XXXXXX", buf[PATH_MAX];
	int fd = mkstemp(tmp), jd = mkstemp(junk);
	char *section = xasprintf(".mantis_bc=%s", tmp), *result = NULL;
	char *argv[] = {"objcopy", "--dump-section", section, (char *)object, junk, NULL};
	struct error ignored;
	ssize_t n;

	if (fd >= 0 && jd >= 0 && run_command(argv, "/dev/null", &ignored) == 0 &&
	    (n = pread(fd, buf, sizeof buf - 1, 0)) > 0) {
		buf[n] = '\0';
		if (access(buf, R_OK) == 0)
			result = xstrdup(buf);
	}
	if (fd >= 0)
		close(fd);
	if (jd >= 0)
		close(jd);
	unlink(tmp);
	unlink(junk);
	free(section);
	return result;
}

/* Adds the recorded bitcode of each member of archive to bcs. Returns how many. (Members are
 * libraries' code: linked like a library, see ir_link_library.) */
static int archive_bitcode(const char *archive, struct strs *bcs)
{
	char list[] = "/tmp/mantis-cc-XXXXXX", member[] = "/tmp/mantis-cc-XXXXXX", line[PATH_MAX];
	int lfd = mkstemp(list), mfd = mkstemp(member), found = 0;
	char *argv_t[] = {"ar", "t", (char *)archive, NULL};
	struct error ignored;
	FILE *f;

	if (lfd < 0 || mfd < 0 || run_command(argv_t, list, &ignored) < 0 || !(f = fopen(list, "r"))) {
		found = -1;
	} else {
		while (fgets(line, sizeof line, f)) {
			char *argv_p[] = {"ar", "p", (char *)archive, line, NULL}, *bc;

			line[strcspn(line, "\n")] = '\0';
			if (run_command(argv_p, member, &ignored) < 0 || input_kind(member) != OBJECT)
				continue;
			if ((bc = recorded_path(member))) {
				strs_add(bcs, bc);
				found++;
			}
		}
		fclose(f);
	}
	if (lfd >= 0)
		close(lfd);
	if (mfd >= 0)
		close(mfd);
	unlink(list);
	unlink(member);
	return found < 0 ? 0 : found;
}

/* Adds the bitcode a library file stands for (archive members, or LIB.mantis.bc). */
static int library_bitcode(const char *file, struct strs *bcs)
{
	char path[PATH_MAX], *bc;

	if (input_kind(file) == ARCHIVE)
		return archive_bitcode(file, bcs);
	if (!realpath(file, path))
		return 0;
	bc = xasprintf("%s.mantis.bc", path);
	if (access(bc, R_OK) == 0) {
		strs_add(bcs, bc);
		return 1;
	}
	free(bc);
	return 0;
}

/* Folds -lNAME in when it is found in a -L folder with bitcode; else keeps it as a flag. */
static void resolve_lib(const struct cc_line *cl, const char *name, struct strs *bcs, struct strs *keep)
{
	for (int d = 0; d < cl->libdirs.n; d++) {
		for (int kind = cl->is_static; kind < 2; kind++) {
			char *file = xasprintf("%s/lib%s.%s", cl->libdirs.v[d], name, kind == 0 ? "so" : "a");
			int exists = access(file, R_OK) == 0, folded = exists && library_bitcode(file, bcs) > 0;

			free(file);
			if (folded)
				return;
			if (exists)
				goto keep_it;
		}
	}
keep_it:
	strs_add(keep, xasprintf("-l%s", name));
}

/* The link step's bitcode: gather, link, write OUTPUT.mantis.bc and OUTPUT.mantis.flags. */
static int record_program(struct cc_line *cl, struct error *err)
{
	const char *out = cl->output ? cl->output : "a.out";
	struct strs bcs = {0}, libs = {0}; /* the program's own bitcode; libraries' */
	char *work = xasprintf("%s.mantis.d", out), *target, *flags_path;
	struct ir ir = {0};
	int rc = 0;
	FILE *f;

	for (int i = 0; i < cl->inputs.n; i++) {
		char *bc;

		if (input_kind(cl->inputs.v[i]) != OBJECT)
			library_bitcode(cl->inputs.v[i], &libs);
		else if ((bc = recorded_path(cl->inputs.v[i])))
			strs_add(&bcs, bc);
	}
	for (int i = 0; i < cl->libs.n; i++)
		resolve_lib(cl, cl->libs.v[i], &libs, &cl->keep);
	if (cl->sources.n > 0)
		mkdir(work, 0777);
	for (int i = 0; i < cl->sources.n && rc == 0; i++) {
		char *bc = xasprintf("%s/%d.bc", work, i);

		rc = compile_bitcode(cl, cl->sources.v[i], bc, err);
		strs_add(&bcs, bc);
	}
	if (rc < 0 || bcs.n + libs.n == 0)
		goto out;
	if (bcs.n == 0) { /* only libraries: the first is the program */
		strs_add(&bcs, libs.v[0]);
		memmove(libs.v, libs.v + 1, sizeof *libs.v * (size_t)libs.n);
		libs.n--;
	}
	{
		char path[PATH_MAX];

		target = xasprintf("%s.mantis.bc", realpath(out, path) ? path : out);
		flags_path = xasprintf("%s.mantis.flags", realpath(out, path) ? path : out);
	}
	rc = ir_link_files(&ir, bcs.v, bcs.n, err);
	for (int i = 0; rc == 0 && i < libs.n; i++)
		rc = ir_link_library(&ir, libs.v[i], err);
	if (rc == 0)
		rc = ir_write(&ir, target, err);
	if (ir.ctx)
		ir_release(&ir);
	if (rc == 0 && (f = fopen(flags_path, "w"))) {
		for (int i = 0; i < cl->keep.n; i++)
			fprintf(f, "%s\n", cl->keep.v[i]);
		fclose(f);
	}
	free(target);
	free(flags_path);
out:
	for (int i = 0; i < bcs.n; i++)
		free(bcs.v[i]);
	for (int i = 0; i < libs.n; i++)
		free(libs.v[i]);
	free(bcs.v);
	free(libs.v);
	free(work);
	return rc;
}

static void release_line(struct cc_line *cl)
{
	for (int i = 0; i < cl->keep.n; i++)
		free(cl->keep.v[i]);
	free(cl->sources.v);
	free(cl->inputs.v);
	free(cl->libs.v);
	free(cl->libdirs.v);
	free(cl->cflags.v);
	free(cl->keep.v);
}

int cc_run(char *const *args, int nargs, struct error *err)
{
	char **argv = xcalloc((size_t)nargs + 2, sizeof *argv);
	struct cc_line cl;
	int rc = 0;

	argv[0] = "clang-14";
	for (int i = 0; i < nargs; i++)
		argv[i + 1] = args[i];
	if (run_command(argv, NULL, err) < 0) {
		free(argv);
		return strstr(err->msg, "cannot run") ? 127 : 1;
	}
	free(argv);
	parse_line(&cl, args, nargs);
	if (cl.other) {
		release_line(&cl);
		return 0;
	}
	if (cl.compile_only) {
		for (int i = 0; i < cl.sources.n && rc == 0; i++) {
			char *object = object_of(&cl, cl.sources.v[i]), *bc = xasprintf("%s.bc", object);

			rc = compile_bitcode(&cl, cl.sources.v[i], bc, err);
			if (rc == 0)
				rc = embed_path(object, bc, err);
			free(object);
			free(bc);
		}
	} else {
		rc = record_program(&cl, err);
	}
	release_line(&cl);
	return rc < 0 ? 1 : 0;
}
