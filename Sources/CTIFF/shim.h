#ifndef FLIPBOOK_CTIFF_SHIM_H
#define FLIPBOOK_CTIFF_SHIM_H

// libtiff 4.5 (Debian 12): TIFFClientOpenExt with open options (a per-file error handler and a
// bound on any single allocation), strip and tile reads, and the RGBA reader for every other kind.
#include <tiffio.h>

#endif
