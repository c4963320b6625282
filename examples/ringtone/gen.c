/* Seeded input generator for ringtone: writes 16-bit PCM WAV files with
 * varied content (tones, chords, noise, speech-like bursts, silence) at
 * 8-48 kHz, mono or stereo, and inputs.txt lines that cut intervals of varied
 * length out of them. Integer-only synthesis, so the bytes are identical on
 * every machine. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Files last 1 to 10 minutes but hold at most MAX_SAMPLES sample frames;
 * intervals hold LEN_MIN << (0..LEN_OCTAVES-1) sample frames, times 1..2. */
#define DUR_MIN 60
#define DUR_MAX 600
#define MAX_SAMPLES 10000000L
#define LEN_MIN 500000L
#define LEN_OCTAVES 5

static uint64_t rng_state;

static uint64_t next_u64(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static long range(long lo, long hi) /* inclusive */
{
    return lo + (long)(next_u64() % (uint64_t)(hi - lo + 1));
}

/* Sine of a phase (2^32 = one turn) in Q15, from a quarter-wave polynomial. */
static int32_t isin(uint32_t phase)
{
    uint32_t quad = phase >> 30;
    int64_t x = (phase >> 14) & 0xFFFF, x2, t, s;
    if (quad & 1)
        x = 65536 - x;
    x2 = (x * x) >> 16;
    t = 42334 - ((x2 * 5210) >> 16);
    t = 102944 - ((x2 * t) >> 16);
    s = ((x * t) >> 16) >> 1;
    if (s > 32767)
        s = 32767;
    return (int32_t)((quad & 2) ? -s : s);
}

static uint32_t phase_inc(long hz_x100, long rate)
{
    return (uint32_t)(((uint64_t)hz_x100 << 32) / 100u / (uint64_t)rate);
}

static int32_t white(void)
{
    return (int32_t)(next_u64() >> 49) - 16384; /* about -16384..16383 */
}

enum { SILENCE, TONE, CHORD, NOISE, SPEECH, MUSIC, NTYPES };

/* Adds one segment of the given kind into the left/right mix buffers. */
static void synth(int kind, int32_t *mix_l, int32_t *mix_r, long n, long rate)
{
    long amp = range(1500, 14000), pan = range(0, 256);
    uint32_t ph[5] = {0}, inc[5] = {0};
    int32_t lp = 0;
    int64_t y1 = 0, y2 = 0, c1 = 0, c2 = 0; /* formant resonator state, Q14 coefficients */
    long note_len = range(rate / 4, rate), burst_left = 0, gap_left = 0;
    int nv = 1;
    static const int ratio_x100[5] = {100, 126, 150, 200, 238};

    if (kind == SILENCE)
        return;
    for (long i = 0; i < n; i++) {
        int32_t v = 0;
        if ((kind == TONE && i == 0) || ((kind == CHORD || kind == MUSIC) && i % note_len == 0)) {
            long base = range(8000, 60000); /* 80..600 Hz, in 1/100 Hz */
            nv = kind == TONE ? 3 : (int)range(3, 5);
            for (int k = 0; k < nv; k++) /* a note with harmonics, or a chord */
                inc[k] = phase_inc(kind == TONE ? base * (k + 1) * 2 : base * ratio_x100[k] / 100, rate);
        }
        switch (kind) {
        case TONE:
            v = isin(ph[0]) / 2 + isin(ph[1]) / 4 + isin(ph[2]) / 8;
            break;
        case CHORD:
        case MUSIC:
            for (int k = 0; k < nv; k++)
                v += isin(ph[k]) / (nv + 1);
            if (kind == MUSIC && i % (note_len / 2) < rate / 40) /* percussion hit */
                v += white() * (int32_t)(rate / 40 - i % (note_len / 2)) / (int32_t)(rate / 40);
            break;
        case NOISE:
            lp += (white() - lp) / (int32_t)(1 + pan / 32); /* pan doubles as colour */
            v = lp * 2;
            break;
        case SPEECH:
            if (burst_left == 0 && gap_left == 0) {
                burst_left = range(rate / 20, rate / 3);
                gap_left = range(rate / 30, rate / 2);
                inc[0] = phase_inc(range(9000, 25000), rate); /* pitch 90..250 Hz */
                /* formant resonator: r = 0.97, centre 300..2500 Hz */
                c1 = 2 * 15892 * (int64_t)isin(phase_inc(range(30000, 250000), rate) + 0x40000000u) / 32768;
                c2 = 15415;
            }
            if (burst_left > 0) {
                int64_t src = (ph[0] < inc[0] ? 24000 : 0) + white() / 4; /* glottal pulse + breath */
                int64_t y = src / 8 + (c1 * y1 - c2 * y2) / 16384;
                y2 = y1;
                y1 = y;
                v = (int32_t)(y * 8000 / rate);
                burst_left--;
            } else {
                y1 = y2 = 0;
                gap_left--;
            }
            break;
        }
        for (int k = 0; k < 5; k++)
            ph[k] += inc[k];
        v = (int32_t)((int64_t)v * amp / 16384);
        mix_l[i] += v * (int32_t)(256 - pan / 2) / 256;
        mix_r[i] += v * (int32_t)(128 + pan / 2) / 256;
    }
}

static void put_le(FILE *f, uint32_t v, int n)
{
    for (int i = 0; i < n; i++)
        fputc((int)((v >> (8 * i)) & 0xFF), f);
}

static int16_t clip(int32_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}

/* Writes a WAV file; style 1 adds an odd-sized LIST chunk before the data,
 * style 2 uses WAVE_FORMAT_EXTENSIBLE. */
static int write_wav(const char *path, const int32_t *l, const int32_t *r, long n, long rate,
                     int channels, int style)
{
    FILE *f = fopen(path, "wb");
    uint32_t data = (uint32_t)(n * channels * 2), fmt_size = style == 2 ? 40 : 16;
    uint32_t list_size = style == 1 ? 27 : 0;
    if (!f)
        return -1;
    fputs("RIFF", f);
    put_le(f, 4 + 8 + fmt_size + (list_size ? 8 + list_size + 1 : 0) + 8 + data, 4);
    fputs("WAVEfmt ", f);
    put_le(f, fmt_size, 4);
    put_le(f, style == 2 ? 0xFFFE : 1, 2);
    put_le(f, (uint32_t)channels, 2);
    put_le(f, (uint32_t)rate, 4);
    put_le(f, (uint32_t)(rate * channels * 2), 4);
    put_le(f, (uint32_t)(channels * 2), 2);
    put_le(f, 16, 2);
    if (style == 2) {
        static const unsigned char guid_tail[14] = {0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80,
                                                    0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71};
        put_le(f, 22, 2);
        put_le(f, 16, 2);
        put_le(f, channels == 2 ? 3 : 4, 4);
        put_le(f, 1, 2);
        fwrite(guid_tail, 1, sizeof(guid_tail), f);
    }
    if (list_size) {
        fputs("LIST", f);
        put_le(f, list_size, 4);
        fwrite("INFOINAM\x0f\x00\x00\x00generated clip\0", 1, list_size, f);
        fputc(0, f); /* pad byte */
    }
    fputs("data", f);
    put_le(f, data, 4);
    for (long i = 0; i < n; i++) {
        if (channels == 2) {
            put_le(f, (uint32_t)(uint16_t)clip(l[i]), 2);
            put_le(f, (uint32_t)(uint16_t)clip(r[i]), 2);
        } else {
            put_le(f, (uint32_t)(uint16_t)clip((l[i] + r[i]) / 2), 2);
        }
    }
    return fclose(f);
}

int main(int argc, char **argv)
{
    static const long rates[] = {8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000};
    long n = 50, seed = 1, nfiles;
    const char *dir = ".";
    char path[4096];
    long *dur, *file_rate; /* per file: length in tenths of a second, sample rate */
    FILE *list;

    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "-n") == 0)
            n = atol(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "-s") == 0)
            seed = atol(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "-o") == 0)
            dir = argv[++i];
        else {
            fprintf(stderr, "usage: gen [-n N] [-s SEED] [-o DIR]\n");
            return 2;
        }
    }
    if (n < 1) {
        fprintf(stderr, "gen: -n must be positive\n");
        return 2;
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        perror(dir);
        return 1;
    }
    rng_state = (uint64_t)seed * 0x2545F4914F6CDD1Dull + 17;
    nfiles = (n + 4) / 5;
    dur = malloc(sizeof(long) * (size_t)nfiles);
    file_rate = malloc(sizeof(long) * (size_t)nfiles);
    if (!dur || !file_rate)
        return 1;

    for (long fi = 0; fi < nfiles; fi++) {
        long rate = rates[range(0, 7)], channels = range(0, 2) == 0 ? 2 : 1;
        long total = range(DUR_MIN, DUR_MAX) * rate, pos = 0;
        int favourite = (int)range(1, NTYPES - 1), focus = range(0, 2) == 0;
        int32_t *l, *r;
        if (total > MAX_SAMPLES)
            total = MAX_SAMPLES;
        l = calloc((size_t)total, sizeof(int32_t));
        r = calloc((size_t)total, sizeof(int32_t));
        if (!l || !r)
            return 1;
        while (pos < total) {
            int kind = focus && range(0, 3) != 0 ? favourite : (int)range(0, NTYPES - 1);
            long len = kind == SILENCE ? range(rate / 2, rate * 3) : range(rate * 2, rate * 15);
            if (len > total - pos)
                len = total - pos;
            synth(kind, l + pos, r + pos, len, rate);
            pos += len;
        }
        snprintf(path, sizeof(path), "%s/clip%02ld.wav", dir, fi);
        if (write_wav(path, l, r, total, rate, (int)channels, (int)(fi % 3)) != 0) {
            perror(path);
            return 1;
        }
        dur[fi] = total * 10 / rate;
        file_rate[fi] = rate;
        free(l);
        free(r);
    }

    snprintf(path, sizeof(path), "%s/inputs.txt", dir);
    list = fopen(path, "w");
    if (!list) {
        perror(path);
        return 1;
    }
    fprintf(list, "# ringtone: -s START -l LENGTH -b KBPS input.wav output.rng\n");
    for (long i = 0; i < n; i++) {
        static const int kbps[] = {32, 48, 64, 96, 128, 192};
        long fi = i % nfiles;
        long len = LEN_MIN << range(0, LEN_OCTAVES - 1); /* sample frames */
        len = (len + len * range(0, 999) / 1000) * 10 / file_rate[fi]; /* tenths of a second */
        if (len > dur[fi])
            len = dur[fi];
        long start = range(0, dur[fi] - len);
        fprintf(list, "-s %ld.%ld -l %ld.%ld -b %d clip%02ld.wav {tmp}/ring.rng\n", start / 10,
                start % 10, len / 10, len % 10, kbps[range(0, 5)], fi);
    }
    fclose(list);
    free(dur);
    free(file_rate);
    return 0;
}
