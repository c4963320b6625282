/*
 * test_field.c: header fields (src/field.c): their names, their numbers, and which fields
 * training finds for which first values. The files are made here: a WAV-like header (channels,
 * a little-endian 16-bit word at 22; the rate, a 32-bit one at 24) and a JPEG-like frame (the
 * height, a big-endian word at 163 that the program reads a byte at a time, the high byte
 * first; a sampling factor in the high four bits of byte 170), every other byte random.
 */
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "field.h"
#include "tests.h"
#include "util.h"

enum { ROWS = 12, HEAD = 512 };

/* A name names its field, and back; a malformed one or one past FIELD_BYTES is refused. */
START_TEST(names_round_trip)
{
	static const char *const bad[] = {
		"input:field(u16be@)", "input:field(u17@3)", "input:field(u8@4096)",
		"input:field(u8@3)x", "input:field(u8@-1)", "input:word(u8@3)", "input:field(@3)",
	};
	struct field f;
	char *name;

	for (int e = 0; e < FIELD_ENCODINGS; e++) {
		struct field in = {163 + e, (enum field_encoding)e};
		name = field_name(&in);
		ck_assert_int_eq(field_parse(name, &f), 0);
		ck_assert(f.offset == in.offset && f.enc == in.enc);
		free(name);
	}
	f = (struct field){163, FIELD_U16BE};
	name = field_name(&f);
	ck_assert_str_eq(name, "input:field(u16be@163)");
	free(name);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		ck_assert_msg(field_parse(bad[i], &f) < 0, "%s parsed", bad[i]);
}
END_TEST

/* Each encoding reads its bytes its way; a field past the bytes is 0; the file reads alike. */
START_TEST(each_encoding_reads_its_number)
{
	static const unsigned char b[] = {0x12, 0x34, 0x56, 0x78};
	static const double want[FIELD_ENCODINGS] = {
		0x78563412, 0x12345678, 0x3412, 0x1234, 0x12, 0x1, 0x2,
	};
	char *dir = test_tmpdir(), *path = test_write_file(dir, "h.bin", "\x12\x34\x56\x78");

	for (int e = 0; e < FIELD_ENCODINGS; e++) {
		struct field f = {0, (enum field_encoding)e}, past = {1, (enum field_encoding)e};
		double shifted = field_decode(&f, b + 1, sizeof b - 1);

		ck_assert_double_eq(field_decode(&f, b, sizeof b), want[e]);
		ck_assert_double_eq(field_read(path, &f), want[e]);
		ck_assert_double_eq(field_decode(&past, b, sizeof b), shifted);
		ck_assert(e <= FIELD_U32BE ? shifted == 0 : shifted > 0);
	}
	ck_assert_double_eq(field_read(path, &(struct field){2, FIELD_U32LE}), 0);
	ck_assert_double_eq(field_read(NULL, &(struct field){0, FIELD_U8}), 0);
	free(path);
	free(dir);
}
END_TEST

/* Fills ROWS headers of random bytes with the fields, and ds with the first values a program
 * reading them would have, and two columns that find none (a loop's count equal to the rate:
 * not a first value; a first value no byte gives). */
static void make_rows(unsigned char head[ROWS][HEAD], struct dataset *ds)
{
	static const double rates[] = {22050, 32000, 44100, 48000};
	unsigned long long s = 7; /* an LCG's state: the random bytes */
	double channels[ROWS], rate[ROWS], height[ROWS], factor[ROWS], noise[ROWS];

	for (int i = 0; i < ROWS; i++) {
		for (int k = 0; k < HEAD; k++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			head[i][k] = (unsigned char)(s >> 56);
		}
		channels[i] = 1 + i % 2;
		rate[i] = rates[i % 4];
		height[i] = 1000 + 397 * i;
		factor[i] = 1 + (i / 3) % 2;
		noise[i] = 5 + i * i % 7;
		head[i][22] = (unsigned char)channels[i];
		head[i][23] = 0;
		for (int k = 0; k < 4; k++)
			head[i][24 + k] = (unsigned char)((unsigned long)rate[i] >> (8 * k));
		head[i][163] = (unsigned char)((unsigned)height[i] >> 8);
		head[i][164] = (unsigned char)((unsigned)height[i] & 255);
		head[i][170] = (unsigned char)(factor[i] * 16 + (i % 3));
		height[i] = 256 * head[i][163]; /* the first of two assignments */
	}
	memset(ds, 0, sizeof *ds);
	ds->n = ROWS;
	dataset_add_column(ds, "loop:main:w.c:9", rate);
	dataset_add_column(ds, "value:noise:n.c:4:x.first", noise);
	dataset_add_column(ds, "value:parse:w.c:12:channels.first", channels);
	dataset_add_column(ds, "value:parse:w.c:13:rate.v2", rate);
	dataset_add_column(ds, "value:get_sof:j.c:255:frame.height.first", height);
	dataset_add_column(ds, "value:get_sof:j.c:270:comp.h_samp.first", factor);
}

/* The fields found are the ones the program reads, in its columns' order: the channels' word
 * (the wider of the two copies at 22), the rate's 32-bit
 * word (not the 16-bit one that holds these rates too), the height's big-endian word (its
 * first value is its high byte times 256) and the factor's high four bits. */
START_TEST(first_values_find_their_fields)
{
	static unsigned char head[ROWS][HEAD];
	const unsigned char *heads[ROWS];
	size_t len[ROWS];
	struct field out[FIELDS_MOST];
	struct dataset ds;
	const char *want[] = {"input:field(u16le@22)", "input:field(u32le@24)",
			      "input:field(u16be@163)", "input:field(u4hi@170)"};
	int n;

	make_rows(head, &ds);
	for (int i = 0; i < ROWS; i++) {
		heads[i] = head[i];
		len[i] = HEAD;
	}
	n = field_learn(&ds, heads, len, out, FIELDS_MOST);
	ck_assert_int_eq(n, 4);
	for (int k = 0; k < n; k++) {
		char *name = field_name(&out[k]);

		ck_assert_str_eq(name, want[k]);
		free(name);
	}
	ck_assert_int_eq(field_learn(&ds, heads, len, out, 2), 2);
	len[5] = 100; /* one file ends before the height: only the header's first fields */
	ck_assert_int_eq(field_learn(&ds, heads, len, out, FIELDS_MOST), 2);
	dataset_release(&ds);
}
END_TEST

Suite *suite_field(void)
{
	Suite *s = suite_create("field");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, names_round_trip);
	tcase_add_test(tc, each_encoding_reads_its_number);
	tcase_add_test(tc, first_values_find_their_fields);
	suite_add_tcase(s, tc);
	return s;
}
