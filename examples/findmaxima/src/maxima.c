/* maxima.c - ImageJ-style "Find Maxima" (MaximumFinder) on 8-bit images.
 *
 * 1. Every pixel of the region of interest that is not lower than any of its
 *    8 neighbours (and not at the minimum of the region) is a local maximum.
 * 2. The local maxima are sorted by value, highest first.
 * 3. For each one not yet part of an analysed area, the connected area of
 *    pixels within `tolerance` below it is flood-filled. If the fill meets a
 *    higher pixel or the area of a maximum analysed before, this maximum is
 *    not a real one. Pixels of equal height form one plateau, marked at the
 *    equal pixel nearest to the plateau's centroid.
 * The analysis is confined to the region of interest: its border plays the
 * role of the image edge.
 */
#include "maxima.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const int DIR_X[8] = { 0, 1, 1, 1, 0, -1, -1, -1 };
static const int DIR_Y[8] = { -1, -1, 0, 1, 1, 1, 0, -1 };

/* whether the neighbour of (x,y) in direction d lies inside a w x h area */
static int is_within(int x, int y, int d, int w, int h)
{
    int x2 = x + DIR_X[d], y2 = y + DIR_Y[d];
    return x2 >= 0 && x2 < w && y2 >= 0 && y2 < h;
}

static int on_edge(int x, int y, int w, int h)
{
    return x == 0 || y == 0 || x == w - 1 || y == h - 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_points(const void *a, const void *b)
{
    const MaxPoint *p = a, *q = b;
    if (p->value != q->value)
        return q->value - p->value;
    if (p->y != q->y)
        return p->y - q->y;
    return p->x - q->x;
}

/* Copies the region of interest into a new buffer (inverted for a light
 * background) and returns its minimum and maximum. */
static unsigned char *copy_roi(const Image *img, const FindParams *p, int *vmin, int *vmax)
{
    unsigned char *buf = malloc((size_t)p->rw * (size_t)p->rh);
    int lo = 255, hi = 0;

    if (!buf)
        return NULL;
    for (int y = 0; y < p->rh; y++) {
        const unsigned char *src = img->pix + (size_t)(p->ry + y) * img->width + p->rx;
        unsigned char *dst = buf + (size_t)y * p->rw;
        if (p->light_background) {
            for (int x = 0; x < p->rw; x++)
                dst[x] = (unsigned char)(255 - src[x]);
        } else {
            memcpy(dst, src, (size_t)p->rw);
        }
        for (int x = 0; x < p->rw; x++) {
            if (dst[x] < lo) lo = dst[x];
            if (dst[x] > hi) hi = dst[x];
        }
    }
    *vmin = lo;
    *vmax = hi;
    return buf;
}

/* Finds the local maxima and returns them packed as (value << 32 | offset),
 * sorted ascending, so the highest is last. */
static uint64_t *sorted_local_maxima(const unsigned char *pix, unsigned char *types,
                                     int w, int h, int vmin, int exclude_edges, long *count)
{
    size_t cap = 1024, n = 0;
    uint64_t *pts = malloc(cap * sizeof *pts);

    if (!pts)
        return NULL;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            size_t i = (size_t)y * w + x;
            int v = pix[i];
            int is_max = 1;
            int inner = x > 0 && y > 0 && x < w - 1 && y < h - 1;

            if (v == vmin)
                continue;
            if (exclude_edges && !inner)
                continue;
            for (int d = 0; d < 8; d++) {
                if (inner || is_within(x, y, d, w, h)) {
                    if (pix[(size_t)(y + DIR_Y[d]) * w + x + DIR_X[d]] > v) {
                        is_max = 0;
                        break;
                    }
                }
            }
            if (!is_max)
                continue;
            types[i] |= PX_MAXIMUM;
            if (n == cap) {
                uint64_t *tmp = realloc(pts, 2 * cap * sizeof *pts);
                if (!tmp) {
                    free(pts);
                    return NULL;
                }
                pts = tmp;
                cap *= 2;
            }
            pts[n++] = ((uint64_t)v << 32) | (uint64_t)i;
        }
    }
    qsort(pts, n, sizeof *pts, cmp_u64);
    *count = (long)n;
    return pts;
}

/* Flood-fills from each local maximum, highest first, and marks accepted
 * maxima with PX_MAX_POINT and their areas with PX_MAX_AREA. */
