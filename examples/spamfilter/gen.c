/* gen.c - seeded input generator for spamfilter.
 *
 *   gen [-n N] [-s SEED] [-o DIR]
 *
 * Writes, for each of the N inputs, 1-6 spam lists and a phonebook into DIR,
 * plus DIR/inputs.txt with one command line per input.  Everything is
 * derived from SEED with integer arithmetic only, so the output is
 * byte-identical on every machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform in [0, n) */
static uint64_t below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

/* uniform in [lo, hi] */
static uint64_t range(uint64_t lo, uint64_t hi)
{
    return lo + below(hi - lo + 1);
}

/* roughly log-uniform in [lo, hi]: lo grown by 1/16 a random number of times */
static uint64_t logrange(uint64_t lo, uint64_t hi)
{
    uint64_t steps = 0, v = lo;
    while (v < hi) {
        v += v / 16 + 1;
        steps++;
    }
    uint64_t k = below(steps + 1);
    v = lo;
    for (uint64_t i = 0; i < k; i++)
        v += v / 16 + 1;
    return v > hi ? hi : v;
}

static int chance(unsigned permille)
{
    return below(1000) < permille;
}

/* ---- phone numbers ---------------------------------------------------- */

#define NANP_BASE 10000000000ULL

/* the example senders hard-coded in spamfilter's smoke test */
static const uint64_t examples[] = {
    12025550143ULL, 18005550199ULL, 442079460958ULL, 13125550187ULL,
    18885550123ULL, 14155550110ULL, 16465550175ULL, 4930901820ULL,
};
#define NEXAMPLES (sizeof examples / sizeof examples[0])

static const struct { unsigned cc, natlen; } countries[] = {
    {44, 10}, {49, 10}, {33, 9}, {91, 10}, {61, 9},
};

static uint64_t pow10u(unsigned e)
{
    uint64_t p = 1;
    while (e--)
        p *= 10;
    return p;
}

static uint64_t random_number(void)
{
    if (chance(30)) {
        unsigned c = (unsigned)below(sizeof countries / sizeof countries[0]);
        uint64_t lo = pow10u(countries[c].natlen - 1);
        return countries[c].cc * pow10u(countries[c].natlen) + range(lo, 10 * lo - 1);
    }
    return NANP_BASE + range(200, 999) * 10000000ULL + range(200, 999) * 10000ULL +
           below(10000);
}

/* writes num in NANP style `style` or an international style */
static void format_number(char *buf, size_t size, uint64_t num, unsigned style)
{
    if (num >= NANP_BASE && num < 2 * NANP_BASE) {
        uint64_t nat = num - NANP_BASE;
        unsigned a = (unsigned)(nat / 10000000ULL), e = (unsigned)(nat / 10000 % 1000),
                 l = (unsigned)(nat % 10000);
        switch (style % 12) {
        case 0: snprintf(buf, size, "+1 (%03u) %03u-%04u", a, e, l); break;
        case 1: snprintf(buf, size, "%03u.%03u.%04u", a, e, l); break;
        case 2: snprintf(buf, size, "%03u-%03u-%04u", a, e, l); break;
        case 3: snprintf(buf, size, "(%03u) %03u-%04u", a, e, l); break;
        case 4: snprintf(buf, size, "1%03u%03u%04u", a, e, l); break;
        case 5: snprintf(buf, size, "+1%03u%03u%04u", a, e, l); break;
        case 6: snprintf(buf, size, "%03u%03u%04u", a, e, l); break;
        case 7: snprintf(buf, size, "+1 %03u %03u %04u", a, e, l); break;
        case 8: snprintf(buf, size, "001 %03u %03u %04u", a, e, l); break;
        case 9: snprintf(buf, size, "1-%03u-%03u-%04u", a, e, l); break;
        case 10: snprintf(buf, size, "+1.%03u.%03u.%04u", a, e, l); break;
        default: snprintf(buf, size, "  (%03u)%03u-%04u\t", a, e, l); break;
        }
        return;
    }
    /* international: split off the country code */
    unsigned cc = (unsigned)(num / 100000000ULL);
    while (cc >= 100)
        cc /= 10;
    char digits[24];
    snprintf(digits, sizeof digits, "%llu", (unsigned long long)num);
    const char *nat = digits + 2;
    switch (style % 3) {
    case 0: snprintf(buf, size, "+%u %.2s %s", cc, nat, nat + 2); break;
    case 1: snprintf(buf, size, "00%u %.3s %s", cc, nat, nat + 3); break;
    default: snprintf(buf, size, "+%u%s", cc, nat); break;
    }
}

