/*
 * pta.c: field-sensitive, inclusion-based (Andersen) points-to analysis of a whole module.
 *
 * Algorithm. L. O. Andersen, "Program Analysis and Specialization for the C Programming
 * Language" (PhD thesis, DIKU, 1994): every pointer-valued SSA value is a node with a
 * points-to set; statements become inclusion constraints (p ⊇ {o}, p ⊇ q, p ⊇ *q, *p ⊇ q),
 * solved to the least fixpoint. Field sensitivity follows D. J. Pearce, P. H. J. Kelly and
 * C. Hankin, "Efficient field-sensitive pointer analysis for C" (TOPLAS 30(1), 2007): a field
 * of an object is a node of its own and p ⊇ q + k shifts each pointee of q to the field k bytes
 * further. Fields are not fixed per type here but made on demand as cells (object, canonical
 * byte offset), since heap objects and casts have no single type; at the end every object's
 * cells, sorted by offset, become its locations. The solver is a FIFO worklist with difference
 * propagation (a node passes on only what it gained since it was last processed) and lazy
 * cycle detection (B. Hardekopf, C. Lin, "The Ant and the Grasshopper", PLDI 2007): when an
 * edge p -> q leaves pts(q) == pts(p), search once for a cycle through q, among the nodes
 * whose set is that same set, and merge it. Sets are sorted int arrays shared by hash-consing
 * (as in M. Barbar, Y. Sui, "Compacting Points-To Sets through Object Clustering", OOPSLA 2021,
 * and their persistent sets): equal sets are one copy, equality is an id compare, unions and
 * differences are memoized, and unreferenced versions are collected when the store doubles.
 *
 * Canonical offsets. A typed object (global, alloca, a heap object whose allocation is cast to
 * one type) maps a byte offset x to x modulo its type's size, then into the first element of
 * every array around it: a[i].y is one cell for every i, and byte arithmetic ((char *)s + 8)
 * finds the field at that offset. A variable index steps by multiples of its element size: the
 * offset stays when some array around it has elements whose size divides the step, else the
 * object collapses (one cell at 0). An untyped object (a heap object cast to no type or to
 * several, e.g. from an allocation wrapper) keeps raw offsets; a step of the first GEP index
 * sets its period (the gcd of such element sizes; cells merge modulo it), array indices after
 * the first count as 0, and byte arithmetic collapses it. So do offsets outside its size.
 * A pointer to a pointer field that is no array element (libjpeg's &dest->pixrow, handed out
 * as an array of one row) stays at that field when stepped by its size, by a constant
 * (*rows++) or a variable (rows[i]): a correct program dereferences it at index 0 only, and
 * the walk would otherwise reach every field of the struct, or collapse it (one_pointer).
 *
 * What becomes a constraint:
 * - alloca, globals and functions are objects (read-only globals without pointers, such as
 *   string literals, are one object "constants"); a global's initializer stores its pointers
 *   in its cells (tables of function pointers included); heap objects are one per allocating call
 *   site (extmodel's EXT_ALLOC, fopen's FILE too); pseudo objects: one per stream, the unknown
 *   object, argv (main's argv and envp, strings included), each variadic function's argument
 *   area, and each library function's static object (strerror's buffer).
 * - allocation wrappers (find_wrapper): a defined function whose every return value is, through
 *   casts, GEPs, phis and selects, null or the result of an allocating call it makes (EXT_ALLOC,
 *   or another wrapper: xmalloc, a constructor, bzip2's default_bzalloc). Each call site of a
 *   wrapper, direct or through a pointer, is an allocation site of its own, "xmalloc at a.c:7",
 *   typed by that site's casts (untyped if the wrapper returns a pointer past the start or
 *   casts the memory to another type): inside the wrapper the allocating call points to every
 *   site's object (and to its own, for unknown callers), and the call site's result gets only
 *   the part of the wrapper's return set that is its own object (C_FILTER). Sound because a
 *   run of the wrapper returns what that same run allocated, through SSA values only.
 * - bump allocators (find_pool: libjpeg's alloc_small, an arena's alloc): a defined function
 *   that returns a piece of a block, at a variable offset (the bump), the block one it loads
 *   (kept from an earlier call) or allocates, that stores a size computed from its parameters
 *   (the count of bytes used) and never reads, writes or keeps the piece. Each call site's
 *   result is an object of its own, typed by the site's casts, and nothing else: the pieces
 *   of two calls never overlap, and the function's own loads and stores reach its blocks'
 *   headers only. Without it every piece is the one block, at byte offsets: libjpeg's method
 *   tables, source buffer and state structs were one collapsed object, and every indirect
 *   call through them could call every method.
 * - a wrapper's other fresh objects (find_run_stores: libjpeg's alloc_sarray, which returns a
 *   table and allocates the rows it fills it with): a store in a wrapper of a pointer that
 *   comes, through SSA values only, from the wrapper's allocating calls that are not its
 *   leaves, through a pointer that comes from its leaves only, stores in a run of the wrapper
 *   that run's fresh row into the object that run returns. Each object a wrapper's run returns
 *   (a call site's, or one a wrapper of it makes) gets its own object of each such inner call,
 *   "alloc_large at jmemmgr.c:472 for alloc_sarray at jdmainct.c:455", the call points to it
 *   too, and the store (C_RUNSTORE) passes into an object only the rows of the run that made
 *   it (C_RUN: the object's run, from the map runs; the objects of the wrapper's own sites
 *   belong to the runs of unknown callers). Any other use of the rows sees every run's.
 (a GEP whose first index is 0) at the start of an
 *   object typed T, where S and T are siblings (sibling_field: different structs whose first
 *   field is one base struct, as libjpeg's writers all begin with struct djpeg_dest_struct)
 *   and the field lies past the base, reaches nothing in that object: a correct program takes
 *   S's own fields only of an S. The objects a base pointer may reach are merged by the
 *   analysis (djpeg's dest_mgr is any writer), and the gif writer's packet[i] collapsed the
 *   BMP writer's struct.
 * - load/store of pointers and of aggregates holding them (one constraint per pointer field),
 *   GEP (constant and variable indices, also in constant expressions), casts, phi, select,
 *   freeze, extract/insertvalue and vector element operations (an aggregate value is one node
 *   holding all its pointers), cmpxchg and atomicrmw, va_arg.
 * - ptrtoint/inttoptr (gen_int_sources): each inttoptr's integer is traced back through integer
 *   operations, phis, selects, calls' arguments and returns (an indirect call's: every
 *   address-taken function's) to ptrtoints and loads; every integer on the way gets a node of
 *   the pointers its bits may hold: a ptrtoint's pointer, a pointer-sized load's memory (a
 *   pointer stored as a pointer and read back as an integer), its operands'. The inttoptr
 *   points to its integer's node, and arithmetic on the way collapses the objects in it, so a
 *   plain round trip ((T *)(uintptr_t)p) keeps p's field. If some inttoptr reads memory that
 *   way, every store of a pointer-sized integer (and every constant initializer holding a
 *   ptrtoint) puts its value's pointers in its memory too. An integer the trace cannot follow
 *   (an aggregate's or vector's field, va_arg, a cast from a non-integer) may hold any address
 *   the program turns into an integer, and those objects collapse. Integers narrower than a
 *   pointer hold none; a constant integer (SQLITE_TRANSIENT's -1, SIG_IGN) points to no
 *   object, since no object's address is known before the program runs.
 * - calls: arguments flow to parameters and the return to the call; indirect calls are wired
 *   as their callee's set grows, to functions with a fitting parameter count (or variadic)
 *   whose parameters are passed as the call passes its arguments (pointers as pointers,
 *   integers of one width, one floating-point kind: calling a function through a pointer of
 *   another type is undefined, and a type C allows to differ, such as void * for struct s *,
 *   is passed alike), and act as unknown calls if the callee may be in the unknown object
 *   (dlsym's results; argv, made outside the program too, holds strings, not code).
 *   Arguments in a variadic function's "..." flow into its argument area; llvm.va_start
 *   collapses the va_list and points it at that area, so va_arg's loads reach every pointer any
 *   caller passed there.
 * - library calls follow extmodel.h: fresh heap objects, results into arguments (anywhere
 *   inside for strchr/bsearch: a variable step), saved results (strtok), static objects,
 *   copies (memcpy, realloc: every cell of the source range into the matching destination
 *   cell), callbacks (qsort's comparator gets pointers into the array, pthread_create's
 *   routine its argument), stored pointers (strtol's endptr, getline's buffer).
 * - unknown code: one node X (the world) holds the unknown object, every declared external
 *   global except stdin/stdout/stderr (which point to the stream objects), and every argument
 *   of an unknown call; every cell of an object in X includes X and is included in X (so X is
 *   closed under reachability), functions in X get X in their parameters and return into it,
 *   and unknown calls return X. LLVM intrinsics missing from the table are pure: their result
 *   points to what their pointer arguments do.
 *
 * Invariant: at the fixpoint, for every constraint and every cell in its pointer's set the
 * implied inclusion holds, and every cell is its object's canonical form of each byte offset it
 * stands for. Queries read only the final per-value and per-location sets (precomputed, and
 * shared like the solver's); access and reachability results are memoized per set.
 *
 * Unsound by choice (rare in C): consecutive pointer fields of a struct walked as an array
 * through a pointer to the first (undefined in C; one_pointer); an untyped heap object viewed
 * through differently shaped structs (an array in one view where the other has fields);
 * accesses that start inside an element of an array nested in a struct and run past that
 * element's end into the next one (they are widened to the array's element, not to the whole
 * array's bytes); pointers that reach integers through memory type punning without ptrtoint
 * (stored as a pointer, loaded as a narrower integer, or split into narrower integers and put
 * together again), or copied as integers through library calls or unknown code; an address
 * stored as an integer and read back as a pointer (a union) when no inttoptr reads memory;
 * pointers written by printf's %n or read by scanf's %p; pthread_join's result. Heap objects
 * are per call site of the allocator, of an allocation wrapper or of a bump allocator, so
 * memory an allocator hands out again from a free list (sqlite's lookaside buffers) is one
 * object, and so is what a function allocates and keeps in an object it does not return
 * (libjpeg's realize_virt_arrays: the rows of every virtual array).
 */
#include "pta.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "extmodel.h"
#include "util.h"

/* Largest raw offset an untyped object keeps before it collapses. */
#define UNTYPED_LIMIT (1u << 16)
/* Most pointer fields one aggregate load or store is split into (later ones are left out; in
 * a typed object an array's elements merge anyway). */
#define MAX_AGG_PTRS 1024

/* ---- a map from 64-bit keys to ints --------------------------------------------------- */

/* Open addressing with linear probing; UINT64_MAX marks a free slot; doubles at half load. */
struct u64map {
	uint64_t *key; /* slots' keys; owned */
	int *val;      /* slots' values; owned */
	size_t cap;    /* slots, a power of two or 0 */
	size_t n;      /* keys present */
};

/* Returns k's home slot in a table of cap slots (a power of two). */
static size_t u64_slot(uint64_t k, size_t cap)
{
	k ^= k >> 29;
	k *= 0x9e3779b97f4a7c15ull;
	return (size_t)(k >> 20) & (cap - 1);
}

/* Returns the slot of k, or of the free slot where it would go. */
static size_t u64map_find(const struct u64map *m, uint64_t k)
{
	size_t h = u64_slot(k, m->cap);

	while (m->key[h] != UINT64_MAX && m->key[h] != k)
		h = (h + 1) & (m->cap - 1);
	return h;
}

/* Doubles m's table (or makes its first one), reinserting every key. */
static void u64map_grow(struct u64map *m)
{
	struct u64map old = *m;

	m->cap = old.cap ? 2 * old.cap : 256;
	m->key = xmalloc(sizeof *m->key * m->cap);
	m->val = xmalloc(sizeof *m->val * m->cap);
	memset(m->key, 0xff, sizeof *m->key * m->cap);
	for (size_t i = 0; i < old.cap; i++) {
		if (old.key[i] != UINT64_MAX) {
			size_t h = u64map_find(m, old.key[i]);

			m->key[h] = old.key[i];
			m->val[h] = old.val[i];
		}
	}
	free(old.key);
	free(old.val);
}

/* Returns k's value, or -1. */
static int u64map_get(const struct u64map *m, uint64_t k)
{
	size_t h;

	if (!m->cap)
		return -1;
	h = u64map_find(m, k);
	return m->key[h] == k ? m->val[h] : -1;
}

/* Sets k's value (k != UINT64_MAX). */
static void u64map_put(struct u64map *m, uint64_t k, int v)
{
	size_t h;

	if (2 * (m->n + 1) > m->cap)
		u64map_grow(m);
	h = u64map_find(m, k);
	if (m->key[h] != k)
		m->n++;
	m->key[h] = k;
	m->val[h] = v;
}

/* Adds k as a set member; returns 1 if it was new, 0 if present. */
static int u64map_add(struct u64map *m, uint64_t k)
{
	if (u64map_get(m, k) >= 0)
		return 0;
	u64map_put(m, k, 0);
	return 1;
}

/* Frees m's table and empties it. */
static void u64map_release(struct u64map *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof *m);
}

/* Returns the key of the pair (a, b) of non-negative ints. */
static uint64_t pair_key(int a, int b)
{
	return (uint64_t)(uint32_t)a << 32 | (uint32_t)b;
}

/* Returns array p (of *cap elements of size bytes) with room for n + 1, doubling *cap. */
static void *grow_array(void *p, int n, int *cap, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 256;
	return xrealloc(p, size * (size_t)*cap);
}

/* Returns v's name ("" if it has none), owned by LLVM. */
static const char *name_of(LLVMValueRef v)
{
	size_t len;
	const char *name = LLVMGetValueName2(v, &len);

	return name ? name : "";
}

/* ---- hash-consed sorted sets ---------------------------------------------------------- */

/*
 * Immutable sorted sets of non-negative ints, each stored once and named by its id; set 0 is
 * the empty set. Operations return ids and are memoized.
 */
struct sets {
	int *elem;          /* every set's elements, back to back; owned */
	size_t nelem;       /* elements used */
	size_t capelem;     /* elements allocated */
	size_t *start;      /* set k's first element in elem; owned */
	int *len;           /* set k's size; owned */
	uint32_t *hash;     /* set k's content hash; owned */
	int n;              /* sets */
	int cap;            /* sets allocated */
	int *slot;          /* table of set ids by content hash, -1 free; owned */
	size_t nslot;       /* slots, a power of two */
	struct u64map memo; /* (operation, a, b) -> result */
	struct intvec tmp;  /* scratch for building a set */
};

enum { OP_UNION, OP_DIFF, OP_INTER };

/* Returns the FNV-1a hash of v[0..n). */
static uint32_t hash_ints(const int *v, int n)
{
	uint32_t h = 2166136261u ^ (uint32_t)n;

	for (int i = 0; i < n; i++)
		h = (h ^ (uint32_t)v[i]) * 16777619u;
	return h;
}

/* Rebuilds the content hash table with nslot slots (a power of two). */
static void sets_rehash(struct sets *s, size_t nslot)
{
	free(s->slot);
	s->nslot = nslot;
	s->slot = xmalloc(sizeof *s->slot * nslot);
	memset(s->slot, 0xff, sizeof *s->slot * nslot);
	for (int k = 1; k < s->n; k++) {
		size_t h = s->hash[k] & (nslot - 1);

		while (s->slot[h] >= 0)
			h = (h + 1) & (nslot - 1);
		s->slot[h] = k;
	}
}

/* Makes s a store holding only the empty set. */
static void sets_init(struct sets *s)
{
	memset(s, 0, sizeof *s);
	s->cap = 1024;
	s->start = xmalloc(sizeof *s->start * (size_t)s->cap);
	s->len = xmalloc(sizeof *s->len * (size_t)s->cap);
	s->hash = xmalloc(sizeof *s->hash * (size_t)s->cap);
	s->start[0] = 0;
	s->len[0] = 0;
	s->hash[0] = 0;
	s->n = 1;
	s->capelem = 1024;
	s->elem = xmalloc(sizeof *s->elem * s->capelem);
	sets_rehash(s, 2048);
}

/* Frees what s owns. */
static void sets_release(struct sets *s)
{
	free(s->elem);
	free(s->start);
	free(s->len);
	free(s->hash);
	free(s->slot);
	u64map_release(&s->memo);
	intvec_release(&s->tmp);
	memset(s, 0, sizeof *s);
}

/* Returns set k's elements (len[k] of them), good until the next set is made. */
static const int *set_elems(const struct sets *s, int k)
{
	return s->elem + s->start[k];
}

/* Returns the id of the set v[0..n) (sorted, no duplicates; not inside s->elem). */
static int sets_intern(struct sets *s, const int *v, int n)
{
	uint32_t h;
	size_t i;
	int k;

	if (!n)
		return 0;
	h = hash_ints(v, n);
	for (i = h & (s->nslot - 1); (k = s->slot[i]) >= 0; i = (i + 1) & (s->nslot - 1)) {
		if (s->hash[k] == h && s->len[k] == n &&
		    memcmp(set_elems(s, k), v, sizeof *v * (size_t)n) == 0)
			return k;
	}
	if (s->nelem + (size_t)n > s->capelem) {
		s->capelem = 2 * (s->nelem + (size_t)n) + 1024;
		s->elem = xrealloc(s->elem, sizeof *s->elem * s->capelem);
	}
	if (s->n == s->cap) {
		s->cap *= 2;
		s->start = xrealloc(s->start, sizeof *s->start * (size_t)s->cap);
		s->len = xrealloc(s->len, sizeof *s->len * (size_t)s->cap);
		s->hash = xrealloc(s->hash, sizeof *s->hash * (size_t)s->cap);
	}
	k = s->n++;
	memcpy(s->elem + s->nelem, v, sizeof *v * (size_t)n);
	s->start[k] = s->nelem;
	s->len[k] = n;
	s->hash[k] = h;
	s->nelem += (size_t)n;
	s->slot[i] = k;
	if (2 * (size_t)s->n > s->nslot)
		sets_rehash(s, 2 * s->nslot);
	return k;
}

/* Makes room for n elements in the scratch vector and empties it. */
static int *scratch(struct sets *s, int n)
{
	if (s->tmp.cap < n) {
		s->tmp.cap = n + 16;
		s->tmp.v = xrealloc(s->tmp.v, sizeof *s->tmp.v * (size_t)s->tmp.cap);
	}
	s->tmp.n = 0;
	return s->tmp.v;
}

/* Computes a op b into the scratch vector; returns its size. */
static int sets_merge(struct sets *s, int op, int a, int b)
{
	int na = s->len[a], nb = s->len[b], i = 0, j = 0, n = 0;
	int *out = scratch(s, na + nb);
	const int *x = set_elems(s, a), *y = set_elems(s, b);

	while (i < na && j < nb) {
		if (x[i] < y[j]) {
			if (op != OP_INTER)
				out[n++] = x[i];
			i++;
		} else if (x[i] > y[j]) {
			if (op == OP_UNION)
				out[n++] = y[j];
			j++;
		} else {
			if (op != OP_DIFF)
				out[n++] = x[i];
			i++;
			j++;
		}
	}
	for (; op != OP_INTER && i < na; i++)
		out[n++] = x[i];
	for (; op == OP_UNION && j < nb; j++)
		out[n++] = y[j];
	return n;
}

/* Returns the id of a op b, memoized. */
static int sets_op(struct sets *s, int op, int a, int b)
{
	uint64_t key = (uint64_t)(uint32_t)a << 33 | (uint64_t)(uint32_t)b << 2 | (uint64_t)op;
	int r = u64map_get(&s->memo, key), n;

	if (r >= 0)
		return r;
	n = sets_merge(s, op, a, b);
	r = sets_intern(s, s->tmp.v, n);
	u64map_put(&s->memo, key, r);
	return r;
}

/* Returns a union b. */
static int sets_union(struct sets *s, int a, int b)
{
	if (a == b || !b)
		return a;
	if (!a)
		return b;
	return a < b ? sets_op(s, OP_UNION, a, b) : sets_op(s, OP_UNION, b, a);
}

