/*
 * test_solib.c: an evaluator's shared-object form run in this process (solib.h, rt/inproc.c).
 * A stand-in evaluator, built as slice.c builds one (slicert.o, inproc.o, -shared -Bsymbolic),
 * ends in each way a program ends (main's return, exit from a nested call with an atexit
 * handler, abort, a crash, a loop past the time budget) and solib_run reports each as runner.c
 * reports a process; its globals start afresh on every run; what it does to the process
 * (prints, close(1), setenv, chdir, signal, a file left open, a stream on descriptor 1, a file
 * written) is undone or never reaches the caller; a signal outside a run reaches the caller's
 * action; what it leaves allocated and open is given
 * back (200 runs leave the caller's heap as it was); a run that reaches fork ends as killed by
 * SIGSYS, the caller going on; an object that calls setuid is refused by name. The object stays
 * loaded between runs, its writable data put back, unless a crash or thread-local storage.
 * Needs MANTIS_RUNTIME (tests/run sets it): slicert.o and inproc.o are beside it.
 */
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define TEST_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_LSAN 1
#endif
#endif
#ifdef TEST_LSAN
#include <sanitizer/allocator_interface.h>
#endif

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "solib.h"
#include "tests.h"
#include "util.h"

/* The stand-in: argv[1] says how it ends; counter 0 gets what it computed. */
static const char evaluator[] =
	"#include <signal.h>\n"
	"#include <stdint.h>\n"
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"#include <string.h>\n"
	"#include <unistd.h>\n"
	"const uint64_t __mantis_ncounters = 2, __mantis_build_id = 7;\n"
	"void __mantis_slice_emit(uint64_t counter, uint64_t value);\n"
	"void __mantis_slice_flush(void);\n"
	"static int runs;\n"
	"static void *volatile kept[102];\n"
	"static void record(uint64_t v) { __mantis_slice_emit(0, v); __mantis_slice_flush(); }\n"
	"static void handler(void) { record(42); }\n"
	"static void deep(int n) { if (n == 0) exit(3); deep(n - 1); }\n"
	"int main(int argc, char **argv) {\n"
	"	const char *how = argc > 1 ? argv[1] : \"\";\n"
	"	runs++;\n"
	"	if (!strcmp(how, \"return\")) { record((uint64_t)runs); return 5; }\n"
	"	if (!strcmp(how, \"exit\")) { atexit(handler); deep(10); }\n"
	"	if (!strcmp(how, \"abort\")) abort();\n"
	"	if (!strcmp(how, \"crash\")) { volatile int *p = 0; *p = 1; }\n"
	"	if (!strcmp(how, \"spin\")) for (volatile long i = 0;; i++) ;\n"
	"	if (!strcmp(how, \"stdin\")) {\n"
	"		uint64_t n = 0; while (getchar() != EOF) n++; record(n); return 0;\n"
	"	}\n"
	"	if (!strcmp(how, \"noise\")) {\n"
	"		FILE *out = fopen(\"out.txt\", \"w\");\n"
	"		fputs(\"written\", out);\n"
	"		printf(\"printed\\n\"); fprintf(stderr, \"complained\\n\");\n"
	"		close(1); close(2); setenv(\"MANTIS_SOLIB_TEST\", \"set\", 1); chdir(\"/\");\n"
	"		signal(SIGSEGV, SIG_IGN); fopen(argv[2], \"r\"); fdopen(1, \"w\");\n"
	"		record(7); exit(0);\n"
	"	}\n"
	"	if (!strcmp(how, \"leave\")) {\n"
	"		char *big = malloc(1 << 20), *line = NULL, *copy = strdup(how);\n"
	"		char *grown = realloc(malloc(10), 200000);\n"
	"		FILE *in = fopen(argv[2], \"r\");\n"
	"		void *aligned;\n"
	"		size_t n = 0;\n"
	"		kept[0] = big;\n"
	"		kept[1] = grown;\n"
	"		for (int i = 0; i < 100; i++) kept[2 + i] = malloc(100);\n"
	"		getline(&line, &n, in);\n"
	"		if (posix_memalign(&aligned, 64, 4096) == 0) record(strlen(line) + (copy != 0));\n"
	"		return 0;\n"
	"	}\n"
	"	return 9;\n"
	"}\n";

/* A stand-in that would fork when given an argument: it ends there. */
static const char forking[] =
	"#include <stdint.h>\n"
	"#include <unistd.h>\n"
	"const uint64_t __mantis_ncounters = 1, __mantis_build_id = 7;\n"
	"int main(int argc, char **argv) { (void)argv; return argc > 1 ? fork() > 0 : 3; }\n";

