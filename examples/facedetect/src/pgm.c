#include "pgm.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads one decimal header field, skipping whitespace and '#' comments.
 * Returns -1 if there is no number. */
static long read_header_number(FILE *f)
{
    long value = 0;
    int c, digits = 0;

    while ((c = fgetc(f)) != EOF) {
        if (c == '#') {
            while (c != '\n' && c != '\r' && c != EOF)
                c = fgetc(f);
        } else if (!isspace(c)) {
            break;
        }
    }
    while (c != EOF && isdigit(c) && value <= 100000000L) {
        value = value * 10 + (c - '0');
        digits++;
        c = fgetc(f);
    }
    /* the raster starts right after the single whitespace ending the header */
    if (digits == 0 || (c != EOF && !isspace(c)))
        return -1;
    return value;
}

/* Formats an error message, releases what pgm_read holds and returns -1. */
static int read_error(FILE *f, Image *img, char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    if (f)
        fclose(f);
    free(img->pixels);
    img->pixels = NULL;
    return -1;
}

int pgm_read(const char *path, Image *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char magic[2];
    long width, height, maxval;
    size_t npix;

    img->width = img->height = 0;
    img->pixels = NULL;
    if (!f)
        return read_error(f, img, err, errlen, "cannot open '%s': %s", path, strerror(errno));
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P' || magic[1] < '1' || magic[1] > '7')
        return read_error(f, img, err, errlen, "'%s' is not a PGM file", path);
    if (magic[1] != '5')
        return read_error(f, img, err, errlen,
                          "'%s' is a P%c file; only binary greyscale PGM (P5) is supported", path, magic[1]);
    width = read_header_number(f);
    height = read_header_number(f);
    maxval = read_header_number(f);
    if (width < 0 || height < 0 || maxval < 0)
        return read_error(f, img, err, errlen, "'%s': malformed PGM header", path);
    if (width < 1 || height < 1 || width > PGM_MAX_DIM || height > PGM_MAX_DIM)
        return read_error(f, img, err, errlen, "'%s': image size %ldx%ld not supported (1..%d per side)",
                          path, width, height, PGM_MAX_DIM);
    if (maxval < 1 || maxval > 255)
        return read_error(f, img, err, errlen, "'%s': maxval %ld not supported (8-bit only)", path, maxval);
    npix = (size_t)width * (size_t)height;
    if (!(img->pixels = malloc(npix)))
        return read_error(f, img, err, errlen, "out of memory for a %ldx%ld image", width, height);
    if (fread(img->pixels, 1, npix, f) != npix)
        return read_error(f, img, err, errlen, "'%s': truncated pixel data (expected %zu bytes)", path, npix);
    if (maxval != 255) { /* rescale to 0..255 */
        for (size_t i = 0; i < npix; i++) {
            unsigned v = img->pixels[i] > maxval ? (unsigned)maxval : img->pixels[i];
            img->pixels[i] = (unsigned char)((v * 255u + (unsigned)maxval / 2) / (unsigned)maxval);
        }
    }
    fclose(f);
    img->width = (int)width;
    img->height = (int)height;
    return 0;
}

int pgm_write(const char *path, const Image *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    size_t npix = (size_t)img->width * (size_t)img->height;
    int bad;

    if (!f) {
        snprintf(err, errlen, "cannot create '%s': %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "P5\n# faces outlined by facedetect\n%d %d\n255\n", img->width, img->height);
    bad = fwrite(img->pixels, 1, npix, f) != npix;
    if (fclose(f) != 0 || bad) {
        snprintf(err, errlen, "error writing '%s'", path);
        return -1;
    }
    return 0;
}

void image_free(Image *img)
{
    free(img->pixels);
    img->pixels = NULL;
    img->width = img->height = 0;
}
