/*
 * test_sampler.c: sampled features (sampler.c): the excerpts written for an input (their bytes,
 * shares and names, the smaller inside the larger, a text file's pieces of whole lines, files found in words, -opt=FILE values and
 * stdin), the extrapolation (exact for a feature that is a constant plus a multiple of the
 * bytes; along the parabola, for one that is a multiple of the bytes plus one of their square), the plan's files in predictor.json's words, and sampled.db (sampledb.c): a run read
 * back as it was put, and not read once a file it names changed.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "error.h"
#include "inputs.h"
#include "manifest.h"
#include "sampledb.h"
#include "sampler.h"
#include "tests.h"
#include "util.h"

/* Writes n bytes to dir/name, byte i being (i * 7 + i / 251) % 256; returns the path (owned). */
static char *write_bytes(const char *dir, const char *name, long n)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	for (long i = 0; i < n; i++)
		fputc((int)((i * 7 + i / 251) % 256), f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* Returns the byte write_bytes puts at offset i. */
static int byte_at(long i)
{
	return (int)((i * 7 + i / 251) % 256);
}

/* Returns the size of path, -1 if missing. */
static long size_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Asserts that the file at path holds pieces of len bytes of a write_bytes file of size bytes,
 * at offsets i * size / chunks rounded down to a multiple of align. */
static void assert_pieces(const char *path, long size, int chunks, long len, long align)
{
	FILE *f = fopen(path, "rb");

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < chunks; i++) {
		long at = (long)((double)size * i / chunks) / align * align;

		for (long k = 0; k < len; k++)
			ck_assert_int_eq(fgetc(f), byte_at(at + k));
	}
	ck_assert_int_eq(fgetc(f), EOF);
	fclose(f);
}

/* Parses one input line in dir; the caller releases *ins. */
static void one_input(struct inputs *ins, const char *text, const char *dir)
{
	struct error err = {""};

	ck_assert_msg(inputs_parse(ins, text, "in.txt", dir, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ins->n, 1);
}

START_TEST(excerpts_are_spread_pieces_and_the_smaller_is_inside)
{
	char *dir = test_tmpdir(), *out = xasprintf("%s/samples", dir);
	char *big = write_bytes(dir, "big.bin", 1000000), *key = write_bytes(dir, "key.txt", 100);
	struct sampler_plan plan = {.fraction = 0.01, .chunks = 8};
	struct inputs ins;
	struct input s[2];
	struct error err = {""};
	double share[2];
	char *expect;

	ck_assert_int_eq(mkdir(out, 0700), 0);
	one_input(&ins, "-k key.txt -i big.bin -o {tmp}/out", dir);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg4", &err), 0);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	/* the larger: 8 pieces of 1250 bytes, made 1280 (whole records of up to 16 bytes in the
	 * smaller too), at offsets made multiples of 16; the smaller: the first 320 of each */
	expect = xasprintf("%s/a0/big.bin", out);
	ck_assert_str_eq(s[0].argv[3], expect);
	assert_pieces(expect, 1000000, 8, 1280, 16);
	free(expect);
	expect = xasprintf("%s/b0/big.bin", out);
	ck_assert_str_eq(s[1].argv[3], expect);
	assert_pieces(expect, 1000000, 8, 320, 16);
	free(expect);
	ck_assert_double_eq_tol(share[0], 8 * 1280 / 1e6, 1e-12);
	ck_assert_double_eq_tol(share[1], 8 * 320 / 1e6, 1e-12);
	/* a predictor made before pieces were aligned samples as it did: at any byte */
	input_release(&s[0]);
	input_release(&s[1]);
	plan.align = 1;
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_pieces(s[0].argv[3], 1000000, 8, 1250, 1);
	assert_pieces(s[1].argv[3], 1000000, 8, 312, 1);
	ck_assert_double_eq_tol(share[0], 0.01, 1e-12);
	ck_assert_double_eq_tol(share[1], 8 * 312 / 1e6, 1e-12);
	plan.align = 0;
	/* the other words are as they were: the key is not sampled */
	ck_assert_str_eq(s[0].argv[1], key);
	ck_assert_str_eq(s[1].argv[5], "{tmp}/out");
	ck_assert_int_eq(s[0].argc, 6);

	/* the last word but two is the same file: sampled once */
	input_release(&s[0]);
	input_release(&s[1]);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg4,arg-3", &err), 0);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	ck_assert_double_eq_tol(share[0], 8 * 1280 / 1e6, 1e-12);
	assert_pieces(s[0].argv[3], 1000000, 8, 1280, 16);
	ck_assert_int_eq(plan.npositions, 2);

	/* a prefix: one piece */
	plan.chunks = 1;
	input_release(&s[0]);
	input_release(&s[1]);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_pieces(s[0].argv[3], 1000000, 1, 9984, 16);
	assert_pieces(s[1].argv[3], 1000000, 1, 2496, 16);
	ck_assert_double_eq_tol(share[1], 0.002496, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);

	/* the smaller a half of the larger (past a warm-up): another setting in sampled.db */
	{
		char *quarter = sampler_setting(&plan, 1), *half;

		plan.smaller = SAMPLER_PAST_WARM_UP;
		half = sampler_setting(&plan, 1);
		ck_assert_ptr_nonnull(strstr(quarter, " smaller=4 "));
		ck_assert_ptr_nonnull(strstr(half, " smaller=2 "));
		free(quarter);
		free(half);
	}
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_pieces(s[0].argv[3], 1000000, 1, 10016, 16);
	assert_pieces(s[1].argv[3], 1000000, 1, 5008, 16);
	ck_assert_double_eq_tol(share[1], 0.005008, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);
	sampler_plan_release(&plan);
	inputs_release(&ins);
	free(big);
	free(key);
	free(out);
	free(dir);
}
END_TEST

/* Asserts that the file at path holds, for each of 8 pieces, `lines` whole lines of a file of
 * nlines lines "%08d\n" (9 bytes each) from the first line that starts at or past the piece's
 * offset i * size / 8. */
static void assert_whole_lines(const char *path, long nlines, long lines)
{
	FILE *f = fopen(path, "rb");
	char want[16], got[16];

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 8; i++) {
		long at = (long)((double)(nlines * 9) * i / 8), first = (at + 8) / 9;

		for (long k = 0; k < lines; k++) {
			snprintf(want, sizeof want, "%08ld\n", first + k);
			ck_assert_ptr_nonnull(fgets(got, sizeof got, f));
			ck_assert_str_eq(got, want);
		}
	}
	ck_assert_int_eq(fgetc(f), EOF);
	fclose(f);
}

/* Checks that path holds, of a file of nlines lines of width bytes ("%0*ld\n" of their index),
 * the line after each offset i * size / pieces for every every-th i: a line at a time. */
static void assert_line_at_a_time(const char *path, long nlines, int width, long pieces,
				  int every)
{
	FILE *f = fopen(path, "rb");
	char want[1024], got[1024];

	ck_assert_ptr_nonnull(f);
	for (long i = 0; i < pieces; i += every) {
		long at = (long)((double)(nlines * width) * i / pieces);

		snprintf(want, sizeof want, "%0*ld\n", width - 1, (at + width - 1) / width);
		ck_assert_ptr_nonnull(fgets(got, sizeof got, f));
		ck_assert_str_eq(got, want);
	}
	ck_assert_int_eq(fgetc(f), EOF);
	fclose(f);
}

/* Writes nlines lines of width bytes, each its index, to dir/name; returns the path (owned). */
static char *write_numbered_lines(const char *dir, const char *name, long nlines, int width)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	for (long i = 0; i < nlines; i++)
		fprintf(f, "%0*ld\n", width - 1, i);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

