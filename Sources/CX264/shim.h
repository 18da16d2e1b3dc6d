#ifndef FLIPBOOK_CX264_SHIM_H
#define FLIPBOOK_CX264_SHIM_H

#include <stdint.h>
#include <x264.h>

// x264_encoder_open is a macro naming x264_encoder_open_<build>, which Swift cannot see.
static inline x264_t *flipbook_x264_encoder_open(x264_param_t *param) {
    return x264_encoder_open(param);
}

#endif
