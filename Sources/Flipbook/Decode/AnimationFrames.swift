import Foundation

/// The animations of one movie being decoded: one decoder per file, kept open while its frames are
/// asked for in order (by several decoding threads at once, a few frames ahead), so each frame is
/// composited once from the one before it. A frame asked for again after it was handed out, or
/// before the ones already decoded, restarts that file's decoder.
final class AnimationFrames: @unchecked Sendable {
    /// One file's decoder and the frames decoded ahead of their turn.
    private final class Reader: @unchecked Sendable {
        let lock = NSLock()
        var decoder: any AnimationFrameDecoding
        var ahead: [Int: Frame] = [:]
        init(_ decoder: any AnimationFrameDecoding) { self.decoder = decoder }
    }

    private let lock = NSLock()
    private var readers: [String: Reader] = [:]
    let limits: ImageLimits

    init(limits: ImageLimits) {
        self.limits = limits
    }

    /// Decodes `image`: a frame of an animation (``ImagePart/frame(_:)``) through this cache, any other
    /// image as ``ImageDecoder/decodeImageFile(_:_:)`` does.
    func decodeImage(_ image: ImageReference, _ request: DecodeRequest) throws -> DecodedImage {
        guard let frame = image.frame else { return try ImageDecoder.decodeImageFile(image, request) }
        return try FrameOrigin(image: image).attributing {
            .frame(try self.frame(frame - 1, of: image.file))
        }
    }

    /// Frame `index` (from 0) of the animation at `url`.
    private func frame(_ index: Int, of url: URL) throws -> Frame {
        let path = url.path
        let reader = try lock.withLock {
            if let reader = readers[path] { return reader }
            let reader = Reader(try Self.open(url, limits: limits))
            readers[path] = reader
            return reader
        }
        let frame = try reader.lock.withLock {
            if let frame = reader.ahead.removeValue(forKey: index) { return frame }
            if reader.decoder.framesDecoded > index { reader.decoder = try Self.open(url, limits: limits) }
            while reader.decoder.framesDecoded < index {
                let skipped = reader.decoder.framesDecoded
                reader.ahead[skipped] = try reader.decoder.nextFrame()
            }
            return try reader.decoder.nextFrame()
        }
        if index == reader.decoder.layout.delays.count - 1 {
            // The last frame: the file's decoder is not needed any more.
            lock.withLock { _ = readers.removeValue(forKey: path) }
        }
        return frame
    }

    /// A decoder for the animation at `url`, its limits checked; `frame` (from 1), the frame wanted
    /// of it, is named when the file is no animation.
    static func open(_ url: URL, frame: Int = 1, limits: ImageLimits) throws -> any AnimationFrameDecoding {
        let data = try ImageDecoder.readFile(at: url)
        guard let layout = try AnimationLayout.read(data) else {
            throw FlipbookError.imageNotAnimated(askedFrame: frame)
        }
        return try AnimationDecoders.open(data, layout: layout, limits: limits)
    }

    /// Frame `frame` (from 1) of the animation at `url`, decoded on its own (every frame before it too).
    static func decodeFrame(_ frame: Int, at url: URL, limits: ImageLimits) throws -> Frame {
        let decoder = try open(url, frame: frame, limits: limits)
        while decoder.framesDecoded < frame - 1 { _ = try decoder.nextFrame() }
        return try decoder.nextFrame()
    }
}
