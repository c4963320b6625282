/*
 * test_manifest.c: features.json (manifest.c): a predictor's manifest cut from a build's
 * (manifest_subset) keeps the build's identity and the named features' formulas, in the
 * build's order, and reads back from disk as it was written; terms read as a flat list or as the
 * pairs of older files, and a malformed term is an error naming its feature.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "manifest.h"
#include "tests.h"
#include "util.h"

/* Fills *m with a build of 6 counters and three features: a sum, a mean, a fixed-point value. */
static void three_features(struct manifest *m)
{
	char *ldflags[] = {"-lm", "-lz"};
	struct feature *f;

	memset(m, 0, sizeof *m);
	m->build_id = 0x0123456789abcdefULL;
	m->ncounters = 6;
	manifest_set_build(m, 5, "2", ldflags, 2, "gunzip");
	m->dropped = xcalloc(1, sizeof *m->dropped);
	m->dropped[0] = 5;
	m->ndropped = 1;
	f = manifest_add(m, "loop", "loop:main:a.c:3", "main", "a.c", 3, NULL, "the loop");
	feature_add_term(f, 0, 2);
	feature_add_term(f, 1, -1);
	f = manifest_add(m, "value", "value:main:a.c:4:n.mean", "main", "a.c", 4, "n", "n's mean");
	feature_add_term(f, 2, 1);
	f->denominator = 3;
	f = manifest_add(m, "value", "value:main:a.c:5:x.sum", "main", "a.c", 5, "x", "x's sum");
	feature_add_term(f, 4, 1);
	f->shift = 4;
	manifest_index(m);
}

/* feature_add_terms appends distinct counters in their order, and merges a counter that comes
 * again (within the terms or with the feature's own) as feature_add_term does. */
START_TEST(terms_added_at_once_merge_as_one_by_one)
{
	struct feature f = {0}, g = {0};
	struct feature_term distinct[] = {{4, 1}, {2, -3}, {7, 5}}, repeated[] = {{2, 1}, {9, 2}, {9, 4}};
	uint64_t c[10] = {0, 0, 10, 0, 100, 0, 0, 1000, 0, 10000};

	feature_add_terms(&f, distinct, 3);
	ck_assert_int_eq(f.nterms, 3);
	ck_assert_int_eq(f.terms[0].counter, 4);
	ck_assert_int_eq(f.terms[2].counter, 7);
	feature_add_terms(&f, repeated, 3);
	for (int t = 0; t < 3; t++)
		feature_add_term(&g, distinct[t].counter, distinct[t].coef);
	for (int t = 0; t < 3; t++)
		feature_add_term(&g, repeated[t].counter, repeated[t].coef);
	ck_assert_int_eq(f.nterms, 4);
	ck_assert_int_eq(g.nterms, 4);
	for (int t = 0; t < 4; t++) {
		ck_assert_int_eq(f.terms[t].counter, g.terms[t].counter);
		ck_assert_int_eq(f.terms[t].coef, g.terms[t].coef);
	}
	ck_assert_int_eq((int64_t)feature_sum(&f, c), 100 - 20 + 5000 + 60000);
	free(f.terms);
	free(g.terms);
}
END_TEST

