// The parts of png_unfilter.c that differ between instruction sets, included there once per set:
// SIMD(name) names this copy's functions and SIMD_LEVEL_AVX2 says whether AVX2 (so SSSE3 and
// SSE4.1 too) may be used. Not a public header.

// |x| per 16-bit lane: one instruction from SSSE3 on, max(x, -x) with SSE2.
ALWAYS_INLINE __m128i SIMD(abs_epi16)(__m128i x) {
#if SIMD_LEVEL_AVX2
    return _mm_abs_epi16(x);
#else
    return _mm_max_epi16(x, _mm_sub_epi16(_mm_setzero_si128(), x));
#endif
}

// `yes` where `mask` is all ones, `no` where it is zero: one instruction from SSE4.1 on.
ALWAYS_INLINE __m128i SIMD(select)(__m128i mask, __m128i yes, __m128i no) {
#if SIMD_LEVEL_AVX2
    return _mm_blendv_epi8(no, yes, mask);
#else
    return _mm_or_si128(_mm_and_si128(mask, yes), _mm_andnot_si128(mask, no));
#endif
}

// One Paeth step in 16-bit lanes: the pixel with filtered bytes `x`, left `a`, above `b` and above
// left `c`. `a` stays widened between steps (the sum is taken bytewise, so it wraps and the high
// bytes stay 0) instead of being packed and unpacked, keeping the chain from one pixel to the next
// short; |p - a| = |b - c| depends only on the row above and is off that chain. A wide load's extra
// bytes only reach lanes beyond the pixel, which the next pixel's store overwrites.
ALWAYS_INLINE __m128i SIMD(paeth_step)(__m128i x, __m128i a, __m128i b, __m128i c) {
    const __m128i b_minus_c = _mm_sub_epi16(b, c);
    const __m128i a_minus_c = _mm_sub_epi16(a, c);
    const __m128i pa = SIMD(abs_epi16)(b_minus_c);
    const __m128i pb = SIMD(abs_epi16)(a_minus_c);
    const __m128i pc = SIMD(abs_epi16)(_mm_add_epi16(b_minus_c, a_minus_c));
    // a when pa <= pb and pa <= pc, else b when pb <= pc, else c: the masks straight from compares
    // (not a minimum and then equality) keep the chain one step shorter.
    const __m128i b_or_c = SIMD(select)(_mm_cmpgt_epi16(pb, pc), c, b);
    const __m128i not_a = _mm_or_si128(_mm_cmpgt_epi16(pa, pb), _mm_cmpgt_epi16(pa, pc));
    return _mm_add_epi8(x, SIMD(select)(not_a, b_or_c, a));
}

ALWAYS_INLINE void SIMD(paeth)(const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, const int bpp) {
    const __m128i zero = _mm_setzero_si128();
    __m128i a = zero, c = zero;
#define PAETH_STEP(i, wide)                                                                        \
    do {                                                                                           \
        const __m128i b = _mm_unpacklo_epi8(load_pixel(prior + (i), bpp, wide), zero);             \
        a = SIMD(paeth_step)(_mm_unpacklo_epi8(load_pixel(in + (i), bpp, wide), zero), a, b, c);   \
        store_pixel(out + (i), _mm_packus_epi16(a, a), bpp, wide);                                 \
        c = b;                                                                                     \
    } while (0)
    FOR_EACH_PIXEL(n, bpp, PAETH_STEP);
#undef PAETH_STEP
}

// One Average step in the same 16-bit lanes as Paeth's: a + b fits in 9 bits, so the halved sum is
// exact, and the bytewise add wraps as the filter does while the high bytes stay 0.
ALWAYS_INLINE __m128i SIMD(average_step)(__m128i x, __m128i a, __m128i b) {
    return _mm_add_epi8(x, _mm_srli_epi16(_mm_add_epi16(a, b), 1));
}

// One step of a row filtered with `type` (Paeth or Average), the type a constant once inlined.
ALWAYS_INLINE __m128i SIMD(predict_step)(const int type, __m128i x, __m128i a, __m128i b, __m128i c) {
    return type == FILTER_PAETH ? SIMD(paeth_step)(x, a, b, c) : SIMD(average_step)(x, a, b);
}

