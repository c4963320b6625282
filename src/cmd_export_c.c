/*
 * cmd_export_c.c: "mantis export-c PRED -o predict_NAME.c [--name NAME]": a predictor as one
 * self-contained C file defining double NAME_predict_stdin(int argc, char **argv, const char
 * *input) and double NAME_predict(int argc, char **argv) (src/exportc.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "error.h"
#include "exportc.h"
#include "predictor.h"
#include "util.h"

/* Returns NAME from an output path .../predict_NAME.c (or .../NAME.c), owned. */
static char *name_from_path(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	char *name;
	size_t n;

	if (strncmp(base, "predict_", 8) == 0)
		base += 8;
	n = strlen(base);
	if (n > 2 && strcmp(base + n - 2, ".c") == 0)
		n -= 2;
	name = xmalloc(n + 1);
	memcpy(name, base, n);
	name[n] = '\0';
	return name;
}

static int run_export_c(int argc, char **argv)
{
	const char *dir = NULL, *out = NULL, *given = NULL;
	struct error err = {""};
	struct predictor p;
	char *name;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--name") == 0) {
			if (i + 1 >= argc)
				usage_error(&cmd_export_c, "%s needs a value", argv[i]);
			*(argv[i][1] == 'o' ? &out : &given) = argv[i + 1];
			i++;
		} else if (argv[i][0] == '-') {
			usage_error(&cmd_export_c, "unknown option '%s'", argv[i]);
		} else if (dir) {
			usage_error(&cmd_export_c, "one predictor directory only ('%s' and '%s')", dir,
				    argv[i]);
		} else {
			dir = argv[i];
		}
	}
	if (!dir)
		usage_error(&cmd_export_c, "give the predictor directory (made by mantis train)");
	if (!out)
		usage_error(&cmd_export_c, "no output file (-o predict_NAME.c)");
	name = given ? xstrdup(given) : name_from_path(out);
	if (!exportc_valid_name(name))
		usage_error(&cmd_export_c, "'%s' is not a C identifier to name NAME_predict by%s", name,
			    given ? "" : " (give one with --name NAME)");
	if (predictor_open(&p, dir, &err) < 0)
		die("%s", err.msg);
	if (exportc_write(&p, name, out, &err) < 0)
		die("%s", err.msg);
	printf("wrote %s: double %s_predict_stdin(int argc, char **argv, const char *input), "
	       "double %s_predict(int argc, char **argv)\n", out, name, name);
	predictor_release(&p);
	free(name);
	return EXIT_OK;
}

const struct command cmd_export_c = {
	.name = "export-c",
	.summary = "write a predictor as one C file: double NAME_predict(int argc, char **argv)",
	.usage =
		"usage: mantis export-c PRED -o predict_NAME.c [--name NAME]\n"
		"\n"
		"Writes a self-contained C11 file defining\n"
		"  double NAME_predict_stdin(int argc, char **argv, const char *input)\n"
		"  double NAME_predict(int argc, char **argv)\n"
		"for a scheduler to compile into itself. The first predicts what mantis predict PRED\n"
		"--stdin INPUT -- ARGS prints for argv = {name, ARGS...} (input NULL: no --stdin, as\n"
		"the second): PRED's evaluator (an x86-64 Linux executable) is embedded as bytes and\n"
		"run from a memfd on each call, its standard input read from input, the model's\n"
		"features computed from the counters it writes, the input features from argv and\n"
		"input (strtod, stat), the sampled features from PRED's sampled program (embedded\n"
		"too) run on two samples of the files the arguments and input name, made as mantis\n"
		"makes them in a private folder, and the model evaluated as mantis does, bit for bit.\n"
		"On failure it returns NAN with errno set (ENOENT or EACCES: input or a file an\n"
		"argument names cannot be read; EISDIR: a sampled file is not a regular file; ETIMEDOUT: over 60 s;\n"
		"EIO: the evaluator or the sampled program failed); the file's first\n"
		"comment says what it needs (Linux x86-64, the C library the evaluator was linked\n"
		"with). A predictor without an evaluator needs none of that: its model reads input\n"
		"features only, or none (a constant). A predictor with a gate (mantis help train)\n"
		"exports both models: the first, of input features alone, decides, and PRED/long's\n"
		"predicts the inputs it puts at the gate or more, as mantis predict chooses.\n"
		"\n"
		"  -o FILE      the C file to write\n"
		"  --name NAME  the function's prefix, a C identifier (default: NAME of\n"
		"               predict_NAME.c, else the file's name without .c)\n",
	.run = run_export_c,
};