START_TEST(a_text_files_pieces_hold_whole_lines)
{
	char *dir = test_tmpdir(), *out = xasprintf("%s/samples", dir);
	/* 20,001 lines of 9 bytes: the pieces' offsets (22,501 i) fall inside lines */
	char *path = write_numbered_lines(dir, "list.txt", 20001, 9);
	struct sampler_plan plan = {.fraction = 0.01, .chunks = 8};
	struct inputs ins;
	struct input s[2];
	struct error err = {""};
	double share[2];

	ck_assert_int_eq(mkdir(out, 0700), 0);
	one_input(&ins, "list.txt", dir);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg1", &err), 0);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	/* 8 KiB in all: pieces of 1,024 bytes run on to their line's end, 114 lines; the smaller's
	 * 256 bytes 29 lines, from the same starts */
	assert_whole_lines(s[0].argv[0], 20001, 114);
	assert_whole_lines(s[1].argv[0], 20001, 29);
	ck_assert_double_eq_tol(share[0], 8.0 * 114 * 9 / 180009, 1e-12);
	ck_assert_double_eq_tol(share[1], 8.0 * 29 * 9 / 180009, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);
	sampler_plan_release(&plan);
	inputs_release(&ins);
	free(path);
	free(out);
	free(dir);
}
END_TEST

START_TEST(a_text_file_is_sampled_a_line_at_a_time)
{
	char *dir = test_tmpdir(), *out = xasprintf("%s/samples", dir);
	char *list = write_numbered_lines(dir, "list.txt", 20001, 9);
	char *wide = write_numbered_lines(dir, "wide.txt", 2001, 700);
	char *bin = write_bytes(dir, "data.bin", 200000);
	struct sampler_plan plan = {.fraction = 0.01, .chunks = SAMPLER_BY_LINE};
	struct inputs ins;
	struct input s[2];
	struct error err = {""};
	double share[2];

	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg1", &err), 0);
	/* 8 KiB of 180,009 bytes: 910 lines of 9 bytes, one after each 1/910 of the file (at
	 * offsets inside lines); the smaller sample every fourth of them, 228 */
	one_input(&ins, "list.txt", dir);
	ck_assert(sampler_reads_text(&plan, &ins.v[0]));
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_line_at_a_time(s[0].argv[0], 20001, 9, 910, 1);
	assert_line_at_a_time(s[1].argv[0], 20001, 9, 910, 4);
	ck_assert_double_eq_tol(share[0], 910.0 * 9 / 180009, 1e-12);
	ck_assert_double_eq_tol(share[1], 228.0 * 9 / 180009, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);

	/* lines of 700 bytes, longer than the first look for a newline: 20 lines of 1% */
	one_input(&ins, "wide.txt", dir);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_line_at_a_time(s[0].argv[0], 2001, 700, 20, 1);
	assert_line_at_a_time(s[1].argv[0], 2001, 700, 20, 4);
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);

	/* a binary file: 8 pieces, the smaller the first quarter of each */
	one_input(&ins, "data.bin", dir);
	ck_assert(!sampler_reads_text(&plan, &ins.v[0]));
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	ck_assert_int_eq(size_of(s[0].argv[0]), 8 * 1024);
	ck_assert_int_eq(size_of(s[1].argv[0]), 8 * 256);
	input_release(&s[0]);
	input_release(&s[1]);
	sampler_plan_release(&plan);
	inputs_release(&ins);
	free(bin);
	free(wide);
	free(list);
	free(out);
	free(dir);
}
END_TEST

START_TEST(small_files_are_raised_to_the_least_excerpt_or_kept_whole)
{
	char *dir = test_tmpdir(), *out = xasprintf("%s/samples", dir);
	char *mid = write_bytes(dir, "mid.bin", 100000), *tiny = write_bytes(dir, "tiny.bin", 5000);
	struct sampler_plan plan = {.fraction = 0.01, .chunks = 8};
	struct inputs ins;
	struct input s[2];
	struct error err = {""};
	double share[2];

	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg1,stdin", &err), 0);
	/* 100 KB at 1% is 1 KB: raised to the least excerpt, 8 KB of the 105 KB in all (pieces of
	 * 975 and 48.8 bytes, made whole records: 960 and 64, the smaller's 240 and 16) */
	one_input(&ins, "--in=mid.bin < tiny.bin", dir);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	ck_assert_int_eq(strncmp(s[0].argv[0], "--in=", 5), 0);
	ck_assert_int_eq(size_of(s[0].argv[0] + 5), 8 * 960);
	ck_assert_int_eq(size_of(s[1].argv[0] + 5), 8 * 240);
	ck_assert_int_eq(size_of(s[0].stdin_path), 8 * 64);
	ck_assert_int_eq(size_of(s[1].stdin_path), 8 * 16);
	ck_assert_double_eq_tol(share[0], 8.0 * (960 + 64) / 105000, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);

	/* a plan of at least 64 KiB (a stream's warm-up): 62% of the bytes, the smaller a quarter */
	plan.least = 65536;
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	ck_assert_int_eq(size_of(s[0].argv[0] + 5), 8 * 7808);
	ck_assert_int_eq(size_of(s[1].argv[0] + 5), 8 * 1952);
	ck_assert_int_eq(size_of(s[0].stdin_path), 8 * 384);
	ck_assert_double_eq_tol(share[0], 8.0 * (7808 + 384) / 105000, 1e-12);
	plan.least = 0;
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);

	/* under the least excerpt in all: the whole files, nothing to extrapolate */
	one_input(&ins, "tiny.bin", dir);
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	ck_assert_str_eq(s[0].argv[0], tiny);
	ck_assert_double_eq(share[0], 1);
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);
	sampler_plan_release(&plan);
	free(mid);
	free(tiny);
	free(out);
	free(dir);
}
END_TEST

START_TEST(extrapolation_is_exact_for_an_affine_feature)
{
	struct manifest m = {0};
	struct feature *f = manifest_add(&m, "loop", "loop:f:a.c:3", "f", "a.c", 3, NULL, "a loop");
	uint64_t a[1] = {1000 + 3 * 10000}, b[1] = {1000 + 3 * 2500};
	struct sampled_run r = {{a, b}, {0.01, 0.0025}, 0, 1, NULL, 0};
	char *name = sampler_name(f->name, SAMPLER_LINE);
	char *larger = sampler_name(f->name, SAMPLER_LARGER);

	feature_add_term(f, 0, 1);
	m.ncounters = 1;
	/* 1000 + 3 bytes at 1% and 0.25% of 1 MB: 1000 + 3 * 1e6 whole */
	ck_assert_double_eq_tol(sampler_value(&r, f, SAMPLER_LINE), 1000 + 3e6, 1e-6);
	ck_assert_double_eq(sampler_value(&r, f, SAMPLER_LARGER), (double)a[0]);
	/* the whole files (share 1): the larger run's value as it is */
	r.share[0] = 1;
	ck_assert_double_eq(sampler_value(&r, f, SAMPLER_LINE), (double)a[0]);
	ck_assert_double_eq(sampler_value(&r, f, SAMPLER_QUADRATIC), (double)a[0]);
	ck_assert_str_eq(name, "sampled:loop:f:a.c:3");
	ck_assert_str_eq(sampler_feature(name), "loop:f:a.c:3");
	ck_assert_int_eq(sampler_is_larger(name), 0);
	ck_assert_str_eq(larger, "sampled-larger:loop:f:a.c:3");
	ck_assert_str_eq(sampler_feature(larger), "loop:f:a.c:3");
	ck_assert_int_eq(sampler_is_larger(larger), 1);
	ck_assert_ptr_null(sampler_feature("loop:f:a.c:3"));
	free(name);
	free(larger);
	manifest_release(&m);
}
END_TEST

/* A value's mean and first value describe the input: each is a column extrapolated (a first
 * value that follows the sample's length tells the whole file's) and one as it is on the
 * larger sample (a mean of the content, which the line through two samples' means multiplies
 * 133 times at 1% and 0.25%); a count and a value's sum grow with the input: extrapolated only.
 * A column that does not vary is left out. */
