/* gen: seeded generator of PGM test images for facedetect.
 * usage: gen [-n N] [-s SEED] [-o DIR]
 * Writes img_NNN.pgm files (flat, gradient, noise, texture, stripes, spots,
 * decoy-wallpaper or mixed backgrounds, clutter, synthetic faces and decoys)
 * and DIR/inputs.txt with N input lines. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* smallest image area generated: tiny images run too fast to time */
#define MIN_AREA 250000L

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform integer in [lo, hi] */
static int rng_int(int lo, int hi)
{
    return lo + (int)(rng_next() % (uint64_t)(hi - lo + 1));
}

/* uniform double in [0, 1) */
static double rng_unit(void)
{
    return (double)(rng_next() >> 11) / 9007199254740992.0;
}

static unsigned char clamp255(double v)
{
    if (v < 0.0)
        return 0;
    if (v > 255.0)
        return 255;
    return (unsigned char)(v + 0.5);
}

typedef struct {
    int w, h;
    unsigned char *px;
} Img;

enum { BG_FLAT, BG_GRADIENT, BG_NOISE, BG_TEXTURE, BG_STRIPES, BG_SPOTS, BG_MOTIFS, BG_MIXED, BG_KINDS };
static const char *bg_names[BG_KINDS] = { "flat", "gradient", "noise", "texture", "stripes", "spots", "motifs", "mixed" };

static int in_ellipse(double u, double v, double cx, double cy, double rx, double ry)
{
    double a = (u - cx) / rx, b = (v - cy) / ry;
    return a * a + b * b <= 1.0;
}

/* Parts of a synthetic face; decoys leave some out. */
enum { P_EYES = 1, P_BROWS = 2, P_MOUTH = 4, P_NOSE = 8, P_ALL = 15 };

/* Brightness factor of a synthetic face at (u, v) in a 24x24 frame, or -1
 * outside the face oval. */
static double face_template(double u, double v, int parts)
{
    double a = (u - 12.0) / 10.0, b = (v - 12.5) / 11.5, r2 = a * a + b * b;
    if (r2 > 1.0)
        return -1.0;
    if ((parts & P_EYES) && (in_ellipse(u, v, 7.5, 9.0, 2.8, 1.4) || in_ellipse(u, v, 16.5, 9.0, 2.8, 1.4)))
        return 0.30;                                        /* eyes */
    if ((parts & P_BROWS) && v >= 5.5 && v < 7.0 && ((u >= 4.0 && u < 10.5) || (u >= 13.5 && u < 20.0)))
        return 0.42;                                        /* eyebrows */
    if ((parts & P_MOUTH) && in_ellipse(u, v, 12.0, 18.5, 4.5, 1.3))
        return 0.45;                                        /* mouth */
    if ((parts & P_NOSE) && v >= 14.5 && v < 16.0 && ((u >= 9.5 && u < 11.0) || (u >= 13.0 && u < 14.5)))
        return 0.55;                                        /* nostrils */
    if ((parts & P_NOSE) && u >= 10.5 && u < 13.5 && v >= 7.0 && v < 14.5)
        return 1.10;                                        /* nose ridge */
    return 1.0 - 0.18 * r2;                                 /* skin, shaded towards the rim */
}

/* Draws a face of size s x s with its top-left corner at (fx, fy), clipped to
 * the image; upside-down faces are drawn flipped vertically. */
static void draw_face(Img *im, int fx, int fy, int s, int skin, int grain, int parts, int flip)
{
    for (int y = fy < 0 ? 0 : fy; y < fy + s && y < im->h; y++)
        for (int x = fx < 0 ? 0 : fx; x < fx + s && x < im->w; x++) {
            double v = (y - fy + 0.5) * 24.0 / s;
            double t = face_template((x - fx + 0.5) * 24.0 / s, flip ? 24.0 - v : v, parts);
            if (t >= 0.0)
                im->px[(size_t)y * im->w + x] = clamp255(skin * t + (grain ? rng_int(-grain, grain) : 0));
        }
}

