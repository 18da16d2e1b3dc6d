#include "flipbook_pixels.h"

#include <string.h>

// JPEG's Y'CbCr planes (full-range BT.601, as JFIF defines them) to the movie's 4:2:0 planes, as
// one 3x3 matrix on (Y', Cb - 128, Cr - 128) in 16.16 fixed point, never through RGB.
//
// Chroma at a luma position: the co-sited (nearest) chroma sample, the one of the luma pixel's own
// block (4:2:0: its 2x2 block; 4:2:2: its pair; 4:4:4: its own). That is what a decoder with
// nearest upsampling hands the RGB path, so the luma of both paths agree; a bilinear estimate would
// cost three more reads a pixel for a correction that only matters at chroma edges, where the luma
// term of a chroma difference is small (at most 0.19 x Cr for BT.601 -> BT.709).
// Chroma out: the mean of the block's four lumas and of the chroma samples the block holds (one for
// 4:2:0, two for 4:2:2, four for 4:4:4), as the RGB path takes the mean of a 2x2 block of RGB.
//
// Rounding: every output is (sum + half) >> shift with an arithmetic shift, so halves round up
// (towards +infinity), then clamped to 0...255. The -128 of Cb and Cr is folded into the constant.

#if defined(__x86_64__)
static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

static inline __attribute__((always_inline)) uint8_t clamp_to_byte(int32_t value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

// One pair of luma rows and the chroma rows they use (`cb_top`/`cb_bottom` are the same row when
// chroma has half the height) to two luma rows and one row of each output chroma plane. `wide`
// (chroma as wide as luma) is a constant in each inlined copy, so each copy is a plain loop.
static inline __attribute__((always_inline)) void convert_row_pair(
    const uint8_t *y_top, const uint8_t *y_bottom, const uint8_t *cb_top, const uint8_t *cb_bottom,
    const uint8_t *cr_top, const uint8_t *cr_bottom, int width, const int wide,
    const flipbook_ycbcr_coefficients *c, uint8_t *restrict out_top, uint8_t *restrict out_bottom,
    uint8_t *restrict out_cb, uint8_t *restrict out_cr) {
    const int32_t yy = c->y_y, ycb = c->y_cb, ycr = c->y_cr;
    const int32_t luma_round = (c->luma_offset << 16) + (1 << 15) - 128 * (ycb + ycr);
    for (int x = 0; x < width / 2; x++) {
        const int left = 2 * x, right = 2 * x + 1;
        const int32_t u0 = cb_top[wide ? left : x], v0 = cr_top[wide ? left : x];
        const int32_t u1 = cb_top[wide ? right : x], v1 = cr_top[wide ? right : x];
        out_top[left] = clamp_to_byte((yy * y_top[left] + ycb * u0 + ycr * v0 + luma_round) >> 16);
        out_top[right] = clamp_to_byte((yy * y_top[right] + ycb * u1 + ycr * v1 + luma_round) >> 16);
    }
    for (int x = 0; x < width / 2; x++) {
        const int left = 2 * x, right = 2 * x + 1;
        const int32_t u0 = cb_bottom[wide ? left : x], v0 = cr_bottom[wide ? left : x];
        const int32_t u1 = cb_bottom[wide ? right : x], v1 = cr_bottom[wide ? right : x];
        out_bottom[left] = clamp_to_byte((yy * y_bottom[left] + ycb * u0 + ycr * v0 + luma_round) >> 16);
        out_bottom[right] = clamp_to_byte((yy * y_bottom[right] + ycb * u1 + ycr * v1 + luma_round) >> 16);
    }
    // Sums of four lumas and four co-sited chroma samples: the means' scale is folded into >> 18.
    const int32_t uy = c->cb_y, ucb = c->cb_cb, ucr = c->cb_cr;
    const int32_t vy = c->cr_y, vcb = c->cr_cb, vcr = c->cr_cr;
    const int32_t cb_round = (128 << 18) + (1 << 17) - 512 * (ucb + ucr);
    const int32_t cr_round = (128 << 18) + (1 << 17) - 512 * (vcb + vcr);
    for (int x = 0; x < width / 2; x++) {
        const int left = 2 * x, right = 2 * x + 1;
        const int32_t luma = y_top[left] + y_top[right] + y_bottom[left] + y_bottom[right];
        const int32_t u = wide ? cb_top[left] + cb_top[right] + cb_bottom[left] + cb_bottom[right]
                               : 2 * (cb_top[x] + cb_bottom[x]);
        const int32_t v = wide ? cr_top[left] + cr_top[right] + cr_bottom[left] + cr_bottom[right]
                               : 2 * (cr_top[x] + cr_bottom[x]);
        out_cb[x] = clamp_to_byte((uy * luma + ucb * u + ucr * v + cb_round) >> 18);
        out_cr[x] = clamp_to_byte((vy * luma + vcb * u + vcr * v + cr_round) >> 18);
    }
}

static inline __attribute__((always_inline)) void convert_planes(
    const uint8_t *luma, size_t luma_stride, const uint8_t *cb, const uint8_t *cr, size_t chroma_stride, int width,
    int height, const int wide, const int tall, const flipbook_ycbcr_coefficients *c, uint8_t *out_luma,
    uint8_t *out_cb, uint8_t *out_cr) {
    for (int row = 0; row < height / 2; row++) {
        const uint8_t *y_top = luma + (size_t)(2 * row) * luma_stride;
        const size_t top = (size_t)(tall ? 2 * row : row) * chroma_stride;
        const size_t bottom = tall ? top + chroma_stride : top;
        uint8_t *out_top = out_luma + (size_t)(2 * row) * (size_t)width;
        const size_t out_chroma = (size_t)row * (size_t)(width / 2);
        convert_row_pair(
            y_top, y_top + luma_stride, cb + top, cb + bottom, cr + top, cr + bottom, width, wide, c, out_top,
            out_top + width, out_cb + out_chroma, out_cr + out_chroma);
    }
}

#define DEFINE_CONVERTER(name, attributes)                                                            \
    attributes static void name(                                                                      \
        const uint8_t *luma, size_t luma_stride, const uint8_t *cb, const uint8_t *cr,               \
        size_t chroma_stride, int width, int height, int wide, int tall,                             \
        const flipbook_ycbcr_coefficients *c, uint8_t *out_luma, uint8_t *out_cb, uint8_t *out_cr) { \
        if (wide) {                                                                                   \
            convert_planes(luma, luma_stride, cb, cr, chroma_stride, width, height, 1, tall, c,      \
                           out_luma, out_cb, out_cr);                                                 \
        } else {                                                                                      \
            convert_planes(luma, luma_stride, cb, cr, chroma_stride, width, height, 0, tall, c,      \
                           out_luma, out_cb, out_cr);                                                 \
        }                                                                                             \
    }

DEFINE_CONVERTER(convert_baseline, )
#if defined(__x86_64__)
DEFINE_CONVERTER(convert_avx2, __attribute__((target("avx2"))))
#endif

static int is_identity(const flipbook_ycbcr_coefficients *c) {
    return c->y_y == 65536 && c->y_cb == 0 && c->y_cr == 0 && c->cb_y == 0 && c->cb_cb == 65536 && c->cb_cr == 0
        && c->cr_y == 0 && c->cr_cb == 0 && c->cr_cr == 65536 && c->luma_offset == 0;
}

static void copy_plane(const uint8_t *source, size_t stride, int width, int height, uint8_t *destination) {
    for (int row = 0; row < height; row++) {
        memcpy(destination + (size_t)row * (size_t)width, source + (size_t)row * stride, (size_t)width);
    }
}

void flipbook_ycbcr_to_yuv420(
    const uint8_t *luma, size_t luma_stride, const uint8_t *cb, const uint8_t *cr, size_t chroma_stride, int width,
    int height, int chroma_full_width, int chroma_full_height, const flipbook_ycbcr_coefficients *coefficients,
    uint8_t *out_luma, uint8_t *out_cb, uint8_t *out_cr) {
    const int wide = chroma_full_width != 0, tall = chroma_full_height != 0;
    if (!wide && !tall && is_identity(coefficients)) {
        // Full-range BT.601 4:2:0 in and out: the planes as they are (the arithmetic gives the same).
        copy_plane(luma, luma_stride, width, height, out_luma);
        copy_plane(cb, chroma_stride, width / 2, height / 2, out_cb);
        copy_plane(cr, chroma_stride, width / 2, height / 2, out_cr);
        return;
    }
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        convert_avx2(
            luma, luma_stride, cb, cr, chroma_stride, width, height, wide, tall, coefficients, out_luma, out_cb,
            out_cr);
        return;
    }
#endif
    convert_baseline(
        luma, luma_stride, cb, cr, chroma_stride, width, height, wide, tall, coefficients, out_luma, out_cb, out_cr);
}