/* Returns a minus b. */
static int sets_diff(struct sets *s, int a, int b)
{
	if (a == b || !a)
		return 0;
	return b ? sets_op(s, OP_DIFF, a, b) : a;
}

/* Returns a intersected with b. */
static int sets_inter(struct sets *s, int a, int b)
{
	if (a == b)
		return a;
	if (!a || !b)
		return 0;
	return a < b ? sets_op(s, OP_INTER, a, b) : sets_op(s, OP_INTER, b, a);
}

/* Returns the id of {x}. */
static int sets_single(struct sets *s, int x)
{
	int *v = scratch(s, 1);

	v[0] = x;
	return sets_intern(s, v, 1);
}

/* qsort order of ints. */
static int compare_ints(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Returns the id of the set of v[0..n) (any order, duplicates allowed; v is reordered). */
static int sets_of(struct sets *s, int *v, int n)
{
	int m = 0, sorted = 1;

	for (int i = 1; i < n && sorted; i++)
		sorted = v[i - 1] <= v[i];
	if (!sorted)
		qsort(v, (size_t)n, sizeof *v, compare_ints);
	for (int i = 0; i < n; i++) {
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	}
	return sets_intern(s, v, m);
}

/*
 * Drops every set but those live[k] != 0 marks (and the empty set), renumbering them: sets
 * *remap[k] to the new id of set k (-1 for dropped ones; owned by the caller). Forgets memos.
 */
static int *sets_collect(struct sets *s, const unsigned char *live)
{
	int *remap = xmalloc(sizeof *remap * (size_t)s->n);
	size_t nelem = 0;
	int n = 1;

	remap[0] = 0;
	for (int k = 1; k < s->n; k++) {
		remap[k] = -1;
		if (!live[k])
			continue;
		memmove(s->elem + nelem, s->elem + s->start[k], sizeof *s->elem * (size_t)s->len[k]);
		s->start[n] = nelem;
		s->len[n] = s->len[k];
		s->hash[n] = s->hash[k];
		nelem += (size_t)s->len[k];
		remap[k] = n++;
	}
	s->n = n;
	s->nelem = nelem;
	sets_rehash(s, s->nslot);
	u64map_release(&s->memo);
	return remap;
}

/* ---- types, layouts and canonical offsets --------------------------------------------- */

/* How an object's bytes map to canonical offsets. */
struct shape {
	LLVMTypeRef type; /* the object's type, or NULL when untyped */
	uint64_t period;  /* offsets are taken modulo this (the type's size; for an untyped object
			     the gcd of its array steps), 0 none */
	uint64_t size;    /* bytes if known, else 0 */
	int repeats;      /* may hold several elements of its type (heap, variable alloca) */
	int collapsed;    /* one cell at offset 0 */
};

/* Returns t's allocation size in bytes, 0 if unsized. */
static uint64_t type_size(LLVMTargetDataRef td, LLVMTypeRef t)
{
	return LLVMTypeIsSized(t) ? LLVMABISizeOfType(td, t) : 0;
}

/* Returns the index of the field of struct t that starts last at or before x, or -1. */
static int field_at(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t x)
{
	int lo = 0, hi = (int)LLVMCountStructElementTypes(t) - 1, found = -1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (LLVMOffsetOfElement(td, t, (unsigned)mid) <= x) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found;
}

/*
 * One step down a type towards offset *x: returns the type of the field or element holding
 * *x and moves *base to its start (*x becomes relative to it; an array element's offset is
 * reduced modulo the element size, so it is always the first element), or NULL at a scalar
 * or padding. *elem is set to the element size when the step went into an array, else 0.
 */
static LLVMTypeRef type_step(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t *base, uint64_t *x,
			     uint64_t *elem)
{
	LLVMTypeKind k = LLVMGetTypeKind(t);

	*elem = 0;
	if (k == LLVMStructTypeKind) {
		int i = field_at(td, t, *x);
		uint64_t off;
		LLVMTypeRef f;

		if (i < 0)
			return NULL;
		off = LLVMOffsetOfElement(td, t, (unsigned)i);
		f = LLVMStructGetTypeAtIndex(t, (unsigned)i);
		if (*x - off >= type_size(td, f))
			return NULL;
		*base += off;
		*x -= off;
		return f;
	}
	if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
		LLVMTypeRef e = LLVMGetElementType(t);
		uint64_t es = type_size(td, e);

		if (!es)
			return NULL;
		*elem = es;
		*x %= es;
		return e;
	}
	return NULL;
}

/* Returns the canonical form of offset x (already below t's size) in an object of type t. */
static uint64_t type_canon(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t x)
{
	uint64_t base = 0, elem;

	while (t)
		t = type_step(td, t, &base, &x, &elem);
	return base + x;
}

/*
 * Returns whether stepping by any multiple of s bytes from canonical offset x of type t keeps
 * the canonical offset: t itself (as an array of t) or an array around x has elements whose
 * size divides s.
 */
static int stride_fits(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t x, uint64_t s)
{
	uint64_t base = 0, elem, size = type_size(td, t);

	if (s == 0 || (size && s % size == 0))
		return 1;
	while (t) {
		t = type_step(td, t, &base, &x, &elem);
		if (elem && s % elem == 0)
			return 1;
	}
	return 0;
}

/*
 * Returns whether canonical offset x of type t starts a pointer field of s bytes: indexed by a
 * variable (p[i] of a pointer to it, libjpeg's "array" of one row &dest->pixrow), a correct
 * program reaches that field only (i == 0), as the field is no array.
 */
static int one_pointer(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t x, uint64_t s)
{
	uint64_t base = 0, elem;
	LLVMTypeRef leaf = t;

	while (t) {
		leaf = t;
		t = type_step(td, t, &base, &x, &elem);
	}
	return LLVMGetTypeKind(leaf) == LLVMPointerTypeKind && x == 0 && type_size(td, leaf) == s;
}

/*
 * The canonical offsets an access of the bytes [c, end) may touch in an object of type t,
 * c canonical: [*lo, *hi), and *wrap, the distance between two elements that the access may
 * cross (0 if it stays in one). An access that runs past an array element's end may touch
 * every element of the outermost such array: the element's range, and the bytes past it.
 */
static void type_range(LLVMTargetDataRef td, LLVMTypeRef t, uint64_t c, uint64_t end,
		       uint64_t *lo, uint64_t *hi, uint64_t *wrap)
{
	uint64_t base = 0, x = c, elem;

	*lo = c;
	*hi = end;
	*wrap = 0;
	while (t) {
		uint64_t start = base;

		t = type_step(td, t, &base, &x, &elem);
		if (elem && end > start + elem) {
			*lo = start;
			*wrap = elem;
			return;
		}
	}
}

/*
 * Returns whether an access of n bytes (0: to the object's end) at canonical offset c of an
 * object shaped sh may touch the cell at canonical offset y; if so, sets *shift to y's distance
 * from the access's start (one element further when the access wraps round to y).
 */
static int touches(LLVMTargetDataRef td, const struct shape *sh, uint64_t c, uint64_t n,
		   uint64_t y, uint64_t *shift)
{
	uint64_t end = n && c + n > c ? c + n : UINT64_MAX, lo = c, hi = end, wrap = 0;

	*shift = 0;
	if (sh->collapsed)
		return 1;
	if (sh->period && (sh->repeats || !sh->type) && end > sh->period) {
		lo = 0;
		hi = UINT64_MAX;
		wrap = sh->period;
	} else if (sh->type) {
		type_range(td, sh->type, c, end, &lo, &hi, &wrap);
	}
	if (y < lo || y >= hi)
		return 0;
	*shift = y >= c ? y - c : y + wrap - c;
	return 1;
}

/* Returns whether values of type t hold pointers (cached in map: 1 yes, 0 no). */
static int has_ptr(struct ptrmap *map, LLVMTypeRef t)
{
	LLVMTypeKind k = LLVMGetTypeKind(t);
	int r = 0;

	if (k == LLVMPointerTypeKind)
		return 1;
	if (k != LLVMStructTypeKind && k != LLVMArrayTypeKind && k != LLVMVectorTypeKind)
		return 0;
	r = ptrmap_get(map, t);
	if (r >= 0)
		return r;
	r = 0;
	if (k == LLVMStructTypeKind) {
		unsigned n = LLVMCountStructElementTypes(t);

		for (unsigned i = 0; i < n && !r; i++)
			r = has_ptr(map, LLVMStructGetTypeAtIndex(t, i));
	} else {
		r = has_ptr(map, LLVMGetElementType(t));
	}
	ptrmap_put(map, t, r);
	return r;
}

/* Appends to out the offsets of the pointers inside a value of type t placed at base. */
static void pointer_offsets(LLVMTargetDataRef td, struct ptrmap *cache, LLVMTypeRef t,
			    int64_t base, int64_t *out, int *n)
{
	LLVMTypeKind k = LLVMGetTypeKind(t);

	if (*n >= MAX_AGG_PTRS || !has_ptr(cache, t))
		return;
	if (k == LLVMPointerTypeKind) {
		out[(*n)++] = base;
	} else if (k == LLVMStructTypeKind) {
		unsigned m = LLVMCountStructElementTypes(t);

		for (unsigned i = 0; i < m; i++)
			pointer_offsets(td, cache, LLVMStructGetTypeAtIndex(t, i),
					base + (int64_t)LLVMOffsetOfElement(td, t, i), out, n);
	} else {
		LLVMTypeRef e = LLVMGetElementType(t);
		unsigned m = k == LLVMArrayTypeKind ? LLVMGetArrayLength(t) : LLVMGetVectorSize(t);
		int64_t es = (int64_t)type_size(td, e);

		for (unsigned i = 0; i < m; i++)
			pointer_offsets(td, cache, e, base + (int64_t)i * es, out, n);
	}
}

/* ---- the solver's state --------------------------------------------------------------- */

/* An abstract object while solving. */
struct sobj {
	enum pta_kind kind;     /* what it is */
	LLVMValueRef site;      /* as struct pta_object's */
	char *name;             /* owned until moved into the result */
	struct shape sh;        /* its layout */
	int escaped;            /* in the world: its cells' contents are X's */
	struct intvec cells;    /* its cell nodes, merged ones included */
	struct intvec watchers; /* copies to run again when it gains a cell */
};

/* Kinds of complex constraints; each is attached to the node p whose set it reads. */
enum ckind {
	C_LOAD,     /* a ⊇ *(p + off) */
	C_STORE,    /* *(p + off) ⊇ a */
	C_GEP,      /* a ⊇ gep(p), b indexes the GEP's description */
	C_CALL,     /* p is an indirect callee; b indexes the call site */
	C_COPYSRC,  /* p is the source pointer of copy b */
	C_COPYDST,  /* p is the destination pointer of copy b */
	C_CALLBACK, /* functions in p get a in their first parameter and b in their second */
	C_VASTART,  /* every object in p collapses, and its cell includes a */
	C_INT,      /* every object in p collapses (p is an integer computed from addresses) */
	C_WORLD,    /* every object in p escapes (p is X) */
	C_FILTER,   /* a ⊇ the cells of object b in p (an allocation wrapper's result) */
	C_RUNSTORE, /* *(p + off) ⊇ what a holds of the run of wrapper b that made p's object */
	C_RUN,      /* a ⊇ the cells in p of objects made by wrapper b's run off (-1: its own) */
};

/* A complex constraint. */
struct cons {
	enum ckind kind; /* what it does */
	int a;           /* its first operand (see enum ckind), or -1 */
	int b;           /* its second operand (see enum ckind), or -1 */
	int64_t off;     /* load and store: bytes added to the pointer; else 0 */
};

/*
 * A memory copy (memcpy, realloc): each cell in the copied range of what src points to flows,
 * through one node per distance from the source pointer, into the cell at that distance from
 * each destination; the nodes in between keep the edges linear instead of |src| x |dst|.
 */
struct copy {
	int src;            /* the source pointer's node */
	int dst;            /* the destination pointer's node */
	uint64_t n;         /* bytes copied, 0: to the end */
	int queued;         /* in the solver's reruns */
	struct intvec dist; /* distances some copied cell has from the source pointer ... */
	struct intvec via;  /* ... and the node carrying the contents at each */
};

/* A GEP (instruction, constant expression or a library call's step), as byte arithmetic. */
struct gep {
	int64_t real;   /* bytes its constant indices add, every index counted */
	int64_t merged; /* the same without the first index and with array indices as 0 */
	uint64_t esize; /* the first index's step: the source element type's size */
	int first;      /* its first index: 0 constant zero, 1 another constant, 2 variable */
	int nvar;       /* variable array indices after the first ... */
	int var;        /* ... are vars[var .. var + nvar) */
	LLVMTypeRef of; /* the struct whose field it takes (first index 0, a field index after),
			   else NULL */
};

/* A variable array index after a GEP's first. */
struct gepvar {
	int64_t pre;   /* the constant bytes before it (where its array starts) */
	uint64_t size; /* its element size */
};

/* A call site. */
struct site {
	LLVMValueRef call; /* the call or invoke */
	LLVMValueRef fn;   /* the function containing it */
	int nargs;         /* its arguments ... */
	int args;          /* ... have nodes argpool[args .. args + nargs) (-1: no pointers) */
	int ret;           /* the call's node, or -1 */
	int callee;        /* the callee operand's node for an indirect call, else -1 */
	int heap;          /* the heap object it allocates, or -1 (made on first need) */
};

/*
 * An allocation wrapper: a defined function whose every returned pointer is null or, through
 * casts, GEPs, phis and selects only, the result of a fresh allocation made by the same call
 * of it (an EXT_ALLOC library call, or a call of another wrapper).
 */
struct wrapper {
	int leaves;       /* its allocating calls are leaf[leaves .. leaves + nleaves) */
	int nleaves;      /* allocating calls */
	int shifted;      /* may return a pointer past the start of the fresh object */
	LLVMTypeRef view; /* the one type it casts the fresh object to, or NULL */
	int conflict;     /* casts it to several types */
	int pool;         /* a bump allocator (find_pool): no leaves; its call sites' objects are
			     fresh, apart from the blocks it carves them from */
	int inner;        /* its other allocating calls whose results it stores into what it ... */
	int ninner;       /* ... returns are leaf[inner .. inner + ninner) (find_run_stores) */
};

/* The solver. Node ids index the per-node arrays; a cell's node is the cell's content. */
struct solver {
	LLVMModuleRef mod;          /* the module */
	LLVMTargetDataRef td;       /* its data layout; owned */
	struct sets sets;           /* points-to sets */
	int nn;                     /* nodes */
	int capn;                   /* nodes allocated */
	int *parent;                /* union-find of nodes merged by cycles and collapses */
	int *pts;                   /* a representative's points-to set (of cells) */
	int *old;                   /* the part of pts already propagated */
	struct intvec *succ;        /* a representative's copy edges */
	struct intvec *cons;        /* a representative's complex constraints */
	unsigned char *inq;         /* on the worklist */
	unsigned char *dirty;       /* copy edges gained by a merge, not yet compacted */
	int *cobj;                  /* a cell's object, -1 for other nodes */
	uint64_t *coff;             /* a cell's canonical offset */
	int *cpar;                  /* union-find of cells merged by collapses and periods */
	int *dfn;                   /* cycle search: visit order ... */
	int *low;                   /* ... lowest order reachable, -1 once in a component ... */
	int *seen;                  /* ... both valid when seen[n] == search */
	int search;                 /* the current cycle search */
	struct intvec queue;        /* worklist, FIFO from qhead */
	int qhead;                  /* first entry of queue still to process */
	struct intvec merges;       /* node pairs to merge before the next step */
	struct u64map cellmap;      /* (object, offset) -> cell */
	struct u64map edges;        /* copy edges made, (from, to) */
	struct u64map lcd;          /* edges a cycle search started from */
	struct u64map wired;        /* (site, object) indirect calls made, to functions or unknown code */
	struct u64map watching;     /* (object, copy) watches made */
	struct u64map vias;         /* (copy, distance) -> index in its dist and via */
	struct sobj *obj;           /* objects */
	int nobjs;                  /* objects */
	int capobjs;                /* objects allocated */
	struct cons *c;             /* complex constraints */
	int nc;                     /* constraints */
	int capc;                   /* constraints allocated */
	struct copy *copies;        /* memory copies */
	int ncopies;                /* memory copies */
	int capcopies;              /* memory copies allocated */
	struct intvec reruns;       /* copies whose source objects gained cells */
	struct gep *geps;           /* GEP descriptions, each different */
	int ngeps;                  /* GEP descriptions */
	int capgeps;                /* GEP descriptions allocated */
	struct u64map gephash;      /* content hash -> a GEP description with it */
	struct u64map gepmemo;      /* (GEP description, set) -> the set it leads to */
	struct gepvar *vars;        /* their variable indices */
	int nvars;                  /* variable indices */
	int capvars;                /* variable indices allocated */
	struct u64map steps;        /* element size -> description of a variable step */
	struct site *sites;         /* call sites */
	int nsites;                 /* call sites */
	int capsites;               /* call sites allocated */
	struct intvec argpool;      /* call sites' argument nodes */
	struct ptrmap values;       /* LLVM value -> node */
	struct ptrmap objects;      /* global, function -> object */
	struct ptrmap fnret;        /* function -> its return node */
	struct ptrmap vararea;      /* variadic function -> its argument area object */
	struct ptrmap vanode;       /* variadic function -> a node pointing to its area */
	struct ptrmap statics;      /* library function -> its static object */
	struct ptrmap saved;        /* extmodel entry -> node of the results it saves */
	struct ptrmap types;        /* type -> holds pointers (has_ptr's cache) */
	struct ptrmap declared;     /* llvm.dbg.declare's address operand -> index in decl_var */
	LLVMValueRef *decl_var;     /* the variable operand of each llvm.dbg.declare; owned */
	int ndecl;                  /* llvm.dbg.declare calls */
	int capdecl;                /* llvm.dbg.declare calls allocated */
	int world;                  /* X: what unknown code may see */
	int unknown;                /* the unknown object */
	LLVMValueRef *intsrc;       /* integers that inttoptr turns into pointers; owned */
	int *intdst;                /* the node of each one's pointer; owned */
	int nintsrc;                /* such integers */
	int capintsrc;              /* such integers allocated */
	int capintdst;              /* their nodes allocated */
	struct ptrmap carriers;     /* integer -> its node: the pointers its bits may hold */
	int allint;                 /* every address made an integer, or -1 (all_ints) */
	LLVMValueRef *icall;        /* indirect calls (made on first need); owned */
	int nicall;                 /* indirect calls */
	LLVMValueRef *afn;          /* defined functions whose address is taken; owned */
	int nafn;                   /* such functions */
	struct ptrmap afnset;       /* the same, as a set */
	int have_indirect;          /* icall and afn are made */
	int stream[EXT_NSTREAMS];   /* the stream objects (index 0: -1) */
	struct wrapper *wraps;      /* allocation wrappers */
	int nwraps;                 /* allocation wrappers */
	int capwraps;               /* allocation wrappers allocated */
	LLVMValueRef *leaf;         /* their allocating calls; owned */
	int nleaf;                  /* allocating calls */
	int capleaf;                /* allocating calls allocated */
	struct ptrmap wrapmap;      /* function -> its index in wraps */
	struct u64map clones;       /* (call site, wrapper) -> the site's object */
	struct u64map cloned;       /* (object, wrapper) whose allocating calls make the object */
	struct ptrmap runstores;    /* store of a wrapper's fresh object into its result -> wrapper */
	struct u64map runs;         /* (wrapper, object) -> the object returned by the run of the
				       wrapper that made it (find_run_stores) */
	struct u64map runnodes;     /* (C_RUNSTORE constraint, run + 1) -> its C_RUN node */
	int solving;                /* constraints added from now on apply at once */
	size_t gc_at;               /* set elements that trigger the next collection */
};

/* Returns the representative of node n (halving paths). */
static int find(struct solver *s, int n)
{
	while (s->parent[n] != n) {
		s->parent[n] = s->parent[s->parent[n]];
		n = s->parent[n];
	}
	return n;
}

