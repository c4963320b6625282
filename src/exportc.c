/*
 * exportc.c: a predictor as one self-contained C file (issue 9, mantis export-c), for a
 * scheduler to compile into itself: double NAME_predict_stdin(int argc, char **argv, const char
 * *input), the program's standard input read from input, and NAME_predict(argc, argv) with
 * none.
 *
 * LLVM 14 has no C back end, so the evaluator (PRED/evaluator, an executable) travels as a
 * byte array. A call copies it into a memfd and runs it with fexecve in a child process, with
 * MANTIS_COUNTERS and MANTIS_READ_FAILURES naming two more memfds as /proc/self/fd/N (kept
 * open across exec), reads the counters it wrote there (the runtimes' sparse format:
 * "MANTISC2", build id, count, pairs (counter, value), little-endian 64-bit words; a sampled
 * program built before session 65 wrote "MANTISC1", every counter), computes each model
 * feature from them with the
 * manifest's formula (manifest.h: a sum of coef * counter in 64-bit two's complement, divided
 * by a denominator counter for means), and evaluates the model (model.h: intercept + sum of
 * coef * monomial, each monomial a product taken factor by factor, at the features clamped to
 * their training ranges, plus the linear continuation past them, term by term).
 * Input features (descriptor.h) are computed from argv as descriptor.c computes them (strtod,
 * stat), with no evaluator; size(stdin) is input's (0 with none). Sampled features
 * (sampler.h) are computed as sampler.c computes them: the two samples of the files at the
 * plan's positions written to a private folder (in /dev/shm), the sampled program (embedded as
 * the evaluator is) run on each, the feature extrapolated along the line through the two
 * (sampled-larger: as it is on the larger); a sample of the standard input is the child's.
 * The file is: a header comment (the contract, what it needs, how it was made); constants;
 * a fixed runtime (runtime_text below, C source kept as lines), and samples_text for sampled
 * features; the input features' helpers it needs; one function per program feature (or per
 * feature a sampled one extrapolates); the exported function. With a gate (predictor.json
 * "gate"), PRED/long's predicting function and the first model's (input features alone), both
 * static, and the exported function choosing between them by the first's value, as
 * predictor_run does. Invariant: it computes bit for bit what predictor_run does: the same
 * counters, the same integer and floating-point operations in the same order (coefficients
 * printed with 17 significant digits, which read back to the same doubles; FP contraction
 * off), and it refuses where mantis predict refuses (a file named by an argument that cannot
 * be read, an evaluator that crashes, exits non-zero (but with a code of --ok-exit), overruns
 * 60 s or writes no counters).
 */
#include "exportc.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "descriptor.h"
#include "error.h"
#include "field.h"
#include "manifest.h"
#include "model.h"
#include "predictor.h"
#include "util.h"

/* The exported file's fixed part: running an evaluator and reading its counters. It uses the
 * constants BUILD_ID, OK_EXITS, NCOUNTERS, NUSED, BUDGET_SECONDS and the array used[] that
 * precede it. */
static const char *const runtime_text[] = {
	"/* ---- running the evaluator ------------------------------------------------------------ */",
	"",
	"/* Writes n bytes of buf to fd. Returns 0, or -1 with errno set. */",
	"static int write_all(int fd, const unsigned char *buf, size_t n)",
	"{",
	"	while (n > 0) {",
	"		ssize_t w = write(fd, buf, n);",
	"",
	"		if (w < 0 && errno == EINTR)",
	"			continue;",
	"		if (w <= 0)",
	"			return -1;",
	"		buf += w;",
	"		n -= (size_t)w;",
	"	}",
	"	return 0;",
	"}",
	"",
	"/* Returns the little-endian 64-bit word at b. */",
	"static uint64_t le64(const unsigned char *b)",
	"{",
	"	uint64_t v = 0;",
	"",
	"	for (int i = 7; i >= 0; i--)",
	"		v = v << 8 | b[i];",
	"	return v;",
	"}",
	"",
	"/* Returns the caller's environment without MANTIS_* variables, plus counters and failures",
	" * (two \"NAME=VALUE\" strings), as a malloc'ed array of borrowed strings, or NULL. */",
	"static char **environment(char *counters, char *failures)",
	"{",
	"	size_t n = 0, k = 0;",
	"	char **env;",
	"",
	"	while (environ && environ[n])",
	"		n++;",
	"	env = calloc(n + 3, sizeof *env);",
	"	if (!env)",
	"		return NULL;",
	"	for (size_t i = 0; i < n; i++) {",
	"		if (strncmp(environ[i], \"MANTIS_\", 7) != 0)",
	"			env[k++] = environ[i];",
	"	}",
	"	env[k] = counters;",
	"	env[k + 1] = failures;",
	"	return env;",
	"}",
	"",
	"/*",
	" * The child, in vfork (system calls only, no write to the caller's memory): stdin on input",
	" * (/dev/null when NULL), stdout and stderr on /dev/null, the counters and failures memfds kept",
	" * open across exec, signals unblocked, an alarm for the budget (it survives exec); then the",
	" * evaluator. On failure it writes errno to report and exits 127. Never returns.",
	" */",
	"static void child(const int *fd, int report, char **argv, char **env, const char *input)",
	"{",
	"	int in = open(input ? input : \"/dev/null\", O_RDONLY), e;",
	"	int out = open(\"/dev/null\", O_WRONLY);",
	"	sigset_t none;",
	"",
	"	sigemptyset(&none);",
	"	if (in >= 0 && out >= 0 && dup2(in, 0) >= 0 && dup2(out, 1) >= 0 && dup2(out, 2) >= 0 &&",
	"	    fcntl(fd[1], F_SETFD, 0) == 0 && fcntl(fd[2], F_SETFD, 0) == 0 &&",
	"	    signal(SIGALRM, SIG_DFL) != SIG_ERR && sigprocmask(SIG_SETMASK, &none, NULL) == 0) {",
	"		alarm(BUDGET_SECONDS);",
	"		fexecve(fd[0], argv, env);",
	"	}",
	"	e = errno;",
	"	if (write(report, &e, sizeof e) < 0)",
	"		_exit(127);",
	"	_exit(127);",
	"}",
	"",
	"/* Returns 1 with errno ENOENT or EACCES when the evaluator could not open a file that an",
	" * argument names (or names after '='), as its runtime listed them in the failures memfd,",
	" * else 0. */",
	"static int unreadable_input(int failures, int argc, char **argv)",
	"{",
	"	struct stat st;",
	"	char *all, *line, *end;",
	"	int found = 0;",
	"",
	"	if (fstat(failures, &st) < 0 || st.st_size <= 0 || !(all = malloc((size_t)st.st_size + 1)))",
	"		return 0;",
	"	if (pread(failures, all, (size_t)st.st_size, 0) != st.st_size) {",
	"		free(all);",
	"		return 0;",
	"	}",
	"	all[st.st_size] = '\\0';",
	"	for (line = all; !found && (end = strchr(line, '\\n')); line = end + 1) {",
	"		*end = '\\0';",
	"		for (int i = 1; i < argc && !found; i++) {",
	"			const char *eq = strchr(argv[i], '=');",
	"",
	"			found = strcmp(argv[i], line) == 0 || (eq && strcmp(eq + 1, line) == 0);",
	"		}",
	"		if (found)",
	"			errno = access(line, F_OK) == 0 ? EACCES : ENOENT;",
	"	}",
	"	free(all);",
	"	return found;",
	"}",
	"",
	"/* Reads the used counters of the sparse form (after the header: the number of pairs, then",
	" * the pairs (counter, value); a counter in none is 0, in two has the last) into c. Returns 0,",
	" * or -1 when it is truncated. */",
	"static int read_pairs(int fd, uint64_t *c)",
	"{",
	"	unsigned char count[8], *pairs;",
	"	uint64_t n;",
	"	int rc = -1;",
	"",
	"	if (pread(fd, count, sizeof count, 24) != (ssize_t)sizeof count)",
	"		return -1;",
	"	n = le64(count);",
	"	if (n > (1u << 26) || !(pairs = malloc(16 * (size_t)n + 1)))",
	"		return -1;",
	"	if (pread(fd, pairs, 16 * (size_t)n, 32) == (ssize_t)(16 * n)) {",
	"		for (int i = 0; i < NUSED; i++)",
	"			c[i] = 0;",
	"		for (uint64_t k = 0; k < n; k++) {",
	"			for (int i = 0; i < NUSED; i++) {",
	"				if (le64(pairs + 16 * k) == used[i])",
	"					c[i] = le64(pairs + 16 * k + 8);",
	"			}",
	"		}",
	"		rc = 0;",
	"	}",
	"	free(pairs);",
	"	return rc;",
	"}",
	"",
	"/* Reads the used counters from the counters memfd into c: the sparse form (\"MANTISC2\"), or",
	" * every counter (\"MANTISC1\", an instrumented build's before 2026-12). Returns 0, or -1 when it",
	" * is missing, truncated or of another build. */",
	"static int read_counters(int fd, uint64_t *c)",
	"{",
	"	unsigned char head[24], word[8];",
	"",
	"	if (pread(fd, head, sizeof head, 0) != (ssize_t)sizeof head ||",
	"	    (memcmp(head, \"MANTISC1\", 8) != 0 && memcmp(head, \"MANTISC2\", 8) != 0) ||",
	"	    le64(head + 8) != BUILD_ID || le64(head + 16) != NCOUNTERS)",
	"		return -1;",
	"	if (head[7] == '2')",
	"		return read_pairs(fd, c);",
	"	for (int i = 0; i < NUSED; i++) {",
	"		if (pread(fd, word, sizeof word, 24 + 8 * (off_t)used[i]) != (ssize_t)sizeof word)",
	"			return -1;",
	"		c[i] = le64(word);",
	"	}",
	"	return 0;",
	"}",
	"",
	"/* Returns 0 when the evaluator ended well and wrote its counters (read into c), else -1 with",
	" * errno saying why (see the top of this file). */",
	"static int outcome(int status, const int *fd, int argc, char **argv, uint64_t *c)",
	"{",
	"	if (unreadable_input(fd[2], argc, argv))",
	"		return -1;",
	"	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)",
	"		errno = ETIMEDOUT;",
	"	else if (!WIFEXITED(status) || (WEXITSTATUS(status) != 0 &&",
	"		  !(WEXITSTATUS(status) < 64 && (OK_EXITS >> WEXITSTATUS(status) & 1))) ||",
	"		 read_counters(fd[1], c) < 0)",
	"		errno = EIO;",
	"	else",
	"		return 0;",
	"	return -1;",
	"}",
	"",
	"/* Runs the program exe[0..bytes) (an evaluator) on argv, its standard input read from input",
	" * (NULL: empty), and reads its counters into c. Returns 0, or -1 with errno set. */",
	"static int run_program(const unsigned char *exe, size_t bytes, int argc, char **argv,",
	"		       const char *input, uint64_t *c)",
	"{",
	"	int fd[3], report[2] = {-1, -1}, status, exec_errno = 0, rc = -1, saved;",
	"	char counters[64], failures[64], **env = NULL;",
	"	pid_t pid;",
	"",
	"	if (argc < 1 || !argv || !argv[0]) {",
	"		errno = EINVAL;",
	"		return -1;",
	"	}",
	"	fd[0] = memfd_create(\"mantis-evaluator\", MFD_CLOEXEC);",
	"	fd[1] = memfd_create(\"mantis-counters\", MFD_CLOEXEC);",
	"	fd[2] = memfd_create(\"mantis-read-failures\", MFD_CLOEXEC);",
	"	if (fd[0] < 0 || fd[1] < 0 || fd[2] < 0 ||",
	"	    write_all(fd[0], exe, bytes) < 0 || pipe2(report, O_CLOEXEC) < 0)",
	"		goto out;",
	"	snprintf(counters, sizeof counters, \"MANTIS_COUNTERS=/proc/self/fd/%d\", fd[1]);",
	"	snprintf(failures, sizeof failures, \"MANTIS_READ_FAILURES=/proc/self/fd/%d\", fd[2]);",
	"	if (!(env = environment(counters, failures)) || (pid = vfork()) < 0)",
	"		goto out;",
	"	if (pid == 0)",
	"		child(fd, report[1], argv, env, input);",
	"	close(report[1]);",
	"	report[1] = -1;",
	"	if (read(report[0], &exec_errno, sizeof exec_errno) != (ssize_t)sizeof exec_errno)",
	"		exec_errno = 0; /* the pipe closed on exec: the evaluator runs */",
	"	while (waitpid(pid, &status, 0) < 0) {",
	"		if (errno != EINTR)",
	"			goto out;",
	"	}",
	"	if (exec_errno)",
	"		errno = exec_errno;",
	"	else",
	"		rc = outcome(status, fd, argc, argv, c);",
	"out:",
	"	saved = errno;",
	"	for (int i = 0; i < 3; i++) {",
	"		if (fd[i] >= 0)",
	"			close(fd[i]);",
	"	}",
	"	if (report[0] >= 0)",
	"		close(report[0]);",
	"	if (report[1] >= 0)",
	"		close(report[1]);",
	"	free(env);",
	"	errno = saved;",
	"	return rc;",
	"}",
};

