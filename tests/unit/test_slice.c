/*
 * test_slice.c: post-dominators and control dependence (cdep), and the dependence graph's
 * decisions (sdg): summary edges and the two passes, memory classes and their formals, and what
 * the size budgets change (grouped interfaces, wide accesses), on hand-written IR whose blocks
 * and values have names, so each expectation names what it is about. The slicing corpus
 * (tests/slices, run by tests/run) tests whole evaluators.
 */
#include <llvm-c/IRReader.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cdep.h"
#include "cfg.h"
#include "error.h"
#include "ir.h"
#include "pta.h"
#include "sdg.h"
#include "tests.h"
#include "util.h"

/* Parses textual IR into *ir (through a file, as ir_load reads it); fails the test if invalid. */
static void parse_ir(struct ir *ir, const char *text)
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, "m.ll", text);
	struct error err = {""};

	ck_assert_msg(ir_load(ir, path, &err) == 0, "%s", err.msg);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* Returns the index of the block called name in cfg; fails the test if there is none. */
static int block(const struct cfg *cfg, const char *name)
{
	for (int k = 0; k < cfg->n; k++) {
		if (strcmp(LLVMGetBasicBlockName(cfg->block[k]), name) == 0)
			return k;
	}
	ck_abort_msg("no block %s", name);
	return -1;
}

/* Returns the instruction called name in fn; fails the test if there is none. */
static LLVMValueRef value(LLVMValueRef fn, const char *name)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			size_t len;

			if (strcmp(LLVMGetValueName2(x, &len), name) == 0)
				return x;
		}
	}
	ck_abort_msg("no value %%%s", name);
	return NULL;
}

static const char *const branchy =
	"define i32 @f(i32 %n) {\n"
	"entry:\n"
	"  %c = icmp sgt i32 %n, 0\n"
	"  br i1 %c, label %then, label %join\n"
	"then:\n"
	"  br label %join\n"
	"join:\n"
	"  br label %loop\n"
	"loop:\n"
	"  %i = phi i32 [0, %join], [%i2, %loop]\n"
	"  %i2 = add i32 %i, 1\n"
	"  %d = icmp slt i32 %i2, %n\n"
	"  br i1 %d, label %loop, label %exit\n"
	"exit:\n"
	"  ret i32 %i2\n"
	"}\n"
	"define void @spin(i1 %c) {\n"
	"entry:\n"
	"  br i1 %c, label %forever, label %out\n"
	"forever:\n"
	"  br label %forever\n"
	"out:\n"
	"  ret void\n"
	"}\n";

START_TEST(postdominators_and_control_dependence)
{
	struct ir ir;
	struct cfg cfg;
	struct cdep cd;
	int entry, then, join, loop, exit_block;

	parse_ir(&ir, branchy);
	cfg_build(&cfg, LLVMGetNamedFunction(ir.mod, "f"));
	cdep_build(&cd, &cfg);
	entry = block(&cfg, "entry");
	then = block(&cfg, "then");
	join = block(&cfg, "join");
	loop = block(&cfg, "loop");
	exit_block = block(&cfg, "exit");
	ck_assert_int_eq(cd.ipdom[entry], join);
	ck_assert_int_eq(cd.ipdom[then], join);
	ck_assert_int_eq(cd.ipdom[join], loop);
	ck_assert_int_eq(cd.ipdom[loop], exit_block);
	ck_assert_int_eq(cd.ipdom[exit_block], cfg.n); /* the virtual exit */
	ck_assert_int_eq(cd.ncd[then], 1);
	ck_assert_int_eq(cd.cd[then][0], entry);
	ck_assert_int_eq(cd.ncd[loop], 1); /* the loop decides its own repetition */
	ck_assert_int_eq(cd.cd[loop][0], loop);
	ck_assert_int_eq(cd.ncd[join], 0);
	ck_assert_int_eq(cd.ncd[exit_block], 0);
	cdep_release(&cd);
	cfg_release(&cfg);

	/* a loop no path leaves still gets a post-dominator: the virtual exit, by a fake edge */
	cfg_build(&cfg, LLVMGetNamedFunction(ir.mod, "spin"));
	cdep_build(&cd, &cfg);
	ck_assert_int_eq(cd.fake[block(&cfg, "forever")], 1);
	ck_assert_int_eq(cd.ipdom[block(&cfg, "forever")], cfg.n);
	ck_assert_int_eq(cd.ipdom[block(&cfg, "entry")], cfg.n);
	ck_assert_int_eq(cd.ncd[block(&cfg, "forever")], 2); /* entry's branch and its own loop */
	cdep_release(&cd);
	cfg_release(&cfg);
	ir_release(&ir);
}
END_TEST