// Two rows in one pass, each Paeth or Average (`type` and `type_next`): each step is a chain of
// dependent instructions, so the second row's chain runs beside the first's, its row above taken
// from the first's registers. The second row is written to `out_next` (not in place: there it would
// overwrite the first row's bytes not yet read).
static void SIMD(row_pair)(
    int type_, int type_next_, const uint8_t *in, const uint8_t *in_next, const uint8_t *prior, uint8_t *out,
    uint8_t *out_next, size_t n, int bpp_) {
#define ROW_PAIR_STEP(i, wide)                                                                     \
    do {                                                                                           \
        const __m128i b = _mm_unpacklo_epi8(load_pixel(prior + (i), bpp, wide), zero);             \
        const __m128i x_next = _mm_unpacklo_epi8(load_pixel(in_next + (i), bpp, wide), zero);      \
        const __m128i x = _mm_unpacklo_epi8(load_pixel(in + (i), bpp, wide), zero);                \
        a = SIMD(predict_step)(type, x, a, b, c);                                                  \
        store_pixel(out + (i), _mm_packus_epi16(a, a), bpp, wide);                                 \
        a_next = SIMD(predict_step)(type_next, x_next, a_next, a, c_next);                         \
        store_pixel(out_next + (i), _mm_packus_epi16(a_next, a_next), bpp, wide);                  \
        c = b;                                                                                     \
        c_next = a;                                                                                \
    } while (0)
#define ROW_PAIR(pixel_bytes, first, second)                                                       \
    do {                                                                                           \
        const int bpp = pixel_bytes, type = first, type_next = second;                             \
        const __m128i zero = _mm_setzero_si128();                                                  \
        __m128i a = zero, c = zero, a_next = zero, c_next = zero;                                  \
        FOR_EACH_PIXEL(n, bpp, ROW_PAIR_STEP);                                                     \
    } while (0)
#define ROW_PAIR_TYPES(pixel_bytes)                                                                \
    do {                                                                                           \
        if (type_ == FILTER_PAETH) {                                                               \
            if (type_next_ == FILTER_PAETH) ROW_PAIR(pixel_bytes, FILTER_PAETH, FILTER_PAETH);     \
            else ROW_PAIR(pixel_bytes, FILTER_PAETH, FILTER_AVERAGE);                              \
        } else {                                                                                   \
            if (type_next_ == FILTER_PAETH) ROW_PAIR(pixel_bytes, FILTER_AVERAGE, FILTER_PAETH);   \
            else ROW_PAIR(pixel_bytes, FILTER_AVERAGE, FILTER_AVERAGE);                            \
        }                                                                                          \
    } while (0)
    switch (bpp_) {
    case 3: ROW_PAIR_TYPES(3); return;
    case 4: ROW_PAIR_TYPES(4); return;
    case 6: ROW_PAIR_TYPES(6); return;
    default: ROW_PAIR_TYPES(8); return;
    }
#undef ROW_PAIR_TYPES
#undef ROW_PAIR
#undef ROW_PAIR_STEP
}

// Four Paeth rows in one pass, for pixels of 3 or 4 bytes, as a wavefront: one register holds a
// pixel of the first row and the pixel before it in the second (a half each, 4 lanes of 16 bits),
// another the third and fourth rows one and two pixels further back. Each step then works on four
// pixels with the instructions two took in a pair, and the two registers' chains run side by side:
// the second takes its row above from the first's previous step. A pixel's row above, above left
// and left are all finished when it is reached. Rows 2 to 4 go to `scratch` (3 rows), as in a pair.
// Steps where a row has not started or has ended load zeros for it (so a row starts with the zero
// neighbours the specification reads before its first pixel) and store nothing (`exact`),
// as do those at a row's last pixel (a wide load or store reaches one byte past a 3-byte pixel);
// the others use wide loads and stores.
ALWAYS_INLINE uint32_t SIMD(quad_load)(const uint8_t *row, ptrdiff_t px, ptrdiff_t pixels, int bpp, int exact) {
    uint32_t word = 0;
    if (!exact) {
        memcpy(&word, row + px * bpp, 4);
    } else if (px >= 0 && px < pixels) {
        memcpy(&word, row + px * bpp, (size_t)bpp);
    }
    return word;
}

ALWAYS_INLINE void SIMD(quad_store)(
    uint8_t *row, ptrdiff_t px, ptrdiff_t pixels, uint32_t word, int bpp, int exact) {
    if (!exact) {
        memcpy(row + px * bpp, &word, 4);
    } else if (px >= 0 && px < pixels) {
        memcpy(row + px * bpp, &word, (size_t)bpp);
    }
}

// Two 4-byte words as one register of 16-bit lanes: `low` in lanes 0-3, `high` in lanes 4-7.
ALWAYS_INLINE __m128i SIMD(quad_widen)(uint32_t low, uint32_t high) {
    const uint64_t both = (uint64_t)low | (uint64_t)high << 32;
    return _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)both), _mm_setzero_si128());
}

