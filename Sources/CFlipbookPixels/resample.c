#include "flipbook_pixels.h"

#include <string.h>

// Separable resampling, one output row at a time: the source rows that row reads are summed with
// their weights into one row of the source's width (a plain loop over bytes, which the compiler
// vectorises), then each output pixel sums the columns it reads from that row. Only one row of
// 32-bit intermediates is held, instead of a whole intermediate image.
//
// Weights are Q14 (16384 is one). The vertical sum of 8-bit samples is kept with 8 extra bits
// ((sum + 32) >> 6), so the horizontal sum is the value times 2^22 and fits in 32 bits even with
// negative lobes; a flat colour comes out exactly as it went in because each position's weights
// sum to exactly 16384.

#if defined(__x86_64__)
static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

static inline __attribute__((always_inline)) uint8_t clamp_to_byte(int32_t value) {
    return (uint8_t)(value < 0 ? 0 : value > 255 ? 255 : value);
}

// The weighted sum of the rows output row `y` reads, with 8 extra bits, into `row`.
static inline __attribute__((always_inline)) void sum_rows(
    const uint8_t *source, size_t stride, int samples, const flipbook_taps *rows, int y, int32_t *restrict row) {
    const int count = rows->count;
    const int16_t *weights = rows->weights + (size_t)y * (size_t)count;
    const uint8_t *first = source + (size_t)rows->first[y] * stride;
    const int32_t w0 = weights[0];
    for (int i = 0; i < samples; i++) row[i] = w0 * first[i];
    for (int t = 1; t < count; t++) {
        const int32_t w = weights[t];
        if (w == 0) continue;
        const uint8_t *line = first + (size_t)t * stride;
        for (int i = 0; i < samples; i++) row[i] += w * line[i];
    }
    for (int i = 0; i < samples; i++) row[i] = (row[i] + 32) >> 6;
}

// Four 32-bit lanes: one pixel's channels (the fourth lane unused for RGB), summed in one vector
// register per pixel with the compiler's vector extensions, for any target.
typedef int32_t lanes __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) int source_channels(const flipbook_resample_layout layout) {
    return layout == FLIPBOOK_RESAMPLE_GRAY ? 1 : layout == FLIPBOOK_RESAMPLE_RGB ? 3 : 4;
}

static inline __attribute__((always_inline)) int output_channels(const flipbook_resample_layout layout) {
    return layout == FLIPBOOK_RESAMPLE_GRAY ? 1 : layout == FLIPBOOK_RESAMPLE_RGBA ? 4 : 3;
}

// One output pixel of 3 or 4 source channels: the weighted sum of `count` neighbouring pixels of
// `from`, rounded, clamped and stored in the output layout. For 3 channels each load takes 4
// values, one past the pixel (`scratch` has a spare value at its end for the last one).
static inline __attribute__((always_inline)) void sum_pixel(
    const int32_t *from, const int16_t *weights, const int count, const flipbook_resample_layout layout,
    uint8_t *out) {
    const int channels = source_channels(layout);
    lanes sum = {1 << 21, 1 << 21, 1 << 21, 1 << 21};
    for (int t = 0; t < count; t++) {
        lanes pixel;
        memcpy(&pixel, from + t * channels, sizeof pixel);
        sum += (int32_t)weights[t] * pixel;
    }
    sum >>= 22;
    sum &= ~(sum < 0);
    const lanes over = sum > 255;
    sum = (sum & ~over) | (255 & over);
    if (layout == FLIPBOOK_RESAMPLE_BGRA_TO_RGB) {
        out[0] = (uint8_t)sum[2];
        out[1] = (uint8_t)sum[1];
        out[2] = (uint8_t)sum[0];
    } else {
        for (int c = 0; c < output_channels(layout); c++) out[c] = (uint8_t)sum[c];
    }
}

