#ifndef CLZ4_SHIM_H
#define CLZ4_SHIM_H
// The block API, the high-compression API and the frame API of liblz4.
#include <lz4.h>
#include <lz4hc.h>
#include <lz4frame.h>
#endif
