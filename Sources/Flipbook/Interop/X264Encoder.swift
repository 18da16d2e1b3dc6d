internal import CX264
import ISOBMFF
import MediaModel

/// The libx264 H.264 encoder, one `x264_t` handle per instance.
///
/// Configured for MP4 output: length-prefixed NAL units (no Annex B start codes), parameter sets
/// kept out of the stream and handed to the muxer, High profile, the colour description in the VUI.
final class X264Encoder: VideoEncoder {
    private let handle: OpaquePointer
    let sampleEntry: any SampleEntry
    let codecName = "h264"
    let pictureFormat: PictureFormat

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, CRF, preset and threads.
    ///   - colour: The matrix and range the pictures were converted with, written to the VUI.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        var param = try X264Encoder.parameters(settings: settings, colour: colour)
        let opened = flipbook_x264_encoder_open(&param)
        x264_param_cleanup(&param)
        guard let handle = opened else {
            throw FlipbookError.encoderNotOpened(
                by: "x264", width: settings.width, height: settings.height, frameRate: settings.frameRate,
                cause: LibraryCallError(library: "libx264", function: "x264_encoder_open", status: 0))
        }
        self.handle = handle
        wide = settings.bitDepth == 10

        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        let headerBytes = x264_encoder_headers(handle, &nals, &count)
        guard headerBytes > 0, let nals else {
            x264_encoder_close(handle)
            throw FlipbookError.encoderGaveNoConfiguration(
                "H.264", "parameter sets",
                cause: LibraryCallError(
                    library: "libx264", function: "x264_encoder_headers", status: Int(headerBytes)))
        }
        var sps: [[UInt8]] = []
        var pps: [[UInt8]] = []
        var sei: [UInt8] = []
        for nal in UnsafeBufferPointer(start: nals, count: Int(count)) {
            if nal.i_type == Int32(NAL_SEI.rawValue) {
                sei = Array(UnsafeBufferPointer(start: nal.p_payload, count: Int(nal.i_payload)))
                continue
            }
            // With b_annexb = 0 each payload starts with a 4-byte length, which avcC does not want.
            let unit = Array(UnsafeBufferPointer(start: nal.p_payload + 4, count: Int(nal.i_payload) - 4))
            switch nal.i_type {
            case Int32(NAL_SPS.rawValue): sps.append(unit)
            case Int32(NAL_PPS.rawValue): pps.append(unit)
            default: break
            }
        }
        sampleEntry = VideoSampleEntry.avc(
            width: settings.width, height: settings.height,
            decoderConfiguration: AVCDecoderConfiguration(
                sequenceParameterSets: sps, pictureParameterSets: pps, bitDepthLuma: UInt8(settings.bitDepth),
                bitDepthChroma: UInt8(settings.bitDepth)),
            colour: ColourDescription(colour), compressorName: "Flipbook H.264")
        pendingSEI = sei
    }

    /// x264's parameters for `settings`: the preset and tune, size, rate, rate control, keyframes,
    /// B-frames, the colour description for the VUI, MP4-style output, the pass, the level, the
    /// caller's own parameters and the profile. Strings set by `x264_param_parse` are x264's to free
    /// (`x264_param_cleanup`) once the encoder is open.
    private static func parameters(settings: VideoSettings, colour: ColourMatrix) throws -> x264_param_t {
        var param = x264_param_t()
        try x264Check(
            x264_param_default_preset(&param, settings.preset.rawValue, settings.tune), "x264_param_default_preset",
            "x264 does not know the preset \(settings.preset.rawValue) or the tune \(settings.tune ?? "")")
        // x264 0.164's AVX-512 code reads memory it never wrote when the macroblock tree is on, so the
        // stream changed with whatever the heap held (scripts/x264-uninitialised-read.sh); without it the
        // stream is the same every run, and the same as with AVX-512 on zeroed memory.
        param.cpu &= ~UInt32(X264_CPU_AVX512)
        param.i_width = Int32(settings.width)
        param.i_height = Int32(settings.height)
        param.i_csp = X264_CSP_I420 | (settings.bitDepth == 10 ? X264_CSP_HIGH_DEPTH : 0)
        param.i_bitdepth = Int32(settings.bitDepth)
        param.i_threads = Int32(settings.encoderThreads)
        param.i_fps_num = UInt32(settings.frameRate.numerator)
        param.i_fps_den = UInt32(settings.frameRate.denominator)
        // Times are frame numbers, one tick per nominal frame.
        param.i_timebase_num = UInt32(settings.frameRate.denominator)
        param.i_timebase_den = UInt32(settings.frameRate.numerator)
        // Rate control and the stream's timing information follow the nominal rate (for a slideshow,
        // one frame per image).
        param.b_vfr_input = 0
        if let bFrames = settings.bFrames { param.i_bframe = Int32(bFrames) }
        if !settings.reordersFrames { param.i_bframe = 0 }
        if let frames = settings.keyframeFrames {
            // Fragments end at keyframes: a keyframe at least once a fragment keeps them near their length.
            param.i_keyint_max = Int32(frames)
            param.i_keyint_min = min(param.i_keyint_min, Int32(frames))
        }
        param.rc.i_rc_method = X264_RC_CRF
        param.rc.f_rf_constant = Float(settings.crf)
        if let rate = settings.rateControl.averageRate {
            param.rc.i_rc_method = X264_RC_ABR
            param.rc.i_bitrate = Int32(RateControl.kilobits(rate))
        }
        if let limit = settings.rateLimit {
            param.rc.i_vbv_max_bitrate = Int32(RateControl.kilobits(limit.maxBitrate))
            param.rc.i_vbv_buffer_size = Int32(RateControl.kilobits(limit.bufferSize))
        } else if let level = settings.level,
            let most = settings.codec.levelRate(level, profile: settings.effectiveProfile), let buffer = most.buffer
        {
            // Kept within the level: x264 marks it but holds a stream to its rate and buffer only by a VBV.
            param.rc.i_vbv_max_bitrate = Int32(RateControl.kilobits(most.bitrate))
            param.rc.i_vbv_buffer_size = Int32(RateControl.kilobits(buffer))
        }
        if let level = settings.level { param.i_level_idc = Int32(level.tenTimes) }
        param.vui.i_sar_width = 1
        param.vui.i_sar_height = 1
        param.vui.i_colorprim = Int32(colour.colourPrimaries)
        param.vui.i_transfer = Int32(colour.transferCharacteristics)
        param.vui.i_colmatrix = Int32(colour.matrixCoefficients)
        param.vui.b_fullrange = colour.fullRange ? 1 : 0
        if settings.colourStandard.isHDR, let display = settings.masteringDisplay?.volume {
            typealias Volume = MasteringDisplayColourVolume
            param.mastering_display.b_mastering_display = 1
            param.mastering_display.i_green_x = Int32(Volume.fiftyThousandths(display.green.x))
            param.mastering_display.i_green_y = Int32(Volume.fiftyThousandths(display.green.y))
            param.mastering_display.i_blue_x = Int32(Volume.fiftyThousandths(display.blue.x))
            param.mastering_display.i_blue_y = Int32(Volume.fiftyThousandths(display.blue.y))
            param.mastering_display.i_red_x = Int32(Volume.fiftyThousandths(display.red.x))
            param.mastering_display.i_red_y = Int32(Volume.fiftyThousandths(display.red.y))
            param.mastering_display.i_white_x = Int32(Volume.fiftyThousandths(display.white.x))
            param.mastering_display.i_white_y = Int32(Volume.fiftyThousandths(display.white.y))
            param.mastering_display.i_display_max = Int64(Volume.tenThousandths(display.maxLuminance))
            param.mastering_display.i_display_min = Int64(Volume.tenThousandths(display.minLuminance))
        }
        if settings.colourStandard.isHDR, let light = settings.contentLight {
            param.content_light_level.b_cll = 1
            param.content_light_level.i_max_cll = Int32(light.maxCLL)
            param.content_light_level.i_max_fall = Int32(light.maxFALL)
        }
        param.b_annexb = 0
        param.b_repeat_headers = 0
        param.i_log_level = X264_LOG_NONE
        if settings.lossless {
            param.rc.i_rc_method = X264_RC_CQP
            param.rc.i_qp_constant = 0
        }
        do {
            if let pass = settings.pass {
                let number = if case .first = pass { "1" } else { "2" }
                try parse(&param, EncoderParameter(key: "pass", value: number))
                try parse(&param, EncoderParameter(key: "stats", value: pass.statistics))
                // x264's default tolerance (1.0) lets a second pass of a short movie land 5-6% over its
                // rate, as ffmpeg's two passes do; a quarter of it lands within 1% on the bench corpora.
                param.rc.f_rate_tolerance = 0.25
            }
            for parameter in settings.encoderParameters { try parse(&param, parameter) }
            // The first pass only measures: x264's faster analysis for it, as its own tool does.
            if case .first = settings.pass { x264_param_apply_fastfirstpass(&param) }
            let profile = H264Profile(for: settings).rawValue
            try x264Check(
                x264_param_apply_profile(&param, profile), "x264_param_apply_profile",
                "x264 cannot apply the \(profile) profile to these settings")
        } catch {
            x264_param_cleanup(&param)
            throw error
        }
        return param
    }

    /// Hands one parameter to x264's own parser.
    private static func parse(_ param: inout x264_param_t, _ parameter: EncoderParameter) throws {
        let status = x264_param_parse(&param, parameter.key, parameter.value)
        guard status != 0 else { return }
        throw parameter.refusal(
            by: "x264", unknownName: status == X264_PARAM_BAD_NAME, library: "libx264", function: "x264_param_parse",
            status: status)
    }

    /// Checks parameters with x264's own parser, on its defaults.
    static func check(_ parameters: [EncoderParameter]) throws {
        var param = x264_param_t()
        x264_param_default(&param)
        defer { x264_param_cleanup(&param) }
        for parameter in parameters { try parse(&param, parameter) }
    }

    /// x264's SEI naming its version and options, length-prefixed; it goes in front of the first
    /// picture, where ffmpeg and mediainfo look for it.
    private var pendingSEI: [UInt8]

    /// Whether the handle was closed at the end of the stream (see ``flush()``).
    private var isClosed = false

    deinit {
        if !isClosed { x264_encoder_close(handle) }
    }

    /// Whether pictures go in as 16-bit samples (High 10).
    private let wide: Bool

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        var input = x264_picture_t()
        x264_picture_init(&input)
        input.i_pts = presentationTime
        input.img.i_plane = 3
        if wide {
            // x264 takes 10-bit samples in 16-bit words: 16-bit sources come converted to 10 bits
            // already, 8-bit values are scaled exactly (times 4).
            input.img.i_csp = X264_CSP_I420 | X264_CSP_HIGH_DEPTH
            input.img.i_stride = (Int32(picture.width * 2), Int32(picture.width), Int32(picture.width), 0)
            let planes = picture.tenBitPlanes
            return try withPlaneAddresses(planes.luma, planes.cb, planes.cr) { luma, cb, cr in
                input.img.plane = (luma, cb, cr, nil)
                return try encodeOnce(&input).map { [$0] } ?? []
            }
        }
        input.img.i_csp = X264_CSP_I420
        input.img.i_stride = (Int32(picture.width), Int32(picture.width / 2), Int32(picture.width / 2), 0)
        // x264 reads the planes during this call only; it copies them into its own frame buffers.
        return try withPlaneAddresses(picture.luma, picture.cb, picture.cr) { luma, cb, cr in
            input.img.plane = (luma, cb, cr, nil)
            return try encodeOnce(&input).map { [$0] } ?? []
        }
    }

    func flush() throws -> [EncodedPacket] {
        guard !isClosed else { return [] }
        var packets: [EncodedPacket] = []
        while x264_encoder_delayed_frames(handle) > 0 {
            if let packet = try encodeOnce(nil) { packets.append(packet) }
        }
        // x264 gives a first pass's statistics file its name when the encoder closes: at once, so the
        // second pass finds it whenever this object goes.
        x264_encoder_close(handle)
        isClosed = true
        return packets
    }

    /// One `x264_encoder_encode` call; the payload is copied out before the next call reuses it.
    private func encodeOnce(_ input: UnsafeMutablePointer<x264_picture_t>?) throws -> EncodedPacket? {
        var output = x264_picture_t()
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        let size = x264_encoder_encode(handle, &nals, &count, input, &output)
        try x264Check(size, "x264_encoder_encode", "x264 failed to encode a picture")
        guard size > 0, let nals else { return nil }
        // x264 lays the NAL units of one picture out back to back, so one copy takes them all.
        var data = pendingSEI
        pendingSEI = []
        data.append(contentsOf: UnsafeBufferPointer(start: nals[0].p_payload, count: Int(size)))
        return EncodedPacket(
            data: data, presentationTime: output.i_pts, decodeTime: output.i_dts, isKeyframe: output.b_keyframe != 0)
    }
}

/// The funnel for x264 status codes: negative means failure.
private func x264Check(_ status: Int32, _ function: String, _ message: String) throws {
    guard status >= 0 else {
        throw FlipbookError.libraryCallFailed(
            .encoderFailed, message,
            cause: LibraryCallError(library: "libx264", function: function, status: Int(status)))
    }
}
