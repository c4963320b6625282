/*
 * calibrate.c: a platform's cost per LLVM opcode and per library call, from generated
 * microbenchmarks (ByCounter, 003_: benchmark every instruction type on the target platform).
 *
 * Method (docs/ARCHITECTURE.md, "Cross-platform prediction"):
 *   - One C program is generated from two tables: an opcode kernel per row of op_specs, a call
 *     kernel per row of call_specs. It is compiled for the target at the platform's level and
 *     run there (under its runner: qemu-user for another architecture).
 *   - An opcode kernel runs its statement 16 times per loop iteration, each followed by an
 *     empty asm that takes the value in and out of a register (so clang can neither fold nor
 *     hoist it, and emits nothing for it): once as one dependency chain (latency), once as 8
 *     independent chains, 2 statements each (throughput). The same loop with no statement
 *     (the loop's own increment, compare and branch, and the asm constraints) is measured the
 *     same way and subtracted; the difference over 16 is the ns per instruction. An opcode's
 *     cost is the mean of latency and throughput (real code is neither one long chain nor
 *     perfectly parallel). A statement that needs another instruction pays it (division needs
 *     an add to stay in range): that class's cost is subtracted; a pair of conversions
 *     (sitofp then fptosi) gives each half.
 *   - A call kernel makes one call per iteration, minus the empty one-call loop. Calls whose
 *     cost grows with a size run at two sizes: the line through them gives ns per call and per
 *     byte (or per element times size).
 *   - Kernels are timed in the process's CPU time (CLOCK_PROCESS_CPUTIME_ID): a round that
 *     was preempted on a loaded machine does not count the time it waited, and what the
 *     platform predicts is a CPU time.
 *   - Each kernel's iterations are chosen so that one measurement takes `seconds`; then
 *     `repetitions` rounds measure every kernel once each, in order (drift spreads over all of
 *     them). Costs use the median over rounds; the noise of a kernel is the mean relative
 *     deviation of a round from that median.
 *   - Startup: the same program run with no arguments does nothing; the median CPU time of
 *     `repetitions` such runs is what every run pays (the loader, libc, and under qemu the
 *     emulator's start).
 * Opcodes with no code of their own (phi, alloca, casts between pointers, ret: paid with the
 * call) cost 0; opcodes without a kernel cost what add costs.
 */
#include "calibrate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "error.h"
#include "inputs.h"
#include "platform.h"
#include "runner.h"
#include "util.h"

/* An opcode kernel: a statement on chain X (y, z: opaque values of the chain's type). */
struct op_spec {
	const char *name;    /* kernel name */
	const char *type;    /* C type of the chains */
	const char *init;    /* start value of chain C (C: 0..7), a C expression */
	const char *y, *z;   /* opaque operands, C expressions */
	const char *stmt;    /* the statement on X */
	const char *cls[2];  /* the opcode(s) it measures; two: a pair, half each */
	const char *minus;   /* an opcode the statement also executes, subtracted, or NULL */
};

