/* gen.c - seeded input generator for the encryptor example.
 *
 *   gen [-n N] [-s SEED] [-o DIR]
 *
 * Writes key files (2x2 .. 200x200, dense to very sparse, always invertible
 * mod 256), data files (640 KB .. 8 MB: text-like, random, runs, records or
 * a mix) and DIR/inputs.txt with N lines. Integer-only PRNG, so the output
 * is byte-identical on every machine. (The program takes any size; files
 * much smaller than 640 KB encrypt in a few ms, below timing resolution.)
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* data file sizes in bytes */
#define MIN_SIZE (640 * 1024)
#define MAX_SIZE (8000 * 1024)

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* uniform in [0, n) */
static uint64_t below(uint64_t n) { return rnd() % n; }

/* roughly log-uniform integer in [lo, hi] */
static uint64_t log_uniform(uint64_t lo, uint64_t hi)
{
    /* pick an octave, then a uniform value inside it */
    int oct = 0;
    while ((lo << (oct + 1)) <= hi)
        oct++;
    int k = (int)below((uint64_t)oct + 1);
    uint64_t a = lo << k, b = (lo << (k + 1)) - 1;
    if (b > hi)
        b = hi;
    return a + below(b - a + 1);
}

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "gen: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

/* ---- data files ---- */

enum kind { K_TEXT, K_RANDOM, K_RUNS, K_RECORDS, K_MIXED, K_COUNT };
static const char *kind_name[K_COUNT] = { "text", "random", "runs", "records", "mixed" };

struct vocab {
    int nwords;
    char (*w)[12];
};

static void make_vocab(struct vocab *v, int nwords)
{
    v->nwords = nwords;
    v->w = malloc((size_t)nwords * sizeof *v->w);
    if (!v->w)
        die("out of memory", NULL);
    for (int i = 0; i < nwords; i++) {
        int len = 2 + (int)below(9);
        for (int j = 0; j < len; j++)
            v->w[i][j] = (char)('a' + below(26));
        v->w[i][len] = '\0';
    }
}

static void fill_text(uint8_t *p, size_t n, const struct vocab *v, int skew)
{
    size_t i = 0;
    int words_left = 0;
    while (i < n) {
        /* minimum of several draws favours the first (frequent) words */
        uint64_t idx = below((uint64_t)v->nwords);
        for (int s = 1; s < skew; s++) {
            uint64_t t = below((uint64_t)v->nwords);
            if (t < idx)
                idx = t;
        }
        const char *w = v->w[idx];
        int start = words_left == 0;
        if (start)
            words_left = 4 + (int)below(16);
        for (int j = 0; w[j] && i < n; j++)
            p[i++] = (uint8_t)(start && j == 0 ? w[j] - 'a' + 'A' : w[j]);
        if (--words_left == 0) {
            if (i < n) p[i++] = '.';
            if (i < n) p[i++] = below(5) == 0 ? '\n' : ' ';
        } else if (i < n) {
            p[i++] = below(12) == 0 ? ',' : ' ';
        }
    }
}

static void fill_random(uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(rnd() >> 56);
}

static void fill_runs(uint8_t *p, size_t n, int maxrun, int alphabet)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = (uint8_t)(alphabet >= 256 ? below(256) : 'A' + below((uint64_t)alphabet));
        size_t len = 1 + below((uint64_t)maxrun);
        for (size_t j = 0; j < len && i < n; j++)
            p[i++] = c;
    }
}

static void fill_records(uint8_t *p, size_t n, int noise)
{
    uint32_t id = (uint32_t)below(1000000);
    size_t i = 0;
    while (i < n) {
        uint8_t rec[24];
        uint32_t val = (uint32_t)below(100);
        memcpy(rec, "REC:", 4);
        for (int k = 0; k < 4; k++)
            rec[4 + k] = (uint8_t)(id >> (8 * k));
        for (int k = 0; k < 4; k++)
            rec[8 + k] = (uint8_t)(val >> (8 * k));
        for (int k = 12; k < 24; k++)
            rec[k] = k < 12 + noise ? (uint8_t)below(256) : 0;
        for (int k = 0; k < 24 && i < n; k++)
            p[i++] = rec[k];
        id += 1 + (uint32_t)below(3);
    }
}

static void fill_kind(uint8_t *p, size_t n, enum kind k)
{
    struct vocab v;
    switch (k) {
    case K_TEXT:
        make_vocab(&v, (int)log_uniform(20, 20000));
        fill_text(p, n, &v, 1 + (int)below(4));
        free(v.w);
        break;
    case K_RANDOM:
        fill_random(p, n);
        break;
    case K_RUNS: {
        static const int alphabets[] = { 2, 4, 16, 256 };
        fill_runs(p, n, (int)log_uniform(2, 2000), alphabets[below(4)]);
        break;
    }
    case K_RECORDS:
        fill_records(p, n, (int)below(13));
        break;
    default: /* K_MIXED: segments of the other kinds */
        for (size_t i = 0, len; i < n; i += len) {
            len = log_uniform(4096, 262144);
            if (len > n - i)
                len = n - i;
            fill_kind(p + i, len, (enum kind)below(K_MIXED));
        }
    }
}

static void write_data(const char *dir, const char *name, size_t size, enum kind k)
{
    char path[4096];
    uint8_t *p = malloc(size);
    if (!p)
        die("out of memory", NULL);
    fill_kind(p, size, k);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, size, f) != size || fclose(f) != 0)
        die("cannot write", path);
    free(p);
}

