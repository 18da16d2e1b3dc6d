/// The memory layout of an 8-bit-per-channel pixel.
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Red, green, blue, alpha: four bytes a pixel.
    case rgba
    /// Blue, green, red, alpha: four bytes a pixel (the usual layout of Core Graphics and Cairo buffers).
    case bgra
    /// Red, green, blue: three bytes a pixel.
    case rgb

    /// Bytes a pixel takes.
    public var bytesPerPixel: Int {
        switch self {
        case .rgba, .bgra: 4
        case .rgb: 3
        }
    }

    /// Byte offsets of the red, green and blue channels within a pixel.
    var channelOffsets: (red: Int, green: Int, blue: Int) {
        switch self {
        case .rgba, .rgb: (0, 1, 2)
        case .bgra: (2, 1, 0)
        }
    }
}

/// One decoded picture: 8-bit pixels in rows, top row first.
///
/// Rows may be padded: ``bytesPerRow`` is at least `width * format.bytesPerPixel`.
/// Alpha, where the format has it, is straight (not premultiplied).
public struct Frame: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// How each pixel's bytes are laid out.
    public let format: PixelFormat
    /// Distance in bytes from the start of one row to the start of the next.
    public let bytesPerRow: Int
    /// The pixel bytes, `height` rows of `bytesPerRow` bytes (the last row may omit its padding).
    public let pixels: [UInt8]
    /// The colour the image's file stated, for a frame decoded from one; unstated (taken as sRGB) otherwise.
    package var sourceColour = SourceColour.unstated

    /// The colour space of the pixels (sRGB unless set): a movie converts them from it into its own
    /// (``VideoSettings/colourStandard``) unless ``VideoSettings/colourManagement`` is off.
    ///
    /// A frame decoded from a file may state a profile no case here names; it reads as ``FrameColourSpace/sRGB``
    /// then, and setting this replaces what the file stated.
    public var colourSpace: FrameColourSpace {
        get {
            guard let points = sourceColour.codePoints, sourceColour.iccProfile == nil else { return .sRGB }
            return FrameColourSpace.allCases.first { SourceProfile.codePoints(of: $0) == points } ?? .sRGB
        }
        set {
            var colour = SourceColour(codePoints: SourceProfile.codePoints(of: newValue))
            colour.imageName = sourceColour.imageName
            sourceColour = colour
        }
    }

    /// Creates a frame from pixel bytes.
    ///
    /// - Parameters:
    ///   - width: Width in pixels, at least 1.
    ///   - height: Height in pixels, at least 1.
    ///   - format: The layout of each pixel.
    ///   - bytesPerRow: Row stride in bytes; `nil` means tightly packed rows.
    ///   - pixels: At least `(height - 1) * bytesPerRow + width * format.bytesPerPixel` bytes.
    /// - Throws: ``FlipbookError/Code/invalidFrame`` when the sizes do not fit together.
    public init(width: Int, height: Int, format: PixelFormat, bytesPerRow: Int? = nil, pixels: [UInt8]) throws {
        let rowBytes = bytesPerRow ?? width * format.bytesPerPixel
        guard width > 0, height > 0 else {
            throw FlipbookError.frameTooSmall(width: width, height: height)
        }
        guard rowBytes >= width * format.bytesPerPixel else {
            throw FlipbookError.frameRowsOverlap(
                bytesPerRow: rowBytes, width: width, bytesPerPixel: format.bytesPerPixel)
        }
        let needed = (height - 1) * rowBytes + width * format.bytesPerPixel
        guard pixels.count >= needed else {
            throw FlipbookError.framePixelsShort(
                width: width, height: height, format: format, needed: needed, got: pixels.count)
        }
        self.width = width
        self.height = height
        self.format = format
        self.bytesPerRow = rowBytes
        self.pixels = pixels
    }
}
