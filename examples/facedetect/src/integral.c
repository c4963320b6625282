#include "integral.h"

#include <stdlib.h>

int integral_build(Integral *ii, const Image *img)
{
    int W = img->width + 1, H = img->height + 1;

    ii->width = W;
    ii->height = H;
    ii->sum = calloc((size_t)W * H, sizeof *ii->sum);
    ii->sqsum = calloc((size_t)W * H, sizeof *ii->sqsum);
    if (!ii->sum || !ii->sqsum) {
        integral_free(ii);
        return -1;
    }
    for (int y = 1; y < H; y++) {
        const unsigned char *row = img->pixels + (size_t)(y - 1) * img->width;
        uint32_t *s = ii->sum + (size_t)y * W, run = 0;
        uint64_t *q = ii->sqsum + (size_t)y * W, runq = 0;
        for (int x = 1; x < W; x++) {
            run += row[x - 1];
            runq += (uint64_t)row[x - 1] * row[x - 1];
            s[x] = s[x - W] + run;
            q[x] = q[x - W] + runq;
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
