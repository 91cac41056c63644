#ifndef CJPEG_H
#define CJPEG_H
// libjpeg-turbo, for what libgd's JPEG decoder lacks: decoding at 1/2, 1/4 or 1/8 of the size, which
// skips most of the work of a large photo drawn on a smaller canvas. Its header for the types, the
// library itself (libjpeg.so.62, which libgd already loads) opened with dlopen on first use, as libgd is
// and for the same reason (see cgd.h): a process that draws no thumbnail does not load it.
#include <stddef.h>
#include <stdint.h>

/// Opens libjpeg once (thread-safe); NULL when it could, otherwise why not.
const char *cjpeg_open(void);

/// Decodes the JPEG in `bytes` at 1/`denominator` of its size (1, 2, 4 or 8) into `rows`: `height` rows
/// of `width` pixels as libgd's true colour holds them, 0x00RRGGBB (opaque). `width` and `height` must be
/// the scaled size, each side of the stored image divided by `denominator` and rounded up.
///
/// Returns 1 once every row is written; 0 when libjpeg is not open, the image is damaged, or it decodes
/// to another size. libjpeg's warnings (such as a missing end, where libjpeg fills the rest with grey)
/// are not failures, as in libgd. Grey, RGB and YCbCr come out as RGB; CMYK and YCCK are turned into RGB
/// as libgd turns them (Adobe's inverted CMYK included).
int cjpeg_decode(const uint8_t *bytes, size_t count, int denominator, int32_t *const *rows, int width, int height);

#endif