static const struct op_spec op_specs[] = {
	{"empty", "long", "1", "0", "0", "", {NULL, NULL}, NULL},
	{"add", "int", "1", "3", "0", "X = X + y;", {"add", NULL}, NULL},
	{"sub", "int", "1", "3", "0", "X = X - y;", {"sub", NULL}, NULL},
	{"mul", "int", "1", "3", "0", "X = X * y;", {"mul", NULL}, NULL},
	{"sdiv", "int", "1000000", "3", "1048576", "X = X / y + z;", {"sdiv", NULL}, "add"},
	{"udiv", "unsigned", "1000000", "3", "1048576", "X = X / y + z;", {"udiv", NULL}, "add"},
	{"srem", "int", "1000000", "1000", "1048576", "X = X % y + z;", {"srem", NULL}, "add"},
	{"urem", "unsigned", "1000000", "1000", "1048576", "X = X % y + z;", {"urem", NULL}, "add"},
	{"shl", "int", "1", "1", "0", "X = X << y;", {"shl", NULL}, NULL},
	{"lshr", "unsigned", "1", "1", "0", "X = X >> y;", {"lshr", NULL}, NULL},
	{"ashr", "int", "1", "1", "0", "X = X >> y;", {"ashr", NULL}, NULL},
	{"and", "int", "1", "-1", "0", "X = X & y;", {"and", NULL}, NULL},
	{"or", "int", "1", "0", "0", "X = X | y;", {"or", NULL}, NULL},
	{"xor", "int", "1", "0", "0", "X = X ^ y;", {"xor", NULL}, NULL},
	{"icmp", "int", "1", "1000", "0", "X = X + (X < y);", {"icmp", NULL}, "add"},
	{"select", "int", "1", "1000", "2", "X = X < y ? X : z;", {"select", NULL}, "icmp"},
	{"zext", "long", "1", "0", "0", "X = (long)(unsigned)X;", {"zext", NULL}, NULL},
	{"sext", "long", "1", "0", "0", "X = (long)(int)X;", {"sext", NULL}, NULL},
	{"gep", "ptr_t", "cells", "0", "0", "X = X + 8;", {"getelementptr", NULL}, NULL},
	{"load", "ptr_t", "(char *)&ring[8 * (C)]", "0", "0", "X = *(char **)X;", {"load", NULL}, NULL},
	{"store", "ptr_t", "(char *)&cells[64 * (C)]", "0", "0", "*(volatile long *)X = 0;",
	 {"store", NULL}, NULL},
	{"br", "int", "1", "7", "1", "if (X == y) X = X + z;", {"br", NULL}, "icmp"},
	{"switch", "int", "0", "0", "0",
	 "switch (X & 3) { case 0: X += 1; break; case 1: X += 2; break; case 2: X += 5; break; "
	 "default: X += 7; }", {"switch", NULL}, "add"},
	{"call", "int", "1", "0", "0", "X = bench_identity(X);", {"call", NULL}, "add"},
	{"fadd", "double", "1.0", "0.0", "0.0", "X = X + y;", {"fadd", NULL}, NULL},
	{"fsub", "double", "1.0", "0.0", "0.0", "X = X - y;", {"fsub", NULL}, NULL},
	{"fmul", "double", "1.0", "1.0", "0.0", "X = X * y;", {"fmul", NULL}, NULL},
	{"fdiv", "double", "1.0", "1.0", "0.0", "X = X / y;", {"fdiv", NULL}, NULL},
	{"fneg", "double", "1.0", "0.0", "0.0", "X = -X;", {"fneg", NULL}, NULL},
	{"fcmp", "double", "1.0", "2.0", "3.0", "X = X < y ? X : z;", {"fcmp", NULL}, NULL},
	{"sitofp", "double", "1.0", "0.0", "0.0", "X = (double)(long)X;", {"sitofp", "fptosi"}, NULL},
	{"uitofp", "double", "1.0", "0.0", "0.0", "X = (double)(unsigned long)X;", {"uitofp", "fptoui"},
	 NULL},
	{"fpext", "double", "1.0", "0.0", "0.0", "X = (double)(float)X;", {"fpext", "fptrunc"}, NULL},
};

/* Opcodes that emit no code of their own: they cost 0. */
static const char *const free_opcodes[] = {
	"phi", "alloca", "bitcast", "ptrtoint", "inttoptr", "trunc", "freeze", "unreachable", "ret",
	"addrspacecast", "extractvalue", "insertvalue",
};

/* A call kernel: one call per iteration. Variables: long x, s (the size), i (the iteration);
 * char *p; double a, b, r; buffers dst, src, fbuf; strings str, str2 (s letters 'a'), num,
 * fnum; FILE *out, *in (in: lines of 63 letters); int ints[1024], tmp[1024], sorted[1024]. */
struct call_spec {
	const char *name;   /* kernel name */
	const char *stmt;   /* the call */
	long sizes[2];      /* two values of s (per-byte cost), or 0, 0 */
	long unit;          /* bytes per unit of s (qsort: an int's 4) */
	double share;       /* the share of the measured cost each function gets */
	const char *fns[3]; /* the library functions it measures */
};

