/* A profiling target that misbehaves on purpose: "ok N" loops N times, "crash" dies of
 * SIGSEGV, "hang" never ends, "fail" exits 3. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0, s = 0;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "crash") == 0)
		raise(SIGSEGV);
	if (strcmp(argv[1], "hang") == 0)
		for (;;)
			pause();
	if (strcmp(argv[1], "fail") == 0)
		exit(3);
	for (long i = 0; i < n; i++)
		s += i % 7;
	printf("%ld\n", s);
	return 0;
}
