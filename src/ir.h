/*
 * ir.h: a whole program as one LLVM module: made from C sources or bitcode, prepared for
 * analysis, written out, and turned into an executable by clang.
 */
#ifndef MANTIS_IR_H
#define MANTIS_IR_H

#include <llvm-c/Core.h>

struct error;

/* A program's module and the context that owns it. */
struct ir {
	LLVMContextRef ctx; /* owned */
	LLVMModuleRef mod;  /* the whole program; owned by ctx */
};

/*
 * Compiles each C source with clang-14 -g at optimisation level opt ("0".."3", "s", "z") but
 * with LLVM's passes off, so the IR keeps the source's structure for instrumentation and the
 * optimiser runs later on the final builds; cflags[0..ncflags) are passed on (-I, -D, -std...).
 * Links the modules into *ir. workdir receives the per-source bitcode. Returns 0 or -1 (the
 * compiler's own messages have gone to stderr).
 */
int ir_from_sources(struct ir *ir, char *const *sources, int nsources, const char *opt,
		    char *const *cflags, int ncflags, const char *workdir, struct error *err);

/* Reads the bitcode files paths[0..n) and links them into *ir (n >= 1). Returns 0 or -1. */
int ir_link_files(struct ir *ir, char *const *paths, int n, struct error *err);

/*
 * Links the library bitcode at path into *ir the way a linker treats a library: where *ir
 * already defines a symbol, the library's own definition becomes internal to it (a real link
 * would bind the program's references, and the library's, to the program's). Returns 0 or -1.
 */
int ir_link_library(struct ir *ir, const char *path, struct error *err);

/* Compiles one C source to bitcode at bc as ir_from_sources does. Returns 0 or -1. */
int ir_compile_source(const char *source, const char *opt, char *const *cflags, int ncflags,
		      const char *bc, struct error *err);

/* Reads a bitcode (.bc) or textual IR (.ll) file into *ir. Returns 0 or -1. */
int ir_load(struct ir *ir, const char *path, struct error *err);

/*
 * Prepares for analysis, keeping the program's behaviour: removes optnone (which makes the
 * passes skip a function), aligns the large globals, then runs mem2reg and simplifycfg
 * (keeping loops). Verifies the module. Returns 0 or -1.
 */
int ir_prepare(struct ir *ir, struct error *err);

/* Verifies the module; returns 0, or -1 with LLVM's first complaint in err. */
int ir_verify(struct ir *ir, struct error *err);

/* Writes the module as bitcode to path. Returns 0 or -1. */
int ir_write(const struct ir *ir, const char *path, struct error *err);

/*
 * Returns the linker arguments of a static build of a program linked with ldflags[0..n):
 * ldflags, then the -l libraries that the shared libraries of its -l flags name where they
 * are GNU ld scripts (Debian's libncurses.so is "INPUT(libncurses.so.6 -ltinfo)", so a static
 * -lncurses needs -ltinfo beside it), then -static. Sets *nout to their number; the array and
 * its strings are owned by the caller (ir_flags_free).
 */
char **ir_static_flags(char *const *ldflags, int n, int *nout);
/* Frees what ir_static_flags returned. */
void ir_flags_free(char **flags, int n);
/* As ir_build_executable, linked statically (ir_static_flags), and quietly: the caller falls
 * back to the program's own link where the libraries allow none. Returns 0 or -1. */
int ir_build_static(const char *bitcode, const char *opt, char *const *objs, int nobjs,
		    char *const *ldflags, int nldflags, const char *out);
/*
 * Builds the shared object out from bitcode as ir_build_executable builds a program, with
 * -fPIC -shared -Wl,-Bsymbolic (the object's calls bind to its own definitions) and the link
 * flags but -static. Returns 0, or -1 with err set (quietly: the link's complaints are not
 * printed).
 */
int ir_build_shared(const char *bitcode, const char *opt, char *const *objs, int nobjs,
		    char *const *ldflags, int nldflags, const char *out, struct error *err);

/*
 * Builds an executable from bitcode with clang-14 -O<opt>, adding the objects objs[0..nobjs)
 * and the linker arguments ldflags[0..nldflags) (-lm, -L...). Returns 0 or -1.
 */
int ir_build_executable(const char *bitcode, const char *opt, char *const *objs, int nobjs,
			char *const *ldflags, int nldflags, const char *out, struct error *err);

/* Optimises bitcode at clang-14 -O<opt> (the whole pipeline a build runs) into bitcode at out.
 * Returns 0 or -1. */
int ir_optimise(const char *bitcode, const char *opt, const char *out, struct error *err);

/* Frees the module and context. */
void ir_release(struct ir *ir);

#endif
