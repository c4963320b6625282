#include "wav.h"

#include <stdint.h>
#include <string.h>

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static unsigned le16(const unsigned char *p)
{
    return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static int fail(WavFile *wav, const char *path, const char *msg)
{
    fprintf(stderr, "ringtone: %s: %s\n", path, msg);
    wav_close(wav);
    return -1;
}

/* Checks a "fmt " chunk; returns NULL if it describes 16-bit PCM we can read. */
static const char *parse_fmt(WavFile *wav, const unsigned char *f, uint32_t size)
{
    unsigned tag = size < 16 ? 0 : le16(f);
    if (size < 16 || (tag == 0xFFFE && size < 40))
        return "fmt chunk too short";
    if (tag == 0xFFFE) /* WAVE_FORMAT_EXTENSIBLE: the real tag opens the sub-format GUID */
        tag = le16(f + 24);
    wav->channels = (int)le16(f + 2);
    wav->sample_rate = (long)le32(f + 4);
    if (tag != 1)
        return "not PCM audio (compressed formats are not supported)";
    if (le16(f + 14) != 16)
        return "only 16-bit PCM samples are supported";
    if (wav->channels < 1 || wav->channels > 2)
        return "only mono and stereo files are supported";
    if (wav->sample_rate < 4000 || wav->sample_rate > 192000)
        return "unsupported sample rate";
    if (le16(f + 12) != 2u * (unsigned)wav->channels)
        return "inconsistent block alignment";
    return NULL;
}

int wav_open(WavFile *wav, const char *path)
{
    unsigned char hdr[12], ch[8], fmt[40];
    int have_fmt = 0;
    long file_size, data_size = -1;

    memset(wav, 0, sizeof(*wav));
    if (!(wav->fp = fopen(path, "rb")) || fseek(wav->fp, 0, SEEK_END) != 0 ||
        (file_size = ftell(wav->fp)) < 0 || fseek(wav->fp, 0, SEEK_SET) != 0) {
        perror(path);
        wav_close(wav);
        return -1;
    }
    if (fread(hdr, 1, 12, wav->fp) != 12 || memcmp(hdr, "RIFF", 4) != 0 ||
        memcmp(hdr + 8, "WAVE", 4) != 0)
        return fail(wav, path, "not a RIFF/WAVE file");

    /* Walk the chunk list; anything but "fmt " and "data" is skipped. */
    while (!(have_fmt && data_size >= 0) && fread(ch, 1, 8, wav->fp) == 8) {
        uint32_t size = le32(ch + 4);
        long pos = ftell(wav->fp);
        if (memcmp(ch, "fmt ", 4) == 0) {
            size_t want = size < sizeof(fmt) ? size : sizeof(fmt);
            const char *err = fread(fmt, 1, want, wav->fp) != want ? "truncated fmt chunk"
                                                                    : parse_fmt(wav, fmt, size);
            if (err)
                return fail(wav, path, err);
            have_fmt = 1;
        } else if (memcmp(ch, "data", 4) == 0) {
            wav->data_offset = pos;
            data_size = (long)size;
            if (data_size > file_size - pos) /* truncated or still being written */
                data_size = file_size - pos;
        }
        if ((long)size > file_size - pos ||
            fseek(wav->fp, pos + (long)size + (long)(size & 1u), SEEK_SET) != 0)
            break;
    }
    if (!have_fmt)
        return fail(wav, path, "missing fmt chunk");
    if (data_size < 0)
        return fail(wav, path, "missing data chunk");
    wav->num_frames = data_size / (2 * wav->channels);
    if (wav->num_frames == 0)
        return fail(wav, path, "no audio samples");
    return 0;
}

void wav_close(WavFile *wav)
{
    if (wav->fp)
        fclose(wav->fp);
    wav->fp = NULL;
}

long wav_read_mono(WavFile *wav, long count, double *out)
{
    unsigned char buf[4096];
    long done = 0, frame_bytes = 2L * wav->channels;
    while (done < count) {
        size_t want = (size_t)(count - done), got;
        if (want > sizeof(buf) / (size_t)frame_bytes)
            want = sizeof(buf) / (size_t)frame_bytes;
        got = fread(buf, (size_t)frame_bytes, want, wav->fp);
        for (size_t i = 0; i < got; i++) {
            const unsigned char *p = buf + i * (size_t)frame_bytes;
            int l = (int)le16(p), r = wav->channels == 2 ? (int)le16(p + 2) : l;
            l -= l >= 32768 ? 65536 : 0; /* two's complement 16-bit */
            r -= r >= 32768 ? 65536 : 0;
            out[done + (long)i] = (double)(l + r) / 65536.0;
        }
        done += (long)got;
        if (got < want)
            break;
    }
    return done;
}
