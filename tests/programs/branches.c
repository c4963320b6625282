/* if/else chains, && (two branches on one line), and a switch with a fall-through. */
#include <stdio.h>
#include <stdlib.h>

static int classify(int x)
{
	if (x < 0)
		return -1;
	else if (x == 0)
		return 0;
	return 1;
}

int main(int argc, char **argv)
{
	int n = atoi(argv[1]), neg = 0, both = 0, cases[4] = {0};

	(void)argc;
	for (int i = -n; i <= n; i++) {
		neg += classify(i) < 0;
		if (i > 2 && i % 2 == 0)
			both++;
		switch (i & 3) {
		case 0: cases[0]++; break;
		case 1: cases[1]++; /* fall through */
		case 2: cases[2]++; break;
		default: cases[3]++;
		}
	}
	printf("%d %d %d %d %d %d\n", neg, both, cases[0], cases[1], cases[2], cases[3]);
	return 0;
}

// run: 5
// expect: loop:main:branches.c:19 = 11
// expect: call:classify:branches.c:5 = 11
// expect: branch:classify:branches.c:7:true = 5
// expect: branch:classify:branches.c:7:false = 6
// expect: branch:classify:branches.c:9:true = 1
// expect: branch:classify:branches.c:9:false = 5
// expect: branch:main:branches.c:21:true = 3
// expect: branch:main:branches.c:21:false = 8
// expect: branch:main:branches.c:21:true#2 = 1
// expect: branch:main:branches.c:21:false#2 = 2
// expect: switch:main:branches.c:23:default = 3
// expect: switch:main:branches.c:23:case=0 = 3
// expect: switch:main:branches.c:23:case=1 = 3
// expect: switch:main:branches.c:23:case=2 = 2
