#ifndef FLIPBOOK_CDEFLATE_SHIM_H
#define FLIPBOOK_CDEFLATE_SHIM_H

// libdeflate's whole-buffer zlib decompression and CRC-32, for the fast PNG path.
#include <libdeflate.h>

#endif