#define SIZES {16, 4096}
static const struct call_spec call_specs[] = {
	{"empty", "KI(x);", {0, 0}, 1, 1, {NULL}},
	{"memcpy", "memcpy(dst, src, (size_t)s); BARRIER();", SIZES, 1, 1, {"memcpy"}},
	{"memmove", "memmove(dst, dst + 1, (size_t)s); BARRIER();", SIZES, 1, 1, {"memmove"}},
	{"memset", "memset(dst, (int)x, (size_t)s); BARRIER();", SIZES, 1, 1, {"memset"}},
	{"memcmp", "x += memcmp(str, str2, (size_t)s); BARRIER();", SIZES, 1, 1, {"memcmp", "strncmp"}},
	{"memchr", "p = memchr(str, 'z', (size_t)s); KI(p); BARRIER();", SIZES, 1, 1, {"memchr"}},
	{"strlen", "x += (long)strlen(str); BARRIER();", SIZES, 1, 1, {"strlen"}},
	{"strcmp", "x += strcmp(str, str2); BARRIER();", SIZES, 1, 1, {"strcmp"}},
	{"strchr", "p = strchr(str, 'z'); KI(p); BARRIER();", SIZES, 1, 1, {"strchr", "strrchr"}},
	{"strcpy", "p = strcpy(dst, str); KI(p);", SIZES, 1, 1, {"strcpy", "strncpy"}},
	{"strcspn", "x += (long)strcspn(str, \"z\"); BARRIER();", SIZES, 1, 1, {"strcspn", "strspn"}},
	{"malloc", "p = malloc((size_t)s); KI(p); free(p);", SIZES, 1, 0.5, {"malloc", "free", "realloc"}},
	{"calloc", "p = calloc((size_t)s, 1); KI(p); free(p);", SIZES, 1, 1, {"calloc"}},
	{"qsort", "memcpy(tmp, ints, (size_t)s * sizeof *tmp); qsort(tmp, (size_t)s, sizeof *tmp, "
		  "bench_cmp);", {64, 1024}, 4, 1, {"qsort"}},
	{"bsearch", "x = (x + 1) & 1023; p = bsearch(&sorted[x], sorted, 1024, sizeof *sorted, "
		    "bench_cmp); KI(p);", {0, 0}, 1, 1, {"bsearch"}},
	{"sqrt", "KF(a); r = sqrt(a); KF(r);", {0, 0}, 1, 1, {"sqrt", "llvm.sqrt.f64"}},
	{"exp", "KF(a); r = exp(a); KF(r);", {0, 0}, 1, 1, {"exp", "exp2"}},
	{"log", "KF(a); r = log(a); KF(r);", {0, 0}, 1, 1, {"log", "log2", "log10"}},
	{"pow", "KF(a); r = pow(a, b); KF(r);", {0, 0}, 1, 1, {"pow"}},
	{"sin", "KF(a); r = sin(a); KF(r);", {0, 0}, 1, 1, {"sin"}},
	{"cos", "KF(a); r = cos(a); KF(r);", {0, 0}, 1, 1, {"cos"}},
	{"tan", "KF(a); r = tan(a); KF(r);", {0, 0}, 1, 1, {"tan"}},
	{"atan", "KF(a); r = atan(a); KF(r);", {0, 0}, 1, 1, {"atan"}},
	{"atan2", "KF(a); r = atan2(a, b); KF(r);", {0, 0}, 1, 1, {"atan2"}},
	{"floor", "KF(a); r = floor(a); KF(r);", {0, 0}, 1, 1, {"floor", "llvm.floor.f64", "ceil"}},
	{"fmod", "KF(a); r = fmod(a, b); KF(r);", {0, 0}, 1, 1, {"fmod"}},
	{"fabs", "KF(a); r = fabs(a); KF(r);", {0, 0}, 1, 1, {"fabs", "llvm.fabs.f64"}},
	{"fmuladd", "KF(a); r = r * a + b; KF(r);", {0, 0}, 1, 1, {"llvm.fmuladd.f64"}},
	{"atoi", "x += atoi(num); BARRIER();", {0, 0}, 1, 1, {"atoi"}},
	{"strtol", "x += strtol(num, NULL, 10); BARRIER();", {0, 0}, 1, 1, {"strtol", "strtoul"}},
	{"strtod", "r = strtod(fnum, NULL); KF(r); BARRIER();", {0, 0}, 1, 1, {"strtod", "atof"}},
	{"ctype_b", "p = (char *)__ctype_b_loc(); KI(p);", {0, 0}, 1, 1, {"__ctype_b_loc"}},
	{"ctype_tolower", "p = (char *)__ctype_tolower_loc(); KI(p);", {0, 0}, 1, 1,
	 {"__ctype_tolower_loc", "__ctype_toupper_loc"}},
	{"errno", "p = (char *)__errno_location(); KI(p);", {0, 0}, 1, 1, {"__errno_location"}},
	{"tolower", "x = tolower((int)(x & 127));", {0, 0}, 1, 1, {"tolower", "toupper"}},
	{"rand", "x += rand();", {0, 0}, 1, 1, {"rand"}},
	{"abs", "x = abs((int)x);", {0, 0}, 1, 1, {"abs", "labs"}},
	{"fputc", "if ((i & 4095) == 0) rewind(out); fputc((int)(x & 127), out);", {0, 0}, 1, 1,
	 {"fputc", "putc", "putchar"}},
	{"fprintf", "if ((i & 4095) == 0) rewind(out); fprintf(out, \"%d\\n\", (int)x);", {0, 0}, 1, 1,
	 {"fprintf", "printf"}},
	{"snprintf", "x += snprintf(fbuf, 64, \"%d\", (int)x);", {0, 0}, 1, 1,
	 {"snprintf", "sprintf", "vsnprintf"}},
	{"fwrite", "if ((i & 63) == 0) rewind(out); fwrite(src, 1, (size_t)s, out);", SIZES, 1, 1,
	 {"fwrite"}},
	{"fread", "if ((i & 63) == 0) rewind(in); x += (long)fread(dst, 1, (size_t)s, in);", SIZES, 1, 1,
	 {"fread"}},
	{"fgetc", "if ((i & 65535) == 0) rewind(in); x += fgetc(in);", {0, 0}, 1, 1,
	 {"fgetc", "getc", "getchar"}},
	{"fgets", "if ((i & 8191) == 0) rewind(in); p = fgets(fbuf, 128, in); KI(p);", {0, 0}, 1, 1,
	 {"fgets"}},
	{"feof", "x += feof(in);", {0, 0}, 1, 1, {"feof", "ferror"}},
};