/* A stand-in with thread-local storage, counting its runs there: fresh per load. */
static const char thread_local_runs[] =
	"#include <stdint.h>\n"
	"const uint64_t __mantis_ncounters = 1, __mantis_build_id = 7;\n"
	"static __thread int runs;\n"
	"int main(void) { return ++runs; }\n";

/* A stand-in that would change its user: refused. */
static const char setting_uid[] =
	"#include <unistd.h>\n"
	"int main(void) { return setuid(0); }\n";

/* Builds source (written to dir/name.c) into dir/name.so as slice.c builds an evaluator's
 * shared-object form; returns its path (owned). */
static char *build_object(const char *dir, const char *name, const char *source)
{
	const char *runtime = getenv("MANTIS_RUNTIME");
	char *file = xasprintf("%s.c", name), *c = test_write_file(dir, file, source);
	char *rt = runtime ? xstrdup(runtime) : NULL, *so = xasprintf("%s/%s.so", dir, name);
	char *slicert, *inproc;
	struct error err = {""};

	ck_assert_msg(rt != NULL, "MANTIS_RUNTIME must be set (tests/run does)");
	*strrchr(rt, '/') = '\0';
	slicert = xasprintf("%s/slicert.o", rt);
	inproc = xasprintf("%s/inproc.o", rt);
	{
		char *argv[] = {"clang-14", "-O1", "-w", "-fPIC", "-shared", "-Wl,-Bsymbolic", "-o", so,
				c, slicert, inproc, NULL};

		ck_assert_msg(run_command_quiet(argv, NULL, &err) == 0, "%s", err.msg);
	}
	free(file);
	free(c);
	free(rt);
	free(slicert);
	free(inproc);
	return so;
}

/* Runs so with words (NULL-ended) and stdin_path, counters written to dir/counters; returns the
 * value of counter 0 (-1 if no counters file). */
static long long run(const char *so, const char *dir, char **words, const char *stdin_path,
		     double timeout, struct run_result *res)
{
	char *counters = xasprintf("%s/counters", dir), *env[2];
	struct input in = {.line = 1, .argv = words, .stdin_path = (char *)stdin_path};
	struct run_options opt = {.timeout = timeout, .scratch_parent = dir, .argv0 = "prog"};
	struct error err = {""};
	unsigned char b[64];
	long long value = -1;
	int fd;

	while (words[in.argc])
		in.argc++;
	env[0] = xasprintf("MANTIS_COUNTERS=%s", counters);
	env[1] = NULL;
	opt.env = env;
	unlink(counters);
	ck_assert_msg(solib_run(so, &in, &opt, res, &err) == 0, "%s", err.msg);
	if ((fd = open(counters, O_RDONLY)) >= 0) {
		/* slicert.c's sparse form: header, one pair (counter 0, its value), none for 0 */
		ssize_t got = read(fd, b, sizeof b);

		ck_assert_msg(got == 48 || got == 32, "%s: not one pair or none", words[0]);
		ck_assert_int_eq(memcmp(b, "MANTISC2", 8), 0);
		ck_assert_int_eq(b[24], got == 48);
		value = 0;
		if (got == 48) {
			ck_assert_int_eq(b[32], 0);
			for (int i = 7; i >= 0; i--)
				value = value << 8 | b[40 + i];
			ck_assert_int_ne(value, 0);
		}
		close(fd);
	}
	free(counters);
	free(env[0]);
	return value;
}

START_TEST(ends_as_a_process_would)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "prog", evaluator);
	char *ret[] = {"return", NULL}, *ex[] = {"exit", NULL}, *ab[] = {"abort", NULL};
	char *cr[] = {"crash", NULL}, *sp[] = {"spin", NULL}, *in[] = {"stdin", NULL};
	char *text = test_write_file(dir, "five", "12345");
	struct run_result res;

	/* main's return: its status; globals fresh on every run (runs == 1 each time) */
	ck_assert_int_eq(run(so, dir, ret, NULL, 0, &res), 1);
	ck_assert_int_eq(res.status, RUN_NONZERO);
	ck_assert_int_eq(res.exit_code, 5);
	ck_assert_int_eq(run(so, dir, ret, NULL, 0, &res), 1);
	/* exit from ten calls deep: the atexit handler ran, then the status */
	ck_assert_int_eq(run(so, dir, ex, NULL, 0, &res), 42);
	ck_assert_int_eq(res.status, RUN_NONZERO);
	ck_assert_int_eq(res.exit_code, 3);
	ck_assert_int_eq(run(so, dir, ab, NULL, 0, &res), -1);
	ck_assert_int_eq(res.status, RUN_CRASH);
	ck_assert_int_eq(res.signal, SIGABRT);
	ck_assert_int_eq(run(so, dir, cr, NULL, 0, &res), -1);
	ck_assert_int_eq(res.status, RUN_CRASH);
	ck_assert_int_eq(res.signal, SIGSEGV);
	ck_assert_int_eq(run(so, dir, sp, NULL, 0.2, &res), -1);
	ck_assert_int_eq(res.status, RUN_TIMEOUT);
	ck_assert(res.wall >= 0.2 && res.wall < 2);
	/* the input's stdin on descriptor 0; none: empty */
	ck_assert_int_eq(run(so, dir, in, text, 0, &res), 5);
	ck_assert_int_eq(res.status, RUN_OK);
	ck_assert_int_eq(run(so, dir, in, NULL, 0, &res), 0);
	free(text);
	free(so);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Returns the number of open descriptors of this process. */
