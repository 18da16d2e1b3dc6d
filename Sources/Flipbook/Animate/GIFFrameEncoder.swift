/// Turns each frame's RGBA into a GIF image, as gifski does: a palette of its own from
/// libimagequant, and, after the first, only the rectangle that changed, drawn over the previous
/// frame.
///
/// Opaque frames: the rectangle holds every pixel that differs from the previous frame. It is
/// quantised with what the screen shows there as its background, so a pixel that looks the same
/// as what is already shown becomes transparent, and every pixel that did not change at all is
/// transparent too: dithering stays still where the picture does, and a frame costs only what moves.
///
/// Frames that keep alpha (1-bit in a GIF): every frame whole, alpha below half transparent, and
/// the frame cleared before the next, since a transparent pixel cannot also mean "unchanged".
struct GIFFrameEncoder: Sendable {
    let width: Int
    let height: Int
    let quality: Int
    let keepsAlpha: Bool
    /// What a decoder shows after the frames so far (opaque frames only).
    private var screen: [UInt8] = []
    /// The previous frame's pixels as given.
    private var previous: [UInt8]?

    /// libimagequant's speed, 1-10: 8, which skips its slowest palette refinements. Measured on 40
    /// frames of 480x270 render (bench/gif.sh): a third of speed 4's CPU (1.7 s against 6.1 s) for
    /// 1.5 dB less, still 3 dB above ffmpeg's two-pass GIF at the same size.
    static let speed = 8
    /// Floyd-Steinberg at half strength: on the same 40 frames, against full strength, 9% fewer
    /// bytes and 1.5 dB more (the pan of bench/gif.sh: 6% fewer, 1.3 dB more), while gradients still
    /// break into dither rather than bands.
    static let dithering: Float = 0.5

    init(options: AnimationOptions) {
        width = options.width
        height = options.height
        quality = options.quality
        keepsAlpha = options.keepsAlpha
    }

    /// One frame, encoded.
    struct Encoded: Sendable {
        /// The image descriptor, colour table and data.
        var image: [UInt8]
        var transparentIndex: Int?
        var disposal: GIFFile.Disposal
    }

    /// Encodes the next frame's `rgba` (the whole canvas).
    mutating func encode(_ rgba: [UInt8]) throws -> Encoded {
        precondition(rgba.count == width * height * 4, "a GIF frame of \(rgba.count) bytes for \(width)x\(height)")
        if keepsAlpha { return try encodeWithAlpha(rgba) }
        defer { previous = rgba }
        guard let previous else {
            let picture = try ImageQuantizer.quantize(
                rgba, width: width, height: height, over: nil, quality: quality, speed: Self.speed,
                dithering: Self.dithering)
            screen = rgba
            draw(picture, in: PixelRect(x: 0, y: 0, width: width, height: height))
            let image = GIFFile.image(
                left: 0, top: 0, width: width, height: height, palette: picture.palette, indices: picture.indices)
            return Encoded(image: image, transparentIndex: nil, disposal: .keep)
        }
        guard let rect = Self.changedRect(rgba, previous, width: width, height: height) else {
            return Encoded(image: GIFFile.unchangedImage, transparentIndex: 0, disposal: .keep)
        }
        let source = crop(rgba, rect)
        var picture = try ImageQuantizer.quantize(
            source, width: rect.width, height: rect.height, over: crop(screen, rect), quality: quality,
            speed: Self.speed, dithering: Self.dithering)
        let transparent = picture.transparentIndex
        if let transparent {
            keepUnchanged(
                &picture.indices, in: rect, current: rgba, previous: previous, transparent: UInt8(transparent))
        }
        draw(picture, in: rect)
        let image = GIFFile.image(
            left: rect.x, top: rect.y, width: rect.width, height: rect.height, palette: picture.palette,
            indices: picture.indices)
        return Encoded(image: image, transparentIndex: transparent, disposal: .keep)
    }

