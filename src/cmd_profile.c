/*
 * cmd_profile.c: "mantis profile": run a build on many inputs and keep every run;
 * "mantis profile DIR --status": what is done; "mantis profile merge": combine shards.
 */
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "profile.h"
#include "store.h"
#include "util.h"

static int print_status(const char *dir, const char *db_option, int json)
{
	char *db = profile_db_path(dir, db_option);
	struct store st;
	struct store_status s;
	struct error err = {""};

	if (access(db, F_OK) != 0)
		die("%s: no profile yet (run mantis profile %s --inputs FILE)", db, dir);
	if (store_open(&st, db, 0, &err) < 0 || store_status(&st, &s, &err) < 0)
		die("%s", err.msg);
	store_close(&st);
	if (json) {
		json_t *o = json_pack("{s:i, s:i, s:i, s:i, s:i, s:{s:i, s:i, s:i, s:i}}", "inputs", s.inputs,
				      "complete", s.complete, "failed", s.failed, "pending", s.pending,
				      "repeat", s.repeat, "runs", "ok", s.runs[0], "nonzero", s.runs[1],
				      "crash", s.runs[2], "timeout", s.runs[3]);

		json_object_set_new(o, "mismatched", json_integer(s.mismatched));
		json_object_set_new(o, "rechecked", json_integer(s.rechecked));
		json_object_set_new(o, "noise_floor", isnan(s.noise_floor) ? json_null() : json_real(s.noise_floor));
		json_object_set_new(o, "median_cv", isnan(s.median_cv) ? json_null() : json_real(s.median_cv));
		json_object_set_new(o, "paced_cv", isnan(s.paced_cv) ? json_null() : json_real(s.paced_cv));
		json_object_set_new(o, "paced", json_boolean(s.paced));
		json_dumpf(o, stdout, JSON_INDENT(2));
		putchar('\n');
		json_decref(o);
	} else {
		printf("%s: %d inputs: %d complete, %d failed, %d pending (%d timing runs each)\n", db,
		       s.inputs, s.complete, s.failed, s.pending, s.repeat);
		printf("runs: %d ok, %d nonzero, %d crash, %d timeout\n", s.runs[0], s.runs[1], s.runs[2],
		       s.runs[3]);
		if (s.rechecked)
			printf("recheck: %d input%s run a second time with the instrumented build (training "
			       "rejects the features that differ)\n", s.rechecked, s.rechecked == 1 ? "" : "s");
		if (s.mismatched)
			printf("warning: on %d input%s the instrumented build ended unlike the original "
			       "(status or exit code): a transparency bug in mantis, please report it\n",
			       s.mismatched, s.mismatched == 1 ? "" : "s");
		if (!isnan(s.noise_floor))
			printf("noise: wall time varies %.1f%% (median coefficient of variation); one run "
			       "differs from the median of the others by %.1f%% on average (noise floor)\n",
			       100 * s.median_cv, 100 * s.noise_floor);
		if (!isnan(s.paced_cv))
			printf("pace: with each run divided by the machine's speed of the moment (the "
			       "runs made next to it), wall time %s %.1f%%: a time model trains on %s\n",
			       s.paced ? "varies" : "would vary", 100 * s.paced_cv,
			       s.paced ? "the divided times" : "the times as measured");
	}
	free(db);
	return EXIT_OK;
}

static int run_merge(int argc, char **argv)
{
	struct store st;
	struct error err = {""};

	if (argc < 3)
		usage_error(&cmd_profile, "merge needs OUT.db and at least one IN.db");
	for (int i = 2; i < argc; i++) {
		if (access(argv[i], R_OK) != 0)
			die("cannot read %s", argv[i]);
	}
	if (store_open(&st, argv[1], 1, &err) < 0 || store_merge(&st, argv + 2, argc - 2, &err) < 0)
		die("%s", err.msg);
	store_close(&st);
	return EXIT_OK;
}

/* Parses "I/N" with 1 <= I <= N. */
static void parse_shard(const char *arg, int *shard, int *n)
{
	char extra;

	if (sscanf(arg, "%d/%d%c", shard, n, &extra) != 2 || *n < 1 || *shard < 1 || *shard > *n)
		usage_error(&cmd_profile, "--shard: '%s' is not I/N with 1 <= I <= N", arg);
}

