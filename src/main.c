/*
 * main.c: the mantis command line. Finds the subcommand in one table (as git.c does) and runs
 * it; handles the options that belong to no subcommand (--help, --version) and, uniformly for
 * every subcommand, "--help" anywhere before a "--".
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "util.h"

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

char *cli_runtime_file(const char *name)
{
	char exe[4096], *slash, *path;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		die("cannot find the mantis executable (/proc/self/exe)");
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	*slash = '\0';
	path = xasprintf("%s/rt/%s", exe, name);
	if (access(path, R_OK) != 0)
		die("the runtime %s is missing (run make)", path);
	return path;
}

noreturn void die(const char *fmt, ...)
{
	va_list ap;

	fputs("mantis: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_FAILED);
}

noreturn void usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mantis %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nSee 'mantis help %s'.\n", cmd->name);
	exit(EXIT_USAGE);
}

/* Returns whether "--help" or "-h" comes before any "--" in argv[1..]. */
static int asks_for_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
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
	if (cmd != &cmd_help && asks_for_help(argc - 1, argv + 1)) {
		fputs(cmd->usage, stdout);
		if (cmd->usage_more)
			fputs(cmd->usage_more, stdout);
		return EXIT_OK;
	}
	return cmd->run(argc - 1, argv + 1);
}
