/*
 * test_promote.c: counter promotion (promote.h) on hand-written IR: which loops and counters
 * it promotes and which it must leave (a callee's counter, a loop calling qsort, a computed
 * goto), where the counters then live, and what the counters hold after running the promoted
 * code in LLVM's interpreter: exactly what the original code counts, also when the loop is
 * never entered and its exit block is shared with the path around it.
 */
#include <llvm-c/ExecutionEngine.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "ir.h"
#include "promote.h"
#include "tests.h"
#include "util.h"

/* Three counters (the third starts at 7), a function that updates the second, a comparator. */
static const char prelude[] =
	"@__mantis_c.0 = internal global i64 0\n"
	"@__mantis_c.1 = internal global i64 0\n"
	"@__mantis_c.2 = internal global i64 7\n"
	"define void @touch() {\n"
	"entry:\n"
	"  %v = load i64, i64* @__mantis_c.1\n"
	"  %w = add i64 %v, 1\n"
	"  store i64 %w, i64* @__mantis_c.1\n"
	"  ret void\n"
	"}\n"
	"define internal i32 @cmp(i8* %a, i8* %b) {\n"
	"entry:\n"
	"  ret i32 0\n"
	"}\n"
	"declare void @qsort(i8*, i64, i64, i32 (i8*, i8*)*)\n";

/* Odd i below n count in c0, even ones in c2, each in one arm of a branch; n <= 0 goes round
 * the loop to its exit block. */
static const char branchy[] =
	"define void @f(i32 %n) {\n"
	"entry:\n"
	"  %empty = icmp sle i32 %n, 0\n"
	"  br i1 %empty, label %done, label %header\n"
	"header:\n"
	"  %i = phi i32 [ 0, %entry ], [ %next, %latch ]\n"
	"  %odd = and i32 %i, 1\n"
	"  %isodd = icmp ne i32 %odd, 0\n"
	"  br i1 %isodd, label %arm_a, label %arm_b\n"
	"arm_a:\n"
	"  %a = load i64, i64* @__mantis_c.0\n"
	"  %a1 = add i64 %a, 1\n"
	"  store i64 %a1, i64* @__mantis_c.0\n"
	"  br label %latch\n"
	"arm_b:\n"
	"  %b = load i64, i64* @__mantis_c.2\n"
	"  %b1 = add i64 %b, 1\n"
	"  store i64 %b1, i64* @__mantis_c.2\n"
	"  br label %latch\n"
	"latch:\n"
	"  %next = add i32 %i, 1\n"
	"  %more = icmp slt i32 %next, %n\n"
	"  br i1 %more, label %header, label %done\n"
	"done:\n"
	"  ret void\n"
	"}\n";

/* Each iteration counts in c0 and c1 and calls @touch, which counts in c1 too. */
static const char calling[] =
	"define void @f(i32 %n) {\n"
	"entry:\n"
	"  br label %header\n"
	"header:\n"
	"  %i = phi i32 [ 0, %entry ], [ %next, %header ]\n"
	"  %a = load i64, i64* @__mantis_c.0\n"
	"  %a1 = add i64 %a, 1\n"
	"  store i64 %a1, i64* @__mantis_c.0\n"
	"  %b = load i64, i64* @__mantis_c.1\n"
	"  %b1 = add i64 %b, 1\n"
	"  store i64 %b1, i64* @__mantis_c.1\n"
	"  call void @touch()\n"
	"  %next = add i32 %i, 1\n"
	"  %more = icmp slt i32 %next, %n\n"
	"  br i1 %more, label %header, label %done\n"
	"done:\n"
	"  ret void\n"
	"}\n";

