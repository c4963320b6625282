/* ringtone: cuts an interval out of a WAV file and encodes it as a compact
 * MDCT-coded ringtone. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoder.h"
#include "wav.h"

static int usage(const char *why)
{
    fprintf(stderr, "ringtone: %s\nusage: ringtone -s START_SECONDS -l LENGTH_SECONDS [-b KBPS] "
            "INPUT.wav OUTPUT.rng\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    double start = -1.0, length = -1.0, kbps = 64.0;
    const char *files[2] = {NULL, NULL};
    int nfiles = 0, rc;
    long first, count;
    WavFile wav;
    EncoderStats st;
    FILE *out;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] != '\0') {
            double *dst = strcmp(a, "-s") == 0 ? &start : strcmp(a, "-l") == 0 ? &length
                        : strcmp(a, "-b") == 0 ? &kbps : NULL;
            double lo = dst == &kbps ? 16.0 : dst == &length ? 0.01 : 0.0;
            double hi = dst == &kbps ? 320.0 : 86400.0;
            char *end;
            if (!dst) {
                fprintf(stderr, "ringtone: unknown option %s\n", a);
                return 2;
            }
            if (++i >= argc)
                return usage("an option is missing its value");
            *dst = strtod(argv[i], &end);
            if (end == argv[i] || *end != '\0' || !(*dst >= lo && *dst <= hi)) {
                fprintf(stderr, "ringtone: %s: invalid value '%s' (expected %g to %g)\n", a, argv[i], lo, hi);
                return 2;
            }
        } else if (nfiles < 2) {
            files[nfiles++] = a;
        } else {
            return usage("too many arguments");
        }
    }
    if (start < 0.0 || length < 0.0 || nfiles != 2)
        return usage("-s, -l, an input and an output file are required");

    if (wav_open(&wav, files[0]) != 0)
        return 1;
    first = (long)(start * wav.sample_rate);
    count = (long)(length * wav.sample_rate + 0.5);
    if (first >= wav.num_frames) {
        fprintf(stderr, "ringtone: %s: start %.3f s is past the end (%.3f s)\n", files[0], start,
                (double)wav.num_frames / wav.sample_rate);
        wav_close(&wav);
        return 1;
    }
    if (count > wav.num_frames - first) /* cut at the end of the file */
        count = wav.num_frames - first;
    if (fseek(wav.fp, wav.data_offset + first * 2L * wav.channels, SEEK_SET) != 0 ||
        !(out = fopen(files[1], "wb"))) {
        perror(files[1]);
        wav_close(&wav);
        return 1;
    }
    rc = encode_ringtone(&wav, count, (int)kbps, out, &st);
    if (fclose(out) != 0 && rc == 0) {
        perror(files[1]);
        rc = -1;
    }
    if (rc == 0) {
        long coded = st.frames - st.silent_frames;
        printf("input: %ld Hz, %d channel%s, cut %.3f s at %.3f s\n", wav.sample_rate, wav.channels,
               wav.channels > 1 ? "s" : "", (double)count / wav.sample_rate,
               (double)first / wav.sample_rate);
        printf("frames: %ld (%ld silent)\n", st.frames, st.silent_frames);
        printf("average quantiser iterations: %.2f\n", coded > 0 ? (double)st.quant_passes / coded : 0.0);
        printf("output bytes: %lu\n", st.output_bytes);
    }
    wav_close(&wav);
    return rc == 0 ? 0 : 1;
}
