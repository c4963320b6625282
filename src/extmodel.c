/*
 * extmodel.c: the table of external functions the points-to analysis and the slicer know.
 *
 * Algorithm: the table below is sorted by name (strcmp order); extmodel_find binary-searches
 * it, and for an LLVM intrinsic ("llvm." names) retries with its last ".suffix" removed until
 * a name matches, so "llvm.memcpy.p0i8.p0i8.i64" finds "llvm.memcpy" and
 * "llvm.lifetime.start.p0i8" finds "llvm.lifetime.start".
 * Invariant: entries are sorted and unique (tests/unit/test_pta.c looks many of them up).
 *
 * Conventions of the entries (see struct extfn):
 * - Argument letters describe one level of memory: the bytes the argument points to. Only a
 *   va_list argument reads ('R') or reads and writes ('B') everything reachable.
 * - Pure functions (math, ctype, llvm.smax...) have '-' letters and no stream; their results
 *   point to nothing.
 * - A function that returns a pointer says where it points: EXT_ALLOC (a fresh object per call
 *   site), ret_arg (into that argument's object, anywhere in it with EXT_RET_INSIDE),
 *   EXT_RET_SAVED (also what an earlier call was given), EXT_STATIC (the library's own
 *   object) or EXT_RET_WORLD (anything escaped: dlsym's functions); with none of these the
 *   result points to nothing.
 * - Hidden state is a stream: stdin and stdout (stderr shares stdout's), the file system, and
 *   the pseudo-random generator (rand and srand keep their order). A FILE's reads and writes
 *   (fgets, fputs, fread, fprintf...) touch only its FILE object ('f'); what joins two FILEs
 *   is the file system, which fopen and the descriptor calls (open, read, write, close...) read
 *   and write, so opening, creating and removing files keep their order. The data written
 *   through a FILE does not reach the file system: fclose and fflush write their FILE ('w':
 *   it is closed or emptied) and nothing else; they neither read what was written nor touch
 *   the file system (they create and remove no file). So an output file's contents, and
 *   whether it was flushed, never become a dependence of a later open or stat, and an
 *   evaluator keeps none of the output (bzip2: the compression loop was kept because the
 *   fflush after it "wrote" the file system that the next file's fopen reads: 41.7% of the
 *   program for a call count); the price is that a program reading back, through another
 *   FILE, data it wrote in the same run is not modelled: an evaluator that depends on such data computes
 *   other values and fails validation (mantis slice rejects it). fileno and isatty depend on
 *   the handle only. The clock (time, clock,
 *   gettimeofday) is an input, not a stream.
 * - glibc's names for the C library's macros (__isoc99_sscanf, __ctype_b_loc,
 *   __errno_location, _setjmp, __sigsetjmp, __assert_fail) are entries of their own.
 * - Unknown effects we accept: printf's %n (a write), scanf's %p (a pointer read from text),
 *   putenv keeping its string, pthread_join's result pointer.
 */
#include "extmodel.h"

#include <string.h>

#define S0 EXT_NO_STREAM
#define SIN EXT_STDIN
#define SOUT EXT_STDOUT
#define SFS EXT_FILES
#define SRND EXT_RAND
#define NORET EXT_NORETURN

/* name, argument letters, flags, stream; no pointer result, copy, callback or size */
#define F(n, a, fl, st) {n, a, fl, -1, st, -1, -1, {-1, -1}, -1, -1, -1, -1}
/* ... accessing at most argument sz's count of bytes */
#define N(n, a, fl, st, sz) {n, a, fl, -1, st, -1, -1, {-1, -1}, sz, -1, -1, -1}
/* ... returning a pointer into argument r */
#define RET(n, a, fl, st, r, sz) {n, a, fl, r, st, -1, -1, {-1, -1}, sz, -1, -1, -1}
/* ... without a stream */
#define RET2(n, a, fl, r, sz) RET(n, a, fl, S0, r, sz)
/* copies the pointers in argument cp % 16's memory into argument cp / 16's */
#define CPY(n, a, fl, r, cp, sz) {n, a, fl, r, S0, cp, -1, {-1, -1}, sz, -1, -1, -1}
/* calls argument cb with pointers into arguments c0 and c1 (elements of argument el's size) */
#define CB(n, a, fl, r, cb, c0, c1, el) {n, a, fl, r, S0, -1, cb, {c0, c1}, -1, el, -1, -1}
/* stores through argument oa a pointer into argument of (-2: a fresh heap object) */
#define OUT(n, a, fl, st, oa, of) {n, a, fl, -1, st, -1, -1, {-1, -1}, -1, -1, oa, of}

