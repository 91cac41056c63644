#ifndef CGD_SHIM_H
#define CGD_SHIM_H
// libgd: PNG and JPEG decoding and encoding, resampling, alpha compositing, and FreeType text.
#include <gd.h>
#endif
