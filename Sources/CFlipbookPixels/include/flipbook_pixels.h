#ifndef FLIPBOOK_PIXELS_H
#define FLIPBOOK_PIXELS_H

#include <stddef.h>
#include <stdint.h>

// Flipbook's per-pixel loops, in C so the compiler can vectorise them (with AVX2 where the CPU has
// it, chosen at run time). The Swift side (Interop/PixelKernels.swift) checks every size first.

/// Byte layouts of an 8-bit interleaved RGB source pixel.
typedef enum {
    FLIPBOOK_LAYOUT_RGB = 0,
    FLIPBOOK_LAYOUT_RGBA = 1,
    FLIPBOOK_LAYOUT_BGRA = 2,
} flipbook_pixel_layout;

/// RGB to Y'CbCr weights in 16.16 fixed point, as `ColourMatrix.fixedPoint` derives them.
typedef struct {
    int32_t y_r, y_g, y_b;
    int32_t cb_r, cb_g, cb_b;
    int32_t cr_r, cr_g, cr_b;
    int32_t luma_offset;
} flipbook_yuv_coefficients;

/// Converts `width x height` pixels (both even) to planar 4:2:0: luma for every pixel, chroma from
/// the sum of each 2x2 block. `luma` rows are `width` bytes apart, chroma rows `width / 2`. Returns
/// 1 when every pixel is opaque (RGB, or every alpha 255), 0 otherwise, learnt on the same pass.
int flipbook_rgb_to_yuv420(
    const uint8_t *source, size_t source_stride, int width, int height, flipbook_pixel_layout layout,
    const flipbook_yuv_coefficients *coefficients, uint8_t *luma, uint8_t *cb, uint8_t *cr);

/// The same conversion with every pixel first composited over `background` (R, G, B) by its alpha,
/// `(a * colour + (255 - a) * background) / 255` rounded to the nearest code, in the same pass: a
/// transparent frame of the movie's size is read once. RGB sources are converted as they are.
/// Returns 1 when every pixel was opaque, as `flipbook_rgb_to_yuv420` does.
int flipbook_rgb_over_to_yuv420(
    const uint8_t *source, size_t source_stride, int width, int height, flipbook_pixel_layout layout,
    const uint8_t background[3], const flipbook_yuv_coefficients *coefficients, uint8_t *luma, uint8_t *cb,
    uint8_t *cr);

/// A conversion of BT.601 Y'CbCr (JPEG's full range, or WebP's limited range) to another matrix and
/// range, 16.16 fixed point: `out = m * (Y', Cb - 128, Cr - 128)`, plus `luma_offset` (16.16 too) for
/// Y' and 128 for Cb and Cr (as `JPEGToYUVConverter` derives it from `ColourMatrix`).
typedef struct {
    int32_t y_y, y_cb, y_cr;
    int32_t cb_y, cb_cb, cb_cr;
    int32_t cr_y, cr_cb, cr_cr;
    int32_t luma_offset;
} flipbook_ycbcr_coefficients;

/// Converts `width x height` (both even) Y'CbCr planes, as a JPEG decoder writes them, to planar
/// 4:2:0 with `coefficients`, in one pass and without RGB. Chroma is half as wide as luma unless
/// `chroma_full_width` and half as high unless `chroma_full_height` (4:2:0, 4:2:2, 4:4:0, 4:4:4);
/// `cb` and `cr` rows are `chroma_stride` bytes apart. Luma out uses the chroma interpolated
/// bilinearly at each pixel (JFIF's centred siting, edges repeated); chroma out the means of the 2x2
/// block's lumas and chroma samples. Each output rounds halves up and is clamped to 0...255. The
/// identity (full-range BT.601 4:2:0 out) copies the planes. `out_luma` rows are `width` bytes
/// apart, `out_cb` and `out_cr` rows `width / 2`; `scratch` holds `3 * width + 2` 16-bit values.
/// With `out_luma` NULL only chroma is made; with `out_cb` and `out_cr` NULL only luma.
void flipbook_ycbcr_to_yuv420(
    const uint8_t *luma, size_t luma_stride, const uint8_t *cb, const uint8_t *cr, size_t chroma_stride, int width,
    int height, int chroma_full_width, int chroma_full_height, const flipbook_ycbcr_coefficients *coefficients,
    uint8_t *out_luma, uint8_t *out_cb, uint8_t *out_cr, int16_t *scratch);

/// 1 when every 4-byte pixel of `width x height` has 255 at `alpha_offset`, else 0.
int flipbook_alpha_is_opaque(const uint8_t *pixels, size_t stride, int width, int height, int alpha_offset);

