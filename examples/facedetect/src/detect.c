#include "detect.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "integral.h"

/* Window shift at scale s is about WINDOW_STRIDE * s pixels. */
static const double WINDOW_STRIDE = 1.5;
/* Relative tolerance when deciding whether two raw detections are the same face. */
static const double GROUP_EPS = 0.2;

typedef struct {
    int off[4];     /* integral-image offsets of the corners: tl, tr, bl, br */
    double weight;
} ScaledRect;

typedef struct {
    int nrects;
    ScaledRect rect[3];
    double threshold, below, above;
} ScaledFeature;

typedef struct {
    int x, y, w, h;
} Rect;

typedef struct {
    Rect *items;
    int count, cap;
} RectList;

static int rect_list_push(RectList *l, Rect r)
{
    if (l->count == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 64;
        Rect *p = realloc(l->items, (size_t)ncap * sizeof *p);
        if (!p)
            return -1;
        l->items = p;
        l->cap = ncap;
    }
    l->items[l->count++] = r;
    return 0;
}

static int scaled(int v, double scale)
{
    return (int)(v * scale + 0.5);
}

/* Scales every feature of the cascade to a window of base size * scale. After
 * rounding, the first rectangle's weight is recomputed so each feature still
 * gives zero on a flat patch. */
static void scale_features(const HaarCascade *c, double scale, int stride, ScaledFeature *out)
{
    for (int i = 0; i < c->nfeatures; i++) {
        const HaarFeature *f = &c->features[i];
        ScaledFeature *sf = &out[i];
        double area0 = 0.0, rest = 0.0;

        sf->nrects = f->nrects;
        sf->threshold = f->threshold;
        sf->below = f->below;
        sf->above = f->above;
        for (int k = 0; k < f->nrects; k++) {
            const HaarRect *r = &f->rect[k];
            int x = scaled(r->x, scale), y = scaled(r->y, scale);
            int w = scaled(r->w, scale), h = scaled(r->h, scale);
            if (w < 1)
                w = 1;
            if (h < 1)
                h = 1;
            sf->rect[k].off[0] = y * stride + x;
            sf->rect[k].off[1] = y * stride + x + w;
            sf->rect[k].off[2] = (y + h) * stride + x;
            sf->rect[k].off[3] = (y + h) * stride + x + w;
            sf->rect[k].weight = r->weight;
            if (k == 0)
                area0 = (double)w * h;
            else
                rest += r->weight * (double)w * h;
        }
        sf->rect[0].weight = -rest / area0;
    }
}

static inline double rect_sum(const uint32_t *p, const ScaledRect *r)
{
    return (double)(uint32_t)(p[r->off[3]] - p[r->off[2]] - p[r->off[1]] + p[r->off[0]]);
}

/* Runs the cascade on the window whose top-left integral entry is p; norm is
 * window area * std deviation. Returns the number of stages passed. */
static int run_cascade(const HaarCascade *c, const ScaledFeature *sf, const uint32_t *p, double norm)
{
    for (int s = 0; s < c->nstages; s++) {
        const HaarStage *st = &c->stages[s];
        double votes = 0.0;
        for (int i = st->first; i < st->first + st->count; i++) {
            const ScaledFeature *f = &sf[i];
            double v = 0.0;
            for (int k = 0; k < f->nrects; k++)
                v += f->rect[k].weight * rect_sum(p, &f->rect[k]);
            votes += v < f->threshold * norm ? f->below : f->above;
        }
        if (votes < st->threshold)
            return s;
    }
    return c->nstages;
}

