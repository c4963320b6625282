#ifndef FACEDETECT_INTEGRAL_H
#define FACEDETECT_INTEGRAL_H

#include <stdint.h>

#include "pgm.h"

/* Summed-area tables with one extra zero row and column: entry (y, x) holds the
 * sum over all pixels above and to the left of pixel (y, x). */
typedef struct {
    int width;      /* image width + 1 */
    int height;     /* image height + 1 */
    uint32_t *sum;  /* pixel sums modulo 2^32; rectangle sums are exact */
    uint64_t *sqsum;/* sums of squared pixels, for window variance */
} Integral;

int integral_build(Integral *ii, const Image *img);
void integral_free(Integral *ii);

/* Sum over the rectangle [x, x+w) x [y, y+h) of the image. */
static inline uint32_t integral_rect_sum(const Integral *ii, int x, int y, int w, int h)
{
    const uint32_t *top = ii->sum + (size_t)y * ii->width;
    const uint32_t *bot = top + (size_t)h * ii->width;
    return bot[x + w] - bot[x] - top[x + w] + top[x];
}

#endif