static void SIMD(paeth_quad)(
    const uint8_t *in, size_t in_stride, const uint8_t *prior, uint8_t *out, uint8_t *scratch, size_t n, int bpp_) {
#define PAETH_QUAD_STEP(step, exact)                                                               \
    do {                                                                                           \
        const ptrdiff_t s = (step);                                                                \
        const __m128i x1 = SIMD(quad_widen)(                                                       \
            SIMD(quad_load)(in, s, pixels, bpp, exact), SIMD(quad_load)(in1, s - 1, pixels, bpp, exact)); \
        const __m128i x2 = SIMD(quad_widen)(                                                       \
            SIMD(quad_load)(in2, s - 2, pixels, bpp, exact), SIMD(quad_load)(in3, s - 3, pixels, bpp, exact)); \
        const __m128i above = SIMD(quad_widen)(SIMD(quad_load)(prior, s, pixels, bpp, exact), 0);  \
        const __m128i b1 = _mm_unpacklo_epi64(above, r1);                                          \
        const __m128i b2 = _mm_castpd_si128(_mm_shuffle_pd(_mm_castsi128_pd(r1), _mm_castsi128_pd(r2), 1)); \
        r1 = SIMD(paeth_step)(x1, r1, b1, c1);                                                     \
        r2 = SIMD(paeth_step)(x2, r2, b2, c2);                                                     \
        c1 = b1;                                                                                   \
        c2 = b2;                                                                                   \
        const uint64_t done1 = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(r1, r1));              \
        const uint64_t done2 = (uint64_t)_mm_cvtsi128_si64(_mm_packus_epi16(r2, r2));              \
        SIMD(quad_store)(out, s, pixels, (uint32_t)done1, bpp, exact);                             \
        SIMD(quad_store)(out1, s - 1, pixels, (uint32_t)(done1 >> 32), bpp, exact);                \
        SIMD(quad_store)(out2, s - 2, pixels, (uint32_t)done2, bpp, exact);                        \
        SIMD(quad_store)(out3, s - 3, pixels, (uint32_t)(done2 >> 32), bpp, exact);                \
    } while (0)
#define PAETH_QUAD(pixel_bytes)                                                                    \
    do {                                                                                           \
        const int bpp = pixel_bytes;                                                               \
        const ptrdiff_t pixels = (ptrdiff_t)(n / (size_t)bpp);                                     \
        const ptrdiff_t fast_end = pixels - 1 > 3 ? pixels - 1 : 3;                                \
        __m128i r1 = _mm_setzero_si128(), r2 = r1, c1 = r1, c2 = r1;                               \
        ptrdiff_t step = 0;                                                                        \
        for (; step < 3; step++) PAETH_QUAD_STEP(step, 1);                                         \
        for (; step < fast_end; step++) PAETH_QUAD_STEP(step, 0);                                  \
        for (; step < pixels + 3; step++) PAETH_QUAD_STEP(step, 1);                                \
    } while (0)
    const uint8_t *in1 = in + in_stride, *in2 = in1 + in_stride, *in3 = in2 + in_stride;
    uint8_t *out1 = scratch, *out2 = scratch + n, *out3 = scratch + 2 * n;
    if (bpp_ == 3) {
        PAETH_QUAD(3);
    } else {
        PAETH_QUAD(4);
    }
#undef PAETH_QUAD
#undef PAETH_QUAD_STEP
}

ALWAYS_INLINE void SIMD(unfilter_row_of)(
    int type, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, const int bpp) {
    switch (type) {
    case FILTER_SUB: sub_simd(in, out, n, bpp); return;
    case FILTER_UP:
        if (prior == NULL) break;
        up_simd(in, prior, out, n);
        return;
    case FILTER_AVERAGE:
        if (prior == NULL) break;  // once an image, not worth a vector loop
        average_simd(in, prior, out, n, bpp);
        return;
    case FILTER_PAETH:
        if (prior == NULL) {
            sub_simd(in, out, n, bpp);
        } else {
            SIMD(paeth)(in, prior, out, n, bpp);
        }
        return;
    default: break;
    }
    unfilter_row_portable(type, in, prior, out, n, (size_t)bpp);
}

// One row with the pixel size made a constant; pixels of 1 and 2 bytes take the portable loops.
static void SIMD(unfilter_row)(int type, const uint8_t *in, const uint8_t *prior, uint8_t *out, size_t n, int bpp) {
    switch (bpp) {
    case 3: SIMD(unfilter_row_of)(type, in, prior, out, n, 3); return;
    case 4: SIMD(unfilter_row_of)(type, in, prior, out, n, 4); return;
    case 6: SIMD(unfilter_row_of)(type, in, prior, out, n, 6); return;
    case 8: SIMD(unfilter_row_of)(type, in, prior, out, n, 8); return;
    default:
        if (type == FILTER_UP && prior != NULL) {
            up_simd(in, prior, out, n);
            return;
        }
        unfilter_row_portable_any(type, in, prior, out, n, bpp);
    }
}
