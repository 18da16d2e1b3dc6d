internal import CSVTAV1
import Foundation
import ISOBMFF
import MediaModel

// SVT-AV1's header declares its own `Bool` (a byte), which shadows Swift's here: write `Swift.Bool`.

/// The SVT-AV1 encoder (Main profile, 8- or 10-bit 4:2:0), one encoder handle per instance.
///
/// Configured for MP4 output: CRF rate control, closed GOPs whose keyframes are real key frames
/// (`KF_REFRESH`, never forward keyframes) so fragments and segments can start at them, the colour
/// description in the sequence header. Each packet SVT-AV1 returns is one temporal unit; its
/// temporal delimiter is taken out, as AV1-ISOBMFF wants samples. A temporal unit shows exactly one
/// frame and AV1 has no reordering in the container, so packets come out in presentation order and
/// each one's decode time is its presentation time.
final class SVTAV1Encoder: VideoEncoder {
    private let handle: UnsafeMutablePointer<EbComponentType>
    private let bitDepth: Int
    let sampleEntry: any SampleEntry
    let codecName = "av1"
    let pictureFormat: PictureFormat
    /// Whether the end of the stream has been signalled.
    private var isFlushed = false
    /// The picture size, for the blank picture an encoder given none is ended with.
    private let size: (width: Int, height: Int)
    /// Whether any picture has been sent.
    private var hasPictures = false

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, CRF, preset, threads, bit depth and fragment length.
    ///   - colour: The matrix and range the pictures were converted with, written to the sequence header.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        _ = Self.silencedLog
        // Held from the handle's creation to the sequence header: SVT-AV1 sets up process-wide state there.
        let lifecycle = SVTAV1Lifecycle.begin()
        defer { lifecycle.end() }
        var created: UnsafeMutablePointer<EbComponentType>?
        var config = EbSvtAv1EncConfiguration()
        try svtCheck(
            svt_av1_enc_init_handle(&created, nil, &config), "svt_av1_enc_init_handle",
            "SVT-AV1 could not create an encoder")
        guard let created else {
            throw FlipbookError.encoderNotAllocated(
                "AV1", by: "SVT-AV1",
                cause: LibraryCallError(library: "SVT-AV1", function: "svt_av1_enc_init_handle", status: 0))
        }
        handle = created
        bitDepth = settings.bitDepth
        size = (settings.width, settings.height)
        do {
            try Self.configure(&config, settings: settings, colour: colour)
            for parameter in settings.encoderParameters { try Self.parse(&config, parameter) }
            try svtCheck(
                svt_av1_enc_set_parameter(handle, &config), "svt_av1_enc_set_parameter",
                "SVT-AV1 refused the settings for \(settings.width)x\(settings.height) at \(settings.frameRate) fps, "
                    + "\(settings.bitDepth)-bit, preset \(settings.preset.svtAV1Preset), CRF \(settings.crf)")
            try svtCheck(svt_av1_enc_init(handle), "svt_av1_enc_init", "SVT-AV1 could not start its encoder")
            let sequenceHeader = try Self.streamHeader(handle)
            sampleEntry = VideoSampleEntry.av1(
                width: settings.width, height: settings.height,
                configuration: try AV1CodecConfiguration(sequenceHeaderOBU: sequenceHeader),
                colour: ColourDescription(colour), compressorName: "Flipbook AV1")
        } catch {
            svt_av1_enc_deinit(handle)
            svt_av1_enc_deinit_handle(handle)
            throw error
        }
    }

    /// Hands one parameter to SVT-AV1's own parser, which does not say whether the name or the value was refused.
    private static func parse(_ config: inout EbSvtAv1EncConfiguration, _ parameter: EncoderParameter) throws {
        let status = svt_av1_enc_parse_parameter(&config, parameter.key, parameter.value)
        guard status != EB_ErrorNone else { return }
        throw FlipbookError.encoderParameterRefused(
            parameter.key, parameter.value, by: "SVT-AV1",
            cause: LibraryCallError(
                library: "SVT-AV1", function: "svt_av1_enc_parse_parameter", status: Int(status.rawValue)))
    }

    /// Checks parameters with SVT-AV1's own parser, on its defaults.
    static func check(_ parameters: [EncoderParameter]) throws {
        _ = silencedLog
        try SVTAV1Lifecycle.locked {
            var created: UnsafeMutablePointer<EbComponentType>?
            var config = EbSvtAv1EncConfiguration()
            guard svt_av1_enc_init_handle(&created, nil, &config) == EB_ErrorNone, let created else { return }
            defer { svt_av1_enc_deinit_handle(created) }
            for parameter in parameters { try parse(&config, parameter) }
        }
    }

    /// SVT-AV1 prints its version, configuration and problems to standard error unless `SVT_LOG` says
    /// otherwise (read by each `svt_av1_enc_init_handle`); -1 silences it, as the tool's standard error
    /// is its own. A value the user set is kept. Set once, before the first encoder.
    private static let silencedLog: Void = {
        setenv("SVT_LOG", "-1", 0)
    }()

    /// Sets SVT-AV1's configuration for `settings`: preset, size, rate, bit depth, CRF, keyframes,
    /// threads and the colour description.
    private static func configure(
        _ config: inout EbSvtAv1EncConfiguration, settings: VideoSettings, colour: ColourMatrix
    ) throws {
        config.enc_mode = Int8(settings.preset.svtAV1Preset)
        config.source_width = UInt32(settings.width)
        config.source_height = UInt32(settings.height)
        config.frame_rate_numerator = UInt32(settings.frameRate.numerator)
        config.frame_rate_denominator = UInt32(settings.frameRate.denominator)
        config.encoder_bit_depth = UInt32(settings.bitDepth)
        config.encoder_color_format = EB_YUV420
        config.profile = MAIN_PROFILE
        // CRF as ffmpeg's libsvtav1 sets it: rate control mode 0 with adaptive quantisation left on
        // (turning it off would make this constant QP); a whole number, as SVT-AV1 takes it.
        config.rate_control_mode = UInt32(SVT_AV1_RC_MODE_CQP_OR_CRF.rawValue)
        config.qp = UInt32(settings.crf.rounded())
        if let rate = settings.rateControl.averageRate {
            config.rate_control_mode = UInt32(SVT_AV1_RC_MODE_VBR.rawValue)
            config.target_bit_rate = UInt32(rate)
        }
        if let limit = settings.rateLimit {
            // A cap on constant quality; the buffer as the time it holds at the cap.
            config.max_bit_rate = UInt32(limit.maxBitrate)
            config.maximum_buffer_size_ms = Int64(
                min(10000, max(20, Double(limit.bufferSize) * 1000 / Double(limit.maxBitrate))))
        }
        if let tune = settings.tune { config.tune = tune == "vq" ? 0 : 1 }
        if let level = settings.level { config.level = UInt32(level.tenTimes) }
        if settings.bFrames == 0 { config.pred_structure = UInt8(SVT_AV1_PRED_LOW_DELAY_B.rawValue) }
        // Every keyframe a key frame (closed GOP): fragments and segments start at keyframes.
        config.intra_refresh_type = SVT_AV1_KF_REFRESH
        if let frames = settings.keyframeFrames {
            // A keyframe at least once a fragment; the period counts the frames between keyframes.
            // At least 1: SVT-AV1 takes 0 for no keyframe after the first.
            config.intra_period_length = Int32(max(1, frames - 1))
        }
        config.logical_processors = UInt32(settings.encoderThreads)
        config.color_description_present_flag = 1
        config.color_primaries = EbColorPrimaries(rawValue: UInt32(colour.colourPrimaries))
        config.transfer_characteristics = EbTransferCharacteristics(rawValue: UInt32(colour.transferCharacteristics))
        config.matrix_coefficients = EbMatrixCoefficients(rawValue: UInt32(colour.matrixCoefficients))
        config.color_range = colour.fullRange ? EB_CR_FULL_RANGE : EB_CR_STUDIO_RANGE
        // Flipbook's chroma samples are the mean of 2x2 luma sites (centred), which AV1 cannot name.
        config.chroma_sample_position = EB_CSP_UNKNOWN
        // HDR metadata OBUs: the mastering display, and MaxCLL and MaxFALL when given (plain chromaticities
        // and nits, as SVT-AV1's parser takes them).
        if settings.colourStandard.isHDR {
            if let display = settings.masteringDisplay {
                try parse(&config, EncoderParameter(key: "mastering-display", value: display.description))
            }
            if let light = settings.contentLight {
                try parse(&config, EncoderParameter(key: "content-light", value: "\(light.maxCLL),\(light.maxFALL)"))
            }
        }
    }

    /// The sequence header OBU from `svt_av1_enc_stream_header`, copied out and without any temporal delimiter.
    private static func streamHeader(_ handle: UnsafeMutablePointer<EbComponentType>) throws -> [UInt8] {
        var header: UnsafeMutablePointer<EbBufferHeaderType>?
        try svtCheck(
            svt_av1_enc_stream_header(handle, &header), "svt_av1_enc_stream_header",
            "the AV1 encoder gave no sequence header")
        guard let header else {
            throw FlipbookError.encoderGaveNoConfiguration("AV1", "sequence header")
        }
        defer { svt_av1_enc_stream_header_release(header) }
        let bytes = Array(UnsafeBufferPointer(start: header.pointee.p_buffer, count: Int(header.pointee.n_filled_len)))
        do {
            return try AV1OpenBitstreamUnits.removingTemporalDelimiters(bytes)
        } catch {
            throw FlipbookError.av1SequenceHeaderMalformed(by: "SVT-AV1", cause: error)
        }
    }

    deinit {
        // svt_av1_enc_deinit waits for the stream's end, which never comes unless it was sent, and
        // SVT-AV1 ends no stream that had no picture: an encoder given up before `flush` (a writer
        // cancelled or failed) is sent a blank picture if it had none, then the end, and drained.
        if !isFlushed {
            if !hasPictures { _ = try? encode(YUVPicture(width: size.width, height: size.height), presentationTime: 0) }
            _ = try? flush()
        }
        SVTAV1Lifecycle.locked {
            svt_av1_enc_deinit(handle)
            svt_av1_enc_deinit_handle(handle)
        }
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        if bitDepth == 8 {
            try send(picture, presentationTime: presentationTime, luma: picture.luma, cb: picture.cb, cr: picture.cr)
        } else {
            // 10-bit values in 16-bit words: converted from 16-bit samples, or the 8-bit planes scaled exactly.
            let planes = picture.tenBitPlanes
            try send(picture, presentationTime: presentationTime, luma: planes.luma, cb: planes.cb, cr: planes.cr)
        }
        return try receive(waiting: false)
    }

    func flush() throws -> [EncodedPacket] {
        guard !isFlushed else { return [] }
        isFlushed = true
        var end = EbBufferHeaderType()
        end.size = UInt32(MemoryLayout<EbBufferHeaderType>.size)
        end.pic_type = EB_AV1_INVALID_PICTURE
        end.flags = UInt32(EB_BUFFERFLAG_EOS)
        try svtCheck(
            svt_av1_enc_send_picture(handle, &end), "svt_av1_enc_send_picture", "SVT-AV1 could not end the stream")
        return try receive(waiting: true)
    }

    /// Hands one picture's planes (8-bit bytes, or 16-bit words in the machine's order, little-endian as
    /// SVT-AV1 wants on every platform Flipbook builds for) to SVT-AV1, which copies them during the call.
    private func send<Sample>(
        _ picture: YUVPicture, presentationTime: Int64, luma: [Sample], cb: [Sample], cr: [Sample]
    ) throws {
        let bytesPerSample = MemoryLayout<Sample>.size
        var input = EbBufferHeaderType()
        input.size = UInt32(MemoryLayout<EbBufferHeaderType>.size)
        input.pts = presentationTime
        input.pic_type = EB_AV1_INVALID_PICTURE  // the encoder decides
        input.n_filled_len = UInt32((luma.count + cb.count + cr.count) * bytesPerSample)
        try withPlaneAddresses(luma, cb, cr) { luma, cb, cr in
            var planes = EbSvtIOFormat()
            planes.luma = luma
            planes.cb = cb
            planes.cr = cr
            // Strides in samples, not bytes.
            planes.y_stride = UInt32(picture.width)
            planes.cb_stride = UInt32(picture.width / 2)
            planes.cr_stride = UInt32(picture.width / 2)
            planes.width = UInt32(picture.width)
            planes.height = UInt32(picture.height)
            planes.color_fmt = EB_YUV420
            planes.bit_depth = bitDepth == 8 ? EB_EIGHT_BIT : EB_TEN_BIT
            try withUnsafeMutableBytes(of: &planes) { planes in
                input.p_buffer = planes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                try svtCheck(
                    svt_av1_enc_send_picture(handle, &input), "svt_av1_enc_send_picture",
                    "SVT-AV1 could not take picture \(presentationTime)")
                hasPictures = true
            }
        }
    }

    /// The packets SVT-AV1 has ready; with `waiting`, every packet up to the end of the stream.
    private func receive(waiting: Swift.Bool) throws -> [EncodedPacket] {
        var packets: [EncodedPacket] = []
        while true {
            var output: UnsafeMutablePointer<EbBufferHeaderType>?
            let status = svt_av1_enc_get_packet(handle, &output, waiting ? 1 : 0)
            if status == EB_NoErrorEmptyQueue { return packets }
            if status != EB_ErrorNone, output != nil { svt_av1_enc_release_out_buffer(&output) }
            try svtCheck(status, "svt_av1_enc_get_packet", "SVT-AV1 failed to encode a picture")
            guard let header = output?.pointee else { return packets }
            let isEnd = header.flags & UInt32(EB_BUFFERFLAG_EOS) != 0
            // The payload lives until the buffer is released: copy it first.
            let bytes = Array(UnsafeBufferPointer(start: header.p_buffer, count: Int(header.n_filled_len)))
            svt_av1_enc_release_out_buffer(&output)
            guard header.flags & UInt32(EB_BUFFERFLAG_ERROR_MASK) == 0 else {
                throw FlipbookError.encoderFailedPicture(
                    header.pts, by: "SVT-AV1",
                    cause: LibraryCallError(
                        library: "SVT-AV1", function: "svt_av1_enc_get_packet", status: Int(header.flags)))
            }
            let data: [UInt8]
            do {
                data = try AV1OpenBitstreamUnits.removingTemporalDelimiters(bytes)
            } catch {
                throw FlipbookError.av1TemporalUnitMalformed(header.pts, by: "SVT-AV1", cause: error)
            }
            if !data.isEmpty {
                packets.append(
                    EncodedPacket(
                        data: data, presentationTime: header.pts, decodeTime: header.pts,
                        isKeyframe: header.pic_type == EB_AV1_KEY_PICTURE))
            }
            if isEnd { return packets }
        }
    }
}

