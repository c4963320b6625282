#include "encoder.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bitstream.h"
#include "mdct.h"

#define FRAME 512            /* MDCT coefficients per frame (hop size) */
#define NBANDS 22
#define MAX_ALLOC 15         /* bits per coefficient a band may be granted */
#define MAX_OUTER 32         /* distortion-control passes per frame */
#define MAX_AMPLIFY 10       /* times one band's step may be refined */
#define GAIN_MIN (-120)
#define GAIN_MAX 127
#define ZERO_BAND 15         /* Rice parameter value that marks an all-zero band */
#define QMAX 8191
#define TOO_MANY_BITS 0x7fffffffL
#define ZIGZAG(v) ((uint32_t)((v) >= 0 ? 2 * (v) : -2 * (v) - 1))
#define SILENCE (4.0 / 32768.0)
#define BAND_OVERHEAD 16     /* estimated side bits of a coded band */
#define SPREAD_BELOW 3       /* barks a masker reaches below its frequency */
#define SPREAD_ABOVE 8       /* and above it */
#define BARK_STEPS 8         /* spreading table entries per bark */
#define MASK_INDEX 0.06      /* masked threshold: 12 dB under the spread energy */

static const int band_edge[NBANDS + 1] = {
    0, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96, 112,
    136, 168, 208, 256, 320, 400, 512
};

/* Everything that is written for one frame. */
typedef struct {
    int gain;
    int alloc[NBANDS];       /* bits per coefficient granted; 0 = band not coded */
    int sf[NBANDS];          /* band step exponent, quarter-octave units */
    int k[NBANDS];           /* Rice parameter or ZERO_BAND */
    int q[FRAME];            /* quantised magnitudes */
} FrameCode;

typedef struct {
    Mdct mdct;
    BitWriter bw;
    double input[2 * FRAME], coef[FRAME];
    double en[NBANDS];       /* mean energy per coefficient */
    double thr[NBANDS];      /* allowed noise per coefficient */
    double ath[FRAME];       /* threshold in quiet per line */
    double bark[FRAME];      /* critical-band rate of each line */
    int mask_lo[FRAME], mask_hi[FRAME]; /* lines reached by a masker at each line */
    double spread[(SPREAD_BELOW + SPREAD_ABOVE) * BARK_STEPS + 1];
    double pow43[QMAX + 1];
    int amp[NBANDS];         /* refinements applied by the outer loop */
    FrameCode cur, best;
    int prev_gain;
    long base_bits, reservoir, reservoir_max;
    EncoderStats stats;
} Encoder;

/* Psychoacoustic model: every spectral peak above the threshold in quiet is
 * a masker whose energy spreads over the lines from SPREAD_BELOW barks under
 * to SPREAD_ABOVE barks over its frequency; the allowed noise of a band is
 * the mean of the resulting masked threshold over its lines. */
static void analyse(Encoder *e)
{
    double power[FRAME], mask[FRAME];
    for (int i = 0; i < FRAME; i++) {
        power[i] = e->coef[i] * e->coef[i];
        mask[i] = 0.0;
    }
    for (int j = 0; j < FRAME; j++) {
        if (power[j] <= e->ath[j] || (j > 0 && power[j] < power[j - 1]) ||
            (j + 1 < FRAME && power[j] < power[j + 1]))
            continue;
        for (int i = e->mask_lo[j]; i <= e->mask_hi[j]; i++)
            mask[i] += power[j] * e->spread[(int)((e->bark[i] - e->bark[j] + SPREAD_BELOW) * BARK_STEPS + 0.5)];
    }
    for (int b = 0; b < NBANDS; b++) {
        double sum = 0.0, allowed = 0.0;
        for (int i = band_edge[b]; i < band_edge[b + 1]; i++) {
            sum += power[i];
            allowed += mask[i] * MASK_INDEX > e->ath[i] ? mask[i] * MASK_INDEX : e->ath[i];
        }
        e->en[b] = sum / (band_edge[b + 1] - band_edge[b]);
        e->thr[b] = allowed / (band_edge[b + 1] - band_edge[b]);
    }
}

