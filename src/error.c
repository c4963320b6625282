/*
 * error.c: filling struct error. Messages are truncated, never overflowed: the buffer is fixed
 * so that reporting an error can never itself fail for lack of memory.
 */
#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int error_set(struct error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return -1;
}

int error_errno(struct error *err, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t len;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof err->msg - len, ": %s", strerror(saved));
	return -1;
}

int error_prefix(struct error *err, const char *fmt, ...)
{
	char old[sizeof err->msg];
	va_list ap;
	size_t len;

	memcpy(old, err->msg, sizeof old);
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof err->msg - len, ": %s", old);
	return -1;
}