/* One helper, two call sites: an expensive argument at the first, a cheap one at the second,
 * whose result alone is stored in @out. */
static const char *const two_sites =
	"@out = global i32 0\n"
	"@sink = global i32 0\n"
	"define internal i32 @helper(i32 %x) {\n"
	"entry:\n"
	"  %r = add i32 %x, 1\n"
	"  ret i32 %r\n"
	"}\n"
	"define internal i32 @expensive(i32 %n) {\n"
	"entry:\n"
	"  %m = mul i32 %n, %n\n"
	"  ret i32 %m\n"
	"}\n"
	"define i32 @main(i32 %argc, i8** %argv) {\n"
	"entry:\n"
	"  %big = call i32 @expensive(i32 %argc)\n"
	"  %a = call i32 @helper(i32 %big)\n"
	"  store i32 %a, i32* @sink\n"
	"  %cheap = add i32 %argc, 2\n"
	"  %b = call i32 @helper(i32 %cheap)\n"
	"  store i32 %b, i32* @out\n"
	"  %v = load i32, i32* @out\n"
	"  ret i32 %v\n"
	"}\n";

START_TEST(context_sensitive_slice)
{
	struct ir ir;
	struct pta pta;
	struct sdg g;
	struct error err = {""};
	LLVMValueRef main_fn;
	unsigned char *mark;
	int crit;

	parse_ir(&ir, two_sites);
	ck_assert_msg(pta_build(&pta, ir.mod, &err) == 0, "%s", err.msg);
	ck_assert_msg(sdg_build(&g, ir.mod, &pta, NULL, 0, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(g.ncalls, 3);
	ck_assert_int_eq(g.nsummary, 3); /* x -> r at both helper sites, n -> m at expensive's */
	main_fn = LLVMGetNamedFunction(ir.mod, "main");
	mark = xcalloc((size_t)g.n, 1);
	crit = sdg_node(&g, value(main_fn, "v"));
	sdg_slice(&g, &crit, 1, mark);
	ck_assert(sdg_kept(&g, mark, value(main_fn, "b")));
	ck_assert(sdg_kept(&g, mark, value(main_fn, "cheap")));
	ck_assert(sdg_kept(&g, mark, value(LLVMGetNamedFunction(ir.mod, "helper"), "r")));
	/* the first call of helper and the expensive work that feeds it are not in the slice */
	ck_assert(!sdg_kept(&g, mark, value(main_fn, "a")));
	ck_assert(!sdg_kept(&g, mark, value(main_fn, "big")));
	ck_assert(!sdg_kept(&g, mark, value(LLVMGetNamedFunction(ir.mod, "expensive"), "m")));
	free(mark);
	sdg_release(&g);
	pta_release(&pta);
	ir_release(&ir);
}
END_TEST

/* @a and @b are only ever accessed together, through one pointer; @c alone. */
static const char *const together =
	"@a = global i32 0\n"
	"@b = global i32 0\n"
	"@c = global i32 0\n"
	"define i32 @main(i32 %argc, i8** %argv) {\n"
	"entry:\n"
	"  %odd = icmp eq i32 %argc, 1\n"
	"  %p = select i1 %odd, i32* @a, i32* @b\n"
	"  store i32 %argc, i32* %p\n"
	"  store i32 2, i32* @c\n"
	"  %x = load i32, i32* %p\n"
	"  %y = load i32, i32* @c\n"
	"  %z = add i32 %x, %y\n"
	"  ret i32 %z\n"
	"}\n";

START_TEST(memory_classes)
{
	struct ir ir;
	struct pta pta;
	struct sdg g;
	struct error err = {""};
	int seen_ab = 0, seen_c = 0;

	parse_ir(&ir, together);
	ck_assert_msg(pta_build(&pta, ir.mod, &err) == 0, "%s", err.msg);
	ck_assert_msg(sdg_build(&g, ir.mod, &pta, NULL, 0, &err) == 0, "%s", err.msg);
	/* everything untouched, {@a, @b}, {@c} */
	ck_assert_int_eq(g.nclasses, 3);
	for (int c = 0; c < g.nclasses; c++) {
		const char *name = pta.obj[pta.loc[g.class_loc[c]].obj].name;

		seen_ab += strcmp(name, "@a") == 0 || strcmp(name, "@b") == 0;
		seen_c += strcmp(name, "@c") == 0;
	}
	ck_assert_int_eq(seen_ab, 1);
	ck_assert_int_eq(seen_c, 1);
	sdg_release(&g);
	pta_release(&pta);
	ir_release(&ir);
}
END_TEST

/* fail() writes @g, then exits: the write never reaches main's load of @g. */
static const char *const exits =
	"@g = global i32 0\n"
	"declare void @exit(i32)\n"
	"define internal void @fail(i32 %code) {\n"
	"entry:\n"
	"  store i32 %code, i32* @g\n"
	"  call void @exit(i32 %code)\n"
	"  unreachable\n"
	"}\n"
	"define i32 @main(i32 %argc, i8** %argv) {\n"
	"entry:\n"
	"  %bad = icmp sgt i32 %argc, 5\n"
	"  br i1 %bad, label %die, label %ok\n"
	"die:\n"
	"  call void @fail(i32 7)\n"
	"  br label %ok\n"
	"ok:\n"
	"  %v = load i32, i32* @g\n"
	"  ret i32 %v\n"
	"}\n";

START_TEST(writes_before_an_exit_do_not_return)
{
	struct ir ir;
	struct pta pta;
	struct sdg g;
	struct error err = {""};
	unsigned char *mark;
	LLVMValueRef fail, store;
	int crit;

	parse_ir(&ir, exits);
	ck_assert_msg(pta_build(&pta, ir.mod, &err) == 0, "%s", err.msg);
	ck_assert_msg(sdg_build(&g, ir.mod, &pta, NULL, 0, &err) == 0, "%s", err.msg);
	fail = LLVMGetNamedFunction(ir.mod, "fail");
	store = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fail));
	ck_assert(LLVMIsAStoreInst(store));
	mark = xcalloc((size_t)g.n, 1);
	crit = sdg_node(&g, value(LLVMGetNamedFunction(ir.mod, "main"), "v"));
	sdg_slice(&g, &crit, 1, mark);
	ck_assert(!sdg_kept(&g, mark, store));
	free(mark);
	sdg_release(&g);
	pta_release(&pta);
	ir_release(&ir);
}
END_TEST