/* Runs sampler_add_columns on one loop count whose whole values on three inputs are
 * whole[0..3) and whose samples counted a[k] and b[k] at shares 1% and 0.25%; fills ds
 * (release it). */
static void loop_columns(struct dataset *ds, const uint64_t *a, const uint64_t *b,
			 const double *whole)
{
	struct manifest m = {0};
	uint64_t ca[3][1] = {{a[0]}, {a[1]}, {a[2]}}, cb[3][1] = {{b[0]}, {b[1]}, {b[2]}};
	struct sampled_run r[3];
	struct feature *f = manifest_add(&m, "loop", "loop:sort:a.c:5", "sort", "a.c", 5, NULL,
					 "iterations");

	for (int i = 0; i < 3; i++)
		r[i] = (struct sampled_run){{ca[i], cb[i]}, {0.01, 0.0025}, 0, 1, NULL, 0};
	m.ncounters = 1;
	feature_add_term(f, 0, 1);
	memset(ds, 0, sizeof *ds);
	ds->n = 3;
	dataset_add_column(ds, "loop:sort:a.c:5", whole);
	sampler_add_columns(ds, &m, &(struct sampler_plan){.chunks = SAMPLER_CHUNKS}, r);
	manifest_release(&m);
}

START_TEST(a_square_is_had_along_the_parabola_where_it_extrapolates_better)
{
	/* an insertion sort's steps, 3e6 q + 4e8 q^2 and 1e6 q + 1e8 q^2 of a share q: the line
	 * through the two samples errs 98% and 97%, the parabola through them and the origin is
	 * exact; on the third input a file not sampled adds 2e6 steps, which the parabola
	 * multiplies by 133 (76,600%, the line 96%): at the median (0% against 97%) it is offered */
	static const uint64_t a[3] = {70000, 20000, 2020000}, b[3] = {10000, 3125, 2003125};
	static const double whole[3] = {4.03e8, 1.01e8, 1.03e8};
	/* two counts of lines and a start-up, 2e6 q + 500 and 3e6 q + 1000: the line is exact,
	 * the parabola errs 987% and 1,316%, and is not offered */
	static const uint64_t la[3] = {20500, 31000, 70000}, lb[3] = {5500, 8500, 10000};
	static const double lwhole[3] = {2000500, 3001000, 4.03e8};
	struct dataset ds;

	loop_columns(&ds, a, b, whole);
	ck_assert_int_eq(ds.p, 3);
	ck_assert_str_eq(ds.names[1], "sampled:loop:sort:a.c:5");
	ck_assert_str_eq(ds.names[2], "sampled-quadratic:loop:sort:a.c:5");
	ck_assert_double_eq_tol(ds.x[3], 70000 + 60000 * 0.99 / 0.0075, 1e-6);
	ck_assert_double_eq_tol(ds.x[6], 4.03e8, 1e-3);
	ck_assert_double_eq_tol(ds.x[7], 1.01e8, 1e-3);
	ck_assert_double_eq_tol(ds.x[8], 2.02e8 + (2.02e8 - 2003125 / 0.0025) * 0.99 / 0.0075, 1);
	ck_assert_str_eq(sampler_feature(ds.names[2]), "loop:sort:a.c:5");
	ck_assert_int_eq(sampler_way_of(ds.names[2]), SAMPLER_QUADRATIC);
	ck_assert_int_eq(sampler_way_of(ds.names[1]), SAMPLER_LINE);
	ck_assert_int_eq(sampler_is_larger(ds.names[2]), 0);
	dataset_release(&ds);

	loop_columns(&ds, la, lb, lwhole);
	ck_assert_int_eq(ds.p, 2);
	ck_assert_str_eq(ds.names[1], "sampled:loop:sort:a.c:5");
	ck_assert_double_eq_tol(ds.x[3], 2000500, 1e-6);
	ck_assert_double_eq_tol(ds.x[4], 3001000, 1e-6);
	dataset_release(&ds);
}
END_TEST

START_TEST(means_are_offered_as_they_are_and_counts_only_extrapolated)
{
	static const char *const what[] = {"sum", "count", "mean", "first"};
	struct manifest m = {0};
	struct dataset ds = {0};
	/* per input, counters sum, count, first and an exit's on the larger and the smaller
	 * sample: the means 5 and 6, then 4 and 4.5; first 7 on both samples of each; the
	 * first input exits there, the second does not */
	uint64_t a0[4] = {2000, 400, 7, 1}, b0[4] = {600, 100, 7, 1}, a1[4] = {1600, 400, 7, 0},
		 b1[4] = {450, 100, 7, 0};
	static const int counter[] = {0, 1, 0, 2};
	struct sampled_run r[2] = {{{a0, b0}, {0.01, 0.0025}, 0, 1, NULL, 0},
				   {{a1, b1}, {0.01, 0.0025}, 0, 1, NULL, 0}};
	struct feature *exit_feature = manifest_add(&m, "exit", "exit:main:a.c:9:exit", "main", "a.c",
						    9, NULL, "exits here");

	m.ncounters = 4;
	feature_add_term(exit_feature, 3, 1);
	ck_assert_int_eq(sampler_extensive(exit_feature), 0);
	for (int i = 0; i < 4; i++) {
		char *name = xasprintf("value:f:a.c:3:x.%s", what[i]);
		struct feature *f = manifest_add(&m, "value", name, "f", "a.c", 3, "x", "x");

		feature_add_term(f, counter[i], 1);
		if (i == 2)
			f->denominator = 1;
		ck_assert_int_eq(sampler_extensive(f), i < 2);
		free(name);
	}
	ck_assert_double_eq(sampler_value(&r[0], &m.v[3], SAMPLER_LARGER), 5);
	ck_assert_double_eq_tol(sampler_value(&r[0], &m.v[3], SAMPLER_LINE), 5 + (5 - 6) * 0.99 / 0.0075, 1e-9);
	ds.n = 2;
	/* the exit both ways, the sum extrapolated (the count is 400 on both inputs), the mean
	 * both ways; the first value is 7 everywhere */
	ck_assert_int_eq(sampler_add_columns(&ds, &m, &(struct sampler_plan){.chunks = 8}, r), 5);
	ck_assert_str_eq(ds.names[0], "sampled:exit:main:a.c:9:exit");
	ck_assert_str_eq(ds.names[1], "sampled-larger:exit:main:a.c:9:exit");
	ck_assert_str_eq(ds.names[2], "sampled:value:f:a.c:3:x.sum");
	ck_assert_str_eq(ds.names[3], "sampled:value:f:a.c:3:x.mean");
	ck_assert_str_eq(ds.names[4], "sampled-larger:value:f:a.c:3:x.mean");
	ck_assert_double_eq(ds.x[4 * 2], 5);
	ck_assert_double_eq(ds.x[4 * 2 + 1], 4);
	dataset_release(&ds);
	/* a line at a time: the smaller sample's lines are a subset like any other, so the mean
	 * and the exit are had off the larger alone; the sum is still extrapolated */
	memset(&ds, 0, sizeof ds);
	ds.n = 2;
	ck_assert_int_eq(sampler_add_columns(&ds, &m, &(struct sampler_plan){.chunks = SAMPLER_BY_LINE},
					     r), 3);
	ck_assert_str_eq(ds.names[0], "sampled-larger:exit:main:a.c:9:exit");
	ck_assert_str_eq(ds.names[1], "sampled:value:f:a.c:3:x.sum");
	ck_assert_str_eq(ds.names[2], "sampled-larger:value:f:a.c:3:x.mean");
	dataset_release(&ds);
	manifest_release(&m);
}
END_TEST

