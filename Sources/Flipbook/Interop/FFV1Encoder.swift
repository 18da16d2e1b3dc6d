internal import CAVCodec
import ISOBMFF
import MediaModel

/// libavcodec's FFV1 encoder: the lossless archival codec, version 3 (level 3) with CRCs on every
/// slice, every frame a keyframe.
///
/// At 8 bits the pictures are the images' own RGB (packed, as FFV1's `bgr0`, or `bgra` when the
/// movie keeps alpha), so a decoded frame is the source's pixels exactly; at 10 bits they are 4:4:4
/// Y'CbCr planes (`yuv444p10`, `yuva444p10` with alpha). The configuration record FFV1 version 3
/// keeps in its extradata travels in the track: Matroska's `CodecPrivate`, QuickTime's `glbl` box.
/// Four slices a frame, coded on as many threads as the settings give, make the same bytes on any
/// number of threads.
final class FFV1Encoder: VideoEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let sampleEntry: any SampleEntry
    let codecName = "ffv1"
    let pictureFormat: PictureFormat
    private let pixelFormat: AVPixelFormat
    private let width: Int
    private let height: Int

    /// Opens an encoder.
    ///
    /// - Parameters:
    ///   - settings: Size, rate, depth, alpha and threads.
    ///   - colour: The matrix and range 10-bit pictures were converted with; 8-bit pictures are RGB.
    /// - Throws: `.encoderFailed` when libavcodec has no FFV1 encoder or cannot open it for the settings.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        (width, height) = (settings.width, settings.height)
        let isRGB = pictureFormat.isPackedRGBA
        pixelFormat =
            isRGB
            ? (pictureFormat.hasAlpha ? AV_PIX_FMT_BGRA : AV_PIX_FMT_BGR0)
            : (pictureFormat.hasAlpha ? AV_PIX_FMT_YUVA444P10LE : AV_PIX_FMT_YUV444P10LE)
        // RGB pictures are sRGB's own code values: the identity matrix, full range.
        let tags =
            isRGB
            ? ColourDescription(colourPrimaries: 1, transferCharacteristics: 13, matrixCoefficients: 0, fullRange: true)
            : ColourDescription(colour)
        AVLog.silence()
        guard let codec = avcodec_find_encoder_by_name("ffv1") else {
            throw FlipbookError.encoderMissing("FFV1")
        }
        context = avcodec_alloc_context3(codec)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let context, frame != nil, packet != nil else {
            throw FlipbookError.encoderNotAllocated("FFV1")
        }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(
            num: Int32(settings.frameRate.denominator), den: Int32(settings.frameRate.numerator))
        context.pointee.framerate = AVRational(
            num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        context.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        context.pointee.color_primaries = AVColorPrimaries(rawValue: UInt32(tags.colourPrimaries))
        context.pointee.color_trc = AVColorTransferCharacteristic(rawValue: UInt32(tags.transferCharacteristics))
        context.pointee.colorspace = AVColorSpace(rawValue: UInt32(tags.matrixCoefficients))
        context.pointee.color_range = tags.fullRange ? AVCOL_RANGE_JPEG : AVCOL_RANGE_MPEG
        context.pointee.gop_size = 1
        context.pointee.level = 3
        context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        // Slice threads over a fixed number of slices: the bytes do not depend on the thread count.
        context.pointee.thread_count = Int32(min(max(settings.encoderThreads, 0), 4))
        context.pointee.thread_type = FF_THREAD_SLICE
        context.pointee.slices = 4
        // The range coder with its larger context model, as archives write FFV1 (smaller than Golomb-Rice).
        let options: [(String, String)] = [("slicecrc", "1"), ("coder", "1"), ("context", "1")]
        for (name, value) in options {
            try avcodecCall(
                "av_opt_set", .encoderFailed, "the FFV1 encoder refused \(name)=\(value)",
                av_opt_set(context.pointee.priv_data, name, value, 0))
        }
        try avcodecCall(
            "avcodec_open2", .encoderFailed,
            "the FFV1 encoder cannot take \(width)x\(height) \(pictureFormat) pictures",
            avcodec_open2(context, codec, nil))
        let record = Array(
            UnsafeBufferPointer(start: context.pointee.extradata, count: Int(context.pointee.extradata_size)))
        guard !record.isEmpty else {
            throw FlipbookError.encoderGaveNoConfiguration("FFV1", "configuration record")
        }
        var entry = VideoSampleEntry(
            format: "FFV1", width: width, height: height,
            configuration: CodecConfiguration(boxType: "glbl", payload: record), colour: tags,
            compressorName: "Flipbook FFV1")
        entry.hasAlpha = pictureFormat.hasAlpha
        sampleEntry = entry
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        guard picture.width == width, picture.height == height else {
            throw FlipbookError.pictureSizeRefused(
                by: "ffv1", takes: width, height, given: picture.width, picture.height)
        }
        guard let context, let frame else { return [] }
        av_frame_unref(frame)
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.pts = presentationTime
        try avcodecCall(
            "av_frame_get_buffer", .encoderFailed, "the FFV1 encoder's frame could not be allocated",
            av_frame_get_buffer(frame, 0))
        if pictureFormat.isPackedRGBA {
            Self.copyRGBAAsBGRA(picture.rgba, width: width, height: height, into: frame)
        } else {
            let planes = picture.tenBitPlanes
            let sources = [planes.luma, planes.cb, planes.cr] + (pictureFormat.hasAlpha ? [planes.alpha ?? []] : [])
            for (index, plane) in sources.enumerated() {
                AVFramePlanes.copy(plane, width: width, height: height, into: frame, plane: index)
            }
        }
        try avcodecCall(
            "avcodec_send_frame", .encoderFailed, "the FFV1 encoder refused a picture",
            avcodec_send_frame(context, frame))
        return try receivePackets()
    }

    func flush() throws -> [EncodedPacket] {
        guard let context else { return [] }
        try AVCodecEncoding.endStream(of: context, encoder: "FFV1")
        return try receivePackets()
    }

    /// Packed RGBA into the frame's packed BGRA (FFV1's `bgra` and `bgr0` on a little-endian machine).
    private static func copyRGBAAsBGRA(
        _ rgba: [UInt8], width: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>
    ) {
        precondition(rgba.count == width * height * 4, "RGBA of \(rgba.count) bytes for \(width)x\(height)")
        let stride = Int(frame.pointee.linesize.0)
        guard let target = frame.pointee.data.0 else { return }
        rgba.withUnsafeBufferPointer { source in
            for row in 0..<height {
                let from = source.baseAddress! + row * width * 4
                let to = target + row * stride
                for pixel in 0..<width {
                    let index = pixel * 4
                    to[index] = from[index + 2]
                    to[index + 1] = from[index + 1]
                    to[index + 2] = from[index]
                    to[index + 3] = from[index + 3]
                }
            }
        }
    }

    /// Every packet the encoder has ready: one frame each, a keyframe, decoded when it is presented.
    private func receivePackets() throws -> [EncodedPacket] {
        guard let context, let packet else { return [] }
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "FFV1").map {
            EncodedPacket(
                data: $0.bytes, presentationTime: $0.presentationTime, decodeTime: $0.presentationTime, isKeyframe: true
            )
        }
    }
}
