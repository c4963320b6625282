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
    fprintf(out, "usage: facedetect [-s SCALE_STEP] [-m MIN_NEIGHBOURS] INPUT.pgm OUTPUT.pgm\n"
                 "  -s SCALE_STEP      window growth between scales, 1.05..4 (default 1.2)\n"
                 "  -m MIN_NEIGHBOURS  raw detections needed for a face, 1..1000 (default 4)\n");
}

/* Reports an error; returns the exit status: 2 for bad usage, 1 otherwise. */
static int fail(int status, const char *msg, const char *arg)
{
    fprintf(stderr, "facedetect: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
    return status;
}

int main(int argc, char **argv)
{
    DetectParams params = { 1.2, 4 };
    const char *paths[2];
    int npaths = 0, rc = 0;
    char err[512], *end;
    Image img;
    DetectResult res;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "-s") == 0 || strcmp(a, "-m") == 0) {
            if (++i >= argc)
                return fail(2, "missing value for option", a);
            errno = 0;
            if (a[1] == 's') {
                params.scale_step = strtod(argv[i], &end);
                if (errno || end == argv[i] || *end || !(params.scale_step >= 1.05 && params.scale_step <= 4.0))
                    return fail(2, "bad scale step (expected 1.05..4):", argv[i]);
            } else {
                long m = strtol(argv[i], &end, 10);
                if (errno || end == argv[i] || *end || m < 1 || m > 1000)
                    return fail(2, "bad min neighbours (expected 1..1000):", argv[i]);
                params.min_neighbours = (int)m;
            }
        } else if (a[0] == '-' && a[1] != '\0') {
            return fail(2, "unknown option (see -h):", a);
        } else if (npaths == 2) {
            return fail(2, "too many arguments (see -h)", NULL);
        } else {
            paths[npaths++] = a;
        }
    }
    if (npaths != 2) {
        usage(stderr);
        return 2;
    }
    if (cascade_validate(&frontal_face_cascade, err, sizeof err) != 0)
        return fail(1, "invalid cascade table:", err);
    if (pgm_read(paths[0], &img, err, sizeof err) != 0)
        return fail(1, err, NULL);
    if (img.width < CASCADE_WIN || img.height < CASCADE_WIN) {
        image_free(&img);
        return fail(1, "image is smaller than the 24x24 detection window:", paths[0]);
    }
    if (detect_faces(&img, &frontal_face_cascade, &params, &res) != 0) {
        image_free(&img);
        return fail(1, "out of memory", NULL);
    }
    for (int i = 0; i < res.nfaces; i++) /* detection is done: outline faces in place */
        draw_face_box(&img, &res.faces[i]);
    if (pgm_write(paths[1], &img, err, sizeof err) != 0) {
        rc = fail(1, err, NULL);
    } else {
        printf("image: %dx%d\n", img.width, img.height);
        printf("scales: %d (step %.2f)\n", res.nscales, params.scale_step);
        printf("windows evaluated: %lld\n", res.windows);
        printf("mean stages passed: %.3f of %d\n", (double)res.stages_passed / (double)res.windows,
               frontal_face_cascade.nstages);
        printf("raw detections: %d\n", res.raw_detections);
        printf("faces: %d\n", res.nfaces);
    }
    free(res.faces);
    image_free(&img);
    return rc;
}
