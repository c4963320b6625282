/* A loop around a recursive call: the callee updates the same counters as the loop that calls
 * it, so they must not be kept in registers across the call (at -O2, LICM did, and counted 3
 * iterations instead of 363). rec(d) makes (3^(d+1) - 1) / 2 calls, (3^d - 1) / 2 of them
 * loop 3 times. Its IR (after mem2reg, simplifycfg): entry icmp br; header phi phi icmp br;
 * body sub call add add br; exit phi ret. Each call executes entry and exit (4), each looping
 * one 4 headers and 3 bodies (31): 364 * 4 + 121 * 31 = 5207 for d = 5. */
#include <stdio.h>
#include <stdlib.h>

static int rec(int d)
{
	int s = 0;

	if (d == 0)
		return 1;
	for (int i = 0; i < 3; i++)
		s += rec(d - 1);
	return s;
}

int main(int argc, char **argv)
{
	(void)argc;
	printf("%d\n", rec(atoi(argv[1])));
	return 0;
}

// run: 5
// expect: call:rec:recursion.c:10 = 364
// expect: loop:rec:recursion.c:16 = 363
// expect: branch:rec:recursion.c:14:true = 243
// expect: bycount:rec:recursion.c:10:total = 5207
// expect: bycount:rec:recursion.c:10:call = 363
