import Foundation

/// What an animated image file (GIF, APNG, animated WebP) says about its frames before any of them is
/// decoded: the canvas every frame is composited onto, and each frame's delay as a browser shows it.
///
/// Read from the file's structure alone, so the frame count times the canvas size is checked
/// against ``ImageLimits/maxAnimationPixels`` before any pixel memory is taken, and each frame's time
/// is known before the movie is scheduled.
package struct AnimationLayout: Sendable, Hashable {
    /// The kinds of animated image.
    package enum Kind: String, Sendable {
        case gif = "GIF"
        case apng = "APNG"
        case webp = "animated WebP"
    }

    package let kind: Kind
    /// The canvas (GIF's logical screen) width and height.
    package let width: Int
    package let height: Int
    /// How long each whole frame is shown, as browsers show it (see ``browserDelay(_:)``).
    package let delays: [MediaTime]
    /// Whether the file ends inside a frame (that frame and any after it are not in ``delays``).
    package let isTruncated: Bool

    /// Delays of 10 ms or less become 100 ms, as every major browser shows them (Chromium, Firefox
    /// and Safari alike: many GIFs say 0 or 1 hundredth and mean "as fast as sensible").
    package static func browserDelay(_ delay: MediaTime) -> MediaTime {
        delay > MediaTime(value: 1, timescale: 100) ? delay.reduced : MediaTime(value: 1, timescale: 10)
    }

    /// Throws when the canvas is over `limits` or the frames together are over
    /// ``ImageLimits/maxAnimationPixels``.
    package func check(_ limits: ImageLimits) throws {
        try limits.check(width: width, height: height)
        let (pixels, overflow) = (width * height).multipliedReportingOverflow(by: delays.count)
        guard !overflow, pixels <= limits.maxAnimationPixels else {
            throw FlipbookError.animationTooLarge(
                kind.rawValue, frames: delays.count, width: width, height: height, maxPixels: limits.maxAnimationPixels)
        }
    }

    /// The layout of `data` when it is an animation of more than one frame; `nil` for a still image
    /// (a one-frame GIF, a PNG without `acTL`, a still WebP) or another format.
    ///
    /// - Throws: `.corruptImage` for an animation whose structure is damaged before its first frame ends.
    package static func read(_ data: Data) throws -> AnimationLayout? {
        let layout: AnimationLayout?
        if data.starts(with: Array("GIF8".utf8)) {
            layout = try GIFLayout.read(data)
        } else if data.starts(with: ImageSniffing.pngSignature) {
            layout = APNGLayout.read(data)?.layout
        } else if ImageSniffing.isWebP(data) {
            layout = try WebPAnimationDecoder.layout(data)
        } else {
            layout = nil
        }
        guard let layout, layout.delays.count > 1 || layout.isTruncated else { return nil }
        return layout
    }
}