#define NOPS (sizeof op_specs / sizeof *op_specs)
#define NCALLS (sizeof call_specs / sizeof *call_specs)

/* The part of the generated program that no table changes. */
static const char prologue[] =
	"/* Generated by mantis calibrate (src/calibrate.c): one kernel per instruction class. */\n"
	"#include <ctype.h>\n#include <errno.h>\n#include <math.h>\n#include <stdio.h>\n"
	"#include <stdlib.h>\n#include <string.h>\n#include <time.h>\n\n"
	"#define R2(s) s s\n#define R16(s) R2(R2(R2(R2(s))))\n"
	"#define KI(x) __asm__ volatile(\"\" : \"+r\"(x))\n"
	"#if defined(__aarch64__)\n#define KF(x) __asm__ volatile(\"\" : \"+w\"(x))\n"
	"#elif defined(__x86_64__)\n#define KF(x) __asm__ volatile(\"\" : \"+x\"(x))\n"
	"#else\n#define KF(x) __asm__ volatile(\"\" : \"+m\"(x))\n#endif\n"
	"#define BARRIER() __asm__ volatile(\"\" ::: \"memory\")\n"
	"#define NOINLINE __attribute__((noinline))\n\ntypedef char *ptr_t;\n"
	"static char *ring[64];\nstatic char cells[8 * 64 * 8] __attribute__((aligned(64)));\n"
	"static char dst[8192], src[8192], fbuf[256], str[4097], str2[4097];\n"
	"static char num[] = \"123456\", fnum[] = \"3.14159\";\n"
	"static int ints[1024], tmp[1024], sorted[1024];\nstatic FILE *out, *in;\n\n"
	"NOINLINE int bench_identity(int v) { return v + 1; }\n"
	"static int bench_cmp(const void *a, const void *b)\n"
	"{\n\tint x = *(const int *)a, y = *(const int *)b;\n\n\treturn (x > y) - (x < y);\n}\n"
	"NOINLINE static long opaque_l(long v) { KI(v); return v; }\n"
	"NOINLINE static double opaque_d(double v) { KF(v); return v; }\n"
	"#define OPAQUE(T, v) ((T)_Generic((T)0, double: opaque_d(v), default: opaque_l((long)(v))))\n\n"
	"static double now(void)\n{\n\tstruct timespec t;\n\n\tclock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);\n"
	"\treturn (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;\n}\n\n"
	"static void setup(void)\n{\n\tunsigned r = 12345;\n\n"
	"\tfor (int i = 0; i < 64; i++)\n\t\tring[i] = (char *)&ring[(i + 1) % 64];\n"
	"\tfor (int i = 0; i < 1024; i++) {\n\t\tr = r * 1103515245u + 12345u;\n"
	"\t\tints[i] = (int)(r >> 8);\n\t\tsorted[i] = i;\n\t}\n"
	"\tout = fopen(\"out.tmp\", \"w+\");\n\tin = fopen(\"in.tmp\", \"w+\");\n"
	"\tif (!out || !in)\n\t\texit(3);\n"
	"\tfor (int i = 0; i < 16384; i++)\n"
	"\t\tfprintf(in, \"%s\\n\", \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\");\n"
	"\trewind(in);\n}\n\n"
	"/* Makes str and str2 two equal strings of s letters. */\n"
	"static void strings(long s)\n{\n\tmemset(str, 'a', (size_t)s);\n\tstr[s] = 0;\n"
	"\tmemcpy(str2, str, (size_t)s + 1);\n}\n\n";

