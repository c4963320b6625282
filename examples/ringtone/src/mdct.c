#include "mdct.h"

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

int mdct_init(Mdct *t, int m)
{
    int h = m / 2;
    if (m < 16 || m > MDCT_MAX || (m & (m - 1)) != 0)
        return -1;
    t->m = m;
    for (int n = 0; n < 2 * m; n++)
        t->window[n] = sin(M_PI * (n + 0.5) / (2.0 * m));
    for (int n = 0; n < h; n++) {
        t->rot_re[n] = cos(-M_PI * (8 * n + 1) / (8.0 * m));
        t->rot_im[n] = sin(-M_PI * (8 * n + 1) / (8.0 * m));
    }
    for (int k = 0; k < h / 2; k++) {
        t->tw_re[k] = cos(2.0 * M_PI * k / h);
        t->tw_im[k] = -sin(2.0 * M_PI * k / h);
    }
    return 0;
}

/* In-place iterative radix-2 FFT of t->re/t->im. */
static void fft(Mdct *t)
{
    int h = t->m / 2;
    double *re = t->re, *im = t->im;
    for (int i = 0, j = 0; i < h; i++) { /* bit-reversal permutation */
        if (j > i) {
            double x = re[i], y = im[i];
            re[i] = re[j];
            im[i] = im[j];
            re[j] = x;
            im[j] = y;
        }
        int bit = h >> 1;
        for (; j & bit; bit >>= 1)
            j ^= bit;
        j |= bit;
    }
    for (int len = 2; len <= h; len <<= 1) {
        int half = len / 2, step = h / len;
        for (int base = 0; base < h; base += len) {
            for (int k = 0; k < half; k++) {
                double wr = t->tw_re[k * step], wi = t->tw_im[k * step];
                int a = base + k, b = a + half;
                double xr = re[b] * wr - im[b] * wi, xi = re[b] * wi + im[b] * wr;
                re[b] = re[a] - xr;
                im[b] = im[a] - xi;
                re[a] += xr;
                im[a] += xi;
            }
        }
    }
}

void mdct_forward(Mdct *t, const double *in, double *out)
{
    int m = t->m, h = m / 2;
    const double *w = t->window;
    /* Fold the windowed quarters (a, b, c, d) into (-c_r - d, a - b_r). */
    for (int n = 0; n < h; n++) {
        t->fold[n] = -in[3 * h - 1 - n] * w[3 * h - 1 - n] - in[3 * h + n] * w[3 * h + n];
        t->fold[h + n] = in[n] * w[n] - in[m - 1 - n] * w[m - 1 - n];
    }
    /* DCT-IV: rotate pairs, FFT, rotate back, interleave. */
    for (int n = 0; n < h; n++) {
        double xr = t->fold[2 * n], xi = t->fold[m - 1 - 2 * n];
        t->re[n] = xr * t->rot_re[n] - xi * t->rot_im[n];
        t->im[n] = xr * t->rot_im[n] + xi * t->rot_re[n];
    }
    fft(t);
    for (int k = 0; k < h; k++) {
        out[2 * k] = t->re[k] * t->rot_re[k] - t->im[k] * t->rot_im[k];
        out[m - 1 - 2 * k] = -(t->re[k] * t->rot_im[k] + t->im[k] * t->rot_re[k]);
    }
}
