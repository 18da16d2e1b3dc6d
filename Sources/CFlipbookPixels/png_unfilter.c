#include "flipbook_pixels.h"

#include <stdlib.h>
#include <string.h>

// PNG row unfiltering (ISO/IEC 15948 §9.2-9.4). Every row may be unfiltered in place, written a
// little before where it is read: `out` lies at or before `filtered`, and each step loads its input
// before it stores its output, so a store never reaches a byte that has not been read yet.
//
// On x86-64 (which always has SSE2) Sub, Average and Paeth work one pixel at a time in a 128-bit
// register, all channels at once, as libpng's filter_sse2_intrinsics.c does; two Paeth or Average
// rows that follow each other go through one pass, and four Paeth rows of 3- or 4-byte pixels
// through one pass two pixels to a register; Up adds 16 bytes at a time. Other
// architectures, and pixels of 1 or 2 bytes, use the portable loops, which follow the
// specification's definitions byte by byte.

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define ALWAYS_INLINE static inline __attribute__((always_inline))

enum { FILTER_NONE = 0, FILTER_SUB = 1, FILTER_UP = 2, FILTER_AVERAGE = 3, FILTER_PAETH = 4 };

// ---- Portable loops: the specification, byte by byte ----

ALWAYS_INLINE uint8_t paeth_predictor(int a, int b, int c) {
    const int pa = abs(b - c);          // |p - a| with p = a + b - c
    const int pb = abs(a - c);          // |p - b|
    const int pc = abs(a + b - 2 * c);  // |p - c|
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// One row; `prior` is NULL for the first row of an image, which the specification reads as zeros.
ALWAYS_INLINE void unfilter_row_portable(
    int type, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, const size_t bpp) {
    const size_t first = bpp < n ? bpp : n;
    switch (type) {
    case FILTER_SUB:
        memmove(out, in, first);
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
        return;
    case FILTER_UP:
        if (prior == NULL) break;
        for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(in[i] + prior[i]);
        return;
    case FILTER_AVERAGE:
        if (prior == NULL) {
            memmove(out, in, first);
            for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(in[i] + (out[i - bpp] >> 1));
            return;
        }
        for (size_t i = 0; i < first; i++) out[i] = (uint8_t)(in[i] + (prior[i] >> 1));
        for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(in[i] + ((out[i - bpp] + prior[i]) >> 1));
        return;
    case FILTER_PAETH:
        if (prior == NULL) {  // a Paeth predictor with b = c = 0 is always a: Sub
            memmove(out, in, first);
            for (size_t i = bpp; i < n; i++) out[i] = (uint8_t)(in[i] + out[i - bpp]);
            return;
        }
        for (size_t i = 0; i < first; i++) out[i] = (uint8_t)(in[i] + prior[i]);  // a = c = 0: b
        for (size_t i = bpp; i < n; i++) {
            out[i] = (uint8_t)(in[i] + paeth_predictor(out[i - bpp], prior[i], prior[i - bpp]));
        }
        return;
    default:
        break;
    }
    memmove(out, in, n);  // None, or Up on the first row
}

// The portable loops with the pixel size made a constant, so the compiler drops the index arithmetic.
static void unfilter_row_portable_any(
    int type, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, int bpp) {
    switch (bpp) {
    case 1: unfilter_row_portable(type, in, prior, out, n, 1); return;
    case 2: unfilter_row_portable(type, in, prior, out, n, 2); return;
    case 3: unfilter_row_portable(type, in, prior, out, n, 3); return;
    case 4: unfilter_row_portable(type, in, prior, out, n, 4); return;
    case 6: unfilter_row_portable(type, in, prior, out, n, 6); return;
    case 8: unfilter_row_portable(type, in, prior, out, n, 8); return;
    default: unfilter_row_portable(type, in, prior, out, n, (size_t)bpp); return;
    }
}

// ---- x86-64: one pixel of 3 to 8 bytes in the low half of a register ----

#if defined(__x86_64__)

static int cpu_has_avx2(void) { return __builtin_cpu_supports("avx2"); }

// A pixel's bytes. A `wide` load takes 4 or 8 bytes, the pixel and the start of the next, in one
// instruction: callers use it for every pixel but a row's last.
ALWAYS_INLINE __m128i load_pixel(const uint8_t *at, const int bpp, const int wide) {
    const size_t count = wide ? (bpp <= 4 ? 4 : 8) : (size_t)bpp;
    if (bpp <= 4) {
        uint32_t word = 0;
        memcpy(&word, at, count);
        return _mm_cvtsi32_si128((int)word);
    }
    uint64_t word = 0;
    memcpy(&word, at, count);
    return _mm_cvtsi64_si128((long long)word);
}

// A `wide` store of a 3-byte pixel writes 4 bytes; the next pixel's store overwrites the extra one.
// In place a row is written k >= 1 bytes below where it is read, so that byte is at most the third
// this step loaded. A 6-byte pixel's extra 2 bytes could land on one not yet read (the first row is
// written 1 byte below where it is read), so its stores are exact.
ALWAYS_INLINE void store_pixel(uint8_t *at, __m128i pixel, const int bpp, const int wide) {
    const size_t count = wide && bpp == 3 ? 4 : (size_t)bpp;
    if (bpp <= 4) {
        const uint32_t word = (uint32_t)_mm_cvtsi128_si32(pixel);
        memcpy(at, &word, count);
    } else {
        const uint64_t word = (uint64_t)_mm_cvtsi128_si64(pixel);
        memcpy(at, &word, count);
    }
}

// The bytes a wide load takes: pixels that start this far from the row's end or more may use it.
ALWAYS_INLINE size_t wide_bytes(const int bpp) { return bpp <= 4 ? 4 : 8; }

// Runs `step(i, wide)` for every pixel of a row of `n` bytes, wide for all that can be.
#define FOR_EACH_PIXEL(n, bpp, step)                                                                  \
    do {                                                                                              \
        size_t i_ = 0;                                                                                \
        for (; i_ + wide_bytes(bpp) <= (n); i_ += (size_t)(bpp)) step(i_, 1);                         \
        for (; i_ < (n); i_ += (size_t)(bpp)) step(i_, 0);                                           \
    } while (0)

ALWAYS_INLINE void sub_simd(const uint8_t *in, uint8_t *out, size_t n, const int bpp) {
    __m128i a = _mm_setzero_si128();
#define SUB_STEP(i, wide)                                          \
    do {                                                           \
        a = _mm_add_epi8(a, load_pixel(in + (i), bpp, wide));      \
        store_pixel(out + (i), a, bpp, wide);                      \
    } while (0)
    FOR_EACH_PIXEL(n, bpp, SUB_STEP);
#undef SUB_STEP
}

// Up is independent per byte: 16 at a time. In place, each store lands below bytes not yet loaded.
static void up_simd(const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(in + i));
        const __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(prior + i));
        _mm_storeu_si128((__m128i *)(void *)(out + i), _mm_add_epi8(x, b));
    }
    for (; i < n; i++) out[i] = (uint8_t)(in[i] + prior[i]);
}

