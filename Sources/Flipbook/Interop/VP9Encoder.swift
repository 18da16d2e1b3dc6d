import ISOBMFF
import MediaModel

/// The libvpx VP9 encoder (profile 0 for 8-bit, profile 2 for 10-bit 4:2:0), one libvpx handle per
/// stream, configured by ``VPXConfiguration``.
///
/// Each packet is one shown frame (libvpx would hand a hidden alternate reference frame out with the
/// frame shown after it, as one superframe). VP9 has no reordering in the container, so packets come
/// out in presentation order and each one's decode time is its presentation time.
///
/// A movie that keeps alpha (8-bit only) has a second stream with the same settings whose pictures are
/// the alpha plane as luma over neutral chroma, as ffmpeg's libvpx-vp9 encodes `yuva420p`; each packet
/// carries the same picture's alpha frame in ``EncodedPacket/alpha`` (Matroska's BlockAdditional).
final class VP9Encoder: VideoEncoder {
    let sampleEntry: any SampleEntry
    let codecName = "vp9"
    let pictureFormat: PictureFormat
    private let bitDepth: Int
    private let picture: VPXStream
    private let alpha: VPXStream?
    /// The pictures between forced keyframes when the movie keeps alpha (both streams' keyframes on the same pictures).
    private let keyframeInterval: Int
    /// Pictures given to the encoder so far.
    private var picturesIn = 0
    /// Neutral chroma for the alpha stream's pictures (128), made once.
    private let neutralChroma: [UInt8]
    /// Frames of each stream not yet paired with the other's.
    private var pictureFrames: [VPXStream.Frame] = []
    private var alphaFrames: [VPXStream.Frame] = []

    /// Opens the encoder (two, when the movie keeps alpha).
    ///
    /// - Parameters:
    ///   - settings: Size, rate, CRF or bit rate, preset, threads, bit depth, keyframes and alpha.
    ///   - colour: The matrix and range the pictures were converted with, written to every frame
    ///     header (matrix and range) and to the sample entry (all of it).
    /// - Throws: `.invalidSettings` or `.encoderFailed` when libvpx refuses the settings.
    init(settings: VideoSettings, colour: ColourMatrix) throws {
        pictureFormat = settings.pictureFormat
        bitDepth = settings.bitDepth
        let configuration = try VPXConfiguration(settings: settings, colour: colour)
        picture = try VPXStream(configuration, what: "VP9")
        alpha = pictureFormat.hasAlpha ? try VPXStream(configuration.forAlpha, what: "VP9 alpha") : nil
        keyframeInterval = configuration.keyframeInterval
        neutralChroma =
            pictureFormat.hasAlpha ? [UInt8](repeating: 128, count: settings.width / 2 * (settings.height / 2)) : []
        let record = VPCodecConfiguration(
            profile: settings.bitDepth > 8 ? 2 : 0,
            level: VPCodecConfiguration.level(
                width: settings.width, height: settings.height, frameRateNumerator: settings.frameRate.numerator,
                frameRateDenominator: settings.frameRate.denominator),
            bitDepth: UInt8(settings.bitDepth),
            // Flipbook's chroma is the mean of each 2x2 block, which the binding cannot name; ffmpeg
            // writes this value for 4:2:0 whose siting is not stated.
            chromaSubsampling: .yuv420ColocatedWithLuma, colour: ColourDescription(colour))
        var entry = VideoSampleEntry.vp9(
            width: settings.width, height: settings.height, configuration: record, compressorName: "Flipbook VP9")
        entry.hasAlpha = pictureFormat.hasAlpha
        sampleEntry = entry
    }

    func encode(_ yuv: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: yuv)
        let keyframe = alpha != nil && picturesIn % keyframeInterval == 0
        picturesIn += 1
        if bitDepth == 8 {
            pictureFrames += try picture.encode(
                luma: yuv.luma, cb: yuv.cb, cr: yuv.cr, presentationTime: presentationTime, keyframe: keyframe)
        } else {
            // 10-bit values in 16-bit words: converted from 16-bit samples, or the 8-bit planes scaled exactly.
            let planes = yuv.tenBitPlanes
            pictureFrames += try picture.encode(
                luma: planes.luma, cb: planes.cb, cr: planes.cr, presentationTime: presentationTime)
        }
        if let alpha {
            let plane = yuv.alpha ?? [UInt8](repeating: 255, count: yuv.width * yuv.height)
            alphaFrames += try alpha.encode(
                luma: plane, cb: neutralChroma, cr: neutralChroma, presentationTime: presentationTime,
                keyframe: keyframe)
        }
        return try pairedPackets()
    }

    func flush() throws -> [EncodedPacket] {
        pictureFrames += try picture.flush()
        if let alpha { alphaFrames += try alpha.flush() }
        let packets = try pairedPackets()
        guard pictureFrames.isEmpty, alphaFrames.isEmpty else {
            throw FlipbookError.vp9AlphaUnpaired(pictures: pictureFrames.count, alphaFrames: alphaFrames.count)
        }
        return packets
    }

    /// The packets whose frames are out of every stream: each picture's frame, with its alpha frame
    /// when the movie keeps alpha (the two streams hand out the same pictures, each in order).
    private func pairedPackets() throws -> [EncodedPacket] {
        guard alpha != nil else {
            defer { pictureFrames.removeAll(keepingCapacity: true) }
            return pictureFrames.map(Self.packet)
        }
        let count = min(pictureFrames.count, alphaFrames.count)
        var packets: [EncodedPacket] = []
        for (frame, alphaFrame) in zip(pictureFrames.prefix(count), alphaFrames.prefix(count)) {
            guard frame.presentationTime == alphaFrame.presentationTime, frame.isKeyframe == alphaFrame.isKeyframe
            else {
                throw FlipbookError.vp9AlphaOutOfStep(
                    at: frame.presentationTime, alphaFrame: alphaFrame.presentationTime,
                    keyframesDiffer: frame.isKeyframe != alphaFrame.isKeyframe)
            }
            var packet = Self.packet(frame)
            packet.alpha = alphaFrame.data
            packets.append(packet)
        }
        pictureFrames.removeFirst(count)
        alphaFrames.removeFirst(count)
        return packets
    }

    /// The packet of one frame, decoded when it is presented.
    private static func packet(_ frame: VPXStream.Frame) -> EncodedPacket {
        EncodedPacket(
            data: frame.data, presentationTime: frame.presentationTime, decodeTime: frame.presentationTime,
            isKeyframe: frame.isKeyframe)
    }
}
