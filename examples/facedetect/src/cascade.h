#ifndef FACEDETECT_CASCADE_H
#define FACEDETECT_CASCADE_H

#include <stddef.h>

#define CASCADE_WIN 24 /* base detection window, pixels */

typedef struct {
    signed char x, y, w, h; /* in base-window coordinates */
    float weight;
} HaarRect;

/* A two- or three-rectangle feature with a decision stump: its value is
 * sum(weight * rectangle sum) / (window area * window std deviation); it votes
 * `below` when the value is under `threshold`, `above` otherwise. */
typedef struct {
    int nrects;
    HaarRect rect[3];
    float threshold, below, above;
} HaarFeature;

/* Features [first, first + count) of the table; a window passes the stage
 * when their votes add up to at least `threshold`. */
typedef struct {
    int first, count;
    float threshold;
} HaarStage;

typedef struct {
    const char *name;
    int nstages, nfeatures;
    const HaarStage *stages;
    const HaarFeature *features;
} HaarCascade;

extern const HaarCascade frontal_face_cascade;

/* Checks the table's consistency. Returns 0, or -1 with a message in err. */
int cascade_validate(const HaarCascade *c, char *err, size_t errlen);

#endif
