/*
 * members.c: the names of a module's struct members, from its debug information (members.h).
 *
 * Algorithm. A walk of the debug types reachable from the module's variables (the
 * DILocalVariables llvm.dbg.value and llvm.dbg.declare name, the globals' DIGlobalVariables):
 * a derived type (pointer, typedef, qualifier, member) leads to its base type (operand 3), a
 * composite (struct, union, array, enum) to its base type and to its elements (operand 4),
 * each node visited once. Every struct with elements is kept under its tag, or, where it has
 * none, under the name of a typedef of it (clang names such a type "struct.TYPEDEF"); two
 * different member lists under one tag (a static struct of two translation units) make the
 * tag's names unusable. A field of the IR type "struct.TAG[.N]" at index i is then the i-th
 * member of TAG's list, which holds while no member is a bit-field (clang packs bit-fields into
 * shared fields) and the counts agree (clang adds no padding fields to a struct that is not
 * packed): otherwise the field is named by its index.
 * Invariant: the table is a function of the module's debug information alone, so the
 * instrumented build and the slicer's instrumentation name every field alike.
 */
#include "members.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One struct's members, under one tag. */
struct record {
	char *tag;               /* the struct's tag, or its typedef's name; owned */
	char **member;           /* the members' names in order ("" when unnamed); owned */
	LLVMMetadataRef *type;   /* the members' debug types (NULL when unknown); owned */
	int n;                   /* the number of members */
	int usable;              /* 0: a bit-field, or two different lists under the tag */
};

struct members {
	LLVMContextRef ctx;      /* the module's context, to see metadata as values */
	struct record *rec;      /* the structs, sorted by tag once read; owned */
	int n, cap;              /* used and allocated records */
	struct ptrmap seen;      /* debug nodes visited */
	struct ptrmap named;     /* anonymous structs kept under a typedef's name */
};

/* Returns node md's operands as values (NULL for an empty operand), *n of them; owned by the
 * caller. */
static LLVMValueRef *operands(const struct members *t, LLVMMetadataRef md, unsigned *n)
{
	LLVMValueRef v = LLVMMetadataAsValue(t->ctx, md), *ops;

	*n = LLVMGetMDNodeNumOperands(v);
	ops = xcalloc((size_t)*n + 1, sizeof *ops);
	LLVMGetMDNodeOperands(v, ops);
	return ops;
}

/* Returns operand i of node md as metadata, or NULL. */
static LLVMMetadataRef operand(const struct members *t, LLVMMetadataRef md, unsigned i)
{
	unsigned n;
	LLVMValueRef *ops = operands(t, md, &n);
	LLVMMetadataRef op = i < n && ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;

	free(ops);
	return op;
}

/* Returns whether debug node md is of kind k. */
static int is_kind(LLVMMetadataRef md, LLVMMetadataKind k)
{
	return md && LLVMGetMetadataKind(md) == k;
}

/* Returns a debug type's name, or NULL when it has none. The name is LLVM's. */
static const char *type_name(LLVMMetadataRef md)
{
	size_t len;
	const char *name = LLVMDITypeGetName(md, &len);

	return name && len > 0 ? name : NULL;
}

/* Returns whether the derived type md is a typedef. */
static int is_typedef(const struct members *t, LLVMMetadataRef md)
{
	char *text = LLVMPrintValueToString(LLVMMetadataAsValue(t->ctx, md));
	int yes = strstr(text, "DW_TAG_typedef") != NULL;

	LLVMDisposeMessage(text);
	return yes;
}

/* Keeps the struct composite under tag: its members' names and types. */
static void keep_struct(struct members *t, const char *tag, LLVMMetadataRef composite)
{
	LLVMMetadataRef elements = operand(t, composite, 4);
	LLVMValueRef *ops;
	unsigned n;
	struct record r = {0};

	if (!elements)
		return;
	ops = operands(t, elements, &n);
	r.tag = xstrdup(tag);
	r.member = xcalloc((size_t)n + 1, sizeof *r.member);
	r.type = xcalloc((size_t)n + 1, sizeof *r.type);
	r.usable = 1;
	for (unsigned i = 0; i < n; i++) {
		LLVMMetadataRef m = ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;
		const char *name = is_kind(m, LLVMDIDerivedTypeMetadataKind) ? type_name(m) : NULL;

		if (!is_kind(m, LLVMDIDerivedTypeMetadataKind) ||
		    (LLVMDITypeGetFlags(m) & LLVMDIFlagBitField))
			r.usable = 0;
		r.member[r.n] = xstrdup(name ? name : "");
		r.type[r.n++] = m ? operand(t, m, 3) : NULL;
	}
	free(ops);
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->rec = xrealloc(t->rec, sizeof *t->rec * (size_t)t->cap);
	}
	t->rec[t->n++] = r;
}

static void visit(struct members *t, LLVMMetadataRef md);

/* Visits the elements of composite md (members, or an array's subranges and enumerators). */
static void visit_elements(struct members *t, LLVMMetadataRef md)
{
	LLVMMetadataRef elements = operand(t, md, 4);
	LLVMValueRef *ops;
	unsigned n;

	if (!elements)
		return;
	ops = operands(t, elements, &n);
	for (unsigned i = 0; i < n; i++) {
		if (ops[i])
			visit(t, LLVMValueAsMetadata(ops[i]));
	}
	free(ops);
}

/* Visits debug type md once. A typedef of an anonymous struct names it: its members are kept
 * under the typedef's name, once. */
