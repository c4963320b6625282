/* route.c - Dijkstra / A* over the road-length matrix
 *
 * The matrix form is the classic O(n^2) Dijkstra: each step scans all
 * locations for the closest unsettled one, then scans its matrix row to
 * relax the roads leaving it. The search stops as soon as the target is
 * settled, so a near target costs far less than a far one.
 */
#include "route.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct search {
    double *dist;  /* best known road distance from the start */
    double *guess; /* estimated remaining distance to the target */
    int *prev;     /* previous location on the best known route */
    char *done;    /* distance is final */
};

static void search_free(struct search *s)
{
    free(s->dist);
    free(s->guess);
    free(s->prev);
    free(s->done);
}

static int search_alloc(struct search *s, int n)
{
    s->dist = malloc((size_t)n * sizeof *s->dist);
    s->guess = malloc((size_t)n * sizeof *s->guess);
    s->prev = malloc((size_t)n * sizeof *s->prev);
    s->done = malloc((size_t)n);
    if (!s->dist || !s->guess || !s->prev || !s->done) {
        search_free(s);
        return -1;
    }
    return 0;
}

static void search_reset(struct search *s, const struct map *m, int from, int to,
                         enum search_kind kind)
{
    for (int i = 0; i < m->n; i++) {
        s->dist[i] = HUGE_VAL;
        s->prev[i] = -1;
        s->done[i] = 0;
        s->guess[i] = kind == SEARCH_ASTAR ? map_distance(m, i, to) : 0.0;
    }
    s->dist[from] = 0.0;
}

/* The unsettled location with the smallest dist + guess, or -1. */
static int closest_open(const struct search *s, int n)
{
    int best = -1;
    double best_f = HUGE_VAL;
    for (int i = 0; i < n; i++) {
        if (s->done[i] || s->dist[i] == HUGE_VAL)
            continue;
        double f = s->dist[i] + s->guess[i];
        if (best < 0 || f < best_f) {
            best = i;
            best_f = f;
        }
    }
    return best;
}

static void relax(struct search *s, const struct map *m, int u)
{
    const double *row = m->len + (size_t)u * (size_t)m->n;
    for (int v = 0; v < m->n; v++) {
        if (row[v] == HUGE_VAL || s->done[v])
            continue;
        double d = s->dist[u] + row[v];
        if (d < s->dist[v]) {
            s->dist[v] = d;
            s->prev[v] = u;
        }
    }
}

/* One leg: returns the number of settled locations; dist[to] is finite
 * when the target was reached. */
static int search_leg(struct search *s, const struct map *m, int from, int to,
                      enum search_kind kind)
{
    int settled = 0;
    search_reset(s, m, from, to, kind);
    for (;;) {
        int u = closest_open(s, m->n);
        if (u < 0)
            break;
        s->done[u] = 1;
        settled++;
        if (u == to)
            break;
        relax(s, m, u);
    }
    return settled;
}

/* Appends the leg ending at `to` (without its first stop) to r->path. */
static int append_leg(struct route *r, const struct search *s, int to, int *cap)
{
    int hops = 0;
    for (int v = to; s->prev[v] >= 0; v = s->prev[v])
        hops++;
    if (r->hops + hops + 1 > *cap) {
        int ncap = *cap;
        while (r->hops + hops + 1 > ncap)
            ncap *= 2;
        int *p = realloc(r->path, (size_t)ncap * sizeof *p);
        if (p == NULL)
            return -1;
        r->path = p;
        *cap = ncap;
    }
    int k = r->hops + hops;
    for (int v = to; s->prev[v] >= 0; v = s->prev[v])
        r->path[k--] = v;
    r->hops += hops;
    return 0;
}

int route_find(const struct map *m, const int *stops, int nstops, enum search_kind kind,
               struct route *r)
{
    struct search s;
    int cap = 64;

    memset(r, 0, sizeof *r);
    r->path = malloc((size_t)cap * sizeof *r->path);
    if (r->path == NULL || search_alloc(&s, m->n) != 0) {
        free(r->path);
        r->path = NULL;
        return -1;
    }
    r->path[0] = stops[0];
    r->found = 1;
    for (int leg = 1; leg < nstops; leg++) {
        int from = stops[leg - 1], to = stops[leg];
        r->legs++;
        r->settled += search_leg(&s, m, from, to, kind);
        if (s.dist[to] == HUGE_VAL) {
            r->found = 0;
            break;
        }
        r->length += s.dist[to];
        if (append_leg(r, &s, to, &cap) != 0) {
            search_free(&s);
            route_free(r);
            return -1;
        }
    }
    search_free(&s);
    return 0;
}

int route_write(const struct map *m, const struct route *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# stop location x y distance\n");
    double total = 0.0;
    for (int k = 0; r->found && k <= r->hops; k++) {
        int v = r->path[k];
        if (k > 0)
            total += m->len[(size_t)r->path[k - 1] * (size_t)m->n + (size_t)v];
        fprintf(f, "%d %s %.2f %.2f %.2f\n", k, m->loc[v].name, m->loc[v].x, m->loc[v].y,
                total);
    }
    if (!r->found)
        fprintf(f, "# unreachable (leg %d)\n", r->legs);
    if (fclose(f) != 0) {
        fprintf(stderr, "%s: write error\n", path);
        return -1;
    }
    return 0;
}

void route_free(struct route *r)
{
    free(r->path);
    r->path = NULL;
}
