#ifndef CPNG_H
#define CPNG_H
// libpng, for what libgd's PNG encoder does not let callers choose: the row filters. libgd leaves
// libpng's default, which tries all five filters on every row; the three fast ones (none, sub, up) take
// a third less time for files of about the same size. Its header for the types, the library itself
// (libpng16.so.16, which libgd already loads) opened with dlopen on first use, as libgd is and for the
// same reason (see cgd.h).
#include <stddef.h>
#include <stdint.h>

/// Opens libpng once (thread-safe); NULL when it could, otherwise why not.
const char *cpng_open(void);

/// Encodes `height` rows of `width` pixels (only read), as libgd's true colour holds them (7 bits of
/// alpha, 0 opaque, then 8 bits each of red, green and blue), as an 8-bit PNG: RGBA when `alpha` is set
/// (the alpha widened to 8 bits as libgd widens it, 0 to 255 and 127 to 0), RGB otherwise. zlib
/// compresses at `level`, 0 to 9.
///
/// Returns the bytes, to release with free(), and sets `*size`; NULL when libpng is not open or memory
/// runs out.
uint8_t *cpng_encode(int32_t *const *rows, int width, int height, int alpha, int level, size_t *size);

#endif
