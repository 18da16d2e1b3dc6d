#include "flipbook_pixels.h"

// PNG samples other than 8-bit RGB and RGBA, made into 8-bit RGB or RGBA as libspng makes them:
// grey repeated into red, green and blue; 16-bit samples (big-endian) cut to their high byte. Each
// loop is inlined with constant channels and sample size, so the compiler vectorises it.

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE void convert(const uint8_t *in, size_t count, const int channels, const int sample_bytes, uint8_t *out) {
    const int out_channels = channels == 1 || channels == 3 ? 3 : 4;
    for (size_t p = 0; p < count; p++) {
        const uint8_t *s = in + p * (size_t)(channels * sample_bytes);
        uint8_t *o = out + p * (size_t)out_channels;
        switch (channels) {
        case 1: o[0] = o[1] = o[2] = s[0]; break;
        case 2:
            o[0] = o[1] = o[2] = s[0];
            o[3] = s[sample_bytes];
            break;
        default:
            for (int k = 0; k < channels; k++) o[k] = s[k * sample_bytes];
            break;
        }
    }
}

void flipbook_png_to_rgb8(const uint8_t *samples, size_t count, int channels, int bit_depth, uint8_t *out) {
    const int sample_bytes = bit_depth == 16 ? 2 : 1;
    switch (channels * 2 + sample_bytes - 1) {  // a constant pair for each loop
    case 2: convert(samples, count, 1, 1, out); return;
    case 3: convert(samples, count, 1, 2, out); return;
    case 4: convert(samples, count, 2, 1, out); return;
    case 5: convert(samples, count, 2, 2, out); return;
    case 6: convert(samples, count, 3, 1, out); return;
    case 7: convert(samples, count, 3, 2, out); return;
    case 8: convert(samples, count, 4, 1, out); return;
    default: convert(samples, count, 4, 2, out); return;
    }
}
