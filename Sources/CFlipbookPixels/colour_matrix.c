#include "flipbook_pixels.h"

// Matrix/curve colour conversion: table, 3x3 matrix in single precision, table. The loads through the
// tables are gathers; the matrix and the clamping vectorise (AVX2 chosen at run time, without FMA, so
// every path rounds alike).

// 0...1; NaN (a hostile profile's tables or matrix can make one) is 0, so every index stays in the table.
static inline __attribute__((always_inline)) float clamp_unit(float value) {
    return value > 0.0f ? (value < 1.0f ? value : 1.0f) : 0.0f;
}

static inline __attribute__((always_inline)) void convert_rows(
    const uint8_t *source, size_t source_stride, uint8_t *destination, size_t destination_stride, int width,
    int height, const int bytes, const int red, const int green, const int blue, const int alpha,
    const flipbook_colour_tables *tables, const uint8_t *encode) {
    const float *m = tables->matrix;
    const float steps = (float)FLIPBOOK_COLOUR_ENCODE_STEPS;
    for (int y = 0; y < height; y++) {
        const uint8_t *in = source + (size_t)y * source_stride;
        uint8_t *out = destination + (size_t)y * destination_stride;
        for (int x = 0; x < width; x++) {
            const uint8_t *pixel = in + (size_t)x * bytes;
            const float r = tables->to_linear[0][pixel[red]];
            const float g = tables->to_linear[1][pixel[green]];
            const float b = tables->to_linear[2][pixel[blue]];
            const uint8_t a = alpha >= 0 ? pixel[alpha] : 255;
            const int ro = (int)(clamp_unit(m[0] * r + m[1] * g + m[2] * b) * steps + 0.5f);
            const int go = (int)(clamp_unit(m[3] * r + m[4] * g + m[5] * b) * steps + 0.5f);
            const int bo = (int)(clamp_unit(m[6] * r + m[7] * g + m[8] * b) * steps + 0.5f);
            uint8_t *target = out + (size_t)x * bytes;
            target[red] = encode[ro];
            target[green] = encode[go];
            target[blue] = encode[bo];
            if (alpha >= 0) target[alpha] = a;
        }
    }
}

#define DEFINE_COLOUR_CONVERTER(name, attributes)                                                              \
    static attributes void name(                                                                               \
        const uint8_t *source, size_t source_stride, uint8_t *destination, size_t destination_stride, int width, \
        int height, flipbook_pixel_layout layout, const flipbook_colour_tables *tables, const uint8_t *encode) {                      \
        switch (layout) {                                                                                      \
        case FLIPBOOK_LAYOUT_RGBA:                                                                             \
            convert_rows(source, source_stride, destination, destination_stride, width, height, 4, 0, 1, 2, 3, \
                         tables, encode);                                                                              \
            break;                                                                                             \
        case FLIPBOOK_LAYOUT_BGRA:                                                                             \
            convert_rows(source, source_stride, destination, destination_stride, width, height, 4, 2, 1, 0, 3, \
                         tables, encode);                                                                              \
            break;                                                                                             \
        default:                                                                                               \
            convert_rows(source, source_stride, destination, destination_stride, width, height, 3, 0, 1, 2, -1, \
                         tables, encode);                                                                              \
        }                                                                                                      \
    }

DEFINE_COLOUR_CONVERTER(colour_baseline, )
#if defined(__x86_64__)
DEFINE_COLOUR_CONVERTER(colour_avx2, __attribute__((target("avx2"))))
#endif

void flipbook_colour_matrix_convert(
    const uint8_t *source, size_t source_stride, uint8_t *destination, size_t destination_stride, int width,
    int height, flipbook_pixel_layout layout, const flipbook_colour_tables *tables, const uint8_t *encode) {
#if defined(__x86_64__)
    if (__builtin_cpu_supports("avx2")) {
        colour_avx2(source, source_stride, destination, destination_stride, width, height, layout, tables, encode);
        return;
    }
#endif
    colour_baseline(source, source_stride, destination, destination_stride, width, height, layout, tables, encode);
}
