/*
 * slicert.c: the runtime linked into every feature evaluator (an executable slice, issue 6).
 *
 * The slicer ends the evaluator's every exit (a return from main, exit, abort...) with a call
 * of __mantis_slice_dump, its own function, which reads each kept counter and hands it to
 * __mantis_slice_emit, then calls __mantis_slice_flush. This file keeps the values emitted, in
 * the order emitted, and writes them to the file named by MANTIS_COUNTERS in the sparse form of
 * the instrumented build's format (mantisrt.c): "MANTISC2", build id, number of counters, number
 * of pairs, then the pairs (counter, value), little-endian 64-bit words, those of the last dump
 * that are not 0; a counter not written is 0 (manifest.c's counters_read reads both forms). An
 * evaluator emits only the counters it kept, a few of the program's: djpeg's evaluators wrote
 * all 17,598 of its counters, 140 KB of zeros that cost 1.0 ms of a 4.0 ms run in page faults.
 * A later flush (an exit reached from an atexit handler) replaces the file.
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

static uint64_t *pairs;	/* (counter, value) as emitted, 2 words each */
static size_t npairs;		/* pairs kept */
static size_t room;		/* pairs allocated */
static size_t flushed;		/* pairs up to the last flush (superseded by later ones) */
static int flushed_once;	/* a flush wrote the file */
static size_t emits;		/* calls of __mantis_slice_emit since the last flush */

void __mantis_slice_emit(uint64_t counter, uint64_t value);
void __mantis_slice_flush(void);

/* Keeps value as counter's: not 0 (the reader's default; see __mantis_slice_flush), a counter
 * in range, and memory found. */
void __mantis_slice_emit(uint64_t counter, uint64_t value)
{
	emits++;
	if (counter >= __mantis_ncounters || value == 0)
		return;
	if (npairs == room) {
		size_t more = room ? 2 * room : 64;
		uint64_t *grown = realloc(pairs, 2 * more * sizeof *grown);

		if (!grown)
			return;
		pairs = grown;
		room = more;
	}
	pairs[2 * npairs] = counter;
	pairs[2 * npairs + 1] = value;
	npairs++;
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

/* Writes the counters file (see the header), replacing any; nothing without MANTIS_COUNTERS.
 * Each dump emits every kept counter before its flush, so the pairs since the last flush
 * supersede the earlier ones, and a counter at 0 is not kept (the reader's default): a fused
 * evaluator keeps a counter per block of the program and emits it, and pcre2grep's whole-count
 * evaluator wrote 10,000 pairs a run, all but one 0, a third of its run in process on a small
 * sample. A flush with nothing emitted since the last keeps the file. */
void __mantis_slice_flush(void)
{
	const char *path = getenv("MANTIS_COUNTERS");
	size_t from = flushed, n = npairs - flushed, size;
	unsigned char *file;
	int fd;

	if (!path || !*path || (flushed_once && emits == 0))
		return;
	flushed = npairs;
	flushed_once = 1;
	emits = 0;
	size = 8 * (4 + 2 * n);
	if (!(file = malloc(size)))
		return;
	memcpy(file, "MANTISC2", 8);
	put64(file + 8, __mantis_build_id);
	put64(file + 16, __mantis_ncounters);
	put64(file + 24, n);
	for (size_t i = 0; i < 2 * n; i++)
		put64(file + 32 + 8 * i, pairs[2 * from + i]);
	fd = real_open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		/* one write: a slice that keeps 50,000 counters would otherwise make 50,000 calls */
		for (size_t done = 0; done < size;) {
			ssize_t w = write(fd, file + done, size - done);

			if (w <= 0)
				break;
			done += (size_t)w;
		}
		close(fd);
	}
	free(file);
}
