/*
 * test_count.c: the aggregation of bycount features into per-function and program counts
 * (count.c), on a hand-made manifest whose every value is worked out below, and the platform
 * model's arithmetic (platform.c): count x cost with library calls and their bytes, the
 * correction's features, and the platform file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "error.h"
#include "manifest.h"
#include "platform.h"
#include "tests.h"
#include "util.h"

/* Adds a feature with one term. */
static void add1(struct manifest *m, const char *kind, const char *name, const char *fn,
		 const char *file, int line, int counter, int64_t coef)
{
	feature_add_term(manifest_add(m, kind, name, fn, file, line, NULL, "test"), counter, coef);
}

/*
 * f (a.c:3) ran its only block 10 times (counter 0): 2 adds, 3 brs, one memcpy of counter 1
 * bytes in all; g (b.c:9) ran its block 7 times (counter 2), 4 adds each, and allocated
 * counter 3 elements of 8 bytes; h (b.c:20) never ran (counter 4). A loop feature is no count.
 */
static void make_manifest(struct manifest *m)
{
	memset(m, 0, sizeof *m);
	add1(m, "bycount", "bycount:f:a.c:3:total", "f", "a.c", 3, 0, 6);
	add1(m, "bycount", "bycount:(program):-:0:total", "(program)", "-", 0, 0, 6);
	feature_add_term(&m->v[1], 2, 4);
	feature_add_term(&m->v[1], 4, 1);
	add1(m, "bycount", "bycount:f:a.c:3:add", "f", "a.c", 3, 0, 2);
	add1(m, "bycount", "bycount:(program):-:0:add", "(program)", "-", 0, 0, 2);
	add1(m, "bycount", "bycount:f:a.c:3:br", "f", "a.c", 3, 0, 3);
	add1(m, "bycount", "bycount:f:a.c:3:call.memcpy", "f", "a.c", 3, 0, 1);
	add1(m, "bycount", "bycount:f:a.c:3:call.memcpy.bytes", "f", "a.c", 3, 1, 1);
	add1(m, "loop", "loop:f:a.c:4", "f", "a.c", 4, 0, 1);
	add1(m, "bycount", "bycount:g:b.c:9:total", "g", "b.c", 9, 2, 4);
	add1(m, "bycount", "bycount:g:b.c:9:add", "g", "b.c", 9, 2, 4);
	add1(m, "bycount", "bycount:g:b.c:9:alloca.bytes", "g", "b.c", 9, 3, 8);
	add1(m, "bycount", "bycount:h:b.c:20:total", "h", "b.c", 20, 4, 1);
	add1(m, "bycount", "bycount:h:b.c:20:ret", "h", "b.c", 20, 4, 1);
	m->ncounters = 5;
}

