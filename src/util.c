/*
 * util.c: allocation wrappers that abort on exhaustion, a growable string, and {tmp} expansion.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "error.h"

static void out_of_memory(size_t n)
{
	fprintf(stderr, "mantis: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory(n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory(n * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		out_of_memory(n);
	return q;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	s = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

void strbuf_add(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len + n + 1 > sb->cap) {
		sb->cap = sb->cap ? sb->cap : 32;
		while (sb->len + n + 1 > sb->cap)
			sb->cap *= 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

char *strbuf_detach(struct strbuf *sb)
{
	char *s = sb->buf ? sb->buf : xstrdup("");

	sb->buf = NULL;
	sb->len = sb->cap = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, compare_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

char *str_replace_tmp(const char *s, const char *tmp)
{
	static const char token[] = "{tmp}";
	struct strbuf sb = {0};
	const char *hit;

	while ((hit = strstr(s, token))) {
		strbuf_add(&sb, s, (size_t)(hit - s));
		strbuf_add(&sb, tmp, strlen(tmp));
		s = hit + sizeof token - 1;
	}
	strbuf_add(&sb, s, strlen(s));
	return strbuf_detach(&sb);
}

int run_command(char *const *argv, const char *stdout_path, struct error *err)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return error_errno(err, "cannot fork to run %s", argv[0]);
	if (pid == 0) {
		if (stdout_path) {
			int fd = open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0)
				_exit(126);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error_errno(err, "waiting for %s", argv[0]);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return error_set(err, "cannot run %s (is it installed?)", argv[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return error_set(err, "%s failed (exit status %d)", argv[0],
				 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}