/* Returns the cell that cell c was merged into (itself if none), halving paths. */
static int cell_find(struct solver *s, int c)
{
	while (s->cpar[c] != c) {
		s->cpar[c] = s->cpar[s->cpar[c]];
		c = s->cpar[c];
	}
	return c;
}

/* Doubles the per-node arrays. */
static void grow_nodes(struct solver *s)
{
	size_t n;

	s->capn = s->capn ? 2 * s->capn : 4096;
	n = (size_t)s->capn;
	s->parent = xrealloc(s->parent, sizeof *s->parent * n);
	s->pts = xrealloc(s->pts, sizeof *s->pts * n);
	s->old = xrealloc(s->old, sizeof *s->old * n);
	s->succ = xrealloc(s->succ, sizeof *s->succ * n);
	s->cons = xrealloc(s->cons, sizeof *s->cons * n);
	s->inq = xrealloc(s->inq, sizeof *s->inq * n);
	s->dirty = xrealloc(s->dirty, sizeof *s->dirty * n);
	s->cobj = xrealloc(s->cobj, sizeof *s->cobj * n);
	s->coff = xrealloc(s->coff, sizeof *s->coff * n);
	s->cpar = xrealloc(s->cpar, sizeof *s->cpar * n);
	s->dfn = xrealloc(s->dfn, sizeof *s->dfn * n);
	s->low = xrealloc(s->low, sizeof *s->low * n);
	s->seen = xrealloc(s->seen, sizeof *s->seen * n);
}

/* Returns a fresh node with an empty set. */
static int node_new(struct solver *s)
{
	int n;

	if (s->nn == s->capn)
		grow_nodes(s);
	n = s->nn++;
	s->parent[n] = n;
	s->pts[n] = s->old[n] = 0;
	memset(&s->succ[n], 0, sizeof s->succ[n]);
	memset(&s->cons[n], 0, sizeof s->cons[n]);
	s->inq[n] = 0;
	s->dirty[n] = 0;
	s->cobj[n] = -1;
	s->coff[n] = 0;
	s->cpar[n] = n;
	s->seen[n] = 0;
	return n;
}

/* Puts n's representative on the worklist unless it is there. */
static void push(struct solver *s, int n)
{
	n = find(s, n);
	if (!s->inq[n]) {
		s->inq[n] = 1;
		intvec_push(&s->queue, n);
	}
}

/* Adds the set id to n's points-to set. */
static void add_pts(struct solver *s, int n, int id)
{
	int now;

	n = find(s, n);
	now = sets_union(&s->sets, s->pts[n], id);
	if (now != s->pts[n]) {
		s->pts[n] = now;
		push(s, n);
	}
}

/* Makes n point to cell. */
static void add_addr(struct solver *s, int n, int cell)
{
	add_pts(s, n, sets_single(&s->sets, cell));
}

/* Adds the copy edge a -> b (b ⊇ a). */
static void add_edge(struct solver *s, int a, int b)
{
	a = find(s, a);
	b = find(s, b);
	if (a == b || !u64map_add(&s->edges, pair_key(a, b)))
		return;
	intvec_push(&s->succ[a], b);
	if (s->pts[a])
		add_pts(s, b, s->pts[a]);
}

static void apply(struct solver *s, int k, int set);

/* Attaches constraint k to node p; while solving, applies it to p's set at once. */
static void attach(struct solver *s, int p, int k)
{
	p = find(s, p);
	intvec_push(&s->cons[p], k);
	if (s->solving && s->pts[p])
		apply(s, k, s->pts[p]);
}

/* Adds a constraint of kind on node p; returns its index. */
static int add_cons(struct solver *s, enum ckind kind, int p, int a, int b, int64_t off)
{
	if (s->nc == s->capc) {
		s->capc = s->capc ? 2 * s->capc : 4096;
		s->c = xrealloc(s->c, sizeof *s->c * (size_t)s->capc);
	}
	s->c[s->nc] = (struct cons){kind, a, b, off};
	attach(s, p, s->nc);
	return s->nc++;
}

/* Returns a new object; name is owned by the solver from now on. */
static int obj_new(struct solver *s, enum pta_kind kind, LLVMValueRef site, char *name,
		   LLVMTypeRef type, int repeats, int collapsed)
{
	struct sobj *o;
	uint64_t size = type ? type_size(s->td, type) : 0;

	if (s->nobjs == s->capobjs) {
		s->capobjs = s->capobjs ? 2 * s->capobjs : 1024;
		s->obj = xrealloc(s->obj, sizeof *s->obj * (size_t)s->capobjs);
	}
	o = &s->obj[s->nobjs];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->site = site;
	o->name = name;
	o->sh.type = size ? type : NULL;
	o->sh.period = size;
	o->sh.size = repeats ? 0 : size;
	o->sh.repeats = repeats;
	o->sh.collapsed = collapsed;
	return s->nobjs++;
}

static void collapse(struct solver *s, int o);

/* Merges cell c into cell t: same location from now on, contents merged before the next step. */
static void merge_cell(struct solver *s, int c, int t)
{
	s->cpar[c] = t;
	intvec_push(&s->merges, c);
	intvec_push(&s->merges, t);
}

/* Returns the canonical form of byte offset x in an object shaped sh with a period. */
static uint64_t canon(struct solver *s, const struct shape *sh, int64_t x)
{
	int64_t p = (int64_t)sh->period;
	uint64_t y = (uint64_t)((x % p + p) % p);

	return sh->type ? type_canon(s->td, sh->type, y) : y;
}

/* Queues the copies reading object o to run again (it gained a cell or changed shape). */
static void wake_copies(struct solver *s, int o)
{
	for (int i = 0; i < s->obj[o].watchers.n; i++) {
		int k = s->obj[o].watchers.v[i];

		if (!s->copies[k].queued) {
			s->copies[k].queued = 1;
			intvec_push(&s->reruns, k);
		}
	}
}

/* Returns a new cell of object o at canonical offset y (in the world if o escaped). */
static int cell_new(struct solver *s, int o, uint64_t y)
{
	int c = node_new(s);

	s->cobj[c] = o;
	s->coff[c] = y;
	u64map_put(&s->cellmap, pair_key(o, (int)y), c);
	intvec_push(&s->obj[o].cells, c);
	if (s->obj[o].escaped) {
		add_edge(s, c, s->world);
		add_edge(s, s->world, c);
	}
	wake_copies(s, o);
	return c;
}

/* Returns the cell of object o at byte offset x (made canonical; may collapse o). */
static int cell_of(struct solver *s, int o, int64_t x)
{
	const struct shape *sh = &s->obj[o].sh;
	uint64_t y = (uint64_t)x;
	int c;

	if (sh->collapsed)
		y = 0;
	else if (sh->period)
		y = canon(s, sh, x);
	else if (x < 0 || x >= UNTYPED_LIMIT || (sh->size && (uint64_t)x >= sh->size))
		y = UINT64_MAX;
	if (y > INT32_MAX) {
		collapse(s, o);
		y = 0;
	}
	c = u64map_get(&s->cellmap, pair_key(o, (int)y));
	return c >= 0 ? cell_find(s, c) : cell_new(s, o, y);
}

/* Makes o one location: every cell merges into its cell at 0. */
static void collapse(struct solver *s, int o)
{
	int t;

	if (s->obj[o].sh.collapsed)
		return;
	s->obj[o].sh.collapsed = 1;
	wake_copies(s, o);
	t = cell_of(s, o, 0);
	for (int i = 0; i < s->obj[o].cells.n; i++) {
		int c = s->obj[o].cells.v[i];

		if (s->cpar[c] == c && c != t)
			merge_cell(s, c, t);
	}
}

/* Returns the greatest common divisor of a and b. */
static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Makes the untyped object o an array of p-byte elements (with what it was before). */
static void set_period(struct solver *s, int o, uint64_t p)
{
	struct shape *sh = &s->obj[o].sh;
	uint64_t np = sh->period ? gcd(sh->period, p) : p;
	int n = s->obj[o].cells.n;

	if (sh->collapsed || sh->type || np == sh->period)
		return;
	if (np == 1) {
		collapse(s, o);
		return;
	}
	sh->period = np;
	wake_copies(s, o);
	for (int i = 0; i < n; i++) {
		int c = s->obj[o].cells.v[i];

		if (s->cpar[c] == c && s->coff[c] % np != s->coff[c])
			merge_cell(s, c, cell_of(s, o, (int64_t)(s->coff[c] % np)));
	}
}

/* Rewrites a's copy edges to representatives, without duplicates or a itself. */
static void compact_succ(struct solver *s, int a)
{
	struct intvec *e = &s->succ[a];
	int m = 0;

	if (!e->n)
		return;
	for (int i = 0; i < e->n; i++)
		e->v[i] = find(s, e->v[i]);
	qsort(e->v, (size_t)e->n, sizeof *e->v, compare_ints);
	for (int i = 0; i < e->n; i++) {
		if (e->v[i] != a && (!m || e->v[m - 1] != e->v[i]))
			e->v[m++] = e->v[i];
	}
	e->n = m;
}

/* Merges node b into node a (or a into b): one set, the edges and constraints of both. */
static void node_union(struct solver *s, int a, int b)
{
	a = find(s, a);
	b = find(s, b);
	if (a == b)
		return;
	if (s->succ[a].n + s->cons[a].n < s->succ[b].n + s->cons[b].n) {
		int t = a;

		a = b;
		b = t;
	}
	s->parent[b] = a;
	s->pts[a] = sets_union(&s->sets, s->pts[a], s->pts[b]);
	s->old[a] = sets_inter(&s->sets, s->old[a], s->old[b]);
	s->pts[b] = s->old[b] = 0;
	for (int i = 0; i < s->succ[b].n; i++)
		intvec_push(&s->succ[a], s->succ[b].v[i]);
	for (int i = 0; i < s->cons[b].n; i++)
		intvec_push(&s->cons[a], s->cons[b].v[i]);
	intvec_release(&s->succ[b]);
	intvec_release(&s->cons[b]);
	s->dirty[a] = 1;
	push(s, a);
}

/* ---- cycles ----------------------------------------------------------------------------- */

/*
 * Tarjan's strongly connected components over copy edges from start, iteratively, among the
 * nodes whose set is start's now; merges every component of more than one node (their sets are
 * equal at the fixpoint). A node whose set differs yet is not followed: on a program whose sets
 * are huge (everything reachable from start) the search stays small, and a cycle it misses is
 * still solved right, only not merged.
 */
static void find_cycles(struct solver *s, int start)
{
	struct intvec path = {0}, stack = {0};
	int order = 0, set = s->pts[start];

	s->search++;
	s->seen[start] = s->search;
	s->dfn[start] = s->low[start] = ++order;
	intvec_push(&stack, start);
	intvec_push(&path, start);
	intvec_push(&path, 0);
	while (path.n) {
		int n = path.v[path.n - 2], i = path.v[path.n - 1];

		if (i < s->succ[n].n) {
			int m = find(s, s->succ[n].v[i]);

			path.v[path.n - 1]++;
			if (s->pts[m] != set)
				continue; /* not in a cycle with start yet: its set differs */
			if (s->seen[m] != s->search) {
				s->seen[m] = s->search;
				s->dfn[m] = s->low[m] = ++order;
				intvec_push(&stack, m);
				intvec_push(&path, m);
				intvec_push(&path, 0);
			} else if (s->low[m] >= 0 && s->dfn[m] < s->low[n]) {
				s->low[n] = s->dfn[m];
			}
			continue;
		}
		path.n -= 2;
		if (path.n && s->low[n] < s->low[path.v[path.n - 2]])
			s->low[path.v[path.n - 2]] = s->low[n];
		if (s->low[n] != s->dfn[n])
			continue;
		for (;;) {
			int m = stack.v[--stack.n];

			s->low[m] = -1;
			if (m == n)
				break;
			node_union(s, n, m);
		}
	}
	intvec_release(&path);
	intvec_release(&stack);
}

/* ---- applying constraints --------------------------------------------------------------- */

/* Copies the elements of set id into buf (if it has room) or fresh memory; returns them. */
static int *set_copy(struct solver *s, int id, int *buf, int room)
{
	int n = s->sets.len[id];
	int *v = n <= room ? buf : xmalloc(sizeof *v * (size_t)n);

	memcpy(v, set_elems(&s->sets, id), sizeof *v * (size_t)n);
	return v;
}

/* Returns the cell off bytes past cell e. */
static int cell_at(struct solver *s, int e, int64_t off)
{
	int c = cell_find(s, e);

	return off ? cell_of(s, s->cobj[c], (int64_t)s->coff[c] + off) : c;
}

/* Returns whether types a and b lay out alike: the same kinds, widths, lengths and fields
 * (pointers whatever they point to; names aside, as linking copies a struct under new names). */
static int same_layout(LLVMTypeRef a, LLVMTypeRef b, int depth)
{
	LLVMTypeKind k = LLVMGetTypeKind(a);
	unsigned n;

	if (a == b)
		return 1;
	if (k != LLVMGetTypeKind(b) || depth == 0)
		return 0;
	switch (k) {
	case LLVMIntegerTypeKind:
		return LLVMGetIntTypeWidth(a) == LLVMGetIntTypeWidth(b);
	case LLVMPointerTypeKind:
		return 1;
	case LLVMArrayTypeKind:
		return LLVMGetArrayLength(a) == LLVMGetArrayLength(b) &&
		       same_layout(LLVMGetElementType(a), LLVMGetElementType(b), depth - 1);
	case LLVMStructTypeKind:
		n = LLVMCountStructElementTypes(a);
		if (n != LLVMCountStructElementTypes(b) || LLVMIsPackedStruct(a) != LLVMIsPackedStruct(b) ||
		    LLVMIsOpaqueStruct(a) || LLVMIsOpaqueStruct(b))
			return 0;
		for (unsigned i = 0; i < n; i++) {
			if (!same_layout(LLVMStructGetTypeAtIndex(a, i), LLVMStructGetTypeAtIndex(b, i),
					 depth - 1))
				return 0;
		}
		return 1;
	default:
		return 1; /* one floating-point kind, or void, label... */
	}
}

/* Returns the struct type a's first field is, or NULL. */
static LLVMTypeRef first_struct(LLVMTypeRef a)
{
	LLVMTypeRef f;

	if (LLVMGetTypeKind(a) != LLVMStructTypeKind || LLVMIsOpaqueStruct(a) ||
	    LLVMCountStructElementTypes(a) == 0)
		return NULL;
	f = LLVMStructGetTypeAtIndex(a, 0);
	return LLVMGetTypeKind(f) == LLVMStructTypeKind ? f : NULL;
}

/*
 * Returns whether a field at byte offset off of struct s cannot be one of an object of struct
 * type t: s and t are siblings, two different structs that begin with one base struct (C's
 * "inheritance": libjpeg's writers all begin with struct djpeg_dest_struct pub), and off lies
 * past the base. A program reaches such a field only through a pointer to an object of type
 * s; the analysis, merging the objects a base pointer may reach (dest_mgr is any writer's),
 * would otherwise collapse each writer's struct at the first access through another's type.
 */
static int sibling_field(struct solver *s, LLVMTypeRef t, LLVMTypeRef st, int64_t off)
{
	LLVMTypeRef bt = first_struct(t), bs = first_struct(st);

	return bt && bs && off >= (int64_t)type_size(s->td, bs) && same_layout(bt, bs, 8) &&
	       !same_layout(t, st, 8);
}

/* Returns the cell a GEP described by g leads to from cell e (may collapse e's object), or
 * -1 when the GEP takes a field that an object of e's type lacks (sibling_field). */
static int gep_cell(struct solver *s, int e, const struct gep *g)
{
	int c = cell_find(s, e), o = s->cobj[c];
	const struct shape *sh = &s->obj[o].sh;
	uint64_t x = s->coff[c];

	if (sh->collapsed)
		return c;
	if (sh->type && g->of && g->first == 0 && x == 0 && sibling_field(s, sh->type, g->of, g->real))
		return -1;
	if (sh->type && g->first == 1 && !stride_fits(s->td, sh->type, x, g->esize) &&
	    one_pointer(s->td, sh->type, x, g->esize) && g->real % (int64_t)g->esize == 0)
		return c;
	if (sh->type) {
		int fits = g->first != 2 || stride_fits(s->td, sh->type, x, g->esize) ||
			   one_pointer(s->td, sh->type, x, g->esize);

		for (int i = 0; i < g->nvar && fits; i++) {
			const struct gepvar *v = &s->vars[g->var + i];

			fits = stride_fits(s->td, sh->type, canon(s, sh, (int64_t)x + v->pre), v->size);
		}
		if (!fits)
			collapse(s, o);
		return cell_of(s, o, (int64_t)x + g->real);
	}
	if (g->first && g->esize == 1)
		collapse(s, o);
	else if (g->first && g->esize)
		set_period(s, o, g->esize);
	return cell_of(s, o, (int64_t)s->coff[cell_find(s, c)] + g->merged);
}

static void wire(struct solver *s, int k, LLVMValueRef fn, int direct);
static LLVMValueRef strip_callee(LLVMValueRef v);
static void call_unknown(struct solver *s, int k);
static int const_ptrtoint(LLVMValueRef c);
static int value_node(struct solver *s, LLVMValueRef v);
static int fn_ret(struct solver *s, LLVMValueRef fn);
static int va_cell(struct solver *s, LLVMValueRef fn);

/* Unknown code may call fn: it gets X in its parameters and returns into X. */
static void world_calls(struct solver *s, LLVMValueRef fn)
{
	unsigned np = LLVMCountParams(fn);
	int r;

	if (LLVMIsDeclaration(fn))
		return;
	for (unsigned i = 0; i < np; i++) {
		int p = value_node(s, LLVMGetParam(fn, i));

		if (p >= 0)
			add_edge(s, s->world, p);
	}
	if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
		add_edge(s, s->world, va_cell(s, fn));
	r = fn_ret(s, fn);
	if (r >= 0)
		add_edge(s, r, s->world);
}

/* Object o becomes reachable by unknown code: its cells' contents and X include each other. */
static void escape(struct solver *s, int o)
{
	if (s->obj[o].escaped)
		return;
	s->obj[o].escaped = 1;
	for (int i = 0; i < s->obj[o].cells.n; i++) {
		int c = s->obj[o].cells.v[i];

		if (s->cpar[c] == c) {
			add_edge(s, c, s->world);
			add_edge(s, s->world, c);
		}
	}
	if (s->obj[o].kind == PTA_FUNCTION)
		world_calls(s, s->obj[o].site);
}

/* Returns the node carrying copy k's contents at distance t from its source pointer; a new one
 * is wired at once to every destination it reaches. */
static int copy_via(struct solver *s, int k, uint64_t t)
{
	int i = u64map_get(&s->vias, pair_key(k, (int)t)), v, dst, n, buf[16], *e;

	if (i >= 0)
		return s->copies[k].via.v[i];
	v = node_new(s);
	u64map_put(&s->vias, pair_key(k, (int)t), s->copies[k].via.n);
	intvec_push(&s->copies[k].dist, (int)t);
	intvec_push(&s->copies[k].via, v);
	dst = s->pts[find(s, s->copies[k].dst)];
	n = s->sets.len[dst];
	e = set_copy(s, dst, buf, 16);
	for (int j = 0; j < n; j++) {
		int d = cell_find(s, e[j]);

		add_edge(s, v, cell_of(s, s->cobj[d], (int64_t)(s->coff[d] + t)));
	}
	if (e != buf)
		free(e);
	return v;
}

/* Copy k from source cell e: every cell of e's object in the copied range flows into the node
 * of its distance. Watches the object for cells made later. */
static void copy_from(struct solver *s, int k, int e)
{
	int c = cell_find(s, e), o = s->cobj[c];

	if (u64map_add(&s->watching, pair_key(o, k)))
		intvec_push(&s->obj[o].watchers, k);
	for (int j = 0; j < s->obj[o].cells.n; j++) {
		int y = s->obj[o].cells.v[j];
		uint64_t t;

		if (s->cpar[y] == y &&
		    touches(s->td, &s->obj[o].sh, s->coff[c], s->copies[k].n, s->coff[y], &t) && t <= INT32_MAX)
			add_edge(s, y, copy_via(s, k, t));
	}
}

