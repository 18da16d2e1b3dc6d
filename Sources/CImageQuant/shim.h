#ifndef FLIPBOOK_CIMAGEQUANT_SHIM_H
#define FLIPBOOK_CIMAGEQUANT_SHIM_H

// libimagequant 2.17 (Debian 12): palettes for GIF frames (liq_image_quantize), remapping with
// dithering onto the previous frame as background (liq_image_set_background), and a fixed
// transparent colour for pixels that do not change (liq_image_add_fixed_color).
#include <libimagequant.h>

#endif