START_TEST(plan_files_round_trip_and_refuse_other_words)
{
	struct sampler_plan plan = {.fraction = 0.01, .chunks = 1};
	struct error err = {""};
	char *files;

	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg3,stdin,arg-1", &err), 0);
	ck_assert_int_eq(plan.npositions, 3);
	ck_assert_int_eq(plan.positions[0], 3);
	ck_assert_int_eq(plan.positions[1], SAMPLER_STDIN);
	ck_assert_int_eq(plan.positions[2], -1);
	files = sampler_plan_files(&plan);
	ck_assert_str_eq(files, "arg3,stdin,arg-1");
	free(files);
	files = sampler_setting(&plan, 3);
	ck_assert_str_eq(files, "fraction=0.01 least=8192 chunks=1 smaller=4 align=16 "
			 "files=arg3,stdin,arg-1 reps=3");
	free(files);
	/* an optional position: sampled where the input names a file there */
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg5,arg6?,arg-1", &err), 0);
	ck_assert_int_eq(plan.npositions, 3);
	ck_assert_int_eq(plan.positions[1], 6);
	ck_assert(!sampler_optional(&plan, 0) && sampler_optional(&plan, 1) &&
		  !sampler_optional(&plan, 2));
	files = sampler_plan_files(&plan);
	ck_assert_str_eq(files, "arg5,arg6?,arg-1");
	free(files);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg3,args", &err), -1);
	ck_assert_str_eq(err.msg, "sampled file 'args' is not argN or arg-N (N from 1 to 16) or stdin");
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg17", &err), -1);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg0", &err), -1);
	sampler_plan_release(&plan);
}
END_TEST

START_TEST(an_optional_file_is_sampled_where_it_is_named)
{
	char *dir = test_tmpdir(), *out = xasprintf("%s/samples", dir);
	char *one = write_bytes(dir, "one.bin", 1000000), *two = write_bytes(dir, "two.bin", 1000000);
	struct sampler_plan plan = {0};
	struct inputs ins;
	struct input s[2];
	struct error err = {""};
	double share[2];
	char *position;

	ck_assert_int_eq(mkdir(out, 0700), 0);
	ck_assert_int_eq(sampler_plan_parse_files(&plan, "arg1,arg2?", &err), 0);
	plan.fraction = 0.01;
	plan.chunks = 8;
	/* two files: both sampled, 1% of the 2 MB */
	one_input(&ins, "one.bin two.bin", dir);
	ck_assert_ptr_null(sampler_unreadable(&plan, &ins.v[0], &position));
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_pieces(s[0].argv[0], 1000000, 8, 1280, 16);
	assert_pieces(s[0].argv[1], 1000000, 8, 1280, 16);
	ck_assert_double_eq_tol(share[0], 0.01024, 1e-12);
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);
	/* one file: no second word, and a flag there, are no error */
	one_input(&ins, "one.bin", dir);
	ck_assert_ptr_null(sampler_unreadable(&plan, &ins.v[0], &position));
	inputs_release(&ins);
	one_input(&ins, "one.bin -v", dir);
	ck_assert_ptr_null(sampler_unreadable(&plan, &ins.v[0], &position));
	ck_assert_int_eq(sampler_make_inputs(&plan, &ins.v[0], out, s, share, &err), 0);
	assert_pieces(s[0].argv[0], 1000000, 8, 1280, 16);
	ck_assert_str_eq(s[0].argv[1], "-v");
	input_release(&s[0]);
	input_release(&s[1]);
	inputs_release(&ins);
	/* the required first file missing still is */
	one_input(&ins, "gone.bin two.bin", dir);
	ck_assert_str_eq(sampler_unreadable(&plan, &ins.v[0], &position), "gone.bin");
	ck_assert_str_eq(position, "arg1");
	free(position);
	inputs_release(&ins);
	sampler_plan_release(&plan);
	free(one);
	free(two);
	free(out);
	free(dir);
}
END_TEST

START_TEST(sampled_runs_are_kept_per_input_and_files)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/sampled.db", dir);
	char *exe = test_write_file(dir, "sandboxed", "#!/bin/sh\n");
	char *data = write_bytes(dir, "data.bin", 300);
	uint64_t a[3] = {127, UINT64_MAX, (uint64_t)1 << 60}, b[3] = {0, 128, 6};
	struct sampled_run r = {{a, b}, {0.01, 0.0025}, 0.125, 1, NULL, 0}, got;
	struct sampledb s;
	struct inputs ins;
	struct error err = {""};

	one_input(&ins, "data.bin", dir);
	ck_assert_msg(sampledb_open(&s, db, exe, "fraction=0.01", 3, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sampledb_get(&s, &ins.v[0], &got, &err), 0);
	ck_assert_int_eq(sampledb_put(&s, &ins.v[0], &r, &err), 0);
	ck_assert_int_eq(sampledb_get(&s, &ins.v[0], &got, &err), 1);
	ck_assert_int_eq(got.ok, 1);
	ck_assert_double_eq(got.share[1], 0.0025);
	ck_assert_double_eq(got.seconds, 0.125);
	ck_assert(got.counters[0][0] == 127 && got.counters[0][1] == UINT64_MAX);
	ck_assert(got.counters[0][2] == (uint64_t)1 << 60);
	ck_assert(got.counters[1][0] == 0 && got.counters[1][1] == 128 && got.counters[1][2] == 6);
	sampled_run_release(&got);
	/* stored as varints: "MSV1", then 1 + 10 + 9 bytes and 1 + 2 + 1 */
	ck_assert_int_eq(sqlite3_exec(s.db, "CREATE TABLE t AS SELECT length(counters_larger) AS a, "
				      "length(counters_smaller) AS b FROM runs", NULL, NULL, NULL), SQLITE_OK);
	{
		sqlite3_stmt *q;

		sqlite3_prepare_v2(s.db, "SELECT a, b FROM t", -1, &q, NULL);
		ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
		ck_assert_int_eq(sqlite3_column_int(q, 0), 24);
		ck_assert_int_eq(sqlite3_column_int(q, 1), 8);
		sqlite3_finalize(q);
	}
	ck_assert_int_eq(sqlite3_exec(s.db, "DROP TABLE t", NULL, NULL, NULL), SQLITE_OK);
	/* a database written before the varints holds little-endian words: read back as such */
	ck_assert_int_eq(sqlite3_exec(s.db, "UPDATE runs SET counters_smaller = "
				      "X'090000000000000000010000000000000000000000000080'", NULL, NULL,
				      NULL), SQLITE_OK);
	ck_assert_int_eq(sampledb_get(&s, &ins.v[0], &got, &err), 1);
	ck_assert(got.counters[1][0] == 9 && got.counters[1][1] == 256);
	ck_assert(got.counters[1][2] == (uint64_t)1 << 63);
	sampled_run_release(&got);
	sampledb_close(&s);

	/* another setting reads nothing */
	ck_assert_int_eq(sampledb_open(&s, db, exe, "fraction=0.02", 3, &err), 0);
	ck_assert_int_eq(sampledb_get(&s, &ins.v[0], &got, &err), 0);
	sampledb_close(&s);
	/* nor does the same once the data file changed */
	free(write_bytes(dir, "data.bin", 301));
	ck_assert_int_eq(sampledb_open(&s, db, exe, "fraction=0.01", 3, &err), 0);
	ck_assert_int_eq(sampledb_get(&s, &ins.v[0], &got, &err), 0);
	sampledb_close(&s);
	inputs_release(&ins);
	free(data);
	free(exe);
	free(db);
	free(dir);
}
END_TEST

/* A trial at share q (the two samples' bytes: 1.25 q), of error e and standard error se.
 * sampler_cheapest is called below as train calls it, its budget 1.5 times the threshold
 * (SAMPLE_ALLOWANCE). */
