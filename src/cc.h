/*
 * cc.h: `mantis cc`, a drop-in C compiler for make builds that records each program's
 * whole-program bitcode beside it (the gllvm/wllvm idea), so `mantis instrument PROGRAM` can
 * rebuild it.
 */
#ifndef MANTIS_CC_H
#define MANTIS_CC_H

struct error;

/*
 * Runs clang-14 with args[0..nargs) exactly as given; if that succeeded, also:
 *   compiling (-c): writes each object's bitcode to OBJECT.bc and records that path in the
 *     object's .mantis_bc section (which survives ar);
 *   linking: gathers the bitcode of every object, of archive members, and of shared libraries
 *     and -lNAME libraries built by mantis cc (LIB.mantis.bc beside the real file), links it
 *     and writes OUTPUT.mantis.bc and OUTPUT.mantis.flags (the link flags left over: system
 *     libraries, -pthread).
 * Returns clang's exit status if it failed; 1 with err set if recording failed; 0 otherwise.
 */
int cc_run(char *const *args, int nargs, struct error *err);

#endif
