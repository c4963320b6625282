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
 * The caller loads the object afresh for each run, or keeps it loaded and puts its writable data
 * back as loaded before each (src/solib.c), so its globals start as a new process's do. Invariant: nothing the slice calls ends, or changes the signal
 * handling of, the caller's process; what else it touches of the process (its standard
 * streams, its working folder, the descriptors it leaves open) the caller puts back
 * (solib_run). The other functions the slice may call that would reach beyond that (kill,
 * setuid, setrlimit, ...) keep an evaluator from having this form at all (solib_hostable).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dlfcn.h>
#include <err.h>
#include <errno.h>
#include <error.h>
#include <getopt.h>
#include <link.h>
#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* ---- what the run allocates and opens, given back at its end -------------------------------- */

/*
 * A process's memory and streams end with it; a run's would stay in the caller's process, which
 * for a server (mantis serve) grows with every request: djpeg's evaluator leaves its image
 * arrays allocated and its input stream open, and the C library flushes every stream ever left
 * open at each fflush(NULL). So the slice's allocations (malloc, calloc, realloc, reallocarray,
 * the aligned ones, strdup, strndup: defined here, the C library's underneath) are kept in a
 * set, and its streams (fdopen, which sandbox.c's fopen and tmpfile use, fmemopen,
 * open_memstream) in a list; fclose and free take theirs out. After a run that ended (exit,
 * main's return, abort), __mantis_inproc_give_back (called by a caller that keeps the object
 * loaded, else by the last destructor as it is unloaded) closes the streams left and frees the
 * blocks left. After a crash or a timeout nothing is given back (the C library's state may be
 * broken): the caller starts afresh. What the C library allocates for the slice (asprintf,
 * opendir, a getline buffer of a stream's own) stays outside the set; so does a buffer the slice
 * gives a stream it did not open (setvbuf of stdin), which the caller's stream keeps using.
 */

/* The caller's allocator and stream functions (this object's definitions shadow the C
 * library's for the slice: -Bsymbolic), found as the object is loaded. */
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static ssize_t (*real_getdelim)(char **, size_t *, int, FILE *);
static FILE *(*real_fdopen)(int, const char *);
static FILE *(*real_fmemopen)(void *, size_t, const char *);
static FILE *(*real_open_memstream)(char **, size_t *);
static int (*real_fclose)(FILE *);
static int (*real_setvbuf)(FILE *, char *, int, size_t);

#define EMPTY ((uintptr_t)0)	/* a slot never used */
#define GONE ((uintptr_t)1)	/* a slot whose block was freed (probing goes on past it) */

/* The slice's live blocks: an open-addressing set of their addresses (linear probing). */
static struct {
	uintptr_t *slot;	/* cap slots: an address, EMPTY or GONE */
	size_t cap;		/* a power of two, or 0 before the first block */
	size_t used;		/* slots not EMPTY */
	size_t live;		/* slots holding an address */
} blocks;

/* The slice's open streams. */
static struct {
	FILE **f;		/* n streams, in the order opened */
	size_t n;		/* entries of f */
	size_t room;		/* entries allocated */
} streams;

/*
 * Finds the caller's functions; until it has run, each definition below would call NULL. Not by
 * RTLD_DEFAULT or RTLD_NEXT: for an object linked -Bsymbolic, RTLD_DEFAULT finds its own
 * definitions first, and RTLD_NEXT the C library's, where the caller's are those of its
 * program (an ASan build's malloc). A glibc handle is a link map, and the first of the
 * debugger's list (_r_debug) is the program, whose own symbols and then its libraries'
 * dlsym searches.
 */
__attribute__((constructor(101))) static void find_real_functions(void)
{
	void *caller = _r_debug.r_map;

	*(void **)&real_malloc = dlsym(caller, "malloc");
	*(void **)&real_calloc = dlsym(caller, "calloc");
	*(void **)&real_realloc = dlsym(caller, "realloc");
	*(void **)&real_free = dlsym(caller, "free");
	*(void **)&real_posix_memalign = dlsym(caller, "posix_memalign");
	*(void **)&real_aligned_alloc = dlsym(caller, "aligned_alloc");
	*(void **)&real_memalign = dlsym(caller, "memalign");
	*(void **)&real_getdelim = dlsym(caller, "getdelim");
	*(void **)&real_fdopen = dlsym(caller, "fdopen");
	*(void **)&real_fmemopen = dlsym(caller, "fmemopen");
	*(void **)&real_open_memstream = dlsym(caller, "open_memstream");
	*(void **)&real_fclose = dlsym(caller, "fclose");
	*(void **)&real_setvbuf = dlsym(caller, "setvbuf");
}

