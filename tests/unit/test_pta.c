/*
 * test_pta.c: the points-to analysis and the library model on small C programs.
 *
 * Each program is compiled by ir_from_sources and prepared (mem2reg) like the slicer's input.
 * Programs pass the pointers under test to empty functions sink1, sink2, ...: a defined
 * function's parameter points to whatever its callers pass, so pta_points_to of sinkN's
 * parameter shows what the program's pointer may point to. Facts are checked by the names
 * of the pointed-to objects ("%a in main", "@g", "malloc at list.c:6"), with "+off" for a
 * location past an object's start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "extmodel.h"
#include "ir.h"
#include "pta.h"
#include "tests.h"
#include "util.h"

/* A compiled test program and its analysis. */
struct prog {
	struct ir ir;   /* the prepared module */
	struct pta pta; /* its points-to analysis */
};

/* Compiles source (saved as dir/name), prepares and analyses it; fails the test on errors. */
static void prog_build(struct prog *p, const char *name, const char *source)
{
	char *dir = test_tmpdir(), *path = test_write_file(dir, name, source);
	struct error err = {""};

	ck_assert_msg(ir_from_sources(&p->ir, &path, 1, "0", NULL, 0, dir, &err) == 0, "%s", err.msg);
	ck_assert_msg(ir_prepare(&p->ir, &err) == 0, "%s", err.msg);
	ck_assert_msg(pta_build(&p->pta, p->ir.mod, &err) == 0, "%s", err.msg);
	free(path);
	free(dir);
}

static void prog_release(struct prog *p)
{
	pta_release(&p->pta);
	ir_release(&p->ir);
}

static LLVMValueRef function(struct prog *p, const char *name)
{
	LLVMValueRef f = LLVMGetNamedFunction(p->ir.mod, name);

	ck_assert_msg(f != NULL, "no function %s", name);
	return f;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns the names of locations locs[0..n), sorted and blank-separated, owned. */
static char *names(struct prog *p, const int *locs, int n)
{
	char **v = xcalloc((size_t)(n ? n : 1), sizeof *v);
	struct strbuf sb = {0};

	for (int i = 0; i < n; i++) {
		const struct pta_loc *l = &p->pta.loc[locs[i]];
		const char *name = p->pta.obj[l->obj].name;

		v[i] = l->off ? xasprintf("%s+%llu", name, (unsigned long long)l->off) : xstrdup(name);
	}
	qsort(v, (size_t)n, sizeof *v, compare_strings);
	strbuf_add(&sb, "", 0);
	for (int i = 0; i < n; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_add(&sb, v[i], strlen(v[i]));
		free(v[i]);
	}
	free(v);
	return strbuf_detach(&sb);
}

/* Returns the names of what value v may point to, owned. */
static char *targets_of(struct prog *p, LLVMValueRef v)
{
	const int *locs;
	int n = pta_points_to(&p->pta, v, &locs);

	return names(p, locs, n);
}

/* Returns the names of what the first parameter of function sink may point to, owned. */
static char *targets(struct prog *p, const char *sink)
{
	return targets_of(p, LLVMGetParam(function(p, sink), 0));
}

/* Checks that sink's parameter points to exactly the blank-separated sorted names expected. */
static void expect_targets(struct prog *p, const char *sink, const char *expected)
{
	char *got = targets(p, sink);

	ck_assert_msg(strcmp(got, expected) == 0, "%s points to \"%s\", expected \"%s\"", sink, got,
		      expected);
	free(got);
}

/* Returns the first call in function fn whose callee's name contains part ("" matches an
 * indirect call only), or fails the test. */
static LLVMValueRef find_call(struct prog *p, const char *fn, const char *part)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(function(p, fn)); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
			LLVMValueRef callee;
			size_t len;

			if (!LLVMIsACallInst(i))
				continue;
			callee = LLVMGetCalledValue(i);
			if (!*part && !LLVMIsAFunction(callee))
				return i;
			if (*part && LLVMIsAFunction(callee) && strstr(LLVMGetValueName2(callee, &len), part))
				return i;
		}
	}
	ck_abort_msg("no call to %s in %s", *part ? part : "a pointer", fn);
	return NULL;
}

/* Returns the object whose name is name, or fails the test. */
static const struct pta_object *object(struct prog *p, const char *name)
{
	for (int o = 0; o < p->pta.nobjs; o++) {
		if (strcmp(p->pta.obj[o].name, name) == 0)
			return &p->pta.obj[o];
	}
	ck_abort_msg("no object %s", name);
	return NULL;
}