/* ---- keys ---- */

/* Rank check mod 2: the key is invertible mod 256 iff this succeeds. */
static int invertible_mod2(const uint8_t *m, int n)
{
    uint8_t *a = malloc((size_t)n * n);
    int ok = 1;
    for (int i = 0; i < n * n; i++)
        a[i] = m[i] & 1;
    for (int c = 0; c < n && ok; c++) {
        int piv = -1;
        for (int r = c; r < n && piv < 0; r++)
            if (a[r * n + c])
                piv = r;
        if (piv < 0) {
            ok = 0;
            break;
        }
        for (int j = 0; j < n; j++) {
            uint8_t t = a[c * n + j];
            a[c * n + j] = a[piv * n + j];
            a[piv * n + j] = t;
        }
        for (int r = c + 1; r < n; r++)
            if (a[r * n + c])
                for (int j = c; j < n; j++)
                    a[r * n + j] ^= a[c * n + j];
    }
    free(a);
    return ok;
}

static void shuffle(int *v, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below((uint64_t)i + 1), t = v[i];
        v[i] = v[j];
        v[j] = t;
    }
}

/* density in percent of non-zero entries (approximately) */
static void make_key(uint8_t *m, int n, int density)
{
    int tries = 0;
    do {
        if (++tries > 1000)
            die("cannot find an invertible key", NULL);
        memset(m, 0, (size_t)n * n);
        if (density >= 40) {
            for (int i = 0; i < n * n; i++)
                if ((int)below(100) < density)
                    m[i] = (uint8_t)(1 + below(255));
        } else {
            /* permuted triangular matrix with odd diagonal */
            int *rp = malloc((size_t)n * sizeof *rp), *cp = malloc((size_t)n * sizeof *cp);
            for (int i = 0; i < n; i++)
                rp[i] = cp[i] = i;
            shuffle(rp, n);
            shuffle(cp, n);
            for (int i = 0; i < n; i++) {
                m[rp[i] * n + cp[i]] = (uint8_t)(1 + 2 * below(128));
                for (int j = i + 1; j < n; j++)
                    if ((int)below(50) < density)
                        m[rp[i] * n + cp[j]] = (uint8_t)(1 + below(255));
            }
            free(rp);
            free(cp);
        }
    } while (!invertible_mod2(m, n));
}

static void write_key(const char *dir, const char *name, int n, int density)
{
    char path[4096];
    uint8_t *m = malloc((size_t)n * n);
    if (!m)
        die("out of memory", NULL);
    make_key(m, n, density);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        die("cannot write", path);
    fprintf(f, "%d\n", n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            fprintf(f, "%d%c", m[i * n + j], j + 1 < n ? ' ' : '\n');
    if (fclose(f) != 0)
        die("cannot write", path);
    free(m);
}

int main(int argc, char **argv)
{
    long count = 50;
    uint64_t seed = 1;
    const char *dir = ".";
    static const int densities[] = { 100, 85, 60, 45, 20, 8, 2 };

    for (int i = 1; i < argc; i++) {
        char *end;
        if (i + 1 >= argc)
            die("missing value for option", argv[i]);
        if (strcmp(argv[i], "-n") == 0) {
            count = strtol(argv[++i], &end, 10);
            if (*end || count < 1 || count > 100000)
                die("bad -n", argv[i]);
        } else if (strcmp(argv[i], "-s") == 0) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end)
                die("bad -s", argv[i]);
        } else if (strcmp(argv[i], "-o") == 0) {
            dir = argv[++i];
        } else {
            die("usage: gen [-n N] [-s SEED] [-o DIR]; unknown option", argv[i]);
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        die("cannot create directory", dir);
    rng_state = seed * 0x2545f4914f6cdd1dULL + 12345;

    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *list = fopen(path, "w");
    if (!list)
        die("cannot write", path);
    fprintf(list, "# encryptor: key, input, output (gen -n %ld -s %llu)\n", count,
            (unsigned long long)seed);

    char (*dnames)[64] = malloc((size_t)count * sizeof *dnames);
    int ndata = 0, nkeys = 0;
    if (!dnames)
        die("out of memory", NULL);
    for (long i = 0; i < count; i++) {
        char kname[64];
        const char *dname;
        /* sometimes reuse an earlier data file or key with a fresh partner */
        if (ndata > 0 && below(4) == 0) {
            dname = dnames[below((uint64_t)ndata)];
        } else {
            enum kind k = (enum kind)below(K_COUNT);
            size_t size = log_uniform(MIN_SIZE, MAX_SIZE);
            snprintf(dnames[ndata], sizeof dnames[ndata], "data_%03d_%s.bin", ndata, kind_name[k]);
            dname = dnames[ndata++];
            write_data(dir, dname, size, k);
        }
        if (nkeys > 0 && below(4) == 0) {
            snprintf(kname, sizeof kname, "key_%03d.txt", (int)below((uint64_t)nkeys));
        } else {
            int n = 2 + (int)below(199);
            int density = densities[below(sizeof densities / sizeof densities[0])];
            if (below(3) == 0) {            /* make sure big dense keys show up */
                n = 160 + (int)below(41);
                density = densities[below(2)];
            }
            snprintf(kname, sizeof kname, "key_%03d.txt", nkeys++);
            write_key(dir, kname, n, density);
        }
        fprintf(list, "-k %s -i %s -o {tmp}/out.enc\n", kname, dname);
    }
    if (fclose(list) != 0)
        die("cannot write", path);
    free(dnames);
    return 0;
}