/* Fills rows [y0, y1) with one kind of background. */
static void fill_background(Img *im, int y0, int y1, int kind)
{
    int base = rng_int(40, 215);
    if (kind == BG_FLAT) {
        for (int y = y0; y < y1; y++)
            memset(im->px + (size_t)y * im->w, base, (size_t)im->w);
    } else if (kind == BG_GRADIENT) {
        double gx = (rng_unit() - 0.5) * 2.0, gy = (rng_unit() - 0.5) * 2.0;
        double span = 40.0 + rng_unit() * 160.0;
        double norm = span / ((gx < 0 ? -gx : gx) * im->w + (gy < 0 ? -gy : gy) * (y1 - y0) + 1.0);
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < im->w; x++)
                im->px[(size_t)y * im->w + x] = clamp255(base - span / 2 + (gx * x + gy * (y - y0)) * norm);
    } else if (kind == BG_NOISE) {
        int amp = rng_int(4, 60);
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < im->w; x++)
                im->px[(size_t)y * im->w + x] = clamp255(base + rng_int(-amp, amp));
    } else if (kind == BG_TEXTURE) {
        /* value noise: random lattice with bilinear interpolation, plus grain */
        int cell = rng_int(5, 90), amp = rng_int(15, 90), grain = rng_int(0, 12);
        int gw = im->w / cell + 2, gh = (y1 - y0) / cell + 2;
        double *lat = malloc((size_t)gw * gh * sizeof *lat);
        if (!lat) {
            fprintf(stderr, "gen: out of memory\n");
            exit(1);
        }
        for (int i = 0; i < gw * gh; i++)
            lat[i] = (rng_unit() - 0.5) * 2.0 * amp;
        for (int y = y0; y < y1; y++) {
            int cy = (y - y0) / cell;
            double fy = (double)((y - y0) % cell) / cell;
            for (int x = 0; x < im->w; x++) {
                int cx = x / cell;
                double fx = (double)(x % cell) / cell;
                const double *r0 = lat + (size_t)cy * gw + cx, *r1 = r0 + gw;
                double v = (r0[0] * (1 - fx) + r0[1] * fx) * (1 - fy) + (r1[0] * (1 - fx) + r1[1] * fx) * fy;
                im->px[(size_t)y * im->w + x] = clamp255(base + v + (grain ? rng_int(-grain, grain) : 0));
            }
        }
        free(lat);
    } else if (kind == BG_STRIPES) {
        int period = rng_int(6, 60), amp = rng_int(20, 80), vertical = rng_int(0, 3) == 0;
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < im->w; x++) {
                int t = vertical ? x : y - y0;
                int dark = (t % period) < period / 2;
                im->px[(size_t)y * im->w + x] = clamp255(base + (dark ? -amp : amp) / 2 + rng_int(-3, 3));
            }
    } else if (kind == BG_SPOTS) {
        /* dark elliptical spots on a lighter surface, like pebbles or print */
        int rmin = rng_int(2, 8), rmax = rmin + rng_int(0, 10), dark = rng_int(40, 140);
        long nspots = (long)im->w * (y1 - y0) / (rng_int(2, 12) * rmax * rmax * 4L);
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < im->w; x++)
                im->px[(size_t)y * im->w + x] = clamp255(base + 40 + rng_int(-4, 4));
        for (long k = 0; k < nspots; k++) {
            int rx = rng_int(rmin, rmax), ry = rng_int(rmin, rmax);
            int cx = rng_int(0, im->w - 1), cy = rng_int(y0, y1 - 1);
            for (int y = cy - ry; y <= cy + ry; y++)
                for (int x = cx - rx; x <= cx + rx; x++) {
                    double a = (double)(x - cx) / rx, b = (double)(y - cy) / ry;
                    if (y >= y0 && y < y1 && x >= 0 && x < im->w && a * a + b * b <= 1.0)
                        im->px[(size_t)y * im->w + x] = clamp255(base + 40 - dark);
                }
        }
    } else if (kind == BG_MOTIFS) {
        /* wallpaper of face-like decoys: eyeless or upside-down faces */
        int size = rng_int(20, 90), gap = rng_int(0, size), skin = rng_int(120, 235);
        int flip = rng_int(0, 3) == 0;
        int parts = flip ? P_ALL : rng_int(0, P_ALL) & ~P_EYES;
        for (int y = y0; y < y1; y++)
            memset(im->px + (size_t)y * im->w, base, (size_t)im->w);
        for (int ty = y0; ty + size <= y1; ty += size + gap)
            for (int tx = (ty / (size + gap)) % 2 * (size + gap) / 2; tx + size <= im->w; tx += size + gap)
                draw_face(im, tx, ty, size, skin, rng_int(0, 6), parts, flip);
    } else {
        /* a scene of horizontal bands, each with its own background */
        int y = y0;
        while (y < y1) {
            int band = rng_int(60, 600);
            if (y + band > y1 || y1 - (y + band) < 40)
                band = y1 - y;
            fill_background(im, y, y + band, rng_int(BG_FLAT, BG_MOTIFS));
            y += band;
        }
    }
}

