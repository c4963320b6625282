/*
 * main.c: the mantis command line. Finds the subcommand in one table (as git.c does) and runs
 * it; handles the options that belong to no subcommand (--help, --version) and, uniformly for
 * every subcommand, "--help" anywhere before a "--".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#ifndef MANTIS_VERSION
#error "MANTIS_VERSION must be defined by the build"
#endif

/* Every subcommand, in the order "mantis help" lists them. */
static const struct command *const commands[] = {
	&cmd_cc,
	&cmd_instrument,
	&cmd_features,
	&cmd_count,
	&cmd_profile,
	&cmd_export,
	&cmd_model,
	&cmd_slice,
	&cmd_explore,
	&cmd_train,
	&cmd_predict,
	&cmd_serve,
	&cmd_eval,
	&cmd_calibrate,
	&cmd_report,
	&cmd_export_c,
	&cmd_help,
	NULL,
};

const struct command *const *cli_commands(void)
{
	return commands;
}

const struct command *cli_find_command(const char *name)
{
	for (int i = 0; commands[i]; i++) {
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		fputs("usage: mantis <command> [options]\nSee 'mantis help'.\n", stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("mantis %s\n", MANTIS_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return cmd_help.run(1, (char *[]){"help", NULL});
	if (argv[1][0] == '-') {
		fprintf(stderr, "mantis: unknown option '%s'\nSee 'mantis help'.\n", argv[1]);
		return EXIT_USAGE;
	}
	cmd = cli_find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "mantis: '%s' is not a mantis command. See 'mantis help'.\n",
			argv[1]);
		return EXIT_USAGE;
	}
	if (cmd != &cmd_help && cli_asks_for_help(argc - 1, argv + 1))
		return cli_print_usage(cmd);
	return cmd->run(argc - 1, argv + 1);
}
