/*
 * cmd_help.c: "mantis help [COMMAND]": the list of commands, or one command's full help.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int run_help(int argc, char **argv)
{
	const struct command *const *all = cli_commands();
	const struct command *cmd;

	if (argc > 2)
		usage_error(&cmd_help, "too many arguments");
	if (argc == 2) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
			argv[1] = "help";
		if (!(cmd = cli_find_command(argv[1]))) {
			fprintf(stderr, "mantis help: '%s' is not a mantis command. "
					"See 'mantis help'.\n", argv[1]);
			return EXIT_USAGE;
		}
		return cli_print_usage(cmd);
	}
	puts("usage: mantis <command> [options]\n"
	     "       mantis --version\n"
	     "\n"
	     "mantis predicts how long a C program will take on an input, before running it,\n"
	     "and tells which loops and input properties drive its run time.\n"
	     "\n"
	     "Commands:");
	for (int i = 0; all[i]; i++)
		printf("   %-12s %s\n", all[i]->name, all[i]->summary);
	puts("\n"
	     "'mantis help COMMAND' or 'mantis COMMAND --help' shows a command's options.\n"
	     "Exit codes: 0 ok, 1 the work failed, 2 usage error.");
	return EXIT_OK;
}

const struct command cmd_help = {
	.name = "help",
	.summary = "show the commands, or one command's options",
	.usage = "usage: mantis help [COMMAND]\n"
		 "\n"
		 "Without COMMAND, lists the commands. With COMMAND, prints its options.\n",
	.run = run_help,
};
