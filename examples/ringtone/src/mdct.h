#ifndef MDCT_H
#define MDCT_H

#define MDCT_MAX 1024          /* largest supported number of coefficients */

/* Sine-windowed MDCT: 2*m input samples -> m coefficients, computed as a
 * DCT-IV of the folded input through an m/2-point complex FFT. */
typedef struct {
    int m;
    double window[2 * MDCT_MAX];
    double fold[MDCT_MAX];
    double rot_re[MDCT_MAX / 2], rot_im[MDCT_MAX / 2]; /* pre/post rotations */
    double tw_re[MDCT_MAX / 4], tw_im[MDCT_MAX / 4];   /* FFT twiddles */
    double re[MDCT_MAX / 2], im[MDCT_MAX / 2];         /* FFT work buffers */
} Mdct;

/* m must be a power of two from 16 to MDCT_MAX; returns -1 otherwise. */
int mdct_init(Mdct *t, int m);
void mdct_forward(Mdct *t, const double *in, double *out);

#endif
