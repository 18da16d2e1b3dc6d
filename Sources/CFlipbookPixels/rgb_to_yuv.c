#include "flipbook_pixels.h"

// The plain RGB to Y'CbCr loop for any chroma sampling and an optional alpha plane, with the same
// 16.16 arithmetic and rounding as rgb_to_yuv420.c, so 1, 1 gives that file's values exactly.

static inline uint8_t clamp_byte(int32_t value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }

int flipbook_rgb_to_yuv(
    const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout, int chroma_shift_x,
    int chroma_shift_y, const flipbook_yuv_coefficients *c, uint8_t *luma, uint8_t *cb, uint8_t *cr,
    uint8_t *alpha) {
    const int bpp = layout == FLIPBOOK_LAYOUT_RGB ? 3 : 4;
    const int red = layout == FLIPBOOK_LAYOUT_BGRA ? 2 : 0;
    const int blue = layout == FLIPBOOK_LAYOUT_BGRA ? 0 : 2;
    const int32_t luma_round = (c->luma_offset << 16) + (1 << 15);
    int opaque = 1;
    for (int y = 0; y < height; y++) {
        const uint8_t *row = source + (size_t)y * stride;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = row + (size_t)x * (size_t)bpp;
            luma[(size_t)y * (size_t)width + (size_t)x] =
                (uint8_t)((c->y_r * p[red] + c->y_g * p[1] + c->y_b * p[blue] + luma_round) >> 16);
            const uint8_t a = bpp == 4 ? p[3] : 255;
            opaque &= a == 255;
            if (alpha) alpha[(size_t)y * (size_t)width + (size_t)x] = a;
        }
    }
    const int block_width = 1 << chroma_shift_x, block_height = 1 << chroma_shift_y;
    const int chroma_width = width >> chroma_shift_x, chroma_height = height >> chroma_shift_y;
    const int shift = 16 + chroma_shift_x + chroma_shift_y;
    const int32_t chroma_round = (128 << shift) + (1 << (shift - 1));
    for (int cy = 0; cy < chroma_height; cy++) {
        for (int cx = 0; cx < chroma_width; cx++) {
            int32_t r = 0, g = 0, b = 0;
            for (int dy = 0; dy < block_height; dy++) {
                const uint8_t *row = source + (size_t)(cy * block_height + dy) * stride;
                for (int dx = 0; dx < block_width; dx++) {
                    const uint8_t *p = row + (size_t)(cx * block_width + dx) * (size_t)bpp;
                    r += p[red];
                    g += p[1];
                    b += p[blue];
                }
            }
            const size_t at = (size_t)cy * (size_t)chroma_width + (size_t)cx;
            cb[at] = clamp_byte((c->cb_r * r + c->cb_g * g + c->cb_b * b + chroma_round) >> shift);
            cr[at] = clamp_byte((c->cr_r * r + c->cr_g * g + c->cr_b * b + chroma_round) >> shift);
        }
    }
    return opaque;
}
