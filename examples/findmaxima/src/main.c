/* main.c - command line front end of findmaxima.
 *
 *   findmaxima -t TOLERANCE [-r X,Y,W,H] [-e] [-s] [-l] [-m single|area]
 *              [-o OUTPUT.pgm] INPUT.pgm
 */
#include "maxima.h"
#include "pgm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOW_POINTS 5

static void usage(FILE *f)
{
    fprintf(f,
            "usage: findmaxima -t TOLERANCE [-r X,Y,W,H] [-e] [-s] [-l]\n"
            "                  [-m single|area] [-o OUTPUT.pgm] INPUT.pgm\n"
            "  -t TOL     noise tolerance (prominence), a number >= 0\n"
            "  -r ROI     region of interest: left,top,width,height (default: whole image)\n"
            "  -e         exclude maxima whose area touches the edge of the ROI\n"
            "  -s         strict: any area pixel on the edge counts, and a maximum must\n"
            "             stand out by more than TOL\n"
            "  -l         light background (find minima)\n"
            "  -m MODE    output image: 'single' points (default) or maxima within tolerance ('area')\n"
            "  -o FILE    write the output image (binary PGM)\n");
}

static int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(s, &end);
    return errno == 0 && end != s && *end == '\0';
}

/* Parses "X,Y,W,H" into four non-negative integers. */
static int parse_roi(const char *s, int v[4])
{
    const char *q = s;
    for (int k = 0; k < 4; k++) {
        char *end;
        long x;
        errno = 0;
        x = strtol(q, &end, 10);
        if (errno != 0 || end == q || x < 0 || x > 1000000)
            return 0;
        v[k] = (int)x;
        if (k < 3) {
            if (*end != ',')
                return 0;
            q = end + 1;
        } else if (*end != '\0') {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    FindParams p;
    MaxResult res;
    Image img;
    const char *input = NULL, *output = NULL;
    int roi[4], have_roi = 0, have_tol = 0, mode = 0;
    char err[512];

    memset(&p, 0, sizeof p);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' || a[1] == '\0') {
            if (input) {
                fprintf(stderr, "findmaxima: more than one input file given\n");
                return 2;
            }
            input = a;
            continue;
        }
        if (strlen(a) != 2) {
            fprintf(stderr, "findmaxima: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        switch (a[1]) {
        case 'e': p.exclude_edges = 1; continue;
        case 's': p.strict = 1; continue;
        case 'l': p.light_background = 1; continue;
        case 'h': usage(stdout); return 0;
        case 't': case 'r': case 'o': case 'm':
            break;
        default:
            fprintf(stderr, "findmaxima: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "findmaxima: option '%s' needs a value\n", a);
            return 2;
        }
        const char *val = argv[++i];
        if (a[1] == 't') {
            if (!parse_double(val, &p.tolerance) || !(p.tolerance >= 0 && p.tolerance <= 1e6)) {
                fprintf(stderr, "findmaxima: bad tolerance '%s' (want a number >= 0)\n", val);
                return 2;
            }
            have_tol = 1;
        } else if (a[1] == 'r') {
            if (!parse_roi(val, roi)) {
                fprintf(stderr, "findmaxima: bad ROI '%s' (want X,Y,W,H)\n", val);
                return 2;
            }
            have_roi = 1;
        } else if (a[1] == 'm') {
            if (strcmp(val, "single") == 0) {
                mode = 0;
            } else if (strcmp(val, "area") == 0) {
                mode = 1;
            } else {
                fprintf(stderr, "findmaxima: bad output mode '%s' (want single or area)\n", val);
                return 2;
            }
        } else {
            output = val;
        }
    }
    if (!have_tol) {
        fprintf(stderr, "findmaxima: missing -t TOLERANCE\n");
        usage(stderr);
        return 2;
    }
    if (!input) {
        fprintf(stderr, "findmaxima: missing input file\n");
        usage(stderr);
        return 2;
    }

    if (pgm_read(input, &img, err, sizeof err) != 0) {
        fprintf(stderr, "findmaxima: %s\n", err);
        return 1;
    }
    if (have_roi) {
        if (roi[2] == 0 || roi[3] == 0 || roi[0] + roi[2] > img.width ||
            roi[1] + roi[3] > img.height) {
            fprintf(stderr, "findmaxima: ROI %d,%d,%d,%d does not fit the %dx%d image\n",
                    roi[0], roi[1], roi[2], roi[3], img.width, img.height);
            image_free(&img);
            return 1;
        }
        p.rx = roi[0]; p.ry = roi[1]; p.rw = roi[2]; p.rh = roi[3];
    } else {
        p.rx = 0; p.ry = 0; p.rw = img.width; p.rh = img.height;
    }

    if (find_maxima(&img, &p, &res) != 0) {
        fprintf(stderr, "findmaxima: out of memory\n");
        image_free(&img);
        return 1;
    }

    printf("image %dx%d, roi %d,%d %dx%d, tolerance %g%s%s%s\n", img.width, img.height,
           p.rx, p.ry, p.rw, p.rh, p.tolerance, p.exclude_edges ? ", edges excluded" : "",
           p.strict ? ", strict" : "", p.light_background ? ", light background" : "");
    printf("local maxima: %ld\n", res.nlocal);
    printf("maxima: %d, %s edge: %ld, area within tolerance: %ld pixels\n", res.npoints,
           p.exclude_edges ? "excluded at" : "touching", res.edge_maxima, res.area_pixels);
    for (int k = 0; k < res.npoints && k < SHOW_POINTS; k++)
        printf("  x=%d y=%d value=%d\n", res.points[k].x, res.points[k].y, res.points[k].value);
    if (res.npoints > SHOW_POINTS)
        printf("  ... %d more\n", res.npoints - SHOW_POINTS);

    int rc = 0;
    if (output) {
        Image out;
        if (render_maxima(&img, &p, &res, mode, &out) != 0) {
            fprintf(stderr, "findmaxima: out of memory\n");
            rc = 1;
        } else {
            if (pgm_write(output, &out) != 0) {
                fprintf(stderr, "findmaxima: cannot write '%s'\n", output);
                rc = 1;
            }
            image_free(&out);
        }
    }
    maxresult_free(&res);
    image_free(&img);
    return rc;
}