/* The sampled features' part (sampler.c, as one C file): the two samples of the plan's files
 * in a private folder, the sampled program's runs on them, the extrapolation. It uses the
 * constants NPOSITIONS, CHUNKS, SMALLER, LINE_REACH, FRACTION, LEAST and the arrays
 * positions[], optional[] and sampled[] that precede it, and write_all and run_program. */
static const char *const samples_text[] = {
	"/* ---- the samples ------------------------------------------------------------------------- */",
	"",
	"/* Returns the size of the regular file at path, or -1. */",
	"static off_t regular_size(const char *path)",
	"{",
	"	struct stat st;",
	"",
	"	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;",
	"}",
	"",
	"/* Returns the path of position j's file (borrowed): in argv, or input for the standard input",
	" * (j = 0); *word its word (argc for the standard input) and *offset where the path starts in",
	" * it (after \"-opt=\"), or NULL when there is no regular file there (*word is then -1 when argv",
	" * has no word there). */",
	"static const char *position_file(int argc, char **argv, const char *input, int j, int *word,",
	"				 size_t *offset)",
	"{",
	"	const char *eq;",
	"",
	"	*offset = 0;",
	"	if (j == 0) {",
	"		*word = argc;",
	"		return regular_size(input) >= 0 ? input : NULL;",
	"	}",
	"	*word = j > 0 ? j : argc + j;",
	"	if (*word < 1 || *word >= argc) {",
	"		*word = -1;",
	"		return NULL;",
	"	}",
	"	if (regular_size(argv[*word]) >= 0)",
	"		return argv[*word];",
	"	eq = strchr(argv[*word], '=');",
	"	if (eq && regular_size(eq + 1) >= 0) {",
	"		*offset = (size_t)(eq + 1 - argv[*word]);",
	"		return eq + 1;",
	"	}",
	"	return NULL;",
	"}",
	"",
	"/* Returns the path of the plan's i-th file, or NULL when there is none or an earlier position",
	" * names the same word (sampled once). */",
	"static const char *planned_file(int argc, char **argv, const char *input, int i, int *word,",
	"				size_t *offset)",
	"{",
	"	const char *path = position_file(argc, argv, input, positions[i], word, offset);",
	"",
	"	for (int k = 0; path && k < i; k++) {",
	"		int other;",
	"		size_t o;",
	"",
	"		if (position_file(argc, argv, input, positions[k], &other, &o) && other == *word)",
	"			return NULL;",
	"	}",
	"	return path;",
	"}",
	"",
	"/* Returns 0 when every file the plan samples can be read, else -1 with errno set (ENOENT: no",
	" * such argument or file, or no input; EACCES: unreadable; EISDIR: not a regular file). */",
	"static int samples_readable(int argc, char **argv, const char *input)",
	"{",
	"	for (int i = 0; i < NPOSITIONS; i++) {",
	"		int word;",
	"		size_t offset;",
	"		const char *path = position_file(argc, argv, input, positions[i], &word, &offset), *eq;",
	"",
	"		if ((path && access(path, R_OK) == 0) || (!path && optional[i]))",
	"			continue; /* an optional position is sampled where a file is named */",
	"		if (path)",
	"			return -1; /* errno from access */",
	"		if (word == argc) {",
	"			errno = !input || access(input, F_OK) != 0 ? ENOENT",
	"				: access(input, R_OK) != 0 ? EACCES : EISDIR;",
	"			return -1;",
	"		}",
	"		if (word < 0) {",
	"			errno = ENOENT;",
	"			return -1;",
	"		}",
	"		eq = strchr(argv[word], '=');",
	"		path = eq && argv[word][0] == '-' ? eq + 1 : argv[word];",
	"		errno = access(path, F_OK) != 0 ? ENOENT : access(path, R_OK) != 0 ? EACCES : EISDIR;",
	"		return -1;",
	"	}",
	"	return 0;",
	"}",
	"",
	"/* Returns the mean length of the lines in the first LINE_REACH bytes of the file open at fd",
	" * when it reads as text: they hold a newline and no control byte but tabs, newlines and",
	" * carriage returns; 0 when it does not. */",
	"static double text_line_length(int fd)",
	"{",
	"	unsigned char buf[LINE_REACH];",
	"	ssize_t got = pread(fd, buf, sizeof buf, 0), end = 0;",
	"	int newlines = 0;",
	"",
	"	for (ssize_t i = 0; i < got; i++) {",
	"		if ((buf[i] < 32 && buf[i] != '\\t' && buf[i] != '\\n' && buf[i] != '\\r') ||",
	"		    buf[i] == 127)",
	"			return 0;",
	"		if (buf[i] == '\\n') {",
	"			newlines++;",
	"			end = i + 1;",
	"		}",
	"	}",
	"	return newlines ? (double)end / newlines : 0;",
	"}",
	"",
	"/* A file's bytes read ahead: the pieces of a line at a time lie close together, and one read",
	" * of many of them costs less than a read each. */",
	"struct window {",
	"	int fd;     /* the file */",
	"	char *buf;  /* its bytes from `from`; owned */",
	"	off_t from; /* where buf starts in the file */",
	"	long got;   /* bytes in buf (-1: none read yet) */",
	"	long cap;   /* buf's size */",
	"};",
	"",
	"/* Points *p at the file's bytes from `from` on, up to want of them (fewer only at the file's",
	" * end), read through w (want at most w->cap). Returns how many, or -1 with errno set. */",
	"static long window_read(struct window *w, off_t from, long want, char **p)",
	"{",
	"	long avail;",
	"",
	"	if (w->got < 0 || from < w->from ||",
	"	    (from + want > w->from + w->got && w->got == w->cap)) {",
	"		if ((w->got = (long)pread(w->fd, w->buf, (size_t)w->cap, from)) < 0)",
	"			return -1;",
	"		w->from = from;",
	"	}",
	"	*p = w->buf + (from - w->from);",
	"	avail = (long)(w->from + w->got - from);",
	"	return avail < want ? (avail > 0 ? avail : 0) : want;",
	"}",
	"",
	"/* Points *piece at the piece of about len bytes meant to start at `at`, read through w; with",
	" * lines, of whole lines, as mantis does (sampler.c). Returns the piece's bytes, or -1 with",
	" * errno set. */",
	"static long read_piece(struct window *w, off_t at, long len, int lines, char **piece)",
	"{",
	"	long reach = lines ? SHORT_REACH : 0, before = at > 0 && lines, got, n, start;",
	"	char *nl, *buf;",
	"",
	"	for (;;) {",
	"		if ((got = window_read(w, at - before, len + 2 * reach + before, &buf)) < 0)",
	"			return -1;",
	"		start = 0;",
	"		if (before) {",
	"			nl = memchr(buf, '\\n', (size_t)(got < reach + 1 ? got : reach + 1));",
	"			if (!nl && reach < LINE_REACH && got > reach + 1) {",
	"				reach = LINE_REACH;",
	"				continue;",
	"			}",
	"			start = nl ? nl - buf + 1 : 1;",
	"		}",
	"		*piece = buf + start;",
	"		got = got - start < len + reach ? got - start : len + reach;",
	"		n = got < len ? got : len;",
	"		if (!lines || n <= 0 || (*piece)[n - 1] == '\\n')",
	"			return n;",
	"		if ((nl = memchr(*piece + n, '\\n', (size_t)(got - n))))",
	"			return nl + 1 - *piece;",
	"		if (reach == LINE_REACH || got < len + reach)",
	"			return n;",
	"		reach = LINE_REACH;",
	"	}",
	"}",
	"",
	"/* Returns how many lines a sample of share q of a text file of size bytes takes a line at a",
	" * time, as mantis does (sampler.c). */",
	"static int lines_sampled(double q, off_t size, double line)",
	"{",
	"	long n = (long)(q * (double)size / line + 0.5);",
	"",
	"	return n > 1 ? (int)n : 1;",
	"}",
	"",
	"/* Returns the bytes of a piece of about len bytes: of a binary file rounded to the nearest",
	" * multiple of SMALLER times ALIGN, or the largest power of two that fits, as mantis does",
	" * (sampler.c). */",
	"static long piece_bytes(double len, int text)",
	"{",
	"	long record = ALIGN, units;",
	"",
	"	if (text || record == 1)",
	"		return (long)len;",
	"	while (record > 1 && (double)(record * SMALLER) > len)",
	"		record /= 2;",
	"	units = (long)(len / (double)(record * SMALLER) + 0.5);",
	"	return (units > 1 ? units : 1) * record * SMALLER;",
	"}",
	"",
	"/* Copies every every-th of chunks pieces of about len bytes, at offsets i * size / chunks,",
	" * from fd to path; with lines, each of whole lines, without at its offset rounded down to a",
	" * multiple of ALIGN, as mantis does (sampler.c). Returns the bytes written, or -1 with errno",
	" * set. */",
	"static long write_excerpt(int fd, off_t size, int chunks, long len, int every, int lines,",
	"			  const char *path)",
	"{",
	"	int to = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);",
	"	FILE *out = to >= 0 ? fdopen(to, \"w\") : NULL;",
	"	long close_by = (double)size / chunks < WINDOW ? WINDOW : 0;",
	"	struct window w = {.fd = fd, .got = -1, .cap = len + 2 * LINE_REACH + 1 + close_by};",
	"	long total;",
	"",
	"	w.buf = malloc((size_t)w.cap);",
	"	total = out && w.buf ? 0 : -1;",
	"	if (!out && to >= 0)",
	"		close(to);",
	"	for (int i = 0; i < chunks && total >= 0; i += every) {",
	"		char *piece;",
	"		off_t at = (off_t)((double)size * i / chunks);",
	"		long n = read_piece(&w, lines ? at : at - at % ALIGN, len, lines, &piece);",
	"",
	"		if (n < 0 || fwrite(piece, 1, (size_t)n, out) != (size_t)n)",
	"			total = -1;",
	"		else",
	"			total += n;",
	"	}",
	"	free(w.buf);",
	"	if (out && fclose(out) != 0)",
	"		total = -1;",
	"	return total;",
	"}",
	"",
	"/* The two samples of one call: their folder, files, arguments and standard inputs. */",
	"struct samples {",
	"	char dir[64];                     /* the private folder */",
	"	char *file[2][NPOSITIONS + 1];    /* per sample, the excerpt files made; malloc'ed */",
	"	char *word[2][NPOSITIONS + 1];    /* per sample, the words replaced; malloc'ed */",
	"	char **argv[2];                   /* per sample, the arguments; malloc'ed array */",
	"	const char *input[2];             /* per sample, the standard input (borrowed) */",
	"	double share[2];                  /* their share of the sampled files' bytes */",
	"};",
	"",
	"/* Removes what make_samples made. */",
	"static void drop_samples(struct samples *s)",
	"{",
	"	for (int k = 0; k < 2; k++) {",
	"		for (int i = 0; i < NPOSITIONS; i++) {",
	"			if (s->file[k][i]) {",
	"				char *slash = strrchr(s->file[k][i], '/');",
	"",
	"				unlink(s->file[k][i]);",
	"				*slash = '\\0';",
	"				rmdir(s->file[k][i]);",
	"			}",
	"			free(s->file[k][i]);",
	"			free(s->word[k][i]);",
	"		}",
	"		free(s->argv[k]);",
	"	}",
	"	if (s->dir[0])",
	"		rmdir(s->dir);",
	"}",
	"",
	"/* Makes the larger (k = 0) and smaller (k = 1) excerpts of the plan's files in a private",
	" * folder, as mantis does (sampler.c), and the arguments and standard inputs naming them.",
	" * Returns 0, or -1 with errno set (the caller then calls drop_samples). */",
	"static int make_samples(int argc, char **argv, const char *input, struct samples *s)",
	"{",
	"	const char *tmp = getenv(\"TMPDIR\");",
	"	double total = 0, written[2] = {0, 0}, q = FRACTION;",
	"",
	"	for (int k = 0; k < 2; k++) {",
	"		if (!(s->argv[k] = calloc((size_t)argc + 1, sizeof *argv)))",
	"			return -1;",
	"		memcpy(s->argv[k], argv, sizeof *argv * (size_t)argc);",
	"		s->input[k] = input;",
	"	}",
	"	for (int i = 0; i < NPOSITIONS; i++) {",
	"		int word;",
	"		size_t offset;",
	"		const char *path = planned_file(argc, argv, input, i, &word, &offset);",
	"",
	"		if (path)",
	"			total += (double)regular_size(path);",
	"	}",
	"	if (total > 0 && q * total < LEAST)",
	"		q = LEAST / total;",
	"	q = q < 1 ? q : 1;",
	"	if (q < 1 && !mkdtemp(strcpy(s->dir, \"/dev/shm/mantis-sample-XXXXXX\")) &&",
	"	    (snprintf(s->dir, sizeof s->dir, \"%s/mantis-sample-XXXXXX\", tmp && *tmp &&",
	"		      strlen(tmp) < 32 ? tmp : \"/tmp\") < 0 || !mkdtemp(s->dir))) {",
	"		s->dir[0] = '\\0';",
	"		return -1;",
	"	}",
	"	for (int i = 0; i < NPOSITIONS && q < 1; i++) {",
	"		int word, fd;",
	"		size_t offset;",
	"		const char *path = planned_file(argc, argv, input, i, &word, &offset), *base;",
	"		off_t size;",
	"		long piece;",
	"		double line;",
	"		int by_line, chunks;",
	"",
	"		if (!path)",
	"			continue;",
	"		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)",
	"			return -1;",
	"		size = regular_size(path);",
	"		base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;",
	"		line = text_line_length(fd);",
	"		by_line = CHUNKS == BY_LINE && line > 0;",
	"		chunks = by_line ? lines_sampled(q, size, line)",
	"			 : CHUNKS == BY_LINE ? PIECES : CHUNKS;",
	"		piece = by_line ? 1 : piece_bytes(q * (double)size / chunks, line > 0);",
	"		for (int k = 0; k < 2; k++) {",
	"			size_t n = strlen(s->dir) + strlen(base) + 32;",
	"			long got;",
	"",
	"			if (!(s->file[k][i] = malloc(n))) {",
	"				close(fd);",
	"				return -1;",
	"			}",
	"			snprintf(s->file[k][i], n, \"%s/%c%d\", s->dir, \"ab\"[k], i);",
	"			if (mkdir(s->file[k][i], 0700) < 0) {",
	"				free(s->file[k][i]);",
	"				s->file[k][i] = NULL;",
	"				close(fd);",
	"				return -1;",
	"			}",
	"			snprintf(s->file[k][i], n, \"%s/%c%d/%s\", s->dir, \"ab\"[k], i, base);",
	"			got = write_excerpt(fd, size, chunks, k == 0 || by_line ? piece : piece / SMALLER,",
	"					    k == 1 && by_line ? SMALLER : 1, line > 0, s->file[k][i]);",
	"			if (got < 0) {",
	"				close(fd);",
	"				return -1;",
	"			}",
	"			written[k] += (double)got;",
	"			if (word == argc) {",
	"				s->input[k] = s->file[k][i];",
	"				continue;",
	"			}",
	"			if (!(s->word[k][i] = malloc(n + offset))) {",
	"				close(fd);",
	"				return -1;",
	"			}",
	"			snprintf(s->word[k][i], n + offset, \"%.*s%s\", (int)offset, argv[word],",
	"				 s->file[k][i]);",
	"			s->argv[k][word] = s->word[k][i];",
	"		}",
	"		close(fd);",
	"	}",
	"	s->share[0] = q < 1 && total > 0 ? written[0] / total : 1;",
	"	s->share[1] = q < 1 && total > 0 ? written[1] / total : 1;",
	"	return 0;",
	"}",
	"",
	"/* Runs the sampled program on the two samples of the files of argv and input into ca and cb",
	" * (cb unset when the larger sample is the whole files) and their shares into share. Returns",
	" * 0, or -1 with errno set. */",
	"static int run_samples(int argc, char **argv, const char *input, uint64_t *ca, uint64_t *cb,",
	"		       double *share)",
	"{",
	"	struct samples s;",
	"	int rc, saved;",
	"",
	"	memset(&s, 0, sizeof s);",
	"	if (samples_readable(argc, argv, input) < 0)",
	"		return -1;",
	"	rc = make_samples(argc, argv, input, &s);",
	"	if (rc == 0)",
	"		rc = run_program(sampled, sizeof sampled, argc, s.argv[0], s.input[0], ca);",
	"	if (rc == 0 && s.share[0] < 1)",
	"		rc = run_program(sampled, sizeof sampled, argc, s.argv[1], s.input[1], cb);",
	"	share[0] = s.share[0];",
	"	share[1] = s.share[1];",
	"	saved = errno;",
	"	drop_samples(&s);",
	"	errno = saved;",
	"	return rc;",
	"}",
};

