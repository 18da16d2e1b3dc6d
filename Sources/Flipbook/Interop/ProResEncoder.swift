internal import CAVCodec
import ISOBMFF
import MediaModel

/// libavcodec's prores_ks, making Apple ProRes frames of a ``ProResProfile`` from 10-bit planes.
///
/// Every frame is a keyframe and is handed out in presentation order, so the movie has no
/// composition offsets and no edit list. The frame headers carry the colour tags and the vendor
/// `apl0`, as Apple's encoders write them; the pictures are 4:2:2 or 4:4:4 at 10 bits, with a 16-bit
/// alpha channel when the movie keeps alpha. libavcodec's frame threads encode several frames at once
/// (as many as ``VideoSettings/encoderThreads``, at most 64, or one per core).
final class ProResEncoder: VideoEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let sampleEntry: any SampleEntry
    let codecName = "prores"
    let pictureFormat: PictureFormat
    private let pixelFormat: AVPixelFormat
    /// The pictures' size.
    private let width: Int
    private let height: Int
    /// Each plane's bytes a row (its width in 16-bit samples, rounded up to 64 bytes) and rows.
    private let planeLayout: [(bytesPerRow: Int, rows: Int)]
    /// Buffers for the frames' planes, one pool per plane, recycled once the encoder's frame threads
    /// let go of a frame: the heap sees the same few buffers instead of new ones every frame.
    private var pools: [OpaquePointer?] = []

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, profile, alpha and threads.
    ///   - colour: The matrix and range the pictures were converted with, written to every frame header.
    /// - Throws: `.encoderFailed` when libavcodec has no prores_ks or cannot open it for the settings.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        let profile = settings.resolvedProResProfile
        pictureFormat = settings.pictureFormat
        (width, height) = (settings.width, settings.height)
        pixelFormat =
            pictureFormat.hasAlpha
            ? AV_PIX_FMT_YUVA444P10LE
            : pictureFormat.chroma == .yuv444 ? AV_PIX_FMT_YUV444P10LE : AV_PIX_FMT_YUV422P10LE
        let chroma = pictureFormat.chroma.chromaSize(width: settings.width, height: settings.height)
        let sides =
            [(settings.width, settings.height), (chroma.width, chroma.height), (chroma.width, chroma.height)]
            + (pictureFormat.hasAlpha ? [(settings.width, settings.height)] : [])
        planeLayout = sides.map { width, height in ((width * 2 + 63) / 64 * 64, height) }
        sampleEntry = VideoSampleEntry.proRes(
            format: profile.sampleEntryType, width: settings.width, height: settings.height,
            hasAlpha: pictureFormat.hasAlpha, colour: ColourDescription(colour),
            compressorName: "Flipbook \(profile.displayName)")
        AVLog.silence()
        guard let codec = avcodec_find_encoder_by_name("prores_ks") else {
            throw FlipbookError.encoderMissing("ProRes", named: "prores_ks")
        }
        // From here on every property is set, so a failure below frees what was allocated in deinit.
        context = avcodec_alloc_context3(codec)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        pools = planeLayout.map { plane in av_buffer_pool_init(plane.bytesPerRow * plane.rows + 64, nil) }
        guard let context, frame != nil, packet != nil, pools.allSatisfy({ $0 != nil }) else {
            throw FlipbookError.encoderNotAllocated("ProRes")
        }
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(
            num: Int32(settings.frameRate.denominator), den: Int32(settings.frameRate.numerator))
        context.pointee.framerate = AVRational(
            num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(colour.colourPrimaries))
        context.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(colour.transferCharacteristics))
        context.pointee.colorspace = AVColorSpace(rawValue: UInt32(colour.matrixCoefficients))
        context.pointee.color_range = AVCOL_RANGE_MPEG
        // libavcodec's frame threads: at most 64 (its own limit); 0 lets it take one per core.
        context.pointee.thread_count = Int32(min(settings.encoderThreads, 64))
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        let options: [(String, String)] = [("profile", String(profile.encoderProfile)), ("vendor", "apl0")]
        for (name, value) in options {
            try avcodecCall(
                "av_opt_set", .encoderFailed, "the ProRes encoder refused \(name)=\(value)",
                av_opt_set(context.pointee.priv_data, name, value, 0))
        }
        try avcodecCall(
            "avcodec_open2", .encoderFailed,
            "the ProRes encoder cannot take \(settings.width)x\(settings.height) \(pictureFormat) pictures",
            avcodec_open2(context, codec, nil))
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
        // A pool is freed once the last of its buffers is returned.
        for index in pools.indices { av_buffer_pool_uninit(&pools[index]) }
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        guard picture.width == width, picture.height == height else {
            throw FlipbookError.pictureSizeRefused(
                by: "prores", takes: width, height, given: picture.width, picture.height)
        }
        guard let context, let frame else { return [] }
        let planes = picture.tenBitPlanes
        av_frame_unref(frame)
        frame.pointee.width = Int32(picture.width)
        frame.pointee.height = Int32(picture.height)
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.pts = presentationTime
        // prores_ks writes each frame's header from the frame's tags, not the context's.
        frame.pointee.color_primaries = context.pointee.color_primaries
        frame.pointee.color_trc = context.pointee.color_trc
        frame.pointee.colorspace = context.pointee.colorspace
        frame.pointee.color_range = context.pointee.color_range
        // A picture of a format with alpha always has its alpha plane (an opaque one for images without).
        let sources = [planes.luma, planes.cb, planes.cr] + (pictureFormat.hasAlpha ? [planes.alpha ?? []] : [])
        // Each plane in a buffer from its pool (the encoder's frame threads keep their reference to
        // the frames they still encode); the frame holds the references until it is unreferenced.
        for (index, plane) in sources.enumerated() {
            guard let buffer = av_buffer_pool_get(pools[index]) else {
                throw FlipbookError.encoderNotAllocated("ProRes", "frame")
            }
            let layout = planeLayout[index]
            Self.copy(plane, rows: layout.rows, into: buffer.pointee.data, bytesPerRow: layout.bytesPerRow)
            flipbook_av_frame_set_plane(frame, Int32(index), buffer, Int32(layout.bytesPerRow))
        }
        try avcodecCall(
            "avcodec_send_frame", .encoderFailed, "the ProRes encoder refused a picture",
            avcodec_send_frame(context, frame))
        return try receivePackets()
    }

    func flush() throws -> [EncodedPacket] {
        guard let context else { return [] }
        try AVCodecEncoding.endStream(of: context, encoder: "ProRes")
        return try receivePackets()
    }

    /// Copies a plane of `rows` rows of 16-bit samples into a buffer whose rows are `bytesPerRow` apart.
    private static func copy(_ plane: [UInt16], rows: Int, into target: UnsafeMutablePointer<UInt8>, bytesPerRow: Int) {
        let width = plane.count / rows
        precondition(
            !plane.isEmpty && width * rows == plane.count && width * 2 <= bytesPerRow, "plane of \(plane.count)")
        plane.withUnsafeBytes { source in
            let bytes = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            // Rows a multiple of 64 bytes long (1920 samples and other common widths) are one copy.
            guard bytesPerRow != width * 2 else { return target.update(from: bytes, count: source.count) }
            for row in 0..<rows {
                (target + row * bytesPerRow).update(from: bytes + row * width * 2, count: width * 2)
            }
        }
    }

    /// Every packet the encoder has ready: one frame each, a keyframe, decoded when it is presented.
    private func receivePackets() throws -> [EncodedPacket] {
        guard let context, let packet else { return [] }
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "ProRes").map {
            EncodedPacket(
                data: $0.bytes, presentationTime: $0.presentationTime, decodeTime: $0.presentationTime, isKeyframe: true
            )
        }
    }
}
