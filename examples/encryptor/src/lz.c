/* lz.c - greedy LZ77 with hash chains (LZSS token format).
 *
 * Stream format: a flag byte announces the next (up to) 8 items, bit i set
 * meaning item i is a match. A literal is one byte. A match is three bytes:
 * 16-bit little-endian distance (1..32767) and (length - 3), length 3..258.
 */
#include "lz.h"

#include <stdlib.h>
#include <string.h>

#define WIN_BITS 15
#define WIN_SIZE (1L << WIN_BITS)
#define WIN_MASK (WIN_SIZE - 1)
#define HASH_BITS 15
#define HASH_SIZE (1L << HASH_BITS)
#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 128      /* candidates tried per position (zlib's default) */

static uint32_t hash3(const uint8_t *p)
{
    uint32_t v = ((uint32_t)p[0] << 16) | ((uint32_t)p[1] << 8) | p[2];
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

struct matcher {
    int32_t *head;   /* most recent position for each hash */
    int32_t *prev;   /* previous position with the same hash, by pos % WIN */
};

static void insert_pos(struct matcher *m, const uint8_t *src, long pos)
{
    uint32_t h = hash3(src + pos);
    m->prev[pos & WIN_MASK] = m->head[h];
    m->head[h] = (int32_t)pos;
}

/* Finds the longest earlier match for position pos; returns its length
 * (0 if none) and stores the distance in *dist. */
static size_t find_match(const struct matcher *m, const uint8_t *src, size_t n,
                         long pos, size_t *dist, struct lz_stats *st)
{
    size_t maxlen = n - (size_t)pos < MAX_MATCH ? n - (size_t)pos : MAX_MATCH;
    size_t best = 0;
    long cand = m->head[hash3(src + pos)];
    int chain = MAX_CHAIN;

    while (cand >= 0 && pos - cand < WIN_SIZE && chain-- > 0) {
        const uint8_t *a = src + cand, *b = src + pos;
        st->probes++;
        if (a[best] == b[best]) {
            size_t len = 0;
            while (len < maxlen && a[len] == b[len])
                len++;
            if (len > best) {
                best = len;
                *dist = (size_t)(pos - cand);
                if (len == maxlen)
                    break;
            }
        }
        cand = m->prev[cand & WIN_MASK];
    }
    return best;
}

size_t lz_compress(const uint8_t *src, size_t n, uint8_t *dst, size_t cap,
                   struct lz_stats *st)
{
    struct matcher m;
    size_t out = 0, flagpos = 0;
    int nitems = 8;
    long pos = 0;

    memset(st, 0, sizeof *st);
    m.head = malloc(HASH_SIZE * sizeof *m.head);
    m.prev = malloc(WIN_SIZE * sizeof *m.prev);
    if (!m.head || !m.prev) {
        free(m.head);
        free(m.prev);
        return 0;
    }
    for (long i = 0; i < HASH_SIZE; i++)
        m.head[i] = -1;

    while ((size_t)pos < n) {
        size_t len = 0, dist = 0;
        if ((size_t)pos + MIN_MATCH <= n) {
            len = find_match(&m, src, n, pos, &dist, st);
            insert_pos(&m, src, pos);
        }
        if (nitems == 8) {
            if (out + 1 > cap)
                goto full;
            flagpos = out++;
            dst[flagpos] = 0;
            nitems = 0;
        }
        if (len >= MIN_MATCH) {
            if (out + 3 > cap)
                goto full;
            dst[flagpos] |= (uint8_t)(1u << nitems);
            dst[out++] = (uint8_t)(dist & 0xff);
            dst[out++] = (uint8_t)(dist >> 8);
            dst[out++] = (uint8_t)(len - MIN_MATCH);
            for (long k = pos + 1; k < pos + (long)len && (size_t)k + MIN_MATCH <= n; k++)
                insert_pos(&m, src, k);
            pos += (long)len;
            st->matches++;
        } else {
            if (out + 1 > cap)
                goto full;
            dst[out++] = src[pos++];
            st->literals++;
        }
        nitems++;
    }
    free(m.head);
    free(m.prev);
    return out;

full:
    free(m.head);
    free(m.prev);
    return 0;
}

int lz_decompress(const uint8_t *src, size_t n, uint8_t *dst, size_t outlen)
{
    size_t in = 0, out = 0;

    while (out < outlen) {
        if (in >= n)
            return -1;
        uint8_t flags = src[in++];
        for (int bit = 0; bit < 8 && out < outlen; bit++) {
            if (flags & (1u << bit)) {
                if (in + 3 > n)
                    return -1;
                size_t dist = src[in] | ((size_t)src[in + 1] << 8);
                size_t len = (size_t)src[in + 2] + MIN_MATCH;
                in += 3;
                if (dist == 0 || dist > out || len > outlen - out)
                    return -1;
                for (size_t k = 0; k < len; k++, out++)
                    dst[out] = dst[out - dist];
            } else {
                if (in >= n)
                    return -1;
                dst[out++] = src[in++];
            }
        }
    }
    return in == n ? 0 : -1;
}
