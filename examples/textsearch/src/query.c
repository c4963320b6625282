#include "query.h"
#include "tokenize.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BM25_K1 1.2
#define BM25_B 0.75
#define SNIPPET_WORDS 30

int query_parse(Query *q, const Index *ix, const char *line, char *err, size_t errlen)
{
    const char *s = line;
    char buf[MAX_TOKEN];

    q->nclauses = 0;
    for (;;) {
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '\0')
            break;

        Clause c = {.kind = CLAUSE_SHOULD};
        if (*s == '+' || *s == '-') {
            c.kind = *s == '+' ? CLAUSE_MUST : CLAUSE_NOT;
            s++;
        }
        const char *start, *stop;
        if (*s == '"') {
            start = s + 1;
            stop = strchr(start, '"');
            if (stop == NULL) {
                snprintf(err, errlen, "unterminated quoted phrase");
                return -1;
            }
            s = stop + 1;
        } else {
            start = s;
            while (*s && !isspace((unsigned char)*s))
                s++;
            stop = s;
        }
        /* A bare word that splits into several tokens ("well-known") is a phrase. */
        const char *p = start;
        while (next_term(&p, stop, buf) > 0) {
            if (c.nterms == MAX_PHRASE) {
                snprintf(err, errlen, "phrase longer than %d words", MAX_PHRASE);
                return -1;
            }
            const Term *t = index_find(ix, buf);
            if (t == NULL)
                c.missing = 1;
            c.terms[c.nterms++] = t;
        }
        if (c.nterms == 0)
            continue;       /* only stop words or punctuation */
        if (q->nclauses == MAX_CLAUSES) {
            snprintf(err, errlen, "more than %d terms or phrases", MAX_CLAUSES);
            return -1;
        }
        q->clauses[q->nclauses++] = c;
    }
    return 0;
}

static void *xcalloc(size_t n, size_t size)
{
    return memset(xrealloc(NULL, n * size), 0, n * size);
}

void accum_init(Accumulator *acc, int ndocs)
{
    acc->score = xcalloc((size_t)ndocs, sizeof *acc->score);
    acc->nmust = xcalloc((size_t)ndocs, sizeof *acc->nmust);
    acc->state = xcalloc((size_t)ndocs, sizeof *acc->state);
    acc->touched = xrealloc(NULL, (size_t)ndocs * sizeof *acc->touched);
    acc->ntouched = 0;
}

void accum_free(Accumulator *acc)
{
    free(acc->score);
    free(acc->nmust);
    free(acc->state);
    free(acc->touched);
}

static double idf(const Index *ix, int df)
{
    return log(1.0 + (ix->ndocs - df + 0.5) / (df + 0.5));
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Finds the documents containing the clause's word, or all words of its phrase
 * at consecutive positions, and adds their BM25 score (or excludes them). */
static void add_clause(const Clause *c, const Index *ix, Accumulator *acc, double avglen)
{
    int n = c->nterms, driver = 0;
    int cur[MAX_PHRASE] = {0};
    double w = 0.0;
    for (int i = 0; i < n; i++) {
        w += idf(ix, c->terms[i]->npost);
        if (c->terms[i]->npost < c->terms[driver]->npost)
            driver = i;
    }

    const Term *td = c->terms[driver];
    for (int k = 0; k < td->npost; k++) {
        int d = td->post[k].doc, all = 1;
        const Posting *hit[MAX_PHRASE];
        for (int i = 0; i < n && all; i++) {
            const Term *t = c->terms[i];
            while (cur[i] < t->npost && t->post[cur[i]].doc < d)
                cur[i]++;
            if (cur[i] == t->npost || t->post[cur[i]].doc != d)
                all = 0;
            else
                hit[i] = &t->post[cur[i]];
        }
        if (!all)
            continue;
        int freq = 0;
        const int *p0 = c->terms[0]->pos + hit[0]->pos_start;
        for (int j = 0; j < hit[0]->tf; j++) {
            int ok = 1;
            for (int i = 1; i < n && ok; i++) {
                int want = p0[j] + i;
                ok = bsearch(&want, c->terms[i]->pos + hit[i]->pos_start, (size_t)hit[i]->tf,
                             sizeof(int), cmp_int) != NULL;
            }
            freq += ok;
        }
        if (freq == 0)
            continue;

        if (acc->state[d] == 0)
            acc->touched[acc->ntouched++] = d;
        if (c->kind == CLAUSE_NOT) {
            acc->state[d] = 2;
            continue;
        }
        if (acc->state[d] == 0)
            acc->state[d] = 1;
        double f = freq;
        double norm = BM25_K1 * (1.0 - BM25_B + BM25_B * ix->docs[d].length / avglen);
        acc->score[d] += w * f * (BM25_K1 + 1.0) / (f + norm);
        if (c->kind == CLAUSE_MUST)
            acc->nmust[d]++;
    }
}

/* Heap order: the worst hit sits at the root. */
static int worse(const Hit *a, const Hit *b)
{
    return a->score < b->score || (a->score == b->score && a->doc > b->doc);
}

static void sift_down(Hit *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < n && worse(&h[l], &h[m]))
            m = l;
        if (r < n && worse(&h[r], &h[m]))
            m = r;
        if (m == i)
            return;
        Hit tmp = h[i];
        h[i] = h[m];
        h[m] = tmp;
        i = m;
    }
}

