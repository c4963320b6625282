#include "index.h"
#include "tokenize.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (q == NULL) {
        fprintf(stderr, "textsearch: out of memory\n");
        exit(2);
    }
    return q;
}

static uint32_t hash_word(const char *w)
{
    uint32_t h = 2166136261u;
    while (*w) {
        h ^= (unsigned char)*w++;
        h *= 16777619u;
    }
    return h;
}

/* The slot holding word, or the empty slot where it would go. */
static size_t find_slot(const Index *ix, const char *word)
{
    size_t mask = ix->nslots - 1;
    size_t i = hash_word(word) & mask;
    while (ix->slots[i] >= 0 && strcmp(ix->terms[ix->slots[i]].word, word) != 0)
        i = (i + 1) & mask;
    return i;
}

/* Doubles *cap (or sets it to first) and resizes the array p to match. */
static void *grow(void *p, int *cap, int first, size_t size)
{
    *cap = *cap ? *cap * 2 : first;
    return xrealloc(p, (size_t)*cap * size);
}

static void rehash(Index *ix, size_t nslots)
{
    ix->slots = xrealloc(ix->slots, nslots * sizeof *ix->slots);
    ix->nslots = nslots;
    for (size_t i = 0; i < nslots; i++)
        ix->slots[i] = -1;
    for (int t = 0; t < ix->nterms; t++)
        ix->slots[find_slot(ix, ix->terms[t].word)] = t;
}

const Term *index_find(const Index *ix, const char *word)
{
    int t = ix->slots[find_slot(ix, word)];
    return t >= 0 ? &ix->terms[t] : NULL;
}

static Term *find_or_add(Index *ix, const char *word, size_t len)
{
    size_t i = find_slot(ix, word);
    if (ix->slots[i] >= 0)
        return &ix->terms[ix->slots[i]];
    if (ix->nterms == ix->cap_terms)
        ix->terms = grow(ix->terms, &ix->cap_terms, 1024, sizeof *ix->terms);
    Term *t = &ix->terms[ix->nterms];
    memset(t, 0, sizeof *t);
    t->word = memcpy(xrealloc(NULL, len + 1), word, len + 1);
    ix->slots[i] = ix->nterms++;
    if ((size_t)ix->nterms * 10 > ix->nslots * 7)
        rehash(ix, ix->nslots * 2);
    return &ix->terms[ix->nterms - 1];
}

static void add_occurrence(Term *t, int doc, int position)
{
    if (t->npost == 0 || t->post[t->npost - 1].doc != doc) {
        if (t->npost == t->cap_post)
            t->post = grow(t->post, &t->cap_post, 4, sizeof *t->post);
        t->post[t->npost++] = (Posting){doc, 0, t->npos};
    }
    t->post[t->npost - 1].tf++;
    if (t->npos == t->cap_pos)
        t->pos = grow(t->pos, &t->cap_pos, 4, sizeof *t->pos);
    t->pos[t->npos++] = position;
}

static int index_span(Index *ix, int doc, const char *s, const char *end, int position)
{
    char buf[MAX_TOKEN];
    size_t n;
    while ((n = next_term(&s, end, buf)) > 0)
        add_occurrence(find_or_add(ix, buf, n), doc, position++);
    return position;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "textsearch: cannot open corpus '%s'\n", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, got;
    char *buf = xrealloc(NULL, cap);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap)
            buf = xrealloc(buf, cap *= 2);
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "textsearch: error reading corpus '%s'\n", path);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static void finish_doc(Index *ix, const char *body_end)
{
    Doc *d = &ix->docs[ix->ndocs - 1];
    d->body_len = (size_t)(body_end - d->body);
    int n = index_span(ix, ix->ndocs - 1, d->title, d->title + strlen(d->title), 0);
    n = index_span(ix, ix->ndocs - 1, d->body, body_end, n);
    d->length = n;
    ix->total_terms += n;
}

int index_load(Index *ix, const char *path)
{
    size_t len;
    memset(ix, 0, sizeof *ix);
    ix->text = read_file(path, &len);
    if (ix->text == NULL)
        return -1;
    rehash(ix, 1024);

    char *line = ix->text, *end = ix->text + len;
    long lineno = 0;
    while (line < end) {
        char *nl = memchr(line, '\n', (size_t)(end - line));
        char *next = nl ? nl + 1 : end;
        lineno++;
        if (strncmp(line, "### ", 4) == 0) {
            if (ix->ndocs > 0)
                finish_doc(ix, line);
            char *title = line + 4, *tend = nl ? nl : end;
            while (title < tend && (*title == ' ' || *title == '\t'))
                title++;
            while (tend > title && (tend[-1] == ' ' || tend[-1] == '\t' || tend[-1] == '\r'))
                tend--;
            if (tend == title) {
                fprintf(stderr, "textsearch: %s:%ld: empty document title\n", path, lineno);
                return -1;
            }
            *tend = '\0';
            if (ix->ndocs == ix->cap_docs)
                ix->docs = grow(ix->docs, &ix->cap_docs, 256, sizeof *ix->docs);
            ix->docs[ix->ndocs++] = (Doc){title, next, 0, 0};
        } else if (ix->ndocs == 0 && line + strspn(line, " \t\r") < (nl ? nl : end)) {
            fprintf(stderr, "textsearch: %s:%ld: text before the first '### ' title line\n",
                    path, lineno);
            return -1;
        }
        line = next;
    }
    if (ix->ndocs == 0) {
        fprintf(stderr, "textsearch: %s: no documents (expected '### title' lines)\n", path);
        return -1;
    }
    finish_doc(ix, end);
    return 0;
}

void index_free(Index *ix)
{
    for (int t = 0; t < ix->nterms; t++) {
        free(ix->terms[t].word);
        free(ix->terms[t].post);
        free(ix->terms[t].pos);
    }
    free(ix->terms);
    free(ix->slots);
    free(ix->docs);
    free(ix->text);
}