/* Writes the latency and throughput kernels of one opcode spec. */
static void write_op_kernels(FILE *f, const struct op_spec *k)
{
	fprintf(f, "#define OP_%s(X) %s\n#define INIT_%s(C) (%s)\n", k->name, k->stmt, k->name, k->init);
	fprintf(f, "static long lat_%s(long n, long s)\n{\n\t%s x = INIT_%s(0), y = OPAQUE(%s, %s), "
		"z = OPAQUE(%s, %s);\n\n\t(void)s; (void)y; (void)z;\n"
		"\tfor (long i = 0; i < n; i++) {\n\t\tR16(OP_%s(x) KI_%s(x);)\n\t}\n\treturn 0;\n}\n",
		k->name, k->type, k->name, k->type, k->y, k->type, k->z, k->name, k->name);
	fprintf(f, "static long tput_%s(long n, long s)\n{\n\t%s y = OPAQUE(%s, %s), z = OPAQUE(%s, %s);\n"
		"\t%s x0 = INIT_%s(0), x1 = INIT_%s(1), x2 = INIT_%s(2), x3 = INIT_%s(3);\n"
		"\t%s x4 = INIT_%s(4), x5 = INIT_%s(5), x6 = INIT_%s(6), x7 = INIT_%s(7);\n\n"
		"\t(void)s; (void)y; (void)z;\n\tfor (long i = 0; i < n; i++) {\n"
		"\t\tR2(OP_%s(x0) OP_%s(x1) OP_%s(x2) OP_%s(x3) OP_%s(x4) OP_%s(x5) OP_%s(x6) "
		"OP_%s(x7) KI8_%s(x0, x1, x2, x3, x4, x5, x6, x7);)\n\t}\n\treturn 0;\n}\n\n",
		k->name, k->type, k->type, k->y, k->type, k->z,
		k->type, k->name, k->name, k->name, k->name, k->type, k->name, k->name, k->name, k->name,
		k->name, k->name, k->name, k->name, k->name, k->name, k->name, k->name, k->name);
}

/* Writes the keep-in-register macros of a spec: KI_ and KI8_ by the chain's type. */
static void write_keep_macros(FILE *f, const struct op_spec *k)
{
	const char *c = strcmp(k->type, "double") == 0 ? "KF" : "KI";

	fprintf(f, "#define KI_%s(x) %s(x);\n", k->name, c);
	fprintf(f, "#define KI8_%s(a, b, c, d, e, f, g, h) %s(a); %s(b); %s(c); %s(d); %s(e); %s(f); "
		"%s(g); %s(h);\n", k->name, c, c, c, c, c, c, c, c);
}

static void write_call_kernel(FILE *f, const struct call_spec *k)
{
	fprintf(f, "static long call_%s(long n, long s)\n{\n\tlong x = opaque_l(1);\n"
		"\tchar *p = NULL;\n\tdouble a = opaque_d(0.7), b = opaque_d(1.3), r = opaque_d(0.5);\n\n"
		"\t(void)a; (void)b; (void)r; (void)p;\n\tstrings(s);\n\tKI(s);\n"
		"\tfor (long i = 0; i < n; i++) {\n\t\t%s\n\t}\n\tKI(x);\n\treturn 0;\n}\n\n",
		k->name, k->stmt);
}

