/*
 * predict-driver.c: a scheduler's call of an exported predictor (mantis export-c), for the CLI
 * tests. Compiled with -DPREDICT=NAME_predict beside predict_NAME.c; prints, per argument, the
 * prediction for a run of "prog" on it ("-": a run with no argument) to 17 significant digits
 * (they read back to the same double) and errno's message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

double PREDICT(int argc, char **argv);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char *args[] = {"prog", argv[i], NULL};
		double v;

		errno = 0;
		v = PREDICT(strcmp(argv[i], "-") ? 2 : 1, args);
		printf("%s %.17g %s\n", argv[i], v, errno ? strerror(errno) : "ok");
	}
	return 0;
}