/* Returns the first slot of address a in a table of cap slots. */
static size_t slot_of(uintptr_t a, size_t cap)
{
	return (size_t)(((uint64_t)a * UINT64_C(0x9E3779B97F4A7C15)) >> 20) & (cap - 1);
}

/* Rebuilds the set in cap slots (its GONE slots dropped). Returns 0, or -1 with the set as it
 * was when there is no memory. */
static int blocks_resize(size_t cap)
{
	uintptr_t *slot = real_calloc(cap, sizeof *slot);

	if (!slot)
		return -1;
	for (size_t i = 0; i < blocks.cap; i++) {
		uintptr_t a = blocks.slot[i];
		size_t j;

		if (a == EMPTY || a == GONE)
			continue;
		for (j = slot_of(a, cap); slot[j] != EMPTY; j = (j + 1) & (cap - 1))
			;
		slot[j] = a;
	}
	real_free(blocks.slot);
	blocks.slot = slot;
	blocks.cap = cap;
	blocks.used = blocks.live;
	return 0;
}

/* Adds p (not NULL) to the set; without memory for the set, p stays out of it (a leak). */
static void track(void *p)
{
	uintptr_t a = (uintptr_t)p;
	size_t j;

	if (4 * (blocks.used + 1) > 3 * blocks.cap) {
		size_t cap = 1024;

		while (cap < 4 * (blocks.live + 1))
			cap *= 2;
		if (blocks_resize(cap) < 0)
			return;
	}
	for (j = slot_of(a, blocks.cap); blocks.slot[j] != EMPTY && blocks.slot[j] != GONE;
	     j = (j + 1) & (blocks.cap - 1))
		;
	blocks.used += blocks.slot[j] == EMPTY;
	blocks.slot[j] = a;
	blocks.live++;
}

/* Takes p out of the set. Returns whether it was in it. */
static int untrack(void *p)
{
	uintptr_t a = (uintptr_t)p;

	if (!p || !blocks.cap)
		return 0;
	for (size_t j = slot_of(a, blocks.cap); blocks.slot[j] != EMPTY;
	     j = (j + 1) & (blocks.cap - 1))
		if (blocks.slot[j] == a) {
			blocks.slot[j] = GONE;
			blocks.live--;
			return 1;
		}
	return 0;
}

/* Returns p, kept in the set when not NULL. */
static void *tracked(void *p)
{
	if (p)
		track(p);
	return p;
}

void *malloc(size_t n)
{
	return tracked(real_malloc(n));
}

void *calloc(size_t n, size_t size)
{
	return tracked(real_calloc(n, size));
}

void free(void *p)
{
	if (p) {
		untrack(p);
		real_free(p);
	}
}

/* A block the C library made (a getline buffer, strdup's) and the slice reallocates stays out
 * of the set: the slice may not own it. */
void *realloc(void *p, size_t n)
{
	void *q;

	if (!p)
		return malloc(n);
	if (!(q = real_realloc(p, n)) && n)
		return NULL; /* p unchanged */
	if (untrack(p) && q)
		track(q);
	return q;
}

void *reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

int posix_memalign(void **p, size_t alignment, size_t n)
{
	int rc = real_posix_memalign(p, alignment, n);

	if (rc == 0)
		tracked(*p);
	return rc;
}

void *aligned_alloc(size_t alignment, size_t n)
{
	return tracked(real_aligned_alloc(alignment, n));
}

void *memalign(size_t alignment, size_t n)
{
	return tracked(real_memalign(alignment, n));
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);

	return copy ? memcpy(copy, s, n) : NULL;
}

char *strndup(const char *s, size_t most)
{
	size_t n = strnlen(s, most);
	char *copy = malloc(n + 1);

	if (!copy)
		return NULL;
	memcpy(copy, s, n);
	copy[n] = '\0';
	return copy;
}

/* The C library grows *line with its own realloc: the block leaves the set for the call and
 * comes back as what the call left (a new buffer, when *line was NULL, is the slice's). */
