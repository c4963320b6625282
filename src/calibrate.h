/*
 * calibrate.h: measures a platform's instruction costs with generated microbenchmarks
 * (mantis calibrate; ByCounter's "benchmark each instruction type on the target platform").
 */
#ifndef MANTIS_CALIBRATE_H
#define MANTIS_CALIBRATE_H

struct error;
struct platform;

/* How to calibrate. */
struct calibrate_options {
	const char *target;  /* target triple (clang --target), or NULL for the host */
	const char *opt;     /* optimisation level of the kernels: "0".."3", "s", "z" */
	char *const *runner; /* command prefix that runs a program there, or NULL: none for the
				host, qemu-ARCH -L /usr/TRIPLE for another target */
	int nrunner;         /* words in runner */
	int repetitions;     /* measurements of every kernel (interleaved rounds) */
	double seconds;      /* wall time each measurement aims at */
	const char *workdir; /* an existing folder for the source, binary and output */
};

/*
 * Writes the microbenchmarks (one C program, generated from the kernel tables) to path.
 * Returns 0 or -1 with err set.
 */
int calibrate_write_source(const char *path, struct error *err);

/*
 * Builds the microbenchmarks for the target at the level, runs them there (through the
 * runner) and fills *p with every cost, the startup time and the noise (release with
 * platform_release). Returns 0, or -1 with err saying which step failed.
 */
int calibrate_run(struct platform *p, const struct calibrate_options *opt, struct error *err);

#endif