/* Each iteration counts in c0 and calls qsort with a comparator of the program's. */
static const char sorting[] =
	"define void @f(i8* %p, i32 %n) {\n"
	"entry:\n"
	"  br label %header\n"
	"header:\n"
	"  %i = phi i32 [ 0, %entry ], [ %next, %header ]\n"
	"  %a = load i64, i64* @__mantis_c.0\n"
	"  %a1 = add i64 %a, 1\n"
	"  store i64 %a1, i64* @__mantis_c.0\n"
	"  call void @qsort(i8* %p, i64 0, i64 1, i32 (i8*, i8*)* @cmp)\n"
	"  %next = add i32 %i, 1\n"
	"  %more = icmp slt i32 %next, %n\n"
	"  br i1 %more, label %header, label %done\n"
	"done:\n"
	"  ret void\n"
	"}\n";

/* Each iteration counts in c0; the latch jumps through an address (GNU C's computed goto). */
static const char computed_goto[] =
	"define void @f(i32 %n) {\n"
	"entry:\n"
	"  br label %header\n"
	"header:\n"
	"  %i = phi i32 [ 0, %entry ], [ %next, %header ]\n"
	"  %a = load i64, i64* @__mantis_c.0\n"
	"  %a1 = add i64 %a, 1\n"
	"  store i64 %a1, i64* @__mantis_c.0\n"
	"  %next = add i32 %i, 1\n"
	"  %more = icmp slt i32 %next, %n\n"
	"  %to = select i1 %more, i8* blockaddress(@f, %header), i8* blockaddress(@f, %done)\n"
	"  indirectbr i8* %to, [label %header, label %done]\n"
	"done:\n"
	"  ret void\n"
	"}\n";

/* Parses prelude + body into *ir, promotes its counters into *st and verifies the result. */
static void promote_text(struct ir *ir, const char *body, struct promote_stats *st)
{
	char *dir = test_tmpdir(), *text = xasprintf("%s%s", prelude, body);
	char *path = test_write_file(dir, "m.ll", text);
	struct error err = {""};

	ck_assert_msg(ir_load(ir, path, &err) == 0, "%s", err.msg);
	promote_counters(ir->mod, st);
	ck_assert_msg(ir_verify(ir, &err) == 0, "%s", err.msg);
	unlink(path);
	rmdir(dir);
	free(path);
	free(text);
	free(dir);
}

/* Returns how many loads and stores of counter c the blocks of @f whose names begin with name
 * have (the split edges are mantis.promote, mantis.promote1...). */
static int accesses(const struct ir *ir, const char *name, int c)
{
	LLVMValueRef fn = LLVMGetNamedFunction(ir->mod, "f");
	char global[32];
	int n = 0, found = 0;

	snprintf(global, sizeof global, "__mantis_c.%d", c);
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		if (strncmp(LLVMGetBasicBlockName(b), name, strlen(name)) != 0)
			continue;
		found = 1;
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			LLVMValueRef ptr = LLVMIsALoadInst(x) ? LLVMGetOperand(x, 0)
					   : LLVMIsAStoreInst(x) ? LLVMGetOperand(x, 1) : NULL;

			n += ptr && LLVMGetNamedGlobal(ir->mod, global) == ptr;
		}
	}
	ck_assert_msg(found, "no block %s", name);
	return n;
}

/* Runs @f(n) in LLVM's interpreter (which takes the module) and fills counters[0..3). */
static void run_f(struct ir *ir, int n, uint64_t counters[3])
{
	LLVMExecutionEngineRef ee;
	LLVMGenericValueRef arg;
	LLVMValueRef fn = LLVMGetNamedFunction(ir->mod, "f");
	char *msg = NULL;

	LLVMLinkInInterpreter();
	ck_assert_msg(LLVMCreateInterpreterForModule(&ee, ir->mod, &msg) == 0, "%s", msg);
	arg = LLVMCreateGenericValueOfInt(LLVMInt32TypeInContext(ir->ctx), (unsigned long long)n, 1);
	LLVMDisposeGenericValue(LLVMRunFunction(ee, fn, 1, &arg));
	for (int c = 0; c < 3; c++) {
		char name[32];

		snprintf(name, sizeof name, "__mantis_c.%d", c);
		counters[c] = *(uint64_t *)LLVMGetPointerToGlobal(ee, LLVMGetNamedGlobal(ir->mod, name));
	}
	LLVMDisposeGenericValue(arg);
	LLVMDisposeExecutionEngine(ee); /* and the module */
	ir->mod = NULL;
	ir_release(ir);
}