/* Returns the memory class of g whose locations are those of the object called name (a class
 * of its own); fails the test if there is none. */
static int class_of_object(const struct sdg *g, const struct pta *pta, const char *name)
{
	for (int c = 0; c < g->nclasses; c++) {
		if ((g->wide < 0 || (c != g->wide && c != g->wide + 1)) &&
		    strcmp(pta->obj[pta->loc[g->class_loc[c]].obj].name, name) == 0)
			return c;
	}
	ck_abort_msg("no class of %s", name);
	return -1;
}

/* Returns the first store in fn whose stored value is v (any value if NULL) or, for v NULL and
 * c >= 0, the constant c; fails the test if there is none. */
static LLVMValueRef store_of(LLVMValueRef fn, LLVMValueRef v, long long c)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			LLVMValueRef op = LLVMIsAStoreInst(x) ? LLVMGetOperand(x, 0) : NULL;

			if (!op)
				continue;
			if (v ? op == v : c < 0 || (LLVMIsAConstantInt(op) && LLVMConstIntGetSExtValue(op) == c))
				return x;
		}
	}
	ck_abort_msg("no such store");
	return NULL;
}

/* Returns the graph's function called name. */
static const struct sdg_fn *graph_fn(const struct sdg *g, const struct ir *ir, const char *name)
{
	int k = ptrmap_get(&g->node_of, LLVMGetNamedFunction(ir->mod, name));

	ck_assert_int_ge(k, 0);
	return &g->fn[k];
}

