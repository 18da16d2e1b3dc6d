import Foundation

/// A list of image files with every animated one (GIF, APNG, animated WebP) replaced by its frames
/// (``ImagePart/frame(_:)``), each with its own delay; stills stay as they are.
///
/// Only a file whose name or first bytes say GIF, PNG or WebP is looked into: a PNG is an
/// animation when an `acTL` chunk comes before its image data, a GIF when it has more than one
/// image, a WebP when its `VP8X` header says so.
struct AnimatedInputs {
    /// Every image or frame, in order.
    private(set) var entries: [ImageReference] = []
    /// Each entry's delay: a frame of an animation's own, `nil` for a still.
    private(set) var delays: [MediaTime?] = []
    /// Lines to show: an animation cut at its last whole frame (with skipping on).
    private(set) var warnings: [String] = []

    /// Whether any entry is a frame of an animation.
    var hasAnimation: Bool { delays.contains { $0 != nil } }

    /// Expands `images`.
    ///
    /// - Throws: `.corruptImage` naming the file for a truncated animation, unless `skipInvalid`:
    ///   then its whole frames are kept, with a warning; `.unsupportedImage` for an animation over
    ///   the limits (with `skipInvalid`, its first frame is left in the list, to be skipped when decoded).
    init(_ images: [ImageReference], limits: ImageLimits, skipInvalid: Bool) throws {
        for image in images {
            guard let layout = Self.layout(of: image) else {
                entries.append(image)
                delays.append(nil)
                continue
            }
            let origin = FrameOrigin(image: image)
            let whole = layout.delays.count
            if layout.isTruncated {
                let cut = "the \(layout.kind.rawValue) is truncated after \(whole) whole frames"
                guard skipInvalid else {
                    throw origin.attribute(
                        FlipbookError.animationTruncated(layout.kind.rawValue, wholeFrames: whole, skippable: true))
                }
                guard whole > 0 else {
                    // Nothing whole to keep: the file stays in the list, to be skipped when it fails to decode.
                    entries.append(image)
                    delays.append(nil)
                    continue
                }
                warnings.append("\(image.file.path): \(cut); those are used")
            }
            do {
                try layout.check(limits)
            } catch let error as FlipbookError {
                guard skipInvalid else { throw origin.attribute(error) }
                // Its first frame, which fails the same check when decoded and is skipped with it.
                entries.append(ImageReference(file: image.file, part: .frame(1)))
                delays.append(nil)
                continue
            }
            for (index, delay) in layout.delays.enumerated() {
                entries.append(ImageReference(file: image.file, part: .frame(index + 1)))
                delays.append(delay)
            }
        }
    }

    /// The animation layout of `image`'s file, or `nil` for a still, another format, a page or frame of
    /// a file, or a file that cannot be read (whose decoding then reports why).
    static func layout(of image: ImageReference) -> AnimationLayout? {
        let url = image.file
        guard image.part == nil, url.isFileURL else { return nil }
        let suffix = url.pathExtension.lowercased()
        guard ["gif", "png", "apng", "webp"].contains(suffix) else { return nil }
        // Only a regular file is looked into: a FIFO named like an image would block the open until a writer
        // came (its decoding refuses it by name). A still PNG or WebP (a long sequence's usual frame) is told
        // from its first bytes alone, so only a GIF or an animation is read whole here before it is decoded.
        guard POSIXFile.state(of: url.path) != nil, let start = POSIXFile.bytes(of: url.path, at: 0, count: headLength),
            mayBeAnimated(Data(start), isWhole: start.count < headLength)
        else { return nil }
        guard let data = try? ImageDecoder.readFile(at: url) else { return nil }
        return try? AnimationLayout.read(data)
    }

    /// Bytes read from the start of a file to tell a still PNG or WebP from an animation.
    static let headLength = 64 * 1024

    /// Whether a file starting with `head` may be an animation: a GIF; a PNG with an `acTL` chunk
    /// before its image data (or chunks that run past `head` before either); a WebP whose `VP8X`
    /// header has the animation flag.
    static func mayBeAnimated(_ head: Data, isWhole: Bool) -> Bool {
        let bytes = [UInt8](head)
        if bytes.starts(with: Array("GIF8".utf8)) { return true }
        if bytes.starts(with: ImageSniffing.pngSignature) {
            var offset = 8
            while offset + 8 <= bytes.count {
                let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
                if type == "acTL" { return true }
                if type == "IDAT" || type == "IEND" { return false }
                offset += 12 + length
            }
            return !isWhole
        }
        if ImageSniffing.isWebP(head) {
            return bytes.count > 20 && bytes[12..<16].elementsEqual("VP8X".utf8) && bytes[20] & 0x02 != 0
        }
        return false
    }

    /// When each entry starts and how it is shown: an animation's frame at its own time for its
    /// own delay; a still for `copies` frames at `rate`. With `constantRate`, every entry is instead
    /// a number of frames at `rate` (a frame of an animation repeated, or left out, so that it starts
    /// at the frame nearest its time).
    func timing(rate: FrameRate, copies: Int, constantRate: Bool) -> [EntryTiming] {
        var time = MediaTime.zero
        var frameAt = 0
        return delays.map { delay in
            let length = delay ?? MediaTime(frame: copies, at: rate)
            defer { time = time + length }
            guard constantRate else {
                return EntryTiming(start: time, duration: delay, copies: delay == nil ? copies : 1)
            }
            guard delay != nil else {
                frameAt += copies
                return EntryTiming(start: nil, duration: nil, copies: copies)
            }
            let end = Self.nearestFrame(time + length, rate: rate)
            defer { frameAt = max(frameAt, end) }
            return EntryTiming(start: nil, duration: nil, copies: max(0, end - frameAt))
        }
    }

    /// The frame at `rate` nearest `time` (halves rounded up).
    private static func nearestFrame(_ time: MediaTime, rate: FrameRate) -> Int {
        let top = Int64(time.value) * Int64(rate.numerator) * 2 + Int64(time.timescale) * Int64(rate.denominator)
        return Int(top / (Int64(time.timescale) * Int64(rate.denominator) * 2))
    }
}

/// How one entry of a sequence is appended: its start (`nil`: where the previous frame ends), its
/// duration (`nil`: one frame at the movie's rate), and how many frames it is encoded as.
struct EntryTiming: Sendable {
    var start: MediaTime?
    var duration: MediaTime?
    var copies: Int
}