// Output row from one summed row: each pixel the weighted sum of the columns it reads. The common
// tap counts get their own loops, unrolled.
static inline __attribute__((always_inline)) void sum_columns_of(
    const int32_t *restrict row, const flipbook_resample_layout layout, const flipbook_taps *columns,
    const int count, int width, uint8_t *restrict out) {
    const int channels = source_channels(layout);
    const int out_channels = output_channels(layout);
    for (int x = 0; x < width; x++) {
        const int32_t *from = row + (size_t)columns->first[x] * (size_t)channels;
        const int16_t *weights = columns->weights + (size_t)x * (size_t)count;
        if (channels == 1) {
            int32_t sum = 1 << 21;
            for (int t = 0; t < count; t++) sum += weights[t] * from[t];
            out[x] = clamp_to_byte(sum >> 22);
        } else {
            sum_pixel(from, weights, count, layout, out + (size_t)x * (size_t)out_channels);
        }
    }
}

static inline __attribute__((always_inline)) void sum_columns(
    const int32_t *restrict row, const flipbook_resample_layout layout, const flipbook_taps *columns, int width,
    uint8_t *restrict out) {
    switch (columns->count) {
    case 1: sum_columns_of(row, layout, columns, 1, width, out); break;
    case 2: sum_columns_of(row, layout, columns, 2, width, out); break;
    case 3: sum_columns_of(row, layout, columns, 3, width, out); break;
    case 4: sum_columns_of(row, layout, columns, 4, width, out); break;
    case 5: sum_columns_of(row, layout, columns, 5, width, out); break;
    default: sum_columns_of(row, layout, columns, columns->count, width, out); break;
    }
}

static inline __attribute__((always_inline)) void resample_layout(
    const uint8_t *source, size_t source_stride, int source_width, const flipbook_resample_layout layout,
    uint8_t *destination, size_t destination_stride, int width, int height, const flipbook_taps *columns,
    const flipbook_taps *rows, int32_t *scratch) {
    for (int y = 0; y < height; y++) {
        sum_rows(source, source_stride, source_width * source_channels(layout), rows, y, scratch);
        sum_columns(scratch, layout, columns, width, destination + (size_t)y * destination_stride);
    }
}

#define RESAMPLE_CASE(constant)                                                                              \
    case constant:                                                                                           \
        resample_layout(source, source_stride, source_width, constant, destination, destination_stride, width, \
                        height, columns, rows, scratch);                                                     \
        break;

#define DEFINE_RESAMPLER(name, attributes)                                                                  \
    attributes static void name(                                                                            \
        const uint8_t *source, size_t source_stride, int source_width, flipbook_resample_layout layout,     \
        uint8_t *destination, size_t destination_stride, int width, int height,                             \
        const flipbook_taps *columns, const flipbook_taps *rows, int32_t *scratch) {                        \
        switch (layout) {                                                                                   \
            RESAMPLE_CASE(FLIPBOOK_RESAMPLE_GRAY)                                                           \
            RESAMPLE_CASE(FLIPBOOK_RESAMPLE_RGB)                                                            \
            RESAMPLE_CASE(FLIPBOOK_RESAMPLE_RGBA)                                                           \
            RESAMPLE_CASE(FLIPBOOK_RESAMPLE_RGBA_TO_RGB)                                                    \
            RESAMPLE_CASE(FLIPBOOK_RESAMPLE_BGRA_TO_RGB)                                                    \
        }                                                                                                   \
    }

DEFINE_RESAMPLER(resample_baseline, )
#if defined(__x86_64__)
DEFINE_RESAMPLER(resample_avx2, __attribute__((target("avx2"))))
#endif

void flipbook_resample(
    const uint8_t *source, size_t source_stride, int source_width, flipbook_resample_layout layout,
    uint8_t *destination, size_t destination_stride, int width, int height, const flipbook_taps *columns,
    const flipbook_taps *rows, int32_t *scratch) {
#if defined(__x86_64__)
    if (cpu_has_avx2()) {
        resample_avx2(source, source_stride, source_width, layout, destination, destination_stride, width, height,
                      columns, rows, scratch);
        return;
    }
#endif
    resample_baseline(source, source_stride, source_width, layout, destination, destination_stride, width, height,
                      columns, rows, scratch);
}
