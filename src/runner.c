/*
 * runner.c: vfork/exec of one run with a scratch folder, redirections, a timeout and rusage.
 *
 * vfork, not fork: fork copies the page tables of mantis's touched memory, which costs as much
 * as a short evaluator's whole run (a static program that exits at once: 0.46 ms from a small
 * process, 1.36 ms from one with 20 MB touched, 4.7 ms with 100 MB; through vfork 0.41-0.49 ms
 * for all three). So the child shares the parent's memory until exec and writes none of it: the
 * environment is built in the parent, and the child makes only system calls.
 * The child reports an exec failure through a close-on-exec pipe (the self-pipe trick), so "could
 * not start" is told apart from "started and exited 127". The parent waits on a pidfd with poll()
 * for the timeout; where pidfds are unavailable it polls waitid(WNOWAIT) every millisecond.
 * Invariant: when runner_run returns, the child has been reaped and its process group killed;
 * if mantis itself is killed, the kernel kills the child (PR_SET_PDEATHSIG). A run is RUN_OK
 * when it exits 0 or with a code of the process's set of successes (runner_set_ok_exits).
 */
#include "runner.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <ftw.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "util.h"

static double timeval_seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

/* Opens path for the child's fd, or /dev/null (for reading or writing). Returns fd or -1. */
static int open_redirect(const char *path, int writing)
{
	if (!path)
		return open("/dev/null", writing ? O_WRONLY : O_RDONLY);
	if (writing)
		return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	return open(path, O_RDONLY);
}

/* Returns environ with the NAME=VALUE strings of add in place of the same names' (appended if
 * new), NULL-ended; the array is owned by the caller, its strings borrowed. */
static char **environment(char *const *add)
{
	size_t n = 0, nadd = 0;
	char **env;

	while (environ[n])
		n++;
	while (add && add[nadd])
		nadd++;
	env = xcalloc(n + nadd + 1, sizeof *env);
	memcpy(env, environ, sizeof *env * n);
	for (size_t a = 0; a < nadd; a++) {
		size_t len = strcspn(add[a], "=") + 1, i = 0;

		while (i < n && strncmp(env[i], add[a], len) != 0)
			i++;
		if (i == n)
			n++;
		env[i] = add[a];
	}
	return env;
}

/* The child, in vfork: never returns, makes only system calls and writes no memory the parent
 * reads. Reports an exec failure's errno on report_fd. */
static void child(const char *program, char **argv, char **env, const char *dir, int fds[3],
		  const struct run_options *opt, int report_fd)
{
	int e;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* if mantis is killed, its run goes too */
	if (opt->pin_cpu > 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(opt->pin_cpu - 1, &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			goto fail;
	}
	for (int i = 0; i < 3; i++) {
		if (dup2(fds[i], i) < 0)
			goto fail;
	}
	if (chdir(dir) < 0)
		goto fail;
	signal(SIGPIPE, SIG_DFL);
	execvpe(program, argv, env);
fail:
	e = errno;
	if (write(report_fd, &e, sizeof e) < 0)
		_exit(126);
	_exit(127);
}

/* Waits for pid up to timeout seconds (0: forever). Returns 1 if it exited, 0 on timeout. */
static int wait_exit(pid_t pid, double timeout)
{
	double deadline = now_seconds() + timeout;
	int pidfd;

	if (timeout <= 0)
		return 1;
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd >= 0) {
		for (;;) {
			double left = deadline - now_seconds();
			struct pollfd p = {pidfd, POLLIN, 0};
			int r;

			if (left <= 0)
				break;
			r = poll(&p, 1, (int)(left * 1000) + 1);
			if (r > 0) {
				close(pidfd);
				return 1;
			}
		}
		close(pidfd);
		return 0;
	}
	while (now_seconds() < deadline) {
		siginfo_t si = {0};
		struct timespec ms = {0, 1000000};

		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid)
			return 1;
		nanosleep(&ms, NULL);
	}
	return 0;
}

char **runner_argv(const char *program, const char *argv0, const struct input *in,
		   const char *scratch)
{
	char **argv = xcalloc((size_t)in->argc + 2, sizeof *argv);

	argv[0] = xstrdup(argv0 ? argv0 : program);
	for (int i = 0; i < in->argc; i++)
		argv[i + 1] = str_replace_tmp(in->argv[i], scratch);
	return argv;
}