/* Copy k to destination cell e: each distance's node flows into the cell that far from e. */
static void copy_to(struct solver *s, int k, int e)
{
	int d = cell_find(s, e);

	for (int i = 0; i < s->copies[k].via.n; i++)
		add_edge(s, s->copies[k].via.v[i],
			 cell_of(s, s->cobj[d], (int64_t)(s->coff[d] + (uint64_t)s->copies[k].dist.v[i])));
}

/* Runs copy k again from every source cell (a source object gained cells or changed shape). */
static void rerun_copy(struct solver *s, int k)
{
	int src = s->pts[find(s, s->copies[k].src)], n = s->sets.len[src], buf[16];
	int *e = set_copy(s, src, buf, 16);

	s->copies[k].queued = 0;
	for (int i = 0; i < n; i++)
		copy_from(s, k, e[i]);
	if (e != buf)
		free(e);
}

/* Callback constraint: function fn receives a and b (nodes or -1) as its first parameters; an
 * unknown library function gets them in the world. */
static void callback_to(struct solver *s, LLVMValueRef fn, int a, int b)
{
	int src[2] = {a, b};
	unsigned np = LLVMCountParams(fn);

	for (unsigned j = 0; j < 2; j++) {
		int p;

		if (src[j] < 0)
			continue;
		if (LLVMIsDeclaration(fn)) {
			if (!extmodel_find(name_of(fn)))
				add_edge(s, src[j], s->world);
			continue;
		}
		p = j < np ? value_node(s, LLVMGetParam(fn, j)) : -1;
		if (p >= 0)
			add_edge(s, src[j], p);
	}
}

/* Returns the object returned by the run of wrapper w that made object o, -1 if o is not one
 * such a run makes (an object of the wrapper's own sites, for unknown callers). */
static int run_of(struct solver *s, int w, int o)
{
	return u64map_get(&s->runs, pair_key(w, o));
}

/* Returns the node holding what C_RUNSTORE constraint k stores into an object of run r: its
 * value's cells of that run only (made on first need). */
static int run_node(struct solver *s, int k, int r)
{
	int n = u64map_get(&s->runnodes, pair_key(k, r + 1));

	if (n < 0) {
		n = node_new(s);
		u64map_put(&s->runnodes, pair_key(k, r + 1), n);
		add_cons(s, C_RUN, s->c[k].a, n, s->c[k].b, r);
	}
	return n;
}

/* Applies constraint k to the cells of set id (new ones, or all of them). */
static void apply(struct solver *s, int k, int id)
{
	struct cons c = s->c[k];
	int buf[64], n = s->sets.len[id], memo = -1, kept = 0;
	int *v;

	if (c.kind == C_GEP) {
		memo = u64map_get(&s->gepmemo, pair_key(c.b, id));
		if (memo >= 0) {
			add_pts(s, c.a, memo);
			return;
		}
	}
	v = set_copy(s, id, buf, 64);
	for (int i = 0; i < n; i++) {
		int e = cell_find(s, v[i]), o = s->cobj[e];

		switch (c.kind) {
		case C_LOAD:
			add_edge(s, cell_at(s, e, c.off), c.a);
			break;
		case C_STORE:
			add_edge(s, c.a, cell_at(s, e, c.off));
			break;
		case C_GEP:
			if ((e = gep_cell(s, e, &s->geps[c.b])) >= 0)
				v[kept++] = e;
			break;
		case C_CALL:
			if (s->obj[o].kind == PTA_FUNCTION && u64map_add(&s->wired, pair_key(c.b, o)))
				wire(s, c.b, s->obj[o].site, 0);
			else if (o == s->unknown && u64map_add(&s->wired, pair_key(c.b, o)))
				call_unknown(s, c.b);
			break;
		case C_CALLBACK:
			if (s->obj[o].kind == PTA_FUNCTION)
				callback_to(s, s->obj[o].site, c.a, c.b);
			break;
		case C_VASTART:
			collapse(s, o);
			add_edge(s, c.a, cell_of(s, o, 0));
			break;
		case C_INT:
			collapse(s, o);
			break;
		case C_WORLD:
			escape(s, o);
			break;
		case C_COPYSRC:
			copy_from(s, c.b, e);
			break;
		case C_COPYDST:
			copy_to(s, c.b, e);
			break;
		case C_FILTER:
			if (o == c.b)
				v[kept++] = e;
			break;
		case C_RUNSTORE:
			add_edge(s, run_node(s, k, run_of(s, c.b, o)), cell_at(s, e, c.off));
			break;
		case C_RUN:
			if (run_of(s, c.b, o) == c.off)
				v[kept++] = e;
			break;
		}
	}
	if ((c.kind == C_FILTER || c.kind == C_RUN) && kept)
		add_pts(s, c.a, sets_of(&s->sets, v, kept));
	if (c.kind == C_GEP) {
		memo = sets_of(&s->sets, v, kept);
		u64map_put(&s->gepmemo, pair_key(c.b, id), memo);
		add_pts(s, c.a, memo);
	}
	if (v != buf)
		free(v);
}

/* ---- the worklist ----------------------------------------------------------------------- */

/* Propagates what node n gained since it was last processed. */
static void process(struct solver *s, int n)
{
	int cur = s->pts[n], d = sets_diff(&s->sets, cur, s->old[n]);
	struct intvec cand = {0};

	if (!d)
		return;
	if (s->dirty[n]) {
		compact_succ(s, n);
		s->dirty[n] = 0;
	}
	s->old[n] = cur;
	for (int i = 0; i < s->cons[n].n; i++)
		apply(s, s->cons[n].v[i], d);
	for (int i = 0; i < s->succ[n].n; i++) {
		int m = find(s, s->succ[n].v[i]), now;

		if (m == n)
			continue;
		now = sets_union(&s->sets, s->pts[m], d);
		if (now != s->pts[m]) {
			s->pts[m] = now;
			push(s, m);
		}
		if (s->pts[m] == s->pts[n] && u64map_add(&s->lcd, pair_key(n, m)))
			intvec_push(&cand, m);
	}
	for (int i = 0; i < cand.n; i++)
		find_cycles(s, find(s, cand.v[i]));
	intvec_release(&cand);
}

/* Drops the set versions no node refers to any more, when the store has doubled. */
static void collect_sets(struct solver *s)
{
	unsigned char *live;
	int *remap;

	if (s->sets.nelem < s->gc_at)
		return;
	live = xcalloc((size_t)s->sets.n, 1);
	for (int n = 0; n < s->nn; n++) {
		live[s->pts[n]] = 1;
		live[s->old[n]] = 1;
	}
	remap = sets_collect(&s->sets, live);
	u64map_release(&s->gepmemo);
	for (int n = 0; n < s->nn; n++) {
		s->pts[n] = remap[s->pts[n]];
		s->old[n] = remap[s->old[n]];
	}
	free(remap);
	free(live);
	s->gc_at = 2 * s->sets.nelem > ((size_t)1 << 24) ? 2 * s->sets.nelem : (size_t)1 << 24;
}

/* Runs to the fixpoint. */
static void solve(struct solver *s)
{
	s->solving = 1;
	for (;;) {
		int n;

		while (s->merges.n) {
			s->merges.n -= 2;
			node_union(s, s->merges.v[s->merges.n], s->merges.v[s->merges.n + 1]);
		}
		if (s->reruns.n) {
			rerun_copy(s, s->reruns.v[--s->reruns.n]);
			continue;
		}
		if (s->qhead == s->queue.n)
			break;
		n = s->queue.v[s->qhead++];
		s->inq[n] = 0;
		if (s->qhead > 65536 && 2 * s->qhead > s->queue.n) {
			memmove(s->queue.v, s->queue.v + s->qhead,
				sizeof *s->queue.v * (size_t)(s->queue.n - s->qhead));
			s->queue.n -= s->qhead;
			s->qhead = 0;
		}
		if (find(s, n) == n)
			process(s, n);
		collect_sets(s);
	}
}

/* ---- names ------------------------------------------------------------------------------ */

/* Returns the base name of inst's source file (*len bytes, not NUL-terminated) and sets *line,
 * or returns "?" and sets *line to 0. */
static const char *source_of(LLVMValueRef inst, unsigned *len, unsigned *line)
{
	LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst), scope;
	const char *file;

	*len = 1;
	*line = 0;
	if (!loc || LLVMGetMetadataKind(loc) != LLVMDILocationMetadataKind)
		return "?";
	scope = LLVMDILocationGetScope(loc);
	if (!scope || !LLVMDIScopeGetFile(scope))
		return "?";
	*line = LLVMDILocationGetLine(loc);
	file = LLVMDIFileGetFilename(LLVMDIScopeGetFile(scope), len);
	for (unsigned i = *len; i > 0; i--) {
		if (file[i - 1] == '/') {
			*len -= i;
			return file + i;
		}
	}
	return file;
}

/* Returns the readable name of the object a call allocates: "malloc at list.c:12" (the file's
 * base name), owned. */
static char *call_name(LLVMValueRef call, LLVMValueRef fn)
{
	unsigned len, line;
	const char *file = source_of(call, &len, &line);

	if (line)
		return xasprintf("%s at %.*s:%u", name_of(fn), (int)len, file, line);
	return xasprintf("%s in %s", name_of(fn),
			 name_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call))));
}

/* Returns the source variable an alloca holds ("%buf in main"), or its position, owned. */
static char *alloca_name(struct solver *s, LLVMValueRef inst, LLVMValueRef fn, int k)
{
	LLVMValueRef key = LLVMMetadataAsValue(LLVMGetModuleContext(s->mod), LLVMValueAsMetadata(inst));
	int d = ptrmap_get(&s->declared, key);

	if (d >= 0) {
		LLVMValueRef var = s->decl_var[d], ops[16];
		unsigned n = LLVMGetMDNodeNumOperands(var), len;
		const char *name = NULL;

		if (n >= 2 && n <= 16) {
			LLVMGetMDNodeOperands(var, ops);
			name = ops[1] ? LLVMGetMDString(ops[1], &len) : NULL;
		}
		if (name && *name)
			return xasprintf("%%%s in %s", name, name_of(fn));
	}
	return xasprintf("alloca #%d in %s", k, name_of(fn));
}

/* ---- nodes of values --------------------------------------------------------------------- */

/* Returns the index of description d (its variables last in vars), an equal one's if any. */
static int add_gep(struct solver *s, struct gep d)
{
	uint64_t h = (uint64_t)d.real * 31 + (uint64_t)d.merged;
	int k;

	h = h * 31 + d.esize;
	h = h * 31 + (uint64_t)d.first;
	h = h * 31 + (uint64_t)(uintptr_t)d.of;
	for (int i = 0; i < d.nvar; i++)
		h = h * 961 + (uint64_t)s->vars[d.var + i].pre * 31 + s->vars[d.var + i].size;
	h &= UINT64_MAX >> 1;
	k = u64map_get(&s->gephash, h);
	if (k >= 0 && s->geps[k].real == d.real && s->geps[k].merged == d.merged &&
	    s->geps[k].esize == d.esize && s->geps[k].first == d.first && s->geps[k].nvar == d.nvar &&
	    s->geps[k].of == d.of &&
	    (!d.nvar ||
	     memcmp(&s->vars[s->geps[k].var], &s->vars[d.var], sizeof *s->vars * (size_t)d.nvar) == 0)) {
		s->nvars = d.var;
		return k;
	}
	s->geps = grow_array(s->geps, s->ngeps, &s->capgeps, sizeof *s->geps);
	s->geps[s->ngeps] = d;
	if (k < 0)
		u64map_put(&s->gephash, h, s->ngeps);
	return s->ngeps++;
}

/* Returns the description of a variable step of size bytes (a library call's "anywhere in"). */
static int step_gep(struct solver *s, uint64_t size)
{
	int g = u64map_get(&s->steps, size);

	if (g >= 0)
		return g;
	g = add_gep(s, (struct gep){0, 0, size, 2, 0, s->nvars, NULL});
	u64map_put(&s->steps, size, g);
	return g;
}

/* Returns the description of GEP g (an instruction or constant expression). */
static int gep_of(struct solver *s, LLVMValueRef g)
{
	LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
	struct gep d = {0, 0, type_size(s->td, t), 0, 0, s->nvars, NULL};
	unsigned n = LLVMGetNumIndices(g);

	if (n >= 2 && LLVMGetTypeKind(t) == LLVMStructTypeKind)
		d.of = t; /* d.first says whether the first index is 0 */

	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef idx = LLVMGetOperand(g, i + 1);
		int known = LLVMIsAConstantInt(idx) != NULL;
		int64_t c = known ? LLVMConstIntGetSExtValue(idx) : 0;

		if (i == 0) {
			d.first = !known ? 2 : c ? 1 : 0;
			d.real += c * (int64_t)d.esize;
		} else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
			int64_t off = (int64_t)LLVMOffsetOfElement(s->td, t, (unsigned)c);

			d.real += off;
			d.merged += off;
			t = LLVMStructGetTypeAtIndex(t, (unsigned)c);
		} else {
			uint64_t es;

			t = LLVMGetElementType(t);
			es = type_size(s->td, t);
			if (known) {
				d.real += c * (int64_t)es;
				continue;
			}
			s->vars = grow_array(s->vars, s->nvars, &s->capvars, sizeof *s->vars);
			s->vars[s->nvars++] = (struct gepvar){d.real, es};
			d.nvar++;
		}
	}
	return add_gep(s, d);
}

/* Node n ⊇ GEP g applied to node base; a GEP that moves nowhere (all its indices constant
 * zeros, or struct field 0s) is a copy edge. */
static void gen_gep(struct solver *s, LLVMValueRef g, int base, int n)
{
	int k;

	if (base < 0 || n < 0)
		return;
	k = gep_of(s, g);
	if (!s->geps[k].real && !s->geps[k].merged && !s->geps[k].first && !s->geps[k].nvar)
		add_edge(s, base, n);
	else
		add_cons(s, C_GEP, base, n, k, 0);
}

/* Returns whether v is an integer known at compile time without any address in it (a
 * constant, or an expression of constants without ptrtoint): as a pointer it points to no
 * object, since no object's address is known before the program runs (SQLITE_TRANSIENT's -1,
 * SIG_IGN's 1, a hardware register's fixed address). */
static int plain_int(LLVMValueRef v)
{
	int n;

	if (LLVMIsAConstantInt(v) || LLVMIsAUndefValue(v) || LLVMIsAConstantPointerNull(v))
		return 1;
	if (!LLVMIsAConstantExpr(v) || LLVMGetConstOpcode(v) == LLVMPtrToInt)
		return 0;
	n = LLVMGetNumOperands(v);
	for (int i = 0; i < n; i++) {
		if (!plain_int(LLVMGetOperand(v, (unsigned)i)))
			return 0;
	}
	return 1;
}

/* Records that inttoptr makes node n point to what integer v may hold. */
static void int_source(struct solver *s, LLVMValueRef v, int n)
{
	s->intsrc = grow_array(s->intsrc, s->nintsrc, &s->capintsrc, sizeof *s->intsrc);
	s->intdst = grow_array(s->intdst, s->nintsrc, &s->capintdst, sizeof *s->intdst);
	s->intsrc[s->nintsrc] = v;
	s->intdst[s->nintsrc++] = n;
}

/* Returns the node of a global variable or function: it points to the object's cell 0. */
static int global_node(struct solver *s, LLVMValueRef g)
{
	int o = ptrmap_get(&s->objects, g), n;

	if (o < 0)
		return -1;
	n = node_new(s);
	add_addr(s, n, cell_of(s, o, 0));
	return n;
}

/* Returns a fresh node holding what the first ops operands of constant c may point to. */
static int join_operands(struct solver *s, LLVMValueRef c, int ops)
{
	int n = node_new(s);

	for (int i = 0; i < ops; i++) {
		int e = value_node(s, LLVMGetOperand(c, (unsigned)i));

		if (e >= 0)
			add_edge(s, e, n);
	}
	return n;
}

/* Returns a node for a constant expression, or -1. */
static int constexpr_node(struct solver *s, LLVMValueRef c)
{
	LLVMOpcode op = LLVMGetConstOpcode(c);
	int n, base, ops = LLVMGetNumOperands(c);

	if (op == LLVMBitCast || op == LLVMAddrSpaceCast)
		return value_node(s, LLVMGetOperand(c, 0));
	if (op == LLVMIntToPtr) {
		if (plain_int(LLVMGetOperand(c, 0)))
			return -1;
		n = node_new(s);
		int_source(s, LLVMGetOperand(c, 0), n);
		return n;
	}
	if (op == LLVMGetElementPtr) {
		base = value_node(s, LLVMGetOperand(c, 0));
		if (base < 0)
			return -1;
		n = node_new(s);
		gen_gep(s, c, base, n);
		return n;
	}
	return join_operands(s, c, ops);
}

/* Returns a node for a constant that may hold pointers, or -1 if it holds none. */
static int const_node(struct solver *s, LLVMValueRef c)
{
	int ops;

	if (LLVMIsAConstantPointerNull(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantAggregateZero(c) ||
	    LLVMIsABlockAddress(c) || LLVMIsAConstantDataSequential(c) || LLVMIsAConstantTokenNone(c))
		return -1;
	if (LLVMIsAConstantExpr(c))
		return constexpr_node(s, c);
	if (LLVMIsAGlobalAlias(c))
		return value_node(s, LLVMAliasGetAliasee(c));
	if (LLVMIsAGlobalValue(c))
		return global_node(s, c);
	ops = LLVMGetNumOperands(c);
	return join_operands(s, c, ops);
}

/* Returns v's node (made on first use), or -1 if v holds no pointers. */
static int value_node(struct solver *s, LLVMValueRef v)
{
	int n = ptrmap_get(&s->values, v);

	if (n >= 0)
		return n;
	if (!has_ptr(&s->types, LLVMTypeOf(v)))
		return -1;
	if (LLVMIsAConstant(v))
		n = const_node(s, v);
	else if (LLVMIsAInstruction(v) || LLVMIsAArgument(v))
		n = node_new(s);
	if (n >= 0)
		ptrmap_put(&s->values, v, n);
	return n;
}

/* Returns fn's return node (what its returns may point to), or -1. */
static int fn_ret(struct solver *s, LLVMValueRef fn)
{
	int n = ptrmap_get(&s->fnret, fn);

	if (n >= 0)
		return n;
	if (!has_ptr(&s->types, LLVMGetReturnType(LLVMGlobalGetValueType(fn))))
		return -1;
	n = node_new(s);
	ptrmap_put(&s->fnret, fn, n);
	return n;
}

/* Returns the cell of variadic function fn's argument area: every pointer passed in "...". */
static int va_cell(struct solver *s, LLVMValueRef fn)
{
	int o = ptrmap_get(&s->vararea, fn);

	if (o < 0) {
		o = obj_new(s, PTA_STACK, NULL, xasprintf("... of %s", name_of(fn)), NULL, 0, 1);
		ptrmap_put(&s->vararea, fn, o);
	}
	return cell_of(s, o, 0);
}

/* Returns a node pointing to fn's argument area. */
static int va_node(struct solver *s, LLVMValueRef fn)
{
	int n = ptrmap_get(&s->vanode, fn);

	if (n < 0) {
		n = node_new(s);
		add_addr(s, n, va_cell(s, fn));
		ptrmap_put(&s->vanode, fn, n);
	}
	return n;
}

/* ---- calls ------------------------------------------------------------------------------ */

/* Returns the node of call site k's argument i, or -1. */
static int arg_node(const struct solver *s, int k, int i)
{
	const struct site *st = &s->sites[k];

	return i >= 0 && i < st->nargs ? s->argpool.v[st->args + i] : -1;
}

/* Returns argument i of call site k as a constant count, or 0 if it is not one. */
static uint64_t arg_count(const struct solver *s, int k, int i)
{
	LLVMValueRef a;

	if (i < 0 || i >= s->sites[k].nargs)
		return 0;
	a = LLVMGetOperand(s->sites[k].call, (unsigned)i);
	return LLVMIsAConstantInt(a) ? LLVMConstIntGetZExtValue(a) : 0;
}

/* Returns a node pointing anywhere inside what src points to, in steps of size bytes. */
static int step_node(struct solver *s, int src, uint64_t size)
{
	int n = node_new(s);

	add_cons(s, C_GEP, src, n, step_gep(s, size ? size : 1), 0);
	return n;
}

/* Returns the type a heap allocation is used as: the one type its result is, or is cast to;
 * NULL with *conflict set if there are several. */
static LLVMTypeRef heap_view(LLVMValueRef call, int *conflict)
{
	LLVMTypeRef t = NULL, rt = LLVMTypeOf(call), i8 = LLVMInt8TypeInContext(LLVMGetTypeContext(rt));

	*conflict = 0;
	if (LLVMGetTypeKind(rt) != LLVMPointerTypeKind)
		return NULL;
	if (LLVMGetElementType(rt) != i8)
		t = LLVMGetElementType(rt);
	for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);
		LLVMTypeRef e;

		if (!LLVMIsABitCastInst(user) || LLVMGetTypeKind(LLVMTypeOf(user)) != LLVMPointerTypeKind)
			continue;
		e = LLVMGetElementType(LLVMTypeOf(user));
		if (t && t != e) {
			*conflict = 1;
			return NULL;
		}
		t = e;
	}
	return t;
}