/* extrapolated(), emitted when the model reads an extrapolated sampled feature. */
static const char *const extrapolated_text[] = {
	"",
	"/* Returns fa extrapolated to the whole files along the line through the two samples, or",
	" * with parabola along the parabola through them and the origin (sampler.h). */",
	"static double extrapolated(double fa, double fb, const double *share, int parabola)",
	"{",
	"	if (share[0] >= 1 || share[0] <= share[1])",
	"		return fa;",
	"	if (parabola && share[1] > 0)",
	"		return fa / share[0] + (fa / share[0] - fb / share[1]) * (1 - share[0]) /",
	"		       (share[0] - share[1]);",
	"	return fa + (fa - fb) * (1 - share[0]) / (share[0] - share[1]);",
	"}",
};

/* The input features' helpers, each emitted when a model feature needs it (INPUT_*). */
enum {
	INPUT_FILE = 1, INPUT_SIZE = 2, INPUT_NUMBER = 4, INPUT_ALL = 8, INPUT_READABLE = 16,
	INPUT_PROBE = 32, INPUT_WORD = 64, INPUT_SCRIPT = 128, INPUT_DATA = 256, INPUT_FIELD = 512
};

/* script_file() and its helpers, as probe.c's probe_script and descriptor.c's script_file read
 * a script's numbers. */
static const char *const input_script_text[] = {
	"/* Returns whether a number starts at text[i]: a digit after no letter, digit, '_' or '.'. */",
	"static int number_starts(const char *text, size_t i)",
	"{",
	"	unsigned char before = i > 0 ? (unsigned char)text[i - 1] : ' ';",
	"",
	"	return text[i] >= '0' && text[i] <= '9' && !(before >= '0' && before <= '9') &&",
	"	       !(before >= 'a' && before <= 'z') && !(before >= 'A' && before <= 'Z') &&",
	"	       before != '_' && before != '.' && before < 0x80;",
	"}",
	"",
	"/* Returns whether path is a script (1 to 65536 bytes of text), with its first 16 numbers in",
	" * numbers[0..16), zeros past the last; numbers all zeros when it is not. */",
	"static int script_numbers(const char *path, double *numbers)",
	"{",
	"	char *text = NULL;",
	"	struct stat st;",
	"	ssize_t got = -1, r = 0;",
	"	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK), k = 0;",
	"",
	"	memset(numbers, 0, sizeof *numbers * 16);",
	"	if (fd < 0)",
	"		return 0;",
	"	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 1 &&",
	"	    st.st_size <= 65536 && (text = malloc((size_t)st.st_size + 1)))",
	"		for (got = 0; got < st.st_size && ((r = pread(fd, text + got, (size_t)(st.st_size - got),",
	"							   got)) > 0 || (r < 0 && errno == EINTR));)",
	"			got += r > 0 ? r : 0;",
	"	close(fd);",
	"	if (got < 0 || got != st.st_size || r < 0) {",
	"		free(text);",
	"		return 0;",
	"	}",
	"	text[got] = '\\0';",
	"	for (ssize_t i = 0; i < got; i++) {",
	"		unsigned char b = (unsigned char)text[i];",
	"",
	"		if (!((b >= 0x20 && b != 0x7f) || (b >= '\\t' && b <= '\\r'))) {",
	"			free(text);",
	"			return 0;",
	"		}",
	"	}",
	"	for (size_t i = 0; i < (size_t)got && k < 16; i++) {",
	"		char *end;",
	"",
	"		if (!number_starts(text, i))",
	"			continue;",
	"		numbers[k] = strtod(text + i, &end);",
	"		numbers[k] = isfinite(numbers[k]) ? numbers[k] : 0;",
	"		k++;",
	"		i = (size_t)(end - text) - 1;",
	"	}",
	"	free(text);",
	"	return 1;",
	"}",
	"",
	"/* Returns the input's script, the first of input and the arguments' files (a word, or the",
	" * VALUE of a -opt=VALUE word) that is one, with its numbers in numbers[0..16); NULL (numbers",
	" * all zeros) when there is none. */",
	"static const char *script_file(int argc, char **argv, const char *input, double *numbers)",
	"{",
	"	if (input && script_numbers(input, numbers))",
	"		return input;",
	"	for (int i = 1; i < argc; i++) {",
	"		const char *eq = strchr(argv[i], '=');",
	"",
	"		if (script_numbers(argv[i], numbers))",
	"			return argv[i];",
	"		if (eq && script_numbers(eq + 1, numbers))",
	"			return eq + 1;",
	"	}",
	"	return NULL;",
	"}",
	"",
};

