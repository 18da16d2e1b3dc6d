#include "flipbook_pixels.h"

#include <string.h>

// JPEG's Y'CbCr planes (full-range BT.601, as JFIF defines them) or a lossy WebP's (limited-range
// BT.601) to the movie's 4:2:0 planes, as one 3x3 matrix on (Y', Cb - 128, Cr - 128) and an offset in
// fixed point, never through RGB.
//
// Chroma at a luma position, for Y' out: interpolated bilinearly between the chroma samples around
// it, which JFIF sites at the centre of the pixels they cover (so 3/4 of the nearest sample and 1/4
// of the next one towards the pixel, in each halved direction; the edge sample repeated outside).
// That is the chroma every decoder (libjpeg's default "fancy" upsampling, players' bilinear) puts
// at the pixel, so Y' out carries the colour the viewer saw there; the nearest sample instead would
// move Y' by up to 0.19 x the chroma step at every chroma edge (BT.601 -> BT.709), a visible error
// on grain and fine colour detail, for three more reads a pixel.
// Chroma out: the mean of the block's four lumas and of the chroma samples the block holds (one for
// 4:2:0, two for 4:2:2, four for 4:4:4), as the RGB path takes the mean of a 2x2 block of RGB; the
// output chroma sample of 4:2:0 sits where the input one does, so no interpolation is needed there.
//
// Rounding: sums are exact integers (interpolated chroma x16, luma and chroma sums of four), each
// output is (sum + half) >> shift with an arithmetic shift, so halves round up (towards +infinity),
// then clamped to 0...255. The -128 of Cb and Cr is folded into the constants.

#if defined(__x86_64__)
static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