/* Writes the kernel table and main: "NAME SIZE ROUND NS_PER_ITERATION" lines on stdout. */
static void write_main(FILE *f)
{
	fputs("struct kernel { const char *name; long (*run)(long, long); long s; long n; };\n"
	      "static struct kernel kernels[] = {\n", f);
	for (size_t i = 0; i < NOPS; i++)
		fprintf(f, "\t{\"lat.%s\", lat_%s, 0, 0}, {\"tput.%s\", tput_%s, 0, 0},\n",
			op_specs[i].name, op_specs[i].name, op_specs[i].name, op_specs[i].name);
	for (size_t i = 0; i < NCALLS; i++) {
		for (int j = 0; j < (call_specs[i].sizes[1] ? 2 : 1); j++)
			fprintf(f, "\t{\"call.%s\", call_%s, %ld, 0},\n", call_specs[i].name,
				call_specs[i].name, call_specs[i].sizes[j]);
	}
	fputs("};\n\n"
	      "static double measure(struct kernel *k, long n)\n{\n\tdouble t = now();\n\n"
	      "\tk->run(n, k->s);\n\treturn now() - t;\n}\n\n"
	      "int main(int argc, char **argv)\n{\n\tint rounds;\n\tdouble target;\n"
	      "\tsize_t nk = sizeof kernels / sizeof *kernels;\n\n"
	      "\tif (argc < 3)\n\t\treturn 0; /* the startup measurement: nothing */\n"
	      "\trounds = atoi(argv[1]);\n\ttarget = atof(argv[2]);\n\tsetup();\n"
	      "\tfor (size_t k = 0; k < nk; k++) {\n\t\tlong n = 1;\n\t\tdouble t;\n\n"
	      "\t\twhile ((t = measure(&kernels[k], n)) < target / 8 && n < (1L << 40))\n"
	      "\t\t\tn *= 4;\n"
	      "\t\tkernels[k].n = (long)((double)n * target / (t > 1e-9 ? t : 1e-9));\n"
	      "\t\tif (kernels[k].n < 1)\n\t\t\tkernels[k].n = 1;\n\t}\n"
	      "\tfor (int r = 0; r < rounds; r++) {\n\t\tfor (size_t k = 0; k < nk; k++)\n"
	      "\t\t\tprintf(\"%s %ld %d %.6f\\n\", kernels[k].name, kernels[k].s, r,\n"
	      "\t\t\t       1e9 * measure(&kernels[k], kernels[k].n) / (double)kernels[k].n);\n\t}\n"
	      "\tfclose(out);\n\tfclose(in);\n\tremove(\"out.tmp\");\n\tremove(\"in.tmp\");\n"
	      "\treturn 0;\n}\n", f);
}

int calibrate_write_source(const char *path, struct error *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return error_errno(err, "cannot write %s", path);
	fputs(prologue, f);
	for (size_t i = 0; i < NOPS; i++) {
		write_keep_macros(f, &op_specs[i]);
		write_op_kernels(f, &op_specs[i]);
	}
	for (size_t i = 0; i < NCALLS; i++)
		write_call_kernel(f, &call_specs[i]);
	write_main(f);
	if (fclose(f) != 0)
		return error_errno(err, "cannot write %s", path);
	return 0;
}

/* ---- running and reading the kernels ---------------------------------------------------- */

/* The measurements of one kernel at one size. */
struct series {
	char name[64]; /* "lat.add", "call.memcpy"... */
	long s;        /* its size parameter */
	double v[64];  /* ns per iteration, per round */
	int n;         /* rounds read */
};

/* The parsed output of the kernels. */
struct results {
	struct series *v; /* owned */
	int n;
};

/* Returns the series (name, s) of r, or NULL. */
static struct series *series_of(struct results *r, const char *name, long s)
{
	for (int i = 0; i < r->n; i++) {
		if (r->v[i].s == s && strcmp(r->v[i].name, name) == 0)
			return &r->v[i];
	}
	return NULL;
}

/* Reads "NAME SIZE ROUND NS" lines of path into *r. Returns 0 or -1 naming the line. */
static int read_results(struct results *r, const char *path, struct error *err)
{
	FILE *f = fopen(path, "r");
	char line[256], name[64];
	int lineno = 0;

	memset(r, 0, sizeof *r);
	if (!f)
		return error_errno(err, "cannot read %s", path);
	while (fgets(line, sizeof line, f)) {
		long s;
		int round;
		double ns;
		struct series *x;

		lineno++;
		if (sscanf(line, "%63s %ld %d %lf", name, &s, &round, &ns) != 4) {
			fclose(f);
			return error_set(err, "%s:%d: not a kernel measurement", path, lineno);
		}
		if (!(x = series_of(r, name, s))) {
			r->v = xrealloc(r->v, sizeof *r->v * (size_t)(r->n + 1));
			x = &r->v[r->n++];
			memset(x, 0, sizeof *x);
			snprintf(x->name, sizeof x->name, "%s", name);
			x->s = s;
		}
		if (x->n < 64)
			x->v[x->n++] = ns;
	}
	fclose(f);
	return 0;
}

/* Returns the mean relative deviation of v[0..n) from its median m. */
static double deviation(const double *v, int n, double m)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += m != 0 ? (v[i] > m ? v[i] - m : m - v[i]) / (m > 0 ? m : -m) : 0;
	return n ? sum / n : 0;
}

/* The median and noise of kernel (name, s). Returns 0 or -1 if it is missing. */
static int kernel_time(struct results *r, const char *name, long s, double *med, double *noise,
		       struct error *err)
{
	struct series *x = series_of(r, name, s);
	double copy[64];

