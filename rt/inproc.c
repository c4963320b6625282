/*
 * inproc.c: the harness of an evaluator's shared-object form (src/solib.c), which runs in its
 * caller's process instead of a process of its own. A process is what a short evaluator costs
 * on this kind of host: a static program that exits at once takes 1-4.4 ms to start (exec, page
 * tables, page faults at about 15 us each), more than an evaluator that reads a header does in
 * all; dlopen, the call and dlclose of a small shared object take about 0.12 ms.
 *
 * The shared object is the slice, slicert.o (the recorder and sandbox.c: no file changed) and
 * this file, linked with -Bsymbolic, so the slice's calls of the functions defined here (and
 * in sandbox.c) bind to these definitions, never to the C library's:
 *   exit, _exit, _Exit, quick_exit   the program's end: exit runs the handlers atexit and on_exit
 *                                    kept (quick_exit those of at_quick_exit), then longjmps back
 *                                    to __mantis_inproc_run, which returns the status;
 *   abort, raise                     the end of a program killed by the signal (raise of a
 *                                    signal whose default is to be ignored does nothing);
 *   atexit, on_exit, at_quick_exit   keep the handler here, for the end above;
 *   __assert_fail                    abort's end;
 *   err, errx, verr, verrx, error,   exit's end (the C library's would end the caller);
 *   error_at_line
 *   signal, sigaction, sigprocmask,  do nothing: the caller's handlers stay (its time budget
 *   alarm, setitimer                 and its catch of a crash, src/solib.c);
 *   close, dup2, dup3                leave descriptors 1 and 2, the caller's output, alone;
 *   fork, vfork, the exec family,    the end of a program killed by SIGSYS: a child, another
 *   system, popen, posix_spawn[p],   program or a thread would outlast the run (a slice keeps
 *   pthread_create, daemon           such calls on paths no training input took).
 * The caller loads the object afresh for each run (dlopen, then dlclose), so its globals start
 * as a new process's do. Invariant: nothing the slice calls ends, or changes the signal
 * handling of, the caller's process; what else it touches of the process (its standard
 * streams, its working folder, the descriptors it leaves open) the caller puts back
 * (solib_run). The other functions the slice may call that would reach beyond that (kill,
 * setuid, setrlimit, ...) keep an evaluator from having this form at all (solib_hostable).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <err.h>
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#define HANDLERS 64 /* atexit and on_exit handlers kept (POSIX asks for 32) */

/* One handler for the program's end. */
struct handler {
	void (*plain)(void);	     /* atexit's or at_quick_exit's, or NULL */
	void (*with)(int, void *);   /* on_exit's, or NULL */
	void *arg;		     /* on_exit's argument */
};

static jmp_buf back;			/* __mantis_inproc_run's frame */
static int running;			/* nonzero between the call of main and its end */
static int end_status;			/* the status exit was given */
static int end_signal;			/* the signal abort or raise ended it with, or 0 */
static struct handler at_exit[HANDLERS];	/* exit's handlers, in the order kept */
static int nat_exit;			/* entries of at_exit */
static struct handler at_quick[HANDLERS];	/* quick_exit's handlers */
static int nat_quick;			/* entries of at_quick */

int main(int argc, char **argv, char **envp);
int __mantis_inproc_run(int argc, char **argv, char **envp, int *signal_number)
	__attribute__((visibility("default")));

/* Returns to __mantis_inproc_run with the end made; outside a run (a constructor's _exit),
 * ends the process as the C library would. */
static _Noreturn void leave(int status, int sig)
{
	if (!running)
		_exit(status);	/* never reached: the start-only constructor is not set in process */
	running = 0;
	end_status = status & 0xff;
	end_signal = sig;
	longjmp(back, 1);
}

/* Runs list[0..*n) last first; a handler that ends the program again (exit from a handler)
 * does not see those already run. */
static void run_handlers(struct handler *list, int *n, int status)
{
	while (*n > 0) {
		struct handler h = list[--*n];

		if (h.plain)
			h.plain();
		else
			h.with(status, h.arg);
	}
}

void exit(int status)
{
	run_handlers(at_exit, &nat_exit, status);
	leave(status, 0);
}

void quick_exit(int status)
{
	run_handlers(at_quick, &nat_quick, status);
	leave(status, 0);
}

void _exit(int status)
{
	leave(status, 0);
}

void _Exit(int status)
{
	leave(status, 0);
}

void abort(void)
{
	leave(128 + SIGABRT, SIGABRT);
}

int raise(int sig)
{
	if (sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT || sig == 0)
		return 0;
	leave(128 + sig, sig);
}

/* Keeps h in list; 0, or -1 when the list is full. */
static int keep(struct handler *list, int *n, struct handler h)
{
	if (*n == HANDLERS)
		return -1;
	list[(*n)++] = h;
	return 0;
}

int atexit(void (*f)(void))
{
	return keep(at_exit, &nat_exit, (struct handler){f, NULL, NULL});
}

int at_quick_exit(void (*f)(void))
{
	return keep(at_quick, &nat_quick, (struct handler){f, NULL, NULL});
}

int on_exit(void (*f)(int, void *), void *arg)
{
	return keep(at_exit, &nat_exit, (struct handler){NULL, f, arg});
}

