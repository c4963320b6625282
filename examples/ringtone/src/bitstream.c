#include "bitstream.h"

#include <stdio.h>
#include <stdlib.h>

static void emit_byte(BitWriter *bw, uint8_t b)
{
    if (bw->len == bw->cap) {
        size_t ncap = bw->cap ? bw->cap * 2 : 4096;
        uint8_t *p = realloc(bw->buf, ncap);
        if (!p) {
            fprintf(stderr, "ringtone: out of memory\n");
            exit(1);
        }
        bw->buf = p;
        bw->cap = ncap;
    }
    bw->buf[bw->len++] = b;
}

void bw_put(BitWriter *bw, uint32_t value, int nbits)
{
    if (nbits <= 0)
        return;
    bw->acc = (bw->acc << nbits) | (value & ((1u << nbits) - 1u));
    bw->nacc += nbits;
    bw->total_bits += nbits;
    while (bw->nacc >= 8) {
        bw->nacc -= 8;
        emit_byte(bw, (uint8_t)(bw->acc >> bw->nacc));
    }
    bw->acc &= (1u << bw->nacc) - 1u;
}

/* Rice code: the quotient value >> k in unary (ones closed by a zero), then
 * the k low bits. Quotients of RICE_ESCAPE or more are sent as RICE_ESCAPE
 * ones followed by the value itself in RICE_RAW_BITS bits. */
void bw_put_rice(BitWriter *bw, uint32_t value, int k)
{
    uint32_t q = value >> k;
    if (q >= RICE_ESCAPE) {
        bw_put(bw, (1u << RICE_ESCAPE) - 1u, RICE_ESCAPE);
        bw_put(bw, value, RICE_RAW_BITS);
        return;
    }
    bw_put(bw, ((1u << q) - 1u) << 1, (int)q + 1);
    bw_put(bw, value, k);
}

int rice_bits(uint32_t value, int k)
{
    uint32_t q = value >> k;
    return q >= RICE_ESCAPE ? RICE_ESCAPE + RICE_RAW_BITS : (int)q + 1 + k;
}

void bw_flush(BitWriter *bw)
{
    if (bw->nacc > 0)
        bw_put(bw, 0, 8 - bw->nacc);
}