static const char *const input_word_text[] = {
	"/* Returns 1 when word is one of the arguments argv[1..argc), else 0. */",
	"static double has_word(int argc, char **argv, const char *word)",
	"{",
	"	for (int i = 1; i < argc; i++) {",
	"		if (strcmp(argv[i], word) == 0)",
	"			return 1;",
	"	}",
	"	return 0;",
	"}",
	"",
};

static const char *const input_file_text[] = {
	"/* Returns the size of the file at path, 0 if it is not a regular file (or path is NULL). */",
	"static double file_size(const char *path)",
	"{",
	"	struct stat st;",
	"",
	"	return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (double)st.st_size : 0;",
	"}",
	"",
};

static const char *const input_size_text[] = {
	"/* Returns the bytes of the files word names: itself, and the VALUE of a -opt=VALUE word. */",
	"static double word_size(const char *word)",
	"{",
	"	const char *eq = strchr(word, '=');",
	"",
	"	return file_size(word) + (eq ? file_size(eq + 1) : 0);",
	"}",
	"",
};

static const char *const input_number_text[] = {
	"/* Returns word's numeric value: strtod of all of it, 0 if it is not a number. */",
	"static double word_number(const char *word)",
	"{",
	"	char *end;",
	"	double v = strtod(word, &end);",
	"",
	"	return *end == '\\0' && end != word ? v : 0;",
	"}",
	"",
};

static const char *const input_all_text[] = {
	"/* Returns the bytes of every file the arguments name, then of input (the standard input). */",
	"static double all_files(int argc, char **argv, const char *input)",
	"{",
	"	double sum = 0;",
	"",
	"	for (int i = 1; i < argc; i++)",
	"		sum += word_size(argv[i]);",
	"	return sum + file_size(input);",
	"}",
	"",
};

static const char *const input_readable_text[] = {
	"/* Returns 0 when argument k names a file that can be read (itself or its VALUE after '='),",
	" * else -1 with errno set (ENOENT when there is no argument k). */",
	"static int readable_argument(int argc, char **argv, int k)",
	"{",
	"	const char *eq;",
	"",
	"	if (k >= argc) {",
	"		errno = ENOENT;",
	"		return -1;",
	"	}",
	"	if (access(argv[k], R_OK) == 0)",
	"		return 0;",
	"	eq = strchr(argv[k], '=');",
	"	return eq && errno == ENOENT ? access(eq + 1, R_OK) : -1;",
	"}",
	"",
};

/* data_file(), as descriptor.c finds the file whose content and header fields it reads. */
static const char *const input_data_text[] = {
	"/* Takes path into *best and *size when it is a regular file larger than *size (or the",
	" * first). */",
	"static void consider_file(const char *path, const char **best, double *size)",
	"{",
	"	struct stat st;",
	"",
	"	if (!path || stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||",
	"	    (*best && (double)st.st_size <= *size))",
	"		return;",
	"	*best = path;",
	"	*size = (double)st.st_size;",
	"}",
	"",
	"/* Returns the largest regular file of input and the arguments (a word, or the VALUE of a",
	" * -opt=VALUE word; the first of equal sizes), NULL when they name none. */",
	"static const char *data_file(int argc, char **argv, const char *input)",
	"{",
	"	const char *best = NULL;",
	"	double size = 0;",
	"",
	"	consider_file(input, &best, &size);",
	"	for (int i = 1; i < argc; i++) {",
	"		const char *eq = strchr(argv[i], '=');",
	"",
	"		consider_file(argv[i], &best, &size);",
	"		if (eq)",
	"			consider_file(eq + 1, &best, &size);",
	"	}",
	"	return best;",
	"}",
	"",
};

/* header_field(), as field.c's field_read reads a header field. */
static const char *const input_field_text[] = {
	"/* Returns the number of the width bytes at offset in the file at path (big-endian when",
	" * big), shifted right by shift and masked, 0 when the file cannot be read there. */",
	"static double header_field(const char *path, long offset, int width, int big, int shift,",
	"			   uint32_t mask)",
	"{",
	"	unsigned char b[4];",
	"	uint32_t v = 0;",
	"	int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;",
	"	ssize_t got;",
	"",
	"	if (fd < 0)",
	"		return 0;",
	"	got = pread(fd, b, (size_t)width, offset);",
	"	close(fd);",
	"	if (got != width)",
	"		return 0;",
	"	for (int i = 0; i < width; i++)",
	"		v |= (uint32_t)b[big ? width - 1 - i : i] << (8 * i);",
	"	return (double)((v >> shift) & mask);",
	"}",
	"",
};

/* probe(), as probe.c computes the content descriptors. */
static const char *const input_probe_text[] = {
	"/* Adds g to the set of a piece's 4-byte strings (gram, stamp: 8192 slots); returns 1 when it",
	" * was there already. */",
	"static int gram_seen(uint32_t *gram, uint32_t *stamp, uint32_t now, uint32_t g)",
	"{",
	"	uint32_t h = (g * 2654435761u) >> 19;",
	"",
	"	while (stamp[h] == now) {",
	"		if (gram[h] == g)",
	"			return 1;",
	"		h = (h + 1) & 8191;",
	"	}",
	"	stamp[h] = now;",
	"	gram[h] = g;",
	"	return 0;",
	"}",
	"",
	"/* Fills out[0..3) with the entropy, repeats and newlines of a 64 KiB sample of the file at",
	" * path (16 pieces of 4 KiB spread over it), zeros when it cannot be read. */",
	"static void probe(const char *path, double *out)",
	"{",
	"	double count[256] = {0}, n = 0, grams = 0, repeated = 0, lines = 0, sum = 0;",
	"	uint32_t *set = path ? calloc(2 * 8192, sizeof *set) : NULL;",
	"	unsigned char *piece = set ? malloc(4096) : NULL;",
	"	int fd = piece ? open(path, O_RDONLY | O_CLOEXEC) : -1;",
	"	struct stat st;",
	"",
	"	out[0] = out[1] = out[2] = 0;",
	"	if (fd >= 0 && fstat(fd, &st) != 0) {",
	"		close(fd);",
	"		fd = -1;",
	"	}",
	"	for (int k = 0; k < 16 && fd >= 0; k++) {",
	"		off_t off = st.st_size <= (off_t)16 * 4096 ? (off_t)k * 4096",
	"						  : (st.st_size - 4096) * k / 15;",
	"		ssize_t got = 0, r = 0;",
	"",
	"		while (got < 4096 && ((r = pread(fd, piece + got, 4096 - (size_t)got, off + got)) > 0 ||",
	"				      (r < 0 && errno == EINTR)))",
	"			got += r > 0 ? r : 0;",
	"		if (r < 0) {",
	"			n = 0;",
	"			break;",
	"		}",
	"		for (ssize_t i = 0; i < got; i++) {",
	"			count[piece[i]]++;",
	"			lines += piece[i] == '\\n';",
	"			if (i + 4 > got)",
	"				continue;",
	"			grams++;",
	"			repeated += gram_seen(set, set + 8192, (uint32_t)k + 1, (uint32_t)piece[i] |",
	"					      (uint32_t)piece[i + 1] << 8 | (uint32_t)piece[i + 2] << 16 |",
	"					      (uint32_t)piece[i + 3] << 24);",
	"		}",
	"		n += (double)got;",
	"	}",
	"	if (fd >= 0)",
	"		close(fd);",
	"	free(set);",
	"	free(piece);",
	"	if (n == 0)",
	"		return;",
	"	for (int b = 0; b < 256; b++)",
	"		sum += count[b] > 0 ? count[b] / n * log2(n / count[b]) : 0;",
	"	out[0] = sum;",
	"	out[1] = grams > 0 ? repeated / grams : 0;",
	"	out[2] = lines / n;",
	"}",
	"",
};

/* Returns whether model feature i's file size is checked before a prediction (predictor.c's
 * check_input_files: a file argument whose size was never 0 in training). */
static int checked_size(const struct predictor *p, int i)
{
	int j = p->descriptor[i];

	return j >= DESCRIPTOR_ARGS && j < 2 * DESCRIPTOR_ARGS && p->model.features[i].min > 0;
}

/* Returns the INPUT_* helpers the model's input features need. */
static int input_helpers(const struct predictor *p)
{
	int need = 0;

	for (int i = 0; i < p->model.nfeatures; i++) {
		int j = p->descriptor[i];

		if (j < 0)
			continue;
		need |= j == DESCRIPTOR_STDIN ? INPUT_FILE : j < DESCRIPTOR_ARGS ? INPUT_NUMBER
			: j == DESCRIPTOR_ALL ? INPUT_FILE | INPUT_SIZE | INPUT_ALL
			: j == DESCRIPTOR_WORD ? INPUT_WORD
			: j == DESCRIPTOR_FIELD ? INPUT_DATA | INPUT_FIELD
			: descriptor_scripted(j) ? INPUT_SCRIPT
			: INPUT_FILE | INPUT_SIZE;
		need |= checked_size(p, i) ? INPUT_READABLE : 0;
		need |= descriptor_probes(j) ? INPUT_DATA | INPUT_PROBE : 0;
	}
	return need;
}

/* Appends the lines of text[0..n). */
static void lines(struct strbuf *sb, const char *const *text, size_t n)
{
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s\n", text[i]);
}

/* Appends the helpers need asks for. */
static void input_functions(struct strbuf *sb, int need)
{
	if (!need)
		return;
	strbuf_addf(sb, "\n/* ---- input features "
	    "------------------------------------------------------------------- */\n\n");
	if (need & INPUT_FILE)
		lines(sb, input_file_text, sizeof input_file_text / sizeof *input_file_text);
	if (need & INPUT_SIZE)
		lines(sb, input_size_text, sizeof input_size_text / sizeof *input_size_text);
	if (need & INPUT_NUMBER)
		lines(sb, input_number_text, sizeof input_number_text / sizeof *input_number_text);
	if (need & INPUT_ALL)
		lines(sb, input_all_text, sizeof input_all_text / sizeof *input_all_text);
	if (need & INPUT_READABLE)
		lines(sb, input_readable_text, sizeof input_readable_text / sizeof *input_readable_text);
	if (need & INPUT_DATA)
		lines(sb, input_data_text, sizeof input_data_text / sizeof *input_data_text);
	if (need & INPUT_FIELD)
		lines(sb, input_field_text, sizeof input_field_text / sizeof *input_field_text);
	if (need & INPUT_PROBE)
		lines(sb, input_probe_text, sizeof input_probe_text / sizeof *input_probe_text);
	if (need & INPUT_WORD)
		lines(sb, input_word_text, sizeof input_word_text / sizeof *input_word_text);
	if (need & INPUT_SCRIPT)
		lines(sb, input_script_text, sizeof input_script_text / sizeof *input_script_text);
}

/* Appends the numbers of the input's script into numbers[], refusing an input that names none
 * where a script's number was never 0 in training (predictor.c's check_input_files). */
static void script_call(struct strbuf *sb, const struct predictor *p)
{
	int checked = 0;

	for (int i = 0; i < p->model.nfeatures; i++)
		checked |= descriptor_scripted(p->descriptor[i]) && p->model.features[i].min > 0;
	strbuf_addf(sb, checked ? "\tif (!script_file(argc, argv, input, numbers)) {\n"
		    "\t\terrno = ENOENT;\n\t\treturn NAN;\n\t}\n"
		    : "\tscript_file(argc, argv, input, numbers);\n");
}

