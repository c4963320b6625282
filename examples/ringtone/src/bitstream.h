#ifndef BITSTREAM_H
#define BITSTREAM_H

#include <stddef.h>
#include <stdint.h>

#define RICE_ESCAPE 20   /* unary prefix length that announces a raw value */
#define RICE_RAW_BITS 16

/* MSB-first bit writer into a growing memory buffer. */
typedef struct {
    uint8_t *buf;
    size_t cap, len;     /* bytes allocated / complete bytes written */
    uint32_t acc;        /* pending bits, right-aligned */
    int nacc;            /* number of pending bits, 0..7 between calls */
    long total_bits;     /* bits written so far */
} BitWriter;

void bw_put(BitWriter *bw, uint32_t value, int nbits); /* nbits <= 24 */
void bw_put_rice(BitWriter *bw, uint32_t value, int k);
void bw_flush(BitWriter *bw);                          /* pad to a whole byte */
int rice_bits(uint32_t value, int k);                  /* length of bw_put_rice */

#endif
