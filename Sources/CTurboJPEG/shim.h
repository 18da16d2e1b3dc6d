#ifndef FLIPBOOK_CTURBOJPEG_SHIM_H
#define FLIPBOOK_CTURBOJPEG_SHIM_H

// TurboJPEG 2 API (libjpeg-turbo 2.1 in Debian 12): tjDecompressHeader3, tjDecompress2.
#include <turbojpeg.h>

#endif
