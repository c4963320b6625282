#include "integral.h"

#include <stdlib.h>
#include <string.h>

int integral_build(Integral *ii, const Image *img)
{
    int W = img->width + 1, H = img->height + 1;
    size_t n = (size_t)W * (size_t)H;

    ii->width = W;
    ii->height = H;
    ii->sum = malloc(n * sizeof *ii->sum);
    ii->sqsum = malloc(n * sizeof *ii->sqsum);
    if (!ii->sum || !ii->sqsum) {
        integral_free(ii);
        return -1;
    }
    memset(ii->sum, 0, (size_t)W * sizeof *ii->sum);
    memset(ii->sqsum, 0, (size_t)W * sizeof *ii->sqsum);

    for (int y = 1; y < H; y++) {
        const unsigned char *row = img->pixels + (size_t)(y - 1) * img->width;
        uint32_t *s = ii->sum + (size_t)y * W;
        uint64_t *q = ii->sqsum + (size_t)y * W;
        const uint32_t *sprev = s - W;
        const uint64_t *qprev = q - W;
        uint32_t run = 0;
        uint64_t runq = 0;

        s[0] = 0;
        q[0] = 0;
        for (int x = 1; x < W; x++) {
            uint32_t p = row[x - 1];
            run += p;
            runq += (uint64_t)p * p;
            s[x] = sprev[x] + run;
            q[x] = qprev[x] + runq;
        }
    }
    return 0;
}

void integral_free(Integral *ii)
{
    free(ii->sum);
    free(ii->sqsum);
    ii->sum = NULL;
    ii->sqsum = NULL;
}
