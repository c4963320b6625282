/*
 * slicert.c: the runtime linked into every feature evaluator (an executable slice, issue 6).
 *
 * The slicer ends the evaluator's every exit (a return from main, exit, abort...) with a call
 * of __mantis_slice_dump, its own function, which reads each kept counter and hands it to
 * __mantis_slice_emit, then calls __mantis_slice_flush. This file keeps the values and writes
 * them to the file named by MANTIS_COUNTERS in the format of the instrumented build's runtime
 * (mantisrt.c): "MANTISC1", build id, number of counters, the counters (little-endian 64-bit
 * words), counters the evaluator does not compute being 0. So the profiler's reader serves
 * both. A later flush (an exit reached from an atexit handler) replaces the file.
 *
 * The evaluator changes no file: slicert.o, the object evaluators are linked with, is this file
 * and sandbox.c in one relocatable object (the Makefile's ld -r), and sandbox.c keeps every
 * file the evaluator writes in memory, discards stdout and stderr and names the files it could
 * not read (MANTIS_READ_FAILURES); see there. The counters file is opened with the system call
 * itself (real_open), which sandbox.c does not capture. Invariant: the only files the evaluator
 * creates or changes are MANTIS_COUNTERS and MANTIS_READ_FAILURES, and it makes no write system
 * call but to MANTIS_COUNTERS and its memory files.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern const uint64_t __mantis_ncounters;
extern const uint64_t __mantis_build_id;

static uint64_t *values; /* __mantis_ncounters values, allocated at the first emit */

void __mantis_slice_emit(uint64_t counter, uint64_t value);
void __mantis_slice_flush(void);

/* Keeps value as counter's (a counter out of range is ignored). */
void __mantis_slice_emit(uint64_t counter, uint64_t value)
{
	if (!values)
		values = calloc(__mantis_ncounters + 1, sizeof *values);
	if (values && counter < __mantis_ncounters)
		values[counter] = value;
}

static void put64(unsigned char *b, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

/* open(2) itself, not sandbox.c's definition. Returns the descriptor, or -1 with errno. */
static int real_open(const char *path, int flags, int mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

/* Writes the counters file (see the header), replacing any; nothing without MANTIS_COUNTERS. */
void __mantis_slice_flush(void)
{
	const char *path = getenv("MANTIS_COUNTERS");
	size_t size = 8 * (size_t)(3 + __mantis_ncounters);
	unsigned char *file;
	int fd;

	if (!path || !*path || !(file = malloc(size)))
		return;
	memcpy(file, "MANTISC1", 8);
	put64(file + 8, __mantis_build_id);
	put64(file + 16, __mantis_ncounters);
	for (uint64_t i = 0; i < __mantis_ncounters; i++)
		put64(file + 24 + 8 * i, values ? values[i] : 0);
	fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		/* one write: a program with 50,000 counters would otherwise make 50,000 calls */
		for (size_t done = 0; done < size;) {
			ssize_t n = write(fd, file + done, size - done);

			if (n <= 0)
				break;
			done += (size_t)n;
		}
		close(fd);
	}
	free(file);
}