static int run_profile(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"inputs", required_argument, NULL, 'i'}, {"repeat", required_argument, NULL, 'r'},
		{"jobs", required_argument, NULL, 'j'},   {"timeout", required_argument, NULL, 't'},
		{"metric", required_argument, NULL, 'm'}, {"shard", required_argument, NULL, 's'},
		{"db", required_argument, NULL, 'd'},     {"new", no_argument, NULL, 'n'},
		{"pin", required_argument, NULL, 'p'},    {"parallel-timing", no_argument, NULL, 'P'},
		{"status", no_argument, NULL, 'S'},       {"json", no_argument, NULL, 'J'},
		{"quiet", no_argument, NULL, 'q'},        {"ok-exit", required_argument, NULL, 'o'},
		{"recheck", required_argument, NULL, 'c'}, {NULL, 0, NULL, 0},
	};
	struct profile_options o = {0};
	struct error err = {""};
	int opt, status = 0, json = 0;
	char *end;

	if (argc > 1 && strcmp(argv[1], "merge") == 0)
		return run_merge(argc - 1, argv + 1);
	o.jobs = 1;
	o.recheck = PROFILE_RECHECK;
	o.progress = isatty(2);
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":j:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'i': o.inputs = optarg; break;
		case 'r':
			o.repeat = (int)strtol(optarg, &end, 10);
			if (*end || o.repeat < 1 || o.repeat > 64)
				usage_error(&cmd_profile, "--repeat: '%s' is not a number from 1 to 64", optarg);
			break;
		case 'j':
			o.jobs = (int)strtol(optarg, &end, 10);
			if (*end || o.jobs < 1 || o.jobs > 256)
				usage_error(&cmd_profile, "-j: '%s' is not a number from 1 to 256", optarg);
			break;
		case 't':
			o.timeout = strtod(optarg, &end);
			if (*end || !(o.timeout > 0))
				usage_error(&cmd_profile, "--timeout: '%s' is not a positive number of seconds", optarg);
			break;
		case 'm':
			if (strcmp(optarg, "wall") && strcmp(optarg, "cpu") && strcmp(optarg, "maxrss") &&
			    strcmp(optarg, "instructions"))
				usage_error(&cmd_profile, "--metric: '%s' is not wall, cpu, maxrss or instructions", optarg);
			o.metric = optarg;
			break;
		case 's': parse_shard(optarg, &o.shard, &o.nshards); break;
		case 'd': o.db = optarg; break;
		case 'n': o.fresh = 1; break;
		case 'p':
			o.pin_cpu = (int)strtol(optarg, &end, 10) + 1;
			if (*end || o.pin_cpu < 1)
				usage_error(&cmd_profile, "--pin: '%s' is not a CPU number", optarg);
			break;
		case 'c':
			o.recheck = (int)strtol(optarg, &end, 10);
			if (*end || end == optarg || o.recheck < 0 || o.recheck > 1000)
				usage_error(&cmd_profile, "--recheck: '%s' is not a number from 0 to 1000", optarg);
			break;
		case 'P': o.parallel_timing = 1; break;
		case 'S': status = 1; break;
		case 'J': json = 1; break;
		case 'q': o.progress = 0; break;
		case 'o': cli_ok_exits(&cmd_profile, optarg); break;
		case ':': usage_error(&cmd_profile, "%s needs a value", argv[optind - 1]);
		default: usage_error(&cmd_profile, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		usage_error(&cmd_profile, argc - optind ? "give one build directory" : "no build directory given");
	o.dir = argv[optind];
	if (status)
		return print_status(o.dir, o.db, json);
	if (!o.inputs)
		usage_error(&cmd_profile, "no inputs file (--inputs FILE)");
	if (o.jobs > 1 && !o.parallel_timing)
		fprintf(stderr, "mantis profile: feature runs %d at a time; timing runs one at a time "
				"(--parallel-timing to run them %d at a time, noisier)\n", o.jobs, o.jobs);
	if (profile_run(&o, &err) < 0)
		die("%s", err.msg);
	return print_status(o.dir, o.db, 0);
}

const struct command cmd_profile = {
	.name = "profile",
	.summary = "run a build on many inputs, measure it, and keep every run",
	.usage =
		"usage: mantis profile DIR --inputs FILE [options]\n"
		"       mantis profile DIR --status [--json] [--db FILE]\n"
		"       mantis profile merge OUT.db IN.db...\n"
		"\n"
		"DIR is a build directory (mantis instrument). Each input of FILE (one per line:\n"
		"shell-quoted arguments, '< FILE' for stdin, {tmp} for the run's scratch folder) is\n"
		"run once with DIR/inst for its features and --repeat times with DIR/orig for its\n"
		"time, in interleaved rounds (the first in order, the others shuffled, so that\n"
		"the machine's speed of the moment can be divided out of the times: --status says\n"
		"whether it is); then once more with DIR/inst on the --recheck inputs\n"
		"whose feature run took longest, so that training knows the features that differ\n"
		"between two runs of one input (a clock, an address, a random value) and leaves\n"
		"them out. Every finished run is kept in DIR/profile.db at once:\n"
		"run the same command again to resume after an interruption. Crashes, timeouts and\n"
		"non-zero exits (but those of --ok-exit) are recorded and left out of models.\n"
		"\n"
		"  --inputs FILE      the inputs file\n"
		"  --repeat K         timing runs per input (default 5; the median is used)\n"
		"  -j, --jobs N       feature runs N at a time (timing runs stay one at a time)\n"
		"  --parallel-timing  timing runs N at a time too (faster, noisier)\n"
		"  --timeout S        kill a run after S seconds (recorded as a timeout)\n"
		"  --metric M         default metric for export and model: wall, cpu, maxrss, or\n"
		"                     instructions (the exact count from the bycount scheme)\n"
		"  --shard I/N        run only inputs I, I+N, I+2N... (1-based), for batch systems;\n"
		"                     combine the databases with 'mantis profile merge'\n"
		"  --db FILE          the database (default DIR/profile.db)\n"
		"  --ok-exit CODES    exit codes besides 0 that are a result of the program, not a\n"
		"                     failure (\"1\" for grep: no line matched; \"1,2\"); a profile\n"
		"                     keeps the set it was started with\n"
		"  --new              start a new profile; the old database is kept aside\n"
		"  --recheck N        rerun DIR/inst on the N longest inputs (default 3; 0: none)\n"
		"  --pin CPU          pin every run to one CPU\n"
		"  --status           print inputs complete, failed and pending, and the noise\n"
		"                     (with the machine's speed of the moment divided out too)\n"
		"  --json             with --status, as JSON\n"
		"  --quiet            no progress on stderr\n",
	.run = run_profile,
};
