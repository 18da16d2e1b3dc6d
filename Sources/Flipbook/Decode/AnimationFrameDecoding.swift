import Foundation

/// A decoder that hands out an animation's frames in order, each composited onto the canvas as a
/// browser shows it (RGBA, the canvas's size).
protocol AnimationFrameDecoding: AnyObject {
    /// The animation's structure, read before decoding.
    var layout: AnimationLayout { get }
    /// Frames handed out so far.
    var framesDecoded: Int { get }
    /// Decodes the next frame.
    ///
    /// - Throws: `.corruptImage` naming the frame when its data is damaged or cut short.
    func nextFrame() throws -> Frame
}

enum AnimationDecoders {
    /// The decoder for `data`, whose layout was read and is checked here against `limits`.
    static func open(_ data: Data, layout: AnimationLayout, limits: ImageLimits) throws -> any AnimationFrameDecoding {
        try layout.check(limits)
        switch layout.kind {
        case .gif: return try GIFAnimationDecoder(data, layout: layout, limits: limits)
        case .apng: return try APNGAnimationDecoder(data, layout: layout, limits: limits)
        case .webp: return try WebPAnimationDecoder(data, layout: layout, limits: limits)
        }
    }
}
