/*
 * main.c: runs every unit-test suite and ends with the summary line "unit: N passed, N failed"
 * that tests/run adds up. Exit status is 0 only if nothing failed. Every scratch folder of the
 * run lies in one folder under TMPDIR, removed at the end.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "tests.h"
#include "util.h"

char *test_tmpdir(void)
{
	const char *parent = getenv("TMPDIR");
	char *dir = xasprintf("%s/mantis-test-XXXXXX", parent && *parent ? parent : "/tmp");

	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

char *test_write_file(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

char *test_read_file(const char *path)
{
	struct strbuf sb = {0};
	char chunk[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	strbuf_add(&sb, "", 0);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&sb, chunk, n);
	fclose(f);
	return strbuf_detach(&sb);
}

double gauss_for_tests(unsigned long long *s)
{
	double u, v;

	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	u = ((double)(*s >> 11) + 1) / 0x1p53;
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	v = (double)(*s >> 11) / 0x1p53;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Makes one folder for every scratch folder of this run (the tests' and the runs' they start,
 * both under TMPDIR) and points TMPDIR at it, so that main removes them all in one call, also
 * when the binary is run alone, outside tests/run. Returns the folder (owned by the caller). */
static char *scope_tmpdir(void)
{
	const char *parent = getenv("TMPDIR");
	char *dir = xasprintf("%s/mantis-unit-XXXXXX", parent && *parent ? parent : "/tmp");

	if (!mkdtemp(dir)) {
		perror(dir);
		exit(EXIT_FAILURE);
	}
	setenv("TMPDIR", dir, 1);
	return dir;
}

int main(int argc, char **argv)
{
	SRunner *sr = srunner_create(suite_inputs());
	char *scratch = scope_tmpdir();
	int run, failed;

	srunner_add_suite(sr, suite_runner());
	srunner_add_suite(sr, suite_learn());
	srunner_add_suite(sr, suite_fit());
	srunner_add_suite(sr, suite_instrument());
	srunner_add_suite(sr, suite_budget());
	srunner_add_suite(sr, suite_count());
	srunner_add_suite(sr, suite_pta());
	srunner_add_suite(sr, suite_slice());
	srunner_add_suite(sr, suite_report());
	srunner_add_suite(sr, suite_infer());
	srunner_add_suite(sr, suite_explore());
	srunner_add_suite(sr, suite_sampler());
	srunner_add_suite(sr, suite_manifest());
	srunner_add_suite(sr, suite_promote());
	srunner_add_suite(sr, suite_fuse());
	srunner_add_suite(sr, suite_rate());
	srunner_add_suite(sr, suite_pace());
	srunner_add_suite(sr, suite_field());
	srunner_add_suite(sr, suite_solib());
	srunner_add_suite(sr, suite_examples());
	if (argc > 1)
		setenv("CK_RUN_SUITE", argv[1], 1);
	srunner_run_all(sr, CK_ENV);
	run = srunner_ntests_run(sr);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	remove_tree(scratch);
	free(scratch);
	printf("unit: %d passed, %d failed\n", run - failed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
