/*
 * host_main.c: mantis-host SO ARGV0 [WORD...], a stand-in for an evaluator's executable that
 * runs its shared-object form SO (solib.h) in this process: on the words, with argv[0] ARGV0,
 * in this process's working folder, its stdin as its stdin, its environment (MANTIS_COUNTERS
 * ...), and it exits as the run ended: with its status, or killed by its signal. So whatever
 * runs the executable (runner.c) runs this the same way and reads the same counters, and a
 * crash of the evaluator is a crash of this process, not of mantis. When MANTIS_HOSTED_WALL
 * names a file, the run is made twice (once when the first takes WARM_WORTH or more) and the
 * two runs' own wall times (solib_run's: loading or putting its data back, running, giving
 * back, putting the process back; not this process's start) are written there in seconds, one
 * a line: the first, cold (the object loaded, the process's memory not yet touched: on this
 * kind of host each page fault costs about 15 us, and djpeg's header evaluator ran 0.7-1.6 ms
 * cold), then the second, warm, as a long-lived process that hosts one run after another pays
 * it (the object still loaded where solib.c keeps it). Linked dynamically
 * (dlopen of an object that needs the C library reuses the loaded one), without LLVM or
 * LAPACK (their relocations cost milliseconds at each start).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "inputs.h"
#include "runner.h"
#include "solib.h"

/* Runs longer than this cold are not run again warm: what a warm process saves (page faults,
 * about 1 ms here) is then under 1% of the run, and a second run of a long evaluator would
 * double what judging it costs training. */
#define WARM_WORTH 0.1

/* Writes the cold and warm seconds to the file path names. */
static void write_walls(const char *path, double cold, double warm)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fprintf(f, "%.9f\n%.9f\n", cold, warm);
		fclose(f);
	}
}

int main(int argc, char **argv)
{
	struct input in = {.line = 0, .argc = argc - 3, .argv = argv + 3,
			   .stdin_path = "/proc/self/fd/0"};
	struct run_options opt = {.argv0 = argc > 2 ? argv[2] : NULL, .workdir = "."};
	struct run_result res;
	struct error err = {""};
	const char *walls = getenv("MANTIS_HOSTED_WALL");
	double cold;

	if (argc < 3) {
		fprintf(stderr, "usage: mantis-host SO ARGV0 [WORD...]\n");
		return 2;
	}
	runner_set_ok_exits(~(uint64_t)0); /* the caller judges the status */
	if (solib_run(argv[1], &in, &opt, &res, &err) < 0) {
		fprintf(stderr, "mantis-host: %s\n", err.msg);
		return 127;
	}
	if (walls && *walls && res.status != RUN_CRASH && res.status != RUN_TIMEOUT) {
		cold = res.wall;
		if (cold < WARM_WORTH && solib_run(argv[1], &in, &opt, &res, &err) < 0) {
			fprintf(stderr, "mantis-host: %s\n", err.msg);
			return 127;
		}
		write_walls(walls, cold, res.wall);
	}
	if (res.status == RUN_CRASH || res.status == RUN_TIMEOUT) {
		signal(res.signal, SIG_DFL);
		raise(res.signal);
	}
	return res.exit_code;
}
