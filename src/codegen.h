/*
 * codegen.h: the compile of DIR/inst, the instrumented program (and of DIR/sandboxed, the same
 * objects linked with the sandbox runtime), which is the critical path of `mantis instrument` on
 * a large program (the sqlite3 shell: 3/4 of its wall time).
 */
#ifndef MANTIS_CODEGEN_H
#define MANTIS_CODEGEN_H

struct build_options;
struct error;
struct ir;

/*
 * Builds the executable exe from the instrumented bitcode at opt->opt, linked with opt->runtime
 * and opt->ldflags. With parts 1, one clang compiles it to workdir/inst.o; with parts >= 2,
 * clang's optimiser writes workdir/inst-opt.bc, llvm-split-14 cuts it into parts modules
 * (workdir/inst-partI) whose back ends run in parallel (workdir/inst-partI.o): the same code as
 * one clang (the optimiser has seen the whole module), laid out in parts objects. clang links
 * the objects into exe and, when opt->sandbox and sandboxed are set, at the same time into the
 * executable sandboxed, with opt->sandbox after the runtime and before opt->ldflags (so before
 * the C library): the program compiled once, linked twice. The objects stay in workdir.
 * Returns 0 or -1.
 */
int codegen_build(const char *bitcode, const struct build_options *opt, int parts,
		  const char *workdir, const char *exe, const char *sandboxed, struct error *err);

/*
 * Strips ir's debug information (nothing reads DIR/inst's; the manifest was made before), writes
 * ir to dir/inst.bc and builds dir/inst from it with codegen_build, in one part per processor (up
 * to 4) if that bitcode has 1 MiB or more, else in one; intermediates go to dir/work. With
 * opt->sandbox, also dir/sandboxed (the same objects linked with the sandbox: changes no file);
 * without, a previous build's dir/sandboxed is removed. Returns 0 or -1.
 */
int codegen_inst(struct ir *ir, const struct build_options *opt, const char *dir,
		 struct error *err);

#endif