/* Greedy water-filling: repeatedly give one more bit per coefficient to the
 * band whose noise-to-mask ratio is worst, until the budget is spent or every
 * band is below its mask. Then derive each band's quantiser step. */
static void allocate(Encoder *e, long budget)
{
    double nmr[NBANDS];
    int *alloc = e->cur.alloc;
    for (int b = 0; b < NBANDS; b++) {
        alloc[b] = e->amp[b] = 0;
        nmr[b] = e->en[b] / e->thr[b];
    }
    budget -= 1 + 8 + NBANDS;
    for (;;) {
        int best = -1;
        long cost = 0;
        for (int b = 0; b < NBANDS; b++) {
            long c = band_edge[b + 1] - band_edge[b] + (alloc[b] ? 0 : BAND_OVERHEAD);
            if (alloc[b] < MAX_ALLOC && c <= budget && nmr[b] > (best < 0 ? 1.0 : nmr[best])) {
                best = b;
                cost = c;
            }
        }
        if (best < 0)
            break;
        budget -= cost;
        alloc[best]++;
        nmr[best] *= 0.25; /* one more bit: 6 dB less noise */
    }
    for (int b = 0; b < NBANDS; b++) {
        int sf = (int)floor(4.0 * log2(2.0 * sqrt(e->en[b] + 1e-20)) - 4.0 * alloc[b] + 0.5);
        e->cur.sf[b] = sf < -200 ? -200 : sf > 60 ? 60 : sf;
    }
}

/* Quantises every coded band at global gain g, picks each band's Rice
 * parameter and returns the exact number of bits the frame would take
 * (TOO_MANY_BITS if a value overflows the quantiser's range). */
static long quantise_and_count(Encoder *e, int g)
{
    FrameCode *c = &e->cur;
    long bits = 1 + 8 + NBANDS;
    int prev_sf = 0;
    e->stats.quant_passes++;
    c->gain = g;
    for (int b = 0; b < NBANDS; b++) {
        int lo = band_edge[b], hi = band_edge[b + 1], k = 0;
        long sum = 0;
        double istep;
        if (!c->alloc[b])
            continue;
        istep = pow(2.0, -(c->sf[b] + g) / 4.0);
        for (int i = lo; i < hi; i++) {
            double v = pow(fabs(e->coef[i]) * istep, 0.75) + 0.4054;
            if (v >= QMAX)
                return TOO_MANY_BITS;
            c->q[i] = (int)v;
            sum += c->q[i];
        }
        bits += 4 + rice_bits(ZIGZAG(c->sf[b] - prev_sf), 3);
        prev_sf = c->sf[b];
        if (sum == 0) {
            c->k[b] = ZERO_BAND;
            continue;
        }
        while (k < ZERO_BAND - 1 && ((long)(hi - lo) << (k + 1)) <= sum)
            k++;
        c->k[b] = k;
        for (int i = lo; i < hi; i++)
            bits += rice_bits((uint32_t)c->q[i], k) + (c->q[i] != 0);
    }
    return bits;
}

/* Rate loop: the smallest gain at or above g whose frame fits in avail bits.
 * If even the coarsest step does not fit, the highest coded band is dropped. */
static int fit_gain(Encoder *e, int g, long avail)
{
    while (quantise_and_count(e, g) > avail) {
        if (g < GAIN_MAX) {
            g++;
        } else {
            int b = NBANDS - 1;
            while (b > 0 && !e->cur.alloc[b])
                b--;
            e->cur.alloc[b] = 0;
        }
    }
    return g;
}

/* Measures each coded band's noise-to-mask ratio and refines the step of the
 * worst bands (those within 3 dB of the worst one). Returns the summed excess
 * noise (log units) as a quality score; *over is the number of bands refined. */