void runner_free_argv(char **argv)
{
	for (int i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

static uint64_t ok_exits; /* exit codes besides 0 that count as success: bit c for code c */

void runner_set_ok_exits(uint64_t codes)
{
	ok_exits = codes & ~(uint64_t)1;
}

uint64_t runner_ok_exits(void)
{
	return ok_exits;
}

int runner_parse_exits(const char *text, uint64_t *codes, struct error *err)
{
	char *copy = xstrdup(text), *save = NULL, *end;
	int rc = 0;

	*codes = 0;
	if (!*text)
		rc = error_set(err, "no exit code given");
	for (char *w = strtok_r(copy, ",", &save); w && rc == 0; w = strtok_r(NULL, ",", &save)) {
		long c = strtol(w, &end, 10);

		if (end == w || *end || c < 0 || c > 63)
			rc = error_set(err, "'%s' is not an exit code from 0 to 63", w);
		else
			*codes |= (uint64_t)1 << c;
	}
	free(copy);
	*codes &= ~(uint64_t)1;
	return rc;
}

char *runner_format_exits(uint64_t codes)
{
	struct strbuf sb = {0};

	for (int c = 1; c < 64; c++)
		if (codes >> c & 1)
			strbuf_addf(&sb, "%s%d", sb.len ? "," : "", c);
	return strbuf_detach(&sb);
}

/* Returns whether exit code c is a success. */
static int exit_ok(int c)
{
	return c == 0 || (c < 64 && (ok_exits >> c & 1));
}

static void fill_result(struct run_result *res, int status, int timed_out, double wall,
			const struct rusage *ru)
{
	res->wall = wall;
	res->user = timeval_seconds(ru->ru_utime);
	res->sys = timeval_seconds(ru->ru_stime);
	res->maxrss_kb = ru->ru_maxrss;
	res->exit_code = -1;
	res->signal = 0;
	if (timed_out) {
		res->status = RUN_TIMEOUT;
		res->signal = SIGKILL;
	} else if (WIFEXITED(status)) {
		res->exit_code = WEXITSTATUS(status);
		res->status = exit_ok(res->exit_code) ? RUN_OK : RUN_NONZERO;
	} else {
		res->status = RUN_CRASH;
		res->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	}
}

/* Opens the three redirections into fds. Returns 0, or -1 with err set (fds all closed). */
static int open_fds(int fds[3], const struct input *in, const struct run_options *opt,
		    struct error *err)
{
	const char *paths[3] = {in->stdin_path, opt->stdout_path, opt->stderr_path};

	for (int i = 0; i < 3; i++) {
		fds[i] = open_redirect(paths[i], i > 0);
		if (fds[i] < 0) {
			error_errno(err, "cannot open %s for %s", paths[i] ? paths[i] : "/dev/null",
				    i == 0 ? "stdin" : i == 1 ? "stdout" : "stderr");
			while (i-- > 0)
				close(fds[i]);
			return -1;
		}
	}
	return 0;
}

/* Forks and execs; measures; reaps. Returns as runner_run. */
static int spawn(const char *program, char **argv, const char *scratch, int fds[3],
		 const struct run_options *opt, struct run_result *res, struct error *err)
{
	int report[2], exec_errno = 0, status = 0, exited;
	char **env;
	struct rusage ru;
	double start;
	pid_t pid;
	ssize_t got;

	if (pipe2(report, O_CLOEXEC) < 0)
		return error_errno(err, "cannot create a pipe");
	env = environment(opt->env);
	start = now_seconds();
	pid = vfork();
	if (pid < 0) {
		close(report[0]);
		close(report[1]);
		free(env);
		return error_errno(err, "cannot fork to run %s", program);
	}
	if (pid == 0)
		child(program, argv, env, scratch, fds, opt, report[1]);
	free(env);
	setpgid(pid, pid);
	close(report[1]);
	got = read(report[0], &exec_errno, sizeof exec_errno);
	close(report[0]);
	exited = wait_exit(pid, opt->timeout);
	if (!exited)
		kill(-pid, SIGKILL);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	kill(-pid, SIGKILL);
	if (got == (ssize_t)sizeof exec_errno) {
		errno = exec_errno;
		return error_errno(err, "cannot run %s", program);
	}
	fill_result(res, status, !exited, now_seconds() - start, &ru);
	return 0;
}

int runner_run(const char *program, const struct input *in, const struct run_options *opt,
	       struct run_result *res, struct error *err)
{
	const char *parent = opt->scratch_parent ? opt->scratch_parent : getenv("TMPDIR");
	char *scratch, *program_abs = NULL;
	char **argv;
	int fds[3], rc;

	memset(res, 0, sizeof *res);
	if (strchr(program, '/') && program[0] != '/') {
		/* the child changes directory before exec: a relative path must not follow it */
		if (!(program_abs = realpath(program, NULL)))
			return error_errno(err, "cannot run %s", program);
		program = program_abs;
	}
	scratch = xasprintf("%s/mantis-run-XXXXXX", parent && *parent ? parent : "/tmp");
	if (!mkdtemp(scratch)) {
		error_errno(err, "cannot make a scratch folder %s", scratch);
		free(scratch);
		free(program_abs);
		return -1;
	}
	if (open_fds(fds, in, opt, err) < 0) {
		remove_tree(scratch);
		free(scratch);
		free(program_abs);
		return -1;
	}
	argv = runner_argv(program, opt->argv0, in, scratch);
	rc = spawn(program, argv, scratch, fds, opt, res, err);
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	runner_free_argv(argv);
	free(program_abs);
	if (opt->keep_scratch && rc == 0) {
		res->scratch = scratch;
	} else {
		remove_tree(scratch);
		free(scratch);
	}
	return rc;
}

const char *runner_status_name(enum run_status status)
{
	static const char *const names[] = {"ok", "nonzero", "crash", "timeout"};

	if ((unsigned)status < sizeof names / sizeof names[0])
		return names[status];
	return "?";
}

double runner_metric(const struct run_result *res, const char *metric)
{
	return strcmp(metric, "wall") == 0 ? res->wall
	       : strcmp(metric, "cpu") == 0 ? res->user + res->sys
	       : strcmp(metric, "user") == 0 ? res->user
	       : strcmp(metric, "sys") == 0 ? res->sys
	       : strcmp(metric, "maxrss") == 0 ? (double)res->maxrss_kb : NAN;
}
