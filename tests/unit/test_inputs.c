/*
 * test_inputs.c: the inputs-file parser: words, quoting, comments, stdin, path resolution, and
 * the exact message (file:line) of every refusal; the descriptors read off an input
 * (descriptor.c): names, values and the readability check; the content probe (probe.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dataset.h"
#include "descriptor.h"
#include "error.h"
#include "inputs.h"
#include "probe.h"
#include "tests.h"
#include "util.h"

/* Parses text in dir and asserts success; the caller releases *ins. */
static void parse_ok(struct inputs *ins, const char *text, const char *dir)
{
	struct error err = {""};

	ck_assert_msg(inputs_parse(ins, text, "in.txt", dir, &err) == 0, "%s", err.msg);
}

/* Parses text and asserts failure with exactly the message want. */
static void parse_fails(const char *text, const char *want)
{
	struct inputs ins;
	struct error err = {""};

	ck_assert_int_eq(inputs_parse(&ins, text, "in.txt", "/nonexistent", &err), -1);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(ins.n, 0);
}

START_TEST(words_and_quotes)
{
	struct inputs ins;

	parse_ok(&ins, "-a 'b c' \"d\\\"e\" f\\ g '' x'y'\"z\"\n", "/nonexistent");
	ck_assert_int_eq(ins.n, 1);
	ck_assert_int_eq(ins.v[0].argc, 6);
	ck_assert_str_eq(ins.v[0].argv[0], "-a");
	ck_assert_str_eq(ins.v[0].argv[1], "b c");
	ck_assert_str_eq(ins.v[0].argv[2], "d\"e");
	ck_assert_str_eq(ins.v[0].argv[3], "f g");
	ck_assert_str_eq(ins.v[0].argv[4], "");
	ck_assert_str_eq(ins.v[0].argv[5], "xyz");
	ck_assert_ptr_null(ins.v[0].argv[6]);
	ck_assert_ptr_null(ins.v[0].stdin_path);
	inputs_release(&ins);
}
END_TEST

START_TEST(comments_blank_lines_and_line_numbers)
{
	struct inputs ins;

	parse_ok(&ins, "# header\n\n   \n  x y   # trailing comment\r\na#b '#c'\n", "/nonexistent");
	ck_assert_int_eq(ins.n, 2);
	ck_assert_int_eq(ins.v[0].line, 4);
	ck_assert_str_eq(ins.v[0].text, "x y");
	ck_assert_int_eq(ins.v[0].argc, 2);
	ck_assert_str_eq(ins.v[0].argv[1], "y");
	ck_assert_int_eq(ins.v[1].line, 5);
	ck_assert_int_eq(ins.v[1].argc, 2);
	ck_assert_str_eq(ins.v[1].argv[0], "a#b");
	ck_assert_str_eq(ins.v[1].argv[1], "#c");
	inputs_release(&ins);
}
END_TEST

START_TEST(stdin_and_path_resolution)
{
	char *dir = test_tmpdir();
	char *data = test_write_file(dir, "data.bin", "x");
	char *want_key = xasprintf("--key=%s", data);
	struct inputs ins;

	free(test_write_file(dir, "in.txt", "abc"));
	parse_ok(&ins, "-i data.bin -o out.bin --key=data.bin {tmp}/o /etc/hostname <in.txt\n"
		       "< in.txt\n", dir);
	ck_assert_int_eq(ins.n, 2);
	ck_assert_int_eq(ins.v[0].argc, 7);
	ck_assert_str_eq(ins.v[0].argv[1], data);
	ck_assert_str_eq(ins.v[0].argv[3], "out.bin");
	ck_assert_str_eq(ins.v[0].argv[4], want_key);
	ck_assert_str_eq(ins.v[0].argv[5], "{tmp}/o");
	ck_assert_str_eq(ins.v[0].argv[6], "/etc/hostname");
	ck_assert_str_eq(ins.v[0].stdin_path + strlen(dir), "/in.txt");
	ck_assert_int_eq(ins.v[1].argc, 0);
	ck_assert_ptr_null(ins.v[1].argv[0]);
	ck_assert_str_eq(ins.v[1].stdin_path + strlen(dir), "/in.txt");
	inputs_release(&ins);
	free(want_key);
	free(data);
	free(dir);
}
END_TEST

