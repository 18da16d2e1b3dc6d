import Foundation

extension FuzzEntry {
    /// Limits for animations: at most 2^22 pixels in all frames together, so one input cannot take long.
    static let animationLimits = ImageLimits(
        maxDimension: 4096, maxPixels: 1 << 22, maxJPEGScans: 500, maxAnimationPixels: 1 << 22)

    /// Reads `bytes` as an animated GIF, APNG or WebP would be read in a list of images: the layout
    /// from the file's structure, then every whole frame composited, checking each frame's size.
    package static func decodeAnimation(_ bytes: [UInt8]) {
        let data = Data(bytes)
        guard let layout = try? AnimationLayout.read(data),
            let decoder = try? AnimationDecoders.open(data, layout: layout, limits: animationLimits)
        else { return }
        for _ in layout.delays.indices {
            guard let frame = try? decoder.nextFrame() else { return }
            precondition(
                frame.width == layout.width && frame.height == layout.height
                    && frame.pixels.count == frame.width * frame.height * 4,
                "an animation's frame is not its canvas's size")
        }
    }

    /// What the `FuzzGIF` target does with one input: the image decoders (a GIF's first frame), then
    /// the animation path.
    package static func gifTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        decodeAnimation(bytes)
    }
}
