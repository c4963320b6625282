/* gen - seeded input generator for pathroute
 *
 * usage: gen [-n N] [-s SEED] [-o DIR]     (defaults 50, 1, ".")
 *
 * Writes road maps DIR/map_NNN.txt and DIR/inputs.txt with N query lines;
 * about 2.5 queries share each map (near, middle, far or unreachable
 * targets, Dijkstra or A*). Maps have 100-2000 locations with random
 * roads of varied density; roads name their ends either by location name
 * (short names, or long names sharing a prefix, sometimes written in a
 * different case) or by index. Some maps are two islands with no road
 * between them. Uses its own PRNG (splitmix64): the same seed gives the
 * same bytes on every machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* uniform integer in [lo, hi] */
static long rnd_range(long lo, long hi)
{
    return lo + (long)(next_u64() % (uint64_t)(hi - lo + 1));
}

/* uniform in [0, 1) with 53 random bits */
static double rnd_unit(void)
{
    return (double)(next_u64() >> 11) / 9007199254740992.0;
}

static const char *words[] = {
    "Oak", "Birch", "Cedar", "Maple", "Willow", "Aspen", "Elm", "Pine", "Rowan", "Hazel",
    "Linden", "Alder", "Ash", "Juniper", "Spruce", "Poplar", "Holly", "Laurel", "Myrtle",
    "Hawthorn", "River", "Stone", "Mill", "Bridge", "Harbor", "Meadow", "Valley", "Summit",
    "Quarry", "Fox", "Kings", "Queens", "North", "South", "East", "West", "Upper", "Lower",
    "Old", "New",
};
static const char *kinds[] = {
    "Junction", "Station", "Square", "Crossing", "Market", "Park", "Gate", "Corner",
    "Depot", "Plaza", "Terminal", "Yard",
};
#define NWORDS (sizeof words / sizeof words[0])
#define NKINDS (sizeof kinds / sizeof kinds[0])

static const char *prefixes[] = {
    "Greater_Northfield_Metropolitan_Area_",
    "Lakeshore_County_Regional_Transit_",
    "Saint_Bartholomew_Parish_District_",
};

enum endpoint_style { BY_INDEX, SHORT_NAMES, LONG_NAMES };

struct place {
    char name[64];
    long x, y;  /* hundredths */
    int island;
};

struct gmap {
    int n;
    int style;
    int lower_refs; /* roads write names in lower case */
    int islands;
    int grouped; /* roads listed grouped by their first location */
    struct place *p;
};

static double dist(const struct gmap *g, int a, int b)
{
    double dx = (double)(g->p[a].x - g->p[b].x) / 100.0;
    double dy = (double)(g->p[a].y - g->p[b].y) / 100.0;
    return sqrt(dx * dx + dy * dy);
}

static void make_places(struct gmap *g)
{
    int n = g->n;
    int *num = malloc((size_t)n * sizeof *num);
    for (int i = 0; i < n; i++)
        num[i] = i + 1;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rnd_range(0, i);
        int t = num[i];
        num[i] = num[j];
        num[j] = t;
    }
    const char *prefix = prefixes[rnd_range(0, 2)];
    for (int i = 0; i < n; i++) {
        struct place *p = &g->p[i];
        p->x = rnd_range(0, 100000);
        p->y = rnd_range(0, 100000);
        p->island = g->islands ? (p->x >= 50000) : 0;
        snprintf(p->name, sizeof p->name, "%s%s_%s_%d", g->style == LONG_NAMES ? prefix : "",
                 words[rnd_range(0, NWORDS - 1)], kinds[rnd_range(0, NKINDS - 1)], num[i]);
    }
    free(num);
}

static void write_ref(FILE *f, const struct gmap *g, int i)
{
    if (g->style == BY_INDEX) {
        fprintf(f, "%d", i);
        return;
    }
    for (const char *s = g->p[i].name; *s; s++)
        fputc(g->lower_refs && *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s, f);
}

/* a random location on the island of a, preferring near ones: the closest
 * of `tries` random candidates among [0, limit) */
