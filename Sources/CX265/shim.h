#ifndef FLIPBOOK_CX265_SHIM_H
#define FLIPBOOK_CX265_SHIM_H

// libx265 3.5 (Debian 12, X265_BUILD 199). x265_api_get is a macro naming the build's versioned symbol,
// so it is wrapped here; the API table it returns holds every other function, for 8-bit (Main) or
// 10-bit (Main 10) encoding from the same library.
#include <x265.h>

static inline const x265_api *flipbook_x265_api_get(int bit_depth) { return x265_api_get(bit_depth); }

#endif
