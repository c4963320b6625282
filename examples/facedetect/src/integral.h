#ifndef FACEDETECT_INTEGRAL_H
#define FACEDETECT_INTEGRAL_H

#include <stdint.h>

#include "pgm.h"

/* Summed-area tables with an extra zero row and column: entry (y, x) holds the
 * sum over all pixels above and left of pixel (y, x). Sums are kept modulo
 * 2^32; rectangle sums stay exact because images are at most PGM_MAX_DIM. */
typedef struct {
    int width, height;  /* image size + 1 */
    uint32_t *sum;      /* pixel sums */
    uint64_t *sqsum;    /* sums of squared pixels, for window variance */
} Integral;

int integral_build(Integral *ii, const Image *img);
void integral_free(Integral *ii);

#endif
