#ifndef QUERY_H
#define QUERY_H

#include "index.h"

#define MAX_CLAUSES 32
#define MAX_PHRASE 8

typedef enum { CLAUSE_SHOULD, CLAUSE_MUST, CLAUSE_NOT } ClauseKind;

/* A single term or a quoted phrase, with its +/- operator. */
typedef struct {
    ClauseKind kind;
    int nterms;
    int missing;        /* some word never occurs in the corpus */
    const Term *terms[MAX_PHRASE];
} Clause;

typedef struct {
    Clause clauses[MAX_CLAUSES];
    int nclauses;
} Query;

typedef struct {
    int doc;
    double score;
} Hit;

/* Per-document scratch space reused by every query. */
typedef struct {
    double *score;
    int *nmust;
    unsigned char *state;   /* 0 untouched, 1 matched a clause, 2 excluded */
    int *touched;
    int ntouched;
} Accumulator;

/* Parses one query line. Returns 0, or -1 with a message in err. */
int query_parse(Query *q, const Index *ix, const char *line, char *err, size_t errlen);

void accum_init(Accumulator *acc, int ndocs);
void accum_free(Accumulator *acc);

/* Runs a query and fills page[0..*nshown) with the best hits, best first.
 * Returns the number of matching documents. */
int query_run(const Query *q, const Index *ix, Accumulator *acc,
              Hit *page, int page_size, int *nshown);

/* Builds a highlighted excerpt of doc's body around the first query term.
 * Writes it into out and returns the number of highlighted words. */
int make_snippet(const Query *q, const Index *ix, int doc, char *out, size_t outlen);

#endif
