#include "pgm.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Skips whitespace and '#' comments between header fields. Returns the next
 * significant character (not consumed) or EOF. */
static int skip_space_and_comments(FILE *f)
{
    int c;
    for (;;) {
        c = fgetc(f);
        if (c == '#') {
            while (c != '\n' && c != '\r' && c != EOF)
                c = fgetc(f);
            continue;
        }
        if (c == EOF || !isspace(c))
            break;
    }
    if (c != EOF)
        ungetc(c, f);
    return c;
}

/* Reads one unsigned decimal header field. Returns -1 if none is there. */
static long read_header_number(FILE *f)
{
    int c = skip_space_and_comments(f);
    long value = 0;
    int digits = 0;

    if (c == EOF || !isdigit(c))
        return -1;
    while ((c = fgetc(f)) != EOF && isdigit(c)) {
        if (value > 100000000L)
            return -1;
        value = value * 10 + (c - '0');
        digits++;
    }
    if (c != EOF)
        ungetc(c, f);
    return digits > 0 ? value : -1;
}

int pgm_read(const char *path, Image *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char magic[2];
    long width, height, maxval;
    size_t npix;
    int c;

    img->width = img->height = 0;
    img->pixels = NULL;
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return -1;
    }
    if (fread(magic, 1, 2, f) != 2 || magic[0] != 'P') {
        snprintf(err, errlen, "'%s' is not a PGM file", path);
        goto fail;
    }
    if (magic[1] == '2') {
        snprintf(err, errlen, "'%s' is an ASCII PGM (P2); only binary P5 is supported", path);
        goto fail;
    }
    if (magic[1] != '5') {
        snprintf(err, errlen, "'%s' is a P%c file, not a binary PGM (P5)", path, magic[1]);
        goto fail;
    }
    width = read_header_number(f);
    height = read_header_number(f);
    maxval = read_header_number(f);
    if (width < 0 || height < 0 || maxval < 0) {
        snprintf(err, errlen, "'%s': malformed PGM header", path);
        goto fail;
    }
    if (width < 1 || height < 1 || width > PGM_MAX_DIM || height > PGM_MAX_DIM) {
        snprintf(err, errlen, "'%s': unsupported image size %ldx%ld (1..%d per side)",
                 path, width, height, PGM_MAX_DIM);
        goto fail;
    }
    if (maxval < 1 || maxval > 255) {
        snprintf(err, errlen, "'%s': maxval %ld not supported (8-bit images only)", path, maxval);
        goto fail;
    }
    /* Exactly one whitespace character separates the header from the raster. */
    c = fgetc(f);
    if (c == EOF || !isspace(c)) {
        snprintf(err, errlen, "'%s': malformed PGM header", path);
        goto fail;
    }
    npix = (size_t)width * (size_t)height;
    img->pixels = malloc(npix);
    if (!img->pixels) {
        snprintf(err, errlen, "out of memory for %ldx%ld image", width, height);
        goto fail;
    }
    if (fread(img->pixels, 1, npix, f) != npix) {
        snprintf(err, errlen, "'%s': truncated pixel data (expected %zu bytes)", path, npix);
        goto fail;
    }
    if (maxval != 255) {
        for (size_t i = 0; i < npix; i++) {
            unsigned v = img->pixels[i] > maxval ? (unsigned)maxval : img->pixels[i];
            img->pixels[i] = (unsigned char)((v * 255u + (unsigned)maxval / 2) / (unsigned)maxval);
        }
    }
    fclose(f);
    img->width = (int)width;
    img->height = (int)height;
    return 0;

fail:
    fclose(f);
    free(img->pixels);
    img->pixels = NULL;
    return -1;
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
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        snprintf(err, errlen, "error writing '%s'", path);
        return -1;
    }
    return 0;
}

int image_copy(Image *dst, const Image *src)
{
    size_t npix = (size_t)src->width * (size_t)src->height;
    dst->pixels = malloc(npix);
    if (!dst->pixels)
        return -1;
    memcpy(dst->pixels, src->pixels, npix);
    dst->width = src->width;
    dst->height = src->height;
    return 0;
}

void image_free(Image *img)
{
    free(img->pixels);
    img->pixels = NULL;
    img->width = img->height = 0;
}
