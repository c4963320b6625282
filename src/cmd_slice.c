/*
 * cmd_slice.c: "mantis slice DIR --features F,G [--inputs FILE]": build one evaluator per
 * feature (an executable slice), and, on the inputs, validate it against the instrumented
 * build and measure its cost against the original program.
 *
 * Per input: DIR/inst gives the reference feature values; DIR/orig and each evaluator run
 * --reps times and their median wall times give the cost ratio. A feature is validated when its
 * evaluator computes the reference value on every input; otherwise the first input that
 * differs is the reason.
 */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "predictor.h"
#include "runner.h"
#include "slice.h"
#include "util.h"

/* What is known of one feature's evaluator. */
struct result {
	const char *name;    /* the feature */
	char *exe;           /* its evaluator; owned */
	int kept, total;     /* instructions kept of the program's */
	double seconds;      /* time to mark and rebuild */
	int validated;       /* 1 if it matched on every input (and there were inputs) */
	char *reason;        /* why not, or NULL; owned */
	double cost;         /* mean over inputs of evaluator time / program time */
	char *lines;         /* kept source lines, one per line; owned */
	char *why;           /* with --why: the chain of dependences that keeps the line; owned */
	struct fuse_stats fused;       /* its features whose counters add up in one */
	struct promote_stats promoted; /* its loops whose counters live in locals */
	int stops_early;     /* it stops once it has the feature, a first value */
	char *so;            /* with --in-process: its shared-object form, or NULL; owned */
	char *so_refusal;    /* why there is none, or NULL; owned */
	int so_validated;    /* 1 if the form, run in process, matched on every input */
	char *so_reason;     /* why not, or NULL; owned */
	double so_cost;      /* mean over inputs of its in-process time / program time, warm */
	double so_cold_cost; /* the same of its first run in a fresh process, cold */
};


/*
 * Runs program on in with MANTIS_COUNTERS set (predictor_measure; a shared-object form hosted
 * by host when that is given: predictor_measure_hosted), reps times, each killed
 * after timeout seconds; *wall gets the median wall time (hosted: warm; *cold, when given, the
 * median of the cold runs) and *counters (owned by the caller)
 * what the last run wrote, when m is given. Returns 0, or -1 with err set (also when it
 * crashed, timed out or, with m, wrote no counters). *failed, when given, gets the last run's
 * exit status where that is not a result (--ok-exit), else 0.
 */
static int measure(const char *program, const char *host, const struct input *in, int reps,
		   double timeout, const struct manifest *m, int *failed, double *wall,
		   double *cold, uint64_t **counters, struct error *err)
{
	double times[16], colds[16];

	*counters = NULL;
	for (int r = 0; r < reps; r++) {
		struct run_result res;
		uint64_t *c;

		if ((host ? predictor_measure_hosted(host, program, in, timeout, m, &res, &colds[r],
						     &c, err)
			  : predictor_measure(program, in, timeout, m, &res, &c, NULL, err)) < 0)
			break;
		free(*counters);
		*counters = c;
		times[r] = res.wall;
		if (res.status == RUN_CRASH || res.status == RUN_TIMEOUT) {
			error_set(err, "%s %s on input line %d", program, runner_status_name(res.status),
				  in->line);
			break;
		}
		if (failed)
			*failed = res.status == RUN_NONZERO ? res.exit_code : 0;
		if (r == reps - 1 && m && !*counters) {
			error_set(err, "%s wrote no counters on input line %d", program, in->line);
			break;
		}
		if (r == reps - 1) {
			*wall = median(times, reps);
			if (cold)
				*cold = median(colds, reps);
			return 0;
		}
	}
	free(*counters);
	*counters = NULL;
	return -1;
}

/* Returns DIR/inst's counters on every input (an array owned by the caller). Says on stderr
 * which inputs it fails on: the evaluators keep the path their runs took, and a failure may be
 * meant (an exit status the evaluator must give too) or not (a relative path in an inputs
 * file names a file beside that file, not one in the current folder: every evaluator is then
 * the failure's path, validated). */
