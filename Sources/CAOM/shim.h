#ifndef FLIPBOOK_CAOM_SHIM_H
#define FLIPBOOK_CAOM_SHIM_H

// libaom 3.6 (Debian 12, libaom-dev, pkg-config aom): AV1's reference encoder.
#include <aom/aom_encoder.h>
#include <aom/aomcx.h>
#include <stdlib.h>

// aom_codec_enc_init is a macro that passes the ABI version this header was built with; Swift sees
// no macros that take arguments.
static inline aom_codec_err_t flipbook_aom_encoder_init(
    aom_codec_ctx_t *ctx, const aom_codec_enc_cfg_t *cfg, aom_codec_flags_t flags) {
    return aom_codec_enc_init_ver(ctx, aom_codec_av1_cx(), cfg, flags, AOM_ENCODER_ABI_VERSION);
}

// aom_codec_control is variadic, which Swift cannot call; every control Flipbook sets takes an int
// (or an unsigned int of the same size and value).
static inline aom_codec_err_t flipbook_aom_control(aom_codec_ctx_t *ctx, int control, int value) {
    return aom_codec_control(ctx, control, value);
}

// The sequence header libaom hands out is allocated with malloc, its buffer too: both are the
// caller's to free.
static inline void flipbook_aom_free_fixed_buffer(aom_fixed_buf_t *buffer) {
    if (buffer) {
        free(buffer->buf);
        free(buffer);
    }
}

#endif
