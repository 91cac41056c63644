#include "cjpeg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>  // jpeglib.h uses FILE without including it
#include <string.h>

#include <jpeglib.h>

// libgd's pixel, 0x00RRGGBB, as libjpeg writes its bytes: B, G, R, X in a little-endian int, X, R, G, B
// in a big-endian one. The X byte is whatever libjpeg leaves there, so it is cleared after each row.
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define GD_PIXEL_LAYOUT JCS_EXT_XRGB
#else
#define GD_PIXEL_LAYOUT JCS_EXT_BGRX
#endif

/// The libjpeg functions the decoder calls, with libjpeg's own signatures.
static struct {
    struct jpeg_error_mgr *(*stdError)(struct jpeg_error_mgr *errors);
    void (*createDecompress)(j_decompress_ptr info, int version, size_t structSize);
    void (*memorySource)(j_decompress_ptr info, const unsigned char *bytes, unsigned long count);
    int (*readHeader)(j_decompress_ptr info, boolean requireImage);
    boolean (*startDecompress)(j_decompress_ptr info);
    JDIMENSION (*readScanlines)(j_decompress_ptr info, JSAMPARRAY rows, JDIMENSION count);
    boolean (*finishDecompress)(j_decompress_ptr info);
    void (*destroyDecompress)(j_decompress_ptr info);
} jpeg;
static int opened = 0;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Sets `field` to libjpeg's `name`, or records the failure.
#define RESOLVE(field, name)                                                                  \
    do {                                                                                      \
        *(void **)(&jpeg.field) = dlsym(library, name);                                       \
        if (!jpeg.field) {                                                                    \
            snprintf(failure, sizeof failure, "libjpeg has no %s: %s", name, dlerror());      \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static void open_libjpeg(void) {
    // The soname of Debian 12's libjpeg62-turbo, whose -dev package has the header this is built with.
    void *library = dlopen("libjpeg.so.62", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
    RESOLVE(stdError, "jpeg_std_error");
    RESOLVE(createDecompress, "jpeg_CreateDecompress");
    RESOLVE(memorySource, "jpeg_mem_src");
    RESOLVE(readHeader, "jpeg_read_header");
    RESOLVE(startDecompress, "jpeg_start_decompress");
    RESOLVE(readScanlines, "jpeg_read_scanlines");
    RESOLVE(finishDecompress, "jpeg_finish_decompress");
    RESOLVE(destroyDecompress, "jpeg_destroy_decompress");
    opened = 1;
}

const char *cjpeg_open(void) {
    pthread_once(&once, open_libjpeg);
    return opened ? NULL : failure;
}

/// libjpeg's error manager, with the way back out of a failed decode.
typedef struct {
    struct jpeg_error_mgr manager;
    jmp_buf escape;
} Errors;

// libjpeg's default ends the process; this returns to cjpeg_decode's setjmp, which cleans up.
static void escape(j_common_ptr info) { longjmp(((Errors *)info->err)->escape, 1); }

// libjpeg's default prints warnings to stderr.
static void ignore(j_common_ptr info, int level) {
    (void)info;
    (void)level;
}

// As libgd turns CMYK into RGB: no ink profile, each colour darkened by the black. Adobe's files hold
// the inks inverted.
static int32_t rgb_from_cmyk(const JSAMPLE *ink, int inverted) {
    int c = ink[0], m = ink[1], y = ink[2], k = ink[3];
    if (inverted) {
        c = 255 - c;
        m = 255 - m;
        y = 255 - y;
        k = 255 - k;
    }
    return (255 - c) * (255 - k) / 255 << 16 | (255 - m) * (255 - k) / 255 << 8 | (255 - y) * (255 - k) / 255;
}

int cjpeg_decode(const uint8_t *bytes, size_t count, int denominator, int32_t *const *rows, int width, int height) {
    if (cjpeg_open() || (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8)) return 0;
    struct jpeg_decompress_struct info;
    Errors errors;
    memset(&info, 0, sizeof info);
    info.err = jpeg.stdError(&errors.manager);
    errors.manager.error_exit = escape;
    errors.manager.emit_message = ignore;
    if (setjmp(errors.escape)) {
        jpeg.destroyDecompress(&info);
        return 0;
    }
    jpeg.createDecompress(&info, JPEG_LIB_VERSION, sizeof info);
    jpeg.memorySource(&info, bytes, (unsigned long)count);
    jpeg.readHeader(&info, TRUE);
    info.scale_num = 1;
    info.scale_denom = (unsigned int)denominator;
    int cmyk = info.jpeg_color_space == JCS_CMYK || info.jpeg_color_space == JCS_YCCK;
    // Four bytes a pixel either way, so that each row is decoded into its own place in the image.
    info.out_color_space = cmyk ? JCS_CMYK : GD_PIXEL_LAYOUT;
    jpeg.startDecompress(&info);
    if ((int)info.output_width != width || (int)info.output_height != height || info.output_components != 4) {
        jpeg.destroyDecompress(&info);
        return 0;
    }
    while (info.output_scanline < info.output_height) {
        int32_t *row = rows[info.output_scanline];
        JSAMPROW samples = (JSAMPROW)row;
        if (jpeg.readScanlines(&info, &samples, 1) != 1) {
            jpeg.destroyDecompress(&info);
            return 0;
        }
        for (int x = 0; x < width; x++) {
            row[x] = cmyk ? rgb_from_cmyk(samples + 4 * x, info.saw_Adobe_marker) : row[x] & 0x00FFFFFF;
        }
    }
    jpeg.finishDecompress(&info);
    jpeg.destroyDecompress(&info);
    return 1;
}
