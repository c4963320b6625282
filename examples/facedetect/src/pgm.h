#ifndef FACEDETECT_PGM_H
#define FACEDETECT_PGM_H

#include <stddef.h>

/* An 8-bit greyscale image, rows stored top to bottom. */
typedef struct {
    int width;
    int height;
    unsigned char *pixels;
} Image;

/* Largest width or height accepted from a file: keeps every rectangle sum
 * below 2^32, so 32-bit integral images stay exact (see integral.h). */
#define PGM_MAX_DIM 4096

/* Reads a binary (P5) PGM file. On failure returns -1 and writes a message to err. */
int pgm_read(const char *path, Image *img, char *err, size_t errlen);

/* Writes img as a binary PGM with maxval 255. Returns 0 or -1 with a message in err. */
int pgm_write(const char *path, const Image *img, char *err, size_t errlen);

int image_copy(Image *dst, const Image *src);
void image_free(Image *img);

#endif