/* Returns the type a heap allocation is used as: the one type its result is cast to. */
static LLVMTypeRef heap_type(LLVMValueRef call)
{
	int conflict;

	return heap_view(call, &conflict);
}

/* Returns the heap object call site k allocates (calling fn). */
static int site_heap(struct solver *s, int k, LLVMValueRef fn)
{
	LLVMValueRef call = s->sites[k].call;
	const char *name = name_of(fn);
	uint64_t size = 0;
	int o;

	if (s->sites[k].heap >= 0)
		return s->sites[k].heap;
	o = obj_new(s, PTA_HEAP, call, call_name(call, fn), heap_type(call), 1, 0);
	if (strcmp(name, "malloc") == 0)
		size = arg_count(s, k, 0);
	else if (strcmp(name, "calloc") == 0)
		size = arg_count(s, k, 0) * arg_count(s, k, 1);
	s->obj[o].sh.size = size;
	s->sites[k].heap = o;
	return o;
}

/* Returns library function fn's static object (collapsed, pointing to itself). */
static int static_obj(struct solver *s, LLVMValueRef fn)
{
	int o = ptrmap_get(&s->statics, fn), c;

	if (o >= 0)
		return o;
	o = obj_new(s, PTA_GLOBAL, NULL, xasprintf("%s's object", name_of(fn)), NULL, 0, 1);
	ptrmap_put(&s->statics, fn, o);
	c = cell_of(s, o, 0);
	add_addr(s, c, c);
	return o;
}

/* Returns the node holding what calls of model m saved (strtok's strings). */
static int saved_node(struct solver *s, const struct extfn *m)
{
	int n = ptrmap_get(&s->saved, m);

	if (n < 0) {
		n = node_new(s);
		ptrmap_put(&s->saved, m, n);
	}
	return n;
}

/* Adds a copy of n bytes (0: to the end) from what src points to into what dst points to. */
static void add_copy(struct solver *s, int dst, int src, uint64_t n)
{
	int k = s->ncopies++;

	s->copies = grow_array(s->copies, k, &s->capcopies, sizeof *s->copies);
	memset(&s->copies[k], 0, sizeof s->copies[k]);
	s->copies[k].src = src;
	s->copies[k].dst = dst;
	s->copies[k].n = n;
	add_cons(s, C_COPYSRC, src, -1, k, 0);
	add_cons(s, C_COPYDST, dst, -1, k, 0);
}

/* Model m's result at call site k (calling fn). */
static void model_result(struct solver *s, int k, LLVMValueRef fn, const struct extfn *m)
{
	int ret = s->sites[k].ret, src;

	if (ret < 0)
		return;
	if (m->flags & (EXT_ALLOC | EXT_REALLOC))
		add_addr(s, ret, cell_of(s, site_heap(s, k, fn), 0));
	if ((m->flags & EXT_REALLOC) && arg_node(s, k, 0) >= 0)
		add_copy(s, ret, arg_node(s, k, 0), 0);
	if (m->flags & EXT_STATIC)
		add_addr(s, ret, cell_of(s, static_obj(s, fn), 0));
	if (m->flags & EXT_RET_WORLD)
		add_edge(s, s->world, ret);
	src = arg_node(s, k, m->ret_arg);
	if (src < 0)
		return;
	if (m->flags & EXT_RET_SAVED) {
		add_edge(s, src, saved_node(s, m));
		src = saved_node(s, m);
	}
	if (m->flags & EXT_RET_INSIDE)
		src = step_node(s, src, arg_count(s, k, m->elem_arg));
	add_edge(s, src, ret);
}

/* Model m's effects on memory at call site k (calling fn). */
static void model_memory(struct solver *s, int k, LLVMValueRef fn, const struct extfn *m)
{
	if (m->copies >= 0) {
		int dst = arg_node(s, k, m->copies / 16), src = arg_node(s, k, m->copies % 16);

		if (dst >= 0 && src >= 0)
			add_copy(s, dst, src, arg_count(s, k, m->size_arg));
	}
	if (m->callback >= 0 && arg_node(s, k, m->callback) >= 0) {
		int p[2];

		for (int j = 0; j < 2; j++) {
			p[j] = arg_node(s, k, m->cb_args[j]);
			if (p[j] >= 0 && m->elem_arg >= 0)
				p[j] = step_node(s, p[j], arg_count(s, k, m->elem_arg));
		}
		add_cons(s, C_CALLBACK, arg_node(s, k, m->callback), p[0], p[1], 0);
	}
	if (m->out_arg >= 0 && arg_node(s, k, m->out_arg) >= 0) {
		int v = node_new(s);

		if (m->out_from == -2)
			add_addr(s, v, cell_of(s, site_heap(s, k, fn), 0));
		else if (arg_node(s, k, m->out_from) >= 0)
			add_edge(s, step_node(s, arg_node(s, k, m->out_from), 1), v);
		add_cons(s, C_STORE, arg_node(s, k, m->out_arg), v, -1, 0);
	}
}

/* Call site k calls unknown code: its arguments escape, and its result is anything escaped. */
static void call_unknown(struct solver *s, int k)
{
	for (int i = 0; i < s->sites[k].nargs; i++) {
		if (arg_node(s, k, i) >= 0)
			add_edge(s, arg_node(s, k, i), s->world);
	}
	if (s->sites[k].ret >= 0)
		add_edge(s, s->world, s->sites[k].ret);
}

/* Call site k calls the declared function fn: its model, or the unknown-code default (an
 * unknown intrinsic is pure: its result points to what its pointer arguments do). */
static void call_library(struct solver *s, int k, LLVMValueRef fn)
{
	const char *name = name_of(fn);
	const struct extfn *m;
	int ret = s->sites[k].ret, intrinsic = strncmp(name, "llvm.", 5) == 0;

	if (strcmp(name, "llvm.va_start") == 0 && arg_node(s, k, 0) >= 0) {
		add_cons(s, C_VASTART, arg_node(s, k, 0), va_node(s, s->sites[k].fn), -1, 0);
		return;
	}
	if (strcmp(name, "llvm.va_copy") == 0 && arg_node(s, k, 0) >= 0 && arg_node(s, k, 1) >= 0) {
		int t = node_new(s);

		add_cons(s, C_LOAD, arg_node(s, k, 1), t, -1, 0);
		add_cons(s, C_VASTART, arg_node(s, k, 0), t, -1, 0);
		return;
	}
	m = extmodel_find(name);
	if (m) {
		model_result(s, k, fn, m);
		model_memory(s, k, fn, m);
		return;
	}
	if (!intrinsic) {
		call_unknown(s, k);
		return;
	}
	for (int i = 0; i < s->sites[k].nargs; i++) {
		if (arg_node(s, k, i) >= 0 && ret >= 0)
			add_edge(s, arg_node(s, k, i), ret);
	}
}

static void clone_into(struct solver *s, int o, int w);

/* Returns the type of the object call site call (of allocator fn, wrapper w or -1) makes:
 * the site's casts, else the wrapper's; NULL where they differ or the wrapper shifts it. */
static LLVMTypeRef site_view(struct solver *s, LLVMValueRef call, int w)
{
	const struct wrapper *wr = w >= 0 ? &s->wraps[w] : NULL;
	int conflict;
	LLVMTypeRef t = heap_view(call, &conflict);

	if (!wr)
		return conflict ? NULL : t;
	if (conflict || wr->shifted || wr->conflict || (t && wr->view && t != wr->view))
		return NULL;
	return t ? t : wr->view;
}

/* Wrapper w's run that returns object o: each of w's inner allocating calls (whose results
 * it stores into o) makes an object of that run, "alloc_large at jmemmgr.c:472 for
 * alloc_sarray at jdmainct.c:80"; the call points to it, and w's run stores pass it into the
 * objects of the same run only (C_RUNSTORE). */
static void clone_run(struct solver *s, int o, int w)
{
	const struct wrapper *wr = &s->wraps[w];

	u64map_put(&s->runs, pair_key(w, o), o);
	for (int i = 0; i < wr->ninner; i++) {
		LLVMValueRef call = s->leaf[wr->inner + i];
		LLVMValueRef callee = strip_callee(LLVMGetCalledValue(call));
		int n = value_node(s, call), inner = ptrmap_get(&s->wrapmap, callee), r;
		char *name = call_name(call, callee);

		r = obj_new(s, PTA_HEAP, call, xasprintf("%s for %s", name, s->obj[o].name),
			    site_view(s, call, inner), 1, 0);
		free(name);
		u64map_put(&s->runs, pair_key(w, r), o);
		if (inner < 0 || s->wraps[inner].pool) {
			add_addr(s, n, cell_of(s, r, 0));
			continue;
		}
		if (fn_ret(s, callee) >= 0)
			add_cons(s, C_FILTER, fn_ret(s, callee), n, r, 0);
		clone_into(s, r, inner);
	}
}

/* Object o is what the allocating calls of wrapper w make (when w runs for o's call site):
 * they point to it, and so do the results of w's calls of other wrappers. */
static void clone_into(struct solver *s, int o, int w)
{
	const struct wrapper *wr;

	if (!u64map_add(&s->cloned, pair_key(o, w)))
		return;
	if (s->wraps[w].ninner)
		clone_run(s, o, w);
	wr = &s->wraps[w];
	for (int i = 0; i < wr->nleaves; i++) {
		LLVMValueRef call = s->leaf[wr->leaves + i];
		LLVMValueRef callee = strip_callee(LLVMGetCalledValue(call));
		int n = value_node(s, call), inner = ptrmap_get(&s->wrapmap, callee);

		if (n < 0)
			continue;
		if (inner < 0 || s->wraps[inner].pool) {
			add_addr(s, n, cell_of(s, o, 0));
			continue;
		}
		if (fn_ret(s, callee) >= 0)
			add_cons(s, C_FILTER, fn_ret(s, callee), n, o, 0);
		clone_into(s, o, inner);
	}
}

/* Call site k calls allocation wrapper fn (return node r): the site's own heap object, typed
 * by the site's casts unless fn returns a pointer past its start or views it otherwise; the
 * call's result is what r holds of that object only (each run of fn returns what it just
 * allocated, and that run's allocations are the site's object). A bump allocator's result is
 * the site's object alone: fn's own pointers reach its blocks, not the pieces it hands out. */
static void wrapper_result(struct solver *s, int k, LLVMValueRef fn, int r)
{
	int w = ptrmap_get(&s->wrapmap, fn), fo = ptrmap_get(&s->objects, fn);
	uint64_t key = pair_key(k, fo);
	int o = u64map_get(&s->clones, key);

	if (o < 0) {
		o = obj_new(s, PTA_HEAP, s->sites[k].call, call_name(s->sites[k].call, fn),
			    site_view(s, s->sites[k].call, w), 1, 0);
		u64map_put(&s->clones, key, o);
		if (!s->wraps[w].pool)
			clone_into(s, o, w);
	}
	if (s->wraps[w].pool)
		add_addr(s, s->sites[k].ret, cell_of(s, o, 0));
	else
		add_cons(s, C_FILTER, r, s->sites[k].ret, o, 0);
}

/* Returns whether a and b are passed alike: both pointers, integers of one width, or of one
 * other kind (double and double, struct and struct). */
static int abi_alike(LLVMTypeRef a, LLVMTypeRef b)
{
	LLVMTypeKind ka = LLVMGetTypeKind(a), kb = LLVMGetTypeKind(b);

	if (ka != kb)
		return 0;
	if (ka == LLVMIntegerTypeKind)
		return LLVMGetIntTypeWidth(a) == LLVMGetIntTypeWidth(b);
	return 1;
}

/* Returns whether an indirect call may call fn: the parameters fn declares are passed as the
 * call passes its first arguments. */
static int shape_fits(LLVMValueRef call, LLVMValueRef fn)
{
	LLVMTypeRef ct = LLVMGetCalledFunctionType(call), ft = LLVMGlobalGetValueType(fn);
	unsigned nc = LLVMCountParamTypes(ct), nf = LLVMCountParamTypes(ft);
	LLVMTypeRef cp[64], fp[64];

	if (nc > 64 || nf > 64 || nf > nc)
		return 1;
	LLVMGetParamTypes(ct, cp);
	LLVMGetParamTypes(ft, fp);
	for (unsigned i = 0; i < nf; i++) {
		if (!abi_alike(cp[i], fp[i]))
			return 0;
	}
	return 1;
}

/* Call site k calls fn: arguments to parameters (or to the area of "..."), return to result.
 * An indirect call (direct == 0) only reaches a function whose parameter count and kinds fit
 * (shape_fits). */
static void wire(struct solver *s, int k, LLVMValueRef fn, int direct)
{
	int nargs = s->sites[k].nargs, ret = s->sites[k].ret, r;
	int np = (int)LLVMCountParams(fn), va = LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn));

	if (LLVMIsDeclaration(fn)) {
		call_library(s, k, fn);
		return;
	}
	if (!direct && (nargs < np || (nargs > np && !va) || !shape_fits(s->sites[k].call, fn)))
		return;
	for (int i = 0; i < nargs; i++) {
		int a = arg_node(s, k, i), p;

		if (a < 0)
			continue;
		if (i >= np) {
			if (va)
				add_edge(s, a, va_cell(s, fn));
			continue;
		}
		p = value_node(s, LLVMGetParam(fn, (unsigned)i));
		if (p >= 0)
			add_edge(s, a, p);
	}
	r = fn_ret(s, fn);
	if (ret >= 0 && r >= 0 && ptrmap_get(&s->wrapmap, fn) >= 0)
		wrapper_result(s, k, fn, r);
	else if (ret >= 0 && r >= 0)
		add_edge(s, r, ret);
}

/* ---- constraints from the IR ------------------------------------------------------------- */

/* Returns v without pointer casts and aliases. */
static LLVMValueRef strip_callee(LLVMValueRef v)
{
	for (;;) {
		if (LLVMIsAConstantExpr(v) &&
		    (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
			v = LLVMGetOperand(v, 0);
		else if (LLVMIsAGlobalAlias(v))
			v = LLVMAliasGetAliasee(v);
		else
			return v;
	}
}

/* Returns whether call is an llvm.dbg.* marker. */
static int is_debug_call(LLVMValueRef call)
{
	LLVMValueRef f = LLVMGetCalledValue(call);

	return f && LLVMIsAFunction(f) && strncmp(name_of(f), "llvm.dbg.", 9) == 0;
}

/* Returns whether v is a ptrtoint (instruction or constant expression). */
static int is_ptrtoint(LLVMValueRef v)
{
	if (LLVMIsAInstruction(v))
		return LLVMGetInstructionOpcode(v) == LLVMPtrToInt;
	return LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMPtrToInt;
}

/* Adds the edge from value from's node to node to, if both exist. */
static void gen_copy(struct solver *s, LLVMValueRef from, int to)
{
	int a = value_node(s, from);

	if (a >= 0 && to >= 0)
		add_edge(s, a, to);
}

/* Loads (C_LOAD) or stores (C_STORE, C_RUNSTORE of wrapper w) value node v of type t through
 * pointer node p: one constraint per pointer inside t. */
static void gen_access(struct solver *s, enum ckind kind, int p, int v, int w, LLVMTypeRef t)
{
	int64_t off[MAX_AGG_PTRS];
	int n = 0;

	pointer_offsets(s->td, &s->types, t, 0, off, &n);
	for (int i = 0; i < n; i++)
		add_cons(s, kind, p, v, w, off[i]);
}

/* Returns whether integer type t can hold a pointer. */
static int pointer_sized(struct solver *s, LLVMTypeRef t)
{
	return LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
	       LLVMGetIntTypeWidth(t) >= 8 * LLVMPointerSize(s->td);
}

/* A load of pointers (or of an aggregate holding them). */
static void gen_load(struct solver *s, LLVMValueRef inst)
{
	int p = value_node(s, LLVMGetOperand(inst, 0)), n = value_node(s, inst);

	if (p < 0)
		return;
	if (n >= 0)
		gen_access(s, C_LOAD, p, n, -1, LLVMTypeOf(inst));
}

/* Stores val through ptr (a store, or the write of cmpxchg and atomicrmw); store is the
 * store instruction, or NULL. */
static void gen_store(struct solver *s, LLVMValueRef val, LLVMValueRef ptr, LLVMValueRef store)
{
	int p = value_node(s, ptr), v = value_node(s, val);
	int w = store ? ptrmap_get(&s->runstores, store) : -1;

	if (p < 0 || v < 0)
		return;
	if (w >= 0)
		gen_access(s, C_RUNSTORE, p, v, w, LLVMTypeOf(val));
	else
		gen_access(s, C_STORE, p, v, -1, LLVMTypeOf(val));
}

/* A call or invoke in fn: a new call site, wired to its callee now or as its set grows. */
static void gen_call(struct solver *s, LLVMValueRef fn, LLVMValueRef inst)
{
	LLVMValueRef callee = LLVMGetCalledValue(inst), target = strip_callee(callee);
	int nargs = (int)LLVMGetNumArgOperands(inst), k = s->nsites, ret = value_node(s, inst);
	int first = s->argpool.n;

	for (int i = 0; i < nargs; i++)
		intvec_push(&s->argpool, value_node(s, LLVMGetOperand(inst, (unsigned)i)));
	s->sites = grow_array(s->sites, k, &s->capsites, sizeof *s->sites);
	s->sites[k] = (struct site){inst, fn, nargs, first, ret, -1, -1};
	s->nsites++;
	if (LLVMIsAFunction(target)) {
		wire(s, k, target, 1);
	} else if (LLVMIsAInlineAsm(callee)) {
		call_unknown(s, k);
	} else {
		s->sites[k].callee = value_node(s, callee);
		if (s->sites[k].callee >= 0)
			add_cons(s, C_CALL, s->sites[k].callee, -1, k, 0);
	}
}

/* An alloca (fn's k-th): a stack object; one whose count is not 1 may hold several elements. */
static void gen_alloca(struct solver *s, LLVMValueRef fn, LLVMValueRef inst, int k)
{
	LLVMValueRef count = LLVMGetOperand(inst, 0);
	int repeats = !LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1;
	int o = obj_new(s, PTA_STACK, inst, alloca_name(s, inst, fn, k), LLVMGetAllocatedType(inst),
			repeats, 0);

	add_addr(s, value_node(s, inst), cell_of(s, o, 0));
}

/* Constraints of one instruction of fn; k counts fn's allocas so far. */
static void gen_instruction(struct solver *s, LLVMValueRef fn, LLVMValueRef inst, int k)
{
	int n = value_node(s, inst), p;

	switch (LLVMGetInstructionOpcode(inst)) {
	case LLVMAlloca:
		gen_alloca(s, fn, inst, k);
		break;
	case LLVMLoad:
		gen_load(s, inst);
		break;
	case LLVMStore:
		gen_store(s, LLVMGetOperand(inst, 0), LLVMGetOperand(inst, 1), inst);
		break;
	case LLVMGetElementPtr:
		gen_gep(s, inst, value_node(s, LLVMGetOperand(inst, 0)), n);
		break;
	case LLVMBitCast:
	case LLVMAddrSpaceCast:
	case LLVMFreeze:
	case LLVMExtractValue:
	case LLVMExtractElement:
		gen_copy(s, LLVMGetOperand(inst, 0), n);
		break;
	case LLVMPHI:
		for (unsigned i = 0; i < LLVMCountIncoming(inst); i++)
			gen_copy(s, LLVMGetIncomingValue(inst, i), n);
		break;
	case LLVMSelect:
		gen_copy(s, LLVMGetOperand(inst, 1), n);
		gen_copy(s, LLVMGetOperand(inst, 2), n);
		break;
	case LLVMInsertValue:
	case LLVMInsertElement:
	case LLVMShuffleVector:
		gen_copy(s, LLVMGetOperand(inst, 0), n);
		gen_copy(s, LLVMGetOperand(inst, 1), n);
		break;
	case LLVMIntToPtr:
		if (!plain_int(LLVMGetOperand(inst, 0)) && n >= 0)
			int_source(s, LLVMGetOperand(inst, 0), n);
		break;
	case LLVMRet:
		if (LLVMGetNumOperands(inst) > 0)
			gen_copy(s, LLVMGetOperand(inst, 0), fn_ret(s, fn));
		break;
	case LLVMCall:
	case LLVMInvoke:
		gen_call(s, fn, inst);
		break;
	case LLVMAtomicCmpXchg:
		gen_store(s, LLVMGetOperand(inst, 2), LLVMGetOperand(inst, 0), NULL);
		p = value_node(s, LLVMGetOperand(inst, 0));
		if (p >= 0 && n >= 0)
			add_cons(s, C_LOAD, p, n, -1, 0);
		break;
	case LLVMAtomicRMW:
		gen_store(s, LLVMGetOperand(inst, 1), LLVMGetOperand(inst, 0), NULL);
		p = value_node(s, LLVMGetOperand(inst, 0));
		if (p >= 0 && n >= 0)
			add_cons(s, C_LOAD, p, n, -1, 0);
		break;
	case LLVMVAArg:
		p = value_node(s, LLVMGetOperand(inst, 0));
		if (p >= 0 && n >= 0) {
			int area = node_new(s);

			add_cons(s, C_LOAD, p, area, -1, 0);
			add_cons(s, C_LOAD, area, n, -1, 0);
		}
		break;
	default:
		break;
	}
}

/* Returns whether constant c (an integer, or an aggregate of them) holds a ptrtoint constant
 * expression outside pointer-typed operands. */
static int const_ptrtoint(LLVMValueRef c)
{
	int n;

	if (!(LLVMIsAConstantExpr(c) || LLVMIsAConstantStruct(c) || LLVMIsAConstantArray(c) ||
	      LLVMIsAConstantVector(c)))
		return 0;
	if (is_ptrtoint(c))
		return 1;
	n = LLVMGetNumOperands(c);
	for (int i = 0; i < n; i++) {
		LLVMValueRef op = LLVMGetOperand(c, (unsigned)i);

		if (LLVMGetTypeKind(LLVMTypeOf(op)) != LLVMPointerTypeKind && const_ptrtoint(op))
			return 1;
	}
	return 0;
}

/* Adds to node n the pointers that ptrtoint constant expressions inside constant c (an
 * integer, or an aggregate of them) convert. */
static void const_addresses(struct solver *s, LLVMValueRef c, int n)
{
	int ops;

	if (!(LLVMIsAConstantExpr(c) || LLVMIsAConstantStruct(c) || LLVMIsAConstantArray(c) ||
	      LLVMIsAConstantVector(c)))
		return;
	if (is_ptrtoint(c)) {
		gen_copy(s, LLVMGetOperand(c, 0), n);
		return;
	}
	ops = LLVMGetNumOperands(c);
	for (int i = 0; i < ops; i++) {
		LLVMValueRef op = LLVMGetOperand(c, (unsigned)i);

		if (LLVMGetTypeKind(LLVMTypeOf(op)) != LLVMPointerTypeKind)
			const_addresses(s, op, n);
	}
}

/* Constraints of every instruction of fn. Every pointer operand gets a node, so queries find
 * constant expressions and globals used as operands. */
static void gen_function(struct solver *s, LLVMValueRef fn)
{
	int k = 0;

	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
			int nops = LLVMGetNumOperands(i);

			if (LLVMIsACallInst(i) && is_debug_call(i))
				continue;
			for (int j = 0; j < nops; j++) {
				LLVMValueRef op = LLVMGetOperand(i, (unsigned)j);

				if (LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMPointerTypeKind)
					value_node(s, op);
			}
			if (LLVMIsAAllocaInst(i))
				k++;
			gen_instruction(s, fn, i, k);
		}
	}
}

