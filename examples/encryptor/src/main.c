/* encryptor - encrypts a file with a Hill cipher over bytes.
 *
 *   encryptor -k KEYFILE -i INPUT -o OUTPUT [-d]
 *
 * The input is first compressed with a small LZ pass (stored as-is when that
 * does not help), padded to whole blocks of N bytes and every block x is
 * replaced by K*x mod 256. With -d the process is reversed using the
 * inverse key. The output starts with a small header (see below).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "key.h"
#include "lz.h"

/* Header: magic "HILC", version, method, N (u16), original length (u64),
 * payload length before padding (u64), FNV-1a of the original (u32). */
#define HDR_SIZE 28
#define HDR_VERSION 1
#define METHOD_STORED 0
#define METHOD_LZ 1
#define MAX_INPUT (1UL << 30)

static const uint8_t magic[4] = { 'H', 'I', 'L', 'C' };

static void usage(FILE *f)
{
    fprintf(f, "usage: encryptor -k KEYFILE -i INPUT -o OUTPUT [-d]\n"
               "  -k FILE  key: dimension N, then N*N integers 0..255\n"
               "  -i FILE  input file\n"
               "  -o FILE  output file\n"
               "  -d       decrypt instead of encrypt\n");
}

static int read_file(const char *path, uint8_t **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;

    if (!f) {
        fprintf(stderr, "encryptor: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (n == cap) {
            if (cap >= MAX_INPUT) {
                fprintf(stderr, "encryptor: %s: input larger than %lu bytes\n", path, MAX_INPUT);
                goto fail;
            }
            cap = cap ? cap * 2 : 65536;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fprintf(stderr, "encryptor: out of memory reading %s\n", path);
                goto fail;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        fprintf(stderr, "encryptor: error reading %s\n", path);
        goto fail;
    }
    fclose(f);
    *data = buf;
    *len = n;
    return 0;

fail:
    free(buf);
    fclose(f);
    return -1;
}

static int write_file(const char *path, const uint8_t *a, size_t alen,
                      const uint8_t *b, size_t blen)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "encryptor: cannot create %s: %s\n", path, strerror(errno));
        return -1;
    }
    int bad = (alen && fwrite(a, 1, alen, f) != alen) ||
              (blen && fwrite(b, 1, blen, f) != blen);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "encryptor: error writing %s\n", path);
        return -1;
    }
    return 0;
}

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

