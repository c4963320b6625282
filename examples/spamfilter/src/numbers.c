/* numbers.c - loading, sorting and merging lists of phone numbers. */
#include "numbers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_LEN 256

void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size ? size : 1);
    if (!q) {
        fprintf(stderr, "spamfilter: out of memory\n");
        exit(1);
    }
    return q;
}

void phonevec_push(PhoneVec *pv, const Phone *p)
{
    if (pv->n == pv->cap) {
        pv->cap = pv->cap ? pv->cap * 2 : 1024;
        pv->v = xrealloc(pv->v, pv->cap * sizeof *pv->v);
    }
    pv->v[pv->n++] = *p;
}

void phonevec_free(PhoneVec *pv)
{
    free(pv->v);
    pv->v = NULL;
    pv->n = pv->cap = 0;
}

int load_list(const char *path, PhoneVec *out, ListStats *st)
{
    char line[LINE_MAX_LEN];
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;

    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        int too_long = 0;

        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            /* absurdly long line: skip the rest of it */
            int c;
            while ((c = getc(f)) != EOF && c != '\n')
                ;
            too_long = 1;
        }
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';

        size_t start = strspn(line, " \t");
        if (line[start] == '\0' || line[start] == '#')
            continue;

        st->read++;
        Phone p;
        if (too_long || phone_parse(line + start, len - start, &p) != 0) {
            st->malformed++;
            continue;
        }
        phonevec_push(out, &p);
    }

    int err = ferror(f);
    fclose(f);
    return err ? -1 : 0;
}

/* Insertion sort.  Exports from the spam databases are almost always
 * sorted already (or nearly so), and on such input this is close to a
 * single pass, so there is no need for anything cleverer. */
void sort_numbers(Phone *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        Phone key = a[i];
        size_t j = i;
        while (j > 0 && strcmp(a[j - 1].num, key.num) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = key;
    }
}

void merge_sorted(PhoneVec *acc, const PhoneVec *src)
{
    size_t total = acc->n + src->n;
    Phone *dst = xrealloc(NULL, total * sizeof *dst);
    size_t i = 0, j = 0, k = 0;

    while (i < acc->n && j < src->n) {
        if (strcmp(acc->v[i].num, src->v[j].num) <= 0)
            dst[k++] = acc->v[i++];
        else
            dst[k++] = src->v[j++];
    }
    while (i < acc->n)
        dst[k++] = acc->v[i++];
    while (j < src->n)
        dst[k++] = src->v[j++];

    free(acc->v);
    acc->v = dst;
    acc->n = acc->cap = total;
}

size_t dedup_sorted(Phone *a, size_t n, unsigned *counts)
{
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        if (out > 0 && strcmp(a[out - 1].num, a[i].num) == 0) {
            counts[out - 1]++;
        } else {
            a[out] = a[i];
            counts[out] = 1;
            out++;
        }
    }
    return out;
}

static int cmp_phone(const void *key, const void *elem)
{
    return strcmp(key, ((const Phone *)elem)->num);
}

int contains_sorted(const Phone *a, size_t n, const char *num)
{
    return n > 0 && bsearch(num, a, n, sizeof *a, cmp_phone) != NULL;
}
