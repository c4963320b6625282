/* gen.c - seeded input generator for findmaxima.
 *
 *   gen [-n N] [-s SEED] [-o DIR]
 *
 * Writes ceil(N/3) PGM images img_NNN.pgm into DIR and DIR/inputs.txt with N
 * lines; each three consecutive lines share an image but use different ROIs, tolerances
 * and options. An image is a background (flat or ramp), Gaussian blobs of
 * varied size and height (summed and clipped at 255, which makes saturated
 * plateaus), flat-topped discs and rectangles, and noise of varied amplitude.
 * Everything is computed with integer arithmetic only (the Gaussian profile
 * comes from a fixed-point exp table), so the output is byte-identical on
 * every machine.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GTAB_STEPS 64          /* table entries per unit of d^2/(2 sigma^2) */
#define GTAB_LEN (GTAB_STEPS * 10 + 1)
#define LINES_PER_IMAGE 3
#define MIN_SIDE 1000
#define MAX_SIDE 4500
#define MAX_PIXELS 16000000LL
#define MIN_ROI 1000           /* ROI sides are at least this (or the image side) */

static uint64_t rng_state;
static uint32_t gauss_tab[GTAB_LEN];   /* exp(-j/64) in Q16 */

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform integer in [lo, hi] */
static int rnd(int lo, int hi)
{
    return lo + (int)(next_u64() % (uint64_t)(hi - lo + 1));
}

/* integer in [lo, hi], skewed towards lo: lo + (hi-lo) * t^k, t uniform */
static int rnd_skew(int lo, int hi, int k)
{
    int64_t t = rnd(0, 1000), num = 1, den = 1;
    for (int i = 0; i < k; i++) {
        num *= t;
        den *= 1000;
    }
    return lo + (int)((int64_t)(hi - lo) * num / den);
}

static void init_gauss_table(void)
{
    /* q = exp(-1/64) in Q30 by its Taylor series, then powers of q */
    const uint64_t one = (uint64_t)1 << 30;
    uint64_t term = one, q = one, p = one;
    for (int k = 1; k < 8; k++) {
        term = term / ((uint64_t)GTAB_STEPS * k);
        q = (k % 2) ? q - term : q + term;
    }
    for (int j = 0; j < GTAB_LEN; j++) {
        gauss_tab[j] = (uint32_t)((p + (1 << 13)) >> 14);     /* Q16 */
        p = (p * q) >> 30;
    }
}

typedef struct {
    int w, h;
    int32_t *acc;              /* pixel values in Q8 */
} Canvas;

/* adds a Gaussian blob of height amp and sigma s10/10 centred at (cx,cy) */
static void add_blob(Canvas *c, int cx, int cy, int s10, int amp, uint32_t *prof)
{
    int r = 3 * s10 / 10 + 1;
    int64_t two_s2 = 2LL * s10 * s10;       /* 2 sigma^2 in hundredths */

    for (int d = 0; d <= r; d++) {
        int64_t j = (int64_t)d * d * 100 * GTAB_STEPS / two_s2;
        prof[d] = j < GTAB_LEN ? gauss_tab[j] : 0;
    }
    int y0 = cy - r < 0 ? 0 : cy - r, y1 = cy + r >= c->h ? c->h - 1 : cy + r;
    int x0 = cx - r < 0 ? 0 : cx - r, x1 = cx + r >= c->w ? c->w - 1 : cx + r;
    for (int y = y0; y <= y1; y++) {
        int64_t py = (int64_t)amp * prof[abs(y - cy)];      /* Q16 */
        int32_t *row = c->acc + (size_t)y * c->w;
        for (int x = x0; x <= x1; x++)
            row[x] += (int32_t)((py * prof[abs(x - cx)]) / 16777216);  /* Q8 */
    }
}

/* sets a flat-topped disc or rectangle to at least `level` (Q8) */
static void add_plateau(Canvas *c, int cx, int cy, int rx, int ry, int disc, int32_t level)
{
    for (int y = cy - ry; y <= cy + ry; y++) {
        if (y < 0 || y >= c->h)
            continue;
        for (int x = cx - rx; x <= cx + rx; x++) {
            if (x < 0 || x >= c->w)
                continue;
            if (disc) {
                int64_t dx = x - cx, dy = y - cy;
                if (dx * dx * ry * ry + dy * dy * rx * rx > (int64_t)rx * rx * ry * ry)
                    continue;
            }
            int32_t *p = c->acc + (size_t)y * c->w + x;
            if (*p < level)
                *p = level;
        }
    }
}