static void malformed_line(char *buf, size_t size)
{
    static const char *const words[] = {
        "N/A", "unknown", "withheld", "anonymous", "PRIVATE", "-", "no caller id",
    };
    unsigned a = (unsigned)range(200, 999), e = (unsigned)range(200, 999),
             l = (unsigned)below(10000);
    switch (below(7)) {
    case 0: snprintf(buf, size, "%s", words[below(sizeof words / sizeof words[0])]); break;
    case 1: snprintf(buf, size, "%03u-%04u", e, l); break;
    case 2: snprintf(buf, size, "%03u-%03u-%04u%u", a, e, l, (unsigned)below(10)); break;
    case 3: snprintf(buf, size, "(%03u %03u-%04u", a, e, l); break;
    case 4: snprintf(buf, size, "%03u-%03u-%04u x%u", a, e, l, (unsigned)range(1, 999)); break;
    case 5: snprintf(buf, size, "+1 (1%02u) %03u-%04u", a % 100, e, l); break;
    default: snprintf(buf, size, "%03u-%03u-%03u", a, e, l % 1000); break;
    }
}

/* ---- list disorder ---------------------------------------------------- */

/* spamfilter orders numbers by their canonical text "+<digits>", so lists
 * are sorted by the digit strings, not by value.  A key that orders like
 * the string: the digits left-aligned to 16 places, then the length. */
static uint64_t num_key(uint64_t v)
{
    unsigned len = 1;
    for (uint64_t t = v; t >= 10; t /= 10)
        len++;
    return v * pow10u(16 - len) * 16 + len;
}

static uint64_t key_num(uint64_t key)
{
    return key / 16 / pow10u(16 - (unsigned)(key % 16));
}

static int cmp_key(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* number of out-of-order pairs (= insertion sort's inner-loop steps) */
static uint64_t inversions(uint64_t *a, uint64_t *tmp, size_t n)
{
    if (n < 2)
        return 0;
    size_t h = n / 2, i = 0, j = h, k = 0;
    uint64_t inv = inversions(a, tmp, h) + inversions(a + h, tmp, n - h);
    while (i < h && j < n) {
        if (a[i] <= a[j]) {
            tmp[k++] = a[i++];
        } else {
            inv += h - i;
            tmp[k++] = a[j++];
        }
    }
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
    return inv;
}

static void swap(uint64_t *a, size_t i, size_t j)
{
    uint64_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void shuffle(uint64_t *a, size_t n)
{
    for (size_t i = n; i > 1; i--)
        swap(a, i - 1, below(i));
}

enum { SORTED, NEAR, JITTER, TAIL, RUNS, RANDOM, REVERSED, NMODES };
static const unsigned mode_weight[NMODES] = {20, 22, 10, 18, 10, 12, 8};
static const char *const mode_name[NMODES] = {
    "sorted", "nearly sorted", "locally jittered", "sorted with unsorted tail",
    "interleaved sorted runs", "unsorted", "reverse sorted",
};

static unsigned pick_mode(void)
{
    unsigned total = 0, m;
    for (m = 0; m < NMODES; m++)
        total += mode_weight[m];
    unsigned r = (unsigned)below(total);
    for (m = 0; r >= mode_weight[m]; m++)
        r -= mode_weight[m];
    return m;
}

/* a[] is sorted; make it as ordered as an export of kind `mode` */
static void disorder(uint64_t *a, size_t n, unsigned mode)
{
    size_t i;
    if (n < 2)
        return;
    switch (mode) {
    case NEAR: {   /* a few entries edited out of place */
        size_t swaps = n * range(1, 40) / 1000 + 1;
        for (i = 0; i < swaps; i++)
            swap(a, below(n), below(n));
        break;
    }
    case JITTER: {  /* each entry moved a little */
        size_t d = range(2, 200);
        for (i = 0; i + 1 < n; i++)
            swap(a, i, i + below(d < n - i ? d : n - i));
        break;
    }
    case TAIL: {   /* sorted dump plus recent reports appended */
        size_t t = n * range(20, 400) / 1000;
        shuffle(a + (n - t), t);
        for (i = 0; i < t; i++)
            swap(a, n - t + i, below(n));
        break;
    }
    case RUNS: {   /* several sorted shards concatenated */
        size_t b = range(2, 12), k = 0;
        unsigned char *run = malloc(n);
        uint64_t *out = malloc(n * sizeof *out);
        if (!run || !out)
            exit(1);
        for (i = 0; i < n; i++)
            run[i] = (unsigned char)below(b);
        for (size_t r = 0; r < b; r++)
            for (i = 0; i < n; i++)
                if (run[i] == r)
                    out[k++] = a[i];
        memcpy(a, out, n * sizeof *a);
        free(run);
        free(out);
        break;
    }
    case RANDOM:
        shuffle(a, n);
        break;
    case REVERSED:
        for (i = 0; i < n / 2; i++)
            swap(a, i, n - 1 - i);
        break;
    default:
        break;
    }
}

/* ---- files ------------------------------------------------------------ */

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "gen: cannot create %s: %s\n", path, strerror(errno));
        exit(1);
    }
    return f;
}