/* Solid ellipses and boxes of random shades: clutter with sharp edges. */
static void draw_clutter(Img *im, int count)
{
    for (int k = 0; k < count; k++) {
        int rw = rng_int(8, im->w / 3 + 8), rh = rng_int(8, im->h / 4 + 8);
        int x0 = rng_int(-rw / 2, im->w - rw / 2), y0 = rng_int(-rh / 2, im->h - rh / 2);
        int shade = rng_int(0, 255), oval = rng_int(0, 1);
        for (int y = y0 < 0 ? 0 : y0; y < y0 + rh && y < im->h; y++)
            for (int x = x0 < 0 ? 0 : x0; x < x0 + rw && x < im->w; x++) {
                double u = (x - x0 + 0.5) / rw - 0.5, v = (y - y0 + 0.5) / rh - 0.5;
                if (!oval || u * u + v * v <= 0.25)
                    im->px[(size_t)y * im->w + x] = (unsigned char)shade;
            }
    }
}

typedef struct {
    int x, y, s;
} Placed;

static int overlaps(const Placed *p, int n, int x, int y, int s)
{
    for (int i = 0; i < n; i++)
        if (x < p[i].x + p[i].s && p[i].x < x + s && y < p[i].y + p[i].s && p[i].y < y + s)
            return 1;
    return 0;
}

/* Draws up to `count` faces and `decoys` face-like decoys (eyeless or upside
 * down) at random non-overlapping places. Returns the number of faces drawn. */
static int draw_faces(Img *im, int count, int decoys)
{
    Placed placed[24];
    int n = 0, faces = 0, maxs = (im->w < im->h ? im->w : im->h) * 3 / 5;
    if (maxs > 360)
        maxs = 360;
    for (int tries = 0; n < count + decoys && n < 24 && tries < 300; tries++) {
        /* small faces are more common than large ones */
        int s = 24 + (int)((maxs - 24) * rng_unit() * rng_unit());
        int x = rng_int(0, im->w - s), y = rng_int(0, im->h - s);
        if (overlaps(placed, n, x, y, s))
            continue;
        int real = n < count, flip = !real && rng_int(0, 1);
        draw_face(im, x, y, s, rng_int(120, 235), rng_int(0, 10), real || flip ? P_ALL : P_BROWS | P_MOUTH | P_NOSE,
                  flip);
        faces += real;
        placed[n].x = x;
        placed[n].y = y;
        placed[n].s = s;
        n++;
    }
    return faces;
}

