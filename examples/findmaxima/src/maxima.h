/* maxima.h - ImageJ-style "Find Maxima" on 8-bit images. */
#ifndef MAXIMA_H
#define MAXIMA_H

#include "pgm.h"

/* per-pixel flags kept in MaxResult.types (same meaning as in ImageJ) */
enum {
    PX_MAXIMUM   = 1,   /* local maximum candidate */
    PX_LISTED    = 2,   /* in the list of the current flood fill */
    PX_PROCESSED = 4,   /* belongs to the area of a maximum already analysed */
    PX_MAX_AREA  = 8,   /* within tolerance of an accepted maximum */
    PX_EQUAL     = 16,  /* same height as the maximum being analysed */
    PX_MAX_POINT = 32   /* the single point marking an accepted maximum */
};

typedef struct {
    int rx, ry, rw, rh;     /* region of interest, image coordinates */
    double tolerance;       /* noise tolerance (prominence) */
    int exclude_edges;      /* reject maxima whose area touches the ROI edge */
    int strict;             /* stricter edge and prominence rules */
    int light_background;   /* look for minima instead (invert values) */
} FindParams;

typedef struct {
    int x, y;               /* image coordinates */
    int value;              /* original pixel value */
} MaxPoint;

typedef struct {
    MaxPoint *points;       /* accepted maxima, highest first */
    int npoints;
    long nlocal;            /* local maxima found by the first scan */
    long area_pixels;       /* pixels within tolerance of accepted maxima */
    long edge_maxima;       /* real maxima whose area touches the ROI edge */
    unsigned char *types;   /* rw*rh flags, PX_* */
} MaxResult;

int find_maxima(const Image *img, const FindParams *p, MaxResult *res);

/* Output image of the size of img: 255 on each maximum point (mode 0) or on
 * every pixel within tolerance of an accepted maximum (mode 1), else 0. */
int render_maxima(const Image *img, const FindParams *p, const MaxResult *res,
                  int mode, Image *out);

void maxresult_free(MaxResult *res);

#endif