ssize_t getdelim(char **line, size_t *n, int delimiter, FILE *f)
{
	int ours = line && (!*line || untrack(*line));
	ssize_t got = real_getdelim(line, n, delimiter, f);

	if (ours && *line)
		track(*line);
	return got;
}

ssize_t getline(char **line, size_t *n, FILE *f)
{
	return getdelim(line, n, '\n', f);
}

ssize_t __getdelim(char **line, size_t *n, int delimiter, FILE *f);
ssize_t __getdelim(char **line, size_t *n, int delimiter, FILE *f)
{
	return getdelim(line, n, delimiter, f);
}

/* Returns f, kept in the list when not NULL (a stream the list has no room for stays open). */
static FILE *opened(FILE *f)
{
	if (f && streams.n == streams.room) {
		size_t room = streams.room ? 2 * streams.room : 16;
		FILE **grown = real_realloc(streams.f, room * sizeof *grown);

		if (!grown)
			return f;
		streams.f = grown;
		streams.room = room;
	}
	if (f)
		streams.f[streams.n++] = f;
	return f;
}

/* Takes f out of the list. Returns whether it was in it. */
static int closed(FILE *f)
{
	for (size_t i = streams.n; i-- > 0;)
		if (streams.f[i] == f) {
			memmove(streams.f + i, streams.f + i + 1, (streams.n - i - 1) * sizeof *streams.f);
			streams.n--;
			return 1;
		}
	return 0;
}

FILE *fdopen(int fd, const char *mode)
{
	return opened(real_fdopen(fd, mode));
}

FILE *fmemopen(void *buf, size_t size, const char *mode)
{
	return opened(real_fmemopen(buf, size, mode));
}

FILE *open_memstream(char **buf, size_t *size)
{
	return opened(real_open_memstream(buf, size));
}

/* Closes f, but for a stream on the caller's descriptor 1 or 2 (fdopen(1, "w")): flushed and
 * left open, as close leaves the descriptor (the C library's fclose would close it). */
static int close_stream(FILE *f)
{
	int fd = fileno(f);

	if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
		return fflush(f);
	return real_fclose(f);
}

int fclose(FILE *f)
{
	closed(f);
	return close_stream(f);
}

/* A buffer given to a stream the slice did not open (stdin) leaves the set: that stream
 * outlasts the run. */
int setvbuf(FILE *f, char *buf, int mode, size_t size)
{
	int ours = 0;

	for (size_t i = 0; i < streams.n && !ours; i++)
		ours = streams.f[i] == f;
	if (buf && !ours)
		untrack(buf);
	return real_setvbuf(f, buf, mode, size);
}

void setbuf(FILE *f, char *buf)
{
	setvbuf(f, buf, buf ? _IOFBF : _IONBF, BUFSIZ);
}

void setbuffer(FILE *f, char *buf, size_t size)
{
	setvbuf(f, buf, buf ? _IOFBF : _IONBF, size);
}

void __mantis_inproc_give_back(void) __attribute__((visibility("default")));
size_t __mantis_inproc_held(void) __attribute__((visibility("default")));

/* Closes the streams and frees the blocks a run that ended left, as a process's end would.
 * The caller calls it after a run of an object it keeps loaded (src/solib.c), and the last
 * destructor (the highest priority runs last) as the object is unloaded. */
void __mantis_inproc_give_back(void)
{
	if (running)
		return; /* a crash or a timeout left the run: its state may be broken */
	while (streams.n > 0)
		close_stream(streams.f[--streams.n]);
	for (size_t i = 0; i < blocks.cap; i++)
		if (blocks.slot[i] != EMPTY && blocks.slot[i] != GONE)
			real_free((void *)blocks.slot[i]);
	real_free(blocks.slot);
	real_free(streams.f);
	memset(&blocks, 0, sizeof blocks);
	memset(&streams, 0, sizeof streams);
}

__attribute__((destructor(101))) static void give_back_as_unloaded(void)
{
	__mantis_inproc_give_back();
}

/* Returns the blocks and streams held: after the object was loaded, those its constructors
 * made, which a run must find as they were (a caller that keeps the object loaded and puts its
 * writable data back between runs needs none). */
size_t __mantis_inproc_held(void)
{
	return blocks.live + streams.n;
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
