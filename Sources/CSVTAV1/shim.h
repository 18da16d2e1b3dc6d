#ifndef FLIPBOOK_CSVTAV1_SHIM_H
#define FLIPBOOK_CSVTAV1_SHIM_H

// SVT-AV1 1.4 (Debian 12, libsvtav1enc-dev, pkg-config SvtAv1Enc): the encoder API. Nothing needs
// wrapping; the header is named through its folder so no -I/usr/include/svt-av1 is needed (its own
// quoted includes resolve beside it).
#include <svt-av1/EbSvtAv1Enc.h>

#endif