static void heap_push(Hit *h, int *n, int cap, Hit x)
{
    if (*n < cap) {
        int i = (*n)++;
        for (; i > 0 && worse(&x, &h[(i - 1) / 2]); i = (i - 1) / 2)
            h[i] = h[(i - 1) / 2];
        h[i] = x;
    } else if (worse(&h[0], &x)) {
        h[0] = x;
        sift_down(h, *n, 0);
    }
}

static int cmp_hit_best_first(const void *a, const void *b)
{
    const Hit *x = a, *y = b;
    return worse(y, x) ? -1 : worse(x, y);
}

int query_run(const Query *q, const Index *ix, Accumulator *acc,
              Hit *page, int page_size, int *nshown)
{
    int required = 0, positive = 0;
    *nshown = 0;
    for (int i = 0; i < q->nclauses; i++) {
        const Clause *c = &q->clauses[i];
        if (c->kind == CLAUSE_MUST) {
            required++;
            if (c->missing)
                return 0;
        }
        if (c->kind != CLAUSE_NOT && !c->missing)
            positive++;
    }
    if (positive == 0)
        return 0;

    double avglen = (double)ix->total_terms / ix->ndocs;    /* ndocs >= 1 after index_load */
    for (int i = 0; i < q->nclauses; i++)
        if (!q->clauses[i].missing)
            add_clause(&q->clauses[i], ix, acc, avglen);

    int matches = 0, n = 0;
    for (int i = 0; i < acc->ntouched; i++) {
        int d = acc->touched[i];
        if (acc->state[d] == 1 && acc->nmust[d] == required) {
            heap_push(page, &n, page_size, (Hit){d, acc->score[d]});
            matches++;
        }
        acc->state[d] = 0;
        acc->score[d] = 0.0;
        acc->nmust[d] = 0;
    }
    acc->ntouched = 0;
    qsort(page, (size_t)n, sizeof *page, cmp_hit_best_first);
    *nshown = n;
    return matches;
}

/* Whether a token is a word of a positive clause, to be highlighted. */
static int is_query_word(const Query *q, const Index *ix, const char *word)
{
    const Term *t = is_stop_word(word) ? NULL : index_find(ix, word);
    if (t == NULL)
        return 0;
    for (int i = 0; i < q->nclauses; i++) {
        const Clause *c = &q->clauses[i];
        if (c->kind == CLAUSE_NOT)
            continue;
        for (int j = 0; j < c->nterms; j++)
            if (c->terms[j] == t)
                return 1;
    }
    return 0;
}

int make_snippet(const Query *q, const Index *ix, int doc, char *out, size_t outlen)
{
    const Doc *d = &ix->docs[doc];
    const char *s = d->body, *end = d->body + d->body_len, *from = d->body;
    char buf[MAX_TOKEN];
    size_t len = 0;
    int highlights = 0, words = 0;

    /* Find the first query word; start the excerpt there. */
    while (next_token(&s, end, buf) > 0) {
        if (is_query_word(q, ix, buf)) {
            from = s - strlen(buf);
            break;
        }
    }
    out[0] = '\0';
    s = from;
    while (words < SNIPPET_WORDS && next_token(&s, end, buf) > 0) {
        int hl = is_query_word(q, ix, buf);
        size_t n = (size_t)snprintf(out + len, outlen - len, "%s%s%s%s", words++ > 0 ? " " : "",
                                    hl ? "[" : "", buf, hl ? "]" : "");
        len = len + n < outlen ? len + n : outlen - 1;     /* out is full, the rest is cut */
        highlights += hl;
    }
    return highlights;
}