    /// A whole frame whose pixels under half opacity are transparent and the rest opaque.
    private func encodeWithAlpha(_ rgba: [UInt8]) throws -> Encoded {
        var pixels = rgba
        for index in stride(from: 0, to: pixels.count, by: 4) {
            if pixels[index + 3] < 128 {
                (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3]) = (0, 0, 0, 0)
            } else {
                pixels[index + 3] = 255
            }
        }
        let picture = try ImageQuantizer.quantize(
            pixels, width: width, height: height, over: nil, quality: quality, speed: Self.speed,
            dithering: Self.dithering)
        let image = GIFFile.image(
            left: 0, top: 0, width: width, height: height, palette: picture.palette, indices: picture.indices)
        return Encoded(image: image, transparentIndex: picture.transparentIndex, disposal: .clear)
    }

    /// The smallest rectangle holding every pixel of `current` that differs from `previous`; `nil`
    /// when none does.
    static func changedRect(_ current: [UInt8], _ previous: [UInt8], width: Int, height: Int) -> PixelRect? {
        var (left, right, top, bottom) = (width, -1, height, -1)
        current.withUnsafeBytes { now in
            previous.withUnsafeBytes { before in
                let a = now.bindMemory(to: UInt32.self)
                let b = before.bindMemory(to: UInt32.self)
                for y in 0..<height {
                    let row = y * width
                    var first = -1
                    for x in 0..<width where a[row + x] != b[row + x] {
                        first = x
                        break
                    }
                    guard first >= 0 else { continue }
                    var last = first
                    for x in stride(from: width - 1, to: first, by: -1) where a[row + x] != b[row + x] {
                        last = x
                        break
                    }
                    left = min(left, first)
                    right = max(right, last)
                    if top == height { top = y }
                    bottom = y
                }
            }
        }
        guard right >= 0 else { return nil }
        return PixelRect(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
    }

    /// The pixels of `rect` from a canvas-sized RGBA buffer.
    private func crop(_ rgba: [UInt8], _ rect: PixelRect) -> [UInt8] {
        if rect.width == width && rect.height == height { return rgba }
        var out = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        for row in 0..<rect.height {
            let from = ((rect.y + row) * width + rect.x) * 4
            out.replaceSubrange(
                (row * rect.width * 4)..<((row + 1) * rect.width * 4), with: rgba[from..<(from + rect.width * 4)])
        }
        return out
    }

    /// Makes every pixel of `rect` that is the same in `current` as in `previous` transparent.
    private func keepUnchanged(
        _ indices: inout [UInt8], in rect: PixelRect, current: [UInt8], previous: [UInt8], transparent: UInt8
    ) {
        let width = width
        current.withUnsafeBytes { now in
            previous.withUnsafeBytes { before in
                let a = now.bindMemory(to: UInt32.self)
                let b = before.bindMemory(to: UInt32.self)
                indices.withUnsafeMutableBufferPointer { out in
                    for row in 0..<rect.height {
                        let canvasRow = (rect.y + row) * width + rect.x
                        let outRow = row * rect.width
                        for column in 0..<rect.width where a[canvasRow + column] == b[canvasRow + column] {
                            out[outRow + column] = transparent
                        }
                    }
                }
            }
        }
    }

    /// Updates what the screen shows with the opaque pixels of `picture` drawn in `rect`.
    private mutating func draw(_ picture: PalettedPicture, in rect: PixelRect) {
        let width = width
        let palette = picture.palette
        picture.indices.withUnsafeBufferPointer { indices in
            screen.withUnsafeMutableBufferPointer { screen in
                for row in 0..<rect.height {
                    for column in 0..<rect.width {
                        let entry = Int(indices[row * rect.width + column]) * 4
                        guard palette[entry + 3] >= 128 else { continue }
                        let pixel = ((rect.y + row) * width + rect.x + column) * 4
                        screen[pixel] = palette[entry]
                        screen[pixel + 1] = palette[entry + 1]
                        screen[pixel + 2] = palette[entry + 2]
                        screen[pixel + 3] = 255
                    }
                }
            }
        }
    }
}
