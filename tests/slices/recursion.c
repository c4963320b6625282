/* Case 7: recursion. A binary search tree is built by a recursive insert and measured by a
 * recursive height; the features are insert's calls and a loop bounded by the height. The
 * recursive weigh() walk does expensive work per node into a field nobody else reads. */
#include <stdio.h>
#include <stdlib.h>

struct tree {
	int key;
	unsigned long weight;
	struct tree *left, *right;
};

static unsigned long long rng = 1;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33);
}

static struct tree *insert(struct tree *t, int key)
{
	if (!t) {
		t = calloc(1, sizeof *t);
		t->key = key; // kept
		return t;
	}
	if (key < t->key)
		t->left = insert(t->left, key); // kept
	else
		t->right = insert(t->right, key); // kept
	return t;
}

static int height(const struct tree *t)
{
	if (!t)
		return 0;
	int l = height(t->left), r = height(t->right);
	return 1 + (l > r ? l : r);
}

static unsigned long weigh(struct tree *t, int rounds)
{
	if (!t)
		return 0;
	unsigned long h = (unsigned long)t->key;
	for (int i = 0; i < rounds; i++)
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9UL + (unsigned long)i;
	t->weight = h + weigh(t->left, rounds) + weigh(t->right, rounds);
	return t->weight;
}

int main(int argc, char **argv)
{
	struct tree *root = NULL;
	long levels = 0;

	if (argc < 4)
		return 1;
	int n = atoi(argv[1]);
	rng = strtoull(argv[2], NULL, 10);
	int rounds = atoi(argv[3]); // removed
	for (int i = 0; i < n; i++)
		root = insert(root, (int)(next_rand() % 100000));
	unsigned long w = weigh(root, rounds); // removed
	int h = height(root); // kept
	for (int i = 0; i < h; i++)
		levels += i; // removed
	printf("%lu %d %ld\n", w, h, levels); // removed
	return 0;
}

// slice: call:insert:recursion.c:21
// slice: loop:main:recursion.c:68
// cheap
// run: 10 1 10
// run: 500 2 100
// run: 0 3 10
// run: 5000 4 20000
