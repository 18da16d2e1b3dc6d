#ifndef FLIPBOOK_CWEBPDEMUX_SHIM_H
#define FLIPBOOK_CWEBPDEMUX_SHIM_H

// libwebpdemux 1.2 (Debian 12): WebPDemux (a static inline over WebPDemuxInternal) for the canvas and
// frame count, and WebPAnimDecoder, which blends and disposes an animation's frames onto its canvas.
#include <webp/demux.h>

#endif