#define TRIAL(q, at_least, pieces, e, e_se, why) \
	{.fraction = q, .least = at_least, .chunks = pieces, .share = 1.25 * (q), \
	 .cost = 1.5 * (q), .error = e, .se = e_se, .failed = why}

START_TEST(the_cheapest_share_within_one_standard_error_is_kept)
{
	char failed[] = "input line 3: the program crashed";
	/* lz4's six trials (session 17): 1% prefix best; 0.5% is 1.42 points off, SE 0.56 */
	struct sampler_trial lz4[] = {
		TRIAL(0.01, 8192, 8, 0.0245, 0.0075, NULL), TRIAL(0.01, 8192, 1, 0.0148, 0.0056, NULL),
		TRIAL(0.005, 8192, 8, 0.0299, 0.0049, NULL), TRIAL(0.005, 8192, 1, 0.0290, 0.0058, NULL),
		TRIAL(0.0025, 8192, 8, 0.0732, 0.0091, NULL), TRIAL(0.0025, 8192, 1, 0.0725, 0.0094, NULL),
	};
	/* a uniform program: every share within the best's standard error, the smallest wins,
	 * the better of its two; a failed trial is never kept, however small its error */
	struct sampler_trial uniform[] = {
		TRIAL(0.01, 8192, 8, 0.0040, 0.0010, NULL), TRIAL(0.01, 8192, 1, 0.0041, 0.0010, NULL),
		TRIAL(0.005, 8192, 8, 0.0046, 0.0012, NULL), TRIAL(0.005, 8192, 1, 0.0045, 0.0012, NULL),
		TRIAL(0.0025, 8192, 8, 0.0049, 0.0011, NULL), TRIAL(0.0025, 8192, 1, 0.0001, 0.0001, failed),
	};
	struct sampler_trial unmeasured[] = {
		TRIAL(0.01, 8192, 8, NAN, 0, failed), TRIAL(0.01, 8192, 1, NAN, 0, NULL),
	};

	ck_assert_int_eq(sampler_cheapest(lz4, 6, 0.05 / 1.5, 0.05), 1);
	ck_assert_int_eq(sampler_cheapest(uniform, 6, 0.05 / 1.5, 0.05), 4);
	ck_assert_int_eq(sampler_cheapest(unmeasured, 2, 0.05 / 1.5, 0.05), 1);
	ck_assert(!sampler_measured(unmeasured, 2));
	ck_assert(sampler_measured(lz4, 6));
	unmeasured[1].failed = failed;
	ck_assert_int_eq(sampler_cheapest(unmeasured, 2, 0.05 / 1.5, 0.05), -1);
}
END_TEST

START_TEST(a_line_at_a_time_is_kept_only_where_it_extrapolates_best)
{
	/* spamfilter's trials at 8 KiB (session 41): a line at a time errs least, the pieces
	 * 7.3 points more, beyond its standard error (3.0) */
	struct sampler_trial spam[] = {
		TRIAL(0.01, 8192, 8, 0.2434, 0.0562, NULL),
		TRIAL(0.01, 8192, 1, 0.8360, 0.2295, NULL),
		TRIAL(0.01, 8192, SAMPLER_BY_LINE, 0.1765, 0.0260, NULL),
		TRIAL(0.005, 8192, 8, 0.2467, 0.0563, NULL),
		TRIAL(0.005, 8192, 1, 0.8430, 0.2330, NULL),
		TRIAL(0.005, 8192, SAMPLER_BY_LINE, 0.1741, 0.0296, NULL),
	};
	/* a compressor's: the pieces err least, a line at a time within their standard error
	 * and of a smaller share; the pieces are kept, which keep the data's local order */
	struct sampler_trial packed[] = {
		TRIAL(0.01, 8192, 8, 0.0200, 0.0050, NULL),
		TRIAL(0.01, 8192, 1, 0.0400, 0.0060, NULL),
		TRIAL(0.01, 8192, SAMPLER_BY_LINE, 0.0230, 0.0050, NULL),
	};

	ck_assert_int_eq(sampler_cheapest(spam, 6, 0.075 / 1.5, 0.075), 5);
	packed[2].share = 0.01;
	ck_assert_int_eq(sampler_cheapest(packed, 3, 0.075 / 1.5, 0.075), 0);
	/* where it errs least, it is kept */
	packed[2].error = 0.0190;
	ck_assert_int_eq(sampler_cheapest(packed, 3, 0.075 / 1.5, 0.075), 2);
}
END_TEST

START_TEST(a_way_under_the_threshold_that_extrapolates_well_is_kept)
{
	/* pcre2grep's nine trials (session 47): 1%, 0.5% and 0.25% in 8 pieces, a prefix and a
	 * line at a time; the 1% prefix errs least (0.44%) at 6.97%, within the budget of 7.5%;
	 * at 0.25% the prefix errs 0.95% at 4.48%, under the threshold */
	struct sampler_trial pcre2[] = {
		TRIAL(0.01, 8192, 8, 0.0087, 0.0014, NULL),
		TRIAL(0.01, 8192, 1, 0.0044, 0.0006, NULL),
		TRIAL(0.01, 8192, SAMPLER_BY_LINE, 0.0043, 0.0006, NULL),
		TRIAL(0.005, 8192, 8, 0.0084, 0.0016, NULL),
		TRIAL(0.005, 8192, 1, 0.0079, 0.0011, NULL),
		TRIAL(0.005, 8192, SAMPLER_BY_LINE, 0.0093, 0.0019, NULL),
		TRIAL(0.0025, 8192, 8, 0.0129, 0.0020, NULL),
		TRIAL(0.0025, 8192, 1, 0.0095, 0.0012, NULL),
		TRIAL(0.0025, 8192, SAMPLER_BY_LINE, 0.0089, 0.0010, NULL),
	};
	static const double cost[] = {0.0684, 0.0697, 0.1262, 0.0553, 0.0588, 0.1044,
				      0.0466, 0.0448, 0.0945};

	for (int i = 0; i < 9; i++)
		pcre2[i].cost = cost[i];
	ck_assert_int_eq(sampler_cheapest(pcre2, 9, 0.05, 0.075), 7);
	/* at a threshold of 7%, the 1% prefix is under it and errs least: it is kept */
	ck_assert_int_eq(sampler_cheapest(pcre2, 9, 0.07, 0.105), 1);
	/* where the ways under the threshold extrapolate worse than SAMPLER_GOOD_PERMILLE, the
	 * budget's rule stands */
	pcre2[6].error = pcre2[7].error = 0.025;
	ck_assert_int_eq(sampler_cheapest(pcre2, 9, 0.05, 0.075), 1);
	/* so it does where none costs under the threshold */
	ck_assert_int_eq(sampler_cheapest(pcre2, 9, 0.01, 0.075), 1);
}
END_TEST

