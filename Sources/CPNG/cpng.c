#include "cpng.h"

#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <png.h>

/// The libpng functions the encoder calls, with libpng's own signatures.
static struct {
    png_structp (*createWriteStruct)(png_const_charp version, png_voidp errorPointer, png_error_ptr error,
                                     png_error_ptr warning);
    png_infop (*createInfoStruct)(png_const_structrp png);
    void (*destroyWriteStruct)(png_structpp png, png_infopp info);
    void (*setWriteFunction)(png_structrp png, png_voidp ioPointer, png_rw_ptr write, png_flush_ptr flush);
    png_voidp (*ioPointer)(png_const_structrp png);
    png_voidp (*errorPointer)(png_const_structrp png);
    void (*setCompressionLevel)(png_structrp png, int level);
    void (*setFilter)(png_structrp png, int method, int filters);
    void (*setHeader)(png_const_structrp png, png_inforp info, png_uint_32 width, png_uint_32 height, int bitDepth,
                      int colorType, int interlace, int compression, int filter);
    void (*writeInfo)(png_structrp png, png_const_inforp info);
    void (*writeRow)(png_structrp png, png_const_bytep row);
    void (*writeEnd)(png_structrp png, png_inforp info);
} png;
static int opened = 0;
static char failure[512];
static pthread_once_t once = PTHREAD_ONCE_INIT;

// Sets `field` to libpng's `name`, or records the failure.
#define RESOLVE(field, name)                                                                  \
    do {                                                                                      \
        *(void **)(&png.field) = dlsym(library, name);                                        \
        if (!png.field) {                                                                     \
            snprintf(failure, sizeof failure, "libpng has no %s: %s", name, dlerror());       \
            return;                                                                           \
        }                                                                                     \
    } while (0)

static void open_libpng(void) {
    // The soname of Debian 12's libpng16-16, whose -dev package has the header this is built with.
    void *library = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
    RESOLVE(createWriteStruct, "png_create_write_struct");
    RESOLVE(createInfoStruct, "png_create_info_struct");
    RESOLVE(destroyWriteStruct, "png_destroy_write_struct");
    RESOLVE(setWriteFunction, "png_set_write_fn");
    RESOLVE(ioPointer, "png_get_io_ptr");
    RESOLVE(errorPointer, "png_get_error_ptr");
    RESOLVE(setCompressionLevel, "png_set_compression_level");
    RESOLVE(setFilter, "png_set_filter");
    RESOLVE(setHeader, "png_set_IHDR");
    RESOLVE(writeInfo, "png_write_info");
    RESOLVE(writeRow, "png_write_row");
    RESOLVE(writeEnd, "png_write_end");
    opened = 1;
}

const char *cpng_open(void) {
    pthread_once(&once, open_libpng);
    return opened ? NULL : failure;
}

/// The bytes written so far.
typedef struct {
    uint8_t *bytes;
    size_t count;
    size_t capacity;
} Output;

/// Where a failed encode goes back to: libpng's error function must not return.
typedef struct {
    jmp_buf escape;
} Errors;

// libpng's error function: back to cpng_encode's setjmp, which cleans up.
static void escape(png_structp writer, png_const_charp message) {
    (void)message;
    longjmp(((Errors *)png.errorPointer(writer))->escape, 1);
}

// libpng's warning function: its default prints to stderr.
static void ignore(png_structp writer, png_const_charp message) {
    (void)writer;
    (void)message;
}

// libpng's write function: appends to the Output, growing it by doubling.
static void append(png_structp writer, png_bytep data, png_size_t count) {
    Output *output = png.ioPointer(writer);
    if (output->count + count > output->capacity) {
        size_t capacity = output->capacity * 2 > output->count + count ? output->capacity * 2 : output->count + count;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (!grown) escape(writer, "out of memory");
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->count, data, count);
    output->count += count;
}

// libpng's flush function: nothing is buffered.
static void flush(png_structp writer) { (void)writer; }

uint8_t *cpng_encode(int32_t *const *rows, int width, int height, int alpha, int level, size_t *size) {
    if (cpng_open()) return NULL;
    int channels = alpha ? 4 : 3;
    Errors errors;
    Output *output = calloc(1, sizeof(Output));
    uint8_t *row = malloc((size_t)width * (size_t)channels);
    // Set after setjmp and read after longjmp, so kept in memory.
    png_structp volatile writer = NULL;
    png_infop volatile info = NULL;
    if (setjmp(errors.escape)) {
        png_structp failedWriter = writer;
        png_infop failedInfo = info;
        if (failedWriter) png.destroyWriteStruct(&failedWriter, &failedInfo);
        free(row);
        if (output) free(output->bytes);
        free(output);
        return NULL;
    }
    if (!output || !row) longjmp(errors.escape, 1);
    writer = png.createWriteStruct(PNG_LIBPNG_VER_STRING, &errors, escape, ignore);
    if (!writer) longjmp(errors.escape, 1);
    info = png.createInfoStruct(writer);
    if (!info) longjmp(errors.escape, 1);
    png.setWriteFunction(writer, output, append, flush);
    png.setCompressionLevel(writer, level);
    png.setFilter(writer, PNG_FILTER_TYPE_BASE, PNG_FAST_FILTERS);
    png.setHeader(writer, info, (png_uint_32)width, (png_uint_32)height, 8,
                  alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                  PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png.writeInfo(writer, info);
    for (int y = 0; y < height; y++) {
        uint8_t *out = row;
        for (int x = 0; x < width; x++) {
            int32_t pixel = rows[y][x];
            *out++ = (uint8_t)(pixel >> 16);
            *out++ = (uint8_t)(pixel >> 8);
            *out++ = (uint8_t)pixel;
            if (alpha) {
                int transparency = (pixel >> 24) & 0x7F;
                *out++ = (uint8_t)(255 - ((transparency << 1) + (transparency >> 6)));
            }
        }
        png.writeRow(writer, row);
    }
    png.writeEnd(writer, info);
    png_structp doneWriter = writer;
    png_infop doneInfo = info;
    png.destroyWriteStruct(&doneWriter, &doneInfo);
    free(row);
    uint8_t *bytes = output->bytes;
    *size = output->count;
    free(output);
    return bytes;
}
