#include "flipbook_pixels.h"

// 8-bit RGB straight to 10-bit planar Y'CbCr of any chroma sampling, for codecs coded at 10 bits
// from 8-bit sources (ProRes): the 8-bit converter's 16.16 weights give the exact value on the 8-bit
// scale, and a 10-bit code is 4 times it, rounded once, so nothing is lost to an 8-bit rounding first.

static inline uint16_t clamp10(int32_t value) { return (uint16_t)(value < 0 ? 0 : value > 1023 ? 1023 : value); }

void flipbook_rgb_to_yuv_p10(
    const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout, int chroma_shift_x,
    int chroma_shift_y, const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb, uint16_t *cr,
    uint16_t *alpha) {
    const int bpp = layout == FLIPBOOK_LAYOUT_RGB ? 3 : 4;
    const int red = layout == FLIPBOOK_LAYOUT_BGRA ? 2 : 0;
    const int blue = layout == FLIPBOOK_LAYOUT_BGRA ? 0 : 2;
    // Y10 = 4 * (w . rgb / 65536 + offset), rounded: (w . rgb + offset * 65536 + 8192) >> 14.
    const int32_t luma_round = (c->luma_offset << 16) + (1 << 13);
    for (int y = 0; y < height; y++) {
        const uint8_t *row = source + (size_t)y * stride;
        uint16_t *out = luma + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = row + (size_t)x * (size_t)bpp;
            out[x] = clamp10((c->y_r * p[red] + c->y_g * p[1] + c->y_b * p[blue] + luma_round) >> 14);
        }
        if (alpha) {
            uint16_t *a = alpha + (size_t)y * (size_t)width;
            // a * 1023 / 255, rounded: 0 stays 0 and 255 becomes 1023.
            for (int x = 0; x < width; x++) {
                const int32_t value = bpp == 4 ? row[(size_t)x * 4 + 3] : 255;
                a[x] = (uint16_t)((value * 1023 + 127) / 255);
            }
        }
    }
    // Cb10 = 4 * (w . (sum of n pixels) / n / 65536 + 128), rounded: one shift by 14 + log2 n.
    const int block_width = 1 << chroma_shift_x, block_height = 1 << chroma_shift_y;
    const int chroma_width = width >> chroma_shift_x, chroma_height = height >> chroma_shift_y;
    const int shift = 14 + chroma_shift_x + chroma_shift_y;
    const int32_t chroma_round = (128 << (shift + 2)) + (1 << (shift - 1));
    for (int cy = 0; cy < chroma_height; cy++) {
        for (int cx = 0; cx < chroma_width; cx++) {
            int32_t r = 0, g = 0, b = 0;
            for (int dy = 0; dy < block_height; dy++) {
                const uint8_t *p = source + (size_t)(cy * block_height + dy) * stride
                                   + (size_t)(cx * block_width) * (size_t)bpp;
                for (int dx = 0; dx < block_width; dx++, p += bpp) {
                    r += p[red];
                    g += p[1];
                    b += p[blue];
                }
            }
            const size_t at = (size_t)cy * (size_t)chroma_width + (size_t)cx;
            cb[at] = clamp10((c->cb_r * r + c->cb_g * g + c->cb_b * b + chroma_round) >> shift);
            cr[at] = clamp10((c->cr_r * r + c->cr_g * g + c->cr_b * b + chroma_round) >> shift);
        }
    }
}
