/*
 * util.c: allocation wrappers that abort on exhaustion, a growable string, {tmp} expansion and
 * a pointer map.
 */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>
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

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char small[256], *big;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		strbuf_add(sb, small, (size_t)n);
		return;
	}
	big = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	strbuf_add(sb, big, (size_t)n);
	free(big);
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

void sort_doubles(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, compare_double);
}

double median(double *v, int n)
{
	sort_doubles(v, n);
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

/* run_command, with stderr to /dev/null when quiet. */
static int run_child(char *const *argv, const char *stdout_path, int quiet, struct error *err)
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
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd < 0 || dup2(fd, 2) < 0)
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

int run_command(char *const *argv, const char *stdout_path, struct error *err)
{
	return run_child(argv, stdout_path, 0, err);
}

int run_command_quiet(char *const *argv, const char *stdout_path, struct error *err)
{
	return run_child(argv, stdout_path, 1, err);
}

static size_t ptr_slot(const void *key, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (cap - 1);
}

/* Puts key in a table known to have a free slot. */
static void ptrmap_insert(struct ptrmap *map, const void *key, int val)
{
	size_t h = ptr_slot(key, map->cap);

	while (map->key[h] && map->key[h] != key)
		h = (h + 1) & (map->cap - 1);
	if (!map->key[h])
		map->n++;
	map->key[h] = key;
	map->val[h] = val;
}

void ptrmap_put(struct ptrmap *map, const void *key, int val)
{
	if (2 * (map->n + 1) > map->cap) {
		struct ptrmap old = *map;

		map->cap = old.cap ? 2 * old.cap : 64;
		map->key = xcalloc(map->cap, sizeof *map->key);
		map->val = xmalloc(map->cap * sizeof *map->val);
		map->n = 0;
		for (size_t i = 0; i < old.cap; i++) {
			if (old.key[i])
				ptrmap_insert(map, old.key[i], old.val[i]);
		}
		free(old.key);
		free(old.val);
	}
	ptrmap_insert(map, key, val);
}

int ptrmap_get(const struct ptrmap *map, const void *key)
{
	if (!map->cap)
		return -1;
	for (size_t h = ptr_slot(key, map->cap); map->key[h]; h = (h + 1) & (map->cap - 1)) {
		if (map->key[h] == key)
			return map->val[h];
	}
	return -1;
}

void ptrmap_release(struct ptrmap *map)
{
	free(map->key);
	free(map->val);
	memset(map, 0, sizeof *map);
}

void intvec_push(struct intvec *iv, int x)
{
	if (iv->n == iv->cap) {
		iv->cap = iv->cap ? 2 * iv->cap : 16;
		iv->v = xrealloc(iv->v, sizeof *iv->v * (size_t)iv->cap);
	}
	iv->v[iv->n++] = x;
}

void intvec_release(struct intvec *iv)
{
	free(iv->v);
	memset(iv, 0, sizeof *iv);
}

char *read_file(const char *path, size_t *len, const char *what, struct error *err)
{
	FILE *f = fopen(path, "rb");
	struct strbuf sb = {0};
	char chunk[65536];
	size_t n;

	if (!f) {
		error_errno(err, "cannot open %s%s", what, path);
		return NULL;
	}
	strbuf_add(&sb, "", 0);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&sb, chunk, n);
	if (ferror(f)) {
		error_errno(err, "cannot read %s%s", what, path);
		fclose(f);
		strbuf_release(&sb);
		return NULL;
	}
	fclose(f);
	if (len)
		*len = sb.len;
	return strbuf_detach(&sb);
}

int write_file(const char *path, const char *data, size_t n, struct error *err)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	int rc = 0, written;

	if (!f)
		return free(tmp), error_errno(err, "cannot write %s", path);
	written = fwrite(data, 1, n, f) == n;
	if (fclose(f) != 0 || !written || rename(tmp, path) != 0)
		rc = error_errno(err, "cannot write %s", path);
	if (rc < 0)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* Removes what the folder open on fd holds, in one pass, and closes fd. Not nftw, which stats
 * every entry and opens each folder twice over (35 system calls for a sample's two folders of
 * one file each, against 15 here: serve makes one such tree per request), nor readdir, whose
 * fdopendir adds three per folder. */
static void empty_folder(int fd)
{
	char buf[4096]; /* on the stack of each level: a deep tree stays within a thread's */
	ssize_t got;

	while ((got = getdents64(fd, buf, sizeof buf)) > 0) {
		for (ssize_t at = 0; at < got;) {
			struct dirent64 *e = (struct dirent64 *)(buf + at);
			int sub;

			at += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (e->d_type != DT_DIR &&
			    (unlinkat(fd, e->d_name, 0) == 0 || errno != EISDIR))
				continue;
			sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				empty_folder(sub);
			unlinkat(fd, e->d_name, AT_REMOVEDIR);
		}
	}
	close(fd);
}

void remove_tree(const char *dir)
{
	for (int pass = 0; pass < 3; pass++) { /* again where one pass left something */
		int fd;

		if (rmdir(dir) == 0 || errno == ENOENT) /* an empty folder, the usual case: 1 call */
			return;
		if (errno == ENOTDIR) {
			unlink(dir);
			return;
		}
		if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
			return;
		empty_folder(fd);
	}
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
