/* n / d thousand steps: the instruction count is a line in n / d, which an evaluator reads off
 * the input file's two numbers (tests/cli/serve.t, train-in-process.t); d = 0 crashes (SIGFPE). */
#include <stdio.h>
int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	long n, d, steps, s = 0;

	if (!f || fscanf(f, "%ld %ld", &n, &d) != 2)
		return 1;
	fclose(f);
	steps = n / d;
	for (long i = 0; i < steps * 1000; i++)
		s += i * i % 7;
	printf("%ld\n", s);
	return 0;
}
