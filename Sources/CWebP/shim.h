#ifndef FLIPBOOK_CWEBP_SHIM_H
#define FLIPBOOK_CWEBP_SHIM_H

// libwebp 1.2 (Debian 12): WebPGetFeatures (a static inline over WebPGetFeaturesInternal), and the
// one-call decoders into a caller's buffers, WebPDecodeRGBAInto, WebPDecodeRGBInto and WebPDecodeYUVInto.
#include <webp/decode.h>

#endif