/* Every known function, sorted by name. */
static const struct extfn table[] = {
	F("_Exit", "-", NORET | EXT_EXIT, S0),
	F("__assert_fail", "rr-r", NORET | EXT_EXIT, S0),
	F("__ctype_b_loc", "", EXT_STATIC, S0),
	F("__ctype_tolower_loc", "", EXT_STATIC, S0),
	F("__ctype_toupper_loc", "", EXT_STATIC, S0),
	F("__errno_location", "", EXT_STATIC, S0),
	F("__isoc99_fscanf", "frw.", 0, S0),
	F("__isoc99_scanf", "rw.", 0, SIN),
	F("__isoc99_sscanf", "rrw.", 0, S0),
	F("__isoc99_vfscanf", "frB", 0, S0),
	F("__isoc99_vscanf", "rB", 0, SIN),
	F("__isoc99_vsscanf", "rrB", 0, S0),
	F("__longjmp_chk", "r-", NORET, S0),
	F("__sigsetjmp", "w-", 0, S0),
	F("_exit", "-", NORET | EXT_EXIT, S0),
	F("_longjmp", "r-", NORET, S0),
	F("_setjmp", "w", 0, S0),
	F("abort", "", NORET | EXT_EXIT, S0),
	F("abs", "-", 0, S0),
	F("access", "r-", 0, SFS),
	F("acos", "-", 0, S0),
	F("acosf", "-", 0, S0),
	F("aligned_alloc", "--", EXT_ALLOC, S0),
	F("asctime", "r", EXT_STATIC, S0),
	F("asin", "-", 0, S0),
	F("asinf", "-", 0, S0),
	F("atan", "-", 0, S0),
	F("atan2", "--", 0, S0),
	F("atan2f", "--", 0, S0),
	F("atanf", "-", 0, S0),
	CB("atexit", "c", 0, -1, 0, -1, -1, -1),
	F("atof", "r", 0, S0),
	F("atoi", "r", 0, S0),
	F("atol", "r", 0, S0),
	F("atoll", "r", 0, S0),
	N("bcmp", "rr-", 0, S0, 2),
	CPY("bcopy", "rw-", 0, -1, 16, 2),
	CB("bsearch", "rr--c", EXT_RET_INSIDE, 1, 4, 0, 1, 3),
	N("bzero", "w-", 0, S0, 1),
	F("calloc", "--", EXT_ALLOC, S0),
	F("cbrt", "-", 0, S0),
	F("ceil", "-", 0, S0),
	F("ceilf", "-", 0, S0),
	F("chdir", "r", 0, SFS),
	F("chmod", "r-", 0, SFS),
	F("chown", "r--", 0, SFS),
	F("clearerr", "f", 0, S0),
	F("clock", "", 0, S0),
	F("clock_gettime", "-w", 0, S0),
	F("close", "-", 0, SFS),
	F("closedir", "b", EXT_FREE, SFS),
	F("copysign", "--", 0, S0),
	F("cos", "-", 0, S0),
	F("cosf", "-", 0, S0),
	F("cosh", "-", 0, S0),
	F("creat", "r-", 0, SFS),
	F("ctime", "r", EXT_STATIC, S0),
	F("difftime", "--", 0, S0),
	F("dlclose", "-", EXT_FREE, S0),
	F("dlerror", "", EXT_STATIC, S0),
	F("dlopen", "r-", EXT_ALLOC, SFS),
	F("dlsym", "-r", EXT_RET_WORLD, S0),
	F("dprintf", "-r.", 0, SFS),
	F("drand48", "", 0, SRND),
	F("dup", "-", 0, SFS),
	F("dup2", "--", 0, SFS),
	F("erf", "-", 0, S0),
	F("exit", "-", NORET | EXT_EXIT, S0),
	F("exp", "-", 0, S0),
	F("exp2", "-", 0, S0),
	F("expf", "-", 0, S0),
	F("expm1", "-", 0, S0),
	F("fabs", "-", 0, S0),
	F("fabsf", "-", 0, S0),
	F("fchmod", "--", 0, SFS),
	F("fchown", "---", 0, SFS),
	F("fclose", "w", 0, S0),
	F("fcntl", "--b.", 0, SFS),
	F("fcntl64", "--b.", 0, SFS),
	F("fdatasync", "-", 0, SFS),
	F("fdopen", "-r", EXT_ALLOC, SFS),
	F("feof", "f", 0, S0),
	F("ferror", "f", 0, S0),
	F("fflush", "w", 0, S0),
	F("fgetc", "f", 0, S0),
	F("fgetpos", "fw", 0, S0),
	RET("fgets", "w-f", 0, S0, 0, 1),
	F("fileno", "-", 0, S0),
	F("floor", "-", 0, S0),
	F("floorf", "-", 0, S0),
	F("fma", "---", 0, S0),
	F("fmax", "--", 0, S0),
	F("fmaxf", "--", 0, S0),
	F("fmin", "--", 0, S0),
	F("fminf", "--", 0, S0),
	F("fmod", "--", 0, S0),
	F("fmodf", "--", 0, S0),
	F("fopen", "rr", EXT_ALLOC, SFS),
	F("fopen64", "rr", EXT_ALLOC, SFS),
	F("fprintf", "fr.", 0, S0),
	F("fputc", "-f", 0, S0),
	F("fputs", "rf", 0, S0),
	F("fread", "w--f", 0, S0),
	F("free", "-", EXT_FREE, S0),
	RET("freopen", "rrf", 0, SFS, 2, -1),
	F("frexp", "-w", 0, S0),
	F("fscanf", "frw.", 0, S0),
	F("fseek", "f--", 0, S0),
	F("fsetpos", "fr", 0, S0),
	F("fstat", "-w", 0, SFS),
	F("fstat64", "-w", 0, SFS),
	F("fsync", "-", 0, SFS),
	F("ftell", "f", 0, S0),
	F("ftruncate", "--", 0, SFS),
	F("ftruncate64", "--", 0, SFS),
	F("futimens", "-r", 0, SFS),
	F("fwrite", "r--f", 0, S0),
	F("getc", "f", 0, S0),
	F("getchar", "", 0, SIN),
	RET("getcwd", "w-", 0, SFS, 0, 1),
	OUT("getdelim", "Bb-f", 0, S0, 0, -2),
	F("getegid", "", 0, S0),
	F("getenv", "r", EXT_STATIC, SFS),
	F("geteuid", "", 0, S0),
	F("getgid", "", 0, S0),
	OUT("getline", "Bbf", 0, S0, 0, -2),
	F("getpagesize", "", 0, S0),
	F("getpid", "", 0, S0),
	F("getppid", "", 0, S0),
	F("getpriority", "--", 0, S0),
	F("getpwnam", "r", EXT_STATIC, SFS),
	F("getpwuid", "-", EXT_STATIC, SFS),
	F("getrusage", "-w", 0, S0),
	RET("gets", "w", 0, SIN, 0, -1),
	F("gettimeofday", "ww", 0, S0),
	F("getuid", "", 0, S0),
	F("gmtime", "r", EXT_STATIC, S0),
	RET("gmtime_r", "rw", 0, S0, 1, -1),
	F("hypot", "--", 0, S0),
	F("ioctl", "--b.", 0, SFS),
	F("isalnum", "-", 0, S0),
	F("isalpha", "-", 0, S0),
	F("isascii", "-", 0, S0),
	F("isatty", "-", 0, S0),
	F("isblank", "-", 0, S0),
	F("iscntrl", "-", 0, S0),
	F("isdigit", "-", 0, S0),
	F("isgraph", "-", 0, S0),
	F("islower", "-", 0, S0),
	F("isprint", "-", 0, S0),
	F("ispunct", "-", 0, S0),
	F("isspace", "-", 0, S0),
	F("isupper", "-", 0, S0),
	F("isxdigit", "-", 0, S0),
	F("kill", "--", 0, S0),
	F("labs", "-", 0, S0),
	F("lchown", "r--", 0, SFS),
	F("ldexp", "--", 0, S0),
	F("llabs", "-", 0, S0),
	F("llround", "-", 0, S0),
	F("llvm.abs", "--", 0, S0),
	F("llvm.assume", "-", 0, S0),
	F("llvm.bitreverse", "-", 0, S0),
	F("llvm.bswap", "-", 0, S0),
	F("llvm.ceil", "-", 0, S0),
	F("llvm.copysign", "--", 0, S0),
	F("llvm.cos", "-", 0, S0),
	F("llvm.ctlz", "--", 0, S0),
	F("llvm.ctpop", "-", 0, S0),
	F("llvm.cttz", "--", 0, S0),
	F("llvm.dbg.declare", "---", 0, S0),
	F("llvm.dbg.label", "-", 0, S0),
	F("llvm.dbg.value", "---", 0, S0),
	F("llvm.debugtrap", "", 0, S0),
	F("llvm.exp", "-", 0, S0),
	F("llvm.expect", "--", 0, S0),
	F("llvm.fabs", "-", 0, S0),
	F("llvm.floor", "-", 0, S0),
	F("llvm.fma", "---", 0, S0),
	F("llvm.fmuladd", "---", 0, S0),
	F("llvm.fshl", "---", 0, S0),
	F("llvm.fshr", "---", 0, S0),
	F("llvm.lifetime.end", "--", 0, S0),
	F("llvm.lifetime.start", "--", 0, S0),
	F("llvm.log", "-", 0, S0),
	F("llvm.maxnum", "--", 0, S0),
	CPY("llvm.memcpy", "wr--", 0, -1, 1, 2),
	CPY("llvm.memmove", "wr--", 0, -1, 1, 2),
	N("llvm.memset", "w---", 0, S0, 2),
	F("llvm.minnum", "--", 0, S0),
	F("llvm.objectsize", "----", 0, S0),
	F("llvm.pow", "--", 0, S0),
	F("llvm.prefetch", "----", 0, S0),
	F("llvm.rint", "-", 0, S0),
	F("llvm.round", "-", 0, S0),
	F("llvm.sadd.sat", "--", 0, S0),
	F("llvm.sadd.with.overflow", "--", 0, S0),
	F("llvm.sin", "-", 0, S0),
	F("llvm.smax", "--", 0, S0),
	F("llvm.smin", "--", 0, S0),
	F("llvm.smul.with.overflow", "--", 0, S0),
	F("llvm.sqrt", "-", 0, S0),
	F("llvm.ssub.sat", "--", 0, S0),
	F("llvm.ssub.with.overflow", "--", 0, S0),
	F("llvm.stackrestore", "-", 0, S0),
	F("llvm.stacksave", "", 0, S0),
	F("llvm.trap", "", NORET | EXT_EXIT, S0),
	F("llvm.trunc", "-", 0, S0),
	F("llvm.uadd.sat", "--", 0, S0),
	F("llvm.uadd.with.overflow", "--", 0, S0),
	F("llvm.umax", "--", 0, S0),
	F("llvm.umin", "--", 0, S0),
	F("llvm.umul.with.overflow", "--", 0, S0),
	F("llvm.usub.sat", "--", 0, S0),
	F("llvm.usub.with.overflow", "--", 0, S0),
	CPY("llvm.va_copy", "wr", 0, -1, 1, -1),
	F("llvm.va_end", "-", 0, S0),
	F("llvm.va_start", "w", 0, S0),
	F("localtime", "r", EXT_STATIC, S0),
	RET("localtime_r", "rw", 0, S0, 1, -1),
	F("log", "-", 0, S0),
	F("log10", "-", 0, S0),
	F("log1p", "-", 0, S0),
	F("log2", "-", 0, S0),
	F("logf", "-", 0, S0),
	F("longjmp", "r-", NORET, S0),
	F("lrand48", "", 0, SRND),
	F("lround", "-", 0, S0),
	F("lseek", "---", 0, SFS),
	F("lseek64", "---", 0, SFS),
	F("lstat", "rw", 0, SFS),
	F("lstat64", "rw", 0, SFS),
	F("malloc", "-", EXT_ALLOC, S0),
	F("memalign", "--", EXT_ALLOC, S0),
	RET2("memchr", "r--", EXT_RET_INSIDE, 0, 2),
	N("memcmp", "rr-", 0, S0, 2),
	CPY("memcpy", "wr-", 0, 0, 1, 2),
	CPY("memmove", "wr-", 0, 0, 1, 2),
	CPY("mempcpy", "wr-", EXT_RET_INSIDE, 0, 1, 2),
	RET2("memrchr", "r--", EXT_RET_INSIDE, 0, 2),
	RET("memset", "w--", 0, S0, 0, 2),
	F("mkdir", "r-", 0, SFS),
	F("mkostemp", "b-", 0, SFS),
	F("mkstemp", "b", 0, SFS),
	F("mktime", "b", 0, S0),
	F("mmap", "------", EXT_ALLOC, SFS),
	F("mmap64", "------", EXT_ALLOC, SFS),
	F("modf", "-w", 0, S0),
	F("mremap", "r---.", EXT_REALLOC, SFS),
	F("munmap", "--", EXT_FREE, SFS),
	F("nanosleep", "rw", 0, S0),
	F("nearbyint", "-", 0, S0),
	F("nice", "-", 0, S0),
	F("open", "r-.", 0, SFS),
	F("open64", "r-.", 0, SFS),
	F("opendir", "r", EXT_ALLOC, SFS),
	F("pclose", "f", 0, SFS),
	F("perror", "r", 0, SOUT),
	F("pipe", "w", 0, SFS),
	F("popen", "rr", EXT_ALLOC, SFS),
	F("posix_fallocate", "---", 0, SFS),
	OUT("posix_memalign", "w--", 0, S0, 0, -2),
	F("pow", "--", 0, S0),
	F("powf", "--", 0, S0),
	N("pread", "-w--", 0, SFS, 2),
	F("printf", "r.", 0, SOUT),
	F("pthread_cond_broadcast", "b", 0, S0),
	F("pthread_cond_destroy", "b", 0, S0),
	F("pthread_cond_init", "wr", 0, S0),
	F("pthread_cond_signal", "b", 0, S0),
	F("pthread_cond_wait", "bb", 0, S0),
	CB("pthread_create", "wrc-", 0, -1, 2, 3, -1, -1),
	F("pthread_exit", "-", NORET, S0),
	F("pthread_join", "-w", 0, S0),
	F("pthread_mutex_destroy", "b", 0, S0),
	F("pthread_mutex_init", "wr", 0, S0),
	F("pthread_mutex_lock", "b", 0, S0),
	F("pthread_mutex_trylock", "b", 0, S0),
	F("pthread_mutex_unlock", "b", 0, S0),
	F("pthread_mutexattr_destroy", "b", 0, S0),
	F("pthread_mutexattr_init", "w", 0, S0),
	F("pthread_mutexattr_settype", "b-", 0, S0),
	CB("pthread_once", "bc", 0, -1, 1, -1, -1, -1),
	F("pthread_self", "", 0, S0),
	F("putc", "-f", 0, S0),
	F("putchar", "-", 0, SOUT),
	F("puts", "r", 0, SOUT),
	N("pwrite", "-r--", 0, SFS, 2),
	CB("qsort", "b--c", 0, -1, 3, 0, 0, 2),
	F("quick_exit", "-", NORET | EXT_EXIT, S0),
	F("raise", "-", 0, S0),
	F("rand", "", 0, SRND),
	F("rand_r", "b", 0, S0),
	F("random", "", 0, SRND),
	N("read", "-w-", 0, SFS, 2),
	RET2("readdir", "b", EXT_RET_INSIDE, 0, -1),
	RET2("readdir64", "b", EXT_RET_INSIDE, 0, -1),
	N("readlink", "rw-", 0, SFS, 2),
	F("realloc", "r-", EXT_REALLOC, S0),
	F("reallocarray", "r--", EXT_REALLOC, S0),
	F("remove", "r", 0, SFS),
	F("rename", "rr", 0, SFS),
	F("rewind", "f", 0, S0),
	F("rint", "-", 0, S0),
	F("rmdir", "r", 0, SFS),
	F("round", "-", 0, S0),
	F("roundf", "-", 0, S0),
	F("scanf", "rw.", 0, SIN),
	F("sched_yield", "", 0, S0),
	F("setbuf", "f-", 0, S0),
	F("setenv", "rr-", 0, SFS),
	F("setjmp", "w", 0, S0),
	F("setlocale", "-r", EXT_STATIC, S0),
	F("setpriority", "---", 0, S0),
	F("setvbuf", "f---", 0, S0),
	F("siglongjmp", "r-", NORET, S0),
	CB("signal", "-c", EXT_RET_SAVED, 1, 1, -1, -1, -1),
	F("sigsetjmp", "w-", 0, S0),
	F("sin", "-", 0, S0),
	F("sinf", "-", 0, S0),
	F("sinh", "-", 0, S0),
	F("sleep", "-", 0, S0),
	N("snprintf", "w-r.", 0, S0, 1),
	F("sprintf", "wr.", 0, S0),
	F("sqrt", "-", 0, S0),
	F("sqrtf", "-", 0, S0),
	F("srand", "-", 0, SRND),
	F("srand48", "-", 0, SRND),
	F("srandom", "-", 0, SRND),
	F("sscanf", "rrw.", 0, S0),
	F("stat", "rw", 0, SFS),
	F("stat64", "rw", 0, SFS),
	CPY("stpcpy", "wr", EXT_RET_INSIDE, 0, 1, -1),
	F("strcasecmp", "rr", 0, S0),
	RET("strcat", "br", 0, S0, 0, -1),
	RET2("strchr", "r-", EXT_RET_INSIDE, 0, -1),
	F("strcmp", "rr", 0, S0),
	F("strcoll", "rr", 0, S0),
	CPY("strcpy", "wr", 0, 0, 1, -1),
	F("strcspn", "rr", 0, S0),
	F("strdup", "r", EXT_ALLOC, S0),
	F("strerror", "-", EXT_STATIC, S0),
	N("strftime", "w-rr", 0, S0, 1),
	F("strlen", "r", 0, S0),
	N("strncasecmp", "rr-", 0, S0, 2),
	RET("strncat", "br-", 0, S0, 0, -1),
	N("strncmp", "rr-", 0, S0, 2),
	CPY("strncpy", "wr-", 0, 0, 1, 2),
	N("strndup", "r-", EXT_ALLOC, S0, 1),
	N("strnlen", "r-", 0, S0, 1),
	RET2("strpbrk", "rr", EXT_RET_INSIDE, 0, -1),
	RET2("strrchr", "r-", EXT_RET_INSIDE, 0, -1),
	F("strspn", "rr", 0, S0),
	RET2("strstr", "rr", EXT_RET_INSIDE, 0, -1),
	OUT("strtod", "rw", 0, S0, 1, 0),
	OUT("strtof", "rw", 0, S0, 1, 0),
	OUT("strtoimax", "rw-", 0, S0, 1, 0),
	RET2("strtok", "br", EXT_RET_INSIDE | EXT_RET_SAVED, 0, -1),
	{"strtok_r", "brb", EXT_RET_INSIDE | EXT_RET_SAVED, 0, S0, -1, -1, {-1, -1}, -1, -1, 2, 0},
	OUT("strtol", "rw-", 0, S0, 1, 0),
	OUT("strtold", "rw", 0, S0, 1, 0),
	OUT("strtoll", "rw-", 0, S0, 1, 0),
	OUT("strtoul", "rw-", 0, S0, 1, 0),
	OUT("strtoull", "rw-", 0, S0, 1, 0),
	OUT("strtoumax", "rw-", 0, S0, 1, 0),
	F("symlink", "rr", 0, SFS),
	F("sysconf", "-", 0, S0),
	F("system", "r", 0, SFS),
	F("tan", "-", 0, S0),
	F("tanf", "-", 0, S0),
	F("tanh", "-", 0, S0),
	F("time", "w", 0, S0),
	F("tmpfile", "", EXT_ALLOC, SFS),
	F("tolower", "-", 0, S0),
	F("toupper", "-", 0, S0),
	F("trunc", "-", 0, S0),
	F("truncf", "-", 0, S0),
	F("ungetc", "-f", 0, S0),
	F("unlink", "r", 0, SFS),
	F("unsetenv", "r", 0, SFS),
	F("usleep", "-", 0, S0),
	F("utime", "rr", 0, SFS),
	F("utimensat", "-rr-", 0, SFS),
	F("utimes", "rr", 0, SFS),
	F("vfprintf", "frR", 0, S0),
	F("vfscanf", "frB", 0, S0),
	F("vprintf", "rR", 0, SOUT),
	F("vscanf", "rB", 0, SIN),
	N("vsnprintf", "w-rR", 0, S0, 1),
	F("vsprintf", "wrR", 0, S0),
	F("vsscanf", "rrB", 0, S0),
	N("write", "-r-", 0, SFS, 2),
};

/* Returns the entry called exactly name (len bytes), or NULL. */
static const struct extfn *lookup(const char *name, size_t len)
{
	size_t lo = 0, hi = sizeof table / sizeof table[0];

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(table[mid].name, name, len);

		if (c == 0 && table[mid].name[len])
			c = 1;
		if (c == 0)
			return &table[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct extfn *extmodel_find(const char *name)
{
	size_t len = strlen(name);
	const struct extfn *fn = lookup(name, len);

	if (strncmp(name, "llvm.", 5) != 0)
		return fn;
	while (!fn) {
		size_t k = len;

		while (k > 5 && name[k - 1] != '.')
			k--;
		if (k <= 5)
			return NULL;
		len = k - 1;
		fn = lookup(name, len);
	}
	return fn;
}

char extmodel_arg(const struct extfn *fn, unsigned i)
{
	size_t n = strlen(fn->args);

	if (n && fn->args[n - 1] == '.') {
		if (i + 2 >= n)
			return n >= 2 ? fn->args[n - 2] : '-';
		return fn->args[i];
	}
	return i < n ? fn->args[i] : '-';
}
