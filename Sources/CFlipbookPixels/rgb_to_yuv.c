#include "flipbook_pixels.h"

// The plain RGB to Y'CbCr loops for any chroma sampling and an optional alpha plane, with the same
// 16.16 arithmetic and rounding as rgb_to_yuv420.c, so 1, 1 gives that file's values exactly: to 8-bit
// planes, and to 10-bit planes for codecs coded at 10 bits from 8-bit sources (ProRes), where the
// 16.16 weights give the exact value on the 8-bit scale and a 10-bit code is 4 times it, rounded
// once, so nothing is lost to an 8-bit rounding first.

static inline uint8_t clamp_byte(int32_t value) { return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value); }
static inline uint16_t clamp10(int32_t value) { return (uint16_t)(value < 0 ? 0 : value > 1023 ? 1023 : value); }

// Where a layout keeps its bytes: bytes a pixel, and the offsets of red and blue (green is 1).
typedef struct {
    int bpp, red, blue;
} pixel_bytes;

static inline pixel_bytes bytes_of(flipbook_pixel_layout layout) {
    return (pixel_bytes){
        .bpp = layout == FLIPBOOK_LAYOUT_RGB ? 3 : 4,
        .red = layout == FLIPBOOK_LAYOUT_BGRA ? 2 : 0,
        .blue = layout == FLIPBOOK_LAYOUT_BGRA ? 0 : 2,
    };
}

int flipbook_rgb_to_yuv(
    const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout, int chroma_shift_x,
    int chroma_shift_y, const flipbook_yuv_coefficients *c, uint8_t *luma, uint8_t *cb, uint8_t *cr,
    uint8_t *alpha) {
    const pixel_bytes pixel = bytes_of(layout);
    const int bpp = pixel.bpp, red = pixel.red, blue = pixel.blue;
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

void flipbook_rgb_to_yuv_p10(
    const uint8_t *source, size_t stride, int width, int height, flipbook_pixel_layout layout, int chroma_shift_x,
    int chroma_shift_y, const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb, uint16_t *cr,
    uint16_t *alpha) {
    const pixel_bytes pixel = bytes_of(layout);
    const int bpp = pixel.bpp, red = pixel.red, blue = pixel.blue;
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
