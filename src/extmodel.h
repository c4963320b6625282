/*
 * extmodel.h: what external (library) functions do to memory, for the points-to analysis and
 * the slicer. One table entry per libc/libm/POSIX function (and LLVM intrinsic) we know; a
 * function not in the table is unknown, and its callers must assume the sound default: it
 * reads and writes everything reachable from its arguments and from escaped globals, and
 * returns a pointer to any of that.
 */
#ifndef MANTIS_EXTMODEL_H
#define MANTIS_EXTMODEL_H

/* Flags of an external function. */
enum {
	EXT_NORETURN = 1,    /* never returns: exit, _exit, abort, longjmp, __assert_fail, ... */
	EXT_ALLOC = 2,       /* returns a fresh heap object: malloc, calloc, strdup, fopen, ... */
	EXT_REALLOC = 4,     /* realloc-like: a fresh object holding a copy of argument 0's object */
	EXT_FREE = 8,        /* releases argument 0 (no effect on values the slicer tracks) */
	EXT_EXIT = 16,       /* ends the program: the slicer records features before it */
	EXT_RET_INSIDE = 32, /* the result points anywhere inside ret_arg's object, not only where
				ret_arg points (strchr, strstr, memchr, bsearch) */
	EXT_RET_SAVED = 64,  /* the result may also be ret_arg of an earlier call of the same
				function (strtok's saved string, signal's previous handler) */
	EXT_STATIC = 128,    /* returns a pointer to the library's own static object, one per
				function (strerror, localtime, getenv, __errno_location) */
	EXT_RET_WORLD = 256, /* returns a pointer made by unknown code: to anything escaped (dlsym) */
};

/* The implicit stream a function reads and writes, besides its arguments. */
enum ext_stream {
	EXT_NO_STREAM,    /* none */
	EXT_STDIN,        /* scanf, getchar, gets: the stdin FILE object */
	EXT_STDOUT,       /* printf, puts, putchar, perror: the stdout (and stderr) FILE object */
	EXT_FILES,        /* the file system and file descriptors: open, read, write, fopen,
			     fclose, fflush, remove, rename, ...; the environment (getenv,
			     setenv). A FILE's own reads and writes touch its FILE object only */
	EXT_RAND,         /* the pseudo-random generator's state: rand, srand, random, srandom */
	EXT_NSTREAMS      /* how many values above */
};

/*
 * Effects of one argument (a letter in struct extfn.args):
 *   '-'  no memory effect through it (not a pointer, or a pointer not dereferenced)
 *   'r'  reads the memory it points to, from the pointed-to byte to the object's end
 *   'w'  writes that memory
 *   'b'  reads and writes it
 *   'R'  reads everything reachable from it (a va_list: vprintf's strings)
 *   'B'  reads and writes everything reachable from it (vscanf's va_list of outputs)
 *   'f'  a FILE *: reads and writes the stream object it points to
 *   'c'  a function the callee calls (see struct extfn.callback)
 * The accessed bytes start where the argument points and run to the object's end, or for
 * size_arg bytes when the call has one.
 */
struct extfn {
	const char *name;        /* symbol name; intrinsics without their type suffix ("llvm.memcpy") */
	const char *args;        /* one letter per argument; a final '.' repeats the letter before
				    it for the remaining (variadic) arguments */
	unsigned flags;          /* EXT_* */
	int ret_arg;             /* the result points into this argument's object (strchr, strcpy,
				    fgets, memcpy), or -1 */
	enum ext_stream stream;  /* implicit stream read and written */
	int copies;              /* pointers stored in argument `copies % 16`'s memory are copied into
				    argument `copies / 16`'s memory (memcpy: 0*16+1 = 1), or -1 */
	int callback;            /* argument holding a function the callee calls, or -1 */
	int cb_args[2];          /* the callback's parameter j receives pointers into argument
				    cb_args[j]'s object (qsort: 0 and 0; bsearch: 0 and 1;
				    pthread_create: 3), -1 none */
	int size_arg;            /* argument holding the most bytes the call accesses through its
				    pointer arguments (memcpy, memset, strncpy, snprintf: the count),
				    or -1: to the end of the objects */
	int elem_arg;            /* argument holding the element size of the array the callback's
				    parameters and EXT_RET_INSIDE's result point into (qsort 2,
				    bsearch 3), or -1: byte steps */
	int out_arg;             /* the callee stores a pointer into the memory argument out_arg
				    points to (strtol's endptr, getline's lineptr), or -1 */
	int out_from;            /* what that pointer points to: anywhere inside argument out_from's
				    object (strtol: 0), or -2: a fresh heap object (getline,
				    posix_memalign); unused when out_arg is -1 */
};

/*
 * Returns the model of the external function called name, or NULL if it is unknown.
 * Intrinsics match with their type suffixes ("llvm.memcpy.p0i8.p0i8.i64" finds "llvm.memcpy");
 * llvm.dbg.*, llvm.lifetime.* and similar markers come back as entries with no effect.
 * The result points into a static table.
 */
const struct extfn *extmodel_find(const char *name);

/* Returns the effect letter of argument i (0-based) of fn, '-' beyond the listed ones. */
char extmodel_arg(const struct extfn *fn, unsigned i);

#endif
