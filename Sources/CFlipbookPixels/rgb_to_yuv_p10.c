#include "flipbook_pixels.h"

#include <string.h>

// 8-bit RGB straight to 10-bit planar Y'CbCr of any chroma sampling, for codecs coded at 10 bits from
// 8-bit sources (ProRes): the 8-bit converter's 16.16 weights give the exact value on the 8-bit scale,
// and a 10-bit code is 4 times it, rounded once, so nothing is lost to an 8-bit rounding first.
//
// As in rgb_to_yuv420.c, the loop is inlined with a constant layout and chroma block, so the compiler
// sees a plain loop for each and vectorises it; the AVX2 copies are chosen at run time.

#if defined(__x86_64__)
static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE uint16_t clamp10(int32_t value) { return (uint16_t)(value < 0 ? 0 : value > 1023 ? 1023 : value); }

// Channel `offset` of the pixel at `at`: 4-byte pixels are read as one 32-bit word and split by
// shifts, which vectorises far better than byte loads.
ALWAYS_INLINE int32_t channel(const uint8_t *at, const int bpp, const int offset) {
    if (bpp == 3) return at[offset];
    uint32_t word;
    memcpy(&word, at, 4);
    return (int32_t)((word >> (8 * offset)) & 0xFF);
}

ALWAYS_INLINE void convert_p10(
    const uint8_t *source, size_t stride, int width, int height, const flipbook_pixel_layout layout,
    const int shift_x, const int shift_y, const flipbook_yuv_coefficients *c, uint16_t *restrict luma,
    uint16_t *restrict cb, uint16_t *restrict cr, uint16_t *restrict alpha) {
    const int bpp = layout == FLIPBOOK_LAYOUT_RGB ? 3 : 4;
    const int red = layout == FLIPBOOK_LAYOUT_BGRA ? 2 : 0;
    const int blue = layout == FLIPBOOK_LAYOUT_BGRA ? 0 : 2;
    const int32_t y_r = c->y_r, y_g = c->y_g, y_b = c->y_b;
    // Y10 = 4 * (w . rgb / 65536 + offset), rounded: (w . rgb + offset * 65536 + 8192) >> 14.
    const int32_t luma_round = (c->luma_offset << 16) + (1 << 13);
    for (int y = 0; y < height; y++) {
        const uint8_t *row = source + (size_t)y * stride;
        uint16_t *out = luma + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            const uint8_t *p = row + (size_t)x * (size_t)bpp;
            out[x] = clamp10(
                (y_r * channel(p, bpp, red) + y_g * channel(p, bpp, 1) + y_b * channel(p, bpp, blue) + luma_round)
                >> 14);
        }
        if (alpha) {
            uint16_t *a = alpha + (size_t)y * (size_t)width;
            // a * 1023 / 255, rounded: 0 stays 0 and 255 becomes 1023.
            for (int x = 0; x < width; x++) {
                const int32_t value = bpp == 4 ? channel(row + (size_t)x * 4, 4, 3) : 255;
                a[x] = (uint16_t)((value * 1023 + 127) / 255);
            }
        }
    }
    // Cb10 = 4 * (w . (sum of n pixels) / n / 65536 + 128), rounded: one shift by 14 + log2 n.
    const int32_t cb_r = c->cb_r, cb_g = c->cb_g, cb_b = c->cb_b, cr_r = c->cr_r, cr_g = c->cr_g, cr_b = c->cr_b;
    const int block_width = 1 << shift_x, block_height = 1 << shift_y;
    const int chroma_width = width >> shift_x, chroma_height = height >> shift_y;
    const int shift = 14 + shift_x + shift_y;
    const int32_t chroma_round = (128 << (shift + 2)) + (1 << (shift - 1));
    for (int cy = 0; cy < chroma_height; cy++) {
        uint16_t *u = cb + (size_t)cy * (size_t)chroma_width, *v = cr + (size_t)cy * (size_t)chroma_width;
        const uint8_t *top = source + (size_t)(cy * block_height) * stride;
        for (int cx = 0; cx < chroma_width; cx++) {
            int32_t r = 0, g = 0, b = 0;
            for (int dy = 0; dy < block_height; dy++) {
                const uint8_t *p = top + (size_t)dy * stride + (size_t)(cx * block_width) * (size_t)bpp;
                for (int dx = 0; dx < block_width; dx++) {
                    r += channel(p + dx * bpp, bpp, red);
                    g += channel(p + dx * bpp, bpp, 1);
                    b += channel(p + dx * bpp, bpp, blue);
                }
            }
            u[cx] = clamp10((cb_r * r + cb_g * g + cb_b * b + chroma_round) >> shift);
            v[cx] = clamp10((cr_r * r + cr_g * g + cr_b * b + chroma_round) >> shift);
        }
    }
}

// One converter per layout and chroma block, each a constant-folded copy of the loop above.
#define CONVERT_BLOCK(layout, sx, sy)                                                                   \
    convert_p10(source, stride, width, height, layout, sx, sy, c, luma, cb, cr, alpha)
#define CONVERT_LAYOUT(sx, sy)                                                                          \
    switch (layout) {                                                                                   \
    case FLIPBOOK_LAYOUT_RGBA: CONVERT_BLOCK(FLIPBOOK_LAYOUT_RGBA, sx, sy); break;                      \
    case FLIPBOOK_LAYOUT_BGRA: CONVERT_BLOCK(FLIPBOOK_LAYOUT_BGRA, sx, sy); break;                      \
    default: CONVERT_BLOCK(FLIPBOOK_LAYOUT_RGB, sx, sy); break;                                         \
    }
#define DEFINE_P10_CONVERTER(name, attributes)                                                          \
    attributes static void name(                                                                        \
        const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout,      \
        int shift_x, int shift_y, const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb,     \
        uint16_t *cr, uint16_t *alpha) {                                                                \
        if (shift_x == 0 && shift_y == 0) {                                                             \
            CONVERT_LAYOUT(0, 0)                                                                        \
        } else if (shift_y == 0) {                                                                      \
            CONVERT_LAYOUT(1, 0)                                                                        \
        } else {                                                                                        \
            CONVERT_LAYOUT(1, 1)                                                                        \
        }                                                                                               \
    }

DEFINE_P10_CONVERTER(convert_p10_baseline, )
#if defined(__x86_64__)
DEFINE_P10_CONVERTER(convert_p10_avx2, __attribute__((target("avx2"))))
#endif

void flipbook_rgb_to_yuv_p10(
    const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout, int chroma_shift_x,
    int chroma_shift_y, const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb, uint16_t *cr,
    uint16_t *alpha) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        convert_p10_avx2(source, stride, width, height, layout, chroma_shift_x, chroma_shift_y, c, luma, cb, cr, alpha);
        return;
    }
#endif
    convert_p10_baseline(source, stride, width, height, layout, chroma_shift_x, chroma_shift_y, c, luma, cb, cr, alpha);
}