START_TEST(a_larger_sample_is_kept_when_it_extrapolates_better_within_the_budget)
{
	/* gzip's (session 18): 1% of 2-24 MB files errs 14% (its window fills over the first
	 * 64 KiB); raised to 64 KiB, 5%; to 256 KiB, 0.4%, at a cost over a 5% budget */
	struct sampler_trial gzip[] = {
		TRIAL(0.01, 8192, 8, 0.144, 0.014, NULL), TRIAL(0.01, 8192, 1, 0.148, 0.014, NULL),
		TRIAL(0.005, 8192, 8, 0.217, 0.015, NULL), TRIAL(0.005, 8192, 1, 0.223, 0.015, NULL),
		TRIAL(0.01, 65536, 8, 0.052, 0.006, NULL), TRIAL(0.01, 65536, 1, 0.050, 0.006, NULL),
		TRIAL(0.01, 262144, 8, 0.004, 0.001, NULL), TRIAL(0.01, 262144, 1, 0.0035, 0.001, NULL),
	};

	gzip[4].share = gzip[5].share = 0.025;
	gzip[4].cost = gzip[5].cost = 0.03;
	gzip[6].share = gzip[7].share = 0.059;
	gzip[6].cost = gzip[7].cost = 0.065;
	/* at 64 KiB the prefix errs least (5.0%), the pieces within its standard error (5.2%),
	 * of the same share: the pieces, spread over the file, are kept */
	ck_assert_int_eq(sampler_cheapest(gzip, 8, 0.05 / 1.5, 0.05), 4);
	ck_assert_int_eq(sampler_cheapest(gzip, 8, 0.10 / 1.5, 0.10), 6);
	/* nothing within the budget: the rule on every trial, as if there were none */
	ck_assert_int_eq(sampler_cheapest(gzip, 8, 0.001 / 1.5, 0.001), 6);
	/* a prefix that errs less beyond its standard error is kept over the pieces */
	gzip[6].error = 0.0046;
	ck_assert_int_eq(sampler_cheapest(gzip, 8, 0.10 / 1.5, 0.10), 7);
	gzip[6].error = 0.004;
	/* bzip2's (session 18): 64 and 256 KiB over the budget; 8 pieces and a prefix at 1% take
	 * the same share but for their rounding, and the prefix errs less, within a standard
	 * error: the pieces are kept (sessions 17-25: their models erred 1.4-2.9% on 200 held-out
	 * inputs, the prefix's 3.5-4.9%) */
	{
		struct sampler_trial bzip2[] = {
			TRIAL(0.01, 8192, 8, 0.1975, 0.0180, NULL), TRIAL(0.01, 8192, 1, 0.1821, 0.0187, NULL),
			TRIAL(0.01, 65536, 8, 0.1141, 0.0112, NULL),
		};

		bzip2[0].share = 0.0124968;
		bzip2[1].share = 0.0124996;
		bzip2[2].cost = 0.079;
		ck_assert_int_eq(sampler_cheapest(bzip2, 3, 0.05 / 1.5, 0.05), 0);
	}
	/* gzip's (session 22): at 64 KiB the smaller sample a half (32 KiB, past the window)
	 * rather than a quarter errs 1.1-1.6% against 5.3-5.7%, at 6.1% of the program's time
	 * against 5.4%, within 1.5 times a 5% threshold; 256 KiB was not tried */
	{
		struct sampler_trial half[10];

		memcpy(half, gzip, 6 * sizeof *gzip);
		for (int i = 6; i < 10; i++) {
			half[i] = gzip[4 + i % 2];
			half[i].smaller = i < 8 ? 4 : 2;
			half[i].error = (double[]){0.0572, 0.0529, 0.0157, 0.0113}[i - 6];
			half[i].se = (double[]){0.0042, 0.0037, 0.0024, 0.0012}[i - 6];
			half[i].share = i < 8 ? 0.01984 : 0.02381;
			half[i].cost = i < 8 ? 0.054 : 0.061;
		}
		ck_assert_int_eq(sampler_cheapest(half, 10, 0.075 / 1.5, 0.075), 9);
		/* over the budget, the half is not kept: the quarter at 64 KiB is */
		ck_assert_int_eq(sampler_cheapest(half, 10, 0.06 / 1.5, 0.06), 7);
	}
	/* 64 KiB no better than 8 KiB beyond a standard error: the smaller share stays */
	gzip[5].error = gzip[4].error = 0.140;
	gzip[6].cost = gzip[7].cost = 0.2;
	ck_assert_int_eq(sampler_cheapest(gzip, 8, 0.05 / 1.5, 0.05), 0);
}
END_TEST

/* The leave-one-out error of input i under the power law fitted to the others, by refitting
 * (the check of sampler_rescaled_error's leverages). */
static double refit_error(const double *x, const double *y, int n, int i)
{
	double mx = 0, my = 0, sxx = 0, sxy = 0, b;

	for (int k = 0; k < n; k++) {
		if (k != i) {
			mx += log(x[k]) / (n - 1);
			my += log(y[k]) / (n - 1);
		}
	}
	for (int k = 0; k < n; k++) {
		if (k != i) {
			sxx += (log(x[k]) - mx) * (log(x[k]) - mx);
			sxy += (log(x[k]) - mx) * (log(y[k]) - my);
		}
	}
	b = sxy / sxx;
	return fabs(exp(my + b * (log(x[i]) - mx)) / y[i] - 1);
}

START_TEST(a_way_is_judged_by_its_count_once_rescaled)
{
	double ext[] = {1e6, 2e6, 3.5e6, 5e6, 8e6, 1.3e7}, act[6], se, raw, want = 0;

	/* a steady power law: the model undoes it, the extrapolation's own error does not */
	for (int k = 0; k < 6; k++)
		act[k] = 3 * pow(ext[k], 1.1);
	ck_assert_double_lt(sampler_rescaled_error(ext, act, 6, &se, &raw), 1e-9);
	ck_assert_double_gt(raw, 0.7);
	/* scatter about it: each input as the fit of the other five predicts it */
	act[1] *= 1.2;
	act[4] *= 0.9;
	for (int k = 0; k < 6; k++)
		want += refit_error(ext, act, 6, k) / 6;
	ck_assert_double_eq_tol(sampler_rescaled_error(ext, act, 6, &se, &raw), want, 1e-12);
	ck_assert_double_gt(want, 0.05);
	ck_assert_double_gt(se, 0);
	/* an extrapolation below zero errs by 1 and takes no part in the fit */
	{
		double e7[] = {1e6, 2e6, 3.5e6, 5e6, 8e6, 1.3e7, -4e5}, a7[7];

		for (int k = 0; k < 6; k++)
			a7[k] = 3 * pow(e7[k], 1.1);
		a7[6] = 2e6;
		ck_assert_double_eq_tol(sampler_rescaled_error(e7, a7, 7, &se, &raw), 1.0 / 7, 1e-9);
	}
	/* two inputs: no fit, each errs as extrapolated */
	ck_assert_double_eq_tol(sampler_rescaled_error((double[]){1e6, 2e6}, (double[]){1.1e6, 2e6},
						       2, &se, &raw), 0.05 / 1.1, 1e-12);
	ck_assert_double_eq_tol(raw, 0.05 / 1.1, 1e-12);
}
END_TEST

START_TEST(bzip2s_smallest_way_is_kept_once_its_count_is_rescaled)
{
	/* bzip2's six ways within the budget (B48, session 29; 100 training inputs): as
	 * extrapolated, 1% errs least and is kept; rescaled, 0.25% does (11.1-11.4% against
	 * 16.7-17.8%), and of its two the pieces. Its models: 1% in 8 pieces 2.8% on 200 held-out
	 * inputs, 0.25% in 8 pieces 1.33% (sessions 24-25, the way forced) */
	struct sampler_trial way[] = {
		TRIAL(0.01, 8192, 8, 0.1975, 0.0180, NULL), TRIAL(0.01, 8192, 1, 0.1821, 0.0187, NULL),
		TRIAL(0.005, 8192, 8, 0.2351, 0.0133, NULL), TRIAL(0.005, 8192, 1, 0.2322, 0.0133, NULL),
		TRIAL(0.0025, 8192, 8, 0.2433, 0.0191, NULL), TRIAL(0.0025, 8192, 1, 0.2749, 0.0186, NULL),
	};
	const double rescaled[][2] = {{0.1777, 0.0105}, {0.1670, 0.0111}, {0.1282, 0.0100},
				      {0.1240, 0.0097}, {0.1136, 0.0115}, {0.1114, 0.0110}};
	const double share[] = {0.0124968, 0.0124996, 0.00667866, 0.00668017, 0.00476137,
				0.00476207};

	for (int i = 0; i < 6; i++) {
		way[i].share = share[i];
		way[i].cost = 0.05;
	}
	ck_assert_int_eq(sampler_cheapest(way, 6, 0.075 / 1.5, 0.075), 0);
	for (int i = 0; i < 6; i++) {
		way[i].error = rescaled[i][0];
		way[i].se = rescaled[i][1];
	}
	ck_assert_int_eq(sampler_cheapest(way, 6, 0.075 / 1.5, 0.075), 4);
}
END_TEST