START_TEST(counts_add_up_per_function_and_in_total)
{
	struct manifest m;
	uint64_t counters[5] = {10, 4096, 7, 3, 0};
	struct count c;
	struct error err = {""};
	const struct count_item *memcpy_item;

	make_manifest(&m);
	ck_assert_msg(count_from_counters(&c, &m, counters, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(c.program.total, 6 * 10 + 4 * 7);
	ck_assert_int_eq(c.nfn, 2); /* h never ran */
	ck_assert_str_eq(c.fn[0].name, "f");
	ck_assert_str_eq(c.fn[1].name, "g");
	ck_assert_uint_eq(c.fn[0].total, 60);
	ck_assert_uint_eq(count_opcode(&c.fn[0], "br"), 30);
	ck_assert_uint_eq(count_opcode(&c.program, "add"), 2 * 10 + 4 * 7);
	ck_assert_uint_eq(count_opcode(&c.program, "mul"), 0);
	memcpy_item = count_call(&c.program, "memcpy");
	ck_assert_ptr_nonnull(memcpy_item);
	ck_assert_uint_eq(memcpy_item->n, 10);
	ck_assert_uint_eq(memcpy_item->bytes, 4096);
	ck_assert_int_eq(memcpy_item->has_bytes, 1);
	ck_assert_uint_eq(c.fn[1].alloca_bytes, 24);
	ck_assert_uint_eq(c.program.alloca_bytes, 24);
	count_release(&c);
	manifest_release(&m);
}
END_TEST

START_TEST(counts_print_the_same_sorted_json)
{
	struct manifest m;
	uint64_t counters[5] = {10, 4096, 7, 3, 0};
	struct count c;
	struct error err = {""};
	json_t *j;
	char *text;

	make_manifest(&m);
	ck_assert(count_from_counters(&c, &m, counters, &err) == 0);
	j = count_json(&c);
	text = json_dumps(j, JSON_COMPACT);
	ck_assert_str_eq(text,
			 "{\"total\":88,\"opcodes\":{\"add\":48,\"br\":30},\"calls\":{\"memcpy\":"
			 "{\"calls\":10,\"bytes\":4096}},\"alloca_bytes\":24,\"functions\":{\"f\":"
			 "{\"file\":\"a.c\",\"line\":3,\"total\":60,\"opcodes\":{\"add\":20,\"br\":30},"
			 "\"calls\":{\"memcpy\":{\"calls\":10,\"bytes\":4096}},\"alloca_bytes\":0},"
			 "\"g\":{\"file\":\"b.c\",\"line\":9,\"total\":28,\"opcodes\":{\"add\":28},"
			 "\"calls\":{},\"alloca_bytes\":24}}}");
	free(text);
	json_decref(j);
	count_release(&c);
	manifest_release(&m);
}
END_TEST

START_TEST(counts_stay_exact_above_two_to_the_53)
{
	struct manifest m;
	uint64_t counters[5] = {(1ull << 60) + 1, 0, 0, 0, 0};
	struct count c;
	struct error err = {""};

	make_manifest(&m);
	ck_assert(count_from_counters(&c, &m, counters, &err) == 0);
	ck_assert_uint_eq(c.program.total, 6 * ((1ull << 60) + 1));
	count_release(&c);
	manifest_release(&m);
}
END_TEST

START_TEST(counts_need_the_bycount_scheme)
{
	struct manifest m = {0};
	uint64_t counters[1] = {1};
	struct count c;
	struct error err = {""};

	add1(&m, "loop", "loop:f:a.c:4", "f", "a.c", 4, 0, 1);
	m.ncounters = 1;
	ck_assert_int_eq(count_from_counters(&c, &m, counters, &err), -1);
	ck_assert_str_eq(err.msg, "no instruction counts: the build was instrumented without the "
			 "bycount scheme");
	manifest_release(&m);
}
END_TEST

/* A platform: startup 10 ms; add 1 ns, call 2 ns, load 3 ns; memcpy 10 ns per call and 0.5 per
 * byte. */
static void make_platform(struct platform *p)
{
	static const struct { const char *name; double cost, per_byte; } ops[] = {
		{"add", 1, 0}, {"call", 2, 0}, {"load", 3, 0},
	};

	memset(p, 0, sizeof *p);
	p->opt = xstrdup("2");
	p->machine = xstrdup("test");
	p->startup = 0.01;
	p->repetitions = 1;
	p->op = xcalloc(3, sizeof *p->op);
	for (int i = 0; i < 3; i++)
		p->op[p->nop++] = (struct platform_cost){.name = xstrdup(ops[i].name), .cost = ops[i].cost};
	p->call = xcalloc(1, sizeof *p->call);
	p->call[p->ncall++] = (struct platform_cost){.name = xstrdup("memcpy"), .cost = 10, .per_byte = 0.5};
}

/* Counts: 100 add, 10 load, 5 call, 7 xor (no kernel: costs what add costs); memcpy called
 * twice on 1000 bytes; sqrt called 3 times (not calibrated: only its call instruction). */
static void make_count(struct count *c)
{
	static const struct { const char *name; uint64_t n; } ops[] = {
		{"add", 100}, {"call", 5}, {"load", 10}, {"xor", 7},
	};

	memset(c, 0, sizeof *c);
	c->program.name = xstrdup("(program)");
	c->program.file = xstrdup("-");
	c->program.op = xcalloc(4, sizeof *c->program.op);
	for (int i = 0; i < 4; i++)
		c->program.op[c->program.nop++] = (struct count_item){xstrdup(ops[i].name), ops[i].n, 0, 0};
	c->program.call = xcalloc(2, sizeof *c->program.call);
	c->program.call[c->program.ncall++] = (struct count_item){xstrdup("memcpy"), 2, 1000, 1};
	c->program.call[c->program.ncall++] = (struct count_item){xstrdup("sqrt"), 3, 0, 0};
	c->program.total = 122;
}

START_TEST(platform_prediction_is_count_times_cost)
{
	struct platform p;
	struct count c;
	/* 100*1 + 5*2 + 10*3 + 7*1, memcpy 2*(10 - 2) + 1000*0.5 */
	double want = 0.01 + 1e-9 * (100 + 10 + 30 + 7 + 16 + 500);

	make_platform(&p);
	make_count(&c);
	ck_assert_double_eq_tol(platform_predict(&p, &c), want, 1e-15);
	count_release(&c);
	platform_release(&p);
}
END_TEST

START_TEST(platform_features_name_each_class)
{
	struct platform p;
	struct count c;
	char **names;
	double *values;
	int n;
	struct strbuf sb = {0};

	make_platform(&p);
	make_count(&c);
	n = platform_features(&p, &c, &names, &values);
	for (int i = 0; i < n; i++) {
		char *part = i ? xasprintf(" %s=%g", names[i], values[i]) : xstrdup(names[i]);

		strbuf_add(&sb, part, strlen(part));
		free(part);
		free(names[i]);
	}
	strbuf_add(&sb, "", 1);
	ck_assert_str_eq(sb.buf, "countxcost op.add=100 op.call=5 op.load=10 op.xor=7 call.memcpy=2 "
			 "bytes.memcpy=1000 call.sqrt=3");
	ck_assert_double_eq(values[0], platform_predict(&p, &c));
	free(sb.buf);
	free(names);
	free(values);
	count_release(&c);
	platform_release(&p);
}
END_TEST

START_TEST(platform_file_round_trips)
{
	struct platform p, q;
	struct count c;
	struct error err = {""};
	char *dir = test_tmpdir(), *path = xasprintf("%s/p.json", dir), *bad;

	make_platform(&p);
	make_count(&c);
	ck_assert_msg(platform_write(&p, path, &err) == 0, "%s", err.msg);
	ck_assert_msg(platform_read(&q, path, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(q.nop, 3);
	ck_assert_double_eq_tol(platform_predict(&q, &c), platform_predict(&p, &c), 1e-12);
	platform_release(&q);
	bad = test_write_file(dir, "bad.json", "{\"opt\": \"2\", \"runner\": [], \"startup_seconds\": 0, "
			      "\"opcodes\": {\"add\": {\"cost\": 1}}, \"calls\": {}}");
	ck_assert_int_eq(platform_read(&q, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "opcodes add and call must be calibrated"), "%s", err.msg);
	free(bad);
	bad = test_write_file(dir, "bad2.json", "{\"opt\": \"2\", \"runner\": [], \"startup_seconds\": 0, "
			      "\"opcodes\": {\"add\": {\"cost\": -1}}, \"calls\": {}}");
	ck_assert_int_eq(platform_read(&q, bad, &err), -1);
	ck_assert_msg(strstr(err.msg, "opcodes.add: no cost (a non-negative number)"), "%s", err.msg);
	free(bad);
	count_release(&c);
	platform_release(&p);
	free(path);
	free(dir);
}
END_TEST

Suite *suite_count(void)
{
	Suite *s = suite_create("count");
	TCase *tc = tcase_create("count");

	tcase_add_test(tc, counts_add_up_per_function_and_in_total);
	tcase_add_test(tc, counts_print_the_same_sorted_json);
	tcase_add_test(tc, counts_stay_exact_above_two_to_the_53);
	tcase_add_test(tc, counts_need_the_bycount_scheme);
	tcase_add_test(tc, platform_prediction_is_count_times_cost);
	tcase_add_test(tc, platform_features_name_each_class);
	tcase_add_test(tc, platform_file_round_trips);
	suite_add_tcase(s, tc);
	return s;
}
