/*
 * cmd_serve.c: "mantis serve PRED": the online stage as a long-lived process, for a scheduler
 * that predicts one job after another. A request is one line of stdin in the inputs file's
 * syntax (the program's words, `< FILE` for its stdin); the answer is one line of JSON on stdout,
 * flushed at once, as mantis predict --json prints it plus the request's number and how its
 * evaluator ran.
 *
 * Why a server: a prediction by command costs a process start for mantis-predict and one for
 * the evaluator (1.8-4.4 ms each on this kind of host), more than a header evaluator's work. Here
 * the evaluator's shared-object form (PRED/evaluator.so, solib.h) runs in this process: loaded,
 * kept loaded, its writable data put back as loaded before each request (solib.c), so each run
 * starts from fresh globals as a process would.
 *
 * Invariant: every request read gets exactly one answer, in order. A hosted run that crashes or
 * runs over its budget leaves this process's state unknown (a lock of the C library, its heap):
 * the request is answered with the error, and the server then executes itself afresh
 * (/proc/self/exe, the same arguments), the request count carried in MANTIS_SERVE_ANSWERED and
 * the requests read but not answered in a memory file (MANTIS_SERVE_PENDING), so that none is
 * lost across the exec. What a run leaves allocated or open is given back at its end
 * (rt/inproc.c); the server executes itself afresh too when its resident memory passes
 * --max-rss.
 */
#include <errno.h>
#include <jansson.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "inputs.h"
#include "predictor.h"
#include "util.h"

/* What the server was asked for. */
struct serve_options {
	const char *dir;  /* PRED */
	double budget;    /* seconds a request's evaluator may run */
	int processes;    /* 1: run the evaluator as a process, not in this one */
	long max_rss_kib; /* resident memory above which the server executes itself afresh */
};

/* Requests read from fd 0 and not yet answered: bytes [start, len) of buf. */
struct requests {
	struct strbuf buf; /* what was read, a request's line and what follows it */
	size_t start;	   /* the first byte not yet handed out */
	int eof;	   /* fd 0 reached its end */
};

/* Fills *line (reset first) with the next request of r, without its newline, reading fd 0 in
 * blocks as needed. Returns 1 with a line, 0 at the end of the input, -1 on a read error (errno
 * set). */
