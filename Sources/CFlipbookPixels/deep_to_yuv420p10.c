#include "flipbook_pixels.h"

// 16-bit samples kept deep for a 10-bit movie: PNG's big-endian 16-bit grey or RGB made native RGB,
// and 16-bit RGB converted to 10-bit planar 4:2:0 with the 8-bit converter's 16.16 weights rescaled
// exactly (a 16-bit value v stands for the 8-bit value v / 257, a 10-bit code is 4 times an 8-bit one).

void flipbook_png16_to_rgb16(const uint8_t *samples, size_t count, int channels, uint16_t *out) {
    if (channels == 2) {
        for (size_t p = 0; p < count; p++) {
            const uint16_t v = (uint16_t)(samples[4 * p] << 8 | samples[4 * p + 1]);
            out[4 * p] = out[4 * p + 1] = out[4 * p + 2] = v;
            out[4 * p + 3] = (uint16_t)(samples[4 * p + 2] << 8 | samples[4 * p + 3]);
        }
        return;
    }
    if (channels == 1) {
        for (size_t p = 0; p < count; p++) {
            const uint16_t v = (uint16_t)(samples[2 * p] << 8 | samples[2 * p + 1]);
            out[3 * p] = out[3 * p + 1] = out[3 * p + 2] = v;
        }
        return;
    }
    // RGB or RGBA: each sample made native, in place.
    for (size_t i = 0; i < (size_t)channels * count; i++) out[i] = (uint16_t)(samples[2 * i] << 8 | samples[2 * i + 1]);
}

static inline __attribute__((always_inline)) uint16_t clamp10(int64_t value) {
    return (uint16_t)(value < 0 ? 0 : value > 1023 ? 1023 : value);
}

// Y10 = 4 * (w . rgb16 / 257) / 65536 + 4 * offset, rounded: one division by 257 * 16384.
static void deep_luma(const uint16_t *rgb, int width, int height, const flipbook_yuv_coefficients *c, uint16_t *luma) {
    const int64_t luma_divisor = 257LL * 16384;
    const int64_t luma_round = (int64_t)c->luma_offset * 4 * luma_divisor + luma_divisor / 2;
    for (int y = 0; y < height; y++) {
        const uint16_t *row = rgb + (size_t)y * (size_t)width * 3;
        uint16_t *out = luma + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            const int64_t r = row[3 * x], g = row[3 * x + 1], b = row[3 * x + 2];
            out[x] = clamp10((c->y_r * r + c->y_g * g + c->y_b * b + luma_round) / luma_divisor);
        }
    }
}

void flipbook_rgb16_to_yuv420p10(
    const uint16_t *rgb, int width, int height, const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb,
    uint16_t *cr) {
    deep_luma(rgb, width, height, c, luma);
    // Cb10 = 4 * (w . (sum of 4 pixels) / 4 / 257) / 65536 + 512: one division by 257 * 65536.
    const int64_t chroma_divisor = 257LL * 65536;
    const int64_t chroma_round = 512 * chroma_divisor + chroma_divisor / 2;
    for (int y = 0; y < height / 2; y++) {
        const uint16_t *top = rgb + (size_t)(2 * y) * (size_t)width * 3;
        const uint16_t *bottom = top + (size_t)width * 3;
        uint16_t *u = cb + (size_t)y * (size_t)(width / 2), *v = cr + (size_t)y * (size_t)(width / 2);
        for (int x = 0; x < width / 2; x++) {
            const uint16_t *p = top + 6 * x, *q = bottom + 6 * x;
            const int64_t r = (int64_t)p[0] + p[3] + q[0] + q[3];
            const int64_t g = (int64_t)p[1] + p[4] + q[1] + q[4];
            const int64_t b = (int64_t)p[2] + p[5] + q[2] + q[5];
            u[x] = clamp10((c->cb_r * r + c->cb_g * g + c->cb_b * b + chroma_round) / chroma_divisor);
            v[x] = clamp10((c->cr_r * r + c->cr_g * g + c->cr_b * b + chroma_round) / chroma_divisor);
        }
    }
}

// Cb10 = 4 * (w . (sum of n pixels) / n / 257) / 65536 + 512, n the block's pixels: one division.
// `channels` is 3 (RGB) or 4 (RGBA, alpha skipped); the compiler makes a loop for each.
static inline __attribute__((always_inline)) void deep_chroma(
    const uint16_t *rgb, int channels, int width, int height, int chroma_shift_x, int chroma_shift_y,
    const flipbook_yuv_coefficients *c, uint16_t *cb, uint16_t *cr) {
    const int block_width = 1 << chroma_shift_x, block_height = 1 << chroma_shift_y;
    const int64_t chroma_divisor = 257LL * 16384 * block_width * block_height;
    const int64_t chroma_round = 512 * chroma_divisor + chroma_divisor / 2;
    const int chroma_width = width >> chroma_shift_x, chroma_height = height >> chroma_shift_y;
    for (int cy = 0; cy < chroma_height; cy++) {
        for (int cx = 0; cx < chroma_width; cx++) {
            int64_t r = 0, g = 0, b = 0;
            for (int dy = 0; dy < block_height; dy++) {
                const uint16_t *p = rgb + ((size_t)(cy * block_height + dy) * (size_t)width + (size_t)(cx * block_width))
                                              * (size_t)channels;
                for (int dx = 0; dx < block_width; dx++) {
                    r += p[channels * dx];
                    g += p[channels * dx + 1];
                    b += p[channels * dx + 2];
                }
            }
            const size_t at = (size_t)cy * (size_t)chroma_width + (size_t)cx;
            cb[at] = clamp10((c->cb_r * r + c->cb_g * g + c->cb_b * b + chroma_round) / chroma_divisor);
            cr[at] = clamp10((c->cr_r * r + c->cr_g * g + c->cr_b * b + chroma_round) / chroma_divisor);
        }
    }
}

void flipbook_rgb16_to_yuv_p10(
    const uint16_t *rgb, int width, int height, int chroma_shift_x, int chroma_shift_y,
    const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb, uint16_t *cr) {
    deep_luma(rgb, width, height, c, luma);
    deep_chroma(rgb, 3, width, height, chroma_shift_x, chroma_shift_y, c, cb, cr);
}

void flipbook_rgba16_to_yuv_p10(
    const uint16_t *rgba, int width, int height, int chroma_shift_x, int chroma_shift_y,
    const flipbook_yuv_coefficients *c, uint16_t *luma, uint16_t *cb, uint16_t *cr, uint16_t *alpha) {
    const int64_t luma_divisor = 257LL * 16384;
    const int64_t luma_round = (int64_t)c->luma_offset * 4 * luma_divisor + luma_divisor / 2;
    for (size_t i = 0; i < (size_t)width * (size_t)height; i++) {
        const uint16_t *p = rgba + 4 * i;
        const int64_t r = p[0], g = p[1], b = p[2];
        luma[i] = clamp10((c->y_r * r + c->y_g * g + c->y_b * b + luma_round) / luma_divisor);
        // a * 1023 / 65535, rounded: 0 stays 0 and 65535 becomes 1023.
        alpha[i] = (uint16_t)(((uint32_t)p[3] * 1023 + 32767) / 65535);
    }
    deep_chroma(rgba, 4, width, height, chroma_shift_x, chroma_shift_y, c, cb, cr);
}