static int write_pgm(const char *path, const Canvas *c, int idx, uint64_t seed)
{
    FILE *f = fopen(path, "wb");
    size_t n = (size_t)c->w * c->h;
    unsigned char *buf = malloc(n);

    if (!f || !buf) {
        if (f) fclose(f);
        free(buf);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        int32_t v = c->acc[i] < 0 ? 0 : c->acc[i] / 256;
        buf[i] = (unsigned char)(v > 255 ? 255 : v);
    }
    fprintf(f, "P5\n# findmaxima test image %d\n# seed %llu\n%d %d\n255\n", idx,
            (unsigned long long)seed, c->w, c->h);
    size_t wr = fwrite(buf, 1, n, f);
    free(buf);
    if (fclose(f) != 0 || wr != n)
        return -1;
    return 0;
}

/* Draws image idx of random size and content into c. */
static int make_image(Canvas *c, uint32_t **prof, size_t *prof_cap)
{
    int side = rnd_skew(MIN_SIDE, MAX_SIDE, 1);
    int aspect = rnd(70, 140);                  /* percent */
    if ((int64_t)side * side * aspect / 100 > MAX_PIXELS)
        aspect = (int)(MAX_PIXELS * 100 / ((int64_t)side * side));
    c->w = side;
    c->h = side * aspect / 100;
    size_t npix = (size_t)c->w * c->h;
    c->acc = malloc(npix * sizeof *c->acc);
    if (!c->acc)
        return -1;

    /* background: flat or a ramp */
    int base = rnd(0, 60);
    int gx = 0, gy = 0;
    if (rnd(0, 99) < 45) {
        gx = rnd(-120, 120);
        gy = rnd(-120, 120);
    }
    for (int y = 0; y < c->h; y++)
        for (int x = 0; x < c->w; x++) {
            int32_t v = (base << 8) + (int32_t)(((int64_t)gx * x * 256) / c->w) +
                        (int32_t)(((int64_t)gy * y * 256) / c->h);
            c->acc[(size_t)y * c->w + x] = v;
        }

    /* Gaussian blobs: sigma range, then a count that covers a random
     * fraction (in percent, 2..300) of the image with blob cores */
    int smin = rnd(15, 60), smax = smin + rnd_skew(10, 400, 2);   /* sigma in tenths */
    int coverage = rnd_skew(2, 300, 2);
    int64_t core = (int64_t)(smin + smax) * (smin + smax) / 25 + 4;  /* ~ (2 sigma)^2 */
    long nblobs = (long)((int64_t)coverage * (int64_t)npix / (100 * core)) + 1;
    int amin = rnd(15, 80), amax = amin + rnd(20, 200);
    if ((size_t)(3 * smax / 10 + 2) > *prof_cap) {
        *prof_cap = (size_t)(3 * smax / 10 + 2);
        uint32_t *tmp = realloc(*prof, *prof_cap * sizeof **prof);
        if (!tmp)
            return -1;
        *prof = tmp;
    }
    for (long b = 0; b < nblobs; b++) {
        int bx = rnd(0, c->w - 1), by = rnd(0, c->h - 1);
        int bs = rnd_skew(smin, smax, 2), ba = rnd(amin, amax);
        add_blob(c, bx, by, bs, ba, *prof);
    }
    /* some images also have dark spots (dust), dipping below the background */
    if (rnd(0, 99) < 30) {
        long ndark = nblobs / 4 + 1;
        for (long b = 0; b < ndark; b++) {
            int bx = rnd(0, c->w - 1), by = rnd(0, c->h - 1);
            int bs = rnd_skew(smin, smax, 2), ba = rnd(5, 40);
            add_blob(c, bx, by, bs, -ba, *prof);
        }
    }

    /* flat-topped plateaus */
    if (rnd(0, 99) < 50) {
        int np = rnd(1, 3 + (int)(npix / 40000));
        for (int k = 0; k < np; k++) {
            int rx = rnd(2, 12 + c->w / 40), ry = rnd(2, 12 + c->h / 40);
            int px = rnd(0, c->w - 1), py = rnd(0, c->h - 1);
            int disc = rnd(0, 1), level = rnd(base + 10, 255);
            add_plateau(c, px, py, rx, ry, disc, (int32_t)level << 8);
        }
    }

    /* noise: none, faint (which makes many tiny maxima) or strong */
    int nz = rnd(0, 99);
    int amp = nz < 20 ? 0 : nz < 45 ? rnd(1, 3) : nz < 75 ? rnd(4, 12) : rnd(13, 40);
    if (amp > 0) {
        for (size_t i = 0; i < npix; i++) {
            uint64_t r = next_u64();
            int a = (int)(r & 0xffff) % (2 * amp + 1) - amp;
            int b = (int)((r >> 16) & 0xffff) % (2 * amp + 1) - amp;
            c->acc[i] += (a + b) * 128;        /* triangular, +-amp */
        }
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
}

int main(int argc, char **argv)
{
    long n = 50;
    unsigned long long seed = 1;
    const char *dir = ".";

    for (int i = 1; i < argc; i++) {
        char *end;
        if (i + 1 >= argc || argv[i][0] != '-' || strlen(argv[i]) != 2) {
            usage();
            return 2;
        }
        const char *v = argv[++i];
        errno = 0;
        switch (argv[i - 1][1]) {
        case 'n':
            n = strtol(v, &end, 10);
            if (errno || *end || end == v || n < 1 || n > 100000) {
                fprintf(stderr, "gen: bad -n '%s'\n", v);
                return 2;
            }
            break;
        case 's':
            seed = strtoull(v, &end, 10);
            if (errno || *end || end == v) {
                fprintf(stderr, "gen: bad -s '%s'\n", v);
                return 2;
            }
            break;
        case 'o':
            dir = v;
            break;
        default:
            usage();
            return 2;
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen: cannot create '%s': %s\n", dir, strerror(errno));
        return 1;
    }

    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *list = fopen(path, "w");
    if (!list) {
        fprintf(stderr, "gen: cannot write '%s'\n", path);
        return 1;
    }
    fprintf(list, "# findmaxima inputs: gen -n %ld -s %llu\n", n, seed);

    rng_state = seed * 0x2545F4914F6CDD1DULL + 1;
    init_gauss_table();
    uint32_t *prof = NULL;
    size_t prof_cap = 0;
    Canvas c = { 0, 0, NULL };

    for (long i = 0; i < n; i++) {
        long img = i / LINES_PER_IMAGE;
        if (i % LINES_PER_IMAGE == 0) {
            free(c.acc);
            c.acc = NULL;
            if (make_image(&c, &prof, &prof_cap) != 0) {
                fprintf(stderr, "gen: out of memory\n");
                return 1;
            }
            snprintf(path, sizeof path, "%s/img_%03ld.pgm", dir, img);
            if (write_pgm(path, &c, (int)img, seed) != 0) {
                fprintf(stderr, "gen: cannot write '%s'\n", path);
                return 1;
            }
        }
        /* region of interest: the whole image or a random part of it */
        char roi[64] = "";
        if (rnd(0, 99) < 55) {
            int rw = c.w * rnd(25, 100) / 100, rh = c.h * rnd(25, 100) / 100;
            if (rw < MIN_ROI) rw = c.w < MIN_ROI ? c.w : MIN_ROI;
            if (rh < MIN_ROI) rh = c.h < MIN_ROI ? c.h : MIN_ROI;
            int rx = rnd(0, c.w - rw), ry = rnd(0, c.h - rh);
            snprintf(roi, sizeof roi, " -r %d,%d,%d,%d", rx, ry, rw, rh);
        }
        int t = rnd(0, 99);
        int tol = t < 15 ? rnd(0, 3) : t < 70 ? rnd(4, 30) : rnd(31, 120);
        int excl = rnd(0, 99) < 30, strict = rnd(0, 99) < 15, light = rnd(0, 99) < 10;
        fprintf(list, "-t %d%s%s%s%s", tol, roi, excl ? " -e" : "", strict ? " -s" : "",
                light ? " -l" : "");
        int out = rnd(0, 99);
        if (out < 20)
            fprintf(list, " -o {tmp}/maxima.pgm");
        else if (out < 35)
            fprintf(list, " -m area -o {tmp}/area.pgm");
        fprintf(list, " img_%03ld.pgm\n", img);
    }
    free(c.acc);
    free(prof);
    if (fclose(list) != 0) {
        fprintf(stderr, "gen: cannot write inputs.txt\n");
        return 1;
    }
    return 0;
}
