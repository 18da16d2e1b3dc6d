internal import CVPX
import Foundation

/// libvpx's VP9 configuration for a movie's settings, as ffmpeg's libvpx-vp9 makes it from
/// `-crf N -b:v 0 -row-mt 1 -cpu-used S` (or `-b:v RATE`), and the controls set after the encoder opens.
///
/// - Constant quality is `VPX_Q` with `cq_level` at the CRF (a whole number, 0 to 63) and the full
///   quantiser range (0 to 63), as ffmpeg leaves it; an average bit rate is one-pass `VPX_VBR` in kb/s.
/// - The preset is `VP8E_SET_CPUUSED` in libvpx's good-quality mode (``EncoderPreset/vp9Speed``).
/// - Threads: one per core (at most 16, as ffmpeg caps them) or ``VideoSettings/encoderThreads``,
///   with row multi-threading and as many tile columns as the width allows (one per 256 pixels,
///   a power of two), which is what lets more than one thread work on a picture.
/// - Keyframes at most ``VideoSettings/keyframeFrames`` apart, or libvpx's own 128 frames (about 4 s
///   at 30 fps); libvpx's 25 frames of look-ahead, as ffmpeg leaves them. Its one-pass mode codes no
///   hidden alternate reference frames (ffmpeg's `trace_headers` shows every frame shown); one it coded
///   would be handed out with the frame shown after it, in a superframe.
/// - The stream's colour space (matrix) and range, which VP9 headers carry; the primaries and transfer
///   are the container's to state.
struct VPXConfiguration {
    let width: Int
    let height: Int
    let bitDepth: Int
    /// libvpx's configuration, from its VP9 defaults.
    private(set) var settings: vpx_codec_enc_cfg_t
    /// The controls set once the encoder is open: libvpx's identifier, the value, and a name for messages.
    private(set) var controls: [(id: Int32, value: Int32, name: String)]
    /// The settings as a message names them.
    let summary: String

    /// The configuration for pictures of `settings` converted with `colour`.
    ///
    /// - Throws: `.encoderFailed` when this libvpx has no VP9 encoder defaults.
    init(settings movie: VideoSettings, colour: ColourMatrix) throws {
        width = movie.width
        height = movie.height
        bitDepth = movie.bitDepth
        var config = vpx_codec_enc_cfg_t()
        try vpxCall(
            "vpx_codec_enc_config_default", "libvpx has no VP9 encoder defaults",
            vpx_codec_enc_config_default(vpx_codec_vp9_cx(), &config, 0))
        config.g_w = UInt32(movie.width)
        config.g_h = UInt32(movie.height)
        // One tick a frame: the frame numbers are the presentation times.
        config.g_timebase = vpx_rational(
            num: Int32(movie.frameRate.denominator), den: Int32(movie.frameRate.numerator))
        config.g_threads = UInt32(Self.threads(movie.encoderThreads))
        config.g_pass = VPX_RC_ONE_PASS
        if movie.bitDepth > 8 {
            config.g_profile = 2
            config.g_bit_depth = vpx_bit_depth_t(rawValue: UInt32(movie.bitDepth))
            config.g_input_bit_depth = UInt32(movie.bitDepth)
        }
        var controls: [(Int32, Int32, String)] = [
            (Int32(VP8E_SET_CPUUSED.rawValue), Int32(movie.preset.vp9Speed), "speed (cpu-used)"),
            (Int32(VP9E_SET_ROW_MT.rawValue), 1, "row multi-threading"),
            (Int32(VP9E_SET_TILE_COLUMNS.rawValue), Int32(Self.tileColumnsLog2(width: movie.width)), "tile columns"),
            (Int32(VP9E_SET_COLOR_SPACE.rawValue), Int32(Self.colourSpace(colour).rawValue), "colour space"),
            (
                Int32(VP9E_SET_COLOR_RANGE.rawValue),
                Int32((colour.fullRange ? VPX_CR_FULL_RANGE : VPX_CR_STUDIO_RANGE).rawValue), "colour range"
            ),
        ]
        var quality = "CRF \(Int(movie.crf.rounded()))"
        if let rate = movie.rateControl.averageRate {
            config.rc_end_usage = VPX_VBR
            config.rc_target_bitrate = UInt32(max(1, (rate + 500) / 1000))
            quality = "\(config.rc_target_bitrate) kb/s"
        } else {
            config.rc_end_usage = VPX_Q
            controls.append((Int32(VP8E_SET_CQ_LEVEL.rawValue), Int32(movie.crf.rounded()), "CRF (cq-level)"))
        }
        if let frames = movie.keyframeFrames {
            config.kf_max_dist = UInt32(frames)
        }
        if movie.pictureFormat.hasAlpha {
            // The picture and alpha streams must have their keyframes on the same pictures (a player
            // seeks to both at once): neither places its own; the encoder forces them every kf_max_dist.
            config.kf_mode = VPX_KF_DISABLED
        }
        settings = config
        self.controls = controls
        summary =
            "\(movie.width)x\(movie.height) at \(movie.frameRate) fps, \(movie.bitDepth)-bit, "
            + "speed \(movie.preset.vp9Speed), \(quality)"
    }

    /// The longest distance between keyframes, in pictures.
    var keyframeInterval: Int { Int(max(1, settings.kf_max_dist)) }

    /// The same settings for the alpha stream, lossless: the alpha plane comes out as the images
    /// had it (flat alpha costs next to nothing; soft edges are kept to the level).
    var forAlpha: VPXConfiguration {
        var alpha = self
        alpha.settings.rc_end_usage = VPX_Q
        alpha.settings.rc_min_quantizer = 0
        alpha.settings.rc_max_quantizer = 0
        alpha.controls.removeAll { $0.id == Int32(VP8E_SET_CQ_LEVEL.rawValue) }
        alpha.controls.append((Int32(VP9E_SET_LOSSLESS.rawValue), 1, "lossless alpha"))
        return alpha
    }

    /// libvpx threads: `asked`, or one per core when 0; at most 16, as ffmpeg gives it.
    static func threads(_ asked: Int) -> Int {
        min(16, asked > 0 ? asked : ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The log2 of the tile columns for a picture `width` wide: as many as VP9 allows (a tile is at
    /// least four 64-pixel superblocks wide), at most 64: 2 (four tiles) for 720p and 1080p, 3 for 4K.
    static func tileColumnsLog2(width: Int) -> Int {
        let superblocks = (width + 63) / 64
        var log2 = 0
        while log2 < 6 && superblocks >> (log2 + 1) >= 4 { log2 += 1 }
        return log2
    }

    /// The VP9 colour space (its name for the matrix) of `colour`'s matrix coefficients.
    static func colourSpace(_ colour: ColourMatrix) -> vpx_color_space_t {
        switch colour.matrixCoefficients {
        case 1: VPX_CS_BT_709
        case 5: VPX_CS_BT_601
        case 6: VPX_CS_SMPTE_170
        case 7: VPX_CS_SMPTE_240
        case 9: VPX_CS_BT_2020
        default: VPX_CS_UNKNOWN
        }
    }
}
