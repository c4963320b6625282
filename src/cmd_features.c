/*
 * cmd_features.c: "mantis features DIR -- ARGS": run the instrumented build on one input and
 * print its feature values.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "runner.h"
#include "util.h"

static int run_features(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"all", no_argument, NULL, 'a'},      {"json", no_argument, NULL, 'j'},
		{"kind", required_argument, NULL, 'k'}, {"stdin", required_argument, NULL, 'i'},
		{"timeout", required_argument, NULL, 't'}, {NULL, 0, NULL, 0},
	};
	int all = 0, json = 0, opt, rc;
	const char *kind = NULL;
	char cwd[4096], *dir, *manifest_path, *program, *tmp, *counters_path, *env[2];
	struct input in = {1, "", 0, NULL, NULL};
	struct run_options ro = {.timeout = 0};
	struct run_result res;
	struct manifest m;
	struct error err = {""};
	uint64_t *counters;

	opterr = 0;
	/* GNU getopt permutes: options may come before or after DIR; "--" ends them */
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 'a': all = 1; break;
		case 'j': json = 1; break;
		case 'k': kind = optarg; break;
		case 'i': in.stdin_path = realpath(optarg, NULL); if (!in.stdin_path) die("cannot read %s", optarg); break;
		case 't': ro.timeout = atof(optarg); break;
		default: usage_error(&cmd_features, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		usage_error(&cmd_features, "no build directory given");
	dir = argv[optind++];
	manifest_path = xasprintf("%s/features.json", dir);
	program = xasprintf("%s/inst", dir);
	if (manifest_read(&m, manifest_path, &err) < 0)
		die("%s", err.msg);
	if (!getcwd(cwd, sizeof cwd))
		die("cannot get the current directory");
	in.argc = argc - optind;
	in.argv = xcalloc((size_t)in.argc + 1, sizeof *in.argv);
	for (int i = 0; i < in.argc; i++) {
		in.argv[i] = xstrdup(argv[optind + i]);
		inputs_resolve_word(&in.argv[i], cwd);
	}
	tmp = xstrdup("/tmp/mantis-features-XXXXXX");
	if (!mkdtemp(tmp))
		die("cannot make a temporary directory");
	counters_path = xasprintf("%s/counters", tmp);
	env[0] = xasprintf("MANTIS_COUNTERS=%s", counters_path);
	env[1] = NULL;
	ro.env = env;
	ro.argv0 = m.program;
	if (runner_run(program, &in, &ro, &res, &err) < 0)
		die("%s", err.msg);
	rc = counters_read(&m, counters_path, &counters, &err);
	unlink(counters_path);
	rmdir(tmp);
	if (rc < 0)
		die("%s (the program ended: %s)", err.msg, runner_status_name(res.status));
	if (json) {
		json_t *root = json_object(), *values = json_object();

		json_object_set_new(root, "status", json_string(runner_status_name(res.status)));
		json_object_set_new(root, "exit_code", json_integer(res.exit_code));
		for (int i = 0; i < m.n; i++) {
			double v = feature_value(&m.v[i], counters);

			if ((all || v != 0) && (!kind || strcmp(kind, m.v[i].kind) == 0))
				json_object_set_new(values, m.v[i].name, json_real(v));
		}
		json_object_set_new(root, "features", values);
		json_dumpf(root, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
		putchar('\n');
		json_decref(root);
	} else {
		if (res.status != RUN_OK)
			fprintf(stderr, "mantis features: the program ended: %s (exit %d, signal %d)\n",
				runner_status_name(res.status), res.exit_code, res.signal);
		for (int i = 0; i < m.n; i++) {
			double v = feature_value(&m.v[i], counters);

			if ((all || v != 0) && (!kind || strcmp(kind, m.v[i].kind) == 0))
				printf("%-60s %.17g\n", m.v[i].name, v);
		}
	}
	for (int i = 0; i < in.argc; i++)
		free(in.argv[i]);
	free(in.argv);
	free(in.stdin_path);
	free(counters);
	free(env[0]);
	free(counters_path);
	free(tmp);
	free(manifest_path);
	free(program);
	manifest_release(&m);
	return EXIT_OK;
}

const struct command cmd_features = {
	.name = "features",
	.summary = "run an instrumented build on one input and print its features",
	.usage =
		"usage: mantis features DIR [options] -- ARGS...\n"
		"\n"
		"Runs DIR/inst (made by 'mantis instrument') with ARGS, as one line of an inputs\n"
		"file: in a scratch directory that {tmp} names, with words that name existing\n"
		"files made absolute. Its output is discarded; prints each non-zero feature.\n"
		"Put -- before ARGS when any of them starts with '-'.\n"
		"\n"
		"  --all          print features that are zero too\n"
		"  --kind KIND    only loop, branch, switch, call, value, exit or bycount features\n"
		"  --stdin FILE   feed FILE to the program's standard input\n"
		"  --timeout S    kill the program after S seconds\n"
		"  --json         {\"status\", \"exit_code\", \"features\": {name: value}}\n",
	.run = run_features,
};
