#ifndef CGD_H
#define CGD_H
// libgd (PNG decoding, JPEG encoding, alpha compositing, FreeType text), opened with
// dlopen on first use rather than linked: linking it loads some fifty libraries (codecs, X11, abseil)
// into every process, about 8 ms at each start of the `episodic` CLI, which draws a thumbnail rarely.
#include <gd.h>

/// The libgd functions the renderer calls, with libgd's own signatures.
typedef struct {
    void (*setErrorMethod)(gdErrorMethod);
    int (*fontCacheSetup)(void);
    gdImagePtr (*imageCreateTrueColor)(int sx, int sy);
    gdImagePtr (*imageCreateFromPngPtr)(int size, void *data);
    void (*imageDestroy)(gdImagePtr im);
    int (*imagePaletteToTrueColor)(gdImagePtr src);
    void (*imageSetPixel)(gdImagePtr im, int x, int y, int color);
    void (*imageAlphaBlending)(gdImagePtr im, int alphaBlendingArg);
    void (*imageFilledRectangle)(gdImagePtr im, int x1, int y1, int x2, int y2, int color);
    int (*alphaBlend)(int dst, int src);
    void *(*imageJpegPtr)(gdImagePtr im, int *size, int quality);
    void (*free)(void *m);
    char *(*imageStringFTEx)(gdImagePtr im, int *brect, int fg, const char *fontlist, double ptsize, double angle,
                             int x, int y, const char *string, gdFTStringExtraPtr strex);
} CGDFunctions;

/// Opens libgd once (thread-safe) and returns its functions; NULL when it cannot be opened, and then
/// `cgd_error()` says why.
const CGDFunctions *cgd_functions(void);

/// Why libgd could not be opened; NULL when it was.
const char *cgd_error(void);

#endif
