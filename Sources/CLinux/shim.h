#ifndef FLIPBOOK_CLINUX_SHIM_H
#define FLIPBOOK_CLINUX_SHIM_H

#include <malloc.h>

// mallopt and its M_* constants live in <malloc.h>, which Swift's Glibc module does not include.
static inline int flipbook_set_malloc_thresholds(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) && mallopt(M_TRIM_THRESHOLD, trim_threshold);
}

#endif