/// The source positions and weights one axis of a resampling reads: for output position `i`,
/// `count` consecutive source positions from `first[i]`, weighted by `weights[i * count ...]`
/// (Q14: each position's weights sum to exactly 16384; unused taps are zero).
typedef struct {
    const int32_t *first;
    const int16_t *weights;
    int count;
} flipbook_taps;

/// Source and output pixels of a resampling, 8 bits a channel, interleaved.
typedef enum {
    FLIPBOOK_RESAMPLE_GRAY = 0,          ///< 1 byte a pixel in and out.
    FLIPBOOK_RESAMPLE_RGB = 1,           ///< 3 bytes a pixel in and out.
    FLIPBOOK_RESAMPLE_RGBA = 2,          ///< 4 bytes a pixel in and out, alpha filtered like a colour.
    FLIPBOOK_RESAMPLE_RGBA_TO_RGB = 3,   ///< RGBA in, RGB out: alpha dropped (for opaque images).
    FLIPBOOK_RESAMPLE_BGRA_TO_RGB = 4,   ///< BGRA in, RGB out: alpha dropped (for opaque images).
} flipbook_resample_layout;

/// Resamples the pixels of `source` (`layout` says their bytes) into `width x height` pixels of
/// `destination`: each output row sums the source rows `rows` names, then the columns `columns`
/// names, rounded to the nearest code. `source` needs the rows and columns the taps read (every
/// `first + count` within the source); `scratch` holds `source_width * 4 + 1` 32-bit values.
void flipbook_resample(
    const uint8_t *source, size_t source_stride, int source_width, flipbook_resample_layout layout,
    uint8_t *destination, size_t destination_stride, int width, int height, const flipbook_taps *columns,
    const flipbook_taps *rows, int32_t *scratch);

/// Turns `width x height` pixels of `bpp` bytes (1, 3 or 4), rows `stride` bytes apart, upright for
/// EXIF orientation 1-8 into tightly packed `destination` (1 copies; 5-8 swap width and height):
/// the output pixel (x, y) is the stored pixel that orientation shows there.
void flipbook_orient(
    const uint8_t *source, size_t stride, int width, int height, int bpp, int orientation, uint8_t *destination);

/// Reverses the row filters of a non-interlaced PNG image (ISO/IEC 15948 §9), in place.
///
/// `data` holds `rows` rows as inflated from the image data: row `r`'s filter type byte at
/// `r * (row_bytes + 1)`, its `row_bytes` filtered bytes right after. Row `r` is written unfiltered
/// at `r * row_bytes`, so the rows end up packed at the start of `data`. `bytes_per_pixel` is the
/// specification's `bpp` (1 to 8: 1 for bit depths below 8) and `row_bytes` a multiple of it.
/// Returns `rows` when every row was unfiltered, or the index of the first row whose filter type
/// is not 0 to 4 (the rows before it are unfiltered, it and those after are not).
size_t flipbook_png_unfilter(uint8_t *data, size_t rows, size_t row_bytes, int bytes_per_pixel);

/// `flipbook_png_unfilter` with the portable byte-by-byte loops that architectures without a
/// vector version use; on x86-64 it is there for tests to hold the two to the same results.
size_t flipbook_png_unfilter_portable(uint8_t *data, size_t rows, size_t row_bytes, int bytes_per_pixel);

/// Converts `count` unfiltered PNG pixels of `channels` samples (1 grey, 2 grey and alpha, 3 RGB,
/// 4 RGBA) of `bit_depth` 8 or 16 (big-endian) to 8-bit RGB (grey, RGB) or RGBA (with alpha) at
/// `out`, as libspng does: grey repeated into each colour, 16-bit samples cut to their high byte.
/// `out` holds `count` x 3 or 4 bytes and does not overlap `samples`.
void flipbook_png_to_rgb8(const uint8_t *samples, size_t count, int channels, int bit_depth, uint8_t *out);

/// `count` PNG pixels of big-endian 16-bit grey (`channels` 1, repeated into R, G, B) or RGB (3) as
/// native 16-bit RGB; grey and alpha (2) or RGBA (4) as native 16-bit RGBA.
void flipbook_png16_to_rgb16(const uint8_t *samples, size_t count, int channels, uint16_t *out);

/// Converts `width x height` (both even) native 16-bit RGB pixels to 10-bit planar 4:2:0 in 16-bit words,
/// with the 8-bit converter's weights: a 16-bit value v stands for v / 257 on the 8-bit scale, a 10-bit
/// code is 4 times an 8-bit one, so 8-bit content (v = 257 k) converts to exactly 4 times its 8-bit codes'
/// unrounded values. Chroma from the sum of each 2x2 block.
void flipbook_rgb16_to_yuv420p10(
    const uint16_t *rgb, int width, int height, const flipbook_yuv_coefficients *coefficients, uint16_t *luma,
    uint16_t *cb, uint16_t *cr);

