/* gen: seeded input generator for textsearch.
 * Writes synthetic corpora with a Zipf-like vocabulary of made-up words, one query file per
 * input line, and inputs.txt. Only integer arithmetic and correctly rounded floating-point
 * operations are used, so the output is byte-identical on every machine. */
#pragma STDC FP_CONTRACT OFF
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MAX_IDIOMS 16
#define NSTOP 20

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static long urange(long lo, long hi)
{
    return lo + (long)(next_u64() % (uint64_t)(hi - lo + 1));
}

/* Percent chance. */
static int chance(int pct)
{
    return (int)(next_u64() % 100) < pct;
}

/* Roughly log-uniform in [lo, hi): lo * 2^k * (1 + f), a piecewise-linear 2^x. */
static long loguniform(long lo, long hi)
{
    int bits = 0;
    while ((lo << (bits + 1)) <= hi)
        bits++;
    for (;;) {
        long k = urange(0, bits);
        double f = (double)(next_u64() >> 11) / 9007199254740992.0;
        long v = (long)((double)(lo << k) * (1.0 + f));
        if (v >= lo && v < hi)
            return v;
    }
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (p == NULL) {
        fprintf(stderr, "gen: out of memory\n");
        exit(1);
    }
    return p;
}

/* Stop words of textsearch, in the frequency order they get here. */
static const char *const stop_words[NSTOP] = {
    "the", "and", "of", "to", "that", "in", "it", "is", "a", "not",
    "be", "with", "for", "as", "this", "they", "but", "by", "there", "will",
};
static const int stop_rank[NSTOP] = {0, 1, 2, 3, 4, 5, 7, 9, 11, 13,
                                     15, 18, 21, 24, 28, 32, 37, 43, 50, 58};

static const char *const onsets[] = {"b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n",
                                     "p", "r", "s", "t", "v", "w", "z", "br", "ch", "cl",
                                     "dr", "gr", "pl", "sh", "st", "th", "tr", ""};
static const char *const vowels[] = {"a", "e", "i", "o", "u", "ai", "ea", "ee", "ou", "oa", "y"};
static const char *const codas[] = {"", "", "", "n", "r", "s", "th", "l", "m", "st", "nd", "x"};
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

typedef struct {
    int nwords;
    char **words;       /* by frequency rank */
    uint64_t *cum;      /* cumulative integer weights */
    int nidioms;
    int idiom_len[MAX_IDIOMS];
    int idiom[MAX_IDIOMS][4];
    long target_bytes;
    int mean_doc;
    char name[32];
} Corpus;

/* Tiny string set for vocabulary uniqueness. */
typedef struct {
    char **slot;
    size_t n;
} WordSet;

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    return h;
}

static int set_add(WordSet *ws, char *w)
{
    size_t i = hash_str(w) & (ws->n - 1);
    while (ws->slot[i] != NULL) {
        if (strcmp(ws->slot[i], w) == 0)
            return 0;
        i = (i + 1) & (ws->n - 1);
    }
    ws->slot[i] = w;
    return 1;
}

static void make_word(char *buf, int syllables)
{
    buf[0] = '\0';
    for (int s = 0; s < syllables; s++) {
        strcat(buf, onsets[urange(0, COUNT(onsets) - 1)]);
        strcat(buf, vowels[urange(0, COUNT(vowels) - 1)]);
        if (s == syllables - 1 || chance(20))
            strcat(buf, codas[urange(0, COUNT(codas) - 1)]);
    }
}

/* Zipf-like weight of rank r (0-based) with exponent 0.75, 1 or 1.25 and offset q. */
static uint64_t zipf_weight(int r, int expo, double q)
{
    double x = (double)r + 1.0 + q;
    double d;
    if (expo == 0)
        d = sqrt(x) * sqrt(sqrt(x));
    else if (expo == 1)
        d = x;
    else
        d = x * sqrt(sqrt(x));
    return (uint64_t)(1e12 / d) + 1;
}