START_TEST(a_cheaper_way_is_taken_when_the_kept_way_costs_too_much)
{
	/* bzip2's trials on this AMD host (session 25): the ways at 8 KiB, then 64 KiB; 1% in 8
	 * pieces kept (6.26%, within 1.5 times a 5% threshold), its features judged 5.8% at the
	 * least; scaled, the budget is 5.42% and 0.25% in 8 pieces (4.20%) is taken */
	struct sampler_trial bzip2[] = {
		TRIAL(0.01, 8192, 8, 0.1975, 0.0180, NULL), TRIAL(0.01, 8192, 1, 0.1821, 0.0187, NULL),
		TRIAL(0.005, 8192, 8, 0.2351, 0.0133, NULL), TRIAL(0.005, 8192, 1, 0.2322, 0.0133, NULL),
		TRIAL(0.0025, 8192, 8, 0.2433, 0.0191, NULL), TRIAL(0.0025, 8192, 1, 0.2749, 0.0186, NULL),
		TRIAL(0.01, 65536, 8, 0.1141, 0.0112, NULL), TRIAL(0.01, 65536, 1, 0.1144, 0.0111, NULL),
	};
	double costs[] = {0.0626, 0.0622, 0.0488, 0.0478, 0.0420, 0.0412, 0.1025, 0.1050};
	double budget;

	for (int i = 0; i < 8; i++)
		bzip2[i].cost = costs[i];
	bzip2[0].share = 0.0124968;
	bzip2[1].share = 0.0124996;
	bzip2[6].share = bzip2[7].share = 0.035;
	ck_assert_int_eq(sampler_cheapest(bzip2, 8, 0.075 / 1.5, 0.075), 0);
	ck_assert_int_eq(sampler_cheaper(bzip2, 8, 0, 0.0577, 0.05, &budget), 4);
	ck_assert_double_eq_tol(budget, 0.0626 * 0.05 / 0.0577, 1e-9);
	/* features that cost 2.4 times the threshold: no way is that cheap, nor at half the
	 * kept way's cost (3.13%), and the way stays */
	ck_assert_int_eq(sampler_cheaper(bzip2, 8, 0, 0.12, 0.05, &budget), -1);
	ck_assert_double_eq_tol(budget, 0.0626 / 2, 1e-9);
	/* from the cheapest way there is nowhere cheaper to go */
	ck_assert_int_eq(sampler_cheaper(bzip2, 8, 5, 0.0577, 0.05, &budget), -1);
	/* features under the threshold, or no way kept: nothing to do */
	ck_assert_int_eq(sampler_cheaper(bzip2, 8, 0, 0.04, 0.05, &budget), -1);
	ck_assert_int_eq(sampler_cheaper(bzip2, 8, -1, 0.0577, 0.05, &budget), -1);
}
END_TEST

START_TEST(features_judged_in_process_step_down_by_share)
{
	/* pcre2grep's trials (session 66, --in-process): 1%, 0.5% and 0.25% in 8 pieces, a prefix
	 * and a line at a time, each run twice as a process (17-30% whatever the share); 1% a
	 * line at a time kept, its features judged in process at 5.55% and more */
	struct sampler_trial p2[] = {
		TRIAL(0.01, 8192, 8, 0.00880, 0.00196, NULL),
		TRIAL(0.01, 8192, 1, 0.00445, 0.00080, NULL),
		TRIAL(0.01, 8192, SAMPLER_BY_LINE, 0.00436, 0.00084, NULL),
		TRIAL(0.005, 8192, 8, 0.00849, 0.00228, NULL),
		TRIAL(0.005, 8192, 1, 0.00803, 0.00154, NULL),
		TRIAL(0.005, 8192, SAMPLER_BY_LINE, 0.00937, 0.00269, NULL),
		TRIAL(0.0025, 8192, 8, 0.01302, 0.00290, NULL),
		TRIAL(0.0025, 8192, 1, 0.00958, 0.00176, NULL),
		TRIAL(0.0025, 8192, SAMPLER_BY_LINE, 0.00899, 0.00146, NULL),
	};
	double costs[] = {0.2124, 0.2110, 0.3023, 0.2127, 0.2190, 0.2773, 0.2527, 0.1706, 0.2530};
	double shares[] = {0.0125331, 0.0125043, 0.0123677, 0.0062849, 0.0062544, 0.0061863,
			   0.0031576, 0.0031291, 0.0030928};
	double budget, share;

	for (int i = 0; i < 9; i++) {
		p2[i].cost = costs[i];
		p2[i].share = shares[i];
	}
	ck_assert_int_eq(sampler_cheapest(p2, 9, 0.05, 0.075), 2);
	/* by the trials' cost no way is cheaper: the budget (27.2%) admits 1% as a prefix,
	 * which errs least there but takes a larger share */
	ck_assert_int_eq(sampler_cheaper(p2, 9, 2, 0.0555, 0.05, &budget), -1);
	/* by share, 90% of the kept way's: the ways at 0.5%, of which a prefix errs least; 0.25%
	 * as a prefix (0.958%) is just over one standard error (0.154%) of it, and 8 pieces of
	 * the same share within it are spread wider */
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, 2, 0.0555, 0.05, &share), 3);
	ck_assert_double_eq_tol(share, 0.0123677 * 0.05 / 0.0555, 1e-9);
	/* features at 2.4 times the threshold: 41.7% of the kept way's share admits the ways at
	 * 0.25%, a line at a time best there */
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, 2, 0.12, 0.05, &share), 8);
	ck_assert_double_eq_tol(share, 0.0123677 * 0.05 / 0.12, 1e-9);
	/* from 0.5% a line at a time, none takes 41.7% of its share; the step down to half of
	 * it admits 0.25% a line at a time alone */
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, 5, 0.12, 0.05, &share), 8);
	ck_assert_double_eq_tol(share, 0.0061863 / 2, 1e-9);
	/* from the least share there is nowhere to go; under the threshold nothing to do */
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, 8, 0.0555, 0.05, &share), -1);
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, 2, 0.04, 0.05, &share), -1);
	ck_assert_int_eq(sampler_cheaper_share(p2, 9, -1, 0.0555, 0.05, &share), -1);
}
END_TEST

