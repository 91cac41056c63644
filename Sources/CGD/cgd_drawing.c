#include "cgd_drawing.h"

#include <stdlib.h>

#include "cgd.h"

/// How much of source pixel `first + i` (i from 0 to `count` - 1) one destination pixel covers. Weights are
/// lengths in units of 1 / (destination length): a source pixel is `dstLength` long, a destination pixel
/// `srcLength`, so every overlap is a whole number and each destination pixel's weights sum to
/// `srcLength`.
typedef struct {
    int first;
    int count;
    int *weights;
} Span;

/// The spans of `dstLength` destination pixels over `srcLength` source pixels, their weights in one
/// allocation (`*storage`, to free); NULL when memory runs out.
static Span *spans(int dstLength, int srcLength, int **storage) {
    Span *spans = malloc(sizeof(Span) * (size_t)dstLength);
    // A destination pixel covers at most srcLength / dstLength + 2 source pixels, in part at each end.
    int most = srcLength / dstLength + 2;
    *storage = malloc(sizeof(int) * (size_t)dstLength * (size_t)most);
    if (!spans || !*storage) {
        free(spans);
        free(*storage);
        return NULL;
    }
    for (int i = 0; i < dstLength; i++) {
        long start = (long)i * srcLength, end = start + srcLength;  // in units of 1 / dstLength
        Span *span = &spans[i];
        span->first = (int)(start / dstLength);
        span->count = 0;
        span->weights = *storage + (size_t)i * (size_t)most;
        for (int k = span->first; (long)k * dstLength < end; k++) {
            long low = (long)k * dstLength, high = low + dstLength;
            long overlap = (high < end ? high : end) - (low > start ? low : start);
            span->weights[span->count++] = (int)overlap;
        }
    }
    return spans;
}

/// A source row averaged across into `dstW` pixels: for each, its colours times its opacity, and its
/// opacity, each summed with the span's weights.
static void average_across(const int *row, const Span *across, int dstW, float *out) {
    for (int i = 0; i < dstW; i++) {
        const Span *span = &across[i];
        const int *pixel = row + span->first;
        float red = 0, green = 0, blue = 0, opacity = 0;
        for (int k = 0; k < span->count; k++) {
            int color = pixel[k];
            float weight = (float)(span->weights[k] * (gdAlphaMax - gdTrueColorGetAlpha(color)));
            red += weight * (float)gdTrueColorGetRed(color);
            green += weight * (float)gdTrueColorGetGreen(color);
            blue += weight * (float)gdTrueColorGetBlue(color);
            opacity += weight;
        }
        out[4 * i] = red;
        out[4 * i + 1] = green;
        out[4 * i + 2] = blue;
        out[4 * i + 3] = opacity;
    }
}

/// Puts `color` on the pixel as gdImageSetPixel does on a true-colour image: replaced, or blended.
static inline void put(gdImagePtr dst, int *pixel, int color, int (*alphaBlend)(int, int)) {
    if (!dst->alphaBlendingFlag) {
        *pixel = color;
    } else if (gdTrueColorGetAlpha(color) == gdAlphaOpaque) {
        *pixel = color;  // what gdAlphaBlend gives
    } else if (gdTrueColorGetAlpha(color) != gdAlphaTransparent) {
        *pixel = alphaBlend(*pixel, color);
    }
}

static int channel(float value) {
    int rounded = (int)(value + 0.5f);
    return rounded > 255 ? 255 : rounded;
}

int cgd_draw_scaled(gdImagePtr dst, gdImagePtr src, int dstX, int dstY, int srcX, int srcY, int dstW, int dstH,
                    int srcW, int srcH) {
    int (*alphaBlend)(int, int) = cgd_functions()->alphaBlend;
    if (dstW == srcW && dstH == srcH) {
        // As gdImageCopy copies: the source's transparent colour, if it has one (a PNG's tRNS), is left out.
        for (int y = 0; y < dstH; y++) {
            int *to = dst->tpixels[dstY + y] + dstX, *from = src->tpixels[srcY + y] + srcX;
            for (int x = 0; x < dstW; x++) {
                if (from[x] != src->transparent) put(dst, &to[x], from[x], alphaBlend);
            }
        }
        return 1;
    }
    int *acrossWeights = NULL, *downWeights = NULL;
    Span *across = spans(dstW, srcW, &acrossWeights), *down = spans(dstH, srcH, &downWeights);
    // One source row averaged across, kept while the next destination row starts on it too; and the sums
    // for the destination row being made.
    float *averaged = malloc(sizeof(float) * 4 * (size_t)dstW), *sums = malloc(sizeof(float) * 4 * (size_t)dstW);
    int ok = across && down && averaged && sums;
    int averagedRow = -1;
    for (int y = 0; ok && y < dstH; y++) {
        const Span *span = &down[y];
        for (int i = 0; i < 4 * dstW; i++) sums[i] = 0;
        for (int k = 0; k < span->count; k++) {
            if (averagedRow != span->first + k) {
                averagedRow = span->first + k;
                average_across(src->tpixels[srcY + averagedRow] + srcX, across, dstW, averaged);
            }
            float weight = (float)span->weights[k];
            for (int i = 0; i < 4 * dstW; i++) sums[i] += weight * averaged[i];
        }
        // The area of a destination pixel in weight units: srcW across, srcH down, at full opacity 127.
        float area = (float)srcW * (float)srcH;
        int *to = dst->tpixels[dstY + y] + dstX;
        for (int x = 0; x < dstW; x++) {
            const float *sum = &sums[4 * x];
            if (sum[3] <= 0) {
                put(dst, &to[x], gdTrueColorAlpha(0, 0, 0, gdAlphaTransparent), alphaBlend);
                continue;
            }
            int alpha = gdAlphaMax - (int)(sum[3] / area + 0.5f);
            put(dst, &to[x], gdTrueColorAlpha(channel(sum[0] / sum[3]), channel(sum[1] / sum[3]), channel(sum[2] / sum[3]),
                                              alpha < 0 ? 0 : alpha), alphaBlend);
        }
    }
    free(across);
    free(down);
    free(acrossWeights);
    free(downWeights);
    free(averaged);
    free(sums);
    return ok;
}
