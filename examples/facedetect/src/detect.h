#ifndef FACEDETECT_DETECT_H
#define FACEDETECT_DETECT_H

#include "cascade.h"
#include "pgm.h"

typedef struct {
    int x, y, w, h;
    int neighbours; /* raw detections merged into this box */
} FaceBox;

typedef struct {
    double scale_step;  /* factor between successive window sizes, > 1 */
    int min_neighbours; /* raw detections needed to report a face */
} DetectParams;

typedef struct {
    int nscales;
    long long windows;       /* windows evaluated over all scales */
    long long stages_passed; /* sum over windows of the stages each passed */
    int raw_detections;      /* windows that passed every stage */
    FaceBox *faces;          /* grouped detections, sorted top to bottom */
    int nfaces;
} DetectResult;

/* Scans img at every scale; the caller frees res->faces. Returns 0, or -1
 * when out of memory. */
int detect_faces(const Image *img, const HaarCascade *cascade, const DetectParams *params,
                 DetectResult *res);
/* Outlines a face: white frame with a black line inside it. */
void draw_face_box(Image *img, const FaceBox *box);

#endif