/// The funnel for SVT-AV1 status codes: anything but `EB_ErrorNone` is a failure, named with the
/// library's own constant.
private func svtCheck(_ status: EbErrorType, _ function: String, _ message: String) throws {
    guard status != EB_ErrorNone else { return }
    throw FlipbookError.libraryCallFailed(
        .encoderFailed, message,
        cause: LibraryCallError(
            library: "SVT-AV1", function: function, status: Int(status.rawValue), libraryMessage: svtName(status)))
}

/// The name SVT-AV1's header gives a status code.
private func svtName(_ status: EbErrorType) -> String? {
    switch status {
    case EB_ErrorInsufficientResources: "EB_ErrorInsufficientResources (out of memory or threads)"
    case EB_ErrorUndefined: "EB_ErrorUndefined"
    case EB_ErrorInvalidComponent: "EB_ErrorInvalidComponent"
    case EB_ErrorBadParameter: "EB_ErrorBadParameter (a setting is out of range)"
    case EB_ErrorMax: "EB_ErrorMax (an encoding error)"
    case EB_NoErrorEmptyQueue: "EB_NoErrorEmptyQueue"
    case EB_NoErrorFifoShutdown: "EB_NoErrorFifoShutdown"
    default: nil
    }
}

/// One lock for every SVT-AV1 handle's creation, start and tear-down in the process.
///
/// SVT-AV1 keeps the machine's processor groups and the thread affinity it derives from them in
/// process-wide variables: each handle's creation fills them, its start reads them as it starts its
/// threads, and each tear-down frees them, whatever other encoders are doing. Two writers opening and
/// closing AV1 encoders at once (a library user's, or the tests') otherwise race on them, and a thread
/// started from a freed table reads through a null pointer.
private enum SVTAV1Lifecycle {
    private static let lock = NSLock()

    static func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        try lock.withLock { try body() }
    }

    /// Takes the lock for a span that is not one closure (an initialiser that sets stored properties).
    static func begin() -> Held {
        lock.lock()
        return Held()
    }

    struct Held {
        func end() { SVTAV1Lifecycle.lock.unlock() }
    }
}
