/*
 * sandbox.c: a program that changes no file. Linked into every feature evaluator (inside
 * slicert.o, with slicert.c) and into DIR/sandboxed (with mantisrt.o), which mantis runs on
 * samples of a program's inputs at prediction time, where the user's arguments may name real
 * output files.
 *
 * The slice keeps an output file's fopen when a kept decision depends on it (if (!out) ...),
 * and the writes of a file the program reads back (the sqlite3 shell spills a sort to a
 * temporary file opened O_RDWR, and the steps it counts depend on what it reads there); the
 * whole program, sandboxed, keeps them all. So that it changes no file and still reads back
 * what it wrote, this file defines the functions that would change one: open/open64/creat/
 * fopen/fopen64/freopen that would write, tmpfile, mkstemp and mkostemp give a descriptor of a
 * memory file (memfd_create), one per path, a copy of the file when it exists and is not
 * truncated; later opens of that path, for reading too, get the memory file (reopened through
 * /proc/self/fd, so each open has its own offset); remove and unlink hide the path from later
 * opens, rename moves it. The memory files sit at descriptor 512 and up, so the program's own
 * descriptors get the numbers they get when it runs. The program is linked with this object
 * before the C library, so these definitions are the ones it calls. Not shadowed: stat and
 * access still see the file system (a removed file is still there for them). A file that
 * cannot be opened for reading is named, one per line, in the file MANTIS_READ_FAILURES names
 * (when set): mantis predict tells a missing input file from a prediction that way.
 * With MANTIS_EVALUATOR_START_ONLY set, the program ends as it starts (the first constructor,
 * status 0, no counters file): mantis eval times that as the floor of its cost, the process
 * start-up no evaluator can go below.
 * stdout and stderr are discarding streams from the start (a constructor: fopencookie, no
 * system call at all), and write(2) on descriptors 1 and 2 does nothing, so the program prints
 * nothing even where the slice keeps a print.
 *
 * The runtimes linked beside this file write their own files with the system calls themselves
 * (syscall(SYS_openat) and SYS_write), never through the definitions here. Invariant: the only
 * files the program creates or changes are MANTIS_COUNTERS, the snapshots file MANTIS_SNAPSHOTS
 * (mantisrt.c) and MANTIS_READ_FAILURES, and it makes no write system call but to those and to
 * its memory files; what it writes costs memory, not disk.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* open(2) itself, not the definition below. Returns the descriptor, or -1 with errno. */
