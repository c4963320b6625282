/* facedetect: Viola-Jones style face detector for binary PGM images. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cascade.h"
#include "detect.h"
#include "pgm.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: facedetect [-s SCALE_STEP] [-m MIN_NEIGHBOURS] INPUT.pgm OUTPUT.pgm\n"
            "  -s SCALE_STEP      window growth factor between scales, 1.05..4 (default 1.25)\n"
            "  -m MIN_NEIGHBOURS  raw detections needed to report a face, 1..1000 (default 3)\n");
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !(v >= lo && v <= hi))
        return -1;
    *out = v;
    return 0;
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    DetectParams params = { 1.25, 3 };
    const char *paths[2];
    int npaths = 0;
    char err[512];
    Image img, out;
    DetectResult res;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "-s") == 0 || strcmp(a, "-m") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "facedetect: option %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (a[1] == 's' && parse_double(v, 1.05, 4.0, &params.scale_step) != 0) {
                fprintf(stderr, "facedetect: bad scale step '%s' (expected 1.05..4)\n", v);
                return 2;
            }
            if (a[1] == 'm' && parse_int(v, 1, 1000, &params.min_neighbours) != 0) {
                fprintf(stderr, "facedetect: bad min neighbours '%s' (expected 1..1000)\n", v);
                return 2;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "facedetect: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        } else if (npaths < 2) {
            paths[npaths++] = a;
        } else {
            fprintf(stderr, "facedetect: too many arguments\n");
            usage(stderr);
            return 2;
        }
    }
    if (npaths != 2) {
        usage(stderr);
        return 2;
    }
    if (cascade_validate(&frontal_face_cascade, err, sizeof err) != 0) {
        fprintf(stderr, "facedetect: internal cascade table is invalid: %s\n", err);
        return 1;
    }
    if (pgm_read(paths[0], &img, err, sizeof err) != 0) {
        fprintf(stderr, "facedetect: %s\n", err);
        return 1;
    }
    if (img.width < CASCADE_WIN || img.height < CASCADE_WIN) {
        fprintf(stderr, "facedetect: image %dx%d is smaller than the %dx%d detection window\n",
                img.width, img.height, CASCADE_WIN, CASCADE_WIN);
        image_free(&img);
        return 1;
    }
    if (detect_faces(&img, &frontal_face_cascade, &params, &res) != 0) {
        fprintf(stderr, "facedetect: out of memory\n");
        image_free(&img);
        return 1;
    }
    if (image_copy(&out, &img) != 0) {
        fprintf(stderr, "facedetect: out of memory\n");
        detect_result_free(&res);
        image_free(&img);
        return 1;
    }
    for (int i = 0; i < res.nfaces; i++)
        draw_face_box(&out, &res.faces[i]);

    printf("image: %dx%d\n", img.width, img.height);
    printf("scales: %d (step %.2f)\n", res.nscales, params.scale_step);
    printf("windows evaluated: %lld\n", res.windows);
    printf("mean stages passed: %.3f of %d\n",
           res.windows ? (double)res.stages_passed / (double)res.windows : 0.0,
           frontal_face_cascade.nstages);
    printf("raw detections: %d\n", res.raw_detections);
    printf("faces: %d\n", res.nfaces);

    int rc = 0;
    if (pgm_write(paths[1], &out, err, sizeof err) != 0) {
        fprintf(stderr, "facedetect: %s\n", err);
        rc = 1;
    }
    detect_result_free(&res);
    image_free(&out);
    image_free(&img);
    return rc;
}