static int open_descriptors(void)
{
	int n = 0;

	for (int fd = 0; fd < 1024; fd++)
		n += fcntl(fd, F_GETFD) >= 0;
	return n;
}

START_TEST(puts_the_process_back)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "prog", evaluator);
	char *data = test_write_file(dir, "data", "x"), *noise[] = {"noise", data, NULL};
	char cwd[4096], now[4096];
	FILE *out = stdout, *err = stderr;
	struct run_result res;
	int fds = open_descriptors();

	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(run(so, dir, noise, NULL, 0, &res), 7);
	ck_assert_int_eq(res.status, RUN_OK);
	ck_assert_ptr_eq(stdout, out);
	ck_assert_ptr_eq(stderr, err);
	ck_assert_int_ge(fcntl(1, F_GETFD), 0);
	ck_assert_int_ge(fcntl(2, F_GETFD), 0);
	ck_assert_int_eq(open_descriptors(), fds);
	ck_assert_ptr_null(getenv("MANTIS_SOLIB_TEST"));
	ck_assert_ptr_null(getenv("MANTIS_COUNTERS")); /* the run's own, added for it alone */
	ck_assert_ptr_nonnull(getenv("TMPDIR"));
	ck_assert_ptr_nonnull(getcwd(now, sizeof now));
	ck_assert_str_eq(now, cwd);
	/* out.txt lived in memory (sandbox.c), in a scratch folder removed after the run */
	ck_assert_int_ne(access("out.txt", F_OK), 0);
	free(data);
	free(so);
	remove_tree(dir);
	free(dir);
}
END_TEST

static volatile sig_atomic_t alarms; /* SIGALRMs the test's own action took */

static void count_alarm(int sig)
{
	(void)sig;
	alarms++;
}

/* The caught signals' actions stay solib's between runs; outside a run the process's own takes
 * the signal: a raised SIGALRM reaches the test's handler (the run's signal(SIGSEGV, SIG_IGN)
 * did nothing), the next run's time budget still ends it, and a fault after a run kills. */
START_TEST(hands_a_signal_outside_a_run_to_the_process)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "prog", evaluator);
	char *data = test_write_file(dir, "data", "x"), *noise[] = {"noise", data, NULL};
	char *sp[] = {"spin", NULL};
	struct run_result res;
	int status;
	pid_t child;

	signal(SIGALRM, count_alarm);
	ck_assert_int_eq(run(so, dir, noise, NULL, 0, &res), 7);
	raise(SIGALRM);
	ck_assert_int_eq(alarms, 1);
	ck_assert_int_eq(run(so, dir, sp, NULL, 0.2, &res), -1);
	ck_assert_int_eq(res.status, RUN_TIMEOUT);
	ck_assert_int_eq(alarms, 1);
	raise(SIGALRM);
	ck_assert_int_eq(alarms, 2);
	fflush(NULL);
	if ((child = fork()) == 0) {
		volatile int *nowhere = NULL;

		signal(SIGSEGV, SIG_DFL);
		run(so, dir, noise, NULL, 0, &res);
		*nowhere = 1;
		_exit(0);
	}
	ck_assert_int_eq(waitpid(child, &status, 0), child);
#ifdef TEST_LSAN
	ck_assert(!WIFEXITED(status) || WEXITSTATUS(status) != 0); /* ASan's report */
#else
	ck_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
#endif
	free(data);
	free(so);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Returns the bytes this process's allocator has handed out and not taken back. */
static size_t heap_in_use(void)
{
#ifdef TEST_LSAN
	return __sanitizer_get_current_allocated_bytes();
#else
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
#endif
}

