#ifndef WAV_H
#define WAV_H

#include <stdio.h>

typedef struct {
    FILE *fp;
    int channels;            /* 1 or 2 */
    long sample_rate;        /* Hz */
    long data_offset;        /* file offset of the first sample frame */
    long num_frames;         /* sample frames in the data chunk */
} WavFile;

/* Opens a 16-bit PCM RIFF/WAVE file; on failure prints why and returns -1. */
int wav_open(WavFile *wav, const char *path);
void wav_close(WavFile *wav);
/* Reads up to count frames from the current position, downmixed to mono and scaled to [-1, 1).
 * Returns the number of frames read. */
long wav_read_mono(WavFile *wav, long count, double *out);

#endif
