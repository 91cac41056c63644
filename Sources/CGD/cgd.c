#include "cgd.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static CGDFunctions functions;
static const CGDFunctions *opened = NULL;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Sets `field` to libgd's `name`, or records the failure.
#define RESOLVE(field, name)                                                                  \
    do {                                                                                      \
        *(void **)(&functions.field) = dlsym(library, name);                                  \
        if (!functions.field) {                                                               \
            snprintf(failure, sizeof failure, "libgd has no %s: %s", name, dlerror());        \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static void open_libgd(void) {
    // The soname Debian 12's libgd3 installs; libgd-dev (what the build needs) depends on it.
    void *library = dlopen("libgd.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
    RESOLVE(setErrorMethod, "gdSetErrorMethod");
    RESOLVE(fontCacheSetup, "gdFontCacheSetup");
    RESOLVE(imageCreateTrueColor, "gdImageCreateTrueColor");
    RESOLVE(imageCreateFromPngPtr, "gdImageCreateFromPngPtr");
    RESOLVE(imageDestroy, "gdImageDestroy");
    RESOLVE(imagePaletteToTrueColor, "gdImagePaletteToTrueColor");
    RESOLVE(imageSetPixel, "gdImageSetPixel");
    RESOLVE(imageAlphaBlending, "gdImageAlphaBlending");
    RESOLVE(imageFilledRectangle, "gdImageFilledRectangle");
    RESOLVE(alphaBlend, "gdAlphaBlend");
    RESOLVE(imageJpegPtr, "gdImageJpegPtr");
    RESOLVE(free, "gdFree");
    RESOLVE(imageStringFTEx, "gdImageStringFTEx");
    opened = &functions;
}

const CGDFunctions *cgd_functions(void) {
    pthread_once(&once, open_libgd);
    return opened;
}

const char *cgd_error(void) {
    pthread_once(&once, open_libgd);
    return opened ? NULL : failure;
}