/* Returns the marks (owned by the caller) of the slice from instruction x. */
static unsigned char *slice_from(const struct sdg *g, LLVMValueRef x)
{
	unsigned char *mark = xcalloc((size_t)g->n, 1);
	int crit = sdg_node(g, x);

	sdg_slice(g, &crit, 1, mark);
	return mark;
}

/* Analyses text into *ir, *pta and *g within budget (NULL: sdg_build's). */
static void build_within(struct ir *ir, struct pta *pta, struct sdg *g, const char *text,
			 const struct sdg_budget *budget)
{
	struct error err = {""};

	parse_ir(ir, text);
	ck_assert_msg(pta_build(pta, ir->mod, &err) == 0, "%s", err.msg);
	if (budget)
		ck_assert_msg(sdg_build_within(g, ir->mod, pta, NULL, 0, budget, &err) == 0, "%s", err.msg);
	else
		ck_assert_msg(sdg_build(g, ir->mod, pta, NULL, 0, &err) == 0, "%s", err.msg);
}

static void release_all(struct ir *ir, struct pta *pta, struct sdg *g)
{
	sdg_release(g);
	pta_release(pta);
	ir_release(ir);
}

/* main calls mid; mid writes @c and calls both; both calls wa (writes @a) and wb (expensive,
 * writes @b); main reads @a and @c. */
static const char *const passing =
	"@a = global i32 0\n"
	"@b = global i32 0\n"
	"@c = global i32 0\n"
	"define internal void @wa(i32 %x) {\n"
	"entry:\n"
	"  store i32 %x, i32* @a\n"
	"  ret void\n"
	"}\n"
	"define internal void @wb(i32 %x) {\n"
	"entry:\n"
	"  %y = mul i32 %x, %x\n"
	"  store i32 %y, i32* @b\n"
	"  ret void\n"
	"}\n"
	"define internal void @both(i32 %x) {\n"
	"entry:\n"
	"  call void @wa(i32 %x)\n"
	"  call void @wb(i32 %x)\n"
	"  ret void\n"
	"}\n"
	"define internal void @mid(i32 %x) {\n"
	"entry:\n"
	"  store i32 1, i32* @c\n"
	"  call void @both(i32 %x)\n"
	"  ret void\n"
	"}\n"
	"define i32 @main(i32 %argc, i8** %argv) {\n"
	"entry:\n"
	"  call void @mid(i32 %argc)\n"
	"  %v = load i32, i32* @a\n"
	"  %w = load i32, i32* @c\n"
	"  %s = add i32 %v, %w\n"
	"  ret i32 %s\n"
	"}\n";

START_TEST(untouched_classes_get_no_formals)
{
	struct ir ir;
	struct pta pta;
	struct sdg g;
	const struct sdg_fn *wa, *wb, *both, *mid;
	unsigned char *mark;
	int a, b;

	build_within(&ir, &pta, &g, passing, NULL);
	ck_assert_int_eq(g.ngrouped, 0); /* within sdg_build's budget: exact */
	ck_assert_int_eq(g.wide, -1);
	a = class_of_object(&g, &pta, "@a");
	b = class_of_object(&g, &pta, "@b");
	wa = graph_fn(&g, &ir, "wa");
	wb = graph_fn(&g, &ir, "wb");
	both = graph_fn(&g, &ir, "both");
	mid = graph_fn(&g, &ir, "mid");
	/* wa touches @a only, wb @b only: no formal for the other's class */
	ck_assert_int_eq(wa->in.n, 1);
	ck_assert_int_eq(wa->in.loc[0], a);
	ck_assert_int_eq(wa->out.n, 1);
	ck_assert_int_eq(wb->in.n, 1);
	ck_assert_int_eq(wb->in.loc[0], b);
	/* both passes @a and @b on, mid also @c: a formal per class */
	ck_assert_int_eq(both->in.n, 2);
	ck_assert_int_eq(mid->in.n, 3);
	ck_assert_int_eq(mid->out.n, 3);
	mark = slice_from(&g, value(LLVMGetNamedFunction(ir.mod, "main"), "s"));
	ck_assert(sdg_kept(&g, mark, store_of(LLVMGetNamedFunction(ir.mod, "wa"), NULL, -1)));
	ck_assert(sdg_kept(&g, mark, store_of(LLVMGetNamedFunction(ir.mod, "mid"), NULL, 1)));
	ck_assert(!sdg_kept(&g, mark, value(LLVMGetNamedFunction(ir.mod, "wb"), "y")));
	free(mark);
	release_all(&ir, &pta, &g);
}
END_TEST

