#ifndef FLIPBOOK_CTURBOJPEG_SHIM_H
#define FLIPBOOK_CTURBOJPEG_SHIM_H

// TurboJPEG 2 API (libjpeg-turbo 2.1 in Debian 12): tjDecompressHeader3, tjDecompress2.
#include <turbojpeg.h>

// TurboJPEG 2 has no call that names its version; jconfig.h, from the same libjpeg-turbo -dev package,
// states it as a number (2001005 is 2.1.5).
#include <jconfig.h>

#endif