static int pick_partner(const struct gmap *g, int a, int limit, int tries)
{
    int best = -1, found = 0;
    double best_d = 0;
    for (int t = 0; t < 64 && found < tries; t++) {
        int b = (int)rnd_range(0, limit - 1);
        if (b == a || g->p[b].island != g->p[a].island)
            continue;
        double d = dist(g, a, b);
        if (best < 0 || d < best_d) {
            best = b;
            best_d = d;
        }
        found++;
    }
    return best;
}

struct road {
    int a, b;
    long len; /* hundredths */
};

static int by_first(const void *pa, const void *pb)
{
    const struct road *a = pa, *b = pb;
    if (a->a != b->a)
        return (a->a > b->a) - (a->a < b->a);
    if (a->b != b->b)
        return (a->b > b->b) - (a->b < b->b);
    return (a->len > b->len) - (a->len < b->len);
}

static int write_map(const char *path, struct gmap *g, double degree)
{
    int n = g->n;
    long want = (long)(degree * n / 2.0);
    struct road *r = malloc((size_t)(want + n) * sizeof *r);
    long nr = 0;

    /* backbone: every location joins an earlier one on its island */
    for (int i = 1; i < n; i++) {
        int b = pick_partner(g, i, i, 4);
        if (b >= 0)
            r[nr++] = (struct road){i, b, 0};
    }
    while (nr < want) {
        int a = (int)rnd_range(0, n - 1);
        int tries = rnd_unit() < 0.85 ? (int)rnd_range(3, 12) : 1;
        int b = pick_partner(g, a, n, tries);
        if (b >= 0)
            r[nr++] = (struct road){a, b, 0};
    }
    for (long i = 0; i < nr; i++) {
        double f = 1.0 + 0.5 * rnd_unit();
        r[i].len = (long)(dist(g, r[i].a, r[i].b) * f * 100.0) + 1;
    }
    for (long i = nr - 1; i > 0; i--) {
        long j = rnd_range(0, i);
        struct road t = r[i];
        r[i] = r[j];
        r[j] = t;
    }

    if (g->grouped)
        qsort(r, (size_t)nr, sizeof *r, by_first);

    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
        free(r);
        return -1;
    }
    fprintf(f, "# pathroute map: %d locations, %ld roads\nlocations %d\n", n, nr, n);
    for (int i = 0; i < n; i++)
        fprintf(f, "%s %ld.%02ld %ld.%02ld\n", g->p[i].name, g->p[i].x / 100, g->p[i].x % 100,
                g->p[i].y / 100, g->p[i].y % 100);
    fprintf(f, "roads %ld\n", nr);
    for (long i = 0; i < nr; i++) {
        write_ref(f, g, r[i].a);
        fputc(' ', f);
        write_ref(f, g, r[i].b);
        fprintf(f, " %ld.%02ld\n", r[i].len / 100, r[i].len % 100);
    }
    free(r);
    if (fclose(f) != 0) {
        fprintf(stderr, "gen: %s: write error\n", path);
        return -1;
    }
    return 0;
}

static const struct gmap *sort_map;
static int sort_from;

static int by_distance(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    double da = dist(sort_map, sort_from, a), db = dist(sort_map, sort_from, b);
    if (da != db)
        return da < db ? -1 : 1;
    return (a > b) - (a < b);
}

/* the next stop after `from`: near, middle or far by straight-line rank on
 * the same island, or (rarely, on two-island maps) across the water */
static int next_stop(const struct gmap *g, int from, int *order)
{
    int n = g->n, m = 0;
    int kind = (int)rnd_range(0, 19); /* 0-5 near, 6-11 middle, 12-18 far, 19 other island */
    if (kind == 19 && g->islands) {
        int to;
        do
            to = (int)rnd_range(0, n - 1);
        while (g->p[to].island == g->p[from].island);
        return to;
    }
    for (int i = 0; i < n; i++) {
        if (g->p[i].island == g->p[from].island)
            order[m++] = i;
    }
    sort_map = g;
    sort_from = from;
    qsort(order, (size_t)m, sizeof *order, by_distance);
    double q = kind <= 5 ? 0.05 * rnd_unit() : kind <= 11 ? rnd_unit() : 1.0 - 0.05 * rnd_unit();
    return order[(int)(q * (m - 1))];
}

static void write_stop(FILE *f, const struct gmap *g, int i, int by_index)
{
    if (by_index)
        fprintf(f, " %d", i);
    else
        fprintf(f, " %s", g->p[i].name);
}

