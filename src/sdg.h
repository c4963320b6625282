/*
 * sdg.h: the system dependence graph of a whole program and slicing on it (issue 6).
 *
 * One graph per module; each slice is a reachability over it. Nodes are the instructions, and
 * per function an entry, its parameters, a return value and one formal-in (and formal-out)
 * node per memory class it may read (write), callees included; per call site of a defined
 * function a call-site node, one actual-in per argument and per class the callees may read
 * or write, one actual-out per class they may write (the call instruction itself is the
 * actual-out of the returned value). Past a budget (struct sdg_budget), a function's formals
 * and its call sites' actuals may each stand for a group of classes instead (struct
 * sdg_fn.group), and the widest accesses for a pair of pseudo classes (struct sdg.wide).
 *
 * Requires: a module with its llvm.dbg.* calls removed, and its points-to analysis.
 * Invalidated by any change to the module.
 */
#ifndef MANTIS_SDG_H
#define MANTIS_SDG_H

#include <llvm-c/Core.h>

#include "util.h"

struct error;
struct pta;

/* Kinds of nodes. */
enum sdg_kind {
	SDG_INST,       /* an instruction (a call's: the returned value, the actual-out) */
	SDG_ENTRY,      /* a function's entry */
	SDG_PARAM,      /* a function's formal parameter (aux: its index; nparams: the varargs) */
	SDG_RETVAL,     /* a function's returned value (formal-out) */
	SDG_FORMAL_IN,  /* a memory class's value on entry (aux: the class, or the least class of
			   the function's group) */
	SDG_FORMAL_OUT, /* a memory class's value on return (aux: alike) */
	SDG_CALLSITE,   /* a call of defined functions */
	SDG_ACTUAL_ARG, /* an argument at a call site (aux: its index) */
	SDG_ACTUAL_IN,  /* a memory class's value before a call (aux: the class, or the least class
			   of the calling function's group) */
	SDG_ACTUAL_OUT, /* a memory class's value after a call (aux: alike) */
	SDG_MEMORY,     /* a memory class's value at a join or after a write, in big functions */
};

/* Kinds of edges: "dst depends on src". */
enum sdg_edge_kind {
	SDG_DATA,      /* a value or memory flows from src to dst (same function) */
	SDG_CONTROL,   /* src decides whether dst runs (same function) */
	SDG_CALL,      /* a call site (src) to the callee's entry (dst) */
	SDG_PARAM_IN,  /* an actual-in (src) to a formal-in (dst) */
	SDG_PARAM_OUT, /* a formal-out (src) to an actual-out (dst) */
	SDG_SUMMARY,   /* an actual-in (src) reaches an actual-out (dst) through the callee */
};

/* A node. */
struct sdg_node {
	unsigned char kind; /* enum sdg_kind */
	int fn;             /* the function it belongs to (index into sdg.fn) */
	LLVMValueRef v;     /* the instruction, argument, function or call it stands for */
	int aux;            /* parameter index or location, by kind */
	int in;             /* first incoming edge, -1 if none */
};

/* An incoming edge, in a singly linked list per node. */
struct sdg_edge {
	int src;            /* the node depended on */
	int next;           /* the node's next incoming edge, -1 at the end */
	unsigned char kind; /* enum sdg_edge_kind */
};

/* A list of nodes keyed by memory class (or a group's least class): sorted, with their nodes. */
struct sdg_locs {
	int n;     /* entries */
	int *loc;  /* sorted memory classes; owned */
	int *node; /* their nodes; owned */
};

/* A defined function. */
struct sdg_fn {
	LLVMValueRef fn;        /* the function */
	int entry;              /* its entry node */
	int retval;             /* its returned-value node, -1 for void */
	int nparams;            /* parameters */
	int *param;             /* nparams + 1 nodes: the parameters, then the varargs (-1 if not
				   variadic); owned */
	struct sdg_locs in;     /* formal-in nodes, keyed by class, or by the group's least class */
	struct sdg_locs out;    /* formal-out nodes, keyed alike */
	struct intvec callers;  /* call sites (indices into sdg.call) that may call it */
	int *group;             /* per memory class, the least class of its group in this function's
				   interface (-1: not in it), if the interface is grouped; NULL if each
				   class is a group of its own; owned */
	int *first;             /* with group: per formal-in i, its classes are
				   member[first[i] .. first[i + 1]); owned */
	int *member;            /* with group: the classes of every formal-in's group; owned */
};

/* A call site of defined functions. */
struct sdg_call {
	LLVMValueRef call;      /* the call instruction */
	int fn;                 /* the calling function */
	int site;               /* its call-site node */
	int ret;                /* the instruction's node (the returned value) */
	int nargs;              /* its arguments */
	int *arg;               /* nargs actual-in nodes; owned */
	struct sdg_locs in;     /* actual-in nodes */
	struct sdg_locs out;    /* actual-out nodes */
	int ncallees;           /* defined functions it may call */
	int *callee;            /* their indices; owned */
};