/* Every interface grouped: what a function touches itself stays a group of its own, what it
 * passes on through one call site is one group; the slice keeps what it needs. */
START_TEST(grouped_interfaces_pass_classes_on)
{
	static const struct sdg_budget grouped = {1 << 20, 16, 0};
	struct ir ir;
	struct pta pta;
	struct sdg g;
	const struct sdg_fn *both, *mid;
	unsigned char *mark;
	int a, b, c;

	build_within(&ir, &pta, &g, passing, &grouped);
	ck_assert_int_eq(g.ngrouped, g.nfns);
	a = class_of_object(&g, &pta, "@a");
	b = class_of_object(&g, &pta, "@b");
	c = class_of_object(&g, &pta, "@c");
	mid = graph_fn(&g, &ir, "mid");
	both = graph_fn(&g, &ir, "both");
	/* mid writes @c itself and passes @a and @b on through its one call site */
	ck_assert_int_eq(mid->in.n, 2);
	ck_assert_int_eq(mid->out.n, 2);
	ck_assert_int_eq(mid->group[c], c);
	ck_assert_int_eq(mid->group[a], mid->group[b]);
	/* both passes them on through two call sites: apart */
	ck_assert_int_eq(both->in.n, 2);
	ck_assert_int_ne(both->group[a], both->group[b]);
	ck_assert_int_eq(graph_fn(&g, &ir, "wa")->in.n, 1);
	mark = slice_from(&g, value(LLVMGetNamedFunction(ir.mod, "main"), "s"));
	ck_assert(sdg_kept(&g, mark, store_of(LLVMGetNamedFunction(ir.mod, "wa"), NULL, -1)));
	ck_assert(sdg_kept(&g, mark, store_of(LLVMGetNamedFunction(ir.mod, "mid"), NULL, 1)));
	free(mark);
	release_all(&ir, &pta, &g);
}
END_TEST

/* @a and @b through %p (two locations: wide within the budget below), @b and @c directly. */
static const char *const wide_access =
	"@a = global i32 0\n"
	"@b = global i32 0\n"
	"@c = global i32 0\n"
	"define i32 @main(i32 %argc, i8** %argv) {\n"
	"entry:\n"
	"  %odd = icmp eq i32 %argc, 1\n"
	"  %p = select i1 %odd, i32* @a, i32* @b\n"
	"  store i32 %argc, i32* %p\n"
	"  store i32 5, i32* @c\n"
	"  store i32 6, i32* @b\n"
	"  %x = load i32, i32* @a\n"
	"  %y = load i32, i32* %p\n"
	"  %z = load i32, i32* @c\n"
	"  %s = add i32 %y, %z\n"
	"  ret i32 %s\n"
	"}\n";

START_TEST(wide_accesses_keep_their_dependences)
{
	static const struct sdg_budget wide = {0, 1, 1 << 20};
	struct ir ir;
	struct pta pta;
	struct sdg g;
	LLVMValueRef main_fn;
	unsigned char *mark;

	build_within(&ir, &pta, &g, wide_access, &wide);
	ck_assert_int_ge(g.wide, 0);
	main_fn = LLVMGetNamedFunction(ir.mod, "main");
	/* a narrow read of @a depends on the wide write, not on the narrow write of @b */
	mark = slice_from(&g, value(main_fn, "x"));
	ck_assert(sdg_kept(&g, mark, store_of(main_fn, LLVMGetParam(main_fn, 0), 0)));
	ck_assert(!sdg_kept(&g, mark, store_of(main_fn, NULL, 6)));
	ck_assert(!sdg_kept(&g, mark, store_of(main_fn, NULL, 5)));
	free(mark);
	/* a wide read depends on the wide write and on every narrow write it may read */
	mark = slice_from(&g, value(main_fn, "y"));
	ck_assert(sdg_kept(&g, mark, store_of(main_fn, LLVMGetParam(main_fn, 0), 0)));
	ck_assert(sdg_kept(&g, mark, store_of(main_fn, NULL, 6)));
	ck_assert(!sdg_kept(&g, mark, store_of(main_fn, NULL, 5)));
	free(mark);
	release_all(&ir, &pta, &g);
}
END_TEST