/// Converts `width x height` pixels to planar Y'CbCr of any chroma sampling: luma (and alpha, when
/// `alpha` is not NULL: the layout's alpha, 255 for RGB) for every pixel, chroma from the sum of each
/// block of `1 << chroma_shift_x` by `1 << chroma_shift_y` pixels (1, 0 for 4:2:2; 0, 0 for 4:4:4;
/// 1, 1 gives the same values as `flipbook_rgb_to_yuv420`). `width` and `height` are multiples of the
/// block. Luma and alpha rows are `width` bytes apart, chroma rows `width >> chroma_shift_x`. Returns
/// 1 when every pixel is opaque. The plain loop for formats other than 4:2:0 without alpha, whose
/// fast path above is kept.
int flipbook_rgb_to_yuv(
    const uint8_t *source, size_t source_stride, int width, int height, flipbook_pixel_layout layout,
    int chroma_shift_x, int chroma_shift_y, const flipbook_yuv_coefficients *coefficients, uint8_t *luma,
    uint8_t *cb, uint8_t *cr, uint8_t *alpha);

/// `flipbook_rgb16_to_yuv420p10` for any chroma sampling: chroma from the sum of each block of
/// `1 << chroma_shift_x` by `1 << chroma_shift_y` pixels (1, 1 gives that function's values exactly),
/// chroma rows `width >> chroma_shift_x` samples apart; `width` and `height` multiples of the block.
void flipbook_rgb16_to_yuv_p10(
    const uint16_t *rgb, int width, int height, int chroma_shift_x, int chroma_shift_y,
    const flipbook_yuv_coefficients *coefficients, uint16_t *luma, uint16_t *cb, uint16_t *cr);

/// `flipbook_rgb_to_yuv` to 10-bit planes in 16-bit words, for a codec coded at 10 bits from 8-bit
/// sources: each sample is 4 times the 8-bit converter's unrounded value, rounded once, and alpha
/// (when `alpha` is not NULL: the layout's alpha, 255 for RGB) is `a * 1023 / 255` rounded, so 255 is
/// 1023. Luma and alpha rows are `width` samples apart, chroma rows `width >> chroma_shift_x`.
void flipbook_rgb_to_yuv_p10(
    const uint8_t *source, size_t source_stride, int width, int height, flipbook_pixel_layout layout,
    int chroma_shift_x, int chroma_shift_y, const flipbook_yuv_coefficients *coefficients, uint16_t *luma,
    uint16_t *cb, uint16_t *cr, uint16_t *alpha);

/// `flipbook_rgb16_to_yuv_p10` for native 16-bit RGBA pixels, with the alpha plane: each 16-bit
/// alpha as `a * 1023 / 65535` rounded (65535 is 1023). Colour is straight, not premultiplied.
void flipbook_rgba16_to_yuv_p10(
    const uint16_t *rgba, int width, int height, int chroma_shift_x, int chroma_shift_y,
    const flipbook_yuv_coefficients *coefficients, uint16_t *luma, uint16_t *cb, uint16_t *cr, uint16_t *alpha);

/// Steps of the encoding table of `flipbook_colour_tables`: linear light 0...1 in 1/32768ths (a tenth
/// of a level where sRGB's curve is steepest).
#define FLIPBOOK_COLOUR_ENCODE_STEPS 32768

/// A conversion between two matrix/curve colour spaces (almost every RGB ICC profile): each source
/// value made linear through its channel's table, the 3x3 matrix (row-major: red out first) from source
/// to destination linear RGB, clamped to 0...1, then encoded through the destination's table `encode`
/// (`FLIPBOOK_COLOUR_ENCODE_STEPS + 1` codes, passed apart: Swift does not import so long an array).
typedef struct {
    float to_linear[3][256];
    float matrix[9];
} flipbook_colour_tables;

/// Converts `width x height` 8-bit pixels of `layout` from `source` into `destination` (the same
/// layout; alpha copied as it is) with `tables` and `encode`. `source` and `destination` may be the same rows.
void flipbook_colour_matrix_convert(
    const uint8_t *source, size_t source_stride, uint8_t *destination, size_t destination_stride, int width,
    int height, flipbook_pixel_layout layout, const flipbook_colour_tables *tables, const uint8_t *encode);

/// Undoes OpenEXR's ZIP/ZIPS reordering and delta coding of an inflated chunk of `count` bytes: `coded`
/// (overwritten, as scratch) becomes the chunk's bytes in `out` (which must not overlap it).
void flipbook_exr_zip_unpredict(uint8_t *out, uint8_t *coded, size_t count);

/// `flipbook_exr_zip_unpredict` byte by byte, as the format defines it.
void flipbook_exr_zip_unpredict_portable(uint8_t *out, uint8_t *coded, size_t count);

#endif