/* Stores the pointers of constant c, placed at byte off of global object o, in o's cells. */
static void walk_init(struct solver *s, int o, int64_t off, LLVMValueRef c)
{
	LLVMTypeRef t = LLVMTypeOf(c);
	LLVMTypeKind k = LLVMGetTypeKind(t);
	unsigned n = (unsigned)LLVMGetNumOperands(c);

	if (!has_ptr(&s->types, t))
		return;
	if (k == LLVMPointerTypeKind) {
		int v = value_node(s, c);

		if (v >= 0)
			add_edge(s, v, cell_of(s, o, off));
	} else if (LLVMIsAConstantStruct(c)) {
		for (unsigned i = 0; i < n; i++)
			walk_init(s, o, off + (int64_t)LLVMOffsetOfElement(s->td, t, i), LLVMGetOperand(c, i));
	} else if (LLVMIsAConstantArray(c) || LLVMIsAConstantVector(c)) {
		int64_t es = (int64_t)type_size(s->td, LLVMGetElementType(t));

		for (unsigned i = 0; i < n; i++)
			walk_init(s, o, off + (int64_t)i * es, LLVMGetOperand(c, i));
	}
}

/* Globals: initializers; stdin, stdout and stderr point to their streams; other declared
 * globals are unknown code's (in X). */
static void gen_globals(struct solver *s)
{
	for (LLVMValueRef g = LLVMGetFirstGlobal(s->mod); g; g = LLVMGetNextGlobal(g)) {
		int o = ptrmap_get(&s->objects, g), c = cell_of(s, o, 0);
		const char *name = name_of(g);

		if (!LLVMIsDeclaration(g)) {
			if (LLVMGetInitializer(g))
				walk_init(s, o, 0, LLVMGetInitializer(g));
		} else if (strcmp(name, "stdin") == 0) {
			add_addr(s, c, cell_of(s, s->stream[EXT_STDIN], 0));
		} else if (strcmp(name, "stdout") == 0 || strcmp(name, "stderr") == 0) {
			add_addr(s, c, cell_of(s, s->stream[EXT_STDOUT], 0));
		} else {
			add_addr(s, s->world, c);
		}
	}
}

/* main's argv and envp point to the argv object (the arrays and their strings). */
static void gen_main_args(struct solver *s)
{
	LLVMValueRef main_fn = LLVMGetNamedFunction(s->mod, "main");
	int o, c;

	if (!main_fn || LLVMIsDeclaration(main_fn))
		return;
	o = obj_new(s, PTA_UNKNOWN, NULL, xstrdup("argv"), NULL, 0, 1);
	c = cell_of(s, o, 0);
	add_addr(s, c, c);
	for (unsigned i = 1; i < 3 && i < LLVMCountParams(main_fn); i++) {
		int p = value_node(s, LLVMGetParam(main_fn, i));

		if (p >= 0)
			add_addr(s, p, c);
	}
}

/* A stack of LLVM values. */
struct values {
	LLVMValueRef *v; /* the values; owned */
	int n;           /* used */
	int cap;         /* allocated */
};

/* Pushes v. */
static void values_push(struct values *w, LLVMValueRef v)
{
	w->v = grow_array(w->v, w->n, &w->cap, sizeof *w->v);
	w->v[w->n++] = v;
}

/* Returns whether call calls fn directly. */
static int calls_directly(LLVMValueRef call, LLVMValueRef fn)
{
	return (LLVMIsACallInst(call) || LLVMIsAInvokeInst(call)) && LLVMGetCalledValue(call) == fn;
}

/* Makes the lists of indirect calls and of defined functions whose address is taken (used
 * other than as a direct callee), once. */
static void find_indirect(struct solver *s)
{
	int cap = 0, capf = 0;

	if (s->have_indirect)
		return;
	s->have_indirect = 1;
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		for (LLVMUseRef u = LLVMGetFirstUse(f); u && !LLVMIsDeclaration(f); u = LLVMGetNextUse(u)) {
			if (!calls_directly(LLVMGetUser(u), f)) {
				s->afn = grow_array(s->afn, s->nafn, &capf, sizeof *s->afn);
				s->afn[s->nafn++] = f;
				ptrmap_put(&s->afnset, f, 0);
				break;
			}
		}
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				LLVMValueRef callee;

				if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
					continue;
				callee = strip_callee(LLVMGetCalledValue(i));
				if (LLVMIsAFunction(callee) || LLVMIsAInlineAsm(callee))
					continue;
				s->icall = grow_array(s->icall, s->nicall, &cap, sizeof *s->icall);
				s->icall[s->nicall++] = i;
			}
		}
	}
}

/* Pushes onto work the return values of defined function fn. */
static void push_returns(LLVMValueRef fn, struct values *work)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(b);

		if (t && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) > 0)
			values_push(work, LLVMGetOperand(t, 0));
	}
}

/* Returns whether fn has a direct use other than as a callee. */
static int address_taken(struct solver *s, LLVMValueRef fn)
{
	find_indirect(s);
	return ptrmap_get(&s->afnset, fn) >= 0;
}

/* Pushes onto work the values whose bits integer v may carry: the integer operands of an
 * operation, the returns of a defined callee (of every function whose address is taken, for
 * an indirect call), the arguments every call that may reach a parameter passes to it. */
static void int_operands(struct solver *s, LLVMValueRef v, struct values *work)
{
	LLVMValueRef callee;

	if (LLVMIsAArgument(v)) {
		LLVMValueRef fn = LLVMGetParamParent(v);
		unsigned i = 0;

		while (LLVMGetParam(fn, i) != v)
			i++;
		for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
			LLVMValueRef call = LLVMGetUser(u);

			if (calls_directly(call, fn) && i < LLVMGetNumArgOperands(call))
				values_push(work, LLVMGetOperand(call, i));
		}
		if (!address_taken(s, fn))
			return;
		for (int k = 0; k < s->nicall; k++) {
			if (i < LLVMGetNumArgOperands(s->icall[k]))
				values_push(work, LLVMGetOperand(s->icall[k], i));
		}
		return;
	}
	if (LLVMIsACallInst(v) || LLVMIsAInvokeInst(v)) {
		callee = strip_callee(LLVMGetCalledValue(v));
		if (LLVMIsAFunction(callee) || LLVMIsAInlineAsm(callee)) {
			if (LLVMIsAFunction(callee) && !LLVMIsDeclaration(callee))
				push_returns(callee, work);
			return;
		}
		find_indirect(s);
		for (int k = 0; k < s->nafn; k++)
			push_returns(s->afn[k], work);
		return;
	}
	if (!LLVMIsAInstruction(v) && !LLVMIsAConstantExpr(v))
		return;
	for (int i = 0; i < LLVMGetNumOperands(v); i++) {
		LLVMValueRef op = LLVMGetOperand(v, (unsigned)i);

		if (LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMIntegerTypeKind)
			values_push(work, op);
	}
}

/* Returns whether integer v is read from memory: a load, or the old value of an atomicrmw. */
static int int_reads_memory(LLVMValueRef v)
{
	return LLVMIsALoadInst(v) || LLVMIsAAtomicRMWInst(v);
}

/* Returns whether the trace cannot tell where integer v takes its bits from: a field of an
 * aggregate or vector, a va_arg, a cast from a non-integer, inline assembly. */
static int int_opaque(LLVMValueRef v)
{
	LLVMValueRef f;

	if (!LLVMIsAInstruction(v))
		return 0;
	switch (LLVMGetInstructionOpcode(v)) {
	case LLVMExtractValue:
	case LLVMExtractElement:
	case LLVMVAArg:
	case LLVMLandingPad:
		return 1;
	case LLVMBitCast:
		return LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(v, 0))) != LLVMIntegerTypeKind;
	case LLVMCall:
	case LLVMInvoke:
		f = LLVMGetCalledValue(v);
		return LLVMIsAInlineAsm(f) != NULL;
	case LLVMPHI:
	case LLVMSelect:
	case LLVMFreeze:
	case LLVMPtrToInt:
	case LLVMLoad:
	case LLVMAtomicRMW:
	case LLVMZExt:
	case LLVMSExt:
	case LLVMTrunc:
		return 0;
	default:
		return !LLVMIsABinaryOperator(v);
	}
}

/* Returns the node of every address the program turns into an integer (every ptrtoint, in
 * instructions and constants), made on first need: what an integer the trace cannot follow
 * may hold. Every object in it collapses. */
static int all_ints(struct solver *s)
{
	if (s->allint >= 0)
		return s->allint;
	s->allint = node_new(s);
	add_cons(s, C_INT, s->allint, -1, -1, 0);
	for (LLVMValueRef g = LLVMGetFirstGlobal(s->mod); g; g = LLVMGetNextGlobal(g)) {
		if (LLVMGetInitializer(g))
			const_addresses(s, LLVMGetInitializer(g), s->allint);
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				int nops = LLVMGetNumOperands(i);

				if (LLVMGetInstructionOpcode(i) == LLVMPtrToInt)
					gen_copy(s, LLVMGetOperand(i, 0), s->allint);
				for (int j = 0; j < nops; j++)
					const_addresses(s, LLVMGetOperand(i, (unsigned)j), s->allint);
			}
		}
	}
	return s->allint;
}

/*
 * Adds to traced (as keys) every integer that integers on work may take their bits from,
 * through integer operations, phis, direct calls' arguments and returns (int_operands), up to
 * ptrtoints, loads and constants; integers narrower than a pointer cannot hold one and end the
 * trace. Sets *memory if a traced integer is a load (its memory may hold an address).
 */
static void trace_ints(struct solver *s, struct values *work, struct ptrmap *traced,
		       struct values *order, int *memory)
{
	while (work->n) {
		LLVMValueRef v = work->v[--work->n];

		if (ptrmap_get(traced, v) >= 0 || LLVMIsAConstantInt(v) || LLVMIsAUndefValue(v) ||
		    !pointer_sized(s, LLVMTypeOf(v)))
			continue;
		ptrmap_put(traced, v, 0);
		values_push(order, v);
		if (int_reads_memory(v))
			*memory = 1;
		else if (!is_ptrtoint(v) && !int_opaque(v))
			int_operands(s, v, work);
	}
}

/* Returns whether integer v is computed by arithmetic (which may move an address anywhere in
 * its object), not only converted, copied or passed on. */
static int int_arithmetic(LLVMValueRef v)
{
	if (LLVMIsAInstruction(v)) {
		switch (LLVMGetInstructionOpcode(v)) {
		case LLVMPtrToInt:
		case LLVMZExt:
		case LLVMSExt:
		case LLVMTrunc:
		case LLVMBitCast:
		case LLVMPHI:
		case LLVMSelect:
		case LLVMFreeze:
		case LLVMLoad:
		case LLVMCall:
		case LLVMInvoke:
			return 0;
		default:
			return 1;
		}
	}
	if (LLVMIsAConstantExpr(v)) {
		switch (LLVMGetConstOpcode(v)) {
		case LLVMPtrToInt:
		case LLVMZExt:
		case LLVMSExt:
		case LLVMTrunc:
		case LLVMBitCast:
			return 0;
		default:
			return 1;
		}
	}
	return 0;
}

/* Returns the node of traced integer v: the pointers its bits may hold. */
static int carrier(struct solver *s, LLVMValueRef v)
{
	int n = ptrmap_get(&s->carriers, v);

	if (n < 0) {
		n = node_new(s);
		ptrmap_put(&s->carriers, v, n);
	}
	return n;
}

/* Wires traced integer v's node: a ptrtoint's pointer, a load's memory, the nodes of the
 * traced integers it takes its bits from; arithmetic collapses every object in it. */
static void wire_int(struct solver *s, LLVMValueRef v, const struct ptrmap *traced)
{
	struct values ops = {0};
	int c = carrier(s, v), p;

	if (is_ptrtoint(v)) {
		gen_copy(s, LLVMGetOperand(v, 0), c);
		return;
	}
	if (int_reads_memory(v)) {
		p = value_node(s, LLVMGetOperand(v, 0));
		if (p >= 0)
			add_cons(s, C_LOAD, p, c, -1, 0);
		return;
	}
	if (int_opaque(v)) {
		add_edge(s, all_ints(s), c);
		return;
	}
	int_operands(s, v, &ops);
	for (int i = 0; i < ops.n; i++) {
		if (ptrmap_get(traced, ops.v[i]) >= 0)
			add_edge(s, carrier(s, ops.v[i]), c);
	}
	if (int_arithmetic(v))
		add_cons(s, C_INT, c, -1, -1, 0);
	free(ops.v);
}

/* Stores in the cells of object o, at byte off, the addresses ptrtoint constant expressions
 * inside constant c put in its pointer-sized integers (arithmetic on them collapses). */
static void int_init(struct solver *s, int o, int64_t off, LLVMValueRef c)
{
	LLVMTypeRef t = LLVMTypeOf(c);
	unsigned n;

	if (LLVMIsAConstantStruct(c)) {
		n = (unsigned)LLVMGetNumOperands(c);
		for (unsigned i = 0; i < n; i++)
			int_init(s, o, off + (int64_t)LLVMOffsetOfElement(s->td, t, i), LLVMGetOperand(c, i));
	} else if (LLVMIsAConstantArray(c) || LLVMIsAConstantVector(c)) {
		int64_t es = (int64_t)type_size(s->td, LLVMGetElementType(t));

		n = (unsigned)LLVMGetNumOperands(c);
		for (unsigned i = 0; i < n; i++)
			int_init(s, o, off + (int64_t)i * es, LLVMGetOperand(c, i));
	} else if (LLVMIsAConstantExpr(c) && pointer_sized(s, t) && const_ptrtoint(c)) {
		struct ptrmap traced = {0};
		struct values work = {0}, order = {0};
		int memory = 0;

		values_push(&work, c);
		trace_ints(s, &work, &traced, &order, &memory);
		for (int i = 0; i < order.n; i++)
			wire_int(s, order.v[i], &traced);
		add_edge(s, carrier(s, c), cell_of(s, o, off));
		free(work.v);
		free(order.v);
		ptrmap_release(&traced);
	}
}

/* Returns the pointer-sized integer instruction i writes to memory (a store, an atomicrmw,
 * a cmpxchg's new value), or NULL. */
static LLVMValueRef int_stored(struct solver *s, LLVMValueRef i)
{
	LLVMValueRef v;

	if (LLVMIsAStoreInst(i))
		v = LLVMGetOperand(i, 0);
	else if (LLVMIsAAtomicRMWInst(i))
		v = LLVMGetOperand(i, 1);
	else if (LLVMIsAAtomicCmpXchgInst(i))
		v = LLVMGetOperand(i, 2);
	else
		return NULL;
	return pointer_sized(s, LLVMTypeOf(v)) ? v : NULL;
}

/* Pushes on args, in pairs, each pointer-sized integer call passes in the "..." of fn (if a
 * defined variadic function) and fn. */
static void push_varargs(struct solver *s, LLVMValueRef call, LLVMValueRef fn, struct values *args)
{
	unsigned n = (unsigned)LLVMGetNumArgOperands(call);

	if (LLVMIsDeclaration(fn) || !LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))
		return;
	for (unsigned j = LLVMCountParams(fn); j < n; j++) {
		if (pointer_sized(s, LLVMTypeOf(LLVMGetOperand(call, j)))) {
			values_push(args, LLVMGetOperand(call, j));
			values_push(args, fn);
		}
	}
}