/* The other tests' programs give the same slices with every interface grouped, and with every
 * access of more than one location wide as well. */
START_TEST(budgets_keep_the_slices)
{
	static const struct sdg_budget budgets[] = {{1 << 20, 16, 0}, {0, 1, 0}};

	for (int i = 0; i < 2; i++) {
		struct ir ir;
		struct pta pta;
		struct sdg g;
		LLVMValueRef main_fn, fail;
		unsigned char *mark;

		build_within(&ir, &pta, &g, two_sites, &budgets[i]);
		main_fn = LLVMGetNamedFunction(ir.mod, "main");
		mark = slice_from(&g, value(main_fn, "v"));
		ck_assert(sdg_kept(&g, mark, value(main_fn, "b")));
		ck_assert(sdg_kept(&g, mark, value(main_fn, "cheap")));
		ck_assert(sdg_kept(&g, mark, value(LLVMGetNamedFunction(ir.mod, "helper"), "r")));
		ck_assert(!sdg_kept(&g, mark, value(main_fn, "a")));
		ck_assert(!sdg_kept(&g, mark, value(main_fn, "big")));
		ck_assert(!sdg_kept(&g, mark, value(LLVMGetNamedFunction(ir.mod, "expensive"), "m")));
		free(mark);
		release_all(&ir, &pta, &g);

		build_within(&ir, &pta, &g, exits, &budgets[i]);
		fail = LLVMGetNamedFunction(ir.mod, "fail");
		mark = slice_from(&g, value(LLVMGetNamedFunction(ir.mod, "main"), "v"));
		ck_assert(!sdg_kept(&g, mark, store_of(fail, NULL, -1)));
		free(mark);
		release_all(&ir, &pta, &g);

		build_within(&ir, &pta, &g, together, &budgets[i]);
		main_fn = LLVMGetNamedFunction(ir.mod, "main");
		ck_assert_int_eq(g.wide >= 0, i == 1); /* %p's two locations */
		mark = slice_from(&g, value(main_fn, "z"));
		ck_assert(sdg_kept(&g, mark, store_of(main_fn, LLVMGetParam(main_fn, 0), 0)));
		ck_assert(sdg_kept(&g, mark, store_of(main_fn, NULL, 2)));
		free(mark);
		release_all(&ir, &pta, &g);
	}
}
END_TEST

/* A bounded slice (train's upfront estimate) stops only once its marked weight passes the
 * limit, marks nothing outside the whole slice on the way, and is the whole slice when the
 * limit is not passed. Every node weighs 1, so the whole slice weighs its node count. */
START_TEST(bounded_slices_stop_inside_the_slice)
{
	struct ir ir;
	struct pta pta;
	struct sdg g;
	unsigned char *whole;
	double *weight;
	int crit, size;

	build_within(&ir, &pta, &g, two_sites, NULL);
	crit = sdg_node(&g, value(LLVMGetNamedFunction(ir.mod, "main"), "v"));
	whole = xcalloc((size_t)g.n, 1);
	size = sdg_slice(&g, &crit, 1, whole);
	weight = xcalloc((size_t)g.n, sizeof *weight);
	for (int v = 0; v < g.n; v++)
		weight[v] = 1;
	ck_assert_int_gt(size, 3);
	for (int limit = 0; limit <= size; limit++) {
		unsigned char *part = xcalloc((size_t)g.n, 1);
		struct sdg_bound bound = {weight, limit, 0};
		int n = sdg_slice_within(&g, &crit, 1, part, &bound), marked = 0;

		for (int v = 0; v < g.n; v++) {
			ck_assert_msg(!part[v] || whole[v], "limit %d: node %d is outside the slice", limit, v);
			marked += part[v] != 0;
		}
		ck_assert_int_eq((int)bound.sum, marked);
		if (limit < size) {
			ck_assert_int_eq(n, -1);
			ck_assert_int_eq(marked, limit + 1); /* stopped at the first node over */
		} else {
			ck_assert_int_eq(n, size);
			ck_assert_mem_eq(part, whole, (size_t)g.n);
		}
		free(part);
	}
	free(weight);
	free(whole);
	release_all(&ir, &pta, &g);
}
END_TEST