static void write_query(FILE *f, const struct gmap *g, int mapno)
{
    int *order = malloc((size_t)g->n * sizeof *order);
    int stops[16];
    int nvia = rnd_range(0, 1) ? 0 : (int)rnd_range(1, 10);
    int by_index = g->style == BY_INDEX ? rnd_range(0, 2) != 0 : rnd_range(0, 9) == 0;

    stops[0] = (int)rnd_range(0, g->n - 1);
    for (int k = 1; k <= nvia + 1; k++)
        stops[k] = next_stop(g, stops[k - 1], order);
    free(order);

    fprintf(f, "map_%03d.txt", mapno);
    write_stop(f, g, stops[0], by_index);
    write_stop(f, g, stops[nvia + 1], by_index);
    for (int k = 1; k <= nvia; k++) {
        fprintf(f, " -v");
        write_stop(f, g, stops[k], by_index);
    }
    if (rnd_range(0, 2) != 0)
        fprintf(f, " -o {tmp}/route.txt");
    if (rnd_range(0, 3) == 0)
        fprintf(f, " -a");
    fputc('\n', f);
}

static void usage(void)
{
    fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
    exit(1);
}

int main(int argc, char **argv)
{
    long count = 50;
    unsigned long long seed = 1;
    const char *dir = ".";

    for (int i = 1; i < argc; i++) {
        char *end;
        if (i + 1 >= argc)
            usage();
        if (strcmp(argv[i], "-n") == 0) {
            count = strtol(argv[++i], &end, 10);
            if (*end != '\0' || count < 1 || count > 100000)
                usage();
        } else if (strcmp(argv[i], "-s") == 0) {
            seed = strtoull(argv[++i], &end, 10);
            if (*end != '\0')
                usage();
        } else if (strcmp(argv[i], "-o") == 0) {
            dir = argv[++i];
        } else {
            usage();
        }
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen: %s: %s\n", dir, strerror(errno));
        return 1;
    }
    rng_state = seed * 0x2545F4914F6CDD1DULL + 1;

    char path[4096];
    snprintf(path, sizeof path, "%s/inputs.txt", dir);
    FILE *in = fopen(path, "w");
    if (in == NULL) {
        fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
        return 1;
    }
    fprintf(in, "# pathroute inputs: MAPFILE FROM TO [-v VIA]... [-o ROUTEFILE] [-a] (gen -n %ld -s %llu)\n",
            count, seed);

    long maps = (count * 2 + 4) / 5;
    long line = 0;
    for (long k = 0; k < maps; k++) {
        struct gmap g;
        long lo;
        int choice = (int)rnd_range(0, 19);
        g.style = choice < 5 ? BY_INDEX : choice < 11 ? SHORT_NAMES : LONG_NAMES;
        /* names are looked up by a linear scan: small maps only with long
         * names and many roads, or they would finish in a millisecond */
        lo = g.style == BY_INDEX ? 1700 : g.style == SHORT_NAMES ? 1300 : 250;
        g.n = (int)rnd_range(lo, 2000);
        g.lower_refs = g.style != BY_INDEX && rnd_range(0, 3) == 0;
        g.islands = rnd_range(0, 4) == 0;
        g.grouped = rnd_range(0, 2) == 0;
        double u = rnd_unit();
        double degree = 3.0 + 37.0 * (g.style == BY_INDEX ? u * u : u);
        if (g.style == LONG_NAMES) {
            double nn = (double)g.n * g.n;
            double least = 3.2e6 / nn * (1.0 + rnd_unit()), most = 0.8e8 / nn;
            degree = degree < least ? least : degree > most ? most : degree;
        }
        g.p = malloc((size_t)g.n * sizeof *g.p);
        make_places(&g);
        snprintf(path, sizeof path, "%s/map_%03ld.txt", dir, k);
        if (write_map(path, &g, degree) != 0)
            return 1;
        long last = (k + 1) * count / maps;
        for (; line < last; line++)
            write_query(in, &g, (int)k);
        free(g.p);
    }
    if (fclose(in) != 0) {
        fprintf(stderr, "gen: write error on inputs.txt\n");
        return 1;
    }
    return 0;
}