static int write_pgm(const char *path, const Img *im, const char *comment)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    fprintf(f, "P5\n# %s\n%d %d\n255\n", comment, im->w, im->h);
    size_t n = (size_t)im->w * im->h;
    int bad = fwrite(im->px, 1, n, f) != n;
    if (fclose(f) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    long n = 50;
    unsigned long long seed = 1;
    const char *dir = ".";
    char path[4096], comment[160];

    for (int i = 1; i < argc; i++) {
        char *end;
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "-n") == 0) {
            n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 100000)
                usage();
        } else if (strcmp(argv[i], "-s") == 0) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end)
                usage();
        } else if (strcmp(argv[i], "-o") == 0) {
            dir = argv[++i];
        } else {
            usage();
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen: cannot create %s: %s\n", dir, strerror(errno));
        return 1;
    }
    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *list = fopen(path, "w");
    if (!list) {
        fprintf(stderr, "gen: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    rng_state = seed * 0xD1B54A32D192ED03ULL + 12345;
    fprintf(list, "# facedetect inputs: gen -n %ld -s %llu\n", n, seed);

    static const char *steps[] = { "1.05", "1.08", "1.1", "1.12", "1.15", "1.15", NULL };
    int img_no = 0, w = 0, h = 0, kind = 0;
    double offset = rng_unit();
    char img_name[64] = "";
    for (long k = 0; k < n; k++) {
        /* every fourth line re-runs the previous image with other options */
        if (k % 4 != 3 || img_no == 0) {
            Img im;
            if (k % 8 == 5 && img_no > 0) {
                /* same size as the previous image, other content */
                kind = (kind + rng_int(1, BG_KINDS - 1)) % BG_KINDS;
                if ((long)w * h < 3 * MIN_AREA && (kind == BG_FLAT || kind == BG_GRADIENT))
                    kind += BG_NOISE; /* small flat scenes run too fast to time */
            } else {
                /* area from MIN_AREA (more for flat scenes, which are scanned
                 * almost for free) to 900x3000, smaller ones more likely */
                kind = rng_int(0, BG_KINDS - 1);
                long lo = kind == BG_FLAT || kind == BG_GRADIENT ? 3 * MIN_AREA : MIN_AREA;
                /* golden-ratio sequence: every seed covers the range of sizes evenly */
                double u = offset + 0.6180339887498949 * img_no + 0.05 * rng_unit();
                u -= (long)u;
                long area = lo + (long)((900L * 3000 - lo) * u * u);
                int wmin = (int)((area + 2999) / 3000), wmax = (int)(area / 100);
                w = rng_int(wmin < 100 ? 100 : wmin, wmax > 900 ? 900 : wmax);
                h = (int)(area / w);
            }
            im.w = w;
            im.h = h;
            im.px = malloc((size_t)w * h);
            if (!im.px) {
                fprintf(stderr, "gen: out of memory\n");
                return 1;
            }
            fill_background(&im, 0, h, kind);
            if (rng_int(0, 2) == 0)
                draw_clutter(&im, rng_int(1, 3 + w * h / 40000));
            int decoys = rng_int(0, 3) == 0 ? rng_int(1, 6) : 0;
            int faces = draw_faces(&im, rng_int(0, 8), decoys);
            snprintf(img_name, sizeof img_name, "img_%03d.pgm", img_no++);
            snprintf(path, sizeof path, "%s/%s", dir, img_name);
            snprintf(comment, sizeof comment, "gen: %s background, %d faces", bg_names[kind], faces);
            if (write_pgm(path, &im, comment) != 0) {
                fprintf(stderr, "gen: cannot write %s\n", path);
                return 1;
            }
            free(im.px);
        }
        const char *step = steps[rng_int(0, 6)];
        int m = rng_int(3, 5);
        if (step)
            fprintf(list, "-s %s ", step);
        if (m != 4)
            fprintf(list, "-m %d ", m);
        fprintf(list, "%s {tmp}/out.pgm\n", img_name);
    }
    if (fclose(list) != 0) {
        fprintf(stderr, "gen: error writing inputs.txt\n");
        return 1;
    }
    return 0;
}