/* Pushes on args, in pairs, every pointer-sized integer passed in the "..." of a defined
 * variadic function and that function (every address-taken one, for an indirect call): the
 * value goes to the function's argument area, where va_arg reads it. */
static void int_varargs(struct solver *s, struct values *args)
{
	find_indirect(s);
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				LLVMValueRef callee;

				if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
					continue;
				callee = strip_callee(LLVMGetCalledValue(i));
				if (LLVMIsAFunction(callee))
					push_varargs(s, i, callee, args);
				else if (!LLVMIsAInlineAsm(callee))
					for (int k = 0; k < s->nafn; k++)
						push_varargs(s, i, s->afn[k], args);
			}
		}
	}
}

/* Pushes on stores every instruction that writes a pointer-sized integer to memory. */
static void int_stores(struct solver *s, struct values *stores)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				if (int_stored(s, i))
					values_push(stores, i);
			}
		}
	}
}

/*
 * Integers that become pointers: each inttoptr points to what its integer may hold, traced
 * back (trace_ints) to ptrtoints, whose pointers it gets, and to loads of pointer-sized
 * integers, which read the pointers in their memory (a pointer stored as a pointer and read
 * back as an integer); arithmetic on the way collapses the objects. If some inttoptr reads
 * memory that way, integers are followed through memory too: every store of a pointer-sized
 * integer puts the pointers its value may hold in its memory, and so do constant initializers
 * holding ptrtoints.
 */
static void gen_int_sources(struct solver *s)
{
	struct ptrmap traced = {0};
	struct values work = {0}, order = {0}, stores = {0}, args = {0};
	int memory = 0;

	if (!s->nintsrc)
		return;
	for (int i = 0; i < s->nintsrc; i++)
		values_push(&work, s->intsrc[i]);
	trace_ints(s, &work, &traced, &order, &memory);
	if (memory) {
		int_stores(s, &stores);
		int_varargs(s, &args);
		for (int i = 0; i < stores.n; i++)
			values_push(&work, int_stored(s, stores.v[i]));
		for (int i = 0; i < args.n; i += 2)
			values_push(&work, args.v[i]);
		trace_ints(s, &work, &traced, &order, &memory);
	}
	for (int i = 0; i < order.n; i++)
		wire_int(s, order.v[i], &traced);
	for (int i = 0; i < s->nintsrc; i++) {
		if (ptrmap_get(&traced, s->intsrc[i]) >= 0)
			add_edge(s, carrier(s, s->intsrc[i]), s->intdst[i]);
	}
	for (int i = 0; i < stores.n; i++) {
		LLVMValueRef v = int_stored(s, stores.v[i]);
		int p = value_node(s, LLVMGetOperand(stores.v[i], LLVMIsAStoreInst(stores.v[i]) ? 1 : 0));

		if (p >= 0 && ptrmap_get(&traced, v) >= 0)
			add_cons(s, C_STORE, p, carrier(s, v), -1, 0);
	}
	for (int i = 0; i < args.n; i += 2) {
		if (ptrmap_get(&traced, args.v[i]) >= 0)
			add_edge(s, carrier(s, args.v[i]), va_cell(s, args.v[i + 1]));
	}
	for (LLVMValueRef g = LLVMGetFirstGlobal(s->mod); memory && g; g = LLVMGetNextGlobal(g)) {
		if (LLVMGetInitializer(g))
			int_init(s, ptrmap_get(&s->objects, g), 0, LLVMGetInitializer(g));
	}
	free(work.v);
	free(order.v);
	free(stores.v);
	free(args.v);
	ptrmap_release(&traced);
}

/* Records the variable of an llvm.dbg.declare call, for the name of the alloca it describes. */
static void record_declare(struct solver *s, LLVMValueRef call)
{
	if (strcmp(name_of(LLVMGetCalledValue(call)), "llvm.dbg.declare") != 0 ||
	    LLVMGetNumOperands(call) < 2)
		return;
	s->decl_var = grow_array(s->decl_var, s->ndecl, &s->capdecl, sizeof *s->decl_var);
	s->decl_var[s->ndecl] = LLVMGetOperand(call, 1);
	ptrmap_put(&s->declared, LLVMGetOperand(call, 0), s->ndecl++);
}

/* Records the variables of llvm.dbg.declare calls. */
static void prescan(struct solver *s)
{
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
			for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
				if (LLVMIsACallInst(i) && is_debug_call(i))
					record_declare(s, i);
			}
		}
	}
}

/* Returns whether GEP g (instruction or constant expression) moves its pointer nowhere. */
static int gep_is_zero(LLVMValueRef g)
{
	unsigned n = LLVMGetNumIndices(g);

	for (unsigned i = 0; i < n; i++) {
		LLVMValueRef idx = LLVMGetOperand(g, i + 1);

		if (!LLVMIsAConstantInt(idx) || LLVMConstIntGetZExtValue(idx) != 0)
			return 0;
	}
	return 1;
}

/* Returns whether every index of GEP g is a constant integer. */
static int gep_is_constant(LLVMValueRef g)
{
	unsigned n = LLVMGetNumIndices(g);

	for (unsigned i = 0; i < n; i++) {
		if (!LLVMIsAConstantInt(LLVMGetOperand(g, i + 1)))
			return 0;
	}
	return 1;
}

/* Notes the type a pointer of type t views w's fresh object as (i8 views nothing). */
static void wrapper_view(struct wrapper *w, LLVMTypeRef t)
{
	LLVMTypeRef e;

	if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
		return;
	e = LLVMGetElementType(t);
	if (e == LLVMInt8TypeInContext(LLVMGetTypeContext(t)))
		return;
	if (w->view && w->view != e)
		w->conflict = 1;
	w->view = e;
}

/* Returns whether call makes a fresh object on every run: an EXT_ALLOC library function that
 * returns nothing else, or wrapper inner (*inner set to its index, else -1). */
static int allocating_call(struct solver *s, LLVMValueRef call, int *inner)
{
	LLVMValueRef f = strip_callee(LLVMGetCalledValue(call));
	const struct extfn *m;

	*inner = -1;
	if (!LLVMIsAFunction(f))
		return 0;
	if (!LLVMIsDeclaration(f)) {
		*inner = ptrmap_get(&s->wrapmap, f);
		return *inner >= 0;
	}
	m = extmodel_find(name_of(f));
	return m && (m->flags & EXT_ALLOC) && !(m->flags & (EXT_REALLOC | EXT_STATIC | EXT_RET_WORLD)) &&
	       m->ret_arg < 0;
}

/* Pushes the values phi or select v chooses among. */
static void push_merged(LLVMValueRef v, struct values *work)
{
	if (LLVMIsAPHINode(v)) {
		for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
			values_push(work, LLVMGetIncomingValue(v, i));
		return;
	}
	values_push(work, LLVMGetOperand(v, 1));
	values_push(work, LLVMGetOperand(v, 2));
}

/*
 * Returns whether fn is an allocation wrapper, describing it in *w (its allocating calls
 * pushed on s->leaf): every value its returns may give, followed back through casts, GEPs,
 * phis and selects, is null, undef or an allocating call of fn itself. Such a call's result
 * is the object that run of fn made, whatever else fn does with it (stores of it elsewhere
 * point to every object the call may make).
 */
static int find_wrapper(struct solver *s, LLVMValueRef fn, struct wrapper *w)
{
	struct values work = {0};
	struct ptrmap seen = {0};
	int ok = 1, inner;

	memset(w, 0, sizeof *w);
	w->leaves = s->nleaf;
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(b);

		if (t && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) > 0)
			values_push(&work, LLVMGetOperand(t, 0));
	}
	while (ok && work.n) {
		LLVMValueRef v = work.v[--work.n];

		if (ptrmap_get(&seen, v) >= 0)
			continue;
		ptrmap_put(&seen, v, 0);
		if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
			continue;
		if (!LLVMIsAInstruction(v) && !(LLVMIsAConstantExpr(v) &&
						 (LLVMGetConstOpcode(v) == LLVMBitCast ||
						  LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))) {
			ok = 0;
			break;
		}
		wrapper_view(w, LLVMTypeOf(v));
		for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
			if (LLVMIsABitCastInst(LLVMGetUser(u)))
				wrapper_view(w, LLVMTypeOf(LLVMGetUser(u)));
		}
		if (LLVMIsAConstantExpr(v)) {
			values_push(&work, LLVMGetOperand(v, 0));
			continue;
		}
		switch (LLVMGetInstructionOpcode(v)) {
		case LLVMBitCast:
		case LLVMAddrSpaceCast:
			values_push(&work, LLVMGetOperand(v, 0));
			break;
		case LLVMGetElementPtr:
			w->shifted |= !gep_is_zero(v);
			values_push(&work, LLVMGetOperand(v, 0));
			break;
		case LLVMPHI:
		case LLVMSelect:
			push_merged(v, &work);
			break;
		case LLVMCall:
		case LLVMInvoke:
			ok = allocating_call(s, v, &inner);
			if (!ok)
				break;
			if (inner >= 0) {
				w->shifted |= s->wraps[inner].shifted;
				w->conflict |= s->wraps[inner].conflict;
				if (s->wraps[inner].view)
					wrapper_view(w, LLVMPointerType(s->wraps[inner].view, 0));
			}
			s->leaf = grow_array(s->leaf, s->nleaf, &s->capleaf, sizeof *s->leaf);
			s->leaf[s->nleaf++] = v;
			break;
		default:
			ok = 0;
			break;
		}
	}
	w->nleaves = s->nleaf - w->leaves;
	if (!ok || !w->nleaves)
		s->nleaf = w->leaves;
	free(work.v);
	ptrmap_release(&seen);
	return ok && w->nleaves;
}

/* Returns whether integer v is, through integer operations, phis, selects and calls' arguments
 * (at most depth steps back), computed from an integer parameter of fn. */
static int from_parameter(LLVMValueRef v, LLVMValueRef fn, int depth)
{
	int n;

	if (LLVMIsAArgument(v))
		return LLVMGetParamParent(v) == fn &&
		       LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind;
	if (!LLVMIsAInstruction(v) || depth == 0 || LLVMIsALoadInst(v) || LLVMIsAAllocaInst(v))
		return 0;
	n = LLVMGetNumOperands(v) - (LLVMIsACallInst(v) ? 1 : 0);
	for (int i = 0; i < n; i++) {
		LLVMValueRef op = LLVMGetOperand(v, (unsigned)i);

		if (LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMIntegerTypeKind &&
		    from_parameter(op, fn, depth - 1))
			return 1;
	}
	return 0;
}

/* Returns whether fn stores an integer computed from one of its integer parameters (a bump
 * allocator's count of bytes used or left moved by the size asked for). */
static int stores_a_size(LLVMValueRef fn)
{
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
			LLVMValueRef v;

			if (!LLVMIsAStoreInst(i))
				continue;
			v = LLVMGetOperand(i, 0);
			if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMIntegerTypeKind && from_parameter(v, fn, 8))
				return 1;
		}
	}
	return 0;
}

/* Returns whether a piece v of a block (a bump's GEP) and every pointer made from it by casts,
 * GEPs, phis and selects reach nothing but returns, comparisons and ptrtoints: fn hands the
 * piece out without reading or writing it or keeping it anywhere. */
static int piece_only_returned(LLVMValueRef v, struct ptrmap *seen)
{
	if (ptrmap_get(seen, v) >= 0)
		return 1;
	ptrmap_put(seen, v, 0);
	for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);

		if (LLVMIsAReturnInst(user) || LLVMIsAICmpInst(user) || LLVMIsAPtrToIntInst(user))
			continue;
		if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) != v)
			return 0; /* v as an index */
		if (LLVMIsASelectInst(user) && LLVMGetOperand(user, 0) == v)
			return 0;
		if (!(LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
		      LLVMIsAGetElementPtrInst(user) || LLVMIsAPHINode(user) || LLVMIsASelectInst(user)) ||
		    !piece_only_returned(user, seen))
			return 0;
	}
	return 1;
}

/* Pops work's values to the first not in seen (which it enters there), past null and undef;
 * returns it, or NULL when none is left. */
static LLVMValueRef next_unseen(struct values *work, struct ptrmap *seen)
{
	while (work->n) {
		LLVMValueRef v = work->v[--work->n];

		if (ptrmap_get(seen, v) >= 0 || LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
			continue;
		ptrmap_put(seen, v, 0);
		return v;
	}
	return NULL;
}

/* Pushes on work the values v passes on when it is a cast, a phi, a select or, with
 * through_geps, a GEP; returns whether it is one of those. */
static int push_back(struct values *work, LLVMValueRef v, int through_geps)
{
	if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v) ||
	    (through_geps && LLVMIsAGetElementPtrInst(v))) {
		values_push(work, LLVMGetOperand(v, 0));
	} else if (LLVMIsAPHINode(v)) {
		for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
			values_push(work, LLVMGetIncomingValue(v, i));
	} else if (LLVMIsASelectInst(v)) {
		values_push(work, LLVMGetOperand(v, 1));
		values_push(work, LLVMGetOperand(v, 2));
	} else {
		return 0;
	}
	return 1;
}

/*
 * Returns whether fn is a bump allocator (libjpeg's alloc_small, an arena's alloc): each value
 * its returns may give is null, undef or, back through casts, phis and selects, a GEP with a
 * variable offset (the bump) that fn hands out untouched (piece_only_returned); the GEPs' bases
 * are, back through casts, GEPs, phis and selects, blocks it loads from memory (kept from an
 * earlier call) or allocates (an allocating call of its own, at least one); and it stores a
 * size computed from its parameters (the bump's count). Each call then returns a piece no
 * other call returned, and since fn neither reads nor writes the piece, the piece is the call
 * site's own object (wrapper_result) while fn's loads and stores reach its blocks' headers
 * only. A lookup that makes its table on first use (&table[hash]) also returns a varying
 * piece of a block it keeps, but stores no size: two calls may return the same piece.
 */
static int find_pool(struct solver *s, LLVMValueRef fn, struct wrapper *w)
{
	struct values work = {0}, bumps = {0};
	struct ptrmap seen = {0}, used = {0};
	int ok = 1, allocates = 0, inner;
	LLVMValueRef v;

	memset(w, 0, sizeof *w);
	w->leaves = s->nleaf;
	w->pool = 1;
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		LLVMValueRef t = LLVMGetBasicBlockTerminator(b);

		if (t && LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) > 0)
			values_push(&work, LLVMGetOperand(t, 0));
	}
	while (ok && (v = next_unseen(&work, &seen))) { /* from the returns back to the bumps */
		if (push_back(&work, v, 0))
			continue;
		if (LLVMIsAGetElementPtrInst(v) && !gep_is_constant(v))
			values_push(&bumps, v);
		else
			ok = 0;
	}
	for (int i = 0; ok && i < bumps.n; i++) {
		ok = piece_only_returned(bumps.v[i], &used);
		values_push(&work, LLVMGetOperand(bumps.v[i], 0));
	}
	while (ok && (v = next_unseen(&work, &seen))) { /* from the bumps back to the blocks */
		if (push_back(&work, v, 1))
			continue;
		if ((LLVMIsACallInst(v) || LLVMIsAInvokeInst(v)) && allocating_call(s, v, &inner))
			allocates = 1;
		else
			ok = LLVMIsALoadInst(v) != NULL;
	}
	ok = ok && bumps.n && allocates && stores_a_size(fn);
	free(work.v);
	free(bumps.v);
	ptrmap_release(&seen);
	ptrmap_release(&used);
	return ok;
}

/* Returns whether every value v may be, followed back through casts, GEPs, phis and selects,
 * is null, undef or a call; pushes the calls on *calls. */
static int from_calls(LLVMValueRef v, struct values *calls)
{
	struct values work = {0};
	struct ptrmap seen = {0};
	int ok = 1;

	values_push(&work, v);
	while (ok && work.n) {
		v = work.v[--work.n];
		if (ptrmap_get(&seen, v) >= 0 || LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
			continue;
		ptrmap_put(&seen, v, 0);
		if (!LLVMIsAInstruction(v)) {
			ok = 0;
			break;
		}
		switch (LLVMGetInstructionOpcode(v)) {
		case LLVMBitCast:
		case LLVMAddrSpaceCast:
		case LLVMGetElementPtr:
			values_push(&work, LLVMGetOperand(v, 0));
			break;
		case LLVMPHI:
		case LLVMSelect:
			push_merged(v, &work);
			break;
		case LLVMCall:
		case LLVMInvoke:
			values_push(calls, v);
			break;
		default:
			ok = 0;
			break;
		}
	}
	free(work.v);
	ptrmap_release(&seen);
	return ok;
}

/* Returns whether call is one of wrapper w's allocating calls from leaf[from .. from + n). */
static int is_leaf(const struct solver *s, LLVMValueRef call, int from, int n)
{
	for (int i = 0; i < n; i++) {
		if (s->leaf[from + i] == call)
			return 1;
	}
	return 0;
}

/* Returns whether store (in wrapper w) stores a pointer that comes, through SSA values only,
 * from w's allocating calls that are not its leaves, into what comes from its leaves only:
 * in a run of w, the fresh objects of that run into the object that run returns. Pushes the
 * store's allocating calls on *inner. */
static int run_store(struct solver *s, int w, LLVMValueRef store, struct values *inner)
{
	const struct wrapper *wr = &s->wraps[w];
	LLVMValueRef val = LLVMGetOperand(store, 0);
	struct values calls = {0};
	int ok, dummy;

	if (LLVMGetTypeKind(LLVMTypeOf(val)) != LLVMPointerTypeKind)
		return 0;
	ok = from_calls(LLVMGetOperand(store, 1), &calls) && calls.n;
	for (int i = 0; ok && i < calls.n; i++)
		ok = is_leaf(s, calls.v[i], wr->leaves, wr->nleaves);
	calls.n = 0;
	ok = ok && from_calls(val, &calls) && calls.n;
	for (int i = 0; ok && i < calls.n; i++) {
		ok = !is_leaf(s, calls.v[i], wr->leaves, wr->nleaves) &&
		     allocating_call(s, calls.v[i], &dummy);
	}
	for (int i = 0; ok && i < calls.n; i++)
		values_push(inner, calls.v[i]);
	free(calls.v);
	return ok;
}

/* Finds the stores of wrapper w (function fn) that run_store describes, and its allocating
 * calls they store (w's inner calls, leaf[inner .. inner + ninner)). */
static void find_run_stores(struct solver *s, LLVMValueRef fn, int w)
{
	struct values inner = {0};

	s->wraps[w].inner = s->nleaf;
	for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b)) {
		for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
			inner.n = 0;
			if (!LLVMIsAStoreInst(i) || !run_store(s, w, i, &inner))
				continue;
			ptrmap_put(&s->runstores, i, w);
			for (int j = 0; j < inner.n; j++) {
				if (is_leaf(s, inner.v[j], s->wraps[w].inner, s->nleaf - s->wraps[w].inner))
					continue;
				s->leaf = grow_array(s->leaf, s->nleaf, &s->capleaf, sizeof *s->leaf);
				s->leaf[s->nleaf++] = inner.v[j];
			}
		}
	}
	s->wraps[w].ninner = s->nleaf - s->wraps[w].inner;
	free(inner.v);
}

/* Finds the allocation wrappers and bump allocators, those calling only ones found before
 * them included (a wrapper of wrappers is found once they are; recursion never makes one),
 * then the wrappers' stores of their other fresh objects into what they return. */
static void find_wrappers(struct solver *s)
{
	for (int found = 1; found;) {
		found = 0;
		for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
			struct wrapper w;

			if (LLVMIsDeclaration(f) || ptrmap_get(&s->wrapmap, f) >= 0 ||
			    LLVMGetTypeKind(LLVMGetReturnType(LLVMGlobalGetValueType(f))) != LLVMPointerTypeKind ||
			    (!find_wrapper(s, f, &w) && !find_pool(s, f, &w)))
				continue;
			s->wraps = grow_array(s->wraps, s->nwraps, &s->capwraps, sizeof *s->wraps);
			s->wraps[s->nwraps] = w;
			ptrmap_put(&s->wrapmap, f, s->nwraps++);
			found = 1;
		}
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f)) {
		int w = ptrmap_get(&s->wrapmap, f);

		if (w >= 0 && !s->wraps[w].pool)
			find_run_stores(s, f, w);
	}
}

