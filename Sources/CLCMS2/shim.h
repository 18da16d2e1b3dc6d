#ifndef FLIPBOOK_CLCMS2_SHIM_H
#define FLIPBOOK_CLCMS2_SHIM_H

// Little CMS 2.14 (Debian 12): ICC profiles opened from memory or built from primaries and curves,
// and transforms between them.
#include <lcms2.h>

// lcms2's pixel-format constants (TYPE_RGB_8 …) are built from function-like macros, which Swift
// does not import: each is a function here.
static inline cmsUInt32Number flipbook_lcms_rgb8(void) { return TYPE_RGB_8; }
static inline cmsUInt32Number flipbook_lcms_rgba8(void) { return TYPE_RGBA_8; }
static inline cmsUInt32Number flipbook_lcms_bgra8(void) { return TYPE_BGRA_8; }
static inline cmsUInt32Number flipbook_lcms_rgb16(void) { return TYPE_RGB_16; }
static inline cmsUInt32Number flipbook_lcms_rgba16(void) { return TYPE_RGBA_16; }
// Adobe's inverted CMYK, as CMYK JPEGs store it (255 means no ink).
static inline cmsUInt32Number flipbook_lcms_cmyk8_inverted(void) { return TYPE_CMYK_8_REV; }
// Grey read from the first byte of each RGB pixel (two extra bytes skipped), for a grey profile.
static inline cmsUInt32Number flipbook_lcms_grey_in_rgb8(void) {
    return COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | BYTES_SH(1) | EXTRA_SH(2);
}

#endif