/* Scans all window positions at one scale, appending accepted windows to hits. */
static int scan_scale(const Integral *ii, const HaarCascade *c, const ScaledFeature *sf,
                      int win, int step, DetectResult *res, RectList *hits)
{
    int W = ii->width;
    double area = (double)win * win;

    for (int y = 0; y + win < ii->height; y += step) {
        for (int x = 0; x + win < W; x += step) {
            size_t tl = (size_t)y * W + x, tr = tl + win;
            size_t bl = tl + (size_t)win * W, br = bl + win;
            double s = (double)(uint32_t)(ii->sum[br] - ii->sum[bl] - ii->sum[tr] + ii->sum[tl]);
            double q = (double)(ii->sqsum[br] - ii->sqsum[bl] - ii->sqsum[tr] + ii->sqsum[tl]);
            double mean = s / area;
            double var = q / area - mean * mean;
            double sd = var > 1.0 ? sqrt(var) : 1.0;
            int passed = run_cascade(c, sf, ii->sum + tl, area * sd);

            res->windows++;
            res->stages_passed += passed;
            if (passed == c->nstages) {
                Rect r = { x, y, win, win };
                if (rect_list_push(hits, r) != 0)
                    return -1;
            }
        }
    }
    return 0;
}

static int cmp_rect(const void *a, const void *b)
{
    const Rect *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return (p->w > q->w) - (p->w < q->w);
}

static int cmp_face(const void *a, const void *b)
{
    const FaceBox *p = a, *q = b;
    if (p->y != q->y)
        return p->y < q->y ? -1 : 1;
    return (p->x > q->x) - (p->x < q->x);
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i) {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    return i;
}

static int similar(const Rect *a, const Rect *b)
{
    double delta = GROUP_EPS * (a->w < b->w ? a->w : b->w);
    return fabs((double)a->x - b->x) <= delta && fabs((double)a->y - b->y) <= delta &&
           fabs((double)(a->x + a->w) - (b->x + b->w)) <= delta &&
           fabs((double)(a->y + a->h) - (b->y + b->h)) <= delta;
}

static int inside(const FaceBox *in, const FaceBox *out)
{
    int d = (int)(out->w * GROUP_EPS);
    return in->x >= out->x - d && in->y >= out->y - d &&
           in->x + in->w <= out->x + out->w + d && in->y + in->h <= out->y + out->h + d;
}

/* Merges overlapping raw detections (union-find over similar rectangles),
 * keeps clusters with enough members and drops faces nested in stronger ones. */
static int group_detections(RectList *raw, int min_neighbours, DetectResult *res)
{
    int n = raw->count, nclusters = 0, nkept = 0;
    int *parent, *cluster;
    FaceBox *boxes;

    res->faces = NULL;
    res->nfaces = 0;
    if (n == 0)
        return 0;
    qsort(raw->items, (size_t)n, sizeof *raw->items, cmp_rect);
    parent = malloc((size_t)n * sizeof *parent);
    cluster = malloc((size_t)n * sizeof *cluster);
    boxes = calloc((size_t)n, sizeof *boxes);
    if (!parent || !cluster || !boxes) {
        free(parent);
        free(cluster);
        free(boxes);
        return -1;
    }
    for (int i = 0; i < n; i++)
        parent[i] = i;
    for (int i = 0; i < n; i++) {
        const Rect *a = &raw->items[i];
        for (int j = i + 1; j < n && raw->items[j].x - a->x <= GROUP_EPS * a->w; j++) {
            if (similar(a, &raw->items[j])) {
                int ri = find_root(parent, i), rj = find_root(parent, j);
                if (ri != rj)
                    parent[rj] = ri;
            }
        }
    }
    for (int i = 0; i < n; i++)
        cluster[i] = -1;
    for (int i = 0; i < n; i++) {
        int r = find_root(parent, i);
        const Rect *a = &raw->items[i];
        if (cluster[r] < 0)
            cluster[r] = nclusters++;
        FaceBox *b = &boxes[cluster[r]];
        b->x += a->x;
        b->y += a->y;
        b->w += a->w;
        b->h += a->h;
        b->neighbours++;
    }
    for (int k = 0; k < nclusters; k++) {
        FaceBox *b = &boxes[k];
        int m = b->neighbours;
        if (m < min_neighbours)
            continue;
        FaceBox avg = { (b->x + m / 2) / m, (b->y + m / 2) / m, (b->w + m / 2) / m,
                        (b->h + m / 2) / m, m };
        boxes[nkept++] = avg;
    }
    /* Drop a face lying inside another face supported by at least as many windows. */
    for (int i = 0; i < nkept; i++) {
        int nested = 0;
        for (int j = 0; j < nkept && !nested; j++)
            nested = j != i && boxes[j].w > boxes[i].w && boxes[j].neighbours >= boxes[i].neighbours &&
                     inside(&boxes[i], &boxes[j]);
        cluster[i] = nested;
    }
    for (int i = 0; i < nkept; i++)
        if (!cluster[i])
            boxes[res->nfaces++] = boxes[i];
    qsort(boxes, (size_t)res->nfaces, sizeof *boxes, cmp_face);
    res->faces = boxes;
    free(parent);
    free(cluster);
    return 0;
}