/* Appends the probe of the input's data file into probed[], refusing an input that names no
 * file where a content feature was never 0 in training (predictor.c's check_input_files). */
static void probe_call(struct strbuf *sb, const struct predictor *p)
{
	int checked = 0;

	for (int i = 0; i < p->model.nfeatures; i++)
		checked |= descriptor_probes(p->descriptor[i]) && p->model.features[i].min > 0;
	if (checked)
		strbuf_addf(sb, "\tif (!data_file(argc, argv, input)) {\n\t\terrno = ENOENT;\n"
		    "\t\treturn NAN;\n\t}\n");
	strbuf_addf(sb, "\tprobe(data_file(argc, argv, input), probed);\n");
}

/* Appends the refusal of an input that names no file where a header field was never 0 in
 * training (predictor.c's check_input_files), when the model has such a field. */
static void field_check(struct strbuf *sb, const struct predictor *p)
{
	for (int i = 0; i < p->model.nfeatures; i++) {
		if (p->descriptor[i] == DESCRIPTOR_FIELD && p->model.features[i].min > 0) {
			strbuf_addf(sb, "\tif (!data_file(argc, argv, input)) {\n\t\terrno = ENOENT;\n"
			    "\t\treturn NAN;\n\t}\n");
			return;
		}
	}
}

/* Appends s as a C string literal (printable ASCII: a word feature's word), "?" escaped
 * against trigraphs. */
static void string_literal(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\' || *s == '?')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
	strbuf_addch(sb, '"');
}

/* Appends the expression of input feature j, called name, over argc and argv, as
 * descriptor_named_value. */
static void input_expression(struct strbuf *sb, int j, const char *name)
{
	struct field f;

	if (j == DESCRIPTOR_FIELD && field_parse(name, &f) == 0) {
		int w = field_width(f.enc);

		strbuf_addf(sb, "header_field(data_file(argc, argv, input), %ld, %d, %d, %d, %#xu)",
			    f.offset, w, f.enc == FIELD_U32BE || f.enc == FIELD_U16BE,
			    f.enc == FIELD_U4HI ? 4 : 0,
			    f.enc == FIELD_U4HI || f.enc == FIELD_U4LO ? 15u
			    : w == 4 ? 0xffffffffu : w == 2 ? 0xffffu : 0xffu);
	} else if (j == DESCRIPTOR_WORD) {
		char *word = descriptor_word(name);

		strbuf_addf(sb, "has_word(argc, argv, ");
		string_literal(sb, word);
		strbuf_addf(sb, ")");
		free(word);
	} else if (j < DESCRIPTOR_ARGS)
		strbuf_addf(sb, "argc > %d ? word_number(argv[%d]) : 0", j + 1, j + 1);
	else if (j < 2 * DESCRIPTOR_ARGS)
		strbuf_addf(sb, "argc > %d ? word_size(argv[%d]) : 0", j - DESCRIPTOR_ARGS + 1,
			    j - DESCRIPTOR_ARGS + 1);
	else if (j == DESCRIPTOR_STDIN)
		strbuf_addf(sb, "file_size(input)");
	else if (j == DESCRIPTOR_ALL)
		strbuf_addf(sb, "all_files(argc, argv, input)");
	else if (descriptor_scripted(j))
		strbuf_addf(sb, "numbers[%d]", j - DESCRIPTOR_NUMBER);
	else
		strbuf_addf(sb, "probed[%d]", j - DESCRIPTOR_SIZES);
}

/* Appends s for a comment: "* /" stands for any "*" followed by "/", which would end it. */
static void comment_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		strbuf_addch(sb, *s);
		if (s[0] == '*' && s[1] == '/')
			strbuf_addch(sb, ' ');
	}
}

/* Appends v as a C double constant that reads back to v exactly. */
static void put_double(struct strbuf *sb, double v)
{
	char buf[64];

	snprintf(buf, sizeof buf, "%.17g", v);
	strbuf_add(sb, buf, strlen(buf));
	if (!strpbrk(buf, ".e"))
		strbuf_add(sb, ".0", 2);
}

int exportc_valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > 64 || (name[0] >= '0' && name[0] <= '9'))
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n;
}

/* The counters the model's features read: slot s of the exported file's c[] is counter[s]. */
struct used {
	int n;        /* counters read */
	int *counter; /* their indices, ascending; owned */
};

/* Adds counter k to u (kept ascending and distinct). */
static void use(struct used *u, int k)
{
	int i = 0;

	while (i < u->n && u->counter[i] < k)
		i++;
	if (i < u->n && u->counter[i] == k)
		return;
	u->counter = xrealloc(u->counter, sizeof *u->counter * (size_t)(u->n + 1));
	memmove(u->counter + i + 1, u->counter + i, sizeof *u->counter * (size_t)(u->n - i));
	u->counter[i] = k;
	u->n++;
}

/* Returns counter k's slot in u (k is in u). */
static int slot(const struct used *u, int k)
{
	for (int i = 0; i < u->n; i++) {
		if (u->counter[i] == k)
			return i;
	}
	assert(!"the counter is one of the used ones");
	return -1;
}

/* Returns whether p's model reads samples of the standard input. */
static int samples_stdin(const struct predictor *p)
{
	for (int i = 0; i < p->info.plan.npositions; i++) {
		if (p->info.plan.positions[i] == SAMPLER_STDIN)
			return 1;
	}
	return 0;
}

/* Appends to the header the paragraph on gate's gate: its model first, PRED/long above it. */
static void gate_paragraph(struct strbuf *sb, const struct predictor *gate)
{
	struct strbuf formula = {0};

	model_format(&gate->model, &formula);
	strbuf_addf(sb, "\n *\n * With a gate: that model (PRED/%s) predicts only the inputs that a first "
	    "model,\n * of input features alone (no child process), puts at ", PREDICTOR_GATED);
	put_double(sb, gate->info.gate);
	strbuf_addf(sb, " or more; the first model\n * predicts the others (fitted on %d inputs):\n"
	    " *   ", gate->model.ntrain);
	comment_text(sb, formula.buf);
	strbuf_release(&formula);
}

/* Appends the header comment: what the file offers, what it needs, how it was made (bytes:
 * the evaluator's size, sampled_bytes the sampled program's). */
static void header(struct strbuf *sb, const struct predictor *p, const struct predictor *gate,
		   const char *name, size_t bytes, size_t sampled_bytes)
{
	int runs = p->evaluator || p->sampler;
	int probes = (input_helpers(p) | (gate ? input_helpers(gate) : 0)) & INPUT_PROBE;
	int rate = p->model.rate.npoints > 0 || p->model.rate.per_count ||
		   (gate && (gate->model.rate.npoints > 0 || gate->model.rate.per_count));
	const char *math = probes && rate ? " and its math library (-lm: the content features' "
					    "log2, the rate's log and exp)"
			   : probes ? " and its math library (-lm: the content features' log2)"
			   : rate ? " and its math library (-lm: the rate's log and exp)" : "";
	const char *metric = p->info.metric;
	char *what = strcmp(metric, "instructions") == 0 ? xstrdup("number of instructions")
		     : strcmp(metric, "maxrss") == 0 ? xstrdup("peak memory (maxrss) in KiB")
		     : xasprintf("%s time in seconds", metric);
	const char *pred = gate ? gate->dir : p->dir; /* the directory the user exported */
	char *dir = realpath(pred, NULL);
	struct strbuf formula = {0};

	model_format(&p->model, &formula);
	strbuf_addf(sb, "/*\n * The mantis predictor of ");
	comment_text(sb, dir ? dir : pred);
	strbuf_addf(sb, " as one C file, made by mantis export-c\n * (mantis %s). Do not edit: export it "
	    "again after training again.\n *\n *   double %s_predict_stdin(int argc, char **argv, "
	    "const char *input);\n *   double %s_predict(int argc, char **argv);\n *\n"
	    " * argc and argv as the program's main would receive them: argv[0] its name (",
	    MANTIS_VERSION, name, name);
	if (p->m.program) {
		strbuf_addf(sb, "training\n * ran it as ");
		comment_text(sb, p->m.program);
		strbuf_addf(sb, ": a program that reads its own name counts by it),\n * ");
	} else {
		strbuf_addf(sb, "any string),\n * ");
	}
	strbuf_addf(sb, "argv[1..argc) its arguments, files relative to the caller's working "
	    "directory; input\n * the file the program reads as its standard input (NULL: none, "
	    "as %s_predict has it:\n * the standard input empty). Returns the predicted %s,\n"
	    " * or NAN with errno set:\n", name, what);
	strbuf_addf(sb, " *   ENOENT, EACCES  input, or a file an argument names, cannot be read: the "
	    "program would\n *                   fail%s\n", samples_stdin(p) ? " (ENOENT: no input, "
	    "whose samples the model reads)" : "");
	if (p->sampler)
		strbuf_addf(sb, " *   EISDIR          a file the samples are taken from is not a regular "
		    "file\n");
	if (runs)
		strbuf_addf(sb, " *   ETIMEDOUT       the %s ran longer than %d seconds\n"
		    " *   EIO             it crashed, exited non-zero (not an --ok-exit code) or "
		    "wrote\n *                   no features (an exit no training input reached)\n",
		    p->evaluator
		    ? p->sampler ? "evaluator or the sampled program" : "evaluator"
		    : "sampled program", 60);
	strbuf_addf(sb, " *   EINVAL          argc < 1 or no argv[0]\n");
	if (runs)
		strbuf_addf(sb, " *   other           from memfd_create, pipe2, vfork or fexecve%s: it "
		    "could not run\n", p->sampler ? ",\n *                   or mkdtemp, open or "
		    "write (making the samples)" : "");
	strbuf_addf(sb, " * Feature values outside their training range are not reported (mantis predict "
	    "warns).\n *\n * The model (%s, fitted on %d inputs):\n *   ", p->model.algorithm,
	    p->model.ntrain);
	comment_text(sb, formula.buf);
	if (p->model.interval.level > 0 && isfinite(p->model.interval.high))
		strbuf_addf(sb, "\n * Of the training inputs, each held out in turn, %.0f%% measured "
		    "%.3gx to %.3gx\n * the prediction.", 100 * p->model.interval.level,
		    p->model.interval.low, p->model.interval.high);
	if (gate)
		gate_paragraph(sb, gate);
	if (p->sampler)
		strbuf_addf(sb, "\n *\n * Its sampled features (sampled:NAME) are counted by PRED/%s\n"
		    " * (%zu bytes, embedded below) on two samples of the files the arguments and input\n"
		    " * name (positions[] below): FRACTION of their bytes, at least LEAST, in CHUNKS pieces "
		    "spread\n * over each file, and a SMALLER-th of that, written to a private folder in "
		    "/dev/shm\n * (or $TMPDIR, or /tmp) and removed after; each is extrapolated to the "
		    "whole files along\n * the line through the two (sampled-larger: as it is on "
		    "the larger).", p->info.sampled_program,
		    sampled_bytes);
	if (!runs && p->model.nfeatures == 0) {
		strbuf_addf(sb, "\n * It reads no feature: the prediction is a constant, and the file needs "
		    "nothing.\n */\n");
	} else if (!runs) {
		strbuf_addf(sb, "\n *\n * It reads only input features (numeric arguments, sizes of the files "
		    "they name%s),\n * computed here from argv with strtod and stat%s as mantis does: no "
		    "evaluator, no\n * child process. Needs: a POSIX C library%s.\n */\n",
		    probes ? ", the content of the largest" : "",
		    probes ? " and 64 KiB read off the largest file" : "", math);
	} else {
		if (p->evaluator)
			strbuf_addf(sb, "\n *\n * The evaluator (PRED/evaluator, the program sliced down "
			    "to the model's features,\n * %zu bytes) is embedded below.", bytes);
		strbuf_addf(sb, "\n *\n * How: a call copies each program to run into a memfd, vforks "
		    "(no copy of\n * the caller's memory) and runs it with fexecve, "
		    "MANTIS_COUNTERS and\n * MANTIS_READ_FAILURES naming two more memfds "
		    "(/proc/self/fd/N); it changes no file (its\n * runtime discards every write), and "
		    "the features are computed from the counters it\n * writes as mantis computes "
		    "them.\n * Needs: Linux 3.17 or later (memfd_create) "
		    "with /proc mounted, x86-64, the C library\n * the programs were linked with "
		    "(glibc, the one of the machine that trained it)%s", math);
		for (int i = 0; i < p->m.nldflags; i++) {
			strbuf_addf(sb, i ? " " : " and the\n * libraries of ");
			comment_text(sb, p->m.ldflags[i]);
		}
		strbuf_addf(sb, ".\n * A caller that ignores SIGCHLD gets ECHILD. Each call has its own memfds "
		    "and child, which\n * calls only async-signal-safe functions before exec: calls "
		    "from several threads are safe.\n */\n");
	}
	strbuf_release(&formula);
	free(what);
	free(dir);
}

