#ifndef ENCODER_H
#define ENCODER_H

#include <stdio.h>

#include "wav.h"

typedef struct {
    long frames;             /* frames written, including silent ones */
    long silent_frames;      /* frames coded as a single "silent" bit */
    long quant_passes;       /* quantise-and-count passes over all frames */
    unsigned long output_bytes;
} EncoderStats;

/* Reads n sample frames from wav's current position and writes them to out
 * as a ringtone: a 21-byte header, then one MDCT-coded frame per 512
 * samples. Returns 0, or -1 after printing an error. */
int encode_ringtone(WavFile *wav, long n, int kbps, FILE *out, EncoderStats *stats);

#endif
