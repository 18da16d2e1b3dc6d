internal import CAOM
import Foundation
import ISOBMFF
import MediaModel

/// libaom, AV1's reference encoder: AV1's second encoder beside SVT-AV1 (`--encoder libaom`), set up as
/// ffmpeg's `-c:v libaom-av1 -crf N -b:v 0 -cpu-used S -row-mt 1` sets it up.
///
/// - Constant quality is `AOM_Q` with `cq-level` at the CRF (a whole number, 0 to 63); an average bit
///   rate is one-pass `AOM_VBR` in kb/s.
/// - The preset is `AOME_SET_CPUUSED` in libaom's good-quality mode (``EncoderPreset/libaomSpeed``).
/// - Threads: one per core (at most 16) or ``VideoSettings/encoderThreads``, with row multi-threading
///   and a tile column for each 512 pixels of width (a power of two).
/// - Keyframes at most ``VideoSettings/keyframeFrames`` apart, or libaom's own.
/// - libaom codes hidden alternate reference frames in the temporal unit of the frame shown after
///   them, so every packet is one temporal unit that shows one frame, in presentation order; its
///   temporal delimiter is taken out, as AV1-ISOBMFF wants samples. The sequence header libaom gives
///   once it is open makes the `av1C` record.
final class LibaomEncoder: VideoEncoder {
    private let context: UnsafeMutablePointer<aom_codec_ctx_t>
    let sampleEntry: any SampleEntry
    let codecName = "av1"
    let pictureFormat: PictureFormat
    private let width: Int
    private let height: Int
    /// Whether the end of the stream has been signalled.
    private var isFlushed = false

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, depth, quality, preset, keyframes and threads.
    ///   - colour: The matrix and range the pictures were converted with, which the stream states.
    /// - Throws: `.invalidSettings` or `.encoderFailed` when libaom refuses the settings.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        (width, height) = (settings.width, settings.height)
        var config = aom_codec_enc_cfg_t()
        try aomCall(
            "aom_codec_enc_config_default", "libaom has no AV1 encoder defaults",
            aom_codec_enc_config_default(aom_codec_av1_cx(), &config, UInt32(AOM_USAGE_GOOD_QUALITY)))
        config.g_w = UInt32(width)
        config.g_h = UInt32(height)
        // One tick a frame: the frame numbers are the presentation times.
        config.g_timebase = aom_rational(
            num: Int32(settings.frameRate.denominator), den: Int32(settings.frameRate.numerator))
        config.g_threads = UInt32(Self.threads(settings.encoderThreads))
        config.g_pass = AOM_RC_ONE_PASS
        config.g_profile = 0
        if settings.bitDepth > 8 {
            config.g_bit_depth = AOM_BITS_10
            config.g_input_bit_depth = 10
        }
        let tags = ColourDescription(colour)
        var controls: [(Int32, Int32, String)] = [
            (Int32(AOME_SET_CPUUSED.rawValue), Int32(settings.preset.libaomSpeed), "speed (cpu-used)"),
            (Int32(AV1E_SET_ROW_MT.rawValue), 1, "row multi-threading"),
            (Int32(AV1E_SET_TILE_COLUMNS.rawValue), Int32(Self.tileColumnsLog2(width: width)), "tile columns"),
            (Int32(AV1E_SET_COLOR_PRIMARIES.rawValue), Int32(tags.colourPrimaries), "colour primaries"),
            (
                Int32(AV1E_SET_TRANSFER_CHARACTERISTICS.rawValue), Int32(tags.transferCharacteristics),
                "transfer characteristics"
            ),
            (Int32(AV1E_SET_MATRIX_COEFFICIENTS.rawValue), Int32(tags.matrixCoefficients), "matrix coefficients"),
            (Int32(AV1E_SET_COLOR_RANGE.rawValue), tags.fullRange ? 1 : 0, "colour range"),
        ]
        var quality = "CRF \(Int(settings.crf.rounded()))"
        if let rate = settings.rateControl.averageRate {
            config.rc_end_usage = AOM_VBR
            config.rc_target_bitrate = UInt32(max(1, (rate + 500) / 1000))
            quality = "\(config.rc_target_bitrate) kb/s"
        } else {
            config.rc_end_usage = AOM_Q
            controls.append((Int32(AOME_SET_CQ_LEVEL.rawValue), Int32(settings.crf.rounded()), "CRF (cq-level)"))
        }
        if let frames = settings.keyframeFrames {
            config.kf_max_dist = UInt32(frames)
        }
        let summary =
            "\(width)x\(height) at \(settings.frameRate) fps, \(settings.bitDepth)-bit, "
            + "speed \(settings.preset.libaomSpeed), \(quality)"
        context = .allocate(capacity: 1)
        context.initialize(to: aom_codec_ctx_t())
        let flags = settings.bitDepth > 8 ? aom_codec_flags_t(AOM_CODEC_USE_HIGHBITDEPTH) : 0
        do {
            try aomCall(
                "aom_codec_enc_init", "libaom refused the settings: \(summary)",
                flipbook_aom_encoder_init(context, &config, flags), context: context)
        } catch {
            context.deallocate()
            throw error
        }
        do {
            for (control, value, name) in controls {
                try aomCall(
                    "aom_codec_control", "libaom refused the encoder's \(name) \(value)",
                    flipbook_aom_control(context, control, value), context: context)
            }
            sampleEntry = VideoSampleEntry.av1(
                width: width, height: height, configuration: try Self.configuration(context), colour: tags,
                compressorName: "Flipbook AV1")
        } catch {
            aom_codec_destroy(context)
            context.deallocate()
            throw error
        }
    }

    deinit {
        aom_codec_destroy(context)
        context.deallocate()
    }

    /// The `av1C` record, from the sequence header OBU libaom hands out once it is open.
    private static func configuration(_ context: UnsafeMutablePointer<aom_codec_ctx_t>) throws
        -> AV1CodecConfiguration
    {
        guard let headers = aom_codec_get_global_headers(context) else {
            throw FlipbookError.encoderGaveNoConfiguration("libaom", "sequence header")
        }
        defer { flipbook_aom_free_fixed_buffer(headers) }
        let bytes = Array(UnsafeRawBufferPointer(start: headers.pointee.buf, count: headers.pointee.sz))
        do {
            return try AV1CodecConfiguration(
                sequenceHeaderOBU: AV1OpenBitstreamUnits.removingTemporalDelimiters(bytes))
        } catch {
            throw FlipbookError.av1SequenceHeaderMalformed(by: "libaom", cause: error)
        }
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        if pictureFormat.bitDepth > 8 {
            let planes = picture.tenBitPlanes
            try encode(planes.luma, planes.cb, planes.cr, format: AOM_IMG_FMT_I42016, time: presentationTime)
        } else {
            try encode(picture.luma, picture.cb, picture.cr, format: AOM_IMG_FMT_I420, time: presentationTime)
        }
        return try receive()
    }

    /// Hands libaom one picture of tightly packed planes, which it copies into its look-ahead during the call.
    private func encode<Sample: FixedWidthInteger>(
        _ luma: [Sample], _ cb: [Sample], _ cr: [Sample], format: aom_img_fmt_t, time: Int64
    ) throws {
        let bytesPerSample = MemoryLayout<Sample>.size
        var image = aom_image_t()
        image.fmt = format
        image.bit_depth = UInt32(pictureFormat.bitDepth)
        (image.w, image.h) = (UInt32(width), UInt32(height))
        (image.d_w, image.d_h) = (UInt32(width), UInt32(height))
        (image.r_w, image.r_h) = (UInt32(width), UInt32(height))
        (image.x_chroma_shift, image.y_chroma_shift) = (1, 1)
        image.bps = Int32(12 * bytesPerSample)
        image.stride = (
            Int32(width * bytesPerSample), Int32(width / 2 * bytesPerSample), Int32(width / 2 * bytesPerSample)
        )
        image.monochrome = 0
        image.csp = AOM_CSP_UNKNOWN
        try luma.withUnsafeBufferPointer { luma in
            try cb.withUnsafeBufferPointer { cb in
                try cr.withUnsafeBufferPointer { cr in
                    func bytes(_ plane: UnsafeBufferPointer<Sample>) -> UnsafeMutablePointer<UInt8>? {
                        UnsafeMutableRawPointer(mutating: plane.baseAddress)?.assumingMemoryBound(to: UInt8.self)
                    }
                    image.planes = (bytes(luma), bytes(cb), bytes(cr))
                    try aomCall(
                        "aom_codec_encode", "libaom could not encode picture \(time)",
                        aom_codec_encode(context, &image, time, 1, 0), context: context)
                }
            }
        }
    }

    func flush() throws -> [EncodedPacket] {
        guard !isFlushed else { return [] }
        isFlushed = true
        var packets: [EncodedPacket] = []
        // Each call without a picture hands out what is ready; an empty round means the encoder is drained.
        while true {
            try aomCall(
                "aom_codec_encode", "libaom could not finish the stream", aom_codec_encode(context, nil, 0, 1, 0),
                context: context)
            let ready = try receive()
            if ready.isEmpty { return packets }
            packets += ready
        }
    }

    /// The temporal units libaom has ready, copied out (its buffers live only until the next call) and
    /// without their temporal delimiters.
    private func receive() throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        var iterator: aom_codec_iter_t? = nil
        while let packet = aom_codec_get_cx_data(context, &iterator) {
            guard packet.pointee.kind == AOM_CODEC_CX_FRAME_PKT else { continue }
            let frame = packet.pointee.data.frame
            let bytes = Array(UnsafeRawBufferPointer(start: frame.buf, count: frame.sz))
            let data: [UInt8]
            do {
                data = try AV1OpenBitstreamUnits.removingTemporalDelimiters(bytes)
            } catch {
                throw FlipbookError.av1TemporalUnitMalformed(frame.pts, by: "libaom", cause: error)
            }
            packets.append(
                EncodedPacket(
                    data: data, presentationTime: frame.pts, decodeTime: frame.pts,
                    isKeyframe: frame.flags & aom_codec_frame_flags_t(AOM_FRAME_IS_KEY) != 0))
        }
        return packets
    }

    /// One thread per core, at most 16, or the settings' own count.
    private static func threads(_ asked: Int) -> Int {
        asked > 0 ? asked : min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 16)
    }

    /// log2 of the tile columns: one per 512 pixels of width, a power of two, at most 64.
    private static func tileColumnsLog2(width: Int) -> Int {
        var log2 = 0
        while log2 < 6 && (width >> (log2 + 1)) >= 512 { log2 += 1 }
        return log2
    }
}

/// The one way libaom's status codes become Swift errors: anything but `AOM_CODEC_OK` throws with the
/// function, libaom's name for the status and its detail for the handle; a parameter it refuses is a
/// setting's fault.
private func aomCall(
    _ function: String, _ doing: @autoclosure () -> String, _ status: aom_codec_err_t,
    context: UnsafeMutablePointer<aom_codec_ctx_t>? = nil
) throws {
    guard status != AOM_CODEC_OK else { return }
    var message = aom_codec_err_to_string(status).map { String(cString: $0) }
    if let context, let detail = aom_codec_error_detail(context) {
        message = (message.map { $0 + ": " } ?? "") + String(cString: detail)
    }
    let code: FlipbookError.Code = status == AOM_CODEC_INVALID_PARAM ? .invalidSettings : .encoderFailed
    throw FlipbookError.libraryCallFailed(
        code, doing(),
        cause: LibraryCallError(
            library: "libaom", function: function, status: Int(status.rawValue), libraryMessage: message))
}