static void build_corpus(Corpus *c, int idx, long target_bytes)
{
    long tokens = target_bytes / 6;
    long v = 25;
    while (v * v < tokens * 900)  /* Heaps' law: about 30 * sqrt(tokens) */
        v++;
    c->nwords = (int)(v + urange(0, v / 4));
    c->target_bytes = target_bytes;
    c->mean_doc = (int)loguniform(20, 600);
    snprintf(c->name, sizeof c->name, "corpus_%02d.txt", idx);

    WordSet ws;
    ws.n = 1;
    while (ws.n < (size_t)c->nwords * 3)
        ws.n <<= 1;
    ws.slot = calloc(ws.n, sizeof *ws.slot);
    c->words = xmalloc((size_t)c->nwords * sizeof *c->words);
    for (int i = 0; i < NSTOP; i++) {
        c->words[stop_rank[i]] = (char *)stop_words[i];
        set_add(&ws, (char *)stop_words[i]);
    }
    int si = 0;
    for (int r = 0; r < c->nwords; r++) {
        if (si < NSTOP && stop_rank[si] == r) {
            si++;
            continue;
        }
        char buf[64];
        int lo = r < 3000 ? 1 : 2, hi = r < 150 ? 1 : r < 3000 ? 2 : 3;
        for (;;) {
            make_word(buf, (int)urange(lo, hi));
            if (strlen(buf) >= 2 && strlen(buf) <= 16) {
                char *w = xmalloc(strlen(buf) + 1);
                strcpy(w, buf);
                if (set_add(&ws, w)) {
                    c->words[r] = w;
                    break;
                }
                free(w);
            }
        }
    }
    free(ws.slot);

    int expo = (int)urange(0, 2);
    double q = (double)urange(0, 40) / 10.0;
    c->cum = xmalloc((size_t)c->nwords * sizeof *c->cum);
    uint64_t acc = 0;
    for (int r = 0; r < c->nwords; r++) {
        acc += zipf_weight(r, expo, q);
        c->cum[r] = acc;
    }

    c->nidioms = (int)urange(4, MAX_IDIOMS);
    for (int i = 0; i < c->nidioms; i++) {
        c->idiom_len[i] = (int)urange(2, 4);
        for (int j = 0; j < c->idiom_len[i]; j++)
            c->idiom[i][j] = (int)urange(NSTOP + 40, c->nwords < 3000 ? c->nwords - 1 : 3000);
    }
}

static int zipf_rank(const Corpus *c)
{
    uint64_t x = next_u64() % c->cum[c->nwords - 1];
    int lo = 0, hi = c->nwords - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (c->cum[mid] > x)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

typedef struct {
    FILE *f;
    int col;
    long bytes;
} Out;

static void put_word(Out *o, const char *w, int capital, const char *punct)
{
    size_t n = strlen(w) + strlen(punct);
    if (o->col > 0 && o->col + (int)n + 1 > 72) {
        fputc('\n', o->f);
        o->bytes++;
        o->col = 0;
    } else if (o->col > 0) {
        fputc(' ', o->f);
        o->bytes++;
        o->col++;
    }
    fputc(capital ? w[0] - 'a' + 'A' : w[0], o->f);
    fputs(w + 1, o->f);
    fputs(punct, o->f);
    o->col += (int)n;
    o->bytes += (long)n;
}

static int write_corpus(const Corpus *c, const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, c->name);
    Out o = {fopen(path, "w"), 0, 0};
    if (o.f == NULL) {
        fprintf(stderr, "gen: cannot write %s\n", path);
        return -1;
    }
    static const char *const ends[] = {".", ".", ".", ";", "?", "!", ":"};
    int book = 1, chapter = 0;
    const char *book_word = c->words[urange(NSTOP + 20, 400)];
    while (o.bytes < c->target_bytes) {
        if (++chapter > urange(5, 60)) {
            book++;
            chapter = 1;
            book_word = c->words[urange(NSTOP + 20, 400)];
        }
        fprintf(o.f, "%s### Book %d %c%s, chapter %d\n", o.bytes ? "\n" : "", book,
                book_word[0] - 'a' + 'A', book_word + 1, chapter);
        o.bytes += 30;
        o.col = 0;
        int topic[4];
        for (int i = 0; i < 4; i++)
            topic[i] = (int)urange(NSTOP + 20, c->nwords < 4000 ? c->nwords - 1 : 4000);
        long len = loguniform(c->mean_doc / 3 + 1, c->mean_doc * 3), done = 0;
        int sentences = 0;
        while (done < len) {
            int slen = (int)urange(4, 20);
            for (int w = 0; w < slen; w++) {
                const char *punct = w == slen - 1 ? ends[urange(0, COUNT(ends) - 1)]
                                                  : chance(7) ? "," : chance(1) ? "'s" : "";
                if (chance(2) && w < slen - 1) {
                    int id = (int)urange(0, c->nidioms - 1);
                    for (int j = 0; j < c->idiom_len[id]; j++, done++)
                        put_word(&o, c->words[c->idiom[id][j]], w == 0 && j == 0,
                                 j == c->idiom_len[id] - 1 ? punct : "");
                    continue;
                }
                int r = chance(6) ? topic[urange(0, 3)] : zipf_rank(c);
                put_word(&o, c->words[r], w == 0, punct);
                done++;
            }
            if (++sentences % 8 == 0 && done < len) {
                fputs("\n\n", o.f);
                o.bytes += 2;
                o.col = 0;
            }
        }
        fputc('\n', o.f);
        o.bytes++;
    }
    return fclose(o.f) == 0 ? 0 : -1;
}

static int is_stop_rank(int r)
{
    for (int k = 0; k < NSTOP; k++)
        if (stop_rank[k] == r)
            return 1;
    return 0;
}

