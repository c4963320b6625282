/* numbers.h - growable arrays of phone numbers, list loading and sorting. */
#ifndef NUMBERS_H
#define NUMBERS_H

#include <stddef.h>

#include "phone.h"

typedef struct {
    Phone *v;
    size_t n, cap;
} PhoneVec;

typedef struct {
    size_t read;        /* non-blank, non-comment lines */
    size_t malformed;   /* lines that are not a phone number */
} ListStats;

void *xrealloc(void *p, size_t size);
void phonevec_push(PhoneVec *pv, const Phone *p);
void phonevec_free(PhoneVec *pv);

/* Reads a spam list (one number per line, '#' comments and blank lines
 * ignored) and appends the valid numbers to out.  Returns 0, or -1 if the
 * file cannot be read (errno set). */
int load_list(const char *path, PhoneVec *out, ListStats *st);

/* Sorts a[0..n) by canonical number. */
void sort_numbers(Phone *a, size_t n);

/* Merges the sorted src into the sorted acc (acc keeps the result). */
void merge_sorted(PhoneVec *acc, const PhoneVec *src);

/* Collapses runs of equal numbers in the sorted a[0..n), storing in
 * counts[k] how many times the k-th distinct number occurred.  Returns the
 * number of distinct numbers. */
size_t dedup_sorted(Phone *a, size_t n, unsigned *counts);

/* Returns 1 if num is in the sorted a[0..n). */
int contains_sorted(const Phone *a, size_t n, const char *num);

#endif