/* The graph. */
struct sdg {
	const struct pta *pta;  /* the points-to analysis it was built with (not owned) */
	int n;                  /* nodes */
	struct sdg_node *node;  /* owned */
	int cap;                /* allocated nodes */
	int nedges;             /* edges */
	struct sdg_edge *edge;  /* owned */
	int capedges;           /* allocated edges */
	int nfns;               /* defined functions */
	struct sdg_fn *fn;      /* owned */
	int ncalls;             /* call sites of defined functions */
	struct sdg_call *call;  /* owned */
	struct ptrmap node_of;  /* instruction or argument -> node; function -> index into fn */
	struct ptrmap call_of;  /* call instruction -> index into call */
	int ninsts;             /* instruction nodes (the program's size) */
	int nclasses;           /* memory classes: locations every instruction touches together */
	int *class_loc;         /* per class, one of its locations (for reports); owned */
	int nsummary;           /* summary edges */
	int ngrouped;           /* functions whose interface is grouped */
	int wide;               /* the pseudo classes wide accesses touch are wide and wide + 1
				   (sdg.c, all_effects); -1 if no access is wide */
};

/*
 * Limits on the graph's size, past which it is made coarser (sound, less precise): where the
 * accesses' points-to sets are huge, and where the call graph makes most memory pass through
 * most functions (sdg.c, "Scale").
 */
struct sdg_budget {
	long effects;   /* locations all reads and writes touch, each access counted apart, above
			   which the widest accesses are summarised as "wide" */
	int wide_min;   /* locations an access may touch and never be wide */
	long interface; /* formal and actual nodes for memory above which functions' interfaces
			   are grouped */
};

/* The limits sdg_build applies: 2^20 accessed locations, 16, 2^20 formal and actual nodes. */
extern const struct sdg_budget sdg_default_budget;

/*
 * Builds the graph of mod for slices from the instructions criteria[0..ncriteria) (every later
 * criterion must be one of them, or something they depend on): memory a coarse closure from
 * them shows they cannot depend on gets no nodes. With ncriteria 0 the graph serves any
 * criterion. Within sdg_default_budget. Returns 0, or -1 with err set. Owns nothing of mod or
 * pta; pta must outlive it.
 */
int sdg_build(struct sdg *g, LLVMModuleRef mod, const struct pta *pta,
	      LLVMValueRef const *criteria, int ncriteria, struct error *err);

/* Builds the graph as sdg_build does, within budget (tests use small ones). */
int sdg_build_within(struct sdg *g, LLVMModuleRef mod, const struct pta *pta,
		     LLVMValueRef const *criteria, int ncriteria, const struct sdg_budget *budget,
		     struct error *err);

/* Returns the node of instruction x, or -1. */
int sdg_node(const struct sdg *g, LLVMValueRef x);

/*
 * Marks in mark[0..g->n) (which the caller zeroes, or fills with an earlier slice to extend)
 * every node the criteria nodes depend on: the two passes of Horwitz, Reps and Binkley, then,
 * until nothing changes, for every marked call site the actual-ins matching each marked formal-in
 * of its callees (an executable slice runs one copy of each function for every context), sliced
 * in turn by the second pass. Returns the number of marked nodes.
 */
int sdg_slice(const struct sdg *g, const int *criteria, int ncriteria, unsigned char *mark);

/* A bound on a slice's size (sdg_slice_within). */
struct sdg_bound {
	const double *weight; /* per node of the graph, >= 0; borrowed */
	double limit;         /* marking stops once sum exceeds it */
	double sum;           /* the weight of the nodes marked under this bound (zeroed by the
			       * caller; several calls on one mark add up) */
};

/*
 * As sdg_slice, adding to bound->sum the weight of every node it marks that was not marked;
 * when bound is not NULL and the sum exceeds bound->limit, stops at once and returns -1: mark
 * then holds part of the slice, and the whole slice's weight is at least bound->sum: every
 * node marked on the way is in the slice (the passes only add marks), so stopping early never
 * overstates a slice (slicer's estimate, train's upfront rejection).
 */
int sdg_slice_within(const struct sdg *g, const int *criteria, int ncriteria, unsigned char *mark,
		     struct sdg_bound *bound);

/*
 * Returns whether instruction x stays in the executable slice described by mark: its node is
 * marked, or it is a call whose call-site node is.
 */
int sdg_kept(const struct sdg *g, const unsigned char *mark, LLVMValueRef x);
/*
 * Explains why target is in the slice mark of criteria[0..ncriteria): finds a shortest chain of
 * dependences from target to a criterion through marked nodes (any edge kind: a witness, not a
 * proof that the chain is realizable). Appends to chain the nodes (target first, a criterion
 * last) and to kinds the kind of the edge from each node to the next. Returns the chain's
 * length, 0 if target is not reached.
 */
int sdg_why(const struct sdg *g, const unsigned char *mark, const int *criteria, int ncriteria,
	    int target, struct intvec *chain, struct intvec *kinds);

/* Returns whether argument i of the kept call x is needed (else it may be any value). */
int sdg_arg_kept(const struct sdg *g, const unsigned char *mark, LLVMValueRef x, unsigned i);

/* Frees what g owns. */
void sdg_release(struct sdg *g);

#endif