/* A query word from the corpus vocabulary: common (frequent rank) or rare. */
static void put_query_word(FILE *f, const Corpus *c, int common_pct)
{
    char buf[64];
    const char *w;
    if (chance(3)) {
        make_word(buf, 5);      /* almost surely not in the corpus */
        w = buf;
    } else if (chance(3)) {
        w = stop_words[urange(0, NSTOP - 1)];
    } else if (chance(common_pct)) {
        int r;
        do
            r = (int)loguniform(5, 200);
        while (is_stop_rank(r));
        w = c->words[r];
    } else {
        w = c->words[loguniform(150, c->nwords)];
    }
    if (chance(5))
        fprintf(f, "%c%s", w[0] >= 'a' && w[0] <= 'z' ? w[0] - 'a' + 'A' : w[0], w + 1);
    else
        fputs(w, f);
    if (chance(3))
        fputc(chance(50) ? '?' : ',', f);
}

static int write_queries(const Corpus *c, const char *dir, const char *name, int nq, int common_pct)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "gen: cannot write %s\n", path);
        return -1;
    }
    for (int i = 0; i < nq; i++) {
        int nclauses = (int)urange(1, 5);
        for (int k = 0; k < nclauses; k++) {
            if (k > 0)
                fputc(' ', f);
            int op = (int)urange(0, 99);
            if (op < 18)
                fputc('+', f);
            else if (op < 26 && nclauses > 1)
                fputc('-', f);
            int kind = (int)urange(0, 99);
            if (kind < 8) {
                int id = (int)urange(0, c->nidioms - 1);
                fputc('"', f);
                for (int j = 0; j < c->idiom_len[id]; j++)
                    fprintf(f, "%s%s", j ? " " : "", c->words[c->idiom[id][j]]);
                fputc('"', f);
            } else if (kind < 12) {
                fputc('"', f);
                put_query_word(f, c, common_pct);
                fputc(' ', f);
                put_query_word(f, c, common_pct);
                fputc('"', f);
            } else {
                put_query_word(f, c, common_pct);
            }
        }
        fputc('\n', f);
    }
    return fclose(f) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    long n = 50;
    uint64_t seed = 1;
    const char *dir = ".";
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 10000) {
                fprintf(stderr, "gen: -n needs an integer from 1 to 10000\n");
                return 1;
            }
        } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end || argv[i][0] == '\0') {
                fprintf(stderr, "gen: -s needs an unsigned integer\n");
                return 1;
            }
        } else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc) {
            dir = argv[++i];
        } else {
            fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
            return 1;
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen: cannot create %s\n", dir);
        return 1;
    }
    rng_state = seed * 0x2545F4914F6CDD1Dull + 0x1234567ull;

    /* Corpus sizes are spread roughly log-uniformly from ~1 MB to ~19 MB. */
    static const long base_size[8] = {1000000, 1500000, 2300000, 3500000,
                                      5300000, 8000000, 11500000, 15000000};
    int ncorp = (int)(n < 8 ? (n + 1) / 2 : 2 + n / 8);
    if (ncorp > 10)
        ncorp = 10;
    Corpus *corp = calloc((size_t)ncorp, sizeof *corp);
    for (int i = 0; i < ncorp; i++) {
        long lo = base_size[i * 8 / ncorp], hi = lo + lo / 4;
        build_corpus(&corp[i], i, loguniform(lo, hi));
        if (write_corpus(&corp[i], dir) != 0)
            return 1;
    }

    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *in = fopen(path, "w");
    if (in == NULL) {
        fprintf(stderr, "gen: cannot write %s\n", path);
        return 1;
    }
    fprintf(in, "# textsearch inputs: [-p HITS_PER_PAGE] CORPUS QUERIES (gen -n %ld -s %llu)\n",
            n, (unsigned long long)seed);
    static const int pages[] = {1, 2, 5, 10, 10, 20, 50, 100, 200};
    for (long i = 0; i < n; i++) {
        int ci = i < ncorp ? (int)i : (int)urange(0, ncorp - 1);
        int nq = (int)loguniform(1, 400);
        int common_pct = (int)urange(0, 4) * 25;
        int page = pages[urange(0, COUNT(pages) - 1)];
        char qname[64];
        snprintf(qname, sizeof qname, "queries_%03ld.txt", i);
        if (write_queries(&corp[ci], dir, qname, nq, common_pct) != 0)
            return 1;
        if (page == 10 && chance(50))
            fprintf(in, "%s %s\n", corp[ci].name, qname);
        else
            fprintf(in, "-p %d %s %s\n", page, corp[ci].name, qname);
    }
    if (fclose(in) != 0)
        return 1;

    for (int i = 0; i < ncorp; i++) {
        for (int r = 0; r < corp[i].nwords; r++) {
            if (!is_stop_rank(r))
                free(corp[i].words[r]);
        }
        free(corp[i].words);
        free(corp[i].cum);
    }
    free(corp);
    return 0;
}