static void close_out(FILE *f)
{
    if (ferror(f) || fclose(f) != 0) {
        fprintf(stderr, "gen: write error\n");
        exit(1);
    }
}

static const char *const first_names[] = {
    "Alice", "Bob", "Carol", "David", "Erin", "Frank", "Grace", "Hector", "Ivy",
    "Jamal", "Kim", "Luis", "Maria", "Nina", "Omar", "Priya", "Quinn", "Rosa",
    "Sam", "Tariq", "Uma", "Victor", "Wen", "Xavier", "Yuki", "Zoe", "Mom", "Dad",
};
static const char *const last_names[] = {
    "Smith", "Johnson", "Garcia", "Nguyen", "Brown", "Okafor", "Muller", "Rossi",
    "Kowalski", "Patel", "Chen", "O'Brien", "Silva", "Dubois", "Tanaka", "Ivanova",
    "Lee", "Hernandez", "Walker", "Haddad", "Jensen", "Kim", "",
};
#define NFIRST (sizeof first_names / sizeof first_names[0])
#define NLAST (sizeof last_names / sizeof last_names[0])

static void write_phonebook(FILE *f, size_t contacts, const uint64_t *pool, size_t npool,
                            unsigned white_permille)
{
    char num[64];
    fprintf(f, "# phonebook export\n");
    for (size_t c = 0; c < contacts; c++) {
        const char *last = last_names[below(NLAST)];
        fprintf(f, "%s%s%s, ", first_names[below(NFIRST)], *last ? " " : "", last);
        if (chance(8)) {   /* an entry without a usable number */
            fprintf(f, "%s\n", chance(500) ? "ask at reception" : "");
            continue;
        }
        unsigned nnum = chance(120) ? 2 : 1;
        for (unsigned k = 0; k < nnum; k++) {
            uint64_t v = chance(white_permille) ? key_num(pool[below(npool)]) : random_number();
            format_number(num, sizeof num, v, (unsigned)below(12));
            fprintf(f, "%s%s", k ? "; " : "", num);
        }
        fputc('\n', f);
    }
}

/* Rough cost of one input in units of one insertion-sort step (a few ns):
 * reading and storing a number costs about as much as 60 steps.  Each input
 * aims at a cost drawn log-uniformly from [COST_MIN, COST_MAX] so that run
 * times spread evenly from ~20 ms to ~1.5 s. */
#define COST_PER_NUMBER 60
#define COST_MIN 6000000ULL
#define COST_MAX 420000000ULL