static void analyse_maxima(const unsigned char *pix, unsigned char *types, int w, int h,
                           const uint64_t *maxpts, long nmax, const FindParams *p,
                           int *list, long *edge_count)
{
    int dir_offset[8];

    for (int d = 0; d < 8; d++)
        dir_offset[d] = DIR_Y[d] * w + DIR_X[d];

    for (long k = nmax - 1; k >= 0; k--) {
        int off0 = (int)(maxpts[k] & 0xffffffffu);
        int x0 = off0 % w, y0 = off0 / w;
        int v0 = pix[off0];
        int len = 1, li = 0;
        int max_possible = 1, found_lower = 0, higher = 0;
        int is_edge = on_edge(x0, y0, w, h);
        double x_equal = x0, y_equal = y0;
        int n_equal = 1;

        if (types[off0] & PX_PROCESSED)
            continue;
        list[0] = off0;
        types[off0] |= PX_EQUAL | PX_LISTED;
        do {
            int off = list[li];
            int x = off % w, y = off / w;
            int inner = x > 0 && y > 0 && x < w - 1 && y < h - 1;

            for (int d = 0; d < 8; d++) {
                int off2 = off + dir_offset[d];
                int v2;

                if (!(inner || is_within(x, y, d, w, h)) || (types[off2] & PX_LISTED))
                    continue;
                if (types[off2] & PX_PROCESSED) {
                    max_possible = 0;   /* reached the area of a maximum done before */
                    higher = 1;
                    break;
                }
                v2 = pix[off2];
                if (v2 > v0) {
                    max_possible = 0;   /* reached a higher point */
                    higher = 1;
                    break;
                }
                if (v2 < v0 - p->tolerance) {
                    found_lower = 1;
                    continue;
                }
                list[len++] = off2;
                types[off2] |= PX_LISTED;
                if (on_edge(x + DIR_X[d], y + DIR_Y[d], w, h) && (p->strict || v2 == v0)) {
                    is_edge = 1;
                    if (p->exclude_edges) {
                        max_possible = 0;
                        break;
                    }
                }
                if (v2 == v0) {
                    types[off2] |= PX_EQUAL;
                    x_equal += x + DIR_X[d];
                    y_equal += y + DIR_Y[d];
                    n_equal++;
                }
            }
            li++;
        } while (li < len);

        /* strict: the maximum must stand out by more than the tolerance */
        if (p->strict && !found_lower) {
            max_possible = 0;
            higher = 1;
        }
        /* a real maximum whose area touches the edge (kept, or dropped by -e) */
        if (is_edge && !higher)
            (*edge_count)++;

        x_equal /= n_equal;
        y_equal /= n_equal;
        double min_dist2 = 1e30;
        int nearest = 0;
        unsigned char reset = (unsigned char)~(max_possible ? PX_LISTED : (PX_LISTED | PX_EQUAL));
        for (li = 0; li < len; li++) {
            int off = list[li];
            types[off] &= reset;
            types[off] |= PX_PROCESSED;
            if (max_possible) {
                types[off] |= PX_MAX_AREA;
                if (types[off] & PX_EQUAL) {
                    double dx = x_equal - off % w, dy = y_equal - off / w;
                    double dist2 = dx * dx + dy * dy;
                    if (dist2 < min_dist2) {
                        min_dist2 = dist2;
                        nearest = li;
                    }
                }
            }
        }
        if (max_possible)
            types[list[nearest]] |= PX_MAX_POINT;
    }
}

int find_maxima(const Image *img, const FindParams *p, MaxResult *res)
{
    int w = p->rw, h = p->rh, vmin, vmax;
    size_t npix = (size_t)w * (size_t)h;
    unsigned char *pix;
    uint64_t *maxpts = NULL;
    int *list = NULL;
    size_t cap = 64;

    memset(res, 0, sizeof *res);
    pix = copy_roi(img, p, &vmin, &vmax);
    res->types = calloc(npix, 1);
    if (!pix || !res->types)
        goto oom;
    if (vmin == vmax) {         /* flat region: no maxima at all */
        free(pix);
        return 0;
    }
    maxpts = sorted_local_maxima(pix, res->types, w, h, vmin, p->exclude_edges, &res->nlocal);
    list = malloc(npix * sizeof *list);
    if (!maxpts || !list)
        goto oom;
    analyse_maxima(pix, res->types, w, h, maxpts, res->nlocal, p, list, &res->edge_maxima);

    res->points = malloc(cap * sizeof *res->points);
    if (!res->points)
        goto oom;
    for (size_t i = 0; i < npix; i++) {
        if (res->types[i] & PX_MAX_AREA)
            res->area_pixels++;
        if (!(res->types[i] & PX_MAX_POINT))
            continue;
        if ((size_t)res->npoints == cap) {
            MaxPoint *tmp = realloc(res->points, 2 * cap * sizeof *tmp);
            if (!tmp)
                goto oom;
            res->points = tmp;
            cap *= 2;
        }
        MaxPoint *mp = &res->points[res->npoints++];
        mp->x = p->rx + (int)(i % (size_t)w);
        mp->y = p->ry + (int)(i / (size_t)w);
        mp->value = img->pix[(size_t)mp->y * img->width + mp->x];
    }
    qsort(res->points, (size_t)res->npoints, sizeof *res->points, cmp_points);
    free(list);
    free(maxpts);
    free(pix);
    return 0;

oom:
    free(list);
    free(maxpts);
    free(pix);
    maxresult_free(res);
    return -1;
}

int render_maxima(const Image *img, const FindParams *p, const MaxResult *res,
                  int mode, Image *out)
{
    unsigned char flag = mode == 0 ? PX_MAX_POINT : PX_MAX_AREA;

    if (image_alloc(out, img->width, img->height) != 0)
        return -1;
    if (!res->types)
        return 0;
    for (int y = 0; y < p->rh; y++) {
        const unsigned char *t = res->types + (size_t)y * p->rw;
        unsigned char *dst = out->pix + (size_t)(p->ry + y) * img->width + p->rx;
        for (int x = 0; x < p->rw; x++)
            dst[x] = (t[x] & flag) ? 255 : 0;
    }
    return 0;
}

void maxresult_free(MaxResult *res)
{
    free(res->points);
    free(res->types);
    res->points = NULL;
    res->types = NULL;
    res->npoints = 0;
}