START_TEST(gives_back_what_a_run_leaves)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "prog", evaluator);
	char *data = test_write_file(dir, "data", "x"), *leave[] = {"leave", data, NULL};
	struct run_result res;
	size_t before, after;

	/* each run leaves 1.3 MB allocated, its input stream open and its stdout and stderr: had
	 * they stayed, 200 runs would leave 260 MB and 600 streams */
	ck_assert_int_eq(run(so, dir, leave, NULL, 0, &res), 2); /* the C library's first use */
	before = heap_in_use();
	for (int i = 0; i < 200; i++)
		ck_assert_int_eq(run(so, dir, leave, NULL, 0, &res), 2);
	after = heap_in_use();
	ck_assert_msg(after < before + 64 * 1024, "%zu bytes in use before, %zu after", before,
		      after);
	free(data);
	free(so);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Returns whether so is mapped in this process (/proc/self/maps). */
static int mapped(const char *so)
{
	char *real = realpath(so, NULL), line[4096];
	FILE *maps = fopen("/proc/self/maps", "r");
	int found = 0;

	ck_assert_ptr_nonnull(real);
	ck_assert_ptr_nonnull(maps);
	while (!found && fgets(line, sizeof line, maps))
		found = strstr(line, real) != NULL;
	fclose(maps);
	free(real);
	return found;
}

START_TEST(keeps_an_object_loaded)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "prog", evaluator);
	char *tls = build_object(dir, "tls", thread_local_runs);
	char *ret[] = {"return", NULL}, *cr[] = {"crash", NULL};
	struct run_result res;

	/* kept loaded after a run, its globals put back before the next (runs == 1 each time) */
	ck_assert_int_eq(run(so, dir, ret, NULL, 0, &res), 1);
	ck_assert(mapped(so));
	ck_assert_int_eq(run(so, dir, ret, NULL, 0, &res), 1);
	ck_assert(mapped(so));
	/* unloaded after a crash, loaded afresh for the next run */
	ck_assert_int_eq(run(so, dir, cr, NULL, 0, &res), -1);
	ck_assert(!mapped(so));
	ck_assert_int_eq(run(so, dir, ret, NULL, 0, &res), 1);
	ck_assert(mapped(so));
	/* thread-local storage is fresh per load only: such an object is loaded for each run */
	ck_assert_int_eq(run(tls, dir, ret, NULL, 0, &res), -1);
	ck_assert_int_eq(res.exit_code, 1);
	ck_assert(!mapped(tls));
	ck_assert_int_eq(run(tls, dir, ret, NULL, 0, &res), -1);
	ck_assert_int_eq(res.exit_code, 1);
	free(tls);
	free(so);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(refuses_what_reaches_beyond_the_run)
{
	char *dir = test_tmpdir(), *so = build_object(dir, "uid", setting_uid);
	char *good = build_object(dir, "prog", evaluator), *forks = build_object(dir, "forks", forking);
	char *none[] = {NULL}, *one[] = {"x", NULL};
	struct run_options opt = {.timeout = 5, .scratch_parent = dir, .argv0 = "forks"};
	struct input quiet = {.line = 1, .argc = 0, .argv = none};
	struct input reaching = {.line = 1, .argc = 1, .argv = one};
	struct run_result res;
	pid_t me = getpid();
	struct error err = {""};

	ck_assert_int_eq(solib_hostable(good, &err), 0);
	ck_assert_int_eq(solib_hostable(so, &err), -1);
	ck_assert_msg(strstr(err.msg, "calls setuid") != NULL, "%s", err.msg);
	/* fork is the harness's (rt/inproc.c): hostable, and a run that reaches it ends there */
	ck_assert_msg(solib_hostable(forks, &err) == 0, "%s", err.msg);
	ck_assert_msg(solib_run(forks, &quiet, &opt, &res, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.status, RUN_NONZERO);
	ck_assert_int_eq(res.exit_code, 3);
	ck_assert_msg(solib_run(forks, &reaching, &opt, &res, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(res.status, RUN_CRASH);
	ck_assert_int_eq(res.signal, SIGSYS);
	ck_assert_int_eq(getpid(), me);
	free(forks);
	free(so);
	free(good);
	remove_tree(dir);
	free(dir);
}
END_TEST

Suite *suite_solib(void)
{
	Suite *s = suite_create("solib");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ends_as_a_process_would);
	tcase_add_test(tc, puts_the_process_back);
	tcase_add_test(tc, hands_a_signal_outside_a_run_to_the_process);
	tcase_add_test(tc, gives_back_what_a_run_leaves);
	tcase_add_test(tc, keeps_an_object_loaded);
	tcase_add_test(tc, refuses_what_reaches_beyond_the_run);
	suite_add_tcase(s, tc);
	return s;
}