	if (!x || !x->n)
		return error_set(err, "the kernels printed nothing for %s (size %ld)", name, s);
	memcpy(copy, x->v, sizeof copy);
	*med = median(copy, x->n);
	*noise = deviation(x->v, x->n, *med);
	return 0;
}

/* Appends a cost to *v (*n entries) and returns it. */
static struct platform_cost *add_cost(struct platform_cost **v, int *n, const char *name)
{
	*v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
	memset(&(*v)[*n], 0, sizeof **v);
	(*v)[*n].name = xstrdup(name);
	return &(*v)[(*n)++];
}

static double at_least_zero(double x)
{
	return x > 0 ? x : 0;
}

/* Fills p's opcode costs from the kernels' times. Returns 0 or -1. */
static int op_costs(struct platform *p, struct results *r, struct error *err)
{
	double empty_lat, empty_tput, noise;

	if (kernel_time(r, "lat.empty", 0, &empty_lat, &noise, err) < 0 ||
	    kernel_time(r, "tput.empty", 0, &empty_tput, &noise, err) < 0)
		return -1;
	for (size_t i = 1; i < NOPS; i++) {
		const struct op_spec *k = &op_specs[i];
		char lat_name[64], tput_name[64];
		double lat, tput, n1, n2, share = k->cls[1] ? 0.5 : 1;
		const struct platform_cost *minus = k->minus ? platform_op(p, k->minus) : NULL;

		snprintf(lat_name, sizeof lat_name, "lat.%s", k->name);
		snprintf(tput_name, sizeof tput_name, "tput.%s", k->name);
		if (kernel_time(r, lat_name, 0, &lat, &n1, err) < 0 ||
		    kernel_time(r, tput_name, 0, &tput, &n2, err) < 0)
			return -1;
		lat = (lat - empty_lat) / 16 - (minus ? minus->latency : 0);
		tput = (tput - empty_tput) / 16 - (minus ? minus->throughput : 0);
		for (int c = 0; c < 2 && k->cls[c]; c++) {
			struct platform_cost *pc = add_cost(&p->op, &p->nop, k->cls[c]);

			pc->latency = at_least_zero(share * lat);
			pc->throughput = at_least_zero(share * tput);
			pc->cost = (pc->latency + pc->throughput) / 2;
			pc->noise = n1 > n2 ? n1 : n2;
		}
	}
	for (size_t i = 0; i < sizeof free_opcodes / sizeof *free_opcodes; i++)
		add_cost(&p->op, &p->nop, free_opcodes[i]);
	return 0;
}

/* Fills p's library-call costs from the kernels' times. Returns 0 or -1. */
static int call_costs(struct platform *p, struct results *r, struct error *err)
{
	double empty, noise;

	if (kernel_time(r, "call.empty", 0, &empty, &noise, err) < 0)
		return -1;
	for (size_t i = 1; i < NCALLS; i++) {
		const struct call_spec *k = &call_specs[i];
		char name[64];
		double t1, t2 = 0, n1, n2 = 0, per_byte = 0, per_call;

		snprintf(name, sizeof name, "call.%s", k->name);
		if (kernel_time(r, name, k->sizes[0], &t1, &n1, err) < 0 ||
		    (k->sizes[1] && kernel_time(r, name, k->sizes[1], &t2, &n2, err) < 0))
			return -1;
		t1 -= empty;
		t2 -= empty;
		if (k->sizes[1])
			per_byte = at_least_zero((t2 - t1) / (double)((k->sizes[1] - k->sizes[0]) * k->unit));
		per_call = at_least_zero(t1 - (double)(k->sizes[0] * k->unit) * per_byte);
		for (int f = 0; f < 3 && k->fns[f]; f++) {
			struct platform_cost *pc = add_cost(&p->call, &p->ncall, k->fns[f]);

			pc->cost = k->share * per_call;
			pc->per_byte = k->share * per_byte;
			pc->noise = n1 > n2 ? n1 : n2;
		}
	}
	return 0;
}

/* ---- building and running ---------------------------------------------------------------- */

/* Returns the default runner of target (NULL-ended words, owned), or NULL for the host's. */
static char **default_runner(const char *target, int *n)
{
	struct utsname u;
	size_t arch = target ? strcspn(target, "-") : 0;
	char **v;

	*n = 0;
	if (!target || (uname(&u) == 0 && strlen(u.machine) == arch &&
			strncmp(u.machine, target, arch) == 0))
		return NULL;
	v = xcalloc(4, sizeof *v);
	v[0] = xasprintf("qemu-%.*s", (int)arch, target);
	v[1] = xstrdup("-L");
	v[2] = xasprintf("/usr/%s", target);
	*n = 3;
	return v;
}

