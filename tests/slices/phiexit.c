/* Case 14: a do-while loop whose last value reaches a join (a phi fed by the loop's own phi)
 * and a feature that depends on neither. The slicer sends the loop's branch to its immediate
 * post-dominator, rewriting the phis of both successors; the join's new phi must take its value
 * from the loop's phi as it is after that rewrite, not from the one the rewrite freed (a use of
 * freed memory in LLVM's own code, which ASan does not see; tests/slices/run runs the slicer
 * under valgrind). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	int n = atoi(argv[1]);
	int k = atoi(argv[2]); // kept
	int last = -1, hits = 0;

	if (n > 0) {
		int i = 0;

		do {
			last = i;
			i += 3; // removed
		} while (i < n);
	}
	printf("%d\n", last); // removed
	for (int j = 0; j < k; j++)
		hits += j % 2;
	printf("%d\n", hits); // removed
	return 0;
}

// slice: loop:main:phiexit.c:27
// run: 10 4
// run: 0 3
// run: 100 0