/* Makes the objects of globals, functions, streams and unknown code, and the special nodes.
 * Read-only globals without pointers (string literals, constant tables) share one object:
 * nothing writes them, so which one a pointer reaches does not matter to dependences, and
 * large programs' sets shrink by thousands of strings. */
static void setup(struct solver *s)
{
	static const char *stream_names[EXT_NSTREAMS] = {NULL, "stdin", "stdout", "files", "rand"};
	int constants = -1;

	for (LLVMValueRef g = LLVMGetFirstGlobal(s->mod); g; g = LLVMGetNextGlobal(g)) {
		LLVMTypeRef t = LLVMGlobalGetValueType(g);

		if (LLVMIsDeclaration(g) || !LLVMIsGlobalConstant(g) || has_ptr(&s->types, t)) {
			ptrmap_put(&s->objects, g,
				   obj_new(s, PTA_GLOBAL, g, xasprintf("@%s", name_of(g)), t, 0, 0));
			continue;
		}
		if (constants < 0)
			constants = obj_new(s, PTA_GLOBAL, NULL, xstrdup("constants"), NULL, 0, 1);
		ptrmap_put(&s->objects, g, constants);
	}
	for (LLVMValueRef f = LLVMGetFirstFunction(s->mod); f; f = LLVMGetNextFunction(f))
		ptrmap_put(&s->objects, f, obj_new(s, PTA_FUNCTION, f, xasprintf("@%s", name_of(f)),
						   NULL, 0, 1));
	s->stream[0] = -1;
	for (int i = 1; i < EXT_NSTREAMS; i++)
		s->stream[i] = obj_new(s, PTA_STREAM, NULL, xstrdup(stream_names[i]), NULL, 0, 1);
	s->unknown = obj_new(s, PTA_UNKNOWN, NULL, xstrdup("unknown"), NULL, 0, 1);
	s->world = node_new(s);
	add_addr(s, s->world, cell_of(s, s->unknown, 0));
	add_cons(s, C_WORLD, s->world, -1, -1, 0);
	prescan(s);
	s->allint = -1;
	find_wrappers(s);
}

/* ---- the result ---------------------------------------------------------------------------- */

/* What the queries read, kept from the solver. */
struct pta_private {
	struct sets locsets;         /* sets of location ids */
	struct ptrmap value_set;     /* value -> its location set */
	int *content;                /* per location: the set of locations it may point to; owned */
	int escaped;                 /* the set of escaped locations */
	struct ptrmap call_list;     /* indirect call -> its entry in list_start and list_n */
	int *list_start;             /* per indirect call: its first callee in callees; owned */
	int *list_n;                 /* per indirect call: its callees; owned */
	unsigned char *list_unknown; /* per indirect call: may call unknown code; owned */
	LLVMValueRef *callees;       /* the callee lists, back to back; owned */
	struct ptrmap objects;       /* global or function -> its object */
	LLVMValueRef *site;          /* per object: its site (a direct call's callee list); owned */
	struct shape *shape;         /* per object: its final layout; owned */
	LLVMTargetDataRef td;        /* the module's data layout; owned */
	struct sets derived;         /* sets computed by queries (locsets stays unchanged) */
	struct u64map access_memo;   /* (location set, access size) -> derived set it touches */
	struct u64map reach_memo;    /* location set -> derived set reachable from it */
	int *loc_mark;               /* per location: the query stamp that last appended it; owned */
	int *obj_mark;               /* per object: the query stamp that last visited it; owned */
	int stamp;                   /* the current query's stamp */
};

/* A cell and its offset, to sort an object's cells. */
struct cellpos {
	uint64_t off; /* canonical offset */
	int cell;     /* cell node */
};

/* qsort order of cells by offset. */
static int compare_cellpos(const void *a, const void *b)
{
	const struct cellpos *x = a, *y = b;

	return (x->off > y->off) - (x->off < y->off);
}

/* Makes the objects' locations: one per cell left after merges, by offset (at least one per
 * object); sets loc_of[c] for every cell node c. */
static void make_locations(struct solver *s, struct pta *pta, int *loc_of)
{
	struct cellpos *pos = NULL;
	int cap = 0;

	pta->nobjs = s->nobjs;
	pta->obj = xcalloc((size_t)s->nobjs, sizeof *pta->obj);
	pta->loc = xmalloc(sizeof *pta->loc * ((size_t)s->nobjs + (size_t)s->nn));
	for (int o = 0; o < s->nobjs; o++) {
		struct sobj *so = &s->obj[o];
		int n = 0;

		if (cap < so->cells.n) {
			cap = so->cells.n;
			pos = xrealloc(pos, sizeof *pos * (size_t)cap);
		}
		for (int i = 0; i < so->cells.n; i++) {
			int c = so->cells.v[i];

			if (s->cpar[c] == c)
				pos[n++] = (struct cellpos){s->coff[c], c};
		}
		if (n > 1)
			qsort(pos, (size_t)n, sizeof *pos, compare_cellpos);
		pta->obj[o] = (struct pta_object){so->kind, so->site, so->name, so->sh.size,
						  so->sh.collapsed, pta->nlocs, n ? n : 1};
		so->name = NULL;
		for (int i = 0; i < n; i++) {
			loc_of[pos[i].cell] = pta->nlocs;
			pta->loc[pta->nlocs++] = (struct pta_loc){o, pos[i].off};
		}
		if (!n)
			pta->loc[pta->nlocs++] = (struct pta_loc){o, 0};
	}
	free(pos);
	for (int c = 0; c < s->nn; c++) {
		if (s->cobj[c] >= 0)
			loc_of[c] = loc_of[cell_find(s, c)];
	}
}

/* Returns the location set of solver set id (memoized in memo). */
static int map_set(struct solver *s, struct pta_private *pv, int *memo, const int *loc_of, int id)
{
	int n = s->sets.len[id], m = 0;
	const int *e = set_elems(&s->sets, id);
	int *v;

	if (memo[id] >= 0)
		return memo[id];
	v = xmalloc(sizeof *v * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		if (loc_of[e[i]] >= 0)
			v[m++] = loc_of[e[i]];
	}
	memo[id] = sets_of(&pv->locsets, v, m);
	free(v);
	return memo[id];
}

/* Returns whether fn can be the target of call site k: its parameter count fits. */
static int callee_fits(const struct solver *s, int k, LLVMValueRef fn)
{
	int np = (int)LLVMCountParams(fn), nargs = s->sites[k].nargs;

	return (nargs == np || (nargs > np && LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn)))) &&
	       shape_fits(s->sites[k].call, fn);
}

/* The callee lists of indirect calls. */
static void make_callees(struct solver *s, struct pta_private *pv)
{
	int ncalls = 0, total = 0;

	pv->list_start = xmalloc(sizeof *pv->list_start * (size_t)(s->nsites + 1));
	pv->list_n = xmalloc(sizeof *pv->list_n * (size_t)(s->nsites + 1));
	pv->list_unknown = xcalloc((size_t)s->nsites + 1, 1);
	for (int k = 0; k < s->nsites; k++) {
		int id, n;

		if (s->sites[k].callee < 0)
			continue;
		id = s->pts[find(s, s->sites[k].callee)];
		n = s->sets.len[id];
		pv->callees = xrealloc(pv->callees, sizeof *pv->callees * (size_t)(total + n + 1));
		pv->list_start[ncalls] = total;
		for (int i = 0; i < n; i++) {
			int o = s->cobj[cell_find(s, set_elems(&s->sets, id)[i])];
			LLVMValueRef fn = s->obj[o].site;

			if (s->obj[o].kind == PTA_FUNCTION && callee_fits(s, k, fn))
				pv->callees[total++] = fn;
			else if (o == s->unknown)
				pv->list_unknown[ncalls] = 1;
		}
		pv->list_n[ncalls] = total - pv->list_start[ncalls];
		ptrmap_put(&pv->call_list, s->sites[k].call, ncalls++);
	}
}

/* Fills pta from the solved state. */
static void finish(struct solver *s, struct pta *pta)
{
	struct pta_private *pv = xcalloc(1, sizeof *pv);
	int *loc_of = xmalloc(sizeof *loc_of * (size_t)(s->nn ? s->nn : 1));
	int *memo = xmalloc(sizeof *memo * (size_t)s->sets.n);
	struct intvec esc = {0};

	memset(loc_of, 0xff, sizeof *loc_of * (size_t)s->nn);
	memset(memo, 0xff, sizeof *memo * (size_t)s->sets.n);
	sets_init(&pv->locsets);
	sets_init(&pv->derived);
	make_locations(s, pta, loc_of);
	for (size_t i = 0; i < s->values.cap; i++) {
		if (s->values.key[i])
			ptrmap_put(&pv->value_set, s->values.key[i],
				   map_set(s, pv, memo, loc_of, s->pts[find(s, s->values.val[i])]));
	}
	pv->content = xcalloc((size_t)pta->nlocs, sizeof *pv->content);
	for (int c = 0; c < s->nn; c++) {
		if (s->cobj[c] >= 0 && s->cpar[c] == c)
			pv->content[loc_of[c]] = map_set(s, pv, memo, loc_of, s->pts[find(s, c)]);
	}
	pv->shape = xmalloc(sizeof *pv->shape * (size_t)s->nobjs);
	pv->site = xmalloc(sizeof *pv->site * (size_t)s->nobjs);
	for (int o = 0; o < s->nobjs; o++) {
		pv->shape[o] = s->obj[o].sh;
		pv->site[o] = s->obj[o].site;
		for (int l = 0; s->obj[o].escaped && l < pta->obj[o].nlocs; l++)
			intvec_push(&esc, pta->obj[o].first_loc + l);
	}
	pv->escaped = sets_of(&pv->locsets, esc.v, esc.n);
	make_callees(s, pv);
	pv->objects = s->objects;
	memset(&s->objects, 0, sizeof s->objects);
	pv->td = s->td;
	s->td = NULL;
	pv->loc_mark = xcalloc((size_t)pta->nlocs, sizeof *pv->loc_mark);
	pv->obj_mark = xcalloc((size_t)pta->nobjs, sizeof *pv->obj_mark);
	for (int i = 0; i < EXT_NSTREAMS; i++)
		pta->stream_loc[i] = s->stream[i] >= 0 ? pta->obj[s->stream[i]].first_loc : -1;
	pta->priv = pv;
	intvec_release(&esc);
	free(memo);
	free(loc_of);
}

/* Frees what the solver owns (object names already moved out stay NULL). */
static void solver_release(struct solver *s)
{
	for (int n = 0; n < s->nn; n++) {
		intvec_release(&s->succ[n]);
		intvec_release(&s->cons[n]);
	}
	for (int o = 0; o < s->nobjs; o++) {
		free(s->obj[o].name);
		intvec_release(&s->obj[o].cells);
		intvec_release(&s->obj[o].watchers);
	}
	free(s->parent);
	free(s->pts);
	free(s->old);
	free(s->succ);
	free(s->cons);
	free(s->inq);
	free(s->dirty);
	free(s->cobj);
	free(s->coff);
	free(s->cpar);
	free(s->dfn);
	free(s->low);
	free(s->seen);
	free(s->obj);
	free(s->c);
	for (int k = 0; k < s->ncopies; k++) {
		intvec_release(&s->copies[k].dist);
		intvec_release(&s->copies[k].via);
	}
	free(s->copies);
	free(s->geps);
	free(s->vars);
	free(s->sites);
	free(s->decl_var);
	free(s->intsrc);
	free(s->intdst);
	free(s->icall);
	free(s->afn);
	ptrmap_release(&s->afnset);
	ptrmap_release(&s->carriers);
	free(s->wraps);
	free(s->leaf);
	ptrmap_release(&s->wrapmap);
	u64map_release(&s->clones);
	u64map_release(&s->cloned);
	ptrmap_release(&s->runstores);
	u64map_release(&s->runs);
	u64map_release(&s->runnodes);
	intvec_release(&s->queue);
	intvec_release(&s->merges);
	intvec_release(&s->reruns);
	intvec_release(&s->argpool);
	u64map_release(&s->cellmap);
	u64map_release(&s->edges);
	u64map_release(&s->lcd);
	u64map_release(&s->wired);
	u64map_release(&s->watching);
	u64map_release(&s->vias);
	u64map_release(&s->steps);
	u64map_release(&s->gephash);
	u64map_release(&s->gepmemo);
	ptrmap_release(&s->values);
	ptrmap_release(&s->objects);
	ptrmap_release(&s->fnret);
	ptrmap_release(&s->vararea);
	ptrmap_release(&s->vanode);
	ptrmap_release(&s->statics);
	ptrmap_release(&s->saved);
	ptrmap_release(&s->types);
	ptrmap_release(&s->declared);
	sets_release(&s->sets);
	if (s->td)
		LLVMDisposeTargetData(s->td);
}

int pta_build(struct pta *pta, LLVMModuleRef mod, struct error *err)
{
	struct solver s;

	memset(pta, 0, sizeof *pta);
	if (!mod)
		return error_set(err, "points-to analysis: no module");
	memset(&s, 0, sizeof s);
	s.mod = mod;
	s.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(mod));
	s.gc_at = (size_t)1 << 24;
	sets_init(&s.sets);
	setup(&s);
	gen_globals(&s);
	gen_main_args(&s);
	for (LLVMValueRef f = LLVMGetFirstFunction(mod); f; f = LLVMGetNextFunction(f)) {
		if (!LLVMIsDeclaration(f))
			gen_function(&s, f);
	}
	gen_int_sources(&s);
	solve(&s);
	finish(&s, pta);
	solver_release(&s);
	return 0;
}

/* ---- queries --------------------------------------------------------------------------------- */

int pta_points_to(const struct pta *pta, LLVMValueRef v, const int **locs)
{
	const struct pta_private *pv = pta->priv;
	int id = ptrmap_get(&pv->value_set, v);

	*locs = NULL;
	if (id <= 0)
		return 0;
	*locs = set_elems(&pv->locsets, id);
	return pv->locsets.len[id];
}

/* Appends location l to out unless this query already did; returns 1 if it did now. */
static int append_loc(struct pta_private *pv, int l, struct intvec *out)
{
	if (pv->loc_mark[l] == pv->stamp)
		return 0;
	pv->loc_mark[l] = pv->stamp;
	intvec_push(out, l);
	return 1;
}

/* Appends every location of derived set id to out (once per query); returns how many. */
static int append_set(struct pta_private *pv, int id, struct intvec *out)
{
	const int *e = set_elems(&pv->derived, id);
	int n = pv->derived.len[id], added = 0;

	pv->stamp++;
	for (int i = 0; i < n; i++)
		added += append_loc(pv, e[i], out);
	return added;
}

/* Returns the derived set of what an access of size bytes through a pointer to the locations
 * of set id may touch (memoized: many pointers share a set). */
static int access_set(const struct pta *pta, int id, uint64_t size)
{
	struct pta_private *pv = pta->priv;
	const int *locs = set_elems(&pv->locsets, id);
	int n = pv->locsets.len[id], r = -1;
	struct intvec got = {0};

	if (size <= UINT32_MAX)
		r = u64map_get(&pv->access_memo, (uint64_t)id << 32 | size);
	if (r >= 0)
		return r;
	pv->stamp++;
	for (int i = 0; i < n; i++) {
		const struct pta_loc *p = &pta->loc[locs[i]];
		const struct pta_object *o = &pta->obj[p->obj];

		for (int l = o->first_loc; l < o->first_loc + o->nlocs; l++) {
			uint64_t shift;

			if (touches(pv->td, &pv->shape[p->obj], p->off, size, pta->loc[l].off, &shift))
				append_loc(pv, l, &got);
		}
	}
	r = sets_of(&pv->derived, got.v, got.n);
	intvec_release(&got);
	if (size <= UINT32_MAX)
		u64map_put(&pv->access_memo, (uint64_t)id << 32 | size, r);
	return r;
}

int pta_access(const struct pta *pta, LLVMValueRef ptr, uint64_t size, struct intvec *out)
{
	struct pta_private *pv = pta->priv;
	int id = ptrmap_get(&pv->value_set, ptr);

	return id > 0 ? append_set(pv, access_set(pta, id, size), out) : 0;
}

/* Returns the derived set of the locations reachable from the locations of set id. */
static int reach_set(const struct pta *pta, int id)
{
	struct pta_private *pv = pta->priv;
	struct intvec work = {0}, got = {0};
	const int *locs = set_elems(&pv->locsets, id);
	int n = pv->locsets.len[id], r = u64map_get(&pv->reach_memo, (uint64_t)id);

	if (r >= 0)
		return r;
	pv->stamp++;
	for (int i = 0; i < n; i++) {
		int o = pta->loc[locs[i]].obj;

		if (pv->obj_mark[o] != pv->stamp) {
			pv->obj_mark[o] = pv->stamp;
			intvec_push(&work, o);
		}
	}
	while (work.n) {
		const struct pta_object *o = &pta->obj[work.v[--work.n]];

		for (int l = o->first_loc; l < o->first_loc + o->nlocs; l++) {
			int c = pv->content[l], m = pv->locsets.len[c];
			const int *e = set_elems(&pv->locsets, c);

			intvec_push(&got, l);
			for (int j = 0; j < m; j++) {
				int to = pta->loc[e[j]].obj;

				if (pv->obj_mark[to] != pv->stamp) {
					pv->obj_mark[to] = pv->stamp;
					intvec_push(&work, to);
				}
			}
		}
	}
	r = sets_of(&pv->derived, got.v, got.n);
	u64map_put(&pv->reach_memo, (uint64_t)id, r);
	intvec_release(&work);
	intvec_release(&got);
	return r;
}

int pta_reachable(const struct pta *pta, LLVMValueRef v, struct intvec *out)
{
	struct pta_private *pv = pta->priv;
	int id = ptrmap_get(&pv->value_set, v);

	return id > 0 ? append_set(pv, reach_set(pta, id), out) : 0;
}

int pta_escaped(const struct pta *pta, struct intvec *out)
{
	struct pta_private *pv = pta->priv;
	int n = pv->locsets.len[pv->escaped];
	const int *e = set_elems(&pv->locsets, pv->escaped);
	int added = 0;

	pv->stamp++;
	for (int i = 0; i < n; i++)
		added += append_loc(pv, e[i], out);
	return added;
}

int pta_callees(const struct pta *pta, LLVMValueRef call, LLVMValueRef const **fns)
{
	const struct pta_private *pv = pta->priv;
	int k = ptrmap_get(&pv->call_list, call), o;
	LLVMValueRef target;

	*fns = NULL;
	if (k >= 0) {
		*fns = pv->callees + pv->list_start[k];
		return pv->list_n[k];
	}
	target = strip_callee(LLVMGetCalledValue(call));
	o = LLVMIsAFunction(target) ? ptrmap_get(&pv->objects, target) : -1;
	if (o < 0)
		return 0;
	*fns = &pv->site[o];
	return 1;
}

int pta_calls_unknown(const struct pta *pta, LLVMValueRef call)
{
	int k = ptrmap_get(&pta->priv->call_list, call);

	return k >= 0 && pta->priv->list_unknown[k];
}

void pta_release(struct pta *pta)
{
	struct pta_private *pv = pta->priv;

	for (int o = 0; o < pta->nobjs; o++)
		free(pta->obj[o].name);
	free(pta->obj);
	free(pta->loc);
	if (pv) {
		sets_release(&pv->locsets);
		sets_release(&pv->derived);
		u64map_release(&pv->access_memo);
		u64map_release(&pv->reach_memo);
		ptrmap_release(&pv->value_set);
		ptrmap_release(&pv->call_list);
		ptrmap_release(&pv->objects);
		free(pv->content);
		free(pv->list_start);
		free(pv->list_n);
		free(pv->list_unknown);
		free(pv->callees);
		free(pv->site);
		free(pv->shape);
		free(pv->loc_mark);
		free(pv->obj_mark);
		LLVMDisposeTargetData(pv->td);
		free(pv);
	}
	memset(pta, 0, sizeof *pta);
}