int detect_faces(const Image *img, const HaarCascade *cascade, const DetectParams *params,
                 DetectResult *res)
{
    Integral ii;
    RectList hits = { NULL, 0, 0 };
    ScaledFeature *sf;
    int min_side = img->width < img->height ? img->width : img->height;
    int rc = 0;

    res->nscales = 0;
    res->windows = res->stages_passed = 0;
    res->raw_detections = 0;
    res->faces = NULL;
    res->nfaces = 0;
    if (integral_build(&ii, img) != 0)
        return -1;
    sf = malloc((size_t)cascade->nfeatures * sizeof *sf);
    if (!sf) {
        integral_free(&ii);
        return -1;
    }
    for (double scale = 1.0; scaled(CASCADE_WIN, scale) <= min_side; scale *= params->scale_step) {
        int win = scaled(CASCADE_WIN, scale);
        int step = scaled(1, WINDOW_STRIDE * scale);
        scale_features(cascade, scale, ii.width, sf);
        if (scan_scale(&ii, cascade, sf, win, step < 1 ? 1 : step, res, &hits) != 0) {
            rc = -1;
            break;
        }
        res->nscales++;
    }
    free(sf);
    integral_free(&ii);
    res->raw_detections = hits.count;
    if (rc == 0)
        rc = group_detections(&hits, params->min_neighbours, res);
    free(hits.items);
    return rc;
}

void detect_result_free(DetectResult *res)
{
    free(res->faces);
    res->faces = NULL;
    res->nfaces = 0;
}

static void fill_rect(Image *img, int x0, int y0, int x1, int y1, unsigned char v)
{
    if (x0 < 0)
        x0 = 0;
    if (y0 < 0)
        y0 = 0;
    if (x1 > img->width)
        x1 = img->width;
    if (y1 > img->height)
        y1 = img->height;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            img->pixels[(size_t)y * img->width + x] = v;
}

void draw_face_box(Image *img, const FaceBox *b)
{
    int t = 1 + b->w / 48;
    int x0 = b->x, y0 = b->y, x1 = b->x + b->w, y1 = b->y + b->h;

    /* white frame of thickness t, then a one-pixel black line just inside it */
    fill_rect(img, x0, y0, x1, y0 + t, 255);
    fill_rect(img, x0, y1 - t, x1, y1, 255);
    fill_rect(img, x0, y0, x0 + t, y1, 255);
    fill_rect(img, x1 - t, y0, x1, y1, 255);
    fill_rect(img, x0 + t, y0 + t, x1 - t, y0 + t + 1, 0);
    fill_rect(img, x0 + t, y1 - t - 1, x1 - t, y1 - t, 0);
    fill_rect(img, x0 + t, y0 + t, x0 + t + 1, y1 - t, 0);
    fill_rect(img, x1 - t - 1, y0 + t, x1 - t, y1 - t, 0);
}
