/* Loops of every shape, with their iteration counts (back edges taken) worked out by hand. */
#include <stdio.h>
#include <stdlib.h>

static int triangle(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j <= i; j++)
			s++;
	return s;
}

static int collatz(long x)
{
	int steps = 0;
	while (x != 1) {
		x = x % 2 ? 3 * x + 1 : x / 2;
		steps++;
	}
	return steps;
}

static int countdown(int n)
{
	int k = 0;
	do {
		k++;
	} while (--n > 0);
	return k;
}

static int gotoloop(int n)
{
	int i = 0;
again:
	if (i < n) {
		i += 2;
		goto again;
	}
	return i;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	printf("%d %d %d %d\n", triangle(n), collatz(27), countdown(n), gotoloop(n));
	return 0;
}

// run: 10
// expect: loop:triangle:loops.c:8 = 10
// expect: loop:triangle:loops.c:9 = 55
// expect: loop:collatz:loops.c:17 = 111
// expect: loop:countdown:loops.c:27 = 9
// expect: loop:gotoloop:loops.c:37 = 5
// expect: call:triangle:loops.c:5 = 1
// expect: value:triangle:loops.c:7:s.sum = 1540
// expect: value:triangle:loops.c:7:s.count = 56
// expect: value:triangle:loops.c:7:s.first = 0
// run: 3
// expect: loop:triangle:loops.c:8 = 3
// expect: loop:triangle:loops.c:9 = 6
// expect: loop:countdown:loops.c:27 = 2
// expect: loop:gotoloop:loops.c:37 = 2