// floor((a + b) / 2) per byte: pavgb rounds up, so take back the carry of odd sums.
ALWAYS_INLINE void average_simd(const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, const int bpp) {
    const __m128i one = _mm_set1_epi8(1);
    __m128i a = _mm_setzero_si128();
#define AVERAGE_STEP(i, wide)                                                            \
    do {                                                                                 \
        const __m128i b = load_pixel(prior + (i), bpp, wide);                            \
        const __m128i x = load_pixel(in + (i), bpp, wide);                               \
        const __m128i odd = _mm_and_si128(_mm_xor_si128(a, b), one);                     \
        a = _mm_add_epi8(x, _mm_sub_epi8(_mm_avg_epu8(a, b), odd));                      \
        store_pixel(out + (i), a, bpp, wide);                                            \
    } while (0)
    FOR_EACH_PIXEL(n, bpp, AVERAGE_STEP);
#undef AVERAGE_STEP
}

// Paeth and the per-row dispatch, twice: for any x86-64 (SSE2), and built for AVX2 (which brings
// SSSE3's pabsw, SSE4.1's pblendvb and three-operand encodings), chosen at run time.
#define SIMD_LEVEL_AVX2 0
#define SIMD(name) name##_sse2
#include "png_unfilter_simd.h"
#undef SIMD
#undef SIMD_LEVEL_AVX2

