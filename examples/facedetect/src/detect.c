#include "detect.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "integral.h"

static const double WINDOW_STRIDE = 0.5; /* window shift at scale s: about s * this, pixels */
static const double MIN_STDDEV = 8.0;    /* flatter windows fail stage 1 without features */
static const double GROUP_EPS = 0.2;     /* relative tolerance for "same face" */
/* Feature values are normalised by the spread of the window's central part only. */
static const int NORM_X = 4, NORM_Y = 3, NORM_W = 16, NORM_H = 18;

typedef struct {
    size_t off[4]; /* integral-image offsets of the corners: tl, tr, bl, br */
    double weight;
} ScaledRect;

typedef struct {
    int nrects;
    ScaledRect rect[3];
    double threshold, below, above;
} ScaledFeature;

typedef struct {
    FaceBox *items;
    int count, cap;
} BoxList;

static int scaled(int v, double scale)
{
    return (int)(v * scale + 0.5);
}

static ScaledRect scale_rect(int x, int y, int w, int h, double scale, int stride)
{
    ScaledRect r;
    int win = scaled(CASCADE_WIN, scale);
    x = scaled(x, scale), y = scaled(y, scale);
    w = scaled(w, scale), h = scaled(h, scale); /* scale >= 1: never 0 */
    if (x + w > win) /* rounding must not leave the window */
        w = win - x;
    if (y + h > win)
        h = win - y;
    r.off[0] = (size_t)y * stride + x;
    r.off[1] = r.off[0] + w;
    r.off[2] = r.off[0] + (size_t)h * stride;
    r.off[3] = r.off[2] + w;
    r.weight = (double)w * h; /* area, until the caller sets the weight */
    return r;
}

/* Scales every feature to a window of CASCADE_WIN * scale. After rounding, the
 * first rectangle's weight is recomputed so that a flat patch still scores 0. */
static void scale_features(const HaarCascade *c, double scale, int stride, ScaledFeature *out)
{
    for (int i = 0; i < c->nfeatures; i++) {
        const HaarFeature *f = &c->features[i];
        ScaledFeature *sf = &out[i];
        double rest = 0.0;

        sf->nrects = f->nrects;
        sf->threshold = f->threshold;
        sf->below = f->below;
        sf->above = f->above;
        for (int k = 0; k < f->nrects; k++) {
            const HaarRect *r = &f->rect[k];
            sf->rect[k] = scale_rect(r->x, r->y, r->w, r->h, scale, stride);
            if (k > 0) {
                rest += r->weight * sf->rect[k].weight;
                sf->rect[k].weight = r->weight;
            }
        }
        sf->rect[0].weight = -rest / sf->rect[0].weight;
    }
}

static inline uint32_t rect_sum(const uint32_t *p, const size_t off[4])
{
    return p[off[3]] - p[off[2]] - p[off[1]] + p[off[0]];
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
                v += f->rect[k].weight * rect_sum(p, f->rect[k].off);
            votes += v < f->threshold * norm ? f->below : f->above;
        }
        if (votes < st->threshold)
            return s;
    }
    return c->nstages;
}

static int push_box(BoxList *l, FaceBox r)
{
    if (l->count == l->cap) {
        int ncap = l->cap ? l->cap * 2 : 64;
        FaceBox *p = realloc(l->items, (size_t)ncap * sizeof *p);
        if (!p)
            return -1;
        l->items = p;
        l->cap = ncap;
    }
    l->items[l->count++] = r;
    return 0;
}

/* Evaluates every window position at one scale; accepted windows go to hits. */
static int scan_scale(const Integral *ii, const HaarCascade *c, const ScaledFeature *sf,
                      double scale, int step, DetectResult *res, BoxList *hits)
{
    int W = ii->width, win = scaled(CASCADE_WIN, scale);
    double area = (double)win * win;
    ScaledRect nr = scale_rect(NORM_X, NORM_Y, NORM_W, NORM_H, scale, W);

    for (int y = 0; y + win < ii->height; y += step) {
        for (int x = 0; x + win < W; x += step) {
            size_t tl = (size_t)y * W + x;
            const uint64_t *q = ii->sqsum + tl;
            double mean = rect_sum(ii->sum + tl, nr.off) / nr.weight;
            double var = (double)(q[nr.off[3]] - q[nr.off[2]] - q[nr.off[1]] + q[nr.off[0]]) / nr.weight
                         - mean * mean;
            double sd = var > 1.0 ? sqrt(var) : 1.0;
            int passed = sd < MIN_STDDEV ? 0 : run_cascade(c, sf, ii->sum + tl, area * sd);

            res->windows++;
            res->stages_passed += passed;
            if (passed == c->nstages && push_box(hits, (FaceBox){ x, y, win, win, 1 }) != 0)
                return -1;
        }
    }
    return 0;
}

static int cmp_int(int a, int b)
{
    return (a > b) - (a < b);
}

