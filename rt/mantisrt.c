/*
 * mantisrt.c: the runtime linked into every instrumented build.
 *
 * The instrumented module defines __mantis_counters[__mantis_ncounters] as a thread-local
 * array and updates it in place (no atomics, no shared cache line on the hot path). Threads:
 * the instrumentor turns every pthread_create into __mantis_pthread_create, which starts the
 * thread through a trampoline that registers the thread's array; when the thread ends (return
 * or pthread_exit: a key destructor) its counts are added to a shared total under a mutex and
 * it is unregistered. What is written is the total plus every registered array (the main
 * thread's and those of threads still running, read as they are). At process exit (exit or a return from main: an atexit
 * handler registered by a constructor, so it runs after the program's own handlers) and, best
 * effort, on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, it writes the file named by the
 * environment variable MANTIS_COUNTERS (read at start-up) as:
 *     "MANTISC2", build id, number of counters, number of pairs, then (counter, value) for
 *     every counter that is not 0, in order                    (little-endian 64-bit words)
 * (sparse, as slicert.c writes: most of a build's counters are 0 on any one run, and writing the
 * sqlite3 shell's every counter took 430 KB a run; the number of pairs is written last, into
 * its place, so that one pass and no allocation make the file).
 * Nothing is printed; the program's stdout, stderr, files and exit status are its own. A child
 * made by fork writes nothing, so its counts never mix with its parent's.
 * On the way out only the openat and write system calls (through syscall(2), which takes no
 * lock and allocates nothing) and close are made (async-signal-safe); the lock is not taken
 * there, so a thread ending at that very moment may be counted twice or not at all.
 * Files are opened and written with the system calls themselves, not open(2) and write(2):
 * DIR/sandboxed links this runtime with sandbox.c, whose open would keep the counters file in
 * memory and whose write drops what goes to descriptors 1 and 2 (where the counters file lands
 * when the program has closed stdout).
 *
 * Snapshots (for mantis eval's partial and bounded execution baselines): when
 * MANTIS_SNAPSHOTS names a file and MANTIS_SNAPSHOT_INTERVAL a period in seconds, a timer
 * (CLOCK_MONOTONIC, signal SIGRTMAX - 3, SA_RESTART) appends every period the counters as they
 * are then: "MANTISS1", build id, number of counters, then per snapshot the nanoseconds since
 * start-up and the counters. The handler makes write system calls and calls timer_settime only:
 * the period is at least 0.1 ms and grows to 20 times a snapshot's write when that is longer, so
 * that snapshots never take more than 1/20 of the run. A program that already handles that
 * signal gets no snapshots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

extern __thread uint64_t __mantis_counters[];
extern const uint64_t __mantis_ncounters;
extern const uint64_t __mantis_build_id;

/* A thread whose counters are live. */
struct live {
	uint64_t *counters; /* its thread-local array */
	struct live *next;  /* the next live thread */
};

static char out_path[4096]; /* where to write; empty: nowhere */
static volatile sig_atomic_t written; /* the file has been written (or must not be) */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* guards total and threads */
static uint64_t *total;       /* counts of threads that have ended; NULL until one has */
static struct live main_live; /* the main thread */
static struct live *threads;  /* live threads, the main one included */
static pthread_key_t exit_key; /* its destructor merges a thread's counts at its end */

/* Adds the calling thread's counts to total and forgets the thread. */
static void thread_ended(void *arg)
{
	struct live *me = arg, **p;

	pthread_mutex_lock(&lock);
	if (!total)
		total = calloc(__mantis_ncounters + 1, sizeof *total);
	for (uint64_t i = 0; total && i < __mantis_ncounters; i++)
		total[i] += me->counters[i];
	for (p = &threads; *p; p = &(*p)->next) {
		if (*p == me) {
			*p = me->next;
			break;
		}
	}
	pthread_mutex_unlock(&lock);
	free(me);
}

/* What the trampoline needs to start the program's thread. */
struct start {
	void *(*routine)(void *); /* the program's start routine */
	void *arg;                /* its argument */
};

static void *trampoline(void *arg)
{
	struct start s = *(struct start *)arg;
	struct live *me = malloc(sizeof *me);

	free(arg);
	if (me) {
		me->counters = __mantis_counters;
		pthread_mutex_lock(&lock);
		me->next = threads;
		threads = me;
		pthread_mutex_unlock(&lock);
		pthread_setspecific(exit_key, me);
	}
	return s.routine(s.arg);
}

int __mantis_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			    void *(*routine)(void *), void *arg);
int __mantis_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
			    void *(*routine)(void *), void *arg)
{
	struct start *s = malloc(sizeof *s);
	int rc;

	if (!s)
		return pthread_create(thread, attr, routine, arg);
	s->routine = routine;
	s->arg = arg;
	rc = pthread_create(thread, attr, trampoline, s);
	if (rc != 0)
		free(s);
	return rc;
}

static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

