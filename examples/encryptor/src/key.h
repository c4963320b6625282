/* key.h - Hill-cipher key matrices over Z/256. */
#ifndef KEY_H
#define KEY_H

#include <stddef.h>
#include <stdint.h>

#define KEY_MAX_DIM 4096

/* A square key matrix, entries 0..255, row-major. */
struct hill_key {
    int n;
    uint8_t *m;
};

/* Multiplication plan: each row is kept as a list of its non-zero
 * (column, value) pairs, so sparse keys encrypt faster. */
struct key_plan {
    int n;
    size_t nnz;
    size_t *rowptr;     /* row i is entries rowptr[i] .. rowptr[i+1]-1 */
    uint16_t *col;
    uint8_t *val;
    uint8_t *tmp;       /* one block of scratch */
};

/* Parses a key file: dimension N, then N*N integers 0..255. Prints a
 * message to stderr and returns -1 on error. */
int key_load(const char *path, struct hill_key *k);
void key_free(struct hill_key *k);

/* Gaussian elimination mod 256. Returns 0 if the key is invertible (odd
 * determinant), -1 otherwise. If inv is non-NULL the n*n inverse is
 * stored there. */
int key_invert(const struct hill_key *k, uint8_t *inv);

int plan_build(struct key_plan *p, const uint8_t *m, int n);
/* Replaces each of the nblocks blocks of n bytes x by M*x (mod 256). */
void plan_apply(const struct key_plan *p, uint8_t *data, size_t nblocks);
void plan_free(struct key_plan *p);

#endif
