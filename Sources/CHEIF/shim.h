#ifndef FLIPBOOK_CHEIF_SHIM_H
#define FLIPBOOK_CHEIF_SHIM_H

// libheif 1.15 (Debian 12): HEIC through libde265 and AVIF through dav1d, decoded to interleaved
// RGB(A) with the image's rotation, mirroring and colour (nclx) applied.
#include <libheif/heif.h>

#endif