START_TEST(promotes_counters_in_branch_arms)
{
	static const char *const loop[] = {"header", "arm_a", "arm_b", "latch"};
	struct ir ir;
	struct promote_stats st;

	promote_text(&ir, branchy, &st);
	ck_assert_int_eq(st.loops, 1);
	ck_assert_int_eq(st.counters, 2);
	ck_assert_int_eq(st.unsafe, 0);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(accesses(&ir, loop[i], 0), 0);
		ck_assert_int_eq(accesses(&ir, loop[i], 2), 0);
	}
	/* both edges are split: entry also goes to done, done is also entered from entry */
	ck_assert_int_eq(accesses(&ir, "entry", 0), 0);
	ck_assert_int_eq(accesses(&ir, "mantis.promote", 0), 2);
	ck_assert_int_eq(accesses(&ir, "mantis.promote", 2), 2);
	ck_assert_int_eq(accesses(&ir, "done", 0), 0);
	ir_release(&ir);
}
END_TEST

START_TEST(promoted_code_counts_as_the_original)
{
	static const int n[] = {5, 1, 0, -3};
	static const uint64_t want[][3] = {{2, 0, 10}, {0, 0, 8}, {0, 0, 7}, {0, 0, 7}};

	for (int k = 0; k < 4; k++) {
		struct ir ir;
		struct promote_stats st;
		uint64_t got[3];

		promote_text(&ir, branchy, &st);
		run_f(&ir, n[k], got);
		for (int c = 0; c < 3; c++)
			ck_assert_msg(got[c] == want[k][c], "n = %d: counter %d is %llu, not %llu", n[k],
				      c, (unsigned long long)got[c], (unsigned long long)want[k][c]);
	}
}
END_TEST

START_TEST(leaves_the_counter_a_callee_updates)
{
	struct ir ir;
	struct promote_stats st;
	uint64_t got[3];

	promote_text(&ir, calling, &st);
	ck_assert_int_eq(st.loops, 1);
	ck_assert_int_eq(st.counters, 1);
	ck_assert_int_eq(accesses(&ir, "header", 0), 0);
	ck_assert_int_eq(accesses(&ir, "header", 1), 2);
	ck_assert_int_eq(accesses(&ir, "entry", 0), 1); /* one successor: loaded there */
	ck_assert_int_eq(accesses(&ir, "done", 0), 1);  /* entered from the loop alone */
	run_f(&ir, 4, got);
	ck_assert_int_eq(got[0], 4);
	ck_assert_int_eq(got[1], 8);
	ck_assert_int_eq(got[2], 7);
}
END_TEST

START_TEST(leaves_loops_it_cannot_see_through)
{
	/* one calls qsort with the program's comparator; one jumps through an address */
	static const char *const unsafe[] = {sorting, computed_goto};

	for (int k = 0; k < 2; k++) {
		struct ir ir;
		struct promote_stats st;

		promote_text(&ir, unsafe[k], &st);
		ck_assert_int_eq(st.loops, 0);
		ck_assert_int_eq(st.unsafe, 1);
		ck_assert_int_eq(accesses(&ir, "header", 0), 2);
		ir_release(&ir);
	}
}
END_TEST

Suite *suite_promote(void)
{
	Suite *s = suite_create("promote");
	TCase *tc = tcase_create("promote");

	tcase_add_test(tc, promotes_counters_in_branch_arms);
	tcase_add_test(tc, promoted_code_counts_as_the_original);
	tcase_add_test(tc, leaves_the_counter_a_callee_updates);
	tcase_add_test(tc, leaves_loops_it_cannot_see_through);
	suite_add_tcase(s, tc);
	return s;
}
