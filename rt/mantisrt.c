/*
 * mantisrt.c: the runtime linked into every instrumented build.
 *
 * The instrumented module defines __mantis_counters[__mantis_ncounters] and updates it in
 * place; this file only writes it out. At process exit (exit or a return from main: an atexit
 * handler registered by a constructor, so it runs after the program's own handlers) and, best
 * effort, on SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT, it writes the file named by the
 * environment variable MANTIS_COUNTERS (read at start-up) as:
 *     "MANTISC1", build id, number of counters, the counters   (little-endian 64-bit words)
 * Nothing is printed; the program's stdout, stderr, files and exit status are its own. A child
 * made by fork writes nothing, so its counts never mix with its parent's.
 * Only async-signal-safe calls (open, write, close) are used on the way out.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern uint64_t __mantis_counters[];
extern const uint64_t __mantis_ncounters;
extern const uint64_t __mantis_build_id;

static char out_path[4096]; /* where to write; empty: nowhere */
static volatile sig_atomic_t written; /* the file has been written (or must not be) */

static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void dump(void)
{
	unsigned char buf[8192];
	size_t used = 0;
	int fd;

	if (written || !out_path[0])
		return;
	written = 1;
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	memcpy(buf, "MANTISC1", 8);
	put64(buf + 8, __mantis_build_id);
	put64(buf + 16, __mantis_ncounters);
	used = 24;
	for (uint64_t i = 0; i < __mantis_ncounters; i++) {
		if (used + 8 > sizeof buf) {
			if (write_all(fd, buf, used) < 0)
				break;
			used = 0;
		}
		put64(buf + used, __mantis_counters[i]);
		used += 8;
	}
	write_all(fd, buf, used);
	close(fd);
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
	atexit(dump);
	pthread_atfork(NULL, NULL, in_child);
	for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++) {
		struct sigaction sa, old;

		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on_fatal_signal;
		sigemptyset(&sa.sa_mask);
		if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
			sigaction(fatal[i], &sa, NULL);
	}
}