static uint64_t **reference_counters(const char *dir, const struct inputs *ins)
{
	char *path = xasprintf("%s/features.json", dir), *inst = xasprintf("%s/inst", dir);
	uint64_t **ref = xcalloc((size_t)ins->n + 1, sizeof *ref);
	struct manifest m;
	struct error err = {""};
	double t;
	int failed, nfailed = 0;

	if (manifest_read(&m, path, &err) < 0)
		die("%s", err.msg);
	for (int k = 0; k < ins->n; k++) {
		if (measure(inst, NULL, &ins->v[k], 1, 3600, &m, &failed, &t, NULL, &ref[k], &err) < 0)
			die("%s", err.msg);
		if (failed) {
			fprintf(stderr, "mantis slice: %s:%d: %s exits with status %d (%s)\n", ins->path,
				ins->v[k].line, inst, failed, ins->v[k].text);
			nfailed++;
		}
	}
	if (nfailed == ins->n)
		fprintf(stderr, "mantis slice: %s fails on every input of %s: its evaluators are cut "
			"to the failure's path (a relative path in an inputs file names a file beside "
			"it)\n", inst, ins->path);
	manifest_release(&m);
	free(path);
	free(inst);
	return ref;
}

/* Clears *validated and sets *reason (the first one) when f's value in got is not ref's. */
static void check(const struct feature *f, int line, const uint64_t *got, const uint64_t *ref,
		  int *validated, char **reason)
{
	if (feature_value(f, got) == feature_value(f, ref))
		return;
	if (!*reason)
		*reason = xasprintf("input line %d: evaluator computes %.17g, the program %.17g", line,
				    feature_value(f, got), feature_value(f, ref));
	*validated = 0;
}

/* Validates and times every evaluator (and its shared-object form, run by host) on the inputs, against ref (DIR/inst's counters). */
static void evaluate(const struct slicer *s, struct result *res, const struct inputs *ins,
		     uint64_t *const *ref_counters, int reps, const char *host)
{
	char *orig = xasprintf("%s/orig", s->dir);
	struct error err = {""};

	for (int i = 0; i < s->nfeatures; i++) {
		res[i].validated = ins->n > 0;
		res[i].so_validated = ins->n > 0 && res[i].so;
	}
	for (int k = 0; k < ins->n; k++) {
		uint64_t *ref = ref_counters[k], *none, *got;
		double t_orig, t_eval, t_cold;

		if (measure(orig, NULL, &ins->v[k], reps, 3600, NULL, NULL, &t_orig, NULL, &none, &err) < 0)
			die("%s", err.msg);
		for (int i = 0; i < s->nfeatures; i++) {
			const struct feature *f = &s->m.v[s->feature[i]];

			/* an evaluator slower than this is rejected anyway; a cut loop may not end */
			if (measure(res[i].exe, NULL, &ins->v[k], reps, 2 + 10 * t_orig, &s->m, NULL, &t_eval, NULL,
				    &got,
				    &err) < 0) {
				if (!res[i].reason)
					res[i].reason = xasprintf("%s", err.msg);
				res[i].validated = 0;
				continue;
			}
			res[i].cost += t_eval / (t_orig > 1e-6 ? t_orig : 1e-6) / ins->n;
			check(f, ins->v[k].line, got, ref, &res[i].validated, &res[i].reason);
			free(got);
			if (!res[i].so)
				continue;
			if (measure(res[i].so, host, &ins->v[k], reps, 2 + 10 * t_orig, &s->m, NULL, &t_eval,
				    &t_cold, &got, &err) < 0) {
				if (!res[i].so_reason)
					res[i].so_reason = xasprintf("%s", err.msg);
				res[i].so_validated = 0;
				continue;
			}
			res[i].so_cost += t_eval / (t_orig > 1e-6 ? t_orig : 1e-6) / ins->n;
			res[i].so_cold_cost += t_cold / (t_orig > 1e-6 ? t_orig : 1e-6) / ins->n;
			check(f, ins->v[k].line, got, ref, &res[i].so_validated, &res[i].so_reason);
			free(got);
		}
	}
	free(orig);
}

/* Returns the "in_process" object of r (--in-process); a new reference. */
static json_t *in_process_json(const struct result *r, int evaluated)
{
	json_t *o = json_object();

	if (!r->so) {
		json_object_set_new(o, "refused", json_string(r->so_refusal));
		return o;
	}
	json_object_set_new(o, "object", json_string(r->so));
	if (evaluated) {
		json_object_set_new(o, "validated", json_boolean(r->so_validated));
		json_object_set_new(o, "cost", json_real(r->so_cost));
		json_object_set_new(o, "cold_cost", json_real(r->so_cold_cost));
		if (r->so_reason)
			json_object_set_new(o, "reason", json_string(r->so_reason));
	}
	return o;
}