START_TEST(a_way_steps_down_where_its_features_cost_far_over_the_threshold)
{
	/* encryptor's trials (session 42): 8 KiB at 1% and 0.25% of its data, 64 KiB and 256 KiB
	 * at 1%, each in 8 pieces, a prefix and a line at a time; 256 KiB a line at a time kept,
	 * its features judged at 32.9% and more on their first 3 inputs */
	struct sampler_trial enc[] = {
		TRIAL(0.01, 8192, 8, 0.1003, 0.0089, NULL),
		TRIAL(0.01, 8192, 1, 0.1134, 0.0107, NULL),
		TRIAL(0.01, 8192, SAMPLER_BY_LINE, 0.1001, 0.0090, NULL),
		TRIAL(0.0025, 8192, 8, 0.1433, 0.0113, NULL),
		TRIAL(0.0025, 8192, 1, 0.1517, 0.0127, NULL),
		TRIAL(0.0025, 8192, SAMPLER_BY_LINE, 0.1509, 0.0123, NULL),
		TRIAL(0.01, 65536, 8, 0.0437, 0.0054, NULL),
		TRIAL(0.01, 65536, 1, 0.0954, 0.0137, NULL),
		TRIAL(0.01, 65536, SAMPLER_BY_LINE, 0.0372, 0.0044, NULL),
		TRIAL(0.01, 262144, 8, 0.0280, 0.0044, NULL),
		TRIAL(0.01, 262144, 1, 0.0693, 0.0117, NULL),
		TRIAL(0.01, 262144, SAMPLER_BY_LINE, 0.0235, 0.0034, NULL),
	};
	double costs[] = {0.1145, 0.1205, 0.1220, 0.0943, 0.0937, 0.0945,
			  0.1920, 0.1947, 0.2059, 0.5983, 0.5822, 0.5492};
	double shares[] = {0.0131, 0.0127, 0.0126, 0.0061, 0.0057, 0.0056,
			   0.0412, 0.0406, 0.0411, 0.1622, 0.1616, 0.1643};
	double budget;

	for (int i = 0; i < 12; i++) {
		enc[i].cost = costs[i];
		enc[i].share = shares[i];
	}
	/* scaled, the budget (8.4%) is under every way's; half the kept way's admits 64 KiB and
	 * 8 KiB, and 64 KiB a line at a time errs least */
	ck_assert_int_eq(sampler_cheaper(enc, 12, 11, 0.3286, 0.05, &budget), 8);
	ck_assert_double_eq_tol(budget, 0.5492 / 2, 1e-9);
	/* there, features judged at 7.3% scale the budget to 14.1%: 8 KiB at 1%, a line at a
	 * time, which errs least of those */
	ck_assert_int_eq(sampler_cheaper(enc, 12, 8, 0.0726, 0.05, &budget), 2);
	ck_assert_double_eq_tol(budget, 0.2059 * 0.05 / 0.0726, 1e-9);
	/* from 8 KiB at 1%: features at 9.5%, under twice the threshold, scale the budget to
	 * 6.4%, under every way's, and do not step down; at 30% no way costs half its 12.2% */
	ck_assert_int_eq(sampler_cheaper(enc, 12, 2, 0.095, 0.05, &budget), -1);
	ck_assert_double_eq_tol(budget, 0.1220 * 0.05 / 0.095, 1e-9);
	ck_assert_int_eq(sampler_cheaper(enc, 12, 2, 0.30, 0.05, &budget), -1);
	ck_assert_double_eq_tol(budget, 0.1220 / 2, 1e-9);
}
END_TEST

START_TEST(a_way_is_given_up_where_its_features_mostly_cost_too_much)
{
	/* lame's set-up: six judged too costly, none accepted, with or without a cheaper way */
	ck_assert(!sampler_give_up(5, 0, 1));
	ck_assert(sampler_give_up(6, 0, 0));
	ck_assert(sampler_give_up(6, 0, 1));
	/* encryptor at 256 KiB (session 42): 8 too costly and 1 accepted by round 3, 64 KiB and
	 * 8 KiB among the trials; it is given up, and kept where nothing is cheaper */
	ck_assert(sampler_give_up(8, 1, 1));
	ck_assert(!sampler_give_up(8, 1, 0));
	/* 3 to 1 exactly, and under it */
	ck_assert(sampler_give_up(6, 2, 1));
	ck_assert(!sampler_give_up(8, 3, 1));
	/* pcre2grep alone (session 42): 16 too costly, 19 accepted; and encryptor's 8 KiB way,
	 * 12 against 21 */
	ck_assert(!sampler_give_up(16, 19, 1));
	ck_assert(!sampler_give_up(12, 21, 1));
	/* too few judged for a verdict, however lopsided */
	ck_assert(!sampler_give_up(5, 1, 1));
}
END_TEST

START_TEST(a_rejection_for_the_joint_cost_saves_what_it_can)
{
	/* bzip2's count (session 24): the block size's evaluator beside four sampled features,
	 * whose runs on the samples are one (4.1%): the block size goes, the only saving */
	struct sampler_cost bzip2[] = {
		{0.0126, 0, 1}, {0.0414, 1, 1}, {0.0446, 1, 1}, {0.0483, 1, 1}, {0.0412, 1, 1},
	};
	/* the last sampled feature saves its runs, more than the program feature */
	struct sampler_cost last[] = {{0.0126, 0, 1}, {0.0414, 1, 1}};
	/* sampled features alone save nothing each: the costliest goes, as among program ones */
	struct sampler_cost sampled[] = {{0.041, 1, 1}, {0.048, 1, 1}, {0.045, 1, 1}};
	struct sampler_cost program[] = {{0.02, 0, 1}, {0.03, 0, 1}, {0.01, 0, 1}};
	/* a sampled feature that may not go still shares the runs; one that may not go is never
	 * chosen */
	struct sampler_cost kept[] = {{0.02, 0, 0}, {0.04, 1, 0}, {0.05, 1, 1}, {0.01, 0, 1}};
	struct sampler_cost none[] = {{0.02, 0, 0}, {0.04, 1, 0}};
	double saving;

	ck_assert_int_eq(sampler_rejection(bzip2, 5, 0.041, &saving), 0);
	ck_assert_double_eq_tol(saving, 0.0126, 1e-12);
	ck_assert_int_eq(sampler_rejection(last, 2, 0.041, &saving), 1);
	ck_assert_double_eq_tol(saving, 0.041, 1e-12);
	ck_assert_int_eq(sampler_rejection(sampled, 3, 0.041, &saving), 1);
	ck_assert_double_eq_tol(saving, 0, 1e-12);
	ck_assert_int_eq(sampler_rejection(program, 3, 0.041, &saving), 1);
	ck_assert_double_eq_tol(saving, 0.03, 1e-12);
	ck_assert_int_eq(sampler_rejection(kept, 4, 0.041, &saving), 3);
	ck_assert_double_eq_tol(saving, 0.01, 1e-12);
	ck_assert_int_eq(sampler_rejection(none, 2, 0.041, &saving), -1);
}
END_TEST

Suite *suite_sampler(void)
{
	Suite *s = suite_create("sampler");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, excerpts_are_spread_pieces_and_the_smaller_is_inside);
	tcase_add_test(tc, a_text_files_pieces_hold_whole_lines);
	tcase_add_test(tc, a_text_file_is_sampled_a_line_at_a_time);
	tcase_add_test(tc, small_files_are_raised_to_the_least_excerpt_or_kept_whole);
	tcase_add_test(tc, extrapolation_is_exact_for_an_affine_feature);
	tcase_add_test(tc, means_are_offered_as_they_are_and_counts_only_extrapolated);
	tcase_add_test(tc, a_square_is_had_along_the_parabola_where_it_extrapolates_better);
	tcase_add_test(tc, plan_files_round_trip_and_refuse_other_words);
	tcase_add_test(tc, an_optional_file_is_sampled_where_it_is_named);
	tcase_add_test(tc, sampled_runs_are_kept_per_input_and_files);
	tcase_add_test(tc, the_cheapest_share_within_one_standard_error_is_kept);
	tcase_add_test(tc, a_way_under_the_threshold_that_extrapolates_well_is_kept);
	tcase_add_test(tc, a_line_at_a_time_is_kept_only_where_it_extrapolates_best);
	tcase_add_test(tc, a_larger_sample_is_kept_when_it_extrapolates_better_within_the_budget);
	tcase_add_test(tc, a_way_is_judged_by_its_count_once_rescaled);
	tcase_add_test(tc, bzip2s_smallest_way_is_kept_once_its_count_is_rescaled);
	tcase_add_test(tc, a_cheaper_way_is_taken_when_the_kept_way_costs_too_much);
	tcase_add_test(tc, a_way_is_given_up_where_its_features_mostly_cost_too_much);
	tcase_add_test(tc, a_way_steps_down_where_its_features_cost_far_over_the_threshold);
	tcase_add_test(tc, features_judged_in_process_step_down_by_share);
	tcase_add_test(tc, a_rejection_for_the_joint_cost_saves_what_it_can);
	suite_add_tcase(s, tc);
	return s;
}
