/* lz.h - a small LZ77/LZSS-style compressor used before encryption. */
#ifndef LZ_H
#define LZ_H

#include <stddef.h>
#include <stdint.h>

struct lz_stats {
    size_t literals;   /* bytes emitted as literals */
    size_t matches;    /* back-references emitted */
    size_t probes;     /* candidate positions examined while searching */
};

/* Compresses src[0..n) into dst (capacity cap). Returns the compressed
 * length, or 0 if the result would not fit in cap (caller then stores the
 * data uncompressed). */
size_t lz_compress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                   struct lz_stats *st);

/* Decompresses exactly outlen bytes from src[0..n) into dst. Returns 0 on
 * success, -1 if the stream is malformed. */
int lz_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t outlen);

#endif