static void visit(struct members *t, LLVMMetadataRef md)
{
	if (!md || ptrmap_get(&t->seen, md) >= 0)
		return;
	ptrmap_put(&t->seen, md, 1);
	if (is_kind(md, LLVMDIDerivedTypeMetadataKind)) {
		LLVMMetadataRef base = operand(t, md, 3);

		if (type_name(md) && is_kind(base, LLVMDICompositeTypeMetadataKind) &&
		    !type_name(base) && ptrmap_get(&t->named, base) < 0 && is_typedef(t, md)) {
			ptrmap_put(&t->named, base, 1);
			keep_struct(t, type_name(md), base);
		}
		visit(t, base);
	} else if (is_kind(md, LLVMDICompositeTypeMetadataKind)) {
		if (type_name(md))
			keep_struct(t, type_name(md), md);
		visit(t, operand(t, md, 3));
		visit_elements(t, md);
	}
}

/* Visits the type of the variable (a DILocalVariable or DIGlobalVariable) md. */
static void visit_variable(struct members *t, LLVMMetadataRef md)
{
	if (md)
		visit(t, operand(t, md, 3));
}

/* Visits the variables fn's llvm.dbg.value and llvm.dbg.declare calls name. */
static void visit_function(struct members *t, LLVMValueRef fn)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef x = LLVMGetFirstInstruction(b); x; x = LLVMGetNextInstruction(x)) {
			LLVMValueRef callee;
			size_t len;
			const char *name;

			if (!LLVMIsACallInst(x) || !LLVMIsAFunction(callee = LLVMGetCalledValue(x)))
				continue;
			name = LLVMGetValueName2(callee, &len);
			if ((strcmp(name, "llvm.dbg.value") == 0 || strcmp(name, "llvm.dbg.declare") == 0) &&
			    LLVMGetNumArgOperands(x) >= 2)
				visit_variable(t, LLVMValueAsMetadata(LLVMGetOperand(x, 1)));
		}
	}
}

/* Visits global g's variables (its !dbg attachments). */
static void visit_global(struct members *t, LLVMValueRef g)
{
	unsigned dbg = LLVMGetMDKindIDInContext(t->ctx, "dbg", 3);
	size_t n;
	LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(g, &n);

	for (unsigned i = 0; i < n; i++) {
		if (LLVMValueMetadataEntriesGetKind(md, i) == dbg)
			visit_variable(t, LLVMDIGlobalVariableExpressionGetVariable(
						  LLVMValueMetadataEntriesGetMetadata(md, i)));
	}
	if (md)
		LLVMDisposeValueMetadataEntries(md);
}

static int by_tag(const void *a, const void *b)
{
	return strcmp(((const struct record *)a)->tag, ((const struct record *)b)->tag);
}

/* Returns whether records a and b list the same members. */
static int same_members(const struct record *a, const struct record *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++) {
		if (strcmp(a->member[i], b->member[i]) != 0)
			return 0;
	}
	return 1;
}

static void record_release(struct record *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->member[i]);
	free(r->member);
	free(r->type);
	free(r->tag);
}

/* Sorts the records by tag and merges those of one tag into one (unusable when they differ). */
static void merge_tags(struct members *t)
{
	int kept = 0;

	qsort(t->rec, (size_t)t->n, sizeof *t->rec, by_tag);
	for (int i = 0; i < t->n; i++) {
		if (kept > 0 && strcmp(t->rec[kept - 1].tag, t->rec[i].tag) == 0) {
			if (!same_members(&t->rec[kept - 1], &t->rec[i]) || !t->rec[i].usable)
				t->rec[kept - 1].usable = 0;
			record_release(&t->rec[i]);
		} else {
			t->rec[kept++] = t->rec[i];
		}
	}
	t->n = kept;
}

struct members *members_read(LLVMModuleRef mod)
{
	struct members *t = xcalloc(1, sizeof *t);

	t->ctx = LLVMGetModuleContext(mod);
	for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
		visit_function(t, fn);
	for (LLVMValueRef g = LLVMGetFirstGlobal(mod); g; g = LLVMGetNextGlobal(g))
		visit_global(t, g);
	merge_tags(t);
	ptrmap_release(&t->seen);
	ptrmap_release(&t->named);
	return t;
}

char *members_name(const struct members *t, LLVMTypeRef st, unsigned index,
		   LLVMMetadataRef *type)
{
	const char *ir_name = LLVMGetStructName(st), *end;
	struct record key = {0}, *r;
	char *tag, *name;

	*type = NULL;
	if (!ir_name || strncmp(ir_name, "struct.", 7) != 0)
		return NULL;
	end = strchr(ir_name + 7, '.');
	tag = end ? xasprintf("%.*s", (int)(end - ir_name - 7), ir_name + 7) : xstrdup(ir_name + 7);
	key.tag = tag;
	r = t->n > 0 ? bsearch(&key, t->rec, (size_t)t->n, sizeof *t->rec, by_tag) : NULL;
	if (r && r->usable && r->n == (int)LLVMCountStructElementTypes(st) && (int)index < r->n &&
	    r->member[index][0]) {
		name = xasprintf("%s.%s", tag, r->member[index]);
		*type = r->type[index];
	} else {
		name = xasprintf("%s.%u", tag, index);
	}
	free(tag);
	return name;
}

void members_free(struct members *t)
{
	if (!t)
		return;
	for (int i = 0; i < t->n; i++)
		record_release(&t->rec[i]);
	free(t->rec);
	free(t);
}
