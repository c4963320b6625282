/*
 * cli.h: what every subcommand file shares: the command descriptor, exit codes, and the only
 * functions in mantis allowed to print an error and exit.
 */
#ifndef MANTIS_CLI_H
#define MANTIS_CLI_H

#include <stdnoreturn.h>

/* Exit codes of every command (docs/ARCHITECTURE.md, "Contracts"). */
enum {
	EXIT_OK = 0,    /* the work was done */
	EXIT_FAILED = 1, /* the work failed; stderr says what and where */
	EXIT_USAGE = 2, /* the command line was wrong */
};

/* One subcommand: lives in cmd_NAME.c and is listed once in main.c's table. */
struct command {
	const char *name;    /* what the user types after "mantis" */
	const char *summary; /* one line for "mantis help" */
	const char *usage;   /* the full help text of "mantis help NAME", ending in a newline */
	const char *usage_more; /* its continuation, or NULL: a string literal longer than 4095
				 * bytes is not portable C */
	const char *usage_end;  /* the continuation's, or NULL */
	int (*run)(int argc, char **argv); /* argv[0] is the command name; returns an exit code */
};

extern const struct command cmd_help;
extern const struct command cmd_model;
extern const struct command cmd_instrument;
extern const struct command cmd_cc;
extern const struct command cmd_features;
extern const struct command cmd_profile;
extern const struct command cmd_export;
extern const struct command cmd_slice;
extern const struct command cmd_explore;
extern const struct command cmd_train;
extern const struct command cmd_predict;
extern const struct command cmd_serve;
extern const struct command cmd_eval;
extern const struct command cmd_report;
extern const struct command cmd_export_c;
extern const struct command cmd_count;
extern const struct command cmd_calibrate;

/* The --platform forms of predict and eval (cmd_platform.c): return an exit code. */
int predict_on_platform(int argc, char **argv);
int eval_on_platform(int argc, char **argv);
/* Returns whether option is among argv[1..] before any "--". */
int cli_has_option(int argc, char **argv, const char *option);
struct input;
/* Fills *in with words[0..n) (words naming existing files made absolute, as an inputs file's
 * are) and stdin_path (or none); dies if stdin_path cannot be read. Release with
 * input_release (inputs.h). */
void cli_make_input(struct input *in, char **words, int n, const char *stdin_path);

/* Returns the command called name, or NULL; static storage. */
const struct command *cli_find_command(const char *name);
/* Returns the NULL-terminated table of every command, in the order help lists them. */
const struct command *const *cli_commands(void);

/* Returns the path of the runtime object rt/NAME beside the mantis executable (mantisrt.o,
 * slicert.o), owned by the caller; dies if it is missing. */
char *cli_runtime_file(const char *name);
/* Returns the path of the executable name beside the running one (mantis-predict beside mantis),
 * owned by the caller, or NULL when there is none. */
char *cli_sibling(const char *name);

/* Makes the exit codes of --ok-exit CODES ("1", "1,2") the program's success for every run of
 * this process (runner_set_ok_exits); a usage error of cmd if one is not a code. */
void cli_ok_exits(const struct command *cmd, const char *codes);
/* Returns whether "--help" or "-h" comes before any "--" in argv[1..]. */
int cli_asks_for_help(int argc, char **argv);
/* Prints cmd's whole help text on stdout; returns EXIT_OK. */
int cli_print_usage(const struct command *cmd);

/* Prints "mantis: MESSAGE" on stderr and exits with EXIT_FAILED. */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "mantis CMD: MESSAGE" and a pointer to "mantis help CMD"; exits with EXIT_USAGE. */
noreturn void usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
