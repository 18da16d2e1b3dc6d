/// How a picture's two chroma planes are sampled against its luma plane.
///
/// | Format | Chroma plane | Needs |
/// |---|---|---|
/// | ``yuv420`` | half the width, half the height | even width and height |
/// | ``yuv422`` | half the width, the full height | even width |
/// | ``yuv444`` | the full size | nothing |
public enum ChromaFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 4:2:0: one chroma sample for each 2x2 luma samples; what H.264, HEVC and AV1 movies are.
    case yuv420 = "4:2:0"
    /// 4:2:2: one chroma sample for each two luma samples side by side; what ProRes 422 is.
    case yuv422 = "4:2:2"
    /// 4:4:4: a chroma sample for every luma sample.
    case yuv444 = "4:4:4"

    public var description: String { rawValue }

    /// log2 of luma columns per chroma column: 1 for 4:2:0 and 4:2:2, 0 for 4:4:4.
    public var horizontalShift: Int { self == .yuv444 ? 0 : 1 }
    /// log2 of luma rows per chroma row: 1 for 4:2:0, 0 otherwise.
    public var verticalShift: Int { self == .yuv420 ? 1 : 0 }

    /// The size of a chroma plane of a `width` by `height` picture (sides rounded up).
    public func chromaSize(width: Int, height: Int) -> (width: Int, height: Int) {
        ((width + (1 << horizontalShift) - 1) >> horizontalShift, (height + (1 << verticalShift) - 1) >> verticalShift)
    }

    /// Whether a `width` by `height` picture fits the format's sampling whole (no half chroma sample).
    public func fitsWhole(width: Int, height: Int) -> Bool {
        width % (1 << horizontalShift) == 0 && height % (1 << verticalShift) == 0
    }
}
