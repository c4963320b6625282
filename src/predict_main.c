/*
 * predict_main.c: mantis-predict, the command "mantis predict" alone in an executable that does
 * not load LLVM. Loading libLLVM (its relocations and global constructors) costs every mantis
 * run about 17 ms of CPU time before main (60 ms on the AMD host of session 29); a scheduler that predicts each job by running a
 * command pays that per job, more than many predictions cost. mantis-predict links the same
 * command (cmd_predict.c, its --platform form in cmd_platform.c) without the LLVM library, and
 * statically (the Makefile: the dynamic loader took 4.6 ms of a 7.4 ms start, LAPACK's and
 * libgfortran's relocations), and starts in about 2.2 ms. Arguments, output and exit codes are
 * mantis predict's.
 */
#include <stdio.h>

#include "cli.h"

int main(int argc, char **argv)
{
	if (cli_asks_for_help(argc, argv))
		return cli_print_usage(&cmd_predict);
	argv[0] = "predict";
	return cmd_predict.run(argc, argv);
}
