/*
 * solib.h: an evaluator's shared-object form, run in the caller's process (no process start).
 *
 *   the slice's bitcode + slicert.o + inproc.o --ir_build_shared (slice.c)--> EXE.so
 *   EXE.so --solib_hostable: no call that reaches beyond the run (fork, threads...)--> hostable
 *   solib_run: dlopen, __mantis_inproc_run(argc, argv), dlclose; the process put back
 */
#ifndef MANTIS_SOLIB_H
#define MANTIS_SOLIB_H

struct error;
struct input;
struct run_options;
struct run_result;

/* Where an evaluator runs (predictor_measure_form, sampler_run). */
struct solib_form {
	const char *so;   /* its shared-object form, or NULL: its executable, as a process */
	const char *host; /* mantis-host, which runs so in a process of its own (the time of its
			   * warm run: predictor_measure_hosted), or NULL: so runs in this process
			   * (solib_run) */
};

/*
 * Returns 0 when the shared object so may run in a caller's process: it defines
 * __mantis_inproc_run and calls none of the functions whose effect would outlast the run or
 * reach beyond the process's own state (fork, exec, system, threads, kill, chdir's kin are
 * put back but these are not: see solib.c's refused list); -1 with err naming the first such
 * function, or the file's fault.
 */
int solib_hostable(const char *so, struct error *err);

/*
 * Runs the shared object so on in within this process, as runner_run runs a program: its
 * arguments (argv0, in's words with {tmp} a fresh scratch folder, also its working folder; or
 * opt->workdir as it is), in's stdin on descriptor 0 (else empty), opt->env added to the
 * environment for the run, killed at opt->timeout seconds (SIGALRM; 0: none), a crash (SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL) caught. The object stays loaded between runs where it may (its
 * writable data put back as loaded before each: solib.c). res->wall is all of it (setting up,
 * loading or putting back, the run, giving back, putting the process back); user and sys this
 * thread's; no peak memory. Afterwards the process is as before: the environment, the working
 * folder, stdin, stdout and stderr and the descriptors (those the run left open are closed);
 * the caught signals' actions are solib.c's from the first run on, which outside a run put
 * back the process's own and pass it the signal (so a caller sets none of them between runs);
 * what a run that ended left allocated or open is given back (rt/inproc.c: the slice's malloc
 * family and streams; the C library's own allocations for it stay). After a crash or a timeout
 * the run's state is unknown (a lock of the C library it held, its heap): the object is
 * unloaded under the same catch, and a caller should end soon. Returns 0 when it ran
 * (res->status says how it ended), -1 with err set when it could not be loaded or run.
 */
int solib_run(const char *so, const struct input *in, const struct run_options *opt,
	      struct run_result *res, struct error *err);

#endif