/* open(2) itself, never an interposed definition (sandbox.c's). Returns the descriptor or -1. */
static int real_open(const char *path, int flags, int mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

/* Writes p[0..n) to fd with the write system call itself. Returns 0, or -1 if a write failed. */
static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = syscall(SYS_write, fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Writes head[0..nhead) then the counters (the total plus every live thread's) to fd. */
static void write_counters(int fd, const unsigned char *head, size_t nhead)
{
	unsigned char buf[8192];
	size_t used = nhead;

	memcpy(buf, head, nhead);
	for (uint64_t i = 0; i < __mantis_ncounters; i++) {
		uint64_t sum = total ? total[i] : 0;

		for (struct live *t = threads; t; t = t->next)
			sum += t->counters[i];
		if (used + 8 > sizeof buf) {
			if (write_all(fd, buf, used) < 0)
				return;
			used = 0;
		}
		put64(buf + used, sum);
		used += 8;
	}
	write_all(fd, buf, used);
}

/* Returns the file header: magic, build id, number of counters (24 bytes in head). */
static void header(unsigned char *head, const char *magic)
{
	memcpy(head, magic, 8);
	put64(head + 8, __mantis_build_id);
	put64(head + 16, __mantis_ncounters);
}

/* Writes the counters that are not 0 (the total plus every live thread's) to fd as the file
 * the header describes, the number of pairs put in its place at the end. */
static void write_sparse(int fd)
{
	unsigned char buf[8192], count[8];
	size_t used = 32;
	uint64_t npairs = 0;

	header(buf, "MANTISC2");
	put64(buf + 24, 0);
	for (uint64_t i = 0; i < __mantis_ncounters; i++) {
		uint64_t sum = total ? total[i] : 0;

		for (struct live *t = threads; t; t = t->next)
			sum += t->counters[i];
		if (sum == 0)
			continue;
		if (used + 16 > sizeof buf) {
			if (write_all(fd, buf, used) < 0)
				return;
			used = 0;
		}
		put64(buf + used, i);
		put64(buf + used + 8, sum);
		used += 16;
		npairs++;
	}
	if (write_all(fd, buf, used) < 0)
		return;
	put64(count, npairs);
	syscall(SYS_pwrite64, fd, count, sizeof count, (off_t)24);
}

static void dump(void)
{
	int fd;

	if (written || !out_path[0])
		return;
	written = 1;
	fd = real_open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	write_sparse(fd);
	close(fd);
}

static int snapshot_fd = -1;     /* the snapshots file, or -1 */
static struct timespec started;  /* when the program started (CLOCK_MONOTONIC) */
static timer_t snapshot_timer;   /* the timer that raises the snapshots' signal */
static int64_t period_ns;        /* its period */

/* Returns the nanoseconds since start-up. */
static int64_t elapsed_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)(now.tv_sec - started.tv_sec) * 1000000000LL + (now.tv_nsec - started.tv_nsec);
}

/* Sets the snapshot timer's period to ns. */
static void set_period(int64_t ns)
{
	struct itimerspec its;

	period_ns = ns;
	its.it_value.tv_sec = (time_t)(ns / 1000000000);
	its.it_value.tv_nsec = (long)(ns % 1000000000);
	its.it_interval = its.it_value;
	timer_settime(snapshot_timer, 0, &its, NULL);
}

/* Appends a snapshot. When it took more than 1/20 of the period, the period grows to 20 times
 * it: a period shorter than one snapshot's write (430 KB for the sqlite3 shell) left the program
 * no time to run, and it filled the disk (71 GB in two minutes). */
static void take_snapshot(int sig)
{
	unsigned char stamp[8];
	int saved = errno;
	int64_t t0, took;

	(void)sig;
	if (written || snapshot_fd < 0)
		return;
	t0 = elapsed_ns();
	put64(stamp, (uint64_t)t0);
	write_counters(snapshot_fd, stamp, sizeof stamp);
	took = elapsed_ns() - t0;
	if (20 * took > period_ns)
		set_period(20 * took);
	errno = saved;
}

/* Starts the snapshot timer if MANTIS_SNAPSHOTS and MANTIS_SNAPSHOT_INTERVAL ask for it. */
static void start_snapshots(void)
{
	const char *path = getenv("MANTIS_SNAPSHOTS"), *every = getenv("MANTIS_SNAPSHOT_INTERVAL");
	double period = every ? strtod(every, NULL) : 0;
	struct sigaction sa, old;
	struct sigevent ev;
	unsigned char head[24];
	int sig = SIGRTMAX - 3;

	if (!path || !*path || !(period > 0) || sigaction(sig, NULL, &old) != 0 ||
	    old.sa_handler != SIG_DFL)
		return;
	snapshot_fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (snapshot_fd < 0)
		return;
	header(head, "MANTISS1");
	write_all(snapshot_fd, head, sizeof head);
	clock_gettime(CLOCK_MONOTONIC, &started);
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = take_snapshot;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = sig;
	if (timer_create(CLOCK_MONOTONIC, &ev, &snapshot_timer) != 0) {
		close(snapshot_fd);
		snapshot_fd = -1;
		return;
	}
	/* at least 0.1 ms: a signal's delivery alone takes microseconds */
	set_period(period > 1e-4 ? (int64_t)(period * 1e9) : 100000);
}

static void on_fatal_signal(int sig)
{
	dump();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void in_child(void)
{
	written = 1;
}

__attribute__((constructor)) static void mantis_start(void)
{
	static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	const char *path = getenv("MANTIS_COUNTERS");

	if (!path || strlen(path) >= sizeof out_path)
		return;
	strcpy(out_path, path);
	main_live.counters = __mantis_counters;
	threads = &main_live;
	pthread_key_create(&exit_key, thread_ended);
	atexit(dump);
	pthread_atfork(NULL, NULL, in_child);
	start_snapshots();
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(fatal[i], &sa, NULL);
	}
}