static int read_request(struct requests *r, struct strbuf *line)
{
	char *newline;

	for (;;) {
		size_t left = r->buf.len - r->start;
		char block[65536];
		ssize_t got;

		newline = left ? memchr(r->buf.buf + r->start, '\n', left) : NULL;
		if (newline || r->eof)
			break;
		if (r->start > 0) { /* keep only what is still to answer */
			memmove(r->buf.buf, r->buf.buf + r->start, left);
			r->buf.len = left;
			r->start = 0;
		}
		if ((got = read(STDIN_FILENO, block, sizeof block)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		r->eof = got == 0;
		strbuf_add(&r->buf, block, (size_t)got);
	}
	line->len = 0;
	strbuf_add(line, "", 0);
	if (!newline) { /* the end of the input: its last line may lack the newline */
		strbuf_add(line, r->buf.buf + r->start, r->buf.len - r->start);
		r->start = r->buf.len;
		return line->len > 0;
	}
	strbuf_add(line, r->buf.buf + r->start, (size_t)(newline - (r->buf.buf + r->start)));
	r->start = (size_t)(newline - r->buf.buf) + 1;
	return 1;
}

/* Writes buf[0..n) to fd. Returns 0, or -1 (errno set). */
static int write_all(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t put = write(fd, buf, n);

		if (put < 0 && errno != EINTR)
			return -1;
		if (put > 0) {
			buf += put;
			n -= (size_t)put;
		}
	}
	return 0;
}

/* Hands the requests read and not yet answered to the server that execs next: in a memory file
 * left open across the exec, its descriptor in MANTIS_SERVE_PENDING. Returns 0, or -1 (errno
 * set). */
static int hand_over(const struct requests *r)
{
	size_t left = r->buf.len - r->start;
	int fd = left ? memfd_create("mantis-serve-requests", 0) : -1;
	char number[32];

	if (!left)
		return 0;
	if (fd < 0 || write_all(fd, r->buf.buf + r->start, left) < 0 ||
	    lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	snprintf(number, sizeof number, "%d", fd);
	return setenv("MANTIS_SERVE_PENDING", number, 1);
}

/* Takes back what the server before this one handed over (hand_over), if any. Returns 0, or -1
 * (errno set). */
static int take_over(struct requests *r)
{
	const char *pending = getenv("MANTIS_SERVE_PENDING");
	int fd = pending ? atoi(pending) : -1;
	char block[65536];
	ssize_t got;

	unsetenv("MANTIS_SERVE_PENDING");
	if (fd < 0)
		return 0;
	while ((got = read(fd, block, sizeof block)) > 0)
		strbuf_add(&r->buf, block, (size_t)got);
	close(fd);
	return got < 0 ? -1 : 0;
}

/* Prints root, a JSON answer, as one line and flushes it; drops the reference. */
static void answer(json_t *root)
{
	json_dumpf(root, stdout, JSON_COMPACT | JSON_REAL_PRECISION(17));
	putchar('\n');
	fflush(stdout);
	json_decref(root);
}

/* Returns the answer to request number, the text of line: the prediction, or {"error"}. */
static json_t *serve_one(struct predictor *p, const struct serve_options *o, const char *line,
			 long number, const char *cwd)
{
	char *name = xasprintf("request %ld", number);
	struct inputs ins;
	struct prediction pr;
	struct error err = {""};
	json_t *root = NULL;

	if (inputs_parse(&ins, line, name, cwd, &err) < 0) {
		free(name);
		return json_pack("{s:I, s:s}", "request", (json_int_t)number, "error", err.msg);
	}
	if (ins.n == 0) /* a blank line or a comment: nothing to predict */
		root = json_pack("{s:I, s:s}", "request", (json_int_t)number, "error",
				 "the request names no input (a blank line or a comment)");
	else if (predictor_run(p, &ins.v[0], o->budget, &pr, &err) < 0)
		root = json_pack("{s:I, s:s}", "request", (json_int_t)number, "error", err.msg);
	if (!root) {
		json_t *prediction = predictor_json(p, &pr);

		root = json_pack("{s:I}", "request", (json_int_t)number);
		json_object_update(root, prediction);
		json_decref(prediction);
		if (pr.by->evaluator)
			json_object_set_new(root, "in_process", json_boolean(pr.by->hosted != NULL));
		if (pr.by->sampler)
			json_object_set_new(root, "samples_in_process",
					    json_boolean(pr.by->sampler_hosted != NULL));
		prediction_release(&pr);
	}
	inputs_release(&ins);
	free(name);
	return root;
}

/* Returns this process's resident memory in KiB (0 if unknown). */
static long resident_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, resident = 0;

	if (f) {
		if (fscanf(f, "%ld %ld", &size, &resident) != 2)
			resident = 0;
		fclose(f);
	}
	return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Executes this server afresh with its own arguments (argv: main's), telling it how many
 * requests were answered and handing it those read and not answered; exits if that fails. */
static noreturn void restart(char **argv, const struct requests *r, long answered,
			     const char *why)
{
	char count[32];

	fprintf(stderr, "mantis serve: starting afresh after request %ld: %s\n", answered, why);
	fflush(NULL);
	snprintf(count, sizeof count, "%ld", answered);
	setenv("MANTIS_SERVE_ANSWERED", count, 1);
	if (hand_over(r) < 0)
		die("cannot hand the requests read over to a new server: %s", strerror(errno));
	execv("/proc/self/exe", argv);
	die("cannot start afresh (/proc/self/exe): %s", strerror(errno));
}

/* Returns the value of option argv[*i] (advancing *i), or exits with a usage error. */
static const char *option_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc)
		usage_error(&cmd_serve, "%s needs a value", argv[*i]);
	return argv[++*i];
}

/* Fills *o from the command line, or exits with a usage error. */
static void parse_options(int argc, char **argv, struct serve_options *o)
{
	*o = (struct serve_options){.budget = 60, .max_rss_kib = 1024L * 1024};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		char *end;

		if (strcmp(a, "--budget") == 0) {
			v = option_value(argc, argv, &i);
			o->budget = strtod(v, &end);
			if (*end || end == v || !(o->budget > 0))
				usage_error(&cmd_serve, "--budget: '%s' is not a positive number of "
					    "seconds", v);
		} else if (strcmp(a, "--max-rss") == 0) {
			v = option_value(argc, argv, &i);
			o->max_rss_kib = strtol(v, &end, 10) * 1024;
			if (*end || end == v || o->max_rss_kib <= 0)
				usage_error(&cmd_serve, "--max-rss: '%s' is not a positive number of "
					    "MiB", v);
		} else if (strcmp(a, "--processes") == 0) {
			o->processes = 1;
		} else if (a[0] != '-' && !o->dir) {
			o->dir = a;
		} else {
			usage_error(&cmd_serve, "unknown option '%s'", a);
		}
	}
	if (!o->dir)
		usage_error(&cmd_serve, "give the predictor directory (made by mantis train)");
}

