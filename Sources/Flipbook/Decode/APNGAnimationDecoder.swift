import Foundation

/// APNG frames through Flipbook's own PNG path: each frame's zlib data is put into a PNG of the
/// frame's size (the file's header chunks, palette and transparency with it) and decoded as any PNG
/// is, then drawn onto the canvas (``AnimationCanvas``) replacing or over what is there, and
/// disposed as its `fcTL` says.
final class APNGAnimationDecoder: AnimationFrameDecoding {
    let layout: AnimationLayout
    private let data: Data
    private let structure: APNGLayout
    private let limits: ImageLimits
    private var canvas: AnimationCanvas
    private(set) var framesDecoded = 0

    init(_ data: Data, layout: AnimationLayout, limits: ImageLimits) throws {
        guard let structure = APNGLayout.read(data) else {
            throw FlipbookError.apngControlChunkUnreadable()
        }
        self.data = data
        self.layout = layout
        self.structure = structure
        self.limits = limits
        canvas = AnimationCanvas(width: layout.width, height: layout.height)
    }

    func nextFrame() throws -> Frame {
        let index = framesDecoded
        guard index < structure.frames.count else {
            throw FlipbookError.animationEndsEarly("APNG", beforeFrame: index + 1)
        }
        let info = structure.frames[index]
        let image: Frame
        do {
            image = try ImageDecoder.decode(framePNG(info), limits: limits)
        } catch var error as FlipbookError {
            error.message = "frame \(index + 1) of the APNG cannot be decoded: " + error.message
            throw error
        }
        let screenWidth = layout.width
        let pixels = canvas.compose(info.rect, disposal: info.disposal) { canvas, clipped in
            Self.draw(image, at: info.rect, clipped: clipped, over: info.blendsOver, onto: &canvas, width: screenWidth)
        }
        framesDecoded += 1
        return try Frame(width: layout.width, height: layout.height, format: .rgba, pixels: pixels)
    }

    /// A PNG holding one frame: the signature, `IHDR` with the frame's size, the header chunks, one
    /// `IDAT` with the frame's zlib data, and `IEND`.
    private func framePNG(_ info: APNGLayout.FrameInfo) throws -> Data {
        try limits.check(width: info.rect.width, height: info.rect.height)
        var png = Data(ImageSniffing.pngSignature)
        var header = [UInt8](data[structure.header])
        for (shift, value) in [(0, info.rect.width), (4, info.rect.height)] {
            for byte in 0..<4 { header[shift + byte] = UInt8(truncatingIfNeeded: value >> (24 - 8 * byte)) }
        }
        Self.appendChunk("IHDR", header, to: &png)
        for chunk in structure.ancillary { png.append(data[chunk]) }
        var compressed: [UInt8] = []
        for range in info.data { compressed.append(contentsOf: data[range]) }
        Self.appendChunk("IDAT", compressed, to: &png)
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to png: inout Data) {
        let length = UInt32(body.count)
        png.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) })
        let typed = Array(type.utf8) + body
        png.append(contentsOf: typed)
        let crc = typed.withUnsafeBufferPointer { Deflate.crc32($0) }
        png.append(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) })
    }

    /// Draws `image` (RGB or RGBA) at `rect`, replacing the canvas's pixels or blending over them
    /// (straight alpha, as APNG's `APNG_BLEND_OP_OVER` defines).
    private static func draw(
        _ image: Frame, at rect: AnimationCanvas.Rect, clipped: AnimationCanvas.Rect, over: Bool,
        onto canvas: inout [UInt8], width: Int
    ) {
        let step = image.format.bytesPerPixel
        let offsets = image.format.channelOffsets
        image.pixels.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for row in clipped.y..<(clipped.y + clipped.height) {
                    for column in clipped.x..<(clipped.x + clipped.width) {
                        let from = (row - rect.y) * image.bytesPerRow + (column - rect.x) * step
                        let to = (row * width + column) * 4
                        let red = source[from + offsets.red]
                        let green = source[from + offsets.green]
                        let blue = source[from + offsets.blue]
                        let alpha = step == 4 ? Int(source[from + 3]) : 255
                        guard over, alpha < 255 else {
                            (target[to], target[to + 1], target[to + 2]) = (red, green, blue)
                            target[to + 3] = UInt8(alpha)
                            continue
                        }
                        let below = Int(target[to + 3])
                        let out = alpha + below * (255 - alpha) / 255
                        guard out > 0 else { continue }
                        for (channel, value) in [(0, red), (1, green), (2, blue)] {
                            let mixed = Int(value) * alpha + Int(target[to + channel]) * below * (255 - alpha) / 255
                            target[to + channel] = UInt8((mixed + out / 2) / out)
                        }
                        target[to + 3] = UInt8(out)
                    }
                }
            }
        }
    }
}
