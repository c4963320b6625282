/*
 * cmd_count.c: "mantis count DIR -- ARGS...": the dynamic instruction counts of one run, per
 * function and in total, per opcode and per library function with its size parameter, as
 * ByCounter lists them ("27865*load 976*memcpy(...)").
 */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "count.h"
#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "util.h"

static int by_count_desc(const void *a, const void *b)
{
	const struct count_item *x = *(const struct count_item *const *)a;
	const struct count_item *y = *(const struct count_item *const *)b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* Prints items as "N*name" (opcodes) or "N*name()" with its bytes (calls), most frequent first,
 * wrapped at about 100 columns. */
static void print_items(const struct count_item *v, int n, int calls)
{
	const struct count_item **order = xcalloc((size_t)n + 1, sizeof *order);
	int col = 0, k = 0;

	for (int i = 0; i < n; i++) {
		if (v[i].n) /* opcodes of code that never ran, library functions never called */
			order[k++] = &v[i];
	}
	qsort(order, (size_t)k, sizeof *order, by_count_desc);
	for (int i = 0; i < k; i++) {
		char *word = !calls ? xasprintf("%llu*%s", (unsigned long long)order[i]->n, order[i]->name)
			     : order[i]->has_bytes
				     ? xasprintf("%llu*%s(%llu bytes)", (unsigned long long)order[i]->n,
						 order[i]->name, (unsigned long long)order[i]->bytes)
				     : xasprintf("%llu*%s()", (unsigned long long)order[i]->n, order[i]->name);

		if (col && col + 1 + (int)strlen(word) > 100) {
			putchar('\n');
			col = 0;
		}
		col += printf(col ? " %s" : "    %s", word);
		free(word);
	}
	if (col)
		putchar('\n');
	free(order);
}

static void print_function(const struct count_function *f)
{
	if (f->line)
		printf("%s (%s:%d): %llu instructions\n", f->name, f->file, f->line,
		       (unsigned long long)f->total);
	else
		printf("%s: %llu instructions\n", f->name, (unsigned long long)f->total);
	print_items(f->op, f->nop, 0);
	print_items(f->call, f->ncall, 1);
	if (f->alloca_bytes)
		printf("    %llu bytes of dynamic alloca\n", (unsigned long long)f->alloca_bytes);
}

static int run_count(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'}, {"stdin", required_argument, NULL, 'i'},
		{"timeout", required_argument, NULL, 't'}, {NULL, 0, NULL, 0},
	};
	int json = 0, opt;
	double timeout = 0;
	const char *stdin_path = NULL;
	struct input in;
	struct run_result res;
	struct count c;
	struct error err = {""};

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j': json = 1; break;
		case 'i': stdin_path = optarg; break;
		case 't': timeout = atof(optarg); break;
		default: usage_error(&cmd_count, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error(&cmd_count, "no build directory given");
	cli_make_input(&in, argv + optind + 1, argc - optind - 1, stdin_path); /* GNU getopt put
									     the non-options last */
	if (count_run(&c, argv[optind], &in, timeout, &res, &err) < 0)
		die("%s", err.msg);
	if (res.status != RUN_OK)
		fprintf(stderr, "mantis count: the program ended: %s (exit %d, signal %d)\n",
			runner_status_name(res.status), res.exit_code, res.signal);
	if (json) {
		json_t *root = count_json(&c);

		json_dumpf(root, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(root);
	} else {
		print_function(&c.program);
		for (int i = 0; i < c.nfn; i++)
			print_function(&c.fn[i]);
	}
	count_release(&c);
	input_release(&in);
	return EXIT_OK;
}

const struct command cmd_count = {
	.name = "count",
	.summary = "count a run's executed instructions per function, opcode and library call",
	.usage =
		"usage: mantis count DIR [--json] [--stdin FILE] [--timeout S] -- ARGS...\n"
		"\n"
		"Runs DIR/inst (made by 'mantis instrument' with the bycount scheme, the default) with\n"
		"ARGS, as one line of an inputs file (a scratch directory, {tmp}, words naming existing\n"
		"files made absolute), and prints its exact dynamic instruction counts (ByCounter's\n"
		"listing): for the whole program, then per function that ran, each LLVM IR opcode as\n"
		"N*opcode, each library function as N*name(), with the bytes its size parameter summed\n"
		"to for memcpy, memset, memmove, malloc, calloc, realloc, fread, fwrite, qsort..., and\n"
		"the bytes of variable-length arrays. The counts are those of the IR before clang\n"
		"optimises it, so they are the same at every optimisation level, on every machine and\n"
		"on every repetition. The program's output is discarded. Put -- before ARGS when any\n"
		"of them starts with '-'.\n"
		"\n"
		"  --json         {\"total\", \"opcodes\": {OP: n}, \"calls\": {NAME: {\"calls\", \"bytes\"?}},\n"
		"                 \"alloca_bytes\", \"functions\": {NAME: {\"file\", \"line\", \"total\",\n"
		"                 \"opcodes\", \"calls\", \"alloca_bytes\"}}}\n"
		"  --stdin FILE   feed FILE to the program's standard input\n"
		"  --timeout S    kill the program after S seconds\n",
	.run = run_count,
};