/* Appends the array name[0..bytes) of exe's bytes, after a comment naming what it is. */
static void bytes_array(struct strbuf *sb, const char *what, const char *name,
			const unsigned char *exe, size_t bytes)
{
	strbuf_addf(sb, "\n/* %s */\nstatic const unsigned char %s[%zu] = {", what, name, bytes);
	for (size_t i = 0; i < bytes; i++)
		strbuf_addf(sb, "%s0x%02x,", i % 16 ? " " : "\n\t", exe[i]);
	strbuf_addf(sb, "\n};\n");
}

/* Appends the constants of the sampling plan (sampler.h) and the sampled program's bytes. */
static void sampled_constants(struct strbuf *sb, const struct predictor *p,
			      const unsigned char *exe, size_t bytes)
{
	const struct sampler_plan *plan = &p->info.plan;
	char *what;

	strbuf_addf(sb, "\n/* How the input's files are sampled (predictor.json \"sampled\"). */\n"
	    "enum {\n\tNPOSITIONS = %d, /* files sampled */\n\tCHUNKS = %d, /* pieces of each in a "
	    "sample; BY_LINE: a text file's a line at a time, a binary file's PIECES */\n"
	    "\tBY_LINE = %d, PIECES = %d,\n"
	    "\tSMALLER = %d, /* the larger sample is this many times the smaller */\n"
	    "\tALIGN = %ld, /* a binary file's pieces start at a multiple of this */\n"
	    "\tLINE_REACH = %d, /* a text file's piece starts and ends at a newline this near */\n"
	    "\tSHORT_REACH = %d, /* ... looked for first this near */\n"
	    "\tWINDOW = %d /* pieces closer than this are read this many bytes at a time */\n"
	    "};\n/* The larger sample's share of the files, raised to LEAST bytes in all. */\n"
	    "static const double FRACTION = ", plan->npositions, plan->chunks, SAMPLER_BY_LINE,
	    SAMPLER_CHUNKS, sampler_smaller(plan), sampler_align(plan), SAMPLER_LINE_REACH, SAMPLER_SHORT_REACH,
	    SAMPLER_WINDOW);
	put_double(sb, plan->fraction);
	strbuf_addf(sb, ", LEAST = %ld;\n/* The files: N for argv[N], -N for argv[argc - N], 0 for input (the standard input). */\n"
	    "static const int positions[NPOSITIONS] = {", sampler_least(plan));
	for (int i = 0; i < plan->npositions; i++)
		strbuf_addf(sb, "%s%d", i ? ", " : "", plan->positions[i]);
	strbuf_addf(sb, "};\n/* 1 for a position sampled where the input names a file there, none "
	    "required. */\nstatic const int optional[NPOSITIONS] = {");
	for (int i = 0; i < plan->npositions; i++)
		strbuf_addf(sb, "%s%d", i ? ", " : "", sampler_optional(plan, i));
	strbuf_addf(sb, "};\n");
	what = xasprintf("PRED/%s", p->info.sampled_program);
	bytes_array(sb, what, "sampled", exe, bytes);
	free(what);
}

/* Appends the constants and the evaluator's bytes. */
static void constants(struct strbuf *sb, const struct predictor *p, const struct used *u,
		      const unsigned char *exe, size_t bytes)
{
	strbuf_addf(sb, "\nenum {\n\tNCOUNTERS = %d, /* counters the instrumented build keeps */\n"
	    "\tNUSED = %d, /* counters the model's features read */\n"
	    "\tBUDGET_SECONDS = 60 /* the evaluator is killed after this long */\n};\n"
	    "\n/* The instrumented build's id: the counters file must carry it. */\n"
	    "static const uint64_t BUILD_ID = UINT64_C(0x%016" PRIx64 ");\n"
	    "\n/* The program's exit codes besides 0 that are a result, not a failure (bit c for code\n"
	    " * c: train's --ok-exit). */\n"
	    "static const uint64_t OK_EXITS = UINT64_C(0x%016" PRIx64 ");\n"
	    "\n/* The counters read, by index; c[i] below holds counter used[i]. */\n"
	    "static const uint32_t used[NUSED + 1] = {", p->m.ncounters, u->n, p->m.build_id,
	    p->info.ok_exits);
	for (int i = 0; i < u->n; i++)
		strbuf_addf(sb, "%s%d", i ? ", " : "", u->counter[i]);
	strbuf_addf(sb, "%s0};\n", u->n ? ", " : "");
	if (exe)
		bytes_array(sb, "PRED/evaluator", "evaluator", exe, bytes);
}

/* Returns the manifest feature model feature i is computed from (itself, or the one a sampled
 * feature extrapolates), or NULL for an input feature. */
static const struct feature *counted(const struct predictor *p, int i)
{
	return p->feature[i] >= 0 ? &p->m.v[p->feature[i]]
	       : p->sampled[i] >= 0 ? &p->m.v[p->sampled[i]] : NULL;
}

/* Returns whether model feature i is a sampled one extrapolated to the whole files (along the
 * line or the parabola), not read off the larger sample as it is (sampled-larger:) nor computed
 * otherwise. */
static int extrapolates(const struct predictor *p, int i)
{
	return p->sampled[i] >= 0 && !sampler_is_larger(p->model.features[i].name);
}

/* Returns whether some model feature is extrapolated (extrapolates): the file then needs
 * extrapolated_text. */
static int extrapolates_any(const struct predictor *p)
{
	for (int i = 0; i < p->model.nfeatures; i++) {
		if (extrapolates(p, i))
			return 1;
	}
	return 0;
}

/* Appends feature_I(c): model feature i (or the feature a sampled one extrapolates) from the
 * used counters, as feature_value does. */
static void feature_function(struct strbuf *sb, const struct predictor *p, const struct used *u,
			     int i)
{
	const struct feature *f = counted(p, i);

	strbuf_addf(sb, "/* ");
	comment_text(sb, f->name);
	strbuf_addf(sb, ": ");
	comment_text(sb, f->description);
	strbuf_addf(sb, extrapolates(p, i) ? " (on a sample: the model reads it extrapolated to the "
	    "whole files, trained on %.17g to %.17g) */\n" : p->sampled[i] >= 0 ? " (on a sample: "
	    "the model reads the larger sample's, trained on %.17g to %.17g) */\n"
	    : " (trained on %.17g to %.17g) */\n",
	    p->model.features[i].min, p->model.features[i].max);
	strbuf_addf(sb, "static double feature_%d(const uint64_t *c)\n{\n\tuint64_t sum = 0", i);
	for (int t = 0; t < f->nterms; t++) {
		int64_t coef = f->terms[t].coef;

		if (coef == INT64_MIN)
			strbuf_addf(sb, " + (uint64_t)INT64_MIN");
		else
			strbuf_addf(sb, " + (uint64_t)INT64_C(%" PRId64 ")", coef);
		strbuf_addf(sb, " * c[%d]", slot(u, f->terms[t].counter));
	}
	strbuf_addf(sb, ";\n\n");
	if (f->denominator >= 0)
		strbuf_addf(sb, "\treturn (c[%d] ? (double)(int64_t)sum / (double)c[%d] : 0)",
		    slot(u, f->denominator), slot(u, f->denominator));
	else
		strbuf_addf(sb, "\treturn (double)(int64_t)sum");
	if (f->shift) /* fixed point: a power of two, printed exactly */
		strbuf_addf(sb, " / %.17g", ldexp(1, f->shift));
	strbuf_addf(sb, ";\n}\n\n");
}

/* Returns 1 if feature i of m has a training range model_eval continues the model past. */
static int has_range(const struct model *m, int i)
{
	return m->features[i].min < m->features[i].max;
}

/* Appends e[i] = x[i] clamped to its training range, as model_edge computes it. */
static void edges(struct strbuf *sb, const struct model *m)
{
	for (int i = 0; i < m->nfeatures; i++) {
		if (!has_range(m, i)) {
			strbuf_addf(sb, "\te[%d] = x[%d];\n", i, i);
			continue;
		}
		strbuf_addf(sb, "\te[%d] = x[%d] < ", i, i);
		put_double(sb, m->features[i].min);
		strbuf_addf(sb, " ? ");
		put_double(sb, m->features[i].min);
		strbuf_addf(sb, " : x[%d] > ", i);
		put_double(sb, m->features[i].max);
		strbuf_addf(sb, " ? ");
		put_double(sb, m->features[i].max);
		strbuf_addf(sb, " : x[%d];\n", i);
	}
}

/* Appends the linear continuation of feature i past its range, as model_eval adds it: the sum
 * over the terms that hold it of coef * monomial_slope at e, times x[i] - e[i]. */
static void continuation(struct strbuf *sb, const struct model *m, int i)
{
	int used = 0;

	for (int t = 0; t < m->nterms; t++)
		used |= monomial_has(&m->terms[t].m, i);
	if (!has_range(m, i) || !used)
		return;
	strbuf_addf(sb, "\tif (x[%d] != e[%d]) {\n\t\tdouble s = 0;\n\n", i, i);
	for (int t = 0; t < m->nterms; t++) {
		const struct monomial *mono = &m->terms[t].m;

		if (!monomial_has(mono, i))
			continue;
		for (int f = 0; f < mono->nf; f++) {
			if (mono->feat[f] == i)
				strbuf_addf(sb, "\t\tv = %d;\n", mono->pow[f]);
		}
		for (int f = 0; f < mono->nf; f++) {
			for (int k = 0; k < mono->pow[f] - (mono->feat[f] == i); k++)
				strbuf_addf(sb, "\t\tv *= e[%d];\n", mono->feat[f]);
		}
		strbuf_addf(sb, "\t\ts += ");
		put_double(sb, m->terms[t].coef);
		strbuf_addf(sb, " * v;\n");
	}
	strbuf_addf(sb, "\t\ty += s * (x[%d] - e[%d]);\n\t}\n", i, i);
}

