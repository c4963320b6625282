/*
 * cli.c: what every mantis executable's command line shares (mantis, mantis-predict): dying
 * with a message, usage errors, --help before a "--", the runtime objects beside the
 * executable. The CLI layer only: library code reports errors in a struct error.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "error.h"
#include "runner.h"
#include "util.h"

/* Returns the folder of the running executable, owned by the caller; dies if it is unknown. */
static char *executable_dir(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n <= 0)
		die("cannot find the mantis executable (/proc/self/exe)");
	exe[n] = '\0';
	*strrchr(exe, '/') = '\0';
	return xstrdup(exe);
}

char *cli_runtime_file(const char *name)
{
	char *dir = executable_dir(), *path = xasprintf("%s/rt/%s", dir, name);

	free(dir);
	if (access(path, R_OK) != 0)
		die("the runtime %s is missing (run make)", path);
	return path;
}

char *cli_sibling(const char *name)
{
	char *dir = executable_dir(), *path = xasprintf("%s/%s", dir, name);

	free(dir);
	if (access(path, X_OK) == 0)
		return path;
	free(path);
	return NULL;
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

int cli_asks_for_help(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return 1;
	}
	return 0;
}

int cli_print_usage(const struct command *cmd)
{
	fputs(cmd->usage, stdout);
	if (cmd->usage_more)
		fputs(cmd->usage_more, stdout);
	if (cmd->usage_end)
		fputs(cmd->usage_end, stdout);
	return EXIT_OK;
}

void cli_ok_exits(const struct command *cmd, const char *codes)
{
	struct error err = {""};
	uint64_t set;

	if (runner_parse_exits(codes, &set, &err) < 0)
		usage_error(cmd, "--ok-exit: %s", err.msg);
	runner_set_ok_exits(set);
}
