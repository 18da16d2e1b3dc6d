#ifndef FLIPBOOK_EXR_IMF_H
#define FLIPBOOK_EXR_IMF_H

// OpenEXR 3.1's C++ library (Imf) behind a C interface, for the compressions its C library, OpenEXRCore
// 3.1, does not decode (DWAA, DWAB): one part's channels read from a file in memory into float planes.
// Every call catches the library's exceptions and reports failure through its result.
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// Reads channels `names` (`count` of them) of part `part` of the OpenEXR file `bytes` into `planes`, one
// float plane a channel, each `widths[i]` x `heights[i]` samples (the data window over the channel's
// sampling `x_sampling[i]` x `y_sampling[i]`), rows from the window's top. Returns 0, or -1 with the
// library's reason in `error` (at most `error_size` bytes).
// `max_side` bounds every part's windows and tiles, as the library checks them while it reads the headers.
int flipbook_exr_imf_read(
    const uint8_t *bytes, uint64_t size, int part, const char *const *names, int count, float *const *planes,
    const int *widths, const int *x_sampling, const int *y_sampling, int max_side, char *error, size_t error_size);

#ifdef __cplusplus
}
#endif

#endif
