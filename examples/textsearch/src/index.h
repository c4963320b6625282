#ifndef INDEX_H
#define INDEX_H

#include <stddef.h>

/* One document's entry in a term's posting list. Its positions are
 * term->pos[pos_start .. pos_start + tf). */
typedef struct {
    int doc;
    int tf;
    int pos_start;
} Posting;

typedef struct {
    char *word;
    Posting *post;
    int npost, cap_post;
    int *pos;
    int npos, cap_pos;
} Term;

typedef struct {
    const char *title;
    const char *body;
    size_t body_len;
    int length;         /* indexed terms (title + body) */
} Doc;

typedef struct {
    Term *terms;
    int nterms, cap_terms;
    int *slots;         /* open-addressing table of term numbers, -1 = empty */
    size_t nslots;
    Doc *docs;
    int ndocs, cap_docs;
    long total_terms;
    char *text;         /* the corpus, owned; titles point into it */
} Index;

/* Loads and indexes a corpus file. Returns 0, or -1 after printing an error. */
int index_load(Index *ix, const char *path);
void index_free(Index *ix);

/* The term for a (lowercased) word, or NULL if it never occurs. */
const Term *index_find(const Index *ix, const char *word);

/* realloc that exits with status 2 when memory runs out. */
void *xrealloc(void *p, size_t n);

#endif