static void make_input(const char *dir, unsigned idx, FILE *inputs)
{
    char name[64], text[64];
    unsigned nlists, weight[6], mode[6], wsum;
    size_t total, npool, contacts, len[6];
    uint64_t *pool, *vals[6];
    uint64_t target = logrange(COST_MIN, COST_MAX);

    for (;;) {   /* redraw until the input costs about `target` */
        nlists = (unsigned)(chance(250) ? 1 : range(2, 6));
        total = logrange(4000, 60000);
        npool = total * range(300, 2500) / 1000 + 50;
        contacts = logrange(10, 3000);
        pool = malloc(npool * sizeof *pool);
        uint64_t *tmp = malloc(2 * (total + 1) * sizeof *tmp);
        if (!pool || !tmp)
            exit(1);
        for (size_t i = 0; i < npool; i++)
            pool[i] = num_key(random_number());
        for (size_t e = 0; e < NEXAMPLES; e++)
            if (chance(400))
                pool[below(npool)] = num_key(examples[e]);

        wsum = 0;
        for (unsigned k = 0; k < nlists; k++)
            wsum += weight[k] = (unsigned)range(1, 4);
        uint64_t cost = (uint64_t)total * COST_PER_NUMBER + contacts * contacts / 4;
        for (unsigned k = 0; k < nlists; k++) {
            size_t n = len[k] = total * weight[k] / wsum;
            mode[k] = pick_mode();
            vals[k] = malloc((n + 1) * sizeof *vals[k]);
            if (!vals[k])
                exit(1);
            for (size_t i = 0; i < n; i++)
                vals[k][i] = pool[below(npool)];
            qsort(vals[k], n, sizeof *vals[k], cmp_key);
            disorder(vals[k], n, mode[k]);
            memcpy(tmp, vals[k], n * sizeof *tmp);
            cost += inversions(tmp, tmp + total + 1, n);
        }
        free(tmp);
        if (cost >= target / 2 && cost <= target * 2 && cost >= COST_MIN && cost <= COST_MAX)
            break;
        for (unsigned k = 0; k < nlists; k++)
            free(vals[k]);
        free(pool);
    }

    fprintf(inputs, "-w s%03u_pb.txt -o {tmp}/spam.db", idx);
    for (unsigned k = 0; k < nlists; k++) {
        unsigned style = (unsigned)below(12);
        unsigned bad = chance(400) ? 0 : (unsigned)range(1, 30);
        const char *eol = chance(200) ? "\r\n" : "\n";

        snprintf(name, sizeof name, "s%03u_l%u.txt", idx, k + 1);
        FILE *f = open_out(dir, name);
        fprintf(f, "# spam report export, source %u (%s)%s", k + 1, mode_name[mode[k]], eol);
        for (size_t i = 0; i < len[k]; i++) {
            if (chance(bad)) {
                malformed_line(text, sizeof text);
                fprintf(f, "%s%s", text, eol);
            }
            if (chance(2))
                fputs(eol, f);
            format_number(text, sizeof text, key_num(vals[k][i]),
                          chance(150) ? (unsigned)below(12) : style);
            fprintf(f, "%s%s", text, eol);
        }
        close_out(f);
        fprintf(inputs, " %s", name);
        free(vals[k]);
    }
    fputc('\n', inputs);

    snprintf(name, sizeof name, "s%03u_pb.txt", idx);
    FILE *f = open_out(dir, name);
    write_phonebook(f, contacts, pool, npool, (unsigned)below(300));
    close_out(f);
    free(pool);
}

int main(int argc, char **argv)
{
    long n = 50;
    unsigned long long seed = 1;
    const char *dir = ".";

    for (int i = 1; i < argc; i++) {
        char *end;
        if (i + 1 < argc && strcmp(argv[i], "-n") == 0) {
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 0 || n > 100000) {
                fprintf(stderr, "gen: bad -n %s\n", argv[i]);
                return 2;
            }
        } else if (i + 1 < argc && strcmp(argv[i], "-s") == 0) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end) {
                fprintf(stderr, "gen: bad -s %s\n", argv[i]);
                return 2;
            }
        } else if (i + 1 < argc && strcmp(argv[i], "-o") == 0) {
            dir = argv[++i];
        } else {
            fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
            return 2;
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }

    rng_state = seed * 0x2545F4914F6CDD1DULL + 1;
    FILE *inputs = open_out(dir, "inputs.txt");
    fprintf(inputs, "# spamfilter inputs: -w PHONEBOOK -o DBFILE LIST...  (gen -n %ld -s %llu)\n",
            n, seed);
    for (long i = 0; i < n; i++)
        make_input(dir, (unsigned)i, inputs);
    close_out(inputs);
    return 0;
}
