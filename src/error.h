/*
 * error.h: the error context that library code fills instead of printing or exiting.
 *
 * Library functions return an int status (0 ok, -1 failed) and, on failure, leave a message in a
 * struct error that names the file, line, option or feature at fault. Only the CLI layer prints it.
 */
#ifndef MANTIS_ERROR_H
#define MANTIS_ERROR_H

/* A failure's message, filled by the function that failed. */
struct error {
	char msg[1024]; /* NUL-terminated, without a trailing newline; "" when nothing failed */
};

/* Sets the message from a printf format. Returns -1, so callers can `return error_set(...)`. */
int error_set(struct error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Sets the message to "fmt...: strerror(errno)" using the current errno. Returns -1. */
int error_errno(struct error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prepends "fmt...: " to the message already set, to add where the failure happened. Returns -1. */
int error_prefix(struct error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
