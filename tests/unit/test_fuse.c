/*
 * test_fuse.c: counter fusion (fuse.h) on hand-written IR run in LLVM's interpreter: which
 * counters fuse (those one computed feature alone reads), that the features' values computed
 * from the recorded counters are what they were, bit for bit, with coefficients sharing a
 * power of two and a negative one, and that a counter another feature reads keeps its value.
 */
#include <llvm-c/ExecutionEngine.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "fuse.h"
#include "ir.h"
#include "manifest.h"
#include "tests.h"
#include "util.h"

/* Four counters updated n times in a loop (c0 += 1, c1 += i, c2 += 2, c3 += 1); the recorder
 * emits each into @out, as rt/slicert.c would write them, and counts its calls in @out[4]. */
static const char program[] =
	"@__mantis_c.0 = internal global i64 0\n"
	"@__mantis_c.1 = internal global i64 0\n"
	"@__mantis_c.2 = internal global i64 0\n"
	"@__mantis_c.3 = internal global i64 0\n"
	"@out = global [5 x i64] zeroinitializer\n"
	"define void @__mantis_slice_emit(i64 %c, i64 %v) {\n"
	"entry:\n"
	"  %p = getelementptr [5 x i64], [5 x i64]* @out, i64 0, i64 %c\n"
	"  store i64 %v, i64* %p\n"
	"  %q = getelementptr [5 x i64], [5 x i64]* @out, i64 0, i64 4\n"
	"  %k = load i64, i64* %q\n"
	"  %k1 = add i64 %k, 1\n"
	"  store i64 %k1, i64* %q\n"
	"  ret void\n"
	"}\n"
	"define internal void @dump() {\n"
	"entry:\n"
	"  %0 = load i64, i64* @__mantis_c.0\n"
	"  call void @__mantis_slice_emit(i64 0, i64 %0)\n"
	"  %1 = load i64, i64* @__mantis_c.1\n"
	"  call void @__mantis_slice_emit(i64 1, i64 %1)\n"
	"  %2 = load i64, i64* @__mantis_c.2\n"
	"  call void @__mantis_slice_emit(i64 2, i64 %2)\n"
	"  %3 = load i64, i64* @__mantis_c.3\n"
	"  call void @__mantis_slice_emit(i64 3, i64 %3)\n"
	"  ret void\n"
	"}\n"
	"define void @f(i32 %n) {\n"
	"entry:\n"
	"  br label %loop\n"
	"loop:\n"
	"  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n"
	"  %a = load i64, i64* @__mantis_c.0\n"
	"  %a1 = add i64 %a, 1\n"
	"  store i64 %a1, i64* @__mantis_c.0\n"
	"  %iw = sext i32 %i to i64\n"
	"  %b = load i64, i64* @__mantis_c.1\n"
	"  %b1 = add i64 %b, %iw\n"
	"  store i64 %b1, i64* @__mantis_c.1\n"
	"  %c = load i64, i64* @__mantis_c.2\n"
	"  %c1 = add i64 %c, 2\n"
	"  store i64 %c1, i64* @__mantis_c.2\n"
	"  %d = load i64, i64* @__mantis_c.3\n"
	"  %d1 = add i64 1, %d\n"
	"  store i64 %d1, i64* @__mantis_c.3\n"
	"  %next = add i32 %i, 1\n"
	"  %more = icmp slt i32 %next, %n\n"
	"  br i1 %more, label %loop, label %done\n"
	"done:\n"
	"  call void @dump()\n"
	"  ret void\n"
	"}\n";

/* Fills *m with two features: weighted = 4 c0 + 6 c1 - 2 c2 and shared = c2 + c3. */
static void two_features(struct manifest *m)
{
	static const int counter[2][3] = {{0, 1, 2}, {2, 3, -1}};
	static const int64_t coef[2][3] = {{4, 6, -2}, {1, 1, 0}};
	static const char *const name[2] = {"bycount:(program):-:0:weighted", "loop:f:m.c:1"};

	memset(m, 0, sizeof *m);
	m->ncounters = 4;
	m->n = 2;
	m->v = xcalloc(2, sizeof *m->v);
	for (int k = 0; k < 2; k++) {
		m->v[k].name = (char *)name[k];
		m->v[k].denominator = -1;
		m->v[k].terms = xcalloc(3, sizeof *m->v[k].terms);
		for (int t = 0; t < 3 && counter[k][t] >= 0; t++)
			m->v[k].terms[m->v[k].nterms++] = (struct feature_term){counter[k][t], coef[k][t]};
	}
}