static inline __attribute__((always_inline)) uint8_t clamp_to_byte(int32_t value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

// The chroma of one component at each pixel of a luma row, x16: `near` is the chroma row of the
// pixel's block, `far` the next chroma row towards the pixel (`near` itself at the picture's edge).
// `mixed` holds `width / 2 + 2` values (chroma width + 2 when wide); `out` holds `width`.
static inline __attribute__((always_inline)) void interpolate_row(
    const uint8_t *near, const uint8_t *far, int width, const int wide, const int tall, int16_t *restrict mixed,
    int16_t *restrict out) {
    const int chroma_width = wide ? width : width / 2;
    // Vertically (x4), with the edge samples repeated on both sides.
    if (tall) {
        for (int x = 0; x < chroma_width; x++) mixed[x + 1] = (int16_t)(4 * near[x]);
    } else {
        for (int x = 0; x < chroma_width; x++) mixed[x + 1] = (int16_t)(3 * near[x] + far[x]);
    }
    mixed[0] = mixed[1];
    mixed[chroma_width + 1] = mixed[chroma_width];
    if (wide) {
        for (int x = 0; x < width; x++) out[x] = (int16_t)(4 * mixed[x + 1]);
        return;
    }
    // Horizontally (x4): left pixel 3/4 own + 1/4 left neighbour, right pixel 3/4 own + 1/4 right.
    for (int x = 0; x < chroma_width; x++) {
        out[2 * x] = (int16_t)(3 * mixed[x + 1] + mixed[x]);
        out[2 * x + 1] = (int16_t)(3 * mixed[x + 1] + mixed[x + 2]);
    }
}

// One luma row: Y' out from Y' and the interpolated chroma (x16) at each pixel.
static inline __attribute__((always_inline)) void convert_luma_row(
    const uint8_t *luma, const int16_t *cb, const int16_t *cr, int width, const flipbook_ycbcr_coefficients *c,
    uint8_t *restrict out) {
    const int32_t yy = c->y_y * 16, ycb = c->y_cb, ycr = c->y_cr;
    const int32_t round = c->luma_offset * 16 + (1 << 19) - 128 * 16 * (ycb + ycr);
    for (int x = 0; x < width; x++) out[x] = clamp_to_byte((yy * luma[x] + ycb * cb[x] + ycr * cr[x] + round) >> 20);
}

// One row of each output chroma plane from a pair of luma rows and the chroma rows they cover
// (`cb_top`/`cb_bottom` are the same row when chroma has half the height). `wide` (chroma as wide
// as luma) is a constant in each inlined copy, so each copy is a plain loop.
static inline __attribute__((always_inline)) void convert_chroma_row(
    const uint8_t *y_top, const uint8_t *y_bottom, const uint8_t *cb_top, const uint8_t *cb_bottom,
    const uint8_t *cr_top, const uint8_t *cr_bottom, int width, const int wide,
    const flipbook_ycbcr_coefficients *c, uint8_t *restrict out_cb, uint8_t *restrict out_cr) {
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
    uint8_t *out_cb, uint8_t *out_cr, int16_t *scratch) {
    const int chroma_height = tall ? height : height / 2;
    int16_t *mixed = scratch, *cb_row = scratch + width + 2, *cr_row = cb_row + width;
    for (int row = 0; out_luma != NULL && row < height; row++) {
        // The pixel's chroma row, and the next one towards the pixel (above for even rows, below for odd).
        const int near = tall ? row : row / 2;
        const int step = tall ? 0 : row % 2 == 0 ? -1 : 1;
        const int far = near + step < 0 || near + step >= chroma_height ? near : near + step;
        const size_t near_at = (size_t)near * chroma_stride, far_at = (size_t)far * chroma_stride;
        interpolate_row(cb + near_at, cb + far_at, width, wide, tall, mixed, cb_row);
        interpolate_row(cr + near_at, cr + far_at, width, wide, tall, mixed, cr_row);
        convert_luma_row(luma + (size_t)row * luma_stride, cb_row, cr_row, width, c, out_luma + (size_t)row * (size_t)width);
    }
    for (int row = 0; out_cb != NULL && row < height / 2; row++) {
        const uint8_t *y_top = luma + (size_t)(2 * row) * luma_stride;
        const size_t top = (size_t)(tall ? 2 * row : row) * chroma_stride;
        const size_t bottom = tall ? top + chroma_stride : top;
        const size_t out_chroma = (size_t)row * (size_t)(width / 2);
        convert_chroma_row(
            y_top, y_top + luma_stride, cb + top, cb + bottom, cr + top, cr + bottom, width, wide, c,
            out_cb + out_chroma, out_cr + out_chroma);
    }
}

#define DEFINE_CONVERTER(name, attributes)                                                            \
    attributes static void name(                                                                      \
        const uint8_t *luma, size_t luma_stride, const uint8_t *cb, const uint8_t *cr,               \
        size_t chroma_stride, int width, int height, int wide, int tall,                             \
        const flipbook_ycbcr_coefficients *c, uint8_t *out_luma, uint8_t *out_cb, uint8_t *out_cr,  \
        int16_t *scratch) {                                                                           \
        if (wide) {                                                                                   \
            convert_planes(luma, luma_stride, cb, cr, chroma_stride, width, height, 1, tall, c,      \
                           out_luma, out_cb, out_cr, scratch);                                        \
        } else {                                                                                      \
            convert_planes(luma, luma_stride, cb, cr, chroma_stride, width, height, 0, tall, c,      \
                           out_luma, out_cb, out_cr, scratch);                                        \
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
    uint8_t *out_luma, uint8_t *out_cb, uint8_t *out_cr, int16_t *scratch) {
    const int wide = chroma_full_width != 0, tall = chroma_full_height != 0;
    if (!wide && !tall && is_identity(coefficients)) {
        // Full-range BT.601 4:2:0 in and out: the planes as they are (the arithmetic gives the same).
        if (out_luma != NULL) copy_plane(luma, luma_stride, width, height, out_luma);
        if (out_cb != NULL) {
            copy_plane(cb, chroma_stride, width / 2, height / 2, out_cb);
            copy_plane(cr, chroma_stride, width / 2, height / 2, out_cr);
        }
        return;
    }
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        convert_avx2(
            luma, luma_stride, cb, cr, chroma_stride, width, height, wide, tall, coefficients, out_luma, out_cb,
            out_cr, scratch);
        return;
    }
#endif
    convert_baseline(
        luma, luma_stride, cb, cr, chroma_stride, width, height, wide, tall, coefficients, out_luma, out_cb, out_cr,
        scratch);
}