/* abort's, as the C library's assert calls it. */
void __assert_fail(const char *assertion, const char *file, unsigned line, const char *function)
{
	(void)assertion;
	(void)file;
	(void)line;
	(void)function;
	abort();
}

/* The C library's err and error families would end the caller's process through its own exit;
 * these end the run as exit does. What they would print goes to stderr, which the evaluator
 * discards anyway. */
void err(int status, const char *format, ...)
{
	(void)format;
	exit(status);
}

void errx(int status, const char *format, ...)
{
	(void)format;
	exit(status);
}

void verr(int status, const char *format, va_list ap)
{
	(void)format;
	(void)ap;
	exit(status);
}

void verrx(int status, const char *format, va_list ap)
{
	(void)format;
	(void)ap;
	exit(status);
}

void error(int status, int errnum, const char *format, ...)
{
	(void)errnum;
	(void)format;
	if (status)
		exit(status);
}

void error_at_line(int status, int errnum, const char *file, unsigned line, const char *format,
		   ...)
{
	(void)errnum;
	(void)file;
	(void)line;
	(void)format;
	if (status)
		exit(status);
}

/* The caller's standard output and error (descriptors 1 and 2) stay open and where they were;
 * descriptor 0 is the run's (solib_run puts it back). */
int close(int fd)
{
	if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
		return 0;
	return (int)syscall(SYS_close, fd);
}

int dup2(int old, int new)
{
	if (new == STDOUT_FILENO || new == STDERR_FILENO)
		return new;
	return (int)syscall(SYS_dup2, old, new);
}

int dup3(int old, int new, int flags)
{
	if (new == STDOUT_FILENO || new == STDERR_FILENO)
		return new;
	return (int)syscall(SYS_dup3, old, new, flags);
}

/* The program's signal handling is not installed: the caller's stays. Each says it worked. */
sighandler_t signal(int sig, sighandler_t handler)
{
	(void)sig;
	(void)handler;
	return SIG_DFL;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	(void)how;
	(void)set;
	if (old)
		sigemptyset(old);
	return 0;
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	(void)sig;
	(void)act;
	if (old) {
		old->sa_handler = SIG_DFL;
		sigemptyset(&old->sa_mask);
		old->sa_flags = 0;
	}
	return 0;
}

unsigned alarm(unsigned seconds)
{
	(void)seconds;
	return 0;
}

int setitimer(__itimer_which_t which, const struct itimerval *value, struct itimerval *old)
{
	(void)which;
	(void)value;
	if (old)
		*old = (struct itimerval){{0, 0}, {0, 0}};
	return 0;
}

/*
 * A child process, another program or a thread would outlast the run or reach beyond the
 * caller's process: a slice that keeps a call of one (pcre2grep's, for its --exec option) on a
 * path no training input took ends the run there, as killed by SIGSYS, and the caller reports
 * that the evaluator failed; an evaluator's process would have started it.
 */
static _Noreturn void beyond_the_run(void)
{
	leave(128 + SIGSYS, SIGSYS);
}

pid_t fork(void)
{
	beyond_the_run();
}

pid_t vfork(void)
{
	beyond_the_run();
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	(void)path, (void)argv, (void)envp;
	beyond_the_run();
}

int execv(const char *path, char *const argv[])
{
	(void)path, (void)argv;
	beyond_the_run();
}

int execvp(const char *file, char *const argv[])
{
	(void)file, (void)argv;
	beyond_the_run();
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	(void)file, (void)argv, (void)envp;
	beyond_the_run();
}

int execl(const char *path, const char *arg, ...)
{
	(void)path, (void)arg;
	beyond_the_run();
}

int execlp(const char *file, const char *arg, ...)
{
	(void)file, (void)arg;
	beyond_the_run();
}

int execle(const char *path, const char *arg, ...)
{
	(void)path, (void)arg;
	beyond_the_run();
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	(void)fd, (void)argv, (void)envp;
	beyond_the_run();
}

int system(const char *command)
{
	(void)command;
	beyond_the_run();
}

FILE *popen(const char *command, const char *type)
{
	(void)command, (void)type;
	beyond_the_run();
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *actions,
		const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	(void)pid, (void)path, (void)actions, (void)attr, (void)argv, (void)envp;
	beyond_the_run();
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
		 const posix_spawnattr_t *attr, char *const argv[], char *const envp[])
{
	(void)pid, (void)file, (void)actions, (void)attr, (void)argv, (void)envp;
	beyond_the_run();
}

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
		   void *arg)
{
	(void)thread, (void)attr, (void)start, (void)arg;
	beyond_the_run();
}

int daemon(int nochdir, int noclose)
{
	(void)nochdir, (void)noclose;
	beyond_the_run();
}

/*
 * Runs the program's main on argc, argv, envp as a process would, up to its end. Returns the
 * exit status (main's value, or exit's), or -1 with *signal_number set when it ended as killed
 * by a signal (abort, raise). getopt starts afresh (optind 0: glibc's full reset).
 */
int __mantis_inproc_run(int argc, char **argv, char **envp, int *signal_number)
{
	int status;

	*signal_number = 0;
	optind = 0;
	if (setjmp(back)) {
		*signal_number = end_signal;
		return end_signal ? -1 : end_status;
	}
	running = 1;
	status = main(argc, argv, envp);
	exit(status);
}