/* An evaluator is linked statically where it can be (its start-up is much of its cost): a
 * library whose shared object is a GNU ld script, as Debian's libncurses.so ("INPUT(
 * libncurses.so.6 -ltinfo)"), brings the libraries the script names, once each, after the
 * program's flags; a word in its comments does not count, nor a library not found. */
START_TEST(static_links_take_the_libraries_a_linker_script_names)
{
	char *dir = test_tmpdir(), *lib = test_write_file(dir, "libfoo.so",
		"/* GNU ld script\n   -lnot a library */\nINPUT(libfoo.so.1 -lbar AS_NEEDED(-lm))\n");
	char *L = xasprintf("-L%s", dir);
	char *ldflags[] = {L, "-lfoo", "-lm", "-lnothere"};
	const char *want[] = {L, "-lfoo", "-lm", "-lnothere", "-lbar", "-static"};
	int n;
	char **flags = ir_static_flags(ldflags, 4, &n);

	ck_assert_int_eq(n, 6);
	for (int i = 0; i < n; i++)
		ck_assert_str_eq(flags[i], want[i]);
	ir_flags_free(flags, n);
	unlink(lib);
	rmdir(dir);
	free(lib);
	free(L);
	free(dir);
}
END_TEST

/* The static link is an attempt that the slicer falls back from (to the program's own link):
 * where a library has no archive it fails, and says nothing (the linker's complaints would
 * read as the training's failure); where they all do, it links. */
START_TEST(a_failed_static_link_says_nothing)
{
	char *dir = test_tmpdir();
	char *ll = test_write_file(dir, "main.ll", "define i32 @main() {\n  ret i32 0\n}\n");
	char *exe = xasprintf("%s/main", dir), *log = xasprintf("%s/stderr.txt", dir);
	char *missing[] = {"-lmantis_no_such_library"};
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), failed, built;
	struct stat st;

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	dup2(fd, 2);
	failed = ir_build_static(ll, "0", NULL, 0, missing, 1, exe);
	built = ir_build_static(ll, "0", NULL, 0, NULL, 0, exe);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fd);
	ck_assert_int_eq(failed, -1);
	ck_assert_int_eq(built, 0);
	ck_assert_int_eq(access(exe, X_OK), 0);
	ck_assert_int_eq(stat(log, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	unlink(exe);
	unlink(log);
	unlink(ll);
	rmdir(dir);
	free(exe);
	free(log);
	free(ll);
	free(dir);
}
END_TEST

Suite *suite_slice(void)
{
	Suite *s = suite_create("slice");
	TCase *tc = tcase_create("slice");

	tcase_add_test(tc, postdominators_and_control_dependence);
	tcase_add_test(tc, context_sensitive_slice);
	tcase_add_test(tc, memory_classes);
	tcase_add_test(tc, writes_before_an_exit_do_not_return);
	tcase_add_test(tc, untouched_classes_get_no_formals);
	tcase_add_test(tc, grouped_interfaces_pass_classes_on);
	tcase_add_test(tc, wide_accesses_keep_their_dependences);
	tcase_add_test(tc, budgets_keep_the_slices);
	tcase_add_test(tc, bounded_slices_stop_inside_the_slice);
	tcase_add_test(tc, static_links_take_the_libraries_a_linker_script_names);
	tcase_add_test(tc, a_failed_static_link_says_nothing);
	suite_add_tcase(s, tc);
	return s;
}