/* Appends the constant array name[n] of the doubles v, four a line. */
static void double_array(struct strbuf *sb, const char *name, const double *v, int n)
{
	strbuf_addf(sb, "static const double %s[%d] = {", name, n);
	for (int i = 0; i < n; i++) {
		strbuf_addf(sb, "%s", i % 4 ? " " : "\n\t");
		put_double(sb, v[i]);
		strbuf_addf(sb, ",");
	}
	strbuf_addf(sb, "\n};\n");
}

/* Appends the lines of function_rate that compute slope, a rate model's slope in log scale
 * (model.c's rate_slope, operation for operation) over the training inputs within cutm. */
static void rate_slope_lines(struct strbuf *sb, const struct model_rate *r, const char *function)
{
	int na = r->naxes > 0 ? r->naxes : 1;

	strbuf_addf(sb, "\tfor (int a = 0; a < %d; a++) {\n"
	    "\t\tfor (int b = a + 1; b < %d && d[a] <= cutm; b++) {\n"
	    "\t\t\tdouble dx = %s_scales[a] - %s_scales[b], like = 0;\n\n"
	    "\t\t\tif (d[b] > cutm || fabs(dx) <= ", r->npoints, r->npoints, function, function);
	put_double(sb, MODEL_RATE_SPAN);
	strbuf_addf(sb, ")\n\t\t\t\tcontinue;\n\t\t\tfor (int j = 0; j < %d; j++) {\n"
	    "\t\t\t\tif (%s_like[j])\n\t\t\t\t\tlike += (%s_points[a * %d + j] - %s_points[b * %d + j]) "
	    "*\n\t\t\t\t\t\t(%s_points[a * %d + j] - %s_points[b * %d + j]);\n\t\t\t}\n"
	    "\t\t\tif (like >= ", na, function, function, na, function, na, function, na, function,
	    na);
	put_double(sb, MODEL_RATE_ALIKE);
	strbuf_addf(sb, ")\n\t\t\t\tcontinue;\n\t\t\tsxy += (%s_logs[a] - %s_logs[b]) * dx;\n"
	    "\t\t\tsxx += dx * dx;\n\t\t}\n\t}\n\tslope = sxx > 0 ? fmax(-", function, function);
	put_double(sb, MODEL_RATE_SLOPE);
	strbuf_addf(sb, ", fmin(");
	put_double(sb, MODEL_RATE_SLOPE);
	strbuf_addf(sb, ", sxy / sxx)) : 0;\n");
}

/* Appends the constant arrays of rate r's base, function_knotsJ and function_effectsJ for
 * each axis J with knots, and function_part(), model_axis_base operation for operation. */
static void rate_base_arrays(struct strbuf *sb, const struct model_rate *r, const char *function)
{
	strbuf_addf(sb, "/* The base: a line through each base axis's knots (coordinates) and "
	    "effects (log rates). */\n");
	for (int j = 0; j < r->naxes; j++) {
		char *name;

		if (r->axes[j].nknots == 0)
			continue;
		name = xasprintf("%s_knots%d", function, j);
		double_array(sb, name, r->axes[j].knot, r->axes[j].nknots);
		free(name);
		name = xasprintf("%s_effects%d", function, j);
		double_array(sb, name, r->axes[j].effect, r->axes[j].nknots);
		free(name);
	}
	strbuf_addf(sb, "\nstatic double %s_part(const double *knot, const double *effect, int m, "
	    "double x)\n{\n\tint j = 0;\n\n\tif (x <= knot[0])\n\t\treturn effect[0];\n"
	    "\tif (x >= knot[m - 1])\n\t\treturn effect[m - 1];\n\twhile (x >= knot[j + 1])\n"
	    "\t\tj++;\n\treturn effect[j] + (x - knot[j]) / (knot[j + 1] - knot[j]) *\n"
	    "\t\t\t\t      (effect[j + 1] - effect[j]);\n}\n", function);
}

/* Appends the lines of function_log that compute base, rate r's base at the coordinates q
 * (model_rate_base, operation for operation). */
static void rate_base_lines(struct strbuf *sb, const struct model_rate *r, const char *function)
{
	strbuf_addf(sb, "\tbase = 0;\n");
	for (int j = 0; j < r->naxes; j++) {
		if (r->axes[j].nknots > 0)
			strbuf_addf(sb, "\tbase += %s_part(%s_knots%d, %s_effects%d, %d, q[%d]);\n",
			    function, function, j, function, j, r->axes[j].nknots, j);
	}
}

/* Appends function_log(x), rate r's own mean log rate (not its bag's) at the features x
 * (model_rate_values_log, operation for operation: the same coordinates, distances, ties,
 * slope and sum), with its training inputs' coordinates, log rates (and log scales) as
 * constants. */
static void rate_own_function(struct strbuf *sb, const struct model_rate *r, const char *function)
{
	int na = r->naxes > 0 ? r->naxes : 1, slope = r->slope_near > 0;
	int based = model_rate_has_base(r);
	double *points = xcalloc((size_t)r->npoints * (size_t)na, sizeof *points);
	double *logs = xcalloc((size_t)r->npoints + 1, sizeof *logs);
	char *name;

	if (r->naxes > 0)
		memcpy(points, r->point, sizeof *points * (size_t)r->npoints * (size_t)na);
	for (int i = 0; i < r->npoints; i++) /* less the base: model_rate_log's residuals */
		logs[i] = based ? r->log_rate[i] - model_rate_base(r, r->point + (size_t)i *
								  (size_t)r->naxes)
				: r->log_rate[i];
	strbuf_addf(sb, "/* The rate model's %d training inputs: their coordinates (%d a row), log "
	    "rates%s%s. */\n", r->npoints, r->naxes, based ? " less the base" : "",
	    slope ? " and log scales" : "");
	name = xasprintf("%s_points", function);
	double_array(sb, name, points, r->npoints * na);
	free(name);
	name = xasprintf("%s_logs", function);
	double_array(sb, name, logs, r->npoints);
	free(name);
	free(points);
	free(logs);
	if (based)
		rate_base_arrays(sb, r, function);
	if (slope) {
		name = xasprintf("%s_scales", function);
		double_array(sb, name, r->log_scale, r->npoints);
		free(name);
		strbuf_addf(sb, "/* The axes a like pair is alike in: all but the scale's own. */\n"
		    "static const int %s_like[%d] = {", function, na);
		for (int j = 0; j < na; j++)
			strbuf_addf(sb, "%s%d", j ? ", " : "", j < r->naxes && r->axes[j].feature != r->scale);
		strbuf_addf(sb, "};\n");
	}
	strbuf_addf(sb, "\nstatic int %s_ascending(const void *a, const void *b)\n{\n"
	    "\tdouble x = *(const double *)a, y = *(const double *)b;\n\n"
	    "\treturn (x > y) - (x < y);\n}\n\n", function);
	strbuf_addf(sb, "/* Returns the mean log rate of the %d training inputs nearest x,\n * and every "
	    "other as near as the %d-th%s%s. */\nstatic double %s_log(const double *x)\n{\n"
	    "\tdouble q[%d], d[%d], sorted[%d], kth, sum = 0%s%s;\n\tint used = 0;\n\n", r->k,
	    r->k, slope ? ", moved along the slope in log scale" : "",
	    based ? ",\n * less the base at them, plus the base at x" : "", function, na, r->npoints,
	    r->npoints, slope ? ", cutm, sxy = 0, sxx = 0, slope, lq" : "", based ? ", base" : "");
	for (int j = 0; j < r->naxes; j++) {
		const struct model_axis *a = &r->axes[j];

		if (a->phase) /* as model_axis_coordinate computes it, op for op */
			strbuf_addf(sb, "\tq[%d] = (%s(%.17g * log2(fmax(x[%d], "
			    "2.2250738585072014e-308))) - ", j, a->phase == MODEL_PHASE_COS ? "cos"
			    : "sin", MODEL_TWO_PI, a->feature);
		else
			strbuf_addf(sb, "\tq[%d] = (%s(x[%d]%s) - ", j, a->log ? "log(fmax" : "",
			    a->feature, a->log ? ", 2.2250738585072014e-308)" : "");
		put_double(sb, a->centre);
		strbuf_addf(sb, ") / ");
		put_double(sb, a->spread);
		strbuf_addf(sb, ";\n");
	}
	if (r->naxes == 0) /* no axis: every training input counts, and x is read for a slope */
		strbuf_addf(sb, "\tq[0] = 0;\n%s", slope ? "" : "\t(void)x;\n");
	strbuf_addf(sb, "\tfor (int i = 0; i < %d; i++) {\n\t\td[i] = 0;\n"
	    "\t\tfor (int j = 0; j < %d; j++)\n\t\t\td[i] += (%s_points[i * %d + j] - q[j]) * "
	    "(%s_points[i * %d + j] - q[j]);\n\t\tsorted[i] = d[i];\n\t}\n", r->npoints, r->naxes,
	    function, na, function, na);
	strbuf_addf(sb, "\tqsort(sorted, %d, sizeof *sorted, %s_ascending);\n\tkth = sorted[%d];\n"
	    "\tkth += 1e-12 * (1 + kth);\n", r->npoints, function,
	    (r->k < r->npoints ? r->k : r->npoints) - 1);
	if (slope) {
		strbuf_addf(sb, "\tcutm = sorted[%d];\n\tcutm += 1e-12 * (1 + cutm);\n"
		    "\tlq = log(fmax(x[%d], 2.2250738585072014e-308));\n",
		    (r->slope_near < r->npoints ? r->slope_near : r->npoints) - 1, r->scale);
		rate_slope_lines(sb, r, function);
	}
	strbuf_addf(sb, "\tfor (int i = 0; i < %d; i++) {\n\t\tif (d[i] <= kth) {\n"
	    "\t\t\tsum += %s_logs[i]", r->npoints, function);
	if (slope)
		strbuf_addf(sb, " + slope * (lq - %s_scales[i])", function);
	strbuf_addf(sb, ";\n\t\t\tused++;\n\t\t}\n\t}\n");
	if (based)
		rate_base_lines(sb, r, function);
	strbuf_addf(sb, "\treturn %ssum / used;\n}\n\n", based ? "base + " : "");
}

/* Appends function_log(x), rate r's log rate at the features x (model_rate_values_log): its
 * own (rate_own_function), or of a bagged rate the mean of its own (function_own_log) and its
 * bag's (function_bagB_log), summed in model.c's order. */
static void rate_log_function(struct strbuf *sb, const struct model_rate *r, const char *function)
{
	char *name;

	if (r->nbag == 0) {
		rate_own_function(sb, r, function);
		return;
	}
	name = xasprintf("%s_own", function);
	rate_own_function(sb, r, name);
	free(name);
	for (int b = 0; b < r->nbag; b++) {
		name = xasprintf("%s_bag%d", function, b);
		rate_own_function(sb, &r->bag[b], name);
		free(name);
	}
	strbuf_addf(sb, "/* Returns the mean of the %d log rates above. */\nstatic double %s_log(const "
	    "double *x)\n{\n\tdouble sum = %s_own_log(x);\n\n", r->nbag + 1, function, function);
	for (int b = 0; b < r->nbag; b++)
		strbuf_addf(sb, "\tsum += %s_bag%d_log(x);\n", function, b);
	strbuf_addf(sb, "\treturn sum / %d;\n}\n\n", r->nbag + 1);
}

/* Appends function_rate(x), a rate model's prediction from the features x (model_rate_eval,
 * operation for operation): the scale times exp of the log rate (function_log), plus, through
 * the instructions, the time an instruction's (function_per_log). */