static void print_json(const struct slicer *s, const struct result *res, int lines, int evaluated)
{
	json_t *root = json_object(), *features = json_array();

	for (int i = 0; i < s->nfeatures; i++) {
		json_t *f = json_object();

		json_object_set_new(f, "name", json_string(res[i].name));
		json_object_set_new(f, "evaluator", json_string(res[i].exe));
		json_object_set_new(f, "kept", json_integer(res[i].kept));
		json_object_set_new(f, "total", json_integer(res[i].total));
		json_object_set_new(f, "slice_seconds", json_real(res[i].seconds));
		json_object_set_new(f, "promoted", json_pack("{s:i, s:i, s:i}", "loops",
							     res[i].promoted.loops, "counters",
							     res[i].promoted.counters, "unsafe",
							     res[i].promoted.unsafe));
		json_object_set_new(f, "fused", json_pack("{s:i, s:i}", "features",
							  res[i].fused.features, "counters",
							  res[i].fused.counters));
		json_object_set_new(f, "stops_early", json_boolean(res[i].stops_early));
		if (evaluated) {
			json_object_set_new(f, "validated", json_boolean(res[i].validated));
			json_object_set_new(f, "cost", json_real(res[i].cost));
			if (res[i].reason)
				json_object_set_new(f, "reason", json_string(res[i].reason));
		}
		if (res[i].so || res[i].so_refusal)
			json_object_set_new(f, "in_process", in_process_json(&res[i], evaluated));
		if (lines) {
			json_t *l = json_array();

			for (char *p = res[i].lines, *nl; *p; p = nl + 1) {
				nl = strchr(p, '\n');
				json_array_append_new(l, json_stringn(p, (size_t)(nl - p)));
			}
			json_object_set_new(f, "lines", l);
		}
		if (res[i].why)
			json_object_set_new(f, "why", json_string(res[i].why));
		json_array_append_new(features, f);
	}
	json_object_set_new(root, "features", features);
	json_object_set_new(root, "analysis_seconds", json_real(s->analysis_seconds));
	json_object_set_new(root, "sdg_nodes", json_integer(s->sdg.n));
	json_object_set_new(root, "sdg_edges", json_integer(s->sdg.nedges));
	json_object_set_new(root, "exit_calls", json_integer(s->nexits));
	json_object_set_new(root, "exit_calls_unreached", json_integer(s->nexits_dropped));
	json_object_set_new(root, "branches_pruned", json_integer(s->pruned));
	json_object_set_new(root, "functions_emptied", json_integer(s->emptied));
	json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(6));
	putchar('\n');
	json_decref(root);
}

static void print_text(const struct slicer *s, const struct result *res, int lines, int evaluated)
{
	printf("analysis %.2f s, %d nodes, %d edges; %d of %d exit calls reached in training, %d "
	       "branches cut to the side training took, %d functions it never entered emptied\n",
	       s->analysis_seconds, s->sdg.n, s->sdg.nedges, s->nexits - s->nexits_dropped, s->nexits,
	       s->pruned, s->emptied);
	for (int i = 0; i < s->nfeatures; i++) {
		printf("%s: kept %d of %d instructions (%.1f%%), %.2f s%s", res[i].name, res[i].kept,
		       res[i].total, 100.0 * res[i].kept / (res[i].total ? res[i].total : 1), res[i].seconds,
		       res[i].stops_early ? ", stops once assigned" : "");
		if (evaluated)
			printf(", %s, cost %.2f%%", res[i].validated ? "validated" : "NOT validated",
			       100 * res[i].cost);
		printf("\n");
		if (evaluated && res[i].reason)
			printf("  %s\n", res[i].reason);
		if (res[i].so_refusal)
			printf("  in process: none, %s\n", res[i].so_refusal);
		if (res[i].so && evaluated)
			printf("  in process: %s, cost %.2f%% (%.2f%% cold)\n", res[i].so_validated
			       ? "validated" : "NOT validated", 100 * res[i].so_cost,
			       100 * res[i].so_cold_cost);
		if (res[i].so && evaluated && res[i].so_reason)
			printf("    %s\n", res[i].so_reason);
		if (lines)
			fputs(res[i].lines, stdout);
		if (res[i].why)
			fputs(res[i].why, stdout);
	}
}

/* Returns why feature i's slice keeps the line file_line, as slicer_why says; owned. */
static char *explain(const struct slicer *s, const unsigned char *mark, int i, const char *file_line)
{
	struct strbuf sb = {0};
	int len;

	strbuf_add(&sb, "", 0);
	len = slicer_why(s, mark, i, file_line, &sb);
	if (len < 0)
		usage_error(&cmd_slice, "--why: '%s' is not FILE:LINE", file_line);
	if (len == 0) {
		char *none = xasprintf("%s: the slice keeps no instruction of this line\n", file_line);

		strbuf_add(&sb, none, strlen(none));
		free(none);
	}
	return strbuf_detach(&sb);
}

