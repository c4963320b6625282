/* Ways out of a program: exit(), an error return of main, a normal return. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int n = atoi(argv[1]);

	(void)argc;
	if (n > 100)
		exit(3);
	if (n < 0)
		return 2;
	printf("%d\n", n);
	return 0;
}

// run: 500
// status: 3
// expect: exit:main:exits.c:11:exit = 1
// expect: exit:main:exits.c:5:error-return = 0
// run: -4
// status: 2
// expect: exit:main:exits.c:11:exit = 0
// expect: exit:main:exits.c:5:error-return = 1
// run: 7
// expect: exit:main:exits.c:5:error-return = 0
// expect: branch:main:exits.c:10:false = 1