static void put_le(uint8_t *p, uint64_t v, int nbytes)
{
    for (int i = 0; i < nbytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int nbytes)
{
    uint64_t v = 0;
    for (int i = nbytes - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static void print_head(const char *mode, const struct key_plan *p)
{
    printf("mode: %s\nkey: N=%d nonzero=%zu\n", mode, p->n, p->nnz);
}

static int do_encrypt(const struct hill_key *key, const char *inpath, const char *outpath)
{
    struct key_plan plan;
    struct lz_stats st;
    uint8_t *in = NULL, *payload = NULL, hdr[HDR_SIZE];
    size_t inlen, plen, nblocks, n = (size_t)key->n;
    int method, rc = 1;

    if (key_invert(key, NULL) != 0) {
        fprintf(stderr, "encryptor: key is not invertible mod 256 (even determinant)\n");
        return 1;
    }
    if (plan_build(&plan, key->m, key->n) != 0) {
        fprintf(stderr, "encryptor: out of memory\n");
        goto out;
    }
    if (read_file(inpath, &in, &inlen) != 0)
        goto out;

    /* Room for the data rounded up to whole blocks (at least one). */
    nblocks = inlen ? (inlen + n - 1) / n : 1;
    payload = calloc(nblocks, n);
    if (!payload) {
        fprintf(stderr, "encryptor: out of memory\n");
        goto out;
    }
    plen = lz_compress(in, inlen, payload, inlen ? inlen - 1 : 0, &st);
    if (plen > 0) {
        method = METHOD_LZ;
    } else {
        method = METHOD_STORED;
        plen = inlen;
        memcpy(payload, in, inlen);
    }
    nblocks = plen ? (plen + n - 1) / n : 1;
    memset(payload + plen, 0, nblocks * n - plen);
    plan_apply(&plan, payload, nblocks);

    memcpy(hdr, magic, 4);
    hdr[4] = HDR_VERSION;
    hdr[5] = (uint8_t)method;
    put_le(hdr + 6, n, 2);
    put_le(hdr + 8, inlen, 8);
    put_le(hdr + 16, plen, 8);
    put_le(hdr + 24, fnv1a(in, inlen), 4);
    if (write_file(outpath, hdr, HDR_SIZE, payload, nblocks * n) != 0)
        goto out;

    print_head("encrypt", &plan);
    printf("input bytes: %zu\n", inlen);
    if (method == METHOD_LZ)
        printf("compressed bytes: %zu (lz: %zu literals, %zu matches)\n",
               plen, st.literals, st.matches);
    else
        printf("compressed bytes: %zu (stored, lz did not help)\n", plen);
    printf("blocks: %zu\n", nblocks);
    printf("output bytes: %zu checksum=%08x\n", HDR_SIZE + nblocks * n,
           (unsigned)(fnv1a(hdr, HDR_SIZE) ^ fnv1a(payload, nblocks * n)));
    rc = 0;
out:
    free(in);
    free(payload);
    plan_free(&plan);
    return rc;
}

static int do_decrypt(const struct hill_key *key, const char *inpath, const char *outpath)
{
    struct key_plan plan;
    uint8_t *in = NULL, *inv = NULL, *plain = NULL;
    size_t inlen, n = (size_t)key->n, nblocks;
    uint64_t origlen, plen;
    int method, rc = 1;

    memset(&plan, 0, sizeof plan);
    inv = malloc(n * n);
    if (!inv) {
        fprintf(stderr, "encryptor: out of memory\n");
        return 1;
    }
    if (key_invert(key, inv) != 0) {
        fprintf(stderr, "encryptor: key is not invertible mod 256 (even determinant)\n");
        goto out;
    }
    if (plan_build(&plan, inv, key->n) != 0) {
        fprintf(stderr, "encryptor: out of memory\n");
        goto out;
    }
    if (read_file(inpath, &in, &inlen) != 0)
        goto out;
    if (inlen < HDR_SIZE || memcmp(in, magic, 4) != 0 || in[4] != HDR_VERSION) {
        fprintf(stderr, "encryptor: input is not an encrypted file (bad header)\n");
        goto out;
    }
    method = in[5];
    origlen = get_le(in + 8, 8);
    plen = get_le(in + 16, 8);
    if (get_le(in + 6, 2) != n) {
        fprintf(stderr, "encryptor: file was encrypted with a %dx%d key, not %zux%zu\n",
                (int)get_le(in + 6, 2), (int)get_le(in + 6, 2), n, n);
        goto out;
    }
    nblocks = (inlen - HDR_SIZE) / n;
    if ((inlen - HDR_SIZE) % n != 0 || nblocks == 0 || plen > nblocks * n ||
        (plen + n - 1) / n > nblocks || origlen > MAX_INPUT ||
        (method != METHOD_LZ && method != METHOD_STORED) ||
        (method == METHOD_STORED && plen != origlen)) {
        fprintf(stderr, "encryptor: encrypted file is truncated or corrupt\n");
        goto out;
    }
    plan_apply(&plan, in + HDR_SIZE, nblocks);

    if (method == METHOD_LZ) {
        plain = malloc(origlen ? origlen : 1);
        if (!plain) {
            fprintf(stderr, "encryptor: out of memory\n");
            goto out;
        }
        if (lz_decompress(in + HDR_SIZE, plen, plain, origlen) != 0) {
            fprintf(stderr, "encryptor: decryption failed (wrong key or corrupt data)\n");
            goto out;
        }
    }
    const uint8_t *data = method == METHOD_LZ ? plain : in + HDR_SIZE;
    if (fnv1a(data, origlen) != (uint32_t)get_le(in + 24, 4)) {
        fprintf(stderr, "encryptor: checksum mismatch (wrong key or corrupt data)\n");
        goto out;
    }
    if (write_file(outpath, data, origlen, NULL, 0) != 0)
        goto out;

    print_head("decrypt", &plan);
    printf("encrypted bytes: %zu\n", inlen);
    printf("blocks: %zu\n", nblocks);
    printf("compressed bytes: %llu (%s)\n", (unsigned long long)plen,
           method == METHOD_LZ ? "lz" : "stored");
    printf("output bytes: %llu checksum=%08x\n", (unsigned long long)origlen,
           (unsigned)fnv1a(data, origlen));
    rc = 0;
out:
    free(in);
    free(inv);
    free(plain);
    plan_free(&plan);
    return rc;
}

int main(int argc, char **argv)
{
    const char *keypath = NULL, *inpath = NULL, *outpath = NULL;
    int decrypt = 0, rc;
    struct hill_key key;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (strcmp(a, "-k") == 0)
            slot = &keypath;
        else if (strcmp(a, "-i") == 0)
            slot = &inpath;
        else if (strcmp(a, "-o") == 0)
            slot = &outpath;
        else if (strcmp(a, "-d") == 0)
            decrypt = 1;
        else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "encryptor: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (slot) {
            if (i + 1 >= argc) {
                fprintf(stderr, "encryptor: option %s needs an argument\n", a);
                return 2;
            }
            *slot = argv[++i];
        }
    }
    if (!keypath || !inpath || !outpath) {
        fprintf(stderr, "encryptor: -k, -i and -o are required\n");
        usage(stderr);
        return 2;
    }

    if (key_load(keypath, &key) != 0)
        return 1;
    rc = decrypt ? do_decrypt(&key, inpath, outpath) : do_encrypt(&key, inpath, outpath);
    key_free(&key);
    return rc;
}