static double control_distortion(Encoder *e, int *over)
{
    FrameCode *c = &e->cur;
    double score = 0.0, worst = 1.0, nmr[NBANDS];
    *over = 0;
    for (int b = 0; b < NBANDS; b++) {
        double noise = 0.0, step = pow(2.0, (c->sf[b] + c->gain) / 4.0);
        nmr[b] = 0.0;
        if (!c->alloc[b]) {
            score += e->en[b] > e->thr[b] ? log(e->en[b] / e->thr[b]) : 0.0;
            continue;
        }
        for (int i = band_edge[b]; i < band_edge[b + 1]; i++) {
            double d = fabs(e->coef[i]) - e->pow43[c->q[i]] * step;
            noise += d * d;
        }
        nmr[b] = noise / (band_edge[b + 1] - band_edge[b]) / e->thr[b];
        score += nmr[b] > 1.0 ? log(nmr[b]) : 0.0;
        if (nmr[b] > worst && e->amp[b] < MAX_AMPLIFY)
            worst = nmr[b];
    }
    for (int b = 0; b < NBANDS; b++) {
        if (nmr[b] > 1.0 && nmr[b] >= 0.5 * worst && e->amp[b] < MAX_AMPLIFY) {
            c->sf[b]--;
            e->amp[b]++;
            (*over)++;
        }
    }
    return score;
}

static void write_frame(Encoder *e, const FrameCode *c)
{
    BitWriter *bw = &e->bw;
    int prev_sf = 0;
    bw_put(bw, 1, 1);
    bw_put(bw, (uint32_t)(c->gain + 128), 8);
    for (int b = 0; b < NBANDS; b++) {
        bw_put(bw, c->alloc[b] ? 1u : 0u, 1);
        if (!c->alloc[b])
            continue;
        bw_put_rice(bw, ZIGZAG(c->sf[b] - prev_sf), 3);
        prev_sf = c->sf[b];
        bw_put(bw, (uint32_t)c->k[b], 4);
        for (int i = band_edge[b]; i < band_edge[b + 1] && c->k[b] != ZERO_BAND; i++) {
            bw_put_rice(bw, (uint32_t)c->q[i], c->k[b]);
            if (c->q[i])
                bw_put(bw, e->coef[i] < 0.0 ? 1u : 0u, 1);
        }
    }
}

static void encode_frame(Encoder *e)
{
    long avail = e->base_bits + e->reservoir, before = e->bw.total_bits;
    double peak = 0.0, best_score = HUGE_VAL;
    int g, over;

    for (int i = 0; i < 2 * FRAME; i++)
        peak = fabs(e->input[i]) > peak ? fabs(e->input[i]) : peak;
    if (peak < SILENCE) {
        bw_put(&e->bw, 0, 1);
        e->stats.silent_frames++;
    } else {
        mdct_forward(&e->mdct, e->input, e->coef);
        analyse(e);
        allocate(e, avail);
        /* Start from the previous frame's gain: walk up until the frame fits,
         * or, if it fits at once, down while it still does. */
        g = fit_gain(e, e->prev_gain, avail);
        if (g == e->prev_gain) {
            while (g > GAIN_MIN && quantise_and_count(e, g - 1) <= avail)
                g--;
            quantise_and_count(e, g);
        }
        /* Outer loop: refine the worst bands and refit, keep the best try. */
        for (int pass = 0; pass < MAX_OUTER; pass++) {
            double score;
            if (pass > 0)
                fit_gain(e, e->cur.gain, avail);
            score = control_distortion(e, &over);
            if (score < best_score) {
                best_score = score;
                e->best = e->cur;
            }
            if (over == 0)
                break;
        }
        e->prev_gain = e->best.gain;
        write_frame(e, &e->best);
    }
    e->stats.frames++;
    e->reservoir += e->base_bits - (e->bw.total_bits - before);
    e->reservoir = e->reservoir < 0 ? 0 : e->reservoir > e->reservoir_max ? e->reservoir_max : e->reservoir;
}