START_TEST(subset_keeps_the_build_and_the_named_formulas)
{
	char *names[] = {"value:main:a.c:5:x.sum", "nothere", "loop:main:a.c:3",
			 "value:main:a.c:5:x.sum"};
	uint64_t counters[6] = {10, 3, 12, 4, 40, 0};
	char *dir = test_tmpdir(), *path = xasprintf("%s/features.json", dir);
	struct manifest build, cut, back;
	struct error err = {""};

	three_features(&build);
	manifest_subset(&build, names, 4, &cut);
	ck_assert_int_eq(cut.n, 2); /* each once, the missing name skipped */
	ck_assert_str_eq(cut.v[0].name, "loop:main:a.c:3"); /* the build's order */
	ck_assert_str_eq(cut.v[1].name, "value:main:a.c:5:x.sum");
	ck_assert_int_eq(manifest_write(&cut, path, &err), 0);
	ck_assert_int_eq(manifest_read(&back, path, &err), 0);
	ck_assert(back.build_id == 0x0123456789abcdefULL);
	ck_assert_int_eq(back.ncounters, 6);
	ck_assert_int_eq((int)back.schemes, 5);
	ck_assert_int_eq(back.nldflags, 2);
	ck_assert_str_eq(back.ldflags[1], "-lz");
	ck_assert_str_eq(back.program, "gunzip"); /* every run's argv[0] */
	ck_assert_int_eq(back.ndropped, 1);
	ck_assert_int_eq(back.dropped[0], 5);
	ck_assert_int_eq(manifest_find(&back, "value:main:a.c:4:n.mean"), -1);
	ck_assert_int_eq(manifest_find(&back, "value:main:a.c:5:x.sum"), 1);
	ck_assert_double_eq(feature_value(&back.v[0], counters), 17);  /* 2 * 10 - 3 */
	ck_assert_double_eq(feature_value(&back.v[1], counters), 2.5); /* 40 / 2^4 */
	ck_assert_str_eq(back.v[1].variable, "x");
	manifest_release(&back);
	manifest_release(&cut);
	manifest_release(&build);
	free(path);
	free(dir);
}
END_TEST

START_TEST(subset_keeps_a_mean_s_denominator)
{
	char *names[] = {"value:main:a.c:4:n.mean"};
	uint64_t counters[6] = {0, 0, 12, 4, 0, 0};
	struct manifest build, cut;

	three_features(&build);
	manifest_subset(&build, names, 1, &cut);
	ck_assert_int_eq(cut.n, 1);
	ck_assert_int_eq(cut.v[0].denominator, 3);
	ck_assert_double_eq(feature_value(&cut.v[0], counters), 3); /* 12 / 4 */
	manifest_release(&cut);
	manifest_release(&build);
}
END_TEST

/* Writes text to dir/name and reads it as a manifest into *m. Returns manifest_read's status. */
static int read_text(const char *dir, const char *name, const char *text, struct manifest *m,
		     struct error *err)
{
	char *path = test_write_file(dir, name, text);
	int rc = manifest_read(m, path, err);

	free(path);
	return rc;
}

START_TEST(terms_read_flat_or_as_older_pairs)
{
	static const char *const head = "{\"build_id\": \"00000000000000ff\", \"counters\": 4, "
					"\"features\": [{\"name\": \"loop:f:a.c:2\", \"kind\": "
					"\"loop\", \"terms\": ";
	uint64_t counters[4] = {5, 7, 11, 13};
	char *dir = test_tmpdir(), *text;
	struct manifest m;
	struct error err = {""};

	text = xasprintf("%s[3, 2, 0, -1]}]}", head); /* flat: counter, coef, ... */
	ck_assert_int_eq(read_text(dir, "flat.json", text, &m, &err), 0);
	ck_assert_int_eq(m.v[0].nterms, 2);
	ck_assert_double_eq(feature_value(&m.v[0], counters), 21); /* 2 * 13 - 5 */
	manifest_release(&m);
	free(text);
	text = xasprintf("%s[[3, 2], [0, -1]]}]}", head); /* the pairs of older files */
	ck_assert_int_eq(read_text(dir, "pairs.json", text, &m, &err), 0);
	ck_assert_double_eq(feature_value(&m.v[0], counters), 21);
	manifest_release(&m);
	free(text);
	text = xasprintf("%s[3, 2, 0]}]}", head); /* a counter without its coefficient */
	ck_assert_int_eq(read_text(dir, "odd.json", text, &m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "odd.json: feature loop:f:a.c:2: a term"));
	free(text);
	text = xasprintf("%s[4, 1]}]}", head); /* counter 4 of 4 */
	ck_assert_int_eq(read_text(dir, "range.json", text, &m, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "range.json: feature loop:f:a.c:2"));
	free(text);
	free(dir);
}
END_TEST

Suite *suite_manifest(void)
{
	Suite *s = suite_create("manifest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, subset_keeps_the_build_and_the_named_formulas);
	tcase_add_test(tc, subset_keeps_a_mean_s_denominator);
	tcase_add_test(tc, terms_added_at_once_merge_as_one_by_one);
	tcase_add_test(tc, terms_read_flat_or_as_older_pairs);
	suite_add_tcase(s, tc);
	return s;
}
