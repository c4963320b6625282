/* Four threads and the main thread run the same loop: counts are the sums over all threads. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long work(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i & 3;
	return s;
}

static void *run(void *arg)
{
	long n = (long)arg;

	if (n == 4000)
		pthread_exit((void *)work(n)); /* counted too */
	return (void *)work(n);
}

int main(int argc, char **argv)
{
	pthread_t t[4];
	long total = 0;

	(void)argv;
	for (int k = 0; k < 4; k++)
		pthread_create(&t[k], NULL, run, (void *)(long)(1000 * (k + 1)));
	for (int k = 0; k < 4; k++) {
		void *r;

		pthread_join(t[k], &r);
		total += (long)r;
	}
	total += work(500 * argc);
	printf("%ld\n", total);
	return 0;
}

// run: x
// expect: loop:work:threads.c:10 = 11000
// expect: call:work:threads.c:6 = 5
// expect: call:run:threads.c:15 = 4
// expect: call:pthread_create:threads.c:31:count = 4
// A thread's counters join the total when it ends, so a value's .first (and .vI) is the sum over
// threads of each thread's first (i-th) value: here the n of each of the five calls of work.
// expect: value:work:threads.c:6:n.sum = 11000
// expect: value:work:threads.c:6:n.count = 5
// expect: value:work:threads.c:6:n.first = 11000
