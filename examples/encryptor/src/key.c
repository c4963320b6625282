/* key.c - loading, validating and applying Hill-cipher keys. */
#include "key.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;

    if (!f) {
        fprintf(stderr, "encryptor: cannot open key file %s: %s\n", path, strerror(errno));
        return NULL;
    }
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                fprintf(stderr, "encryptor: out of memory reading key\n");
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "encryptor: error reading key file %s\n", path);
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

/* Reads the next integer starting at *pp; returns 0 on success. */
static int next_int(char **pp, long *out)
{
    char *p = *pp, *end;
    while (isspace((unsigned char)*p))
        p++;
    if (*p == '\0')
        return 1;
    errno = 0;
    *out = strtol(p, &end, 10);
    if (end == p || errno == ERANGE || (*end && !isspace((unsigned char)*end)))
        return -1;
    *pp = end;
    return 0;
}

int key_load(const char *path, struct hill_key *k)
{
    char *text = slurp_text(path), *p;
    long v;
    int rc;

    k->n = 0;
    k->m = NULL;
    if (!text)
        return -1;
    p = text;
    rc = next_int(&p, &v);
    if (rc != 0 || v < 1 || v > KEY_MAX_DIM) {
        fprintf(stderr, "encryptor: key file: dimension must be an integer 1..%d\n", KEY_MAX_DIM);
        free(text);
        return -1;
    }
    k->n = (int)v;
    k->m = malloc((size_t)k->n * (size_t)k->n);
    if (!k->m) {
        fprintf(stderr, "encryptor: out of memory for key\n");
        free(text);
        return -1;
    }
    for (size_t i = 0; i < (size_t)k->n * (size_t)k->n; i++) {
        rc = next_int(&p, &v);
        if (rc > 0) {
            fprintf(stderr, "encryptor: key file: expected %d values, found %zu\n",
                    k->n * k->n, i);
            goto bad;
        }
        if (rc < 0 || v < 0 || v > 255) {
            fprintf(stderr, "encryptor: key file: entry %zu,%zu is not an integer 0..255\n",
                    i / (size_t)k->n, i % (size_t)k->n);
            goto bad;
        }
        k->m[i] = (uint8_t)v;
    }
    if (next_int(&p, &v) != 1) {
        fprintf(stderr, "encryptor: key file: trailing data after %d values\n", k->n * k->n);
        goto bad;
    }
    free(text);
    return 0;

bad:
    free(text);
    key_free(k);
    return -1;
}

void key_free(struct hill_key *k)
{
    free(k->m);
    k->m = NULL;
    k->n = 0;
}

/* Multiplicative inverse of an odd byte mod 256 (Newton iteration). */
static uint8_t inv_odd(uint8_t a)
{
    unsigned x = a;                 /* correct to 3 bits since a*a = 1 mod 8 */
    for (int i = 0; i < 3; i++)
        x = (x * (2u - a * x)) & 0xffu;
    return (uint8_t)x;
}

static void swap_rows(uint8_t *m, int w, int r1, int r2)
{
    if (r1 == r2)
        return;
    uint8_t *a = m + (size_t)r1 * w, *b = m + (size_t)r2 * w;
    for (int j = 0; j < w; j++) {
        uint8_t t = a[j];
        a[j] = b[j];
        b[j] = t;
    }
}

int key_invert(const struct hill_key *k, uint8_t *inv)
{
    int n = k->n;
    int w = inv ? 2 * n : n;        /* augmented width */
    uint8_t *a = malloc((size_t)n * (size_t)w);
    int ok = 0;

    if (!a)
        return -1;
    for (int i = 0; i < n; i++) {
        memcpy(a + (size_t)i * w, k->m + (size_t)i * n, (size_t)n);
        if (inv) {
            memset(a + (size_t)i * w + n, 0, (size_t)n);
            a[(size_t)i * w + n + i] = 1;
        }
    }

    for (int c = 0; c < n; c++) {
        int piv = -1;
        for (int r = c; r < n; r++) {
            if (a[(size_t)r * w + c] & 1) {
                piv = r;
                break;
            }
        }
        if (piv < 0)
            goto done;              /* even determinant: not invertible */
        swap_rows(a, w, c, piv);

        uint8_t *prow = a + (size_t)c * w;
        uint8_t s = inv_odd(prow[c]);
        for (int j = c; j < w; j++)
            prow[j] = (uint8_t)(prow[j] * s);

        /* Forward elimination only when just validating; full Gauss-Jordan
         * when the inverse is wanted. */
        for (int r = inv ? 0 : c + 1; r < n; r++) {
            uint8_t *row = a + (size_t)r * w;
            uint8_t f = row[c];
            if (r == c || f == 0)
                continue;
            for (int j = c; j < w; j++)
                row[j] = (uint8_t)(row[j] - f * prow[j]);
        }
    }
    ok = 1;
    if (inv)
        for (int i = 0; i < n; i++)
            memcpy(inv + (size_t)i * n, a + (size_t)i * w + n, (size_t)n);

done:
    free(a);
    return ok ? 0 : -1;
}

int plan_build(struct key_plan *p, const uint8_t *m, int n)
{
    size_t nn = (size_t)n * (size_t)n, k = 0;

    memset(p, 0, sizeof *p);
    p->n = n;
    for (size_t i = 0; i < nn; i++)
        p->nnz += m[i] != 0;
    p->tmp = malloc((size_t)n);
    p->rowptr = malloc(((size_t)n + 1) * sizeof *p->rowptr);
    p->col = malloc((p->nnz ? p->nnz : 1) * sizeof *p->col);
    p->val = malloc(p->nnz ? p->nnz : 1);
    if (!p->tmp || !p->rowptr || !p->col || !p->val)
        return -1;
    for (int i = 0; i < n; i++) {
        p->rowptr[i] = k;
        for (int j = 0; j < n; j++) {
            uint8_t v = m[(size_t)i * n + j];
            if (v) {
                p->col[k] = (uint16_t)j;
                p->val[k] = v;
                k++;
            }
        }
    }
    p->rowptr[n] = k;
    return 0;
}

void plan_apply(const struct key_plan *p, uint8_t *data, size_t nblocks)
{
    int n = p->n;

    for (size_t b = 0; b < nblocks; b++) {
        uint8_t *x = data + b * (size_t)n;
        for (int i = 0; i < n; i++) {
            unsigned acc = 0;
            for (size_t k = p->rowptr[i]; k < p->rowptr[i + 1]; k++)
                acc += (unsigned)p->val[k] * x[p->col[k]];
            p->tmp[i] = (uint8_t)acc;
        }
        memcpy(x, p->tmp, (size_t)n);
    }
}

void plan_free(struct key_plan *p)
{
    free(p->rowptr);
    free(p->col);
    free(p->val);
    free(p->tmp);
    memset(p, 0, sizeof *p);
}