#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#define SIMD_LEVEL_AVX2 1
#define SIMD(name) name##_avx2
#include "png_unfilter_simd.h"
#undef SIMD
#undef SIMD_LEVEL_AVX2
#pragma clang attribute pop

#endif

typedef void (*row_unfilter)(int type, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, int bpp);
typedef void (*paeth_quad_unfilter)(
    const uint8_t *in, size_t in_stride, const uint8_t *prior, uint8_t *out, uint8_t *scratch, size_t n, int bpp);
typedef void (*row_pair_unfilter)(
    int type, int type_next, const uint8_t *in, const uint8_t *in_next, const uint8_t *prior, uint8_t *out,
    uint8_t *out_next, size_t n, int bpp);

// Whether a row of this type, with a row above, may be taken in a pair: Paeth or Average.
static inline int pairable(uint8_t type) { return type == FILTER_PAETH || type == FILTER_AVERAGE; }

// Row by row, or two at a time where two Paeth or Average rows follow each other (nearly all rows
// of rendered images: libpng's adaptive filters choose Paeth for most, Average for most others) and
// `pair` is given, or four at a time where four Paeth rows do and `quad` is given: the rows after
// the first go through `scratch` and are copied into place once all have been read.
static size_t unfilter_image(
    uint8_t *data, size_t rows, size_t row_bytes, int bpp, row_unfilter unfilter, row_pair_unfilter pair,
    paeth_quad_unfilter quad) {
    const size_t scratch_rows = quad != NULL ? 3 : 1;
    uint8_t *scratch = pair != NULL && rows > 1 ? malloc(scratch_rows * row_bytes) : NULL;
    const uint8_t *prior = NULL;
    size_t row = 0;
    for (; row < rows; row++) {
        const uint8_t *line = data + row * (row_bytes + 1);
        const uint8_t type = line[0];
        if (type > FILTER_PAETH) break;
        uint8_t *out = data + row * row_bytes;
        if (type == FILTER_PAETH && quad != NULL && prior != NULL && scratch != NULL && row + 3 < rows
            && line[row_bytes + 1] == FILTER_PAETH && line[2 * (row_bytes + 1)] == FILTER_PAETH
            && line[3 * (row_bytes + 1)] == FILTER_PAETH) {
            quad(line + 1, row_bytes + 1, prior, out, scratch, row_bytes, bpp);
            memcpy(out + row_bytes, scratch, 3 * row_bytes);
            prior = out + 3 * row_bytes;
            row += 3;
            continue;
        }
        const uint8_t type_next = row + 1 < rows ? line[row_bytes + 1] : FILTER_NONE;
        if (pairable(type) && pairable(type_next) && prior != NULL && scratch != NULL) {
            pair(type, type_next, line + 1, line + row_bytes + 2, prior, out, scratch, row_bytes, bpp);
            memcpy(out + row_bytes, scratch, row_bytes);
            prior = out + row_bytes;
            row++;
            continue;
        }
        unfilter(type, line + 1, prior, out, row_bytes, bpp);
        prior = out;
    }
    free(scratch);
    return row;
}

size_t flipbook_png_unfilter(uint8_t *data, size_t rows, size_t row_bytes, int bytes_per_pixel) {
#if defined(__x86_64__)
    const int avx2 = cpu_has_avx2();
    const int paired = bytes_per_pixel >= 3 && bytes_per_pixel != 5 && bytes_per_pixel != 7;
    const int quads = bytes_per_pixel == 3 || bytes_per_pixel == 4;
    return unfilter_image(
        data, rows, row_bytes, bytes_per_pixel, avx2 ? unfilter_row_avx2 : unfilter_row_sse2,
        !paired ? NULL : avx2 ? row_pair_avx2 : row_pair_sse2,
        !quads ? NULL : avx2 ? paeth_quad_avx2 : paeth_quad_sse2);
#else
    return unfilter_image(data, rows, row_bytes, bytes_per_pixel, unfilter_row_portable_any, NULL, NULL);
#endif
}

size_t flipbook_png_unfilter_portable(uint8_t *data, size_t rows, size_t row_bytes, int bytes_per_pixel) {
    return unfilter_image(data, rows, row_bytes, bytes_per_pixel, unfilter_row_portable_any, NULL, NULL);
}