START_TEST(refusals_name_the_line)
{
	parse_fails("ok\na | b\n", "in.txt:2: unsupported shell syntax '|' "
				    "(quote it with '...' to pass it as an argument)");
	parse_fails("a > out\n", "in.txt:1: output redirection is not supported: "
				 "mantis captures stdout; write output files under {tmp}");
	parse_fails("\n\n-v $HOME\n", "in.txt:3: '$' would be expanded by a shell; "
				      "mantis does not expand, so quote it with '...'");
	parse_fails("\"a $b\"\n", "in.txt:1: '$' would be expanded by a shell; "
				  "mantis does not expand, so quote it with '...'");
	parse_fails("a 'bc\n", "in.txt:1: unterminated quote");
	parse_fails("a \"bc\n", "in.txt:1: unterminated quote");
	parse_fails("a \\", "in.txt:1: a line may not end with a backslash "
			    "(continuation lines are not supported)");
	parse_fails("< a < b\n", "in.txt:1: stdin is redirected twice");
	parse_fails("x <\n", "in.txt:1: '<' must be followed by a file name");
	parse_fails("x < nope.txt\n", "in.txt:1: stdin file 'nope.txt' does not exist");
}
END_TEST

START_TEST(quoted_specials_are_literal)
{
	struct inputs ins;

	parse_ok(&ins, "'$HOME' 'a|b' '>' \"<\" \\;\n", "/nonexistent");
	ck_assert_int_eq(ins.v[0].argc, 5);
	ck_assert_str_eq(ins.v[0].argv[0], "$HOME");
	ck_assert_str_eq(ins.v[0].argv[1], "a|b");
	ck_assert_str_eq(ins.v[0].argv[2], ">");
	ck_assert_str_eq(ins.v[0].argv[3], "<");
	ck_assert_str_eq(ins.v[0].argv[4], ";");
	ck_assert_ptr_null(ins.v[0].stdin_path);
	inputs_release(&ins);
}
END_TEST

