#ifndef FACEDETECT_CASCADE_H
#define FACEDETECT_CASCADE_H

#include <stddef.h>

/* Base detection window of the cascade, in pixels. */
#define CASCADE_WIN 24

/* One weighted rectangle of a Haar-like feature, in base-window coordinates. */
typedef struct {
    signed char x, y, w, h;
    float weight;
} HaarRect;

/* A two- or three-rectangle feature with a decision stump: the feature value is
 * sum(weight * rect sum) / (window area * window std deviation); it votes
 * `below` when the value is under `threshold`, `above` otherwise. */
typedef struct {
    int nrects;
    HaarRect rect[3];
    float threshold;
    float below, above;
} HaarFeature;

/* A stage accepts a window when the votes of its features add up to at least
 * `threshold`; features [first, first + count) of the cascade's table. */
typedef struct {
    int first;
    int count;
    float threshold;
} HaarStage;

typedef struct {
    const char *name;
    int nstages;
    const HaarStage *stages;
    int nfeatures;
    const HaarFeature *features;
} HaarCascade;

extern const HaarCascade frontal_face_cascade;

/* Sanity-checks a cascade table (rectangles inside the window, zero-sum
 * weights, stages covering the table in order). Returns 0 or -1 with err set. */
int cascade_validate(const HaarCascade *c, char *err, size_t errlen);

#endif
