#ifndef FLIPBOOK_CLIBRAW_SHIM_H
#define FLIPBOOK_CLIBRAW_SHIM_H

// LibRaw 0.20 (Debian 12), its reentrant build (libraw_r), through its C API: camera raw files opened
// from memory (libraw_open_buffer), unpacked, developed (libraw_dcraw_process) to 16-bit linear camera
// RGB with the white balance and size asked for, and handed over (libraw_dcraw_make_mem_image); the
// embedded preview through libraw_unpack_thumb.
#include <libraw/libraw.h>

#endif
