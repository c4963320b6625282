/*
 * pta.h: field-sensitive, context- and flow-insensitive Andersen points-to analysis of a whole
 * module, with allocation-site heap objects, for the slicer (issue 6).
 *
 * Memory is a set of abstract objects (globals, functions, stack slots, heap allocation sites:
 * the calls of allocating library functions and of the program's allocation wrappers, pseudo
 * objects for streams and for unknown memory); an object is split into locations, one
 * per field start offset that some access or pointer uses. Array elements are merged (every
 * array index, including the first index of a GEP, counts as 0), so a[i].y is one location for
 * every i, the field y of the array's element type; in an object of known type (a global, an
 * alloca, a heap object cast to one type) a constant byte offset finds the field it lands in
 * ((char *)&s + 8 is s's field at 8). An object whose layout is defeated (pointer arithmetic
 * through integers, variable byte offsets that are not array indexing) is collapsed: one
 * location at offset 0. An integer constant cast to a pointer points to no object.
 *
 * Requires: a prepared module (ir_prepare). Invalidated by any change to the module.
 */
#ifndef MANTIS_PTA_H
#define MANTIS_PTA_H

#include <llvm-c/Core.h>
#include <stdint.h>

#include "extmodel.h"
#include "util.h"

struct error;

/* Kinds of abstract objects. */
enum pta_kind {
	PTA_GLOBAL,   /* a global variable (defined or external) */
	PTA_FUNCTION, /* a function (what function pointers point to) */
	PTA_STACK,    /* an alloca */
	PTA_HEAP,     /* a call site that returns fresh memory (malloc, calloc, strdup, fopen...,
			 or an allocation wrapper: a function of the program that returns only
			 what it just allocated, like xmalloc; "xmalloc at a.c:7"; or a bump
			 allocator handing out pieces of its blocks: "alloc_small at jdmaster.c:415") */
	PTA_STREAM,   /* a pseudo object: the stdin or stdout stream, the file system, or the
			 pseudo-random generator's state (see enum ext_stream) */
	PTA_UNKNOWN,  /* memory made or reached by unknown external code */
};

/* An abstract object. */
struct pta_object {
	enum pta_kind kind; /* what it is */
	LLVMValueRef site;  /* the global, function, alloca or allocating call (of the wrapper, for
			       a wrapper's object); NULL for pseudo ones:
			       the streams, "unknown", "argv" (main's argv and envp with their
			       strings), "... of f" (variadic f's arguments, a PTA_STACK object),
			       "strerror's object" (a library function's static buffer, PTA_GLOBAL)
			       and "constants" (every read-only global holding no pointers: string
			       literals and constant tables, one PTA_GLOBAL object, since nothing
			       writes them) */
	char *name;         /* readable: "@count", "%buf in main", "malloc at list.c:12", "stdin"; owned */
	uint64_t size;      /* bytes if known, else 0 */
	int collapsed;      /* all its fields are one location at offset 0 */
	int first_loc;      /* its locations are first_loc .. first_loc + nlocs - 1, by offset */
	int nlocs;          /* at least 1 */
};

/* A location: the field of an object that starts at a byte offset. */
struct pta_loc {
	int obj;      /* the object */
	uint64_t off; /* the field's start offset in bytes (0 when collapsed) */
};

/* The result of the analysis. */
struct pta {
	int nobjs;               /* objects */
	struct pta_object *obj;  /* nobjs objects; owned */
	int nlocs;               /* locations */
	struct pta_loc *loc;     /* nlocs locations, grouped by object, by offset; owned */
	int stream_loc[EXT_NSTREAMS]; /* location of each enum ext_stream's pseudo object
					 (index 0: -1) */
	struct pta_private *priv;     /* solver state kept for the queries below; owned */
};

/*
 * Analyses mod. Library calls follow extmodel.h; unknown external functions are sound (they
 * may read, write and return anything reachable from their arguments and from escaped
 * globals). Returns 0, or -1 with err set (only for IR the analysis cannot handle at all).
 */
int pta_build(struct pta *pta, LLVMModuleRef mod, struct error *err);

/*
 * Returns how many locations the pointer value v (an instruction, argument, global or constant
 * expression of pointer type) may point to, and sets *locs to their ids, sorted and owned by
 * pta. A value that is not a pointer, or only null/undef, gives 0.
 */
int pta_points_to(const struct pta *pta, LLVMValueRef v, const int **locs);

/*
 * Appends to out (no duplicates among what this call adds) the locations an access of size
 * bytes through pointer ptr may touch: for each location p that ptr may point to, every
 * location of p's object whose offset lies in [p.off, p.off + size); size 0 means up to the
 * object's end. An access that runs past the end of an array element (or of a heap object's
 * type, the heap object holding several) also touches every location of the element.
 * Two accesses that may overlap in bytes always share a location. Returns the number appended.
 */
int pta_access(const struct pta *pta, LLVMValueRef ptr, uint64_t size, struct intvec *out);

/*
 * Appends to out every location reachable from pointer v: the objects it points to, entirely,
 * and recursively every object a location of theirs may point to. Returns the number appended.
 */
int pta_reachable(const struct pta *pta, LLVMValueRef v, struct intvec *out);

/*
 * Appends to out every location unknown external code may see (the escaped set: the
 * unknown object, globals declared but not defined in the module (other than stdin, stdout and
 * stderr), every object whose address reaches an unknown function, and what they point to,
 * recursively). A global the module defines is not escaped just for having external linkage:
 * the module is the whole program, so no library names it. Returns the number appended.
 */
int pta_escaped(const struct pta *pta, struct intvec *out);

/*
 * Returns how many functions the call or invoke instruction may call, and sets *fns to them
 * (owned by pta): the callee itself for a direct call; for an indirect call, every function
 * its callee operand may point to whose type fits the call (same number of parameters, or
 * variadic, each passed as the call passes that argument: pointer, integer of that width, or
 * that kind of value). Functions passed to library callbacks (qsort's comparator...) are not
 * included: use extmodel's callback field. Declared (library) functions are included when
 * called through a pointer.
 */
int pta_callees(const struct pta *pta, LLVMValueRef call, LLVMValueRef const **fns);

/*
 * Returns whether the indirect call may also call unknown code: its callee operand may point
 * into unknown memory (a function pointer from dlsym or from unknown code; not main's argv,
 * which holds strings), so it reads, writes and returns what an unknown function does. 0 for a
 * direct call.
 */
int pta_calls_unknown(const struct pta *pta, LLVMValueRef call);

/* Frees what pta owns. */
void pta_release(struct pta *pta);

#endif
