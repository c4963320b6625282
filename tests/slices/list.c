/* Case 3: pointers, structs and a malloc'd linked list. The features count a traversal and
 * a loop bounded by a struct field; the digest field, filled with expensive work in the same
 * nodes and the same stats struct, is removed (field sensitivity). */
#include <stdio.h>
#include <stdlib.h>

struct node {
	int key;
	unsigned long digest; /* expensive, unrelated to the traversal */
	struct node *next;
};

struct stats {
	long evens;
	unsigned long mix;
};

static unsigned long long rng = 1;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33);
}

static unsigned long digest_of(int key, int rounds)
{
	unsigned long h = (unsigned long)key;

	for (int r = 0; r < rounds; r++)
		h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9UL + (unsigned long)r;
	return h;
}

static struct node *push(struct node *head, int key)
{
	struct node *n = malloc(sizeof *n);

	n->key = key; // kept
	n->digest = 0;
	n->next = head; // kept
	return n;
}

static int length(const struct node *p)
{
	int len = 0;

	while (p) {
		len++;
		p = p->next;
	}
	return len;
}

static void account(struct stats *st, const struct node *p)
{
	if (p->key % 2 == 0)
		st->evens++; // kept
	st->mix ^= p->digest; // removed
}

int main(int argc, char **argv)
{
	struct stats st = {0, 0};
	struct node *head = NULL;
	long pairs = 0;

	if (argc < 4)
		return 1;
	int n = atoi(argv[1]);
	rng = strtoull(argv[2], NULL, 10);
	int rounds = atoi(argv[3]); // removed
	for (int i = 0; i < n; i++)
		head = push(head, (int)(next_rand() % 1000));
	for (struct node *p = head; p; p = p->next)
		p->digest = digest_of(p->key, rounds); // removed
	for (struct node *p = head; p; p = p->next)
		account(&st, p);
	for (long i = 0; i < st.evens; i++)
		pairs += i; // removed
	printf("%d %ld %lu %ld\n", length(head), st.evens, st.mix, pairs);
	while (head) {
		struct node *next = head->next;

		free(head);
		head = next;
	}
	return 0;
}

// slice: loop:length:list.c:49
// slice: loop:main:list.c:80
// cheap
// run: 10 1 100
// run: 1000 2 500
// run: 0 3 10
// run: 10000 3 10000
