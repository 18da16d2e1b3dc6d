#ifndef FLIPBOOK_CVPX_SHIM_H
#define FLIPBOOK_CVPX_SHIM_H

// libvpx 1.12 (Debian 12, libvpx-dev, pkg-config vpx): the VP9 encoder.
#include <vpx/vpx_encoder.h>
#include <vpx/vp8cx.h>

// vpx_codec_enc_init is a macro that passes the ABI version this header was built with; Swift sees
// no macros that take arguments.
static inline vpx_codec_err_t flipbook_vpx_encoder_init(
    vpx_codec_ctx_t *ctx, const vpx_codec_enc_cfg_t *cfg, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init_ver(ctx, vpx_codec_vp9_cx(), cfg, flags, VPX_ENCODER_ABI_VERSION);
}

// vpx_codec_control is a macro over the variadic vpx_codec_control_, which Swift cannot call; every
// control Flipbook sets takes an int (or an unsigned int of the same size and value).
static inline vpx_codec_err_t flipbook_vpx_control(vpx_codec_ctx_t *ctx, int control, int value) {
    return vpx_codec_control_(ctx, control, value);
}

#endif
