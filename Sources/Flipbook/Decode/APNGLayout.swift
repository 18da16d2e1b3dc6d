import Foundation

/// An APNG's structure, walked without inflating anything: the `acTL` chunk that makes a PNG
/// animated, and for each `fcTL` its frame's rectangle, delay, dispose and blend operations, and
/// the ranges of its zlib data (the `IDAT` chunks when the default image is the first frame, the
/// `fdAT` chunks after their sequence numbers otherwise).
struct APNGLayout {
    /// One frame's control chunk and data.
    struct FrameInfo {
        var rect: AnimationCanvas.Rect
        var disposal: AnimationCanvas.Disposal
        /// `blend_op` 1: drawn over the canvas; 0: its pixels replace the canvas's.
        var blendsOver: Bool
        var data: [Range<Int>] = []
    }

    let layout: AnimationLayout
    let frames: [FrameInfo]
    /// The `IHDR` chunk's data (13 bytes).
    let header: Range<Int>
    /// The whole chunks between `IHDR` and the first `IDAT` other than `acTL` and `fcTL` (palette,
    /// transparency, colour), copied into each frame's PNG.
    let ancillary: [Range<Int>]

    /// The layout of a PNG with an `acTL` chunk before its image data; `nil` for a still PNG.
    static func read(_ data: Data) -> APNGLayout? {
        data.withUnsafeBytes { raw -> APNGLayout? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func read32(_ at: Int) -> Int {
                Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            }
            func read16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
            var offset = 8
            var header: Range<Int>?
            var animated = false
            var ancillary: [Range<Int>] = []
            var frames: [FrameInfo] = []
            var delays: [MediaTime] = []
            var seenImageData = false
            var ended = false
            var whole = 0
            while offset + 8 <= bytes.count {
                let length = read32(offset)
                let type = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)]), as: UTF8.self)
                let body = offset + 8
                // A chunk cut short ends the walk: the frames before it are the whole ones.
                guard length <= bytes.count, body + length + 4 <= bytes.count else { break }
                switch type {
                case "IHDR" where length == 13: header = body..<(body + 13)
                case "acTL":
                    if seenImageData { return nil }
                    animated = true
                case "fcTL" where length == 26:
                    whole = frames.count
                    let den = read16(body + 22)
                    let delay = MediaTime(value: Int64(read16(body + 20)), timescale: Int32(den == 0 ? 100 : den))
                    delays.append(AnimationLayout.browserDelay(delay))
                    frames.append(
                        FrameInfo(
                            rect: .init(
                                x: read32(body + 12), y: read32(body + 16), width: read32(body + 4),
                                height: read32(body + 8)),
                            disposal: [.keep, .background, .previous][min(2, Int(bytes[body + 24]))],
                            blendsOver: bytes[body + 25] == 1))
                case "IDAT":
                    seenImageData = true
                    if !frames.isEmpty, frames.count == 1 { frames[0].data.append(body..<(body + length)) }
                case "fdAT" where length > 4:
                    if !frames.isEmpty { frames[frames.count - 1].data.append((body + 4)..<(body + length)) }
                case "IEND":
                    ended = true
                default:
                    if !seenImageData && type != "IHDR" { ancillary.append(offset..<(body + length + 4)) }
                }
                if ended { break }
                offset = body + length + 4
            }
            guard animated, let header else { return nil }
            // A frame is whole once the next frame's control chunk or IEND is reached.
            if ended { whole = frames.count }
            let width = read32(header.lowerBound)
            let height = read32(header.lowerBound + 4)
            let kept = Array(frames.prefix(whole))
            let layout = AnimationLayout(
                kind: .apng, width: width, height: height, delays: Array(delays.prefix(whole)),
                isTruncated: whole < frames.count || !ended)
            return APNGLayout(layout: layout, frames: kept, header: header, ancillary: ancillary)
        }
    }
}
