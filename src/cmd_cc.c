/*
 * cmd_cc.c: "mantis cc": a C compiler for CC= in make builds that also records bitcode.
 */
#include <stdio.h>
#include <string.h>

#include "cc.h"
#include "cli.h"
#include "error.h"

static int run_cc(int argc, char **argv)
{
	struct error err = {""};
	int rc = cc_run(argv + 1, argc - 1, &err);

	if (rc == 1 && err.msg[0] && !strstr(err.msg, "clang-14 failed"))
		fprintf(stderr, "mantis cc: %s\n", err.msg);
	return rc;
}

const struct command cmd_cc = {
	.name = "cc",
	.summary = "compile like clang-14 and record bitcode, for CC= in make builds",
	.usage =
		"usage: mantis cc [clang arguments...]\n"
		"\n"
		"Compiles and links exactly as clang-14 would with the same arguments, and records\n"
		"beside what it builds the bitcode mantis instruments: OBJECT.bc for each object\n"
		"(its path kept inside the object, so archives carry it), and for a program or\n"
		"shared library PROGRAM.mantis.bc (the whole program: its objects, archive members\n"
		"and libraries built by mantis cc) and PROGRAM.mantis.flags (the link flags left).\n"
		"Then 'mantis instrument -o DIR PROGRAM' builds DIR from them. Example:\n"
		"\n"
		"    make CC=\"mantis cc\" && mantis instrument -o build ./prog\n"
		"\n"
		"'mantis cc --help' shows this; every other argument goes to clang-14.\n",
	.run = run_cc,
};
