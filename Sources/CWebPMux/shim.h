#ifndef FLIPBOOK_CWEBPMUX_SHIM_H
#define FLIPBOOK_CWEBPMUX_SHIM_H

// libwebpmux 1.2 (Debian 12): the animation encoder (WebPAnimEncoderNew, WebPAnimEncoderAdd,
// WebPAnimEncoderAssemble; its options and WebPConfig initialised by static inline functions over
// the *Internal ones), and WebPPictureImportRGBA from the encoder's header.
#include <webp/encode.h>
#include <webp/mux.h>

#endif
