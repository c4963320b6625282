/*
 * predict-driver.c: a scheduler's call of an exported predictor (mantis export-c), for the CLI
 * tests. Compiled with -DPREDICT=NAME_predict beside predict_NAME.c (and, to give the program a
 * standard input, -DPREDICT_STDIN=NAME_predict_stdin); prints, per argument, the prediction for
 * a run of "prog" on it ("-": a run with no argument; "<FILE": a run with no argument reading
 * FILE as its standard input; "A,B,...": a run with the arguments A, B, ...) to 17
 * significant digits (they read back to the same double) and
 * errno's message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

double PREDICT(int argc, char **argv);
#ifdef PREDICT_STDIN
double PREDICT_STDIN(int argc, char **argv, const char *input);
#endif

/* Returns the prediction for argv[0..argc) with the standard input read from input: by
 * PREDICT_STDIN, or by PREDICT when input is NULL (none). */
static double predict(int argc, char **argv, const char *input)
{
	if (!input)
		return PREDICT(argc, argv);
#ifdef PREDICT_STDIN
	return PREDICT_STDIN(argc, argv, input);
#else
	errno = ENOSYS;
	return -1;
#endif
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char word[4096], *comma, *args[8] = {"prog", word};
		const char *input = argv[i][0] == '<' ? argv[i] + 1 : NULL;
		int n = strcmp(argv[i], "-") && !input ? 2 : 1;
		double v;

		snprintf(word, sizeof word, "%s", argv[i]);
		while (!input && n < 7 && (comma = strchr(args[n - 1], ','))) {
			*comma = '\0';
			args[n++] = comma + 1;
		}
		args[n] = NULL;
		errno = 0;
		v = predict(n, args, input);
		printf("%s %.17g %s\n", argv[i], v, errno ? strerror(errno) : "ok");
	}
	return 0;
}