START_TEST(addresses_of_different_locals_are_distinct)
{
	struct prog p;

	prog_build(&p, "addr.c",
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(int argc, char **argv) {\n"
		   "  int a = 1, b = 2;\n"
		   "  int *p = argc > 1 ? &a : &b, *q = &a;\n"
		   "  sink1(q);\n"
		   "  sink2(p);\n"
		   "  return *p + *q;\n"
		   "}\n");
	expect_targets(&p, "sink1", "%a in main");
	expect_targets(&p, "sink2", "%a in main %b in main");
	ck_assert_int_eq(object(&p, "%a in main")->kind, PTA_STACK);
	prog_release(&p);
}
END_TEST

START_TEST(struct_fields_are_distinct_locations)
{
	struct prog p;
	struct intvec all = {0}, one = {0};
	LLVMValueRef x;
	char *got;

	prog_build(&p, "fields.c",
		   "struct S { int x; int y; int *p; };\n"
		   "int g;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "int main(void) {\n"
		   "  struct S s;\n"
		   "  s.x = 1; s.y = 2; s.p = &g;\n"
		   "  sink1(&s.x);\n"
		   "  sink2(&s.y);\n"
		   "  sink3(s.p);\n"
		   "  return s.x + s.y;\n"
		   "}\n");
	expect_targets(&p, "sink1", "%s in main");
	expect_targets(&p, "sink2", "%s in main+4");
	expect_targets(&p, "sink3", "@g");
	x = LLVMGetParam(function(&p, "sink1"), 0);
	ck_assert_int_eq(pta_access(&p.pta, x, 16, &all), 3); /* the whole struct: x, y and p */
	got = names(&p, all.v, all.n);
	ck_assert_str_eq(got, "%s in main %s in main+4 %s in main+8");
	free(got);
	ck_assert_int_eq(pta_access(&p.pta, x, 4, &one), 1); /* s.x alone */
	ck_assert_int_eq(p.pta.loc[one.v[0]].off, 0);
	intvec_release(&all);
	intvec_release(&one);
	prog_release(&p);
}
END_TEST

START_TEST(array_elements_are_merged)
{
	struct prog p;

	prog_build(&p, "arrays.c",
		   "int arr[10];\n"
		   "struct T { int a; int *b; } ts[4];\n"
		   "int g1, g2;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "void sink4(void *p) {}\n"
		   "int main(int argc, char **argv) {\n"
		   "  sink1(&arr[3]);\n"
		   "  sink2(&arr[argc]);\n"
		   "  ts[argc].b = &g1;\n"
		   "  ts[2].b = &g2;\n"
		   "  sink3(ts[1].b);\n"
		   "  sink4(&ts[argc & 3].b);\n"
		   "  return arr[0];\n"
		   "}\n");
	expect_targets(&p, "sink1", "@arr");
	expect_targets(&p, "sink2", "@arr");
	expect_targets(&p, "sink3", "@g1 @g2");
	expect_targets(&p, "sink4", "@ts+8");
	ck_assert_int_eq(object(&p, "@ts")->nlocs, 2);
	prog_release(&p);
}
END_TEST

START_TEST(linked_list_nodes_reach_their_allocation_site)
{
	struct prog p;
	struct intvec reach = {0};
	char *got;

	prog_build(&p, "list.c",
		   "#include <stdlib.h>\n"
		   "struct node { int v; struct node *next; };\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct node *head = NULL;\n"
		   "  for (int i = 0; i < argc; i++) {\n"
		   "    struct node *n = malloc(sizeof *n);\n"
		   "    n->v = i;\n"
		   "    n->next = head;\n"
		   "    head = n;\n"
		   "  }\n"
		   "  sink1(head);\n"
		   "  if (head)\n"
		   "    sink2(head->next);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "malloc at list.c:8");
	expect_targets(&p, "sink2", "malloc at list.c:8");
	ck_assert_int_eq(object(&p, "malloc at list.c:8")->kind, PTA_HEAP);
	ck_assert_int_eq(object(&p, "malloc at list.c:8")->collapsed, 0);
	pta_reachable(&p.pta, LLVMGetParam(function(&p, "sink1"), 0), &reach);
	got = names(&p, reach.v, reach.n);
	ck_assert_str_eq(got, "malloc at list.c:8 malloc at list.c:8+8");
	free(got);
	intvec_release(&reach);
	prog_release(&p);
}
END_TEST

START_TEST(function_pointer_table_resolves_indirect_calls)
{
	struct prog p;
	LLVMValueRef const *fns;
	LLVMValueRef call;
	const char *a, *b;
	size_t len;
	int n;

	prog_build(&p, "table.c",
		   "static int add(int a, int b) { return a + b; }\n"
		   "static int sub(int a, int b) { return a - b; }\n"
		   "int mul(int a, int b) { return a * b; }\n"
		   "int neg(int a) { return -a; }\n"
		   "int (*const ops[])(int, int) = {add, sub, (int (*)(int, int))neg};\n"
		   "int main(int argc, char **argv) {\n"
		   "  return ops[argc % 3](argc, 3) + mul(1, 2);\n"
		   "}\n");
	call = find_call(&p, "main", "");
	n = pta_callees(&p.pta, call, &fns);
	ck_assert_int_eq(n, 2); /* neg's parameter count does not fit; mul is not in the table */
	a = LLVMGetValueName2(fns[0], &len);
	b = LLVMGetValueName2(fns[1], &len);
	ck_assert_msg((strcmp(a, "add") == 0 && strcmp(b, "sub") == 0) ||
			      (strcmp(a, "sub") == 0 && strcmp(b, "add") == 0),
		      "callees %s %s", a, b);
	ck_assert_int_eq(pta_calls_unknown(&p.pta, call), 0);
	n = pta_callees(&p.pta, find_call(&p, "main", "mul"), &fns);
	ck_assert_int_eq(n, 1);
	ck_assert_ptr_eq(fns[0], function(&p, "mul"));
	prog_release(&p);
}
END_TEST

START_TEST(calls_through_dlsym_may_call_unknown_code)
{
	struct prog p;
	struct intvec esc = {0};
	LLVMValueRef const *fns;
	LLVMValueRef call;
	char *got;

	prog_build(&p, "dl.c",
		   "#include <dlfcn.h>\n"
		   "static int twice(int x) { return 2 * x; }\n"
		   "int (*keep)(int) = twice;\n"
		   "int main(int argc, char **argv) {\n"
		   "  void *h = dlopen(argv[1], RTLD_NOW);\n"
		   "  int (*f)(int) = h ? (int (*)(int))dlsym(h, \"f\") : keep;\n"
		   "  return f(argc);\n"
		   "}\n");
	call = find_call(&p, "main", "");
	ck_assert_int_eq(pta_calls_unknown(&p.pta, call), 1);
	ck_assert_int_eq(pta_callees(&p.pta, call, &fns), 1);
	ck_assert_ptr_eq(fns[0], function(&p, "twice"));
	pta_escaped(&p.pta, &esc); /* dlopen's file name is only read: argv does not escape */
	got = names(&p, esc.v, esc.n);
	ck_assert_str_eq(got, "unknown");
	free(got);
	intvec_release(&esc);
	prog_release(&p);
}
END_TEST

/* argv's strings are data: a call through a pointer into them calls no code at all, not unknown
 * code (whose arguments would escape). */
START_TEST(argv_is_data_not_code)
{
	struct prog p;
	LLVMValueRef const *fns;
	LLVMValueRef call;

	prog_build(&p, "argv.c",
		   "#include <string.h>\n"
		   "int main(int argc, char **argv) {\n"
		   "  int (*f)(int);\n"
		   "  memcpy(&f, &argv[0], sizeof f);\n"
		   "  return argc > 99 ? f(argc) : 0;\n"
		   "}\n");
	call = find_call(&p, "main", "");
	ck_assert_int_eq(pta_calls_unknown(&p.pta, call), 0);
	ck_assert_int_eq(pta_callees(&p.pta, call, &fns), 0);
	prog_release(&p);
}
END_TEST

/* An indirect call reaches only functions whose parameters are passed as its arguments are:
 * not one taking a pointer or a long where the call passes an int. */
START_TEST(indirect_calls_need_fitting_parameter_kinds)
{
	struct prog p;
	LLVMValueRef const *fns;

	prog_build(&p, "kinds.c",
		   "static int on_int(int x) { return x + 1; }\n"
		   "static int on_ptr(char *s) { return s[0]; }\n"
		   "static int on_long(long x) { return (int)x; }\n"
		   "int (*table[])(int) = {on_int, (int (*)(int))on_ptr, (int (*)(int))on_long};\n"
		   "int main(int argc, char **argv) {\n"
		   "  return table[argc % 3](argc);\n"
		   "}\n");
	ck_assert_int_eq(pta_callees(&p.pta, find_call(&p, "main", ""), &fns), 1);
	ck_assert_ptr_eq(fns[0], function(&p, "on_int"));
	prog_release(&p);
}
END_TEST

START_TEST(qsort_comparator_gets_pointers_into_the_array)
{
	struct prog p;
	char *got;

	prog_build(&p, "sort.c",
		   "#include <stdlib.h>\n"
		   "struct rec { int key; char *name; };\n"
		   "static struct rec recs[3];\n"
		   "static int cmp(const void *a, const void *b) {\n"
		   "  return ((const struct rec *)a)->key - ((const struct rec *)b)->key;\n"
		   "}\n"
		   "int main(void) {\n"
		   "  qsort(recs, 3, sizeof recs[0], cmp);\n"
		   "  return recs[0].key;\n"
		   "}\n");
	got = targets_of(&p, LLVMGetParam(function(&p, "cmp"), 0));
	ck_assert_str_eq(got, "@recs");
	free(got);
	got = targets_of(&p, LLVMGetParam(function(&p, "cmp"), 1));
	ck_assert_str_eq(got, "@recs");
	free(got);
	ck_assert_int_eq(object(&p, "@recs")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(memcpy_copies_the_pointers_of_a_struct)
{
	struct prog p;

	prog_build(&p, "copy.c",
		   "#include <string.h>\n"
		   "struct P { int *a; int *b; };\n"
		   "int x, y;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(void) {\n"
		   "  struct P s, t;\n"
		   "  s.a = &x; s.b = &y;\n"
		   "  memcpy(&t, &s, sizeof t);\n"
		   "  sink1(t.a);\n"
		   "  sink2(t.b);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@x");
	expect_targets(&p, "sink2", "@y");
	prog_release(&p);
}
END_TEST

START_TEST(realloc_keeps_the_pointers_it_copies)
{
	struct prog p;

	prog_build(&p, "grow.c",
		   "#include <stdlib.h>\n"
		   "int x;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(void) {\n"
		   "  int **a = malloc(sizeof *a);\n"
		   "  a[0] = &x;\n"
		   "  int **b = realloc(a, 2 * sizeof *b);\n"
		   "  sink1(b);\n"
		   "  sink2(b[0]);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "realloc at grow.c:8");
	expect_targets(&p, "sink2", "@x");
	prog_release(&p);
}
END_TEST

START_TEST(unknown_function_writes_the_unknown_object)
{
	struct prog p;
	struct intvec esc = {0};
	char *got;

	prog_build(&p, "unknown.c",
		   "void ext(int **p);\n"
		   "int g;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(void) {\n"
		   "  int *q = &g;\n"
		   "  ext(&q);\n"
		   "  sink1(q);\n"
		   "  sink2(&g);\n"
		   "  return q ? *q : 0;\n"
		   "}\n");
	got = targets(&p, "sink1");
	ck_assert_msg(strstr(got, "unknown") && strstr(got, "@g"), "q points to %s", got);
	free(got);
	pta_escaped(&p.pta, &esc);
	got = names(&p, esc.v, esc.n);
	ck_assert_msg(strstr(got, "%q in main") && strstr(got, "unknown") && strstr(got, "@g"),
		      "escaped: %s", got);
	free(got);
	intvec_release(&esc);
	prog_release(&p);
}
END_TEST

START_TEST(sscanf_writes_its_output_arguments)
{
	struct prog p;
	struct intvec out = {0};
	const struct extfn *m;
	LLVMValueRef call;
	size_t len;
	char *got;

	prog_build(&p, "scan.c",
		   "#include <stdio.h>\n"
		   "int main(int argc, char **argv) {\n"
		   "  int v = 0;\n"
		   "  char word[16];\n"
		   "  if (argc > 1)\n"
		   "    sscanf(argv[1], \"%d %15s\", &v, word);\n"
		   "  return v + word[0];\n"
		   "}\n");
	call = find_call(&p, "main", "sscanf"); /* glibc's headers call __isoc99_sscanf */
	m = extmodel_find(LLVMGetValueName2(LLVMGetCalledValue(call), &len));
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(extmodel_arg(m, 0), 'r');
	ck_assert_int_eq(extmodel_arg(m, 2), 'w');
	ck_assert_int_eq(extmodel_arg(m, 3), 'w');
	ck_assert_int_eq(pta_access(&p.pta, LLVMGetOperand(call, 2), 4, &out), 1);
	ck_assert_int_eq(pta_access(&p.pta, LLVMGetOperand(call, 3), 0, &out), 1);
	got = names(&p, out.v, out.n);
	ck_assert_str_eq(got, "%v in main %word in main");
	free(got);
	got = targets_of(&p, LLVMGetOperand(call, 0));
	ck_assert_str_eq(got, "argv");
	free(got);
	intvec_release(&out);
	prog_release(&p);
}
END_TEST

START_TEST(fopen_returns_a_heap_stream_distinct_from_stdin)
{
	struct prog p;
	const int *locs;

	prog_build(&p, "io.c",
		   "#include <stdio.h>\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(int argc, char **argv) {\n"
		   "  FILE *f = fopen(argv[1], \"r\");\n"
		   "  sink1(f);\n"
		   "  sink2(stdin);\n"
		   "  return f ? fgetc(f) : getchar();\n"
		   "}\n");
	expect_targets(&p, "sink1", "fopen at io.c:5");
	expect_targets(&p, "sink2", "stdin");
	ck_assert_int_eq(object(&p, "fopen at io.c:5")->kind, PTA_HEAP);
	ck_assert_int_eq(pta_points_to(&p.pta, LLVMGetParam(function(&p, "sink2"), 0), &locs), 1);
	ck_assert_int_eq(locs[0], p.pta.stream_loc[EXT_STDIN]);
	ck_assert_int_eq(p.pta.obj[p.pta.loc[locs[0]].obj].kind, PTA_STREAM);
	ck_assert_int_ne(p.pta.stream_loc[EXT_STDIN], p.pta.stream_loc[EXT_STDOUT]);
	prog_release(&p);
}
END_TEST

START_TEST(inttoptr_collapses_the_objects_it_may_reach)
{
	struct prog p;

	prog_build(&p, "ints.c",
		   "#include <stdint.h>\n"
		   "struct S { int *a; int *b; };\n"
		   "struct S other, cs;\n"
		   "int x, y;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "int main(void) {\n"
		   "  struct S s;\n"
		   "  s.a = &x; s.b = &y;\n"
		   "  other.a = &x; other.b = &y;\n"
		   "  cs.a = &y;\n"
		   "  uintptr_t u = (uintptr_t)&s;\n"
		   "  int **pb = (int **)(u + sizeof(int *));\n"
		   "  sink1(pb);\n"
		   "  sink2(*pb);\n"
		   "  sink3(*(int **)((uintptr_t)&cs + 8));\n"
		   "  return *other.b;\n"
		   "}\n");
	expect_targets(&p, "sink1", "%s in main"); /* the address that reaches this inttoptr */
	expect_targets(&p, "sink2", "@x @y");
	expect_targets(&p, "sink3", "@y"); /* inttoptr in a constant expression */
	ck_assert_int_eq(object(&p, "@cs")->collapsed, 1);
	ck_assert_int_eq(object(&p, "%s in main")->collapsed, 1);
	ck_assert_int_eq(object(&p, "@other")->collapsed, 0);
	ck_assert_int_eq(object(&p, "@other")->nlocs, 2);
	prog_release(&p);
}
END_TEST

START_TEST(allocation_wrappers_make_an_object_per_call_site)
{
	struct prog p;

	prog_build(&p, "wrap.c",
		   "#include <stdlib.h>\n"
		   "#include <stdio.h>\n"
		   "struct A { int *p; int *q; };\n"
		   "struct B { char name[8]; FILE *f; };\n"
		   "int x, y;\n"
		   "void *last;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "void sink4(void *p) {}\n"
		   "void sink5(void *p) {}\n"
		   "static void *xmalloc(size_t n) {\n"
		   "  void *v = malloc(n);\n"
		   "  if (!v) exit(1);\n"
		   "  last = v;\n"
		   "  return v;\n"
		   "}\n"
		   "static struct A *new_a(void) { struct A *a = xmalloc(sizeof *a); a->p = &x; return a; }\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct A *a = new_a();\n"
		   "  struct B *b = xmalloc(sizeof *b);\n"
		   "  char *s = xmalloc(16);\n"
		   "  a->q = &y;\n"
		   "  b->f = fopen(argv[1], \"r\");\n"
		   "  s[argc] = 0;\n"
		   "  sink1(a);\n"
		   "  sink2(a->q);\n"
		   "  sink3(b->f);\n"
		   "  sink4(s);\n"
		   "  sink5(last);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "new_a at wrap.c:20");
	expect_targets(&p, "sink2", "@y"); /* the struct's fields stay apart */
	expect_targets(&p, "sink3", "fopen at wrap.c:24");
	expect_targets(&p, "sink4", "xmalloc at wrap.c:22");
	/* what the wrapper keeps of its allocation may be any call's */
	expect_targets(&p, "sink5", "malloc at wrap.c:13 new_a at wrap.c:20 xmalloc at wrap.c:18 "
			  "xmalloc at wrap.c:21 xmalloc at wrap.c:22");
	ck_assert_int_eq(object(&p, "new_a at wrap.c:20")->kind, PTA_HEAP);
	ck_assert_int_eq(object(&p, "new_a at wrap.c:20")->collapsed, 0);
	ck_assert_int_eq(object(&p, "new_a at wrap.c:20")->nlocs, 2);
	ck_assert_int_eq(object(&p, "xmalloc at wrap.c:21")->collapsed, 0); /* typed by its cast */
	ck_assert_int_eq(object(&p, "xmalloc at wrap.c:22")->collapsed, 1); /* bytes: s[argc] */
	prog_release(&p);
}
END_TEST

START_TEST(an_allocator_called_through_a_pointer_allocates_per_call_site)
{
	struct prog p;

	/* bzip2's pattern: the stream's state and its arrays come from strm->bzalloc, and a
	 * FILE * sits beside the stream; byte arithmetic on one array must not merge them */
	prog_build(&p, "bz.c",
		   "#include <stdlib.h>\n"
		   "#include <stdio.h>\n"
		   "typedef struct { char *next; void *(*bzalloc)(void *, int, int); void *opaque;\n"
		   "                 void *state; } stream;\n"
		   "typedef struct { FILE *handle; char buf[64]; stream strm; } file;\n"
		   "typedef struct { stream *strm; int *arr1; int *arr2; unsigned char *block; } state;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "static void *default_alloc(void *o, int n, int m) { return malloc(n * m); }\n"
		   "#define ALLOC(n) (strm->bzalloc)(strm->opaque, (n), 1)\n"
		   "static void init(stream *strm, int n) {\n"
		   "  state *s;\n"
		   "  if (!strm->bzalloc) strm->bzalloc = default_alloc;\n"
		   "  s = ALLOC(sizeof(state));\n"
		   "  s->strm = strm;\n"
		   "  s->arr1 = ALLOC(n * sizeof(int));\n"
		   "  s->arr2 = ALLOC(n * sizeof(int));\n"
		   "  s->block = (unsigned char *)s->arr2;\n"
		   "  strm->state = s;\n"
		   "}\n"
		   "static void sort(state *s, int n) {\n"
		   "  for (int i = 0; i < n; i++) { s->arr1[i] = s->block[i + 3]; s->block[i] = 0; }\n"
		   "  sink1(&s->arr1[n - 1]);\n"
		   "  sink2(s->block + n);\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "  file *f = malloc(sizeof *f);\n"
		   "  f->handle = argc > 2 ? fopen(argv[1], \"r\") : stdin;\n"
		   "  f->strm.bzalloc = NULL;\n"
		   "  init(&f->strm, argc);\n"
		   "  sort(f->strm.state, argc);\n"
		   "  sink3(f->handle);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "default_alloc at bz.c:17");
	expect_targets(&p, "sink2", "default_alloc at bz.c:18");
	expect_targets(&p, "sink3", "fopen at bz.c:29 stdin");
	ck_assert_int_eq(object(&p, "default_alloc at bz.c:15")->collapsed, 0);
	ck_assert_int_eq(object(&p, "default_alloc at bz.c:15")->nlocs, 4);
	ck_assert_int_eq(object(&p, "malloc at bz.c:28")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(wrapper_results_past_a_header_and_nested_wrappers)
{
	struct prog p;

	prog_build(&p, "hdr.c",
		   "#include <stdlib.h>\n"
		   "#include <string.h>\n"
		   "struct T { long a; int *p; };\n"
		   "int x;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "static void *mem_alloc(int n) {\n"
		   "  long *p = malloc(n + 8);\n"
		   "  if (p) { p[0] = n; p++; }\n"
		   "  return p;\n"
		   "}\n"
		   "static void *zalloc(int n) { char *p = mem_alloc(n); if (p) memset(p, 0, n); return p; }\n"
		   "static long size_of(void *p) { return ((long *)p)[-1]; }\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct T *t = mem_alloc(sizeof *t);\n"
		   "  struct T *u = zalloc(sizeof *u);\n"
		   "  t->p = &x;\n"
		   "  sink1(t);\n"
		   "  sink2(u);\n"
		   "  sink3(&t->p);\n"
		   "  return (int)size_of(t) + (int)size_of(u);\n"
		   "}\n");
	/* a pointer past a header: untyped objects, whose p++ steps make 8-byte periods */
	expect_targets(&p, "sink1", "mem_alloc at hdr.c:16");
	expect_targets(&p, "sink2", "zalloc at hdr.c:17");
	expect_targets(&p, "sink3", "mem_alloc at hdr.c:16");
	ck_assert_int_eq(object(&p, "mem_alloc at hdr.c:16")->collapsed, 0);
	ck_assert_int_eq(object(&p, "zalloc at hdr.c:17")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(a_bump_allocator_hands_each_call_site_its_own_object)
{
	struct prog p;

	/* libjpeg's alloc_small, reached through its memory manager: every piece is carved from
	 * one malloc'd block at a variable offset; a table made on first use is not such a pool */
	prog_build(&p, "pool.c",
		   "#include <stdlib.h>\n"
		   "struct hdr { struct hdr *next; size_t used, left; };\n"
		   "struct mgr { void *(*alloc_small)(struct mgr *, size_t); struct hdr *list; };\n"
		   "struct A { int *p; int *q; };\n"
		   "struct B { void (*fn)(void); int *r; };\n"
		   "int x, y, z;\n"
		   "void f1(void) {}\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "void sink4(void *p) {}\n"
		   "void sink5(void *p) {}\n"
		   "static void *alloc_small(struct mgr *m, size_t n) {\n"
		   "  struct hdr *h = m->list;\n"
		   "  char *piece;\n"
		   "  n = (n + 7) & ~(size_t)7;\n"
		   "  if (!h || h->left < n) {\n"
		   "    h = malloc(sizeof *h + 4096);\n"
		   "    if (!h) exit(1);\n"
		   "    h->next = m->list; h->used = 0; h->left = 4096;\n"
		   "    m->list = h;\n"
		   "  }\n"
		   "  piece = (char *)(h + 1) + h->used;\n"
		   "  h->used += n;\n"
		   "  h->left -= n;\n"
		   "  return piece;\n"
		   "}\n"
		   "static int *lookup(size_t k) {\n"
		   "  static int *table;\n"
		   "  if (!table) table = calloc(64, sizeof *table);\n"
		   "  return &table[k % 64];\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct mgr m = {alloc_small, NULL};\n"
		   "  struct A *a = m.alloc_small(&m, sizeof *a);\n"
		   "  struct B *b = m.alloc_small(&m, sizeof *b);\n"
		   "  int *t1 = lookup((size_t)argc), *t2 = lookup(3);\n"
		   "  a->p = &x; a->q = &y; b->r = &z; b->fn = f1;\n"
		   "  sink1(a->q);\n"
		   "  sink2(b->r);\n"
		   "  sink3(a);\n"
		   "  sink4(t2);\n"
		   "  sink5(m.list);\n"
		   "  return *t1;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@y"); /* collapsed into one block: @x @y @z @f1 */
	expect_targets(&p, "sink2", "@z");
	expect_targets(&p, "sink3", "alloc_small at pool.c:35");
	ck_assert_int_eq(object(&p, "alloc_small at pool.c:35")->collapsed, 0);
	ck_assert_int_eq(object(&p, "alloc_small at pool.c:35")->nlocs, 2);
	expect_targets(&p, "sink4", "calloc at pool.c:30"); /* both lookups' */
	expect_targets(&p, "sink5", "malloc at pool.c:18");
	prog_release(&p);
}
END_TEST

START_TEST(a_wrappers_other_fresh_objects_are_its_runs_own)
{
	struct prog p;

	/* libjpeg's alloc_sarray: a wrapper that returns a table of fresh rows makes, for each
	 * of its call sites, rows of that site's own; where it also keeps the rows elsewhere
	 * (or copies a row from one place of the table to another), that place gets every
	 * site's */
	prog_build(&p, "rows.c",
		   "#include <stdlib.h>\n"
		   "int *last;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "void sink4(void *p) {}\n"
		   "static void *xmalloc(size_t n) { void *p = malloc(n); if (!p) exit(1); return p; }\n"
		   "static int **rows(int n, int len) {\n"
		   "  int **t = xmalloc((size_t)n * sizeof *t);\n"
		   "  int *block = xmalloc((size_t)(n * len) * sizeof *block);\n"
		   "  for (int i = 0; i < n; i++) { t[i] = block; block += len; }\n"
		   "  last = block;\n"
		   "  if (n > 9) last = t[0];\n"
		   "  return t;\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "  int **a = rows(argc, 4);\n"
		   "  int **b = rows(3, 4);\n"
		   "  sink1(a[1]);\n"
		   "  sink2(b[2]);\n"
		   "  sink3(last);\n"
		   "  sink4(b);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "xmalloc at rows.c:10 for rows at rows.c:17");
	expect_targets(&p, "sink2", "xmalloc at rows.c:10 for rows at rows.c:18");
	expect_targets(&p, "sink3", "xmalloc at rows.c:10 xmalloc at rows.c:10 for rows at rows.c:17 "
				    "xmalloc at rows.c:10 for rows at rows.c:18");
	expect_targets(&p, "sink4", "rows at rows.c:18");
	prog_release(&p);
}
END_TEST

START_TEST(a_pointer_field_indexed_is_an_array_of_one)
{
	struct prog p;

	/* libjpeg's ppm writer hands the decoder &dest->pixrow as an array of one row, which the
	 * colour converter walks with *output_buf++ and the upsampler indexes with
	 * output_buf[row]: a correct program reads the one field only, so neither walks into
	 * the writer's other fields nor collapses its struct */
	prog_build(&p, "one.c",
		   "#include <stdlib.h>\n"
		   "struct dest { void (*put)(void); char *iobuf; char *row; char **buffer; int height; };\n"
		   "void put(void) {}\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "static void walk(char **rows, int n) {\n"
		   "  while (n-- > 0) { char *r = *rows++; r[0] = 1; sink1(r); }\n"
		   "}\n"
		   "static void pick(char **rows, int i) { sink2(rows[i]); }\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct dest *d = malloc(sizeof *d);\n"
		   "  d->put = put;\n"
		   "  d->iobuf = malloc(64);\n"
		   "  d->row = d->iobuf;\n"
		   "  d->buffer = &d->row;\n"
		   "  walk(d->buffer, d->height = 1);\n"
		   "  pick(d->buffer, argc - 1);\n"
		   "  sink3(d->put);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "malloc at one.c:14"); /* walked: @put malloc at one.c:12 too */
	expect_targets(&p, "sink2", "malloc at one.c:14");
	expect_targets(&p, "sink3", "@put");
	ck_assert_int_eq(object(&p, "malloc at one.c:12")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(a_sibling_structs_fields_are_not_anothers)
{
	struct prog p;

	/* libjpeg's writers: structs that begin with one base, reached through a base pointer
	 * that may be any of them; gif's packet buffer, indexed through gif's type, is no field of
	 * the bmp writer, whose fields stay apart */
	prog_build(&p, "sib.c",
		   "#include <stdlib.h>\n"
		   "struct base { void (*put)(struct base *, int); int height; };\n"
		   "struct gif { struct base pub; int bytes; char packet[256]; };\n"
		   "struct bmp { struct base pub; int *row; int *pad; };\n"
		   "int x, y;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "static void put_gif(struct base *b, int c) {\n"
		   "  struct gif *g = (struct gif *)b;\n"
		   "  g->packet[++g->bytes] = (char)c;\n"
		   "}\n"
		   "static void put_bmp(struct base *b, int c) {\n"
		   "  struct bmp *m = (struct bmp *)b;\n"
		   "  *m->row = c;\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "  struct base *out;\n"
		   "  if (argc > 1) {\n"
		   "    struct gif *g = malloc(sizeof *g);\n"
		   "    g->pub.put = put_gif; g->bytes = 0; out = &g->pub;\n"
		   "  } else {\n"
		   "    struct bmp *m = malloc(sizeof *m);\n"
		   "    m->pub.put = put_bmp; m->row = &x; m->pad = &y; out = &m->pub;\n"
		   "  }\n"
		   "  out->put(out, argc);\n"
		   "  sink1(((struct bmp *)out)->row);\n"
		   "  sink2(((struct bmp *)out)->pad);\n"
		   "  return 0;\n"
		   "}\n");
	ck_assert_int_eq(object(&p, "malloc at sib.c:22")->collapsed, 0); /* was: by packet[i] */
	expect_targets(&p, "sink1", "@x");
	expect_targets(&p, "sink2", "@y");
	ck_assert_int_eq(object(&p, "malloc at sib.c:19")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(integer_constants_as_pointers_point_nowhere)
{
	struct prog p;
	struct intvec esc = {0};
	LLVMValueRef call;
	char *got;

	/* SQLITE_TRANSIENT: a destructor that is -1 cast to a function pointer; a pointer from
	 * unknown code is hashed, which once put the unknown object into every inttoptr */
	prog_build(&p, "sentinel.c",
		   "#include <stdint.h>\n"
		   "#include <stdlib.h>\n"
		   "typedef void (*destructor)(void *);\n"
		   "#define TRANSIENT ((destructor)-1)\n"
		   "extern void *ext(void);\n"
		   "int x;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "static void put(void *v, destructor d) {\n"
		   "  if (d != TRANSIENT && d) d(v);\n"
		   "  sink2((void *)d);\n"
		   "}\n"
		   "int main(int argc, char **argv) {\n"
		   "  int *a = malloc(4);\n"
		   "  unsigned h = (uintptr_t)ext() % 7;\n"
		   "  put(&x, TRANSIENT);\n"
		   "  put(a, free);\n"
		   "  sink1((void *)(intptr_t)argc);\n"
		   "  return (int)h;\n"
		   "}\n");
	call = find_call(&p, "put", "");
	ck_assert_int_eq(pta_calls_unknown(&p.pta, call), 0);
	expect_targets(&p, "sink1", "");
	expect_targets(&p, "sink2", "@free");
	pta_escaped(&p.pta, &esc);
	got = names(&p, esc.v, esc.n);
	ck_assert_str_eq(got, "unknown"); /* a is not passed to unknown code */
	free(got);
	intvec_release(&esc);
	prog_release(&p);
}
END_TEST

START_TEST(addresses_through_integers_reach_only_their_inttoptr)
{
	struct prog p;

	prog_build(&p, "roundtrip.c",
		   "#include <stdint.h>\n"
		   "struct S { int *a; int *b; } s, t, h, m;\n"
		   "int x, y;\n"
		   "uintptr_t saved, copy;\n"
		   "uintptr_t init = (uintptr_t)&m.b;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "void sink4(void *p) {}\n"
		   "static uintptr_t id(uintptr_t u) { return u; }\n"
		   "int main(int argc, char **argv) {\n"
		   "  s.a = &x; s.b = &y; t.a = &x; t.b = &y; h.a = &x; m.b = &y;\n"
		   "  unsigned hash = (uintptr_t)&h % 31;\n"
		   "  sink1((int **)id((uintptr_t)&s.b));\n"
		   "  saved = (uintptr_t)&t.b;\n"
		   "  copy = saved;\n"
		   "  sink2((int **)copy);\n"
		   "  sink3((int **)init);\n"
		   "  sink4(*(int **)init);\n"
		   "  return (int)hash;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@s+8"); /* a round trip without arithmetic keeps the field */
	expect_targets(&p, "sink2", "@t+8"); /* through memory, copied as an integer */
	expect_targets(&p, "sink3", "@m+8"); /* an initializer's address */
	expect_targets(&p, "sink4", "@y");
	ck_assert_int_eq(object(&p, "@s")->collapsed, 0);
	ck_assert_int_eq(object(&p, "@h")->collapsed, 0); /* hashed, never a pointer again */
	ck_assert_int_eq(object(&p, "@h")->nlocs, 1);
	prog_release(&p);
}
END_TEST

START_TEST(integers_the_trace_cannot_follow_may_hold_any_address)
{
	struct prog p;

	prog_build(&p, "vaint.c",
		   "#include <stdarg.h>\n"
		   "#include <stdint.h>\n"
		   "struct pair { uintptr_t a, b; };\n"
		   "int x, y, z, w;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "static void var(int n, ...) {\n"
		   "  va_list ap;\n"
		   "  va_start(ap, n);\n"
		   "  sink1((int *)va_arg(ap, uintptr_t));\n"
		   "  va_end(ap);\n"
		   "}\n"
		   "static struct pair two(void) { struct pair q = {(uintptr_t)&z, 0}; return q; }\n"
		   "int main(int argc, char **argv) {\n"
		   "  unsigned h = (uintptr_t)&y % 7;\n"
		   "  var(1, (uintptr_t)&x);\n"
		   "  sink2((int *)two().a);\n"
		   "  return (int)h + w;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@x"); /* through the variadic argument area */
	/* a field of a returned aggregate: every address made an integer, collapsed */
	expect_targets(&p, "sink2", "@x @y @z");
	ck_assert_int_eq(object(&p, "@z")->collapsed, 1);
	ck_assert_int_eq(object(&p, "@w")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(variable_byte_offsets_collapse_a_struct)
{
	struct prog p;

	prog_build(&p, "bytes.c",
		   "struct S { int *a; int *b; } s, t;\n"
		   "int x, y;\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "int main(int argc, char **argv) {\n"
		   "  s.a = &x; s.b = &y;\n"
		   "  t.a = &x; t.b = &y;\n"
		   "  char *c = (char *)&s;\n"
		   "  int **q = (int **)(c + argc * sizeof(int *));\n"
		   "  sink1(*q);\n"
		   "  sink2(*(int **)((char *)&t + sizeof(int *)));\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@x @y"); /* q may be &s.a or &s.b */
	ck_assert_int_eq(object(&p, "@s")->collapsed, 1);
	expect_targets(&p, "sink2", "@y"); /* a constant byte offset finds the field */
	ck_assert_int_eq(object(&p, "@t")->collapsed, 0);
	prog_release(&p);
}
END_TEST

START_TEST(variadic_arguments_reach_va_arg)
{
	struct prog p;

	prog_build(&p, "va.c",
		   "#include <stdarg.h>\n"
		   "int x;\n"
		   "void sink1(void *p) {}\n"
		   "static void v(int n, ...) {\n"
		   "  va_list ap;\n"
		   "  va_start(ap, n);\n"
		   "  sink1(va_arg(ap, int *));\n"
		   "  va_end(ap);\n"
		   "}\n"
		   "int main(void) {\n"
		   "  v(1, &x);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "@x");
	prog_release(&p);
}
END_TEST

START_TEST(library_results_point_into_their_arguments)
{
	struct prog p;
	struct intvec a = {0};
	char *got;

	prog_build(&p, "str.c",
		   "#include <string.h>\n"
		   "#include <stdlib.h>\n"
		   "#include <pthread.h>\n"
		   "void sink1(void *p) {}\n"
		   "void sink2(void *p) {}\n"
		   "void sink3(void *p) {}\n"
		   "static void *run(void *arg) { sink3(arg); return 0; }\n"
		   "int main(int argc, char **argv) {\n"
		   "  char buf[32];\n"
		   "  char *end;\n"
		   "  pthread_t t;\n"
		   "  strcpy(buf, \"a=1\");\n"
		   "  sink1(strchr(buf, '='));\n"
		   "  strtol(buf + 2, &end, 10);\n"
		   "  sink2(end);\n"
		   "  pthread_create(&t, 0, run, buf);\n"
		   "  return 0;\n"
		   "}\n");
	expect_targets(&p, "sink1", "%buf in main");
	expect_targets(&p, "sink2", "%buf in main");
	expect_targets(&p, "sink3", "%buf in main");
	ck_assert_int_eq(pta_escaped(&p.pta, &a), 1); /* only the unknown object */
	got = names(&p, a.v, a.n);
	ck_assert_str_eq(got, "unknown");
	free(got);
	intvec_release(&a);
	prog_release(&p);
}
END_TEST

/* ir_prepare (the slicer's input): a global of 16 bytes or more is aligned to the largest
 * power of two up to 64 its size allows, so that code working it by aligned blocks counts the
 * same instructions in the instrumented program and in an evaluator, whose globals lie
 * elsewhere (xz's CRC64 over its 8-byte aligned input buffer); smaller globals, and those in a
 * section of their own (a linker set's entries must stay adjacent), keep theirs. */
START_TEST(large_globals_are_aligned_for_code_that_works_them_by_blocks)
{
	static const char src[] =
		"union buf { unsigned char u8[40]; unsigned long u64[5]; };\n"
		"static union buf small_block;\n"
		"static union buf in_buf[2];\n"
		"static char word[12];\n"
		"static char name[16];\n"
		"static char big[1000] __attribute__((aligned(128)));\n"
		"__attribute__((section(\"mantis_set\"))) char entry[40];\n"
		"int main(void)\n"
		"{\n"
		"\treturn small_block.u8[0] + in_buf[1].u8[3] + word[1] + name[2] + big[3] + entry[4];\n"
		"}\n";
	static const struct { const char *name; unsigned align; } want[] = {
		{"small_block", 32}, {"in_buf", 64}, {"word", 1}, {"name", 16}, {"big", 128},
		{"entry", 16},
	};
	struct prog p;

	prog_build(&p, "align.c", src);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		LLVMValueRef g = LLVMGetNamedGlobal(p.ir.mod, want[i].name);

		ck_assert_msg(g != NULL, "no global %s", want[i].name);
		ck_assert_msg(LLVMGetAlignment(g) == want[i].align, "%s: align %u, want %u",
			      want[i].name, LLVMGetAlignment(g), want[i].align);
	}
	prog_release(&p);
}
END_TEST

START_TEST(constants_null_strings_and_globals)
{
	struct prog p;
	LLVMValueRef load;
	LLVMTypeRef i8p;
	const int *locs;
	char *got;

	prog_build(&p, "consts.c",
		   "int g;\n"
		   "int *gp = &g;\n"
		   "void sink1(const void *p) {}\n"
		   "int main(void) { sink1(\"abc\"); sink1(\"def\"); return *gp; }\n");
	i8p = LLVMPointerType(LLVMInt8TypeInContext(p.ir.ctx), 0);
	ck_assert_int_eq(pta_points_to(&p.pta, LLVMConstNull(i8p), &locs), 0);
	ck_assert_int_eq(pta_points_to(&p.pta, LLVMGetUndef(i8p), &locs), 0);
	got = targets_of(&p, LLVMGetNamedGlobal(p.ir.mod, "gp"));
	ck_assert_str_eq(got, "@gp");
	free(got);
	got = targets_of(&p, LLVMGetOperand(find_call(&p, "main", "sink1"), 0));
	ck_assert_str_eq(got, "constants"); /* string literals are one read-only object */
	free(got);
	expect_targets(&p, "sink1", "constants");
	load = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(function(&p, "main")));
	while (load && !LLVMIsALoadInst(load))
		load = LLVMGetNextInstruction(load);
	ck_assert_ptr_nonnull(load);
	got = targets_of(&p, load);
	ck_assert_str_eq(got, "@g"); /* the load of gp */
	free(got);
	prog_release(&p);
}
END_TEST

START_TEST(extmodel_finds_functions_and_intrinsics)
{
	static const char *known[] = {"_Exit", "__assert_fail", "__isoc99_sscanf", "abort", "calloc",
				      "exit", "fgets", "fopen", "free", "isalpha", "llvm.dbg.value",
				      "llvm.fabs.f64", "llvm.lifetime.start.p0i8", "llvm.memset.p0i8.i64",
				      "llvm.smax.i32", "llvm.trap", "llvm.va_start", "longjmp", "malloc",
				      "memcmp", "pow", "printf", "pthread_create", "qsort", "rand",
				      "realloc", "setjmp", "sqrt", "srand", "strchr", "strcpy", "strtol",
				      "time", "vfprintf", "write"};
	const struct extfn *m;

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		ck_assert_msg(extmodel_find(known[i]) != NULL, "%s not found", known[i]);
	ck_assert_ptr_null(extmodel_find("no_such_function"));
	ck_assert_ptr_null(extmodel_find("llvm.no.such.intrinsic.i32"));
	ck_assert_ptr_null(extmodel_find("mallocx"));
	m = extmodel_find("llvm.memcpy.p0i8.p0i8.i64");
	ck_assert_str_eq(m->name, "llvm.memcpy");
	ck_assert_int_eq(m->copies, 1);
	ck_assert_int_eq(m->size_arg, 2);
	ck_assert_int_eq(extmodel_find("malloc")->flags & EXT_ALLOC, EXT_ALLOC);
	ck_assert_int_eq(extmodel_find("exit")->flags, EXT_NORETURN | EXT_EXIT);
	ck_assert_int_eq(extmodel_find("longjmp")->flags, EXT_NORETURN);
	ck_assert_int_eq(extmodel_find("rand")->stream, EXT_RAND);
	ck_assert_int_eq(extmodel_find("srand")->stream, EXT_RAND);
	ck_assert_int_eq(extmodel_find("getchar")->stream, EXT_STDIN);
	ck_assert_int_eq(extmodel_find("puts")->stream, EXT_STDOUT);
	ck_assert_int_eq(extmodel_find("qsort")->callback, 3);
	m = extmodel_find("printf");
	ck_assert_int_eq(extmodel_arg(m, 0), 'r');
	ck_assert_int_eq(extmodel_arg(m, 7), 'r');
	m = extmodel_find("scanf");
	ck_assert_int_eq(extmodel_arg(m, 0), 'r');
	ck_assert_int_eq(extmodel_arg(m, 5), 'w');
	m = extmodel_find("memset");
	ck_assert_int_eq(extmodel_arg(m, 0), 'w');
	ck_assert_int_eq(extmodel_arg(m, 1), '-');
	ck_assert_int_eq(extmodel_arg(m, 9), '-');
}
END_TEST

Suite *suite_pta(void)
{
	Suite *s = suite_create("pta");
	TCase *tc = tcase_create("points-to");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, addresses_of_different_locals_are_distinct);
	tcase_add_test(tc, struct_fields_are_distinct_locations);
	tcase_add_test(tc, array_elements_are_merged);
	tcase_add_test(tc, linked_list_nodes_reach_their_allocation_site);
	tcase_add_test(tc, function_pointer_table_resolves_indirect_calls);
	tcase_add_test(tc, calls_through_dlsym_may_call_unknown_code);
	tcase_add_test(tc, argv_is_data_not_code);
	tcase_add_test(tc, indirect_calls_need_fitting_parameter_kinds);
	tcase_add_test(tc, qsort_comparator_gets_pointers_into_the_array);
	tcase_add_test(tc, memcpy_copies_the_pointers_of_a_struct);
	tcase_add_test(tc, realloc_keeps_the_pointers_it_copies);
	tcase_add_test(tc, unknown_function_writes_the_unknown_object);
	tcase_add_test(tc, sscanf_writes_its_output_arguments);
	tcase_add_test(tc, fopen_returns_a_heap_stream_distinct_from_stdin);
	tcase_add_test(tc, inttoptr_collapses_the_objects_it_may_reach);
	tcase_add_test(tc, allocation_wrappers_make_an_object_per_call_site);
	tcase_add_test(tc, an_allocator_called_through_a_pointer_allocates_per_call_site);
	tcase_add_test(tc, wrapper_results_past_a_header_and_nested_wrappers);
	tcase_add_test(tc, a_bump_allocator_hands_each_call_site_its_own_object);
	tcase_add_test(tc, a_sibling_structs_fields_are_not_anothers);
	tcase_add_test(tc, a_wrappers_other_fresh_objects_are_its_runs_own);
	tcase_add_test(tc, a_pointer_field_indexed_is_an_array_of_one);
	tcase_add_test(tc, integer_constants_as_pointers_point_nowhere);
	tcase_add_test(tc, addresses_through_integers_reach_only_their_inttoptr);
	tcase_add_test(tc, integers_the_trace_cannot_follow_may_hold_any_address);
	tcase_add_test(tc, variable_byte_offsets_collapse_a_struct);
	tcase_add_test(tc, variadic_arguments_reach_va_arg);
	tcase_add_test(tc, library_results_point_into_their_arguments);
	tcase_add_test(tc, constants_null_strings_and_globals);
	tcase_add_test(tc, large_globals_are_aligned_for_code_that_works_them_by_blocks);
	tcase_add_test(tc, extmodel_finds_functions_and_intrinsics);
	suite_add_tcase(s, tc);
	return s;
}
