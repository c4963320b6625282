/* Recursion, calls through pointers, and library calls whose cost is in their size arguments. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int compare(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int twice(int x) { return 2 * x; }
static int thrice(int x) { return 3 * x; }

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);
	int *v = malloc(sizeof *v * (size_t)n), *w = malloc(sizeof *w * (size_t)n);
	int (*op[2])(int) = {twice, thrice};
	long s = 0;

	(void)argc;
	for (int i = 0; i < n; i++)
		v[i] = (i * 7919) % n;
	memcpy(w, v, sizeof *v * (size_t)n);
	qsort(w, (size_t)n, sizeof *w, compare);
	for (int i = 0; i < n; i++)
		s += op[i % 2](w[i]);
	printf("%ld %ld\n", fib(n), s);
	free(v);
	free(w);
	return 0;
}

// run: 10
// expect: call:fib:calls.c:6 = 177
// expect: call:twice:calls.c:18 = 5
// expect: call:thrice:calls.c:19 = 5
// expect: call:malloc:calls.c:24:count = 1
// expect: call:malloc:calls.c:24:arg1.sum = 40
// expect: call:malloc:calls.c:24:arg1.sum#2 = 40
// expect: call:memcpy:calls.c:31:count = 1
// expect: call:memcpy:calls.c:31:arg3.sum = 40
// expect: call:qsort:calls.c:32:arg2.sum = 10
// expect: call:qsort:calls.c:32:arg3.sum = 4
// expect: call:qsort:calls.c:32:bytes.sum = 40
// expect: call:(indirect):calls.c:34:count = 10
// expect: call:atoi:calls.c:23:count = 1