/* Loads the program, fuses the counters of features computed[0..n) of m unless n < 0, runs
 * @f(10) in the interpreter and fills out[0..4) with what the recorder emitted, out[4] with
 * how many it emitted. */
static void run(const struct manifest *m, const int *computed, int n, struct fuse_stats *st,
		uint64_t out[5])
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, "m.ll", program), *msg = NULL;
	struct error err = {""};
	struct ir ir;
	LLVMExecutionEngineRef ee;
	LLVMGenericValueRef arg;

	ck_assert_msg(ir_load(&ir, path, &err) == 0, "%s", err.msg);
	if (n >= 0)
		fuse_counters(ir.mod, m, computed, n, st);
	ck_assert_msg(ir_verify(&ir, &err) == 0, "%s", err.msg);
	LLVMLinkInInterpreter();
	ck_assert_msg(LLVMCreateInterpreterForModule(&ee, ir.mod, &msg) == 0, "%s", msg);
	arg = LLVMCreateGenericValueOfInt(LLVMInt32TypeInContext(ir.ctx), 10, 1);
	LLVMDisposeGenericValue(LLVMRunFunction(ee, LLVMGetNamedFunction(ir.mod, "f"), 1, &arg));
	memcpy(out, LLVMGetPointerToGlobal(ee, LLVMGetNamedGlobal(ir.mod, "out")), 5 * sizeof *out);
	LLVMDisposeGenericValue(arg);
	LLVMDisposeExecutionEngine(ee);
	ir.mod = NULL;
	ir_release(&ir);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* Frees what two_features allocated. */
static void release(struct manifest *m)
{
	for (int k = 0; k < m->n; k++)
		free(m->v[k].terms);
	free(m->v);
}

START_TEST(fuses_what_one_feature_alone_reads)
{
	static const int both[] = {0, 1};
	struct manifest m;
	struct fuse_stats st;
	uint64_t plain[5], fused[5];

	two_features(&m);
	run(&m, NULL, -1, &st, plain);
	ck_assert_int_eq(plain[0], 10);
	ck_assert_int_eq(plain[1], 45);
	ck_assert_int_eq(plain[4], 4);
	ck_assert_int_eq(feature_value(&m.v[0], plain), 270);
	ck_assert_int_eq(feature_value(&m.v[1], plain), 30);
	run(&m, both, 2, &st, fused);
	ck_assert_int_eq(st.features, 1); /* weighted: c0 into c1; c2 is shared */
	ck_assert_int_eq(st.counters, 1);
	ck_assert_int_eq(fused[0], 0);
	ck_assert_int_eq(fused[2], 20);
	ck_assert_int_eq(fused[3], 10);
	ck_assert_int_eq(fused[4], 3); /* c0, never written, is not emitted */
	ck_assert_int_eq(feature_value(&m.v[0], fused), 270);
	ck_assert_int_eq(feature_value(&m.v[1], fused), 30);
	release(&m);
}
END_TEST

START_TEST(fuses_all_when_one_feature_is_computed)
{
	static const int weighted[] = {0};
	struct manifest m;
	struct fuse_stats st;
	uint64_t fused[5];

	two_features(&m);
	run(&m, weighted, 1, &st, fused);
	ck_assert_int_eq(st.features, 1); /* c0 and c2 into c1 (coefficients 2, 3, -1 times 2) */
	ck_assert_int_eq(st.counters, 2);
	ck_assert_int_eq(fused[0], 0);
	ck_assert_int_eq(fused[2], 0);
	ck_assert_int_eq(fused[3], 10); /* no computed feature reads it: left as it is */
	ck_assert_int_eq(fused[4], 2);  /* c1 and c3 */
	ck_assert_int_eq(feature_value(&m.v[0], fused), 270);
	release(&m);
}
END_TEST

Suite *suite_fuse(void)
{
	Suite *s = suite_create("fuse");
	TCase *tc = tcase_create("fuse");

	tcase_add_test(tc, fuses_what_one_feature_alone_reads);
	tcase_add_test(tc, fuses_all_when_one_feature_is_computed);
	suite_add_tcase(s, tc);
	return s;
}
