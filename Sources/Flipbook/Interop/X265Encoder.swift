internal import CX265
import ISOBMFF
import MediaModel

/// The libx265 HEVC encoder, through the API table of the bit depth asked for (Main for 8-bit,
/// Main 10 for 10-bit; Debian's libx265 holds both).
///
/// Configured for MP4 output: length-prefixed NAL units, parameter sets kept out of the stream and
/// handed to the muxer for `hvcC` (so the entry is `hvc1`), closed GOPs so every keyframe is an IDR a
/// fragment or segment can start at, the colour description in the VUI. 8-bit pictures are given
/// as they are; for Main 10 x265 scales them exactly (each value times 4).
final class X265Encoder: VideoEncoder {
    private let api: UnsafePointer<x265_api>
    private let encoder: OpaquePointer
    private let param: UnsafeMutablePointer<x265_param>
    let sampleEntry: any SampleEntry
    let codecName = "hevc"
    let pictureFormat: PictureFormat
    /// x265's SEI naming its version and options, length-prefixed, put in front of the first picture.
    private var pendingSEI: [UInt8] = []
    /// How many frames x265 holds back to reorder: the first packet decodes this many frames early.
    private let reorderDelay: Int64
    /// Packets handed out so far.
    private var packetsOut: Int64 = 0

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, CRF, preset, threads and bit depth.
    ///   - colour: The matrix and range the pictures were converted with, written to the VUI.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        guard let api = flipbook_x265_api_get(Int32(settings.bitDepth)) else {
            throw FlipbookError.encoderLacksBitDepth(
                settings.bitDepth, "HEVC", in: "libx265",
                cause: LibraryCallError(library: "libx265", function: "x265_api_get", status: 0))
        }
        self.api = api
        guard let param = api.pointee.param_alloc() else {
            throw FlipbookError.encoderNotAllocated("HEVC", "parameters", by: "x265")
        }
        self.param = param
        do {
            try Self.configure(param, api: api, settings: settings, colour: colour)
        } catch {
            api.pointee.param_free(param)
            throw error
        }
        guard let encoder = api.pointee.encoder_open(param) else {
            api.pointee.param_free(param)
            throw FlipbookError.encoderNotOpened(
                by: "x265", width: settings.width, height: settings.height, frameRate: settings.frameRate,
                cause: LibraryCallError(library: "libx265", function: "x265_encoder_open", status: 0))
        }
        self.encoder = encoder
        // x265 holds back one frame for B-frames, two with a B-pyramid (its own rule, on the
        // parameters it settled on).
        api.pointee.encoder_parameters(encoder, param)
        reorderDelay = param.pointee.bframes > 0 ? (param.pointee.bBPyramid != 0 ? 2 : 1) : 0

        var nals: UnsafeMutablePointer<x265_nal>?
        var count: UInt32 = 0
        let headerBytes = api.pointee.encoder_headers(encoder, &nals, &count)
        guard headerBytes > 0, let nals else {
            api.pointee.encoder_close(encoder)
            api.pointee.param_free(param)
            throw FlipbookError.encoderGaveNoConfiguration(
                "HEVC", "parameter sets",
                cause: LibraryCallError(
                    library: "libx265", function: "x265_encoder_headers", status: Int(headerBytes)))
        }
        var sets: [UInt32: [[UInt8]]] = [:]
        var sei: [UInt8] = []
        for nal in UnsafeBufferPointer(start: nals, count: Int(count)) {
            let payload = UnsafeBufferPointer(start: nal.payload, count: Int(nal.sizeBytes))
            switch nal.type {
            // VPS, SPS, PPS: without the 4-byte length prefix, which hvcC does not want.
            case 32, 33, 34: sets[nal.type, default: []].append(Array(payload.dropFirst(4)))
            case 39: sei += payload  // prefix SEI, kept with its length for the first sample
            default: break
            }
        }
        pendingSEI = sei
        sampleEntry = VideoSampleEntry.hevc(
            width: settings.width, height: settings.height,
            decoderConfiguration: HEVCDecoderConfiguration(
                videoParameterSets: sets[32] ?? [], sequenceParameterSets: sets[33] ?? [],
                pictureParameterSets: sets[34] ?? [], bitDepth: UInt8(settings.bitDepth)),
            colour: ColourDescription(colour), compressorName: "Flipbook HEVC")
    }

    /// Sets x265's parameters for `settings`: preset, size, rate, CRF, keyframes, VUI colour, MP4 output
    /// and the profile.
    private static func configure(
        _ param: UnsafeMutablePointer<x265_param>, api: UnsafePointer<x265_api>, settings: VideoSettings,
        colour: ColourMatrix
    ) throws {
        try x265Check(
            api.pointee.param_default_preset(param, settings.preset.rawValue, settings.tune),
            "x265_param_default_preset",
            "x265 does not know the preset \(settings.preset.rawValue) or the tune \(settings.tune ?? "")")
        var options: [(String, String)] = [
            ("crf", String(settings.crf)),
            // Every keyframe an IDR: fragments and segments start at keyframes.
            ("open-gop", "0"),
            ("repeat-headers", "0"), ("annexb", "0"), ("info", "1"),
            ("colorprim", String(colour.colourPrimaries)), ("transfer", String(colour.transferCharacteristics)),
            ("colormatrix", String(colour.matrixCoefficients)), ("range", colour.fullRange ? "full" : "limited"),
            ("sar", "1:1"),
            // x265 needs the picture to hold at least one coding tree unit: smaller ones for small movies.
            ("ctu", String([64, 32, 16].first { $0 <= min(settings.width, settings.height) } ?? 16)),
        ]
        // HDR10's SEI: the mastering display, and MaxCLL and MaxFALL when given (x265 writes its SEI with
        // the stream's headers, before a measured level is known; the container carries that).
        if settings.colourStandard.isHDR {
            if let display = settings.masteringDisplay { options += [("master-display", display.hevcUnits)] }
            if let light = settings.contentLight { options += [("max-cll", "\(light.maxCLL),\(light.maxFALL)")] }
        }
        if settings.encoderThreads > 0 {
            options += [
                ("pools", String(settings.encoderThreads)), ("frame-threads", String(min(settings.encoderThreads, 4))),
            ]
        }
        if let frames = settings.keyframeFrames {
            options += [("keyint", String(frames)), ("min-keyint", String(min(frames, 25)))]
        }
        if let bFrames = settings.bFrames { options += [("bframes", String(bFrames))] }
        if !settings.reordersFrames { options += [("bframes", "0")] }
        if let rate = settings.rateControl.averageRate { options += [("bitrate", String(RateControl.kilobits(rate)))] }
        if let limit = settings.rateLimit {
            options += [
                ("vbv-maxrate", String(RateControl.kilobits(limit.maxBitrate))),
                ("vbv-bufsize", String(RateControl.kilobits(limit.bufferSize))),
            ]
        }
        if let level = settings.level { options += [("level-idc", level.description)] }
        switch settings.pass {
        case .first(let path):
            // The first pass only measures: x265's faster analysis for it.
            options += [("pass", "1"), ("stats", path), ("slow-firstpass", "0")]
        case .second(let path): options += [("pass", "2"), ("stats", path)]
        case nil: break
        }
        options += settings.encoderParameters.map { ($0.key, $0.value) }
        for (name, value) in options {
            try parse(param, api: api, EncoderParameter(key: name, value: value))
        }
        param.pointee.sourceWidth = Int32(settings.width)
        param.pointee.sourceHeight = Int32(settings.height)
        param.pointee.internalCsp = X265_CSP_I420
        param.pointee.fpsNum = UInt32(settings.frameRate.numerator)
        param.pointee.fpsDenom = UInt32(settings.frameRate.denominator)
        param.pointee.logLevel = X265_LOG_NONE
        let profile = settings.profile?.name ?? (settings.bitDepth == 10 ? "main10" : "main")
        try x265Check(
            api.pointee.param_apply_profile(param, profile), "x265_param_apply_profile",
            "x265 cannot apply the \(profile) profile")
    }

    /// Hands one parameter to x265's own parser.
    private static func parse(
        _ param: UnsafeMutablePointer<x265_param>, api: UnsafePointer<x265_api>, _ parameter: EncoderParameter
    ) throws {
        let status = api.pointee.param_parse(param, parameter.key, parameter.value)
        guard status != 0 else { return }
        throw parameter.refusal(
            by: "x265", unknownName: status == X265_PARAM_BAD_NAME, library: "libx265", function: "x265_param_parse",
            status: status)
    }

    /// Checks parameters with x265's own parser, on its defaults.
    static func check(_ parameters: [EncoderParameter]) throws {
        guard let api = flipbook_x265_api_get(8), let param = api.pointee.param_alloc() else { return }
        defer { api.pointee.param_free(param) }
        api.pointee.param_default(param)
        for parameter in parameters { try parse(param, api: api, parameter) }
    }

    /// Whether the encoder was closed at the end of the stream (see ``flush()``).
    private var isClosed = false

    deinit {
        if !isClosed { api.pointee.encoder_close(encoder) }
        api.pointee.param_free(param)
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        var input = x265_picture()
        api.pointee.picture_init(param, &input)
        input.pts = presentationTime
        input.colorSpace = X265_CSP_I420
        // x265 copies the planes into its own frame during the call; strides are in bytes.
        if let deep = picture.deep {
            // Converted from 16-bit samples: 10-bit values in 16-bit words.
            input.bitDepth = 10
            input.stride = (Int32(picture.width * 2), Int32(picture.width), Int32(picture.width))
            return try encode(deep.luma, deep.cb, deep.cr, &input)
        }
        // 8-bit planes in; a Main 10 encoder scales them up itself.
        input.bitDepth = 8
        input.stride = (Int32(picture.width), Int32(picture.width / 2), Int32(picture.width / 2))
        return try encode(picture.luma, picture.cb, picture.cr, &input)
    }

    /// Encodes the three planes of one picture, 8-bit or 16-bit samples as `input` says.
    private func encode<Sample>(
        _ luma: [Sample], _ cb: [Sample], _ cr: [Sample], _ input: inout x265_picture
    ) throws -> [EncodedPacket] {
        try withPlaneAddresses(luma, cb, cr) { luma, cb, cr in
            input.planes = (UnsafeMutableRawPointer(luma), UnsafeMutableRawPointer(cb), UnsafeMutableRawPointer(cr))
            return try encodeOnce(&input).map { [$0] } ?? []
        }
    }

    func flush() throws -> [EncodedPacket] {
        guard !isClosed else { return [] }
        var packets: [EncodedPacket] = []
        while let packet = try encodeOnce(nil) { packets.append(packet) }
        // x265 writes out a first pass's statistics when the encoder closes: at once, so the second pass
        // finds them whenever this object goes.
        api.pointee.encoder_close(encoder)
        isClosed = true
        return packets
    }

    /// One `x265_encoder_encode` call; `nil` once a flush has nothing left. The payload is copied out
    /// before the next call reuses it.
    private func encodeOnce(_ input: UnsafeMutablePointer<x265_picture>?) throws -> EncodedPacket? {
        var output = x265_picture()
        api.pointee.picture_init(param, &output)
        var nals: UnsafeMutablePointer<x265_nal>?
        var count: UInt32 = 0
        let status = api.pointee.encoder_encode(encoder, &nals, &count, input, &output)
        try x265Check(status, "x265_encoder_encode", "x265 failed to encode a picture")
        guard status > 0, count > 0, let nals else { return nil }
        var data = pendingSEI
        pendingSEI = []
        for nal in UnsafeBufferPointer(start: nals, count: Int(count)) {
            data.append(contentsOf: UnsafeBufferPointer(start: nal.payload, count: Int(nal.sizeBytes)))
        }
        // Decode times as x265 computes them for frame-numbered input (the n-th packet at n minus the
        // delay), computed here: x265 leaves them uninitialised for a movie shorter than its delay.
        let decodeTime = packetsOut - reorderDelay
        packetsOut += 1
        return EncodedPacket(
            data: data, presentationTime: output.pts, decodeTime: decodeTime,
            isKeyframe: output.sliceType == X265_TYPE_IDR)
    }
}

/// The funnel for x265 status codes: negative means failure.
private func x265Check(_ status: Int32, _ function: String, _ message: String) throws {
    guard status >= 0 else {
        throw FlipbookError.libraryCallFailed(
            .encoderFailed, message,
            cause: LibraryCallError(library: "libx265", function: function, status: Int(status)))
    }
}
