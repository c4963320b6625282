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
 * The slice keeps an output file's fopen when a kept decision depends on it (if (!out) ...).
 * So that an evaluator changes no file, this file also defines the functions that would:
 * fopen/fopen64/freopen in a mode that writes return a stream that discards what is written
 * (fopencookie: no system call at all); open/open64/creat that would write return a descriptor
 * of /dev/null opened for writing (the evaluator's own sink; no program is given it);
 * remove, unlink and rename do nothing and succeed. The evaluator is linked with this object
 * before the C library, so these definitions are the ones it calls. Reading is untouched, but a
 * file that cannot be opened for reading is named, one per line, in the file MANTIS_READ_FAILURES
 * names (when set): mantis predict tells a missing input file from a prediction that way.
 * stdout and stderr are such discarding streams from the start (a constructor), and write(2) on
 * descriptors 1 and 2 does nothing, so the evaluator prints nothing even where the slice keeps
 * a print. Invariant: the only files the evaluator creates or changes are MANTIS_COUNTERS and
 * MANTIS_READ_FAILURES, and it makes no write system call but to MANTIS_COUNTERS.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/* open(2) itself, not the definition below. */
static int real_open(const char *path, int flags, int mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

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

/* ---- no file changes ---------------------------------------------------------------------- */

static ssize_t discard_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

static ssize_t nothing_to_read(void *cookie, char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	(void)n;
	return 0;
}

static int stay_put(void *cookie, off64_t *offset, int whence)
{
	(void)cookie;
	(void)whence;
	*offset = 0;
	return 0;
}

/* Returns a stream that discards what is written and reads as empty. */
static FILE *sink_stream(const char *mode)
{
	cookie_io_functions_t io = {nothing_to_read, discard_write, stay_put, NULL};

	return fopencookie(NULL, mode, io);
}

static int writes(const char *mode)
{
	return strpbrk(mode, "wa+") != NULL;
}

/* Appends path to the file MANTIS_READ_FAILURES names, if any; errno is kept. */
static void note_read_failure(const char *path)
{
	const char *log = getenv("MANTIS_READ_FAILURES");
	int saved = errno, fd;

	if (log && *log && path &&
	    (fd = real_open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) >= 0) {
		size_t n = strlen(path);

		if (write(fd, path, n) == (ssize_t)n)
			(void)!write(fd, "\n", 1);
		close(fd);
	}
	errno = saved;
}

/* Opens path for reading as fopen would (modes r, rb, re...). */
static FILE *open_for_reading(const char *path, const char *mode)
{
	int fd = real_open(path, O_RDONLY | (strchr(mode, 'e') ? O_CLOEXEC : 0), 0);
	FILE *f;

	if (fd < 0) {
		note_read_failure(path);
		return NULL;
	}
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

/*
 * The standard streams discard what is written. A slice keeps a print whose stream it cannot
 * tell from an input stream (the sqlite3 shell prints through p->out, which may be any file it
 * opened); the print computes nothing a feature needs, so the evaluator still prints nothing.
 * stdin is untouched: it is the program's input.
 */
__attribute__((constructor)) static void silence_standard_streams(void)
{
	FILE *out = sink_stream("w"), *err = sink_stream("w");

	if (out)
		stdout = out;
	if (err)
		stderr = err;
}

FILE *fopen(const char *path, const char *mode)
{
	return writes(mode) ? sink_stream(mode) : open_for_reading(path, mode);
}

FILE *fopen64(const char *path, const char *mode)
{
	return fopen(path, mode);
}

FILE *freopen(const char *path, const char *mode, FILE *stream)
{
	if (stream)
		fclose(stream);
	return path ? fopen(path, mode) : NULL;
}

FILE *freopen64(const char *path, const char *mode, FILE *stream)
{
	return freopen(path, mode, stream);
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	int mode, fd;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)))
		return real_open("/dev/null", O_WRONLY | (flags & O_CLOEXEC), 0);
	fd = real_open(path, flags, mode);
	if (fd < 0)
		note_read_failure(path);
	return fd;
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	return open(path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
	return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
}

int remove(const char *path)
{
	(void)path;
	return 0;
}

int unlink(const char *path)
{
	(void)path;
	return 0;
}

int rename(const char *from, const char *to)
{
	(void)from;
	(void)to;
	return 0;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
		return (ssize_t)n;
	return syscall(SYS_write, fd, buf, n);
}
