#ifndef CGD_DRAWING_H
#define CGD_DRAWING_H
// Drawing one libgd true-colour image scaled onto another, in C rather than with libgd's
// gdImageCopyResampled, which spends some 30 floating-point operations and two function calls on each
// source pixel of each destination pixel: drawing a 2000 x 1125 photo onto a 1920 x 1080 canvas took it
// five to ten times as long as this, for pixels within one level in 255 of these.
#include <gd.h>

/// Draws the `srcW` x `srcH` part of `src` at (`srcX`, `srcY`) into the `dstW` x `dstH` rectangle of `dst`
/// at (`dstX`, `dstY`); both rectangles lie inside their images and are at least 1 pixel a side.
///
/// Each pixel drawn is the average of the part of `src` it covers (its area, in fractions of pixels),
/// colours weighted by their opacity, as gdImageCopyResampled averages; at the same size it is the
/// source pixel itself. It goes over `dst` as libgd's gdImageSetPixel puts it: blended with libgd's
/// gdAlphaBlend when `dst` blends, replacing the pixel otherwise. Returns 0 when memory runs out, with
/// `dst` unchanged.
int cgd_draw_scaled(gdImagePtr dst, gdImagePtr src, int dstX, int dstY, int srcX, int srcY, int dstW, int dstH,
                    int srcW, int srcH);

#endif