static int cmp_raw(const void *a, const void *b) /* by x, then y, then size */
{
    const FaceBox *p = a, *q = b;
    return p->x != q->x ? cmp_int(p->x, q->x) : p->y != q->y ? cmp_int(p->y, q->y) : cmp_int(p->w, q->w);
}

static int cmp_face(const void *a, const void *b) /* top to bottom, left to right */
{
    const FaceBox *p = a, *q = b;
    return p->y != q->y ? cmp_int(p->y, q->y) : cmp_int(p->x, q->x);
}

static int find_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static int similar(const FaceBox *a, const FaceBox *b)
{
    double d = GROUP_EPS * (a->w < b->w ? a->w : b->w);
    return abs(a->x - b->x) <= d && abs(a->y - b->y) <= d && abs(a->x + a->w - b->x - b->w) <= d &&
           abs(a->y + a->h - b->y - b->h) <= d;
}

static int nested(const FaceBox *in, const FaceBox *out)
{
    int d = (int)(out->w * GROUP_EPS);
    return out->w > in->w && out->neighbours >= in->neighbours && in->x >= out->x - d &&
           in->y >= out->y - d && in->x + in->w <= out->x + out->w + d &&
           in->y + in->h <= out->y + out->h + d;
}

/* Merges similar raw detections (union-find over x-sorted rectangles), keeps
 * clusters with enough members, drops faces nested in stronger ones. */
static int group_detections(BoxList *raw, int min_neighbours, DetectResult *res)
{
    int n = raw->count, nclusters = 0, nkept = 0;
    int *parent = malloc((size_t)n * sizeof *parent + 1), *cluster = malloc((size_t)n * sizeof *cluster + 1);
    FaceBox *boxes = calloc((size_t)n + 1, sizeof *boxes);

    if (!parent || !cluster || !boxes) {
        free(parent);
        free(cluster);
        free(boxes);
        return -1;
    }
    if (n > 0)
        qsort(raw->items, (size_t)n, sizeof *raw->items, cmp_raw);
    for (int i = 0; i < n; i++) {
        parent[i] = i;
        cluster[i] = -1;
    }
    for (int i = 0; i < n; i++) {
        const FaceBox *a = &raw->items[i];
        for (int j = i + 1; j < n && raw->items[j].x - a->x <= GROUP_EPS * a->w; j++)
            if (similar(a, &raw->items[j]))
                parent[find_root(parent, j)] = find_root(parent, i);
    }
    for (int i = 0; i < n; i++) {
        int r = find_root(parent, i);
        if (cluster[r] < 0)
            cluster[r] = nclusters++;
        FaceBox *b = &boxes[cluster[r]];
        b->x += raw->items[i].x;
        b->y += raw->items[i].y;
        b->w += raw->items[i].w;
        b->neighbours++;
    }
    for (int k = 0; k < nclusters; k++) {
        int m = boxes[k].neighbours;
        if (m >= min_neighbours) {
            int w = (boxes[k].w + m / 2) / m;
            boxes[nkept++] = (FaceBox){ (boxes[k].x + m / 2) / m, (boxes[k].y + m / 2) / m, w, w, m };
        }
    }
    for (int i = 0; i < nkept; i++) {
        cluster[i] = 0;
        for (int j = 0; j < nkept && !cluster[i]; j++)
            cluster[i] = nested(&boxes[i], &boxes[j]);
    }
    res->nfaces = 0;
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
    BoxList hits = { NULL, 0, 0 };
    ScaledFeature *sf = malloc((size_t)cascade->nfeatures * sizeof *sf);
    int min_side = img->width < img->height ? img->width : img->height, rc = 0;

    *res = (DetectResult){ 0, 0, 0, 0, NULL, 0 };
    if (!sf || integral_build(&ii, img) != 0) {
        free(sf);
        return -1;
    }
    for (double scale = 1.0; scaled(CASCADE_WIN, scale) <= min_side; scale *= params->scale_step) {
        int step = scaled(1, WINDOW_STRIDE * scale);
        scale_features(cascade, scale, ii.width, sf);
        if (scan_scale(&ii, cascade, sf, scale, step < 1 ? 1 : step, res, &hits) != 0) {
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

/* Sets the pixels of the frame between rectangle (x0,y0)-(x1,y1) and the one
 * t pixels inside it, clipped to the image. */
static void draw_frame(Image *img, int x0, int y0, int x1, int y1, int t, unsigned char v)
{
    for (int y = y0 < 0 ? 0 : y0; y < y1 && y < img->height; y++)
        for (int x = x0 < 0 ? 0 : x0; x < x1 && x < img->width; x++)
            if (y < y0 + t || y >= y1 - t || x < x0 + t || x >= x1 - t)
                img->pixels[(size_t)y * img->width + x] = v;
}

void draw_face_box(Image *img, const FaceBox *b)
{
    int t = 1 + b->w / 48;
    draw_frame(img, b->x, b->y, b->x + b->w, b->y + b->h, t, 255);
    draw_frame(img, b->x + t, b->y + t, b->x + b->w - t, b->y + b->h - t, 1, 0);
}