/* Splits "a,b,c" into words (the string is modified). Returns the count. */
static int split_commas(char *list, char ***words)
{
	int n = 0;

	*words = NULL;
	for (char *save = NULL, *w = strtok_r(list, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		*words = xrealloc(*words, sizeof **words * (size_t)(n + 1));
		(*words)[n++] = w;
	}
	return n;
}

static int run_slice(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"features", required_argument, NULL, 'f'}, {"inputs", required_argument, NULL, 'i'},
		{"json", no_argument, NULL, 'j'},           {"lines", no_argument, NULL, 'l'},
		{"reps", required_argument, NULL, 'r'},     {"output", required_argument, NULL, 'o'},
		{"why", required_argument, NULL, 'w'},      {"ok-exit", required_argument, NULL, 'x'},
		{"in-process", no_argument, NULL, 'p'},     {NULL, 0, NULL, 0},
	};
	char *features = NULL, **names, *out = NULL, *runtime, *why = NULL, *inproc = NULL,
	     *host = NULL;
	const char *inputs_path = NULL;
	int json = 0, lines = 0, reps = 3, in_process = 0, opt, n;
	struct slicer s;
	struct inputs ins = {0};
	struct result *res;
	struct error err = {""};
	uint64_t **ref;

	opterr = 0;
	while ((opt = getopt_long(argc, argv, "o:", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f': features = optarg; break;
		case 'i': inputs_path = optarg; break;
		case 'j': json = 1; break;
		case 'l': lines = 1; break;
		case 'r': reps = atoi(optarg); break;
		case 'o': out = optarg; break;
		case 'w': why = optarg; break;
		case 'x': cli_ok_exits(&cmd_slice, optarg); break;
		case 'p': in_process = 1; break;
		default: usage_error(&cmd_slice, "unknown option or missing value '%s'", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		usage_error(&cmd_slice, "give one build directory (made by mantis instrument)");
	if (!features || !*features)
		usage_error(&cmd_slice, "--features needs one or more feature names");
	if (reps < 1 || reps > 16)
		usage_error(&cmd_slice, "--reps must be 1 to 16");
	if (why && (!strrchr(why, ':') || strrchr(why, ':') == why || atoi(strrchr(why, ':') + 1) < 1))
		usage_error(&cmd_slice, "--why: '%s' is not FILE:LINE", why);
	if (inputs_path && inputs_load(&ins, inputs_path, &err) < 0)
		die("%s", err.msg);
	runtime = cli_runtime_file("slicert.o");
	n = split_commas(features, &names);
	ref = ins.n > 0 ? reference_counters(argv[optind], &ins) : NULL;
	if (slicer_init(&s, argv[optind], names, n, ref, ins.n, &err) < 0)
		die("%s", err.msg);
	if (in_process && !(host = cli_sibling("mantis-host")))
		die("mantis-host is missing beside mantis (run make)");
	if (in_process)
		s.inproc = inproc = cli_runtime_file("inproc.o");
	out = out ? xstrdup(out) : xasprintf("%s/slice", argv[optind]);
	if (mkdir(out, 0777) < 0 && errno != EEXIST)
		die("cannot make %s: %s", out, strerror(errno));
	res = xcalloc((size_t)n, sizeof *res);
	for (int i = 0; i < n; i++) {
		unsigned char *mark = xcalloc((size_t)s.sdg.n, 1);
		char *bc = xasprintf("%s/feature%d.bc", out, i);
		struct strbuf sb = {0};
		double t0 = now_seconds();

		res[i].name = names[i];
		res[i].exe = xasprintf("%s/feature%d", out, i);
		res[i].total = s.sdg.ninsts;
		res[i].kept = slicer_mark(&s, &i, 1, mark);
		if (slicer_write(&s, mark, bc, res[i].exe, runtime, &err) < 0)
			die("feature %s: %s", names[i], err.msg);
		res[i].seconds = now_seconds() - t0;
		res[i].fused = s.fused;
		res[i].promoted = s.promoted;
		res[i].stops_early = s.stops_early;
		if (in_process && !s.solib_refusal)
			res[i].so = xasprintf("%s.so", res[i].exe);
		if (s.solib_refusal)
			res[i].so_refusal = xstrdup(s.solib_refusal);
		strbuf_add(&sb, "", 0);
		slicer_lines(&s, mark, &sb);
		res[i].lines = strbuf_detach(&sb);
		if (why)
			res[i].why = explain(&s, mark, i, why);
		free(bc);
		free(mark);
	}
	if (ins.n > 0)
		evaluate(&s, res, &ins, ref, reps, host);
	if (json)
		print_json(&s, res, lines, ins.n > 0);
	else
		print_text(&s, res, lines, ins.n > 0);
	for (int i = 0; i < n; i++) {
		free(res[i].exe);
		free(res[i].reason);
		free(res[i].lines);
		free(res[i].why);
		free(res[i].so);
		free(res[i].so_refusal);
		free(res[i].so_reason);
	}
	for (int k = 0; ref && k < ins.n; k++)
		free(ref[k]);
	free(ref);
	free(res);
	free(names);
	free(out);
	free(runtime);
	free(inproc);
	free(host);
	inputs_release(&ins);
	slicer_release(&s);
	return EXIT_OK;
}

const struct command cmd_slice = {
	.name = "slice",
	.summary = "build feature evaluators (executable slices), validate them, measure their cost",
	.usage = "usage: mantis slice DIR --features NAME[,NAME...] [--inputs FILE] [--json] [--lines]\n"
	"                    [--why FILE:LINE] [--reps K] [--in-process] [-o OUT]\n"
	"\n"
	"Builds, for each feature named (as in DIR/features.json), an evaluator: the program of DIR\n"
	"(made by mantis instrument) cut down to what computes that feature's value at every exit.\n"
	"It writes the value in the counters format when MANTIS_COUNTERS names a file, and nothing\n"
	"else. The dependence graph is built once; each feature's slice is a reachability on it.\n"
	"The evaluator of a first value (VAR.first, VAR.vK) stops once the variable has it: it\n"
	"costs the program's work up to that assignment (\"stops once assigned\").\n"
	"\n"
	"  --features LIST  comma-separated feature names\n"
	"  --inputs FILE    validate each evaluator on these inputs against DIR/inst (the value must\n"
	"                   match on every input) and measure its cost: the mean over the inputs of\n"
	"                   its median wall time over DIR/orig's. Exit calls (exit, abort...) that no\n"
	"                   input reaches are then left out of the criteria, and a branch side that\n"
	"                   no input takes is cut, so an evaluator need not foresee error paths;\n"
	"                   without inputs every exit is a criterion and every branch stays.\n"
	"                   An input on which DIR/inst fails (a status not in --ok-exit) is\n"
	"                   named on stderr: its evaluators keep that failure's path\n"
	"  --reps K         timed runs per program and input (default 3)\n"
	"  --in-process     also build each evaluator's shared-object form (OUT/featureN.so), which\n"
	"                   runs in its caller's process, no process start: validate it and measure\n"
	"                   its cost as the evaluator's, run by mantis-host: warm (its second run\n"
	"                   there, as a long-lived process that hosts one run after another pays\n"
	"                   it) and cold (its first), or say why an evaluator has none (it calls\n"
	"                   fork, say, or a library is not -fPIC)\n"
	"  --ok-exit CODES  exit codes besides 0 that are a result of the program, not a failure\n"
	"                   (\"1\" for grep: no line matched)\n"
	"  --lines          list the source lines (FILE:LINE) each slice keeps\n"
	"  --why FILE:LINE  say why each slice keeps that line: a shortest chain of dependences\n"
	"                   (data, control, call, parameter, summary) from an instruction of the\n"
	"                   line to the feature's value at exit, through kept nodes\n"
	"  --json           print {\"features\": [{\"name\", \"evaluator\", \"kept\", \"total\",\n"
	"                   \"slice_seconds\", \"promoted\": {\"loops\", \"counters\", \"unsafe\"},\n"
	"                   \"fused\": {\"features\", \"counters\"}, \"stops_early\",\n"
	"                   \"validated\", \"cost\", \"reason\"?, \"lines\"?, \"in_process\"?:\n"
	"                   {\"object\", \"validated\", \"cost\", \"cold_cost\", \"reason\"?} or\n"
	"                   {\"refused\"},\n"
	"                   \"why\"?}],\n"
	"                   \"analysis_seconds\", \"sdg_nodes\", \"sdg_edges\", \"exit_calls\",\n"
	"                   \"exit_calls_unreached\", \"branches_pruned\", \"functions_emptied\"}\n"
	"  -o OUT           write the evaluators OUT/featureN (and .bc) there (default DIR/slice)\n",
	.run = run_slice,
};
