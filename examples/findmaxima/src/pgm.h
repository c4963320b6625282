/* pgm.h - minimal reader/writer for 8-bit binary PGM (P5) images. */
#ifndef PGM_H
#define PGM_H

#include <stddef.h>

typedef struct {
    int width;
    int height;
    unsigned char *pix;   /* width*height bytes, row-major */
} Image;

/* Reads a P5 file with maxval <= 255. On failure returns -1 and puts a
 * message into err (errlen bytes). */
int pgm_read(const char *path, Image *img, char *err, size_t errlen);

/* Writes img as P5 with maxval 255. Returns 0 on success, -1 on I/O error. */
int pgm_write(const char *path, const Image *img);

int image_alloc(Image *img, int width, int height);
void image_free(Image *img);

#endif