static int run_serve(int argc, char **argv)
{
	struct serve_options o;
	struct predictor p;
	struct strbuf line = {0};
	struct requests requests = {.eof = 0};
	struct error err = {""};
	const char *answered = getenv("MANTIS_SERVE_ANSWERED");
	long number = answered ? strtol(answered, NULL, 10) : 0;
	int restarted = answered != NULL;
	char *cwd = getcwd(NULL, 0);
	int got;

	parse_options(argc, argv, &o);
	unsetenv("MANTIS_SERVE_ANSWERED"); /* number has it; the evaluators need not */
	if (!cwd)
		die("cannot read the working directory");
	if (take_over(&requests) < 0)
		die("cannot read the requests a server before this one read: %s", strerror(errno));
	if (predictor_open(&p, o.dir, &err) < 0)
		die("%s", err.msg);
	/* a run's large blocks (djpeg's image arrays) from the heap, kept there between runs: each
	 * mapped afresh and unmapped was a fifth of a request (page faults, TLB flushes) */
	mallopt(M_MMAP_THRESHOLD, 32 << 20);
	mallopt(M_TRIM_THRESHOLD, 64 << 20);
	if (!o.processes && predictor_host(&p, &err) < 0 && !restarted)
		fprintf(stderr, "mantis serve: the evaluator runs as a process: %s\n", err.msg);
	while ((got = read_request(&requests, &line)) > 0) {
		answer(serve_one(&p, &o, line.buf, ++number, cwd));
		if (p.tainted || (p.gated && p.gated->tainted))
			restart(argv - 1, &requests, number, "its evaluator crashed or ran over its "
				"budget in this process");
		if (resident_kib() > o.max_rss_kib)
			restart(argv - 1, &requests, number, "its memory passed --max-rss");
	}
	if (got < 0)
		die("cannot read requests from stdin: %s", strerror(errno));
	strbuf_release(&line);
	strbuf_release(&requests.buf);
	predictor_release(&p);
	free(cwd);
	return EXIT_OK;
}

const struct command cmd_serve = {
	.name = "serve",
	.summary = "predict one input after another, read on stdin, answering each in JSON",
	.usage =
		"usage: mantis serve PRED [--budget S] [--processes] [--max-rss MIB]\n"
		"\n"
		"A long-lived mantis predict, for a scheduler that predicts one job after another.\n"
		"Each line of stdin is a request: the program's arguments in the syntax of an inputs\n"
		"file (shell-quoted words; `< FILE` gives the program's stdin; words naming existing\n"
		"files are taken relative to the working folder). Each gets one line of JSON on\n"
		"stdout, flushed at once and in order: what mantis predict --json prints, with\n"
		"\"request\" (its number, from 1) and, when the model reads the program's features,\n"
		"\"in_process\" (whether the evaluator ran in this process; \"samples_in_process\",\n"
		"the same of the samples' runs, when it reads sampled features); or {\"request\",\n"
		"\"error\"} where mantis predict would fail (a missing input file, an evaluator that\n"
		"fails or runs over its budget, a line that does not parse, a blank one). It ends at\n"
		"the end of stdin, with status 0.\n"
		"\n"
		"The evaluator runs in this process when training validated its shared-object form\n"
		"(PRED/evaluator.so: no process start per request; a warning on stderr says why not,\n"
		"and it runs as a process): kept loaded, its globals put back as loaded before each\n"
		"request (loaded afresh each time where it has thread-local storage), with the\n"
		"working folder, environment, streams, descriptors and signal handlers put back\n"
		"after it, and what it left allocated or open freed and closed. A run that\n"
		"crashes or runs over its budget leaves the process's state unknown: after answering,\n"
		"the server starts itself afresh (a line on stderr says so), losing no request.\n"
		"The samples' runs (a model that reads sampled features) run in it too where they\n"
		"run PRED/sampled-evaluator and training validated its form (sampled-evaluator.so;\n"
		"\"samples_in_process\" says so), else as processes.\n"
		"\n"
		"  --budget S     stop a request's evaluator (and each sampled run) after S seconds\n"
		"                 (default 60)\n"
		"  --processes    run the evaluators (and the samples' runs) as processes, as mantis\n"
		"                 predict does\n"
		"  --max-rss MIB  start afresh when the server's resident memory passes MIB (default\n"
		"                 1024: what runs leave allocated stays in the process)\n",
	.run = run_serve,
};