START_TEST(load_resolves_folder_and_reports_files)
{
	char *dir = test_tmpdir();
	char *path = test_write_file(dir, "inputs.txt", "# two inputs\nkey.txt 1\nkey.txt 2\n");
	char *key = test_write_file(dir, "key.txt", "k");
	struct inputs ins;
	struct error err = {""};

	ck_assert_msg(inputs_load(&ins, path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ins.n, 2);
	ck_assert_str_eq(ins.dir, dir);
	ck_assert_str_eq(ins.v[1].argv[0], key);
	ck_assert_str_eq(ins.v[1].argv[1], "2");
	ck_assert_int_eq(ins.v[1].line, 3);
	inputs_release(&ins);

	ck_assert_int_eq(inputs_load(&ins, "/nonexistent/inputs.txt", &err), -1);
	ck_assert_str_eq(err.msg, "cannot resolve the folder of inputs file "
				  "/nonexistent/inputs.txt: No such file or directory");
	free(path);
	path = xasprintf("%s/missing.txt", dir);
	ck_assert_int_eq(inputs_load(&ins, path, &err), -1);
	ck_assert_msg(strstr(err.msg, "missing.txt: No such file or directory") != NULL, "%s",
		      err.msg);
	free(path);
	path = xasprintf("%s/nul.txt", dir);
	{
		FILE *f = fopen(path, "wb");

		fwrite("a\nb\n\0c\n", 1, 7, f);
		fclose(f);
	}
	ck_assert_int_eq(inputs_load(&ins, path, &err), -1);
	ck_assert_msg(strstr(err.msg, "nul.txt:3: line contains a NUL byte") != NULL, "%s",
		      err.msg);
	free(path);
	free(key);
	free(dir);
}
END_TEST

START_TEST(descriptor_names_round_trip)
{
	for (int j = 0; j < DESCRIPTOR_N; j++) {
		char *name = descriptor_name(j);

		ck_assert_int_eq(descriptor_find(name), j);
		free(name);
	}
	ck_assert_int_eq(descriptor_find("input:arg17"), -1);
	ck_assert_int_eq(descriptor_find("arg1"), -1);
	ck_assert_int_eq(descriptor_find("loop:main:a.c:3"), -1);
	ck_assert_int_eq(descriptor_find("input:size(arg3)"), DESCRIPTOR_ARGS + 2);
	ck_assert_int_eq(descriptor_find("input:size(stdin)"), DESCRIPTOR_STDIN);
	ck_assert_int_eq(descriptor_find("input:size(all files)"), DESCRIPTOR_ALL);
	ck_assert_int_eq(descriptor_find("input:entropy(data)"), DESCRIPTOR_ENTROPY);
	ck_assert_int_eq(descriptor_find("input:newlines(data)"), DESCRIPTOR_NEWLINES);
	ck_assert_int_eq(descriptor_find("input:number(1)"), DESCRIPTOR_NUMBER);
	ck_assert_int_eq(descriptor_find("input:number(16)"), DESCRIPTOR_N - 1);
	ck_assert_int_eq(descriptor_find("input:number(17)"), -1);
}
END_TEST

/* Writes n bytes of byte(i) to dir/name; returns its path (owned by the caller). */
static char *write_bytes(const char *dir, const char *name, size_t n, int (*byte)(size_t))
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	for (size_t i = 0; i < n; i++)
		putc(byte(i), f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

static int letter_a(size_t i) { return (void)i, 'a'; }
static int cycle_of_256(size_t i) { return (int)(i % 256); }
/* A MiB of 'x' with a newline at its first byte, its last, and one between two pieces. */
static int newline_at_ends(size_t i) { return i == 0 || i == 1048575 || i == 500000 ? '\n' : 'x'; }

/* The probe of small files, read whole: one byte value carries 0 bits, 256 equally often 8;
 * a 4 KiB piece of one byte repeats all its 4-byte strings but its first, a cycle of 256 all
 * but 256; newlines are '\n' over bytes. A large file is read at 16 places from its first
 * byte to its last, not between; a missing file probes to zeros, and an empty one too. */
START_TEST(probe_of_files)
{
	char *dir = test_tmpdir(), *a = write_bytes(dir, "a", 8192, letter_a);
	char *cycle = write_bytes(dir, "cycle", 4096, cycle_of_256);
	char *big = write_bytes(dir, "big", 1048576, newline_at_ends);
	char *empty = write_bytes(dir, "empty", 0, letter_a), *missing = xasprintf("%s/no", dir);
	struct probe pr;

	ck_assert_int_eq(probe_file(a, &pr), 0);
	ck_assert(pr.entropy == 0 && pr.newlines == 0);
	ck_assert_double_eq(pr.repeats, 2.0 * 4092 / (2.0 * 4093));
	ck_assert_int_eq(probe_file(cycle, &pr), 0);
	ck_assert(pr.entropy == 8);
	ck_assert_double_eq(pr.repeats, (4093.0 - 256) / 4093);
	ck_assert_double_eq(pr.newlines, 16.0 / 4096);
	ck_assert_int_eq(probe_file(big, &pr), 0);
	ck_assert_double_eq(pr.newlines, 2.0 / (16 * 4096));
	ck_assert_int_eq(probe_file(empty, &pr), 0);
	ck_assert(pr.entropy == 0 && pr.repeats == 0 && pr.newlines == 0);
	ck_assert_int_eq(probe_file(missing, &pr), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert(pr.entropy == 0 && pr.repeats == 0 && pr.newlines == 0);
	free(a);
	free(cycle);
	free(big);
	free(empty);
	free(missing);
	free(dir);
}
END_TEST

/* Returns a byte of a 64 KiB text: a line of digits. */
static int digits_in_lines(size_t i) { return i % 64 == 63 ? '\n' : '0' + (int)(i % 10); }

/* A script's numbers: strtod's reading at each digit that starts a word, in order, 16 at most,
 * zeros past the last; the digits of a name (t2), after a '.' (the 5 of 1.2.5) or inside a
 * number already read are none, a sign is not taken, nor a number out of a double's range.
 * Binary data, a file over 64 KiB, an empty one or none is no script: all zeros. */
START_TEST(probe_of_scripts)
{
	char *dir = test_tmpdir(), *missing = xasprintf("%s/no", dir);
	char *sql = test_write_file(dir, "q.sql", "WITH c(x) AS (SELECT 1 UNION ALL SELECT x + 1 "
					"FROM c WHERE x < 105749)\r\n\tINSERT INTO t2 SELECT (x * 7919) "
					"% 105749, printf('%08x', -2.5e3) FROM c; -- v1.2.5 1e999 0x1F\n");
	char *many = test_write_file(dir, "many", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17\n");
	char *binary = test_write_file(dir, "binary", "rows 5\001\n");
	char *big = write_bytes(dir, "big", 65537, digits_in_lines);
	char *fits = write_bytes(dir, "fits", 65536, digits_in_lines);
	char *empty = test_write_file(dir, "empty", "");
	double n[PROBE_NUMBERS];
	const double expect[] = {1, 1, 105749, 7919, 105749, 8, 2.5e3, 0, 31};

	ck_assert_int_eq(probe_script(sql, n), 1);
	for (int k = 0; k < PROBE_NUMBERS; k++)
		ck_assert_double_eq(n[k], k < 9 ? expect[k] : 0);
	ck_assert_int_eq(probe_script(many, n), 1);
	ck_assert(n[0] == 1 && n[15] == 16);
	ck_assert_int_eq(probe_script(fits, n), 1);
	ck_assert_double_eq(n[0], 12345678901234567890123456789012345678901234567890123456789012.0);
	ck_assert_int_eq(probe_script(binary, n), 0);
	ck_assert(n[0] == 0);
	ck_assert_int_eq(probe_script(big, n), 0);
	ck_assert(n[0] == 0);
	ck_assert_int_eq(probe_script(empty, n), 0);
	ck_assert_int_eq(probe_script(missing, n), 0);
	ck_assert_int_eq(probe_script(dir, n), 0);
	ck_assert_int_eq(mkfifo(missing, 0600), 0); /* a FIFO no one writes: no script, no wait */
	ck_assert_int_eq(probe_script(missing, n), 0);
	free(sql);
	free(many);
	free(binary);
	free(big);
	free(fits);
	free(empty);
	free(missing);
	free(dir);
}
END_TEST

/* An input's script is its first file that is one: its stdin here, though a larger file and a
 * second script follow; an input naming no script has no numbers, and refuses them. */
START_TEST(descriptor_numbers_of_the_script)
{
	char *dir = test_tmpdir(), *text;
	struct inputs ins;
	double row[DESCRIPTOR_N];
	const char *path;

	free(write_bytes(dir, "cycle", 4096, cycle_of_256));
	free(test_write_file(dir, "a.sql", "rows 300\nmode 2\n"));
	free(test_write_file(dir, "b.sql", "rows 7\n"));
	text = xasprintf("cycle --opt=b.sql < a.sql\ncycle --opt=b.sql\ncycle 12\n");
	parse_ok(&ins, text, dir);
	descriptor_values(&ins.v[0], row);
	ck_assert(row[DESCRIPTOR_NUMBER] == 300 && row[DESCRIPTOR_NUMBER + 1] == 2);
	ck_assert(row[DESCRIPTOR_NUMBER + 2] == 0 && row[DESCRIPTOR_ENTROPY] == 8);
	ck_assert(descriptor_value(&ins.v[1], DESCRIPTOR_NUMBER) == 7);
	ck_assert_int_eq(descriptor_readable(&ins.v[1], DESCRIPTOR_NUMBER + 3, &path), 0);
	ck_assert(descriptor_value(&ins.v[2], DESCRIPTOR_NUMBER) == 0);
	ck_assert_int_eq(descriptor_readable(&ins.v[2], DESCRIPTOR_NUMBER, &path), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert(descriptor_scripted(DESCRIPTOR_NUMBER) && !descriptor_probes(DESCRIPTOR_NUMBER));
	ck_assert(!descriptor_scripted(DESCRIPTOR_NEWLINES) && descriptor_probes(DESCRIPTOR_NEWLINES));
	inputs_release(&ins);
	free(text);
	free(dir);
}
END_TEST

/* The content descriptors probe the input's largest file, here its stdin (the black box's
 * sizes do not read it); an input naming no file has none to read. */
START_TEST(descriptor_probes_the_data_file)
{
	char *dir = test_tmpdir(), *text;
	struct inputs ins;
	double row[DESCRIPTOR_N];
	const char *path;

	free(write_bytes(dir, "cycle", 4096, cycle_of_256));
	free(test_write_file(dir, "small.txt", "abc"));
	text = xasprintf("small.txt < cycle\n7\n");
	parse_ok(&ins, text, dir);
	descriptor_values(&ins.v[0], row);
	ck_assert(row[DESCRIPTOR_ENTROPY] == 8 && row[DESCRIPTOR_NEWLINES] == 16.0 / 4096);
	ck_assert(descriptor_value(&ins.v[0], DESCRIPTOR_REPEATS) == (4093.0 - 256) / 4093);
	ck_assert_int_eq(descriptor_readable(&ins.v[0], DESCRIPTOR_ENTROPY, &path), 0);
	descriptor_values(&ins.v[1], row);
	ck_assert(row[0] == 7 && row[DESCRIPTOR_ENTROPY] == 0 && row[DESCRIPTOR_REPEATS] == 0);
	ck_assert_int_eq(descriptor_readable(&ins.v[1], DESCRIPTOR_NEWLINES, &path), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_ptr_null(path);
	inputs_release(&ins);
	free(text);
	free(dir);
}
END_TEST

/* The words that become features: flags and patterns some inputs have and others not, in two
 * inputs or more; not numbers, files (nor -opt=FILE), words every input has, or one input's
 * alone. Their value is 1 where the word is an argument, by name, as export-c computes it. */
START_TEST(descriptor_words_of_the_inputs)
{
	char *dir = test_tmpdir(), *text, *d;
	struct inputs ins;
	struct dataset ds = {.n = 4};
	const struct input *in[4];
	double row[DESCRIPTOR_N];

	free(test_write_file(dir, "a.txt", "abc"));
	text = xasprintf("-c -e a.txt 9\n-c a.txt 9 -e\n-c -k \"x|y\" a.txt --out=a.txt\n"
			 "-c \"x|y\" once a.txt\n");
	parse_ok(&ins, text, dir);
	ds.y = xcalloc(4, sizeof *ds.y);
	ds.names = xcalloc(1, sizeof *ds.names);
	ds.metric = xstrdup("wall");
	for (int i = 0; i < 4; i++)
		in[i] = &ins.v[i];
	/* arg3's and arg4's numbers, the sizes of args 2-5 and of all files, then the words */
	ck_assert_int_eq(descriptor_add_columns(&ds, in), 7 + 2);
	ck_assert_str_eq(ds.names[7], "input:word(-e)");
	ck_assert_str_eq(ds.names[8], "input:word(x|y)");
	for (int i = 0; i < 4; i++) {
		ck_assert(ds.x[7 * 4 + i] == (i < 2));
		ck_assert(ds.x[8 * 4 + i] == (i >= 2));
	}
	ck_assert_int_eq(descriptor_find("input:word(-e)"), DESCRIPTOR_WORD);
	ck_assert_int_eq(descriptor_find("input:word()"), -1);
	descriptor_sizes(&ins.v[1], row);
	ck_assert(descriptor_named_value(&ins.v[1], "input:word(-e)", row) == 1);
	ck_assert(descriptor_named_value(&ins.v[2], "input:word(-e)", row) == 0);
	ck_assert(descriptor_named_value(&ins.v[1], "input:size(arg2)", row) == 3);
	d = descriptor_describe("input:word(x|y)");
	ck_assert_str_eq(d, "1 when \"x|y\" is one of the arguments, else 0");
	free(d);
	dataset_release(&ds);
	inputs_release(&ins);
	free(text);
	free(dir);
}
END_TEST

/* Numbers are whole words only; a file counts by itself and as a -opt=FILE value; the total
 * adds stdin; an output that does not exist yet is 0. */
START_TEST(descriptor_values_of_an_input)
{
	char *dir = test_tmpdir(), *text;
	struct inputs ins;
	double row[DESCRIPTOR_N];
	const char *path;

	free(test_write_file(dir, "seven.txt", "1234567"));
	free(test_write_file(dir, "three.txt", "abc"));
	text = xasprintf("-2.5e1 12x seven.txt --dict=three.txt out.txt < three.txt\n");
	parse_ok(&ins, text, dir);
	descriptor_values(&ins.v[0], row);
	ck_assert(row[0] == -25 && row[1] == 0 && row[2] == 0 && row[4] == 0);
	ck_assert(row[DESCRIPTOR_ARGS + 0] == 0 && row[DESCRIPTOR_ARGS + 2] == 7);
	ck_assert(row[DESCRIPTOR_ARGS + 3] == 3 && row[DESCRIPTOR_ARGS + 4] == 0);
	ck_assert(row[DESCRIPTOR_STDIN] == 3 && row[DESCRIPTOR_ALL] == 13);
	ck_assert(descriptor_value(&ins.v[0], DESCRIPTOR_ALL) == 13);
	ck_assert_int_eq(descriptor_readable(&ins.v[0], DESCRIPTOR_ARGS + 2, &path), 0);
	ck_assert_int_eq(descriptor_readable(&ins.v[0], DESCRIPTOR_ARGS + 3, &path), 0);
	ck_assert_int_eq(descriptor_readable(&ins.v[0], DESCRIPTOR_ARGS + 4, &path), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(path, "out.txt");
	ck_assert_int_eq(descriptor_readable(&ins.v[0], DESCRIPTOR_ARGS + 9, &path), -1);
	ck_assert_ptr_null(path);
	ck_assert_int_eq(descriptor_readable(&ins.v[0], 0, &path), 0);
	inputs_release(&ins);
	free(text);
	free(dir);
}
END_TEST

/* Inputs that name the same largest file share a group, whatever path names it (a hard link)
 * and whether stdin or a -opt=FILE word does; a smaller shared file (a key) does not join
 * them; an input naming no file, or a NULL input, is a group of its own. */
START_TEST(descriptor_groups_by_data_file)
{
	char *dir = test_tmpdir(), *big = test_write_file(dir, "big.txt", "0123456789");
	char *link_path = xasprintf("%s/same.txt", dir);
	struct inputs ins;
	const struct input *in[7];
	int *group, ngroups;

	free(test_write_file(dir, "key.txt", "k"));
	free(test_write_file(dir, "other.txt", "01234"));
	ck_assert_int_eq(link(big, link_path), 0);
	parse_ok(&ins, "-k key.txt big.txt\n-k key.txt other.txt\n< same.txt\n"
		       "--in=big.txt 4\n5 6\n-k key.txt\n", dir);
	for (int i = 0; i < 6; i++)
		in[i] = &ins.v[i];
	in[6] = NULL;
	group = descriptor_groups(in, 7, &ngroups);
	ck_assert_int_eq(ngroups, 5);
	ck_assert_int_eq(group[0], 0); /* big.txt */
	ck_assert_int_eq(group[1], 1); /* other.txt */
	ck_assert_int_eq(group[2], 0); /* big.txt through its link */
	ck_assert_int_eq(group[3], 0); /* --in=big.txt */
	ck_assert_int_eq(group[4], 2); /* no file */
	ck_assert_int_eq(group[5], 3); /* key.txt alone: its own data file */
	ck_assert_int_eq(group[6], 4); /* NULL */
	free(group);
	inputs_release(&ins);
	free(link_path);
	free(big);
	free(dir);
}
END_TEST

Suite *suite_inputs(void)
{
	Suite *s = suite_create("inputs");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, words_and_quotes);
	tcase_add_test(tc, comments_blank_lines_and_line_numbers);
	tcase_add_test(tc, stdin_and_path_resolution);
	tcase_add_test(tc, refusals_name_the_line);
	tcase_add_test(tc, quoted_specials_are_literal);
	tcase_add_test(tc, load_resolves_folder_and_reports_files);
	suite_add_tcase(s, tc);
	tc = tcase_create("descriptors");
	tcase_add_test(tc, descriptor_names_round_trip);
	tcase_add_test(tc, descriptor_values_of_an_input);
	tcase_add_test(tc, probe_of_files);
	tcase_add_test(tc, descriptor_probes_the_data_file);
	tcase_add_test(tc, probe_of_scripts);
	tcase_add_test(tc, descriptor_numbers_of_the_script);
	tcase_add_test(tc, descriptor_words_of_the_inputs);
	tcase_add_test(tc, descriptor_groups_by_data_file);
	suite_add_tcase(s, tc);
	return s;
}
