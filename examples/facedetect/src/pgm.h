#ifndef FACEDETECT_PGM_H
#define FACEDETECT_PGM_H

#include <stddef.h>

/* An 8-bit greyscale image, rows stored top to bottom. */
typedef struct {
    int width, height;
    unsigned char *pixels;
} Image;

/* Largest side accepted: keeps every rectangle sum below 2^32, so 32-bit
 * integral images stay exact. */
#define PGM_MAX_DIM 4096

/* Read a binary (P5) PGM; on failure return -1 with a message in err. */
int pgm_read(const char *path, Image *img, char *err, size_t errlen);
/* Write img as a binary PGM; on failure return -1 with a message in err. */
int pgm_write(const char *path, const Image *img, char *err, size_t errlen);
void image_free(Image *img);

#endif
