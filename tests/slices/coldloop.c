/* Case 15: a loop that no training run enters, inside a branch no training run takes. The
 * profile-guided pruning (src/prune.c) cuts the branch and deletes the blocks it leaves
 * unreachable, the loop's header among them while the loop's latch still branches to it; the
 * branches must go before the blocks, or deleting the latch writes to the freed header (in
 * LLVM's own code, which ASan does not see; tests/slices/run runs the slicer under valgrind). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	int n = atoi(argv[1]); // kept
	int sum = 0;

	if (n > 1000) {
		puts("big"); // removed
		for (int i = 0; i < n; i++) {
			if (i % 3) {
				sum += i % 7; // removed
			} else {
				sum += 2; // removed
			}
		}
	}
	for (int i = 0; i < n; i++)
		sum += i;
	printf("%d\n", sum); // removed
	return 0;
}

// slice: loop:main:coldloop.c:26
// run: 3
// run: 5
// run: 8
// run: 0
