/// The one video track of a movie: its picture size, time base and H.264 configuration.
///
/// The writer uses ``timescale`` as both the media timescale (`mdhd`) and the movie timescale
/// (`mvhd`), so every duration in the file is in the same units as the samples'.
public struct VideoTrack: Sendable, Equatable {
    /// The picture width in pixels, written in `tkhd` (as 16.16 fixed point) and in `avc1`.
    public var width: Int
    /// The picture height in pixels, written in `tkhd` (as 16.16 fixed point) and in `avc1`.
    public var height: Int
    /// Time units per second for the media and the movie.
    public var timescale: UInt32
    /// The H.264 parameter sets and format, written as `avcC`.
    public var decoderConfiguration: AVCDecoderConfiguration
    /// The colour tags, written as `colr`.
    public var colour: ColourDescription
    /// The shape of a pixel, written as `pasp`.
    public var pixelAspectRatio: PixelAspectRatio
    /// The encoder's name, written in the `avc1` compressorname field (at most 31 UTF-8 bytes; longer is cut).
    public var compressorName: String

    /// Creates a track description.
    ///
    /// - Parameters:
    ///   - width: Picture width in pixels, 1 through 65535.
    ///   - height: Picture height in pixels, 1 through 65535.
    ///   - timescale: Time units per second; not zero.
    ///   - decoderConfiguration: The H.264 parameter sets.
    ///   - colour: The colour tags; BT.709 limited range by default.
    ///   - pixelAspectRatio: The pixel shape; square by default.
    ///   - compressorName: The encoder's name.
    public init(
        width: Int, height: Int, timescale: UInt32, decoderConfiguration: AVCDecoderConfiguration,
        colour: ColourDescription = .bt709, pixelAspectRatio: PixelAspectRatio = .square,
        compressorName: String = "Flipbook H.264"
    ) {
        self.width = width
        self.height = height
        self.timescale = timescale
        self.decoderConfiguration = decoderConfiguration
        self.colour = colour
        self.pixelAspectRatio = pixelAspectRatio
        self.compressorName = compressorName
    }

    /// Throws if the track cannot be described in the file's fields.
    func validate() throws {
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw ISOBMFFError(.invalidTrack, "picture size \(width)x\(height) is outside 1...65535")
        }
        guard timescale > 0 else {
            throw ISOBMFFError(.invalidTrack, "timescale is 0; use the frame rate's time base, e.g. 30000")
        }
        guard pixelAspectRatio.hSpacing > 0, pixelAspectRatio.vSpacing > 0 else {
            throw ISOBMFFError(.invalidTrack, "pixel aspect ratio \(pixelAspectRatio) has a zero term")
        }
        try decoderConfiguration.validate()
    }
}

/// The shape of a pixel: horizontal spacing to vertical spacing, as in the `pasp` box.
public struct PixelAspectRatio: Sendable, Equatable, CustomStringConvertible {
    /// The relative width of a pixel.
    public var hSpacing: UInt32
    /// The relative height of a pixel.
    public var vSpacing: UInt32

    /// Square pixels, 1:1.
    public static let square = PixelAspectRatio(hSpacing: 1, vSpacing: 1)

    /// Creates a pixel aspect ratio.
    ///
    /// - Parameters:
    ///   - hSpacing: The relative width of a pixel.
    ///   - vSpacing: The relative height of a pixel.
    public init(hSpacing: UInt32, vSpacing: UInt32) {
        self.hSpacing = hSpacing
        self.vSpacing = vSpacing
    }

    public var description: String { "\(hSpacing):\(vSpacing)" }
}
