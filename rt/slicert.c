/*
 * slicert.c: the runtime linked into every feature evaluator (an executable slice, issue 6).
 *
 * The slicer ends the evaluator's every exit (a return from main, exit, abort...) with a call
 * of __mantis_slice_dump, its own function, which reads each kept counter and hands it to
 * __mantis_slice_emit, then calls __mantis_slice_flush. This file keeps the values and writes
 * them to the file named by MANTIS_COUNTERS in the format of the instrumented build's runtime
 * (mantisrt.c): "MANTISC1", build id, number of counters, the counters (little-endian 64-bit
 * words), counters the evaluator does not compute being 0. So the profiler's reader serves
 * both. Invariant: the evaluator writes nothing else; a later flush (an exit reached from an
 * atexit handler) replaces the file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

extern const uint64_t __mantis_ncounters;
extern const uint64_t __mantis_build_id;

static uint64_t *values; /* __mantis_ncounters values, allocated at the first emit */

void __mantis_slice_emit(uint64_t counter, uint64_t value);
void __mantis_slice_flush(void);

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

void __mantis_slice_flush(void)
{
	const char *path = getenv("MANTIS_COUNTERS");
	unsigned char word[8];
	int fd;

	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, "MANTISC1", 8) == 8) {
		int ok = 1;

		put64(word, __mantis_build_id);
		ok = write(fd, word, 8) == 8;
		put64(word, __mantis_ncounters);
		ok = ok && write(fd, word, 8) == 8;
		for (uint64_t i = 0; ok && i < __mantis_ncounters; i++) {
			put64(word, values ? values[i] : 0);
			ok = write(fd, word, 8) == 8;
		}
	}
	close(fd);
}
