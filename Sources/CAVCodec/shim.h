#ifndef FLIPBOOK_CAVCODEC_SHIM_H
#define FLIPBOOK_CAVCODEC_SHIM_H

// libavcodec 59, libavutil 57 and libswresample 4 (Debian 12's FFmpeg 5.1): the native AAC
// encoder, the libopus wrapper, the FLAC decoder with its parser, the prores_ks ProRes encoder (its
// options set through <opt.h>), the resampler that brings sound to the encoders' rates and layouts, and
// libavformat 59, which demuxes any sound file FFmpeg reads into packets for those decoders. Flipbook
// muxes on its own: libavformat only reads.
#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavcodec/vorbis_parser.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libavutil/opt.h>
#include <libswresample/swresample.h>

// AVERROR(EAGAIN) is a function-like macro, invisible to Swift: "send more input" or "take output first".
static inline int flipbook_averror_eagain(void) { return AVERROR(EAGAIN); }

// AVERROR_EOF is built by the FFERRTAG macro: the encoder or decoder is drained.
static inline int flipbook_averror_eof(void) { return AVERROR_EOF; }

// AV_NOPTS_VALUE is a cast in a macro: "no timestamp", for av_parser_parse2.
static inline int64_t flipbook_av_nopts_value(void) { return AV_NOPTS_VALUE; }

// AV_CODEC_FLAG_GLOBAL_HEADER, named here so the Swift side does not spell its bit: the encoder's
// AudioSpecificConfig goes to extradata (for esds) instead of into every packet.
static inline int flipbook_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

// AVFrame's data, linesize and buf are fixed-size C arrays, imported as tuples Swift cannot index:
// plane `index` of `frame` becomes `buffer` (the frame takes the reference), its rows `bytes_per_row`
// apart, and the frame's extended_data points at its data, as av_frame_get_buffer would leave it.
static inline void flipbook_av_frame_set_plane(AVFrame *frame, int index, AVBufferRef *buffer, int bytes_per_row) {
    frame->buf[index] = buffer;
    frame->data[index] = buffer->data;
    frame->linesize[index] = bytes_per_row;
    frame->extended_data = frame->data;
}

#endif