static void rate_function(struct strbuf *sb, const struct model *m, const char *function)
{
	const struct model_rate *r = &m->rate;
	char *per = xasprintf("%s_per", function);

	rate_log_function(sb, r, function);
	if (r->per_count)
		rate_log_function(sb, r->per_count, per);
	strbuf_addf(sb, "/* Returns the scale x[%d] times the rate%s. */\nstatic double %s_rate(const "
	    "double *x)\n{\n\treturn x[%d] * exp(%s_log(x)%s%s%s);\n}\n\n", r->scale, r->per_count
	    ? " of the instructions a unit times the rate of the metric an instruction" : "",
	    function, r->scale, function, r->per_count ? " + " : "", r->per_count ? per : "",
	    r->per_count ? "_log(x)" : "");
	free(per);
}

/* Appends the function called function (exported: with its prototype; else static) that
 * predicts by p for argc, argv and the standard input read from input: the checks of input
 * and of the files whose size it reads, the evaluator's run, the features, then the model term
 * by term, continued past the training ranges, and through the instruction count times the
 * time an instruction's rate (function_per_log), the floor for zero or less, as model_eval
 * computes it. */
static void predict_function(struct strbuf *sb, const struct predictor *p, const char *function,
			     int exported)
{
	const struct model *m = &p->model;
	char *per = xasprintf("%s_per", function);

	if (m->rate.npoints > 0)
		rate_function(sb, m, function);
	else if (m->rate.per_count)
		rate_log_function(sb, m->rate.per_count, per);
	free(per);
	if (exported)
		strbuf_addf(sb, "double %s(int argc, char **argv, const char *input);\n\ndouble %s("
		    "int argc, char **argv, const char *input)\n{\n", function, function);
	else
		strbuf_addf(sb, "static double %s(int argc, char **argv, const char *input)\n{\n",
		    function);
	if (m->nfeatures == 0) {
		strbuf_addf(sb, "\tif (argc < 1 || !argv || !argv[0]) {\n"
		    "\t\terrno = EINVAL;\n\t\treturn NAN;\n\t}\n"
		    "\tif (input && access(input, R_OK) < 0)\n\t\treturn NAN;\n\treturn ");
		put_double(sb, m->intercept);
		strbuf_addf(sb, ";\n}\n");
		return;
	}
	if (p->evaluator)
		strbuf_addf(sb, "\tuint64_t c[NUSED + 1];\n");
	if (p->nsampled)
		strbuf_addf(sb, "\tuint64_t ca[NUSED + 1], cb[NUSED + 1];\n\tdouble share[2];\n");
	if (input_helpers(p) & INPUT_PROBE)
		strbuf_addf(sb, "\tdouble probed[3];\n");
	if (input_helpers(p) & INPUT_SCRIPT)
		strbuf_addf(sb, "\tdouble numbers[16];\n");
	strbuf_addf(sb, "\tdouble x[%d], e[%d], y, v;\n\n\tif (argc < 1 || !argv || !argv[0]) {\n"
	    "\t\terrno = EINVAL;\n\t\treturn NAN;\n\t}\n\tif (input && access(input, R_OK) < 0)\n"
	    "\t\treturn NAN;\n", m->nfeatures, m->nfeatures);
	for (int i = 0; i < m->nfeatures; i++) {
		if (p->descriptor[i] >= 0 && checked_size(p, i))
			strbuf_addf(sb, "\tif (readable_argument(argc, argv, %d) < 0)\n\t\treturn NAN;\n",
			    p->descriptor[i] - DESCRIPTOR_ARGS + 1);
	}
	if (input_helpers(p) & INPUT_PROBE)
		probe_call(sb, p);
	if (input_helpers(p) & INPUT_FIELD)
		field_check(sb, p);
	if (input_helpers(p) & INPUT_SCRIPT)
		script_call(sb, p);
	if (p->nsampled)
		strbuf_addf(sb, "\tif (samples_readable(argc, argv, input) < 0)\n\t\treturn NAN;\n");
	if (p->evaluator)
		strbuf_addf(sb, "\tif (run_program(evaluator, sizeof evaluator, argc, argv, input, c) < "
		    "0)\n\t\treturn NAN;\n");
	if (p->nsampled)
		strbuf_addf(sb, "\tif (run_samples(argc, argv, input, ca, cb, share) < 0)\n"
		    "\t\treturn NAN;\n");
	for (int i = 0; i < m->nfeatures; i++) {
		if (p->feature[i] >= 0) {
			strbuf_addf(sb, "\tx[%d] = feature_%d(c);\n", i, i);
			continue;
		}
		if (extrapolates(p, i)) {
			strbuf_addf(sb, "\tx[%d] = share[0] < 1 ? extrapolated(feature_%d(ca), "
			    "feature_%d(cb), share, %d) : feature_%d(ca);\n", i, i, i,
			    sampler_way_of(m->features[i].name) == SAMPLER_QUADRATIC, i);
			continue;
		}
		if (p->sampled[i] >= 0) { /* sampled-larger: as it is on the larger sample */
			strbuf_addf(sb, "\tx[%d] = feature_%d(ca);\n", i, i);
			continue;
		}
		strbuf_addf(sb, "\tx[%d] = ", i);
		input_expression(sb, p->descriptor[i], m->features[i].name);
		strbuf_addf(sb, "; /* ");
		comment_text(sb, m->features[i].name);
		strbuf_addf(sb, " */\n");
	}
	if (m->rate.npoints > 0) {
		strbuf_addf(sb, "\t(void)e;\n\t(void)y;\n\t(void)v;\n\treturn %s_rate(x);\n}\n",
		    function);
		return;
	}
	edges(sb, m);
	strbuf_addf(sb, "\ty = ");
	put_double(sb, m->intercept);
	strbuf_addf(sb, ";\n");
	for (int t = 0; t < m->nterms; t++) {
		const struct model_term *term = &m->terms[t];

		strbuf_addf(sb, "\tv = 1;\n");
		for (int i = 0; i < term->m.nf; i++) {
			for (int k = 0; k < term->m.pow[i]; k++)
				strbuf_addf(sb, "\tv *= e[%d];\n", term->m.feat[i]);
		}
		strbuf_addf(sb, "\ty += ");
		put_double(sb, term->coef);
		strbuf_addf(sb, " * v;\n");
	}
	for (int i = 0; i < m->nfeatures; i++)
		continuation(sb, m, i);
	if (m->rate.per_count)
		strbuf_addf(sb, "\ty *= exp(%s_per_log(x));\n", function);
	if (m->floored) { /* model_floored */
		strbuf_addf(sb, "\tif (y <= 0 && y < ");
		put_double(sb, m->floor);
		strbuf_addf(sb, ")\n\t\ty = ");
		put_double(sb, m->floor);
		strbuf_addf(sb, ";\n");
	}
	strbuf_addf(sb, "\treturn y;\n}\n");
}

/* Appends NAME_predict_stdin for a gated pair, as predictor_run chooses: the first model (of
 * input features alone: NAME_first, which refuses what its checks refuse) decides, and
 * NAME_long (PRED/long) predicts an input it puts at the gate or more. */
static void gated_function(struct strbuf *sb, const struct predictor *p, const char *name)
{
	strbuf_addf(sb, "\ndouble %s_predict_stdin(int argc, char **argv, const char *input);\n\n"
	    "double %s_predict_stdin(int argc, char **argv, const char *input)\n{\n\tdouble first = "
	    "%s_first(argc, argv, input);\n\n\treturn isnan(first) || first < ", name, name, name);
	put_double(sb, p->info.gate);
	strbuf_addf(sb, " ? first : %s_long(argc, argv, input);\n}\n", name);
}

/* Appends NAME_predict: NAME_predict_stdin with an empty standard input. */
static void empty_stdin_function(struct strbuf *sb, const char *name)
{
	strbuf_addf(sb, "\ndouble %s_predict(int argc, char **argv);\n\ndouble %s_predict(int argc, "
	    "char **argv)\n{\n\treturn %s_predict_stdin(argc, argv, NULL);\n}\n", name, name, name);
}

int exportc_write(const struct predictor *gate, const char *name, const char *path,
		  struct error *err)
{
	/* p: the predictor that runs programs, PRED/long with a gate (whose model reads input
	 * features alone, and runs nothing) */
	const struct predictor *p = gate->gated ? gate->gated : gate;
	char *function;
	struct strbuf sb = {0};
	struct used u = {0};
	unsigned char *exe = NULL, *sampled = NULL;
	size_t bytes = 0, sampled_bytes = 0;
	int rc;

	if (p->evaluator && !(exe = (unsigned char *)read_file(p->evaluator, &bytes, "the evaluator ",
							       err)))
		return -1;
	if (p->sampler && !(sampled = (unsigned char *)read_file(p->sampler, &sampled_bytes,
								 "the sampled program ", err))) {
		free(exe);
		return -1;
	}
	header(&sb, p, gate->gated ? gate : NULL, name, bytes, sampled_bytes);
	strbuf_addf(&sb, "#define _GNU_SOURCE\n#include <errno.h>\n#include <math.h>\n"
	    "#include <stddef.h>\n#include <unistd.h>\n");
	if (p->model.nfeatures > 0)
		strbuf_addf(&sb, "#include <fcntl.h>\n#include <signal.h>\n#include <stdint.h>\n"
		    "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
		    "#include <sys/mman.h>\n#include <sys/stat.h>\n#include <sys/types.h>\n"
		    "#include <sys/wait.h>\n\n"
		    "#ifdef __clang__\n#pragma STDC FP_CONTRACT OFF /* a * b + c rounded twice, "
		    "as in mantis */\n#endif\n");
	if (exe || sampled) {
		for (int i = 0; i < p->model.nfeatures; i++) {
			const struct feature *f = counted(p, i);

			for (int t = 0; f && t < f->nterms; t++)
				use(&u, f->terms[t].counter);
			if (f && f->denominator >= 0)
				use(&u, f->denominator);
		}
		constants(&sb, p, &u, exe, bytes);
		if (sampled)
			sampled_constants(&sb, p, sampled, sampled_bytes);
		strbuf_addf(&sb, "\n");
		lines(&sb, runtime_text, sizeof runtime_text / sizeof *runtime_text);
	}
	if (sampled) {
		strbuf_addf(&sb, "\n");
		lines(&sb, samples_text, sizeof samples_text / sizeof *samples_text);
		if (extrapolates_any(p))
			lines(&sb, extrapolated_text,
			      sizeof extrapolated_text / sizeof *extrapolated_text);
	}
	input_functions(&sb, input_helpers(p) | input_helpers(gate));
	if (exe || sampled) {
		strbuf_addf(&sb, "\n/* ---- the model "
		    "------------------------------------------------------------------------ */\n\n");
		for (int i = 0; i < p->model.nfeatures; i++) {
			if (counted(p, i))
				feature_function(&sb, p, &u, i);
		}
	} else {
		strbuf_addf(&sb, "\n");
	}
	if (gate->gated) {
		function = xasprintf("%s_long", name);
		predict_function(&sb, p, function, 0);
		free(function);
		function = xasprintf("%s_first", name);
		strbuf_addf(&sb, "\n");
		predict_function(&sb, gate, function, 0);
		free(function);
		gated_function(&sb, gate, name);
	} else {
		function = xasprintf("%s_predict_stdin", name);
		predict_function(&sb, p, function, 1);
		free(function);
	}
	empty_stdin_function(&sb, name);
	rc = write_file(path, sb.buf, sb.len, err);
	strbuf_release(&sb);
	free(u.counter);
	free(exe);
	free(sampled);
	return rc;
}
