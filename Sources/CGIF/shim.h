#ifndef FLIPBOOK_CGIF_SHIM_H
#define FLIPBOOK_CGIF_SHIM_H

// giflib 5.2 (Debian 12, no pkg-config file): the record-by-record reader (DGifOpen with a read
// callback, DGifGetRecordType, DGifGetImageDesc, DGifGetLine, DGifGetExtension) and GifErrorString.
#include <gif_lib.h>

#endif