/* Runs exe there with args (NULL-ended); stdout to out (or discarded). Fills *res. Returns 0
 * if it ran and exited 0, else -1 with err set. */
static int run_there(const struct platform *p, const char *exe, char *const *args, const char *out,
		     double timeout, struct run_result *res, struct error *err)
{
	struct input in = {1, "", 0, (char **)args, NULL};
	struct run_options ro = {.timeout = timeout, .stdout_path = out};

	while (args[in.argc])
		in.argc++;
	if (platform_run(p, exe, &in, &ro, res, err) < 0)
		return -1;
	if (res->status != RUN_OK)
		return error_set(err, "%s ended: %s (exit %d, signal %d)", exe,
				 runner_status_name(res->status), res->exit_code, res->signal);
	return 0;
}

/* Measures the startup: the median CPU time of runs of exe doing nothing. Returns 0 or -1. */
static int measure_startup(struct platform *p, const char *exe, struct error *err)
{
	double cpu[64], copy[64];
	char *none[] = {NULL};
	int n = p->repetitions < 64 ? p->repetitions : 64;

	for (int r = 0; r < n; r++) {
		struct run_result res;

		if (run_there(p, exe, none, NULL, 60, &res, err) < 0)
			return -1;
		cpu[r] = res.user + res.sys;
	}
	memcpy(copy, cpu, sizeof copy);
	p->startup = median(copy, n);
	p->startup_noise = deviation(cpu, n, p->startup);
	return 0;
}

/* Describes the host: uname and CPU model; owned. */
static char *machine_name(void)
{
	struct utsname u;
	char line[512], *cpu = NULL;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && !cpu && fgets(line, sizeof line, f)) {
		if (strncmp(line, "model name", 10) == 0 && strchr(line, ':')) {
			cpu = xstrdup(strchr(line, ':') + 2);
			cpu[strcspn(cpu, "\n")] = '\0';
		}
	}
	if (f)
		fclose(f);
	if (uname(&u) != 0)
		strcpy(u.machine, "?");
	{
		char *s = xasprintf("%s %s, %s, %ld cores", u.sysname, u.machine, cpu ? cpu : "?",
				    sysconf(_SC_NPROCESSORS_ONLN));

		free(cpu);
		return s;
	}
}

int calibrate_run(struct platform *p, const struct calibrate_options *opt, struct error *err)
{
	char *src = xasprintf("%s/calibrate.c", opt->workdir), *exe = xasprintf("%s/calibrate", opt->workdir);
	char *out = xasprintf("%s/kernels.txt", opt->workdir), *level = xasprintf("-O%s", opt->opt);
	char *target = opt->target ? xasprintf("--target=%s", opt->target) : NULL;
	char *cc[] = {"clang-14", level, "-w", "-o", exe, src, "-lm", target, NULL};
	char reps[16], secs[32], *args[] = {reps, secs, NULL};
	struct results r = {0};
	struct run_result res;
	int rc = -1;

	memset(p, 0, sizeof *p);
	p->target = opt->target ? xstrdup(opt->target) : NULL;
	p->opt = xstrdup(opt->opt);
	p->repetitions = opt->repetitions;
	p->machine = machine_name();
	if (opt->runner) {
		p->runner = xcalloc((size_t)opt->nrunner + 1, sizeof *p->runner);
		for (int i = 0; i < opt->nrunner; i++)
			p->runner[i] = xstrdup(opt->runner[i]);
		p->nrunner = opt->nrunner;
	} else {
		p->runner = default_runner(opt->target, &p->nrunner);
	}
	snprintf(reps, sizeof reps, "%d", opt->repetitions);
	snprintf(secs, sizeof secs, "%g", opt->seconds);
	if (calibrate_write_source(src, err) < 0)
		goto out;
	if (run_command(cc, NULL, err) < 0) {
		error_prefix(err, "compiling the microbenchmarks%s%s", target ? " for " : "",
			     target ? opt->target : "");
		goto out;
	}
	if (run_there(p, exe, args, out, 0, &res, err) < 0 || measure_startup(p, exe, err) < 0) {
		error_prefix(err, "running the microbenchmarks");
		goto out;
	}
	if (read_results(&r, out, err) < 0 || op_costs(p, &r, err) < 0 || call_costs(p, &r, err) < 0)
		goto out;
	rc = 0;
out:
	if (rc < 0)
		platform_release(p);
	free(r.v);
	free(src);
	free(exe);
	free(out);
	free(level);
	free(target);
	return rc;
}
