#include "flipbook_pixels.h"

// OpenEXR's ZIP and ZIPS compression (OpenEXR's "Technical Introduction", Data Compression) stores
// a chunk's bytes reordered and delta coded before deflating them: the bytes at even offsets first,
// then those at odd offsets, and each byte after the first as its difference from the one before plus
// 128. Undoing it is a running sum then an interleave. On x86-64 (which always has SSE2) the sum is
// taken 16 bytes at a time by the doubling shifts of a prefix sum, and the halves are interleaved 32
// bytes at a time; other architectures use the portable loops, which follow the definition byte by byte.

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

void flipbook_exr_zip_unpredict_portable(uint8_t *out, uint8_t *coded, size_t count) {
    for (size_t i = 1; i < count; ++i) coded[i] = (uint8_t)(coded[i - 1] + coded[i] - 128);
    const uint8_t *even = coded, *odd = coded + (count + 1) / 2;
    for (size_t i = 0; i < count; ++i) out[i] = (i % 2 == 0) ? *even++ : *odd++;
}

void flipbook_exr_zip_unpredict(uint8_t *out, uint8_t *coded, size_t count) {
#if defined(__x86_64__)
    if (count < 64) {
        flipbook_exr_zip_unpredict_portable(out, coded, count);
        return;
    }
    // Every byte less 128 (the first too, made so by adding 128 to it first), summed from the start.
    coded[0] = (uint8_t)(coded[0] + 128);
    const __m128i flip = _mm_set1_epi8((char)0x80);
    uint8_t last = 0;
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        __m128i v = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(coded + i)), flip);
        v = _mm_add_epi8(v, _mm_slli_si128(v, 1));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 2));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
        v = _mm_add_epi8(v, _mm_set1_epi8((char)last));
        _mm_storeu_si128((__m128i *)(coded + i), v);
        last = (uint8_t)(_mm_extract_epi16(v, 7) >> 8);
    }
    for (; i < count; ++i) {
        last = (uint8_t)(last + coded[i] - 128);
        coded[i] = last;
    }
    const uint8_t *even = coded, *odd = coded + (count + 1) / 2;
    const size_t pairs = count / 2;
    size_t j = 0;
    for (; j + 16 <= pairs; j += 16) {
        const __m128i a = _mm_loadu_si128((const __m128i *)(even + j));
        const __m128i b = _mm_loadu_si128((const __m128i *)(odd + j));
        _mm_storeu_si128((__m128i *)(out + 2 * j), _mm_unpacklo_epi8(a, b));
        _mm_storeu_si128((__m128i *)(out + 2 * j + 16), _mm_unpackhi_epi8(a, b));
    }
    for (; j < pairs; ++j) {
        out[2 * j] = even[j];
        out[2 * j + 1] = odd[j];
    }
    if (count % 2 == 1) out[count - 1] = even[pairs];
#else
    flipbook_exr_zip_unpredict_portable(out, coded, count);
#endif
}
