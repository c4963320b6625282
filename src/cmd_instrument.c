/*
 * cmd_instrument.c: "mantis instrument": build the original and the instrumented program and
 * the manifest of its features.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build.h"
#include "cli.h"
#include "error.h"
#include "instrument.h"
#include "manifest.h"
#include "util.h"

/* A growing list of strings (not owned). */
struct list {
	char **v; /* the strings */
	int n;    /* count */
};

static void list_add(struct list *l, char *s)
{
	l->v = xrealloc(l->v, sizeof *l->v * (size_t)(l->n + 1));
	l->v[l->n++] = s;
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


/* Adds the link flags mantis cc recorded for program (PROGRAM.mantis.flags) to ldflags; the
 * strings are also put in owned, for the caller to free. */
static void read_link_flags(const char *program, struct list *ldflags, struct list *owned)
{
	char *path = xasprintf("%s.mantis.flags", program), line[4096];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0]) {
			list_add(owned, xstrdup(line));
			list_add(ldflags, owned->v[owned->n - 1]);
		}
	}
	if (f)
		fclose(f);
	free(path);
}

/* Counts the features of each kind for the summary line. */
static void print_summary(const char *dir, const struct manifest *m)
{
	static const char *const kinds[] = {"loop", "branch", "switch", "call", "value", "exit", "bycount"};

	printf("%s/orig, %s/inst, %s/features.json: %d features (", dir, dir, dir, m->n);
	for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
		int count = 0;

		for (int i = 0; i < m->n; i++)
			count += strcmp(m->v[i].kind, kinds[k]) == 0;
		printf("%s%d %s", k ? ", " : "", count, kinds[k]);
	}
	printf("), %d counters\n", m->ncounters);
}

static int run_instrument(int argc, char **argv)
{
	struct list sources = {0}, cflags = {0}, ldflags = {0}, owned = {0};
	struct build_options opt = {0};
	const char *dir = NULL;
	struct manifest m;
	struct error err = {""};
	char *runtime;

	opt.opt = "2";
	opt.schemes = SCHEME_ALL;
	for (int i = 1; i < argc; i++) {
		char *a = argv[i];

		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0) {
			if (++i == argc)
				usage_error(&cmd_instrument, "%s needs a directory", a);
			dir = argv[i];
		} else if (strcmp(a, "--schemes") == 0 || starts_with(a, "--schemes=")) {
			const char *list = a[9] == '=' ? a + 10 : (++i < argc ? argv[i] : NULL);

			if (!list)
				usage_error(&cmd_instrument, "--schemes needs a list");
			if (instrument_parse_schemes(list, &opt.schemes, &err) < 0)
				usage_error(&cmd_instrument, "--schemes: %s", err.msg);
		} else if (starts_with(a, "-O") && strlen(a) == 3 && strchr("0123sz", a[2])) {
			opt.opt = a + 2;
		} else if (starts_with(a, "-I") || starts_with(a, "-D") || starts_with(a, "-U") ||
			   starts_with(a, "-std=") || starts_with(a, "-f")) {
			list_add(&cflags, a);
		} else if (strcmp(a, "-include") == 0 || strcmp(a, "-isystem") == 0) {
			list_add(&cflags, a);
			if (++i == argc)
				usage_error(&cmd_instrument, "%s needs an argument", a);
			list_add(&cflags, argv[i]);
		} else if (starts_with(a, "-l") || starts_with(a, "-L")) {
			list_add(&ldflags, a);
		} else if (strcmp(a, "-pthread") == 0) {
			list_add(&cflags, a);
			list_add(&ldflags, a);
		} else if (a[0] == '-') {
			usage_error(&cmd_instrument, "unknown option '%s'", a);
		} else if (ends_with(a, ".c")) {
			list_add(&sources, a);
		} else if (ends_with(a, ".bc") || ends_with(a, ".ll")) {
			if (opt.bitcode)
				usage_error(&cmd_instrument, "give one bitcode file, not %s and %s",
					    opt.bitcode, a);
			opt.bitcode = a;
		} else if (access(a, F_OK) == 0) {
			char *bc = xasprintf("%s.mantis.bc", a);

			if (access(bc, R_OK) != 0)
				die("%s: no bitcode recorded for it (%s); build it with CC=\"mantis cc\", or "
				    "give its C sources or bitcode", a, bc);
			if (opt.bitcode)
				usage_error(&cmd_instrument, "give one program, not %s and %s", opt.bitcode, a);
			list_add(&owned, bc);
			opt.bitcode = bc;
			read_link_flags(a, &ldflags, &owned);
		} else {
			usage_error(&cmd_instrument, "'%s': give C sources (.c), one bitcode file (.bc, "
				    ".ll) or a program built with CC=\"mantis cc\"", a);
		}
	}
	if (!dir)
		usage_error(&cmd_instrument, "no output directory (-o DIR)");
	if (!sources.n && !opt.bitcode)
		usage_error(&cmd_instrument, "no program given (C sources or a bitcode file)");
	if (sources.n && opt.bitcode)
		usage_error(&cmd_instrument, "give C sources or a bitcode file, not both");
	for (int i = 0; i < sources.n; i++) {
		if (access(sources.v[i], R_OK) != 0)
			die("cannot read %s", sources.v[i]);
	}
	if (opt.bitcode && access(opt.bitcode, R_OK) != 0)
		die("cannot read %s", opt.bitcode);
	runtime = cli_runtime_file("mantisrt.o");
	opt.sources = sources.v;
	opt.nsources = sources.n;
	opt.cflags = cflags.v;
	opt.ncflags = cflags.n;
	opt.ldflags = ldflags.v;
	opt.nldflags = ldflags.n;
	opt.runtime = runtime;
	if (build_instrumented(&opt, dir, &m, &err) < 0)
		die("%s", err.msg);
	print_summary(dir, &m);
	manifest_release(&m);
	free(runtime);
	for (int i = 0; i < owned.n; i++)
		free(owned.v[i]);
	free(sources.v);
	free(cflags.v);
	free(ldflags.v);
	free(owned.v);
	return EXIT_OK;
}

const struct command cmd_instrument = {
	.name = "instrument",
	.summary = "build a program's original and feature-counting versions",
	.usage =
		"usage: mantis instrument -o DIR [options] SOURCE.c... [-I.. -D.. -l.. -L..]\n"
		"       mantis instrument -o DIR [options] PROGRAM.bc|PROGRAM.ll [-l.. -L..]\n"
		"       mantis instrument -o DIR [options] PROGRAM   (built with CC=\"mantis cc\")\n"
		"\n"
		"Compiles the program with clang-14 -g, prepares its IR (mem2reg, simplifycfg) and\n"
		"writes DIR/orig (for timing), DIR/inst (counting features) and DIR/features.json\n"
		"(every feature: name, kind, function, file:line, how it is computed).\n"
		"Run DIR/inst with MANTIS_COUNTERS=FILE to get its counters, or use 'mantis features'.\n"
		"\n"
		"  -o, --output DIR    the build directory (made if missing)\n"
		"  -O0..-O3, -Os, -Oz  optimisation level of both builds (default -O2)\n"
		"  --schemes LIST      comma-separated: branch, loop, call, value, exit, bycount,\n"
		"                      or all (default all)\n"
		"  -I, -D, -U, -std=, -f..., -include, -isystem   passed to the compiler\n"
		"  -l, -L              passed to the linker; -pthread to both\n",
	.run = run_instrument,
};
