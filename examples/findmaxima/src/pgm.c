/* pgm.c - minimal reader/writer for 8-bit binary PGM (P5) images. */
#include "pgm.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PGM_MAX_SIDE 65535

/* Skips whitespace and '#' comments (which run to the end of the line).
 * Returns the first significant character, or EOF. */
static int skip_space_and_comments(FILE *f)
{
    int c = fgetc(f);
    for (;;) {
        while (c != EOF && isspace(c))
            c = fgetc(f);
        if (c != '#')
            return c;
        while (c != EOF && c != '\n' && c != '\r')
            c = fgetc(f);
    }
}

/* Reads one unsigned decimal header field. Returns -1 if there is none. */
static long read_header_int(FILE *f)
{
    int c = skip_space_and_comments(f);
    long v = 0;
    int digits = 0;

    while (c != EOF && isdigit(c)) {
        if (v > 100000000L)
            return -1;
        v = v * 10 + (c - '0');
        digits++;
        c = fgetc(f);
    }
    if (digits == 0)
        return -1;
    /* the character after the number must be whitespace (or a comment) */
    if (c == '#')
        ungetc(c, f);
    else if (c == EOF || !isspace(c))
        return -1;
    return v;
}

int image_alloc(Image *img, int width, int height)
{
    img->width = width;
    img->height = height;
    img->pix = calloc((size_t)width * (size_t)height, 1);
    return img->pix ? 0 : -1;
}

void image_free(Image *img)
{
    free(img->pix);
    img->pix = NULL;
    img->width = img->height = 0;
}

int pgm_read(const char *path, Image *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    char magic[2];
    long w, h, maxval;
    size_t n;

    img->pix = NULL;
    if (!f) {
        snprintf(err, errlen, "cannot open '%s'", path);
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
        snprintf(err, errlen, "'%s' is a P%c file; only binary PGM (P5) is supported",
                 path, magic[1]);
        goto fail;
    }
    w = read_header_int(f);
    h = read_header_int(f);
    if (w <= 0 || h <= 0) {
        snprintf(err, errlen, "'%s': bad or missing image size in header", path);
        goto fail;
    }
    if (w > PGM_MAX_SIDE || h > PGM_MAX_SIDE) {
        snprintf(err, errlen, "'%s': image %ldx%ld is too large", path, w, h);
        goto fail;
    }
    maxval = read_header_int(f);
    if (maxval <= 0) {
        snprintf(err, errlen, "'%s': bad or missing maxval in header", path);
        goto fail;
    }
    if (maxval > 255) {
        snprintf(err, errlen, "'%s': 16-bit PGM (maxval %ld) is not supported", path, maxval);
        goto fail;
    }
    if (image_alloc(img, (int)w, (int)h) != 0) {
        snprintf(err, errlen, "out of memory for a %ldx%ld image", w, h);
        goto fail;
    }
    n = fread(img->pix, 1, (size_t)w * (size_t)h, f);
    if (n != (size_t)w * (size_t)h) {
        snprintf(err, errlen, "'%s': truncated pixel data (%zu of %zu bytes)",
                 path, n, (size_t)w * (size_t)h);
        goto fail;
    }
    if (maxval != 255) {
        /* rescale to the full 0..255 range; reject values above maxval */
        for (size_t i = 0; i < n; i++) {
            if (img->pix[i] > maxval) {
                snprintf(err, errlen, "'%s': pixel value %d exceeds maxval %ld",
                         path, img->pix[i], maxval);
                goto fail;
            }
            img->pix[i] = (unsigned char)((img->pix[i] * 255 + maxval / 2) / maxval);
        }
    }
    fclose(f);
    return 0;

fail:
    image_free(img);
    fclose(f);
    return -1;
}

int pgm_write(const char *path, const Image *img)
{
    FILE *f = fopen(path, "wb");
    size_t n = (size_t)img->width * (size_t)img->height;

    if (!f)
        return -1;
    fprintf(f, "P5\n# findmaxima output\n%d %d\n255\n", img->width, img->height);
    if (fwrite(img->pix, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}