/* Precomputes the per-line tables of the psychoacoustic model. */
static void init_model(Encoder *e, long rate)
{
    for (int i = 0; i < FRAME; i++) {
        double hz = (i + 0.5) * rate / (2.0 * FRAME), f = hz < 20.0 ? 0.02 : hz / 1000.0;
        /* Terhardt's threshold in quiet, 96 dB SPL taken as a full-scale sine */
        double db = 3.64 * pow(f, -0.8) - 6.5 * exp(-0.6 * (f - 3.3) * (f - 3.3)) + 1e-3 * pow(f, 4.0);
        e->ath[i] = (double)FRAME * FRAME / 8.0 * pow(10.0, ((db > 96.0 ? 96.0 : db) - 96.0) / 10.0);
        e->bark[i] = 13.0 * atan(0.00076 * hz) + 3.5 * atan(hz * hz / 56250000.0);
    }
    for (int j = 0; j < FRAME; j++) {
        int lo = j, hi = j;
        while (lo > 0 && e->bark[j] - e->bark[lo - 1] <= SPREAD_BELOW)
            lo--;
        while (hi + 1 < FRAME && e->bark[hi + 1] - e->bark[j] <= SPREAD_ABOVE)
            hi++;
        e->mask_lo[j] = lo;
        e->mask_hi[j] = hi;
    }
    for (int s = 0; s <= (SPREAD_BELOW + SPREAD_ABOVE) * BARK_STEPS; s++) {
        double dz = (double)s / BARK_STEPS - SPREAD_BELOW; /* line minus masker, barks */
        e->spread[s] = pow(10.0, (dz < 0.0 ? 27.0 * dz : -10.0 * dz) / 10.0);
    }
    for (int i = 0; i <= QMAX; i++)
        e->pow43[i] = pow((double)i, 4.0 / 3.0);
}

static void put_le(BitWriter *bw, unsigned long v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        bw_put(bw, (uint32_t)(v >> (8 * i)) & 0xffu, 8);
}

int encode_ringtone(WavFile *wav, long n, int kbps, FILE *out, EncoderStats *stats)
{
    Encoder *e = calloc(1, sizeof(*e));
    long nframes = (n + FRAME - 1) / FRAME + 1, left = n;
    int rc = 0;

    if (!e) {
        fprintf(stderr, "ringtone: out of memory\n");
        return -1;
    }
    mdct_init(&e->mdct, FRAME);
    e->base_bits = (long)kbps * 1000L * FRAME / wav->sample_rate;
    e->reservoir_max = 2 * e->base_bits;
    init_model(e, wav->sample_rate);
    /* header: magic, version, sample rate, frame size, bitrate, frames, samples */
    put_le(&e->bw, 0x54474e52ul, 4); /* "RNGT" */
    put_le(&e->bw, 1, 1);
    put_le(&e->bw, (unsigned long)wav->sample_rate, 4);
    put_le(&e->bw, FRAME, 2);
    put_le(&e->bw, (unsigned long)kbps, 2);
    put_le(&e->bw, (unsigned long)nframes, 4);
    put_le(&e->bw, (unsigned long)n, 4);

    /* Frame f covers samples [(f-1)*FRAME, (f+1)*FRAME): 50% overlap, zero padded. */
    for (long f = 0; f < nframes && rc == 0; f++) {
        long want = left < FRAME ? left : FRAME, got;
        memmove(e->input, e->input + FRAME, sizeof(double) * FRAME);
        got = wav_read_mono(wav, want, e->input + FRAME);
        if (got != want) {
            fprintf(stderr, "ringtone: read error in the data chunk\n");
            rc = -1;
        }
        for (long i = got; i < FRAME; i++)
            e->input[FRAME + i] = 0.0;
        left -= got;
        encode_frame(e);
    }
    bw_flush(&e->bw);

    if (rc == 0 && fwrite(e->bw.buf, 1, e->bw.len, out) != e->bw.len) {
        fprintf(stderr, "ringtone: write error\n");
        rc = -1;
    }
    e->stats.output_bytes = (unsigned long)e->bw.len;
    *stats = e->stats;
    free(e->bw.buf);
    free(e);
    return rc;
}