static int real_open(const char *path, int flags, int mode)
{
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
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

/* Ends the program at once when mantis eval times its start-up alone (see the header). */
__attribute__((constructor(101))) static void stop_when_timing_start_up(void)
{
	if (getenv("MANTIS_EVALUATOR_START_ONLY"))
		_exit(0);
}

/*
 * The standard streams discard what is written. A slice keeps a print whose stream it cannot
 * tell from an input stream (the sqlite3 shell prints through p->out, which may be any file it
 * opened); the print computes nothing a feature needs, so the program still prints nothing.
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

/* ---- files the program writes live in memory --------------------------------------------- */

/*
 * A file the program opened for writing, renamed or removed: its contents are a memfd (an
 * anonymous file in memory), never the file system. Later opens of the same path see it, so a
 * program that writes a scratch file and reads it back (the sqlite3 shell's sort spills, opened
 * O_RDWR) computes what it computes when it runs.
 */
struct shadow {
	char *path;	/* the absolute path the program named (the working folder prefixed) */
	int fd;		/* memfd holding the contents; -1: the path was removed */
};

static struct shadow *shadows;	/* every path written, renamed or removed, in no order */
static size_t nshadows;		/* entries of shadows */

/* Returns a malloc'd absolute form of path (owned by the caller), or NULL. */
static char *absolute(const char *path)
{
	char cwd[4096];
	char *abs;

	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return strdup(path);
	if (!(abs = malloc(strlen(cwd) + strlen(path) + 2)))
		return NULL;
	sprintf(abs, "%s/%s", cwd, path);
	return abs;
}

/* Returns the entry of path, or NULL. */
static struct shadow *shadow_find(const char *abs)
{
	for (size_t i = 0; i < nshadows; i++)
		if (!strcmp(shadows[i].path, abs))
			return &shadows[i];
	return NULL;
}

/* Makes fd the contents of abs (-1: abs is removed), replacing any; returns the entry or NULL. */
static struct shadow *shadow_set(const char *abs, int fd)
{
	struct shadow *s = shadow_find(abs), *grown;

	if (s) {
		if (s->fd >= 0)
			close(s->fd);
		s->fd = fd;
		return s;
	}
	if (!(grown = realloc(shadows, (nshadows + 1) * sizeof *shadows)))
		return NULL;
	shadows = grown;
	s = &shadows[nshadows];
	if (!(s->path = strdup(abs)))
		return NULL;
	s->fd = fd;
	nshadows++;
	return s;
}

/*
 * Returns a new memfd, moved above the descriptors the program uses so that the program's own
 * descriptors get the numbers they get when it runs; with copy_from a path, holding that file's
 * contents. -1 with errno on failure.
 */
static int memory_file(const char *copy_from)
{
	int fd = memfd_create("mantis-sandbox", MFD_CLOEXEC), high;
	char buf[65536];
	ssize_t n = 0;

	if (fd < 0)
		return -1;
	if ((high = fcntl(fd, F_DUPFD_CLOEXEC, 512)) >= 0) {
		close(fd);
		fd = high;
	}
	if (copy_from) {
		int from = real_open(copy_from, O_RDONLY | O_CLOEXEC, 0);

		if (from < 0) {
			close(fd);
			return -1;
		}
		while ((n = read(from, buf, sizeof buf)) > 0)
			if (syscall(SYS_write, fd, buf, (size_t)n) != n)
				break;
		close(from);
	}
	if (n != 0) {
		close(fd);
		errno = EIO;
		return -1;
	}
	return fd;
}

/*
 * Returns a new descriptor of the memory file fd opened with flags, with its own offset; where
 * /proc is not mounted, a duplicate (sharing fd's offset, rewound). -1 with errno on failure.
 */
static int reopen(int fd, int flags)
{
	char self[64];
	int keep = O_ACCMODE | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_TRUNC, copy;

	snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
	if ((copy = real_open(self, flags & keep, 0)) >= 0 || errno != ENOENT)
		return copy;
	if ((copy = fcntl(fd, (flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD, 0)) >= 0) {
		if (flags & O_TRUNC)
			(void)!ftruncate(copy, 0);
		lseek(copy, 0, (flags & O_APPEND) ? SEEK_END : SEEK_SET);
	}
	return copy;
}

/* Whether path names something in the file system. */
static int exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/*
 * open(2) for the program: a read of a path never written goes to the file system; any other
 * open goes to the path's memory file, made on the first open that writes (a copy of the file
 * when it exists and O_TRUNC is not given). Returns the descriptor, or -1 with errno.
 */
static int shadow_open(const char *path, int flags, int mode)
{
	int writes = (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
	char *abs = absolute(path);
	struct shadow *s = abs ? shadow_find(abs) : NULL;
	int fd = -1, in_fs;

	if (!abs) {
		errno = ENOMEM;
	} else if ((flags & O_TMPFILE) == O_TMPFILE) {
		int memory = memory_file(NULL);

		if (memory >= 0) {
			fd = reopen(memory, flags);
			close(memory);
		}
	} else if (!s && !writes) {
		if ((fd = real_open(path, flags, mode)) < 0)
			note_read_failure(path);
	} else if (s && s->fd >= 0) {
		if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
			errno = EEXIST;
		else
			fd = reopen(s->fd, flags);
	} else {
		in_fs = !s && exists(path);
		if (in_fs && (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
			errno = EEXIST;
		} else if (!in_fs && !(flags & O_CREAT)) {
			errno = ENOENT;
			if (!writes)
				note_read_failure(path);
		} else {
			int memory = memory_file(in_fs && !(flags & O_TRUNC) ? path : NULL);

			if (memory >= 0 && !shadow_set(abs, memory)) {
				close(memory);
				memory = -1;
				errno = ENOMEM;
			}
			if (memory >= 0)
				fd = reopen(memory, flags);
		}
	}
	free(abs);
	return fd;
}

/* The open(2) flags of an fopen mode. */
static int mode_flags(const char *mode)
{
	int plus = strchr(mode, '+') != NULL, flags;

	switch (mode[0]) {
	case 'w':
		flags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC;
		break;
	case 'a':
		flags = (plus ? O_RDWR : O_WRONLY) | O_CREAT | O_APPEND;
		break;
	default:
		flags = plus ? O_RDWR : O_RDONLY;
		break;
	}
	if (strchr(mode, 'x'))
		flags |= O_EXCL;
	if (strchr(mode, 'e'))
		flags |= O_CLOEXEC;
	return flags;
}

FILE *fopen(const char *path, const char *mode)
{
	int fd = shadow_open(path, mode_flags(mode), 0666);
	FILE *f;

	if (fd < 0)
		return NULL;
	if (!(f = fdopen(fd, mode)))
		close(fd);
	return f;
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
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	return shadow_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	return shadow_open(path, flags, mode);
}

int creat(const char *path, mode_t mode)
{
	return shadow_open(path, O_WRONLY | O_CREAT | O_TRUNC, (int)mode);
}

/* Returns an unnamed memory file opened for reading and writing, as tmpfile does. */
FILE *tmpfile(void)
{
	int memory = memory_file(NULL), fd = memory >= 0 ? reopen(memory, O_RDWR) : -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;

	if (memory >= 0)
		close(memory);
	if (!f && fd >= 0)
		close(fd);
	return f;
}

FILE *tmpfile64(void)
{
	return tmpfile();
}

/* mkostemp: the template's XXXXXX become a name neither the file system nor a memory file has. */
int mkostemp(char *template, int flags)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned long next = 1;
	size_t n = strlen(template);
	char *x = n >= 6 ? template + n - 6 : NULL;

	if (!x || strcmp(x, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	for (int attempt = 0; attempt < 1000; attempt++) {
		unsigned long v = next++ * 2654435761UL;
		int fd;

		for (int i = 0; i < 6; i++, v /= 36)
			x[i] = letters[v % 36];
		fd = shadow_open(template, O_RDWR | O_CREAT | O_EXCL | (flags & O_CLOEXEC), 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int mkstemp(char *template)
{
	return mkostemp(template, 0);
}

/* Removing forgets the path's memory file, or hides the file system's file; 0, or -1 and errno. */
static int shadow_remove(const char *path)
{
	char *abs = absolute(path);
	struct shadow *s = abs ? shadow_find(abs) : NULL;
	int rc = -1;

	if (!abs)
		errno = ENOMEM;
	else if (s ? s->fd < 0 : !exists(path))
		errno = ENOENT;
	else if (shadow_set(abs, -1))
		rc = 0;
	else
		errno = ENOMEM;
	free(abs);
	return rc;
}

int remove(const char *path)
{
	return shadow_remove(path);
}

int unlink(const char *path)
{
	return shadow_remove(path);
}

/* Renaming moves the memory file (a copy of the file system's file) to the new path. */
int rename(const char *from, const char *to)
{
	char *abs_from = absolute(from), *abs_to = absolute(to);
	struct shadow *s = abs_from ? shadow_find(abs_from) : NULL;
	int memory = -1, rc = -1;

	if (!abs_from || !abs_to)
		errno = ENOMEM;
	else if (s ? s->fd < 0 : !exists(from))
		errno = ENOENT;
	else if (!strcmp(abs_from, abs_to))
		rc = 0;
	else if (s)
		memory = fcntl(s->fd, F_DUPFD_CLOEXEC, 512);
	else
		memory = memory_file(from);
	if (memory >= 0 && !shadow_set(abs_to, memory))
		close(memory);
	else if (memory >= 0 && shadow_set(abs_from, -1))
		rc = 0;
	free(abs_from);
	free(abs_to);
	return rc;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (fd == STDOUT_FILENO || fd == STDERR_FILENO)
		return (ssize_t)n;
	return syscall(SYS_write, fd, buf, n);
}
