/// A picture for the encoder, in the ``PictureFormat`` its encoder takes: planar Y'CbCr at 8 bits
/// (4:2:0 without alpha for H.264, HEVC and AV1), at 10 bits (ProRes's 4:2:2 and 4:4:4, with or
/// without alpha; a 10-bit 4:2:0 movie's pictures from 16-bit images), or packed RGBA (GIF, WebP).
///
/// The samples are in one ``storage``. The luma plane is `width x height`; each chroma plane is the
/// size ``ChromaFormat/chromaSize(width:height:)`` gives (`width/2 x height/2` for 4:2:0); the alpha
/// plane, when the format has one, is the luma plane's size. Rows are tightly packed, and the sides
/// fit the chroma format whole (even for 4:2:0).
package struct YUVPicture: Sendable {
    package let width: Int
    package let height: Int
    /// The chroma format, bit depth and alpha of the picture.
    package let format: PictureFormat
    /// The samples: a storage the format can hold (``PictureFormat/canHold(_:)``), of the picture's size.
    /// Written in place through ``withEightBitPlanes(_:)``, ``withDeepPlanes(_:)`` and ``withRGBA(_:)``.
    package private(set) var storage: PictureStorage

    /// A black (video-range) picture of `format`, opaque where it has alpha, in the format's own
    /// ``PictureFormat/storageKind`` (packed RGBA is opaque white).
    package init(width: Int, height: Int, format: PictureFormat = .yuv420) {
        precondition(
            width > 0 && height > 0 && format.chroma.fitsWhole(width: width, height: height),
            "\(format.chroma) does not fit \(width)x\(height)")
        self.width = width
        self.height = height
        self.format = format
        switch format.storageKind {
        case .eightBit:
            storage = .eightBit(Self.blankPlanes(width, height, format, black: 16, neutral: 128, opaque: 255))
        case .tenBit: storage = .tenBit(Self.blankPlanes(width, height, format, black: 64, neutral: 512, opaque: 1023))
        case .rgba: storage = .rgba([UInt8](repeating: 255, count: width * height * 4))
        }
    }

    /// A picture of `format` whose samples are `storage`, which the format can hold and which has the
    /// picture's size.
    package init(width: Int, height: Int, format: PictureFormat, storage: PictureStorage) {
        precondition(
            width > 0 && height > 0 && format.chroma.fitsWhole(width: width, height: height),
            "\(format.chroma) does not fit \(width)x\(height)")
        precondition(format.canHold(storage.kind), "\(storage.kind) in a picture of \(format)")
        self.width = width
        self.height = height
        self.format = format
        self.storage = storage
        switch storage {
        case .eightBit(let planes): checkSizes(of: planes)
        case .tenBit(let planes): checkSizes(of: planes)
        case .rgba(let pixels):
            precondition(pixels.count == width * height * 4, "RGBA of \(pixels.count) bytes for \(width)x\(height)")
        }
    }

    /// A 4:2:0 picture of planes made elsewhere: `luma` of `width x height` samples, `cb` and `cr` of a quarter.
    init(width: Int, height: Int, luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
        precondition(width > 0 && height > 0 && width % 2 == 0 && height % 2 == 0, "planes \(width)x\(height)")
        precondition(luma.count == width * height && cb.count == luma.count / 4 && cr.count == cb.count)
        self.width = width
        self.height = height
        format = .yuv420
        storage = .eightBit(EightBitPlanes(luma: luma, cb: cb, cr: cr))
    }

    /// Planes of `format` for a `width x height` picture, every sample `black` (luma), `neutral`
    /// (chroma) or `opaque` (alpha).
    private static func blankPlanes<Sample>(
        _ width: Int, _ height: Int, _ format: PictureFormat, black: Sample, neutral: Sample, opaque: Sample
    ) -> PicturePlanes<Sample> {
        let chroma = format.chroma.chromaSize(width: width, height: height)
        return PicturePlanes(
            luma: [Sample](repeating: black, count: width * height),
            cb: [Sample](repeating: neutral, count: chroma.width * chroma.height),
            cr: [Sample](repeating: neutral, count: chroma.width * chroma.height),
            alpha: format.hasAlpha ? [Sample](repeating: opaque, count: width * height) : nil)
    }

    /// Traps unless `planes` have the sizes of this picture's planes, alpha only when its format has it.
    private func checkSizes<Sample>(of planes: PicturePlanes<Sample>) {
        let chroma = format.chroma.chromaSize(width: width, height: height)
        precondition(
            planes.luma.count == width * height && planes.cb.count == chroma.width * chroma.height
                && planes.cr.count == planes.cb.count
                && planes.alpha?.count == (format.hasAlpha ? width * height : nil),
            "planes of \(planes.luma.count), \(planes.cb.count), \(planes.cr.count) and \(planes.alpha?.count ?? 0) "
                + "samples for a \(width)x\(height) picture of \(format)")
    }
}

extension YUVPicture {
    /// Runs `body` on the picture's 8-bit planes, written in place (no copy of the samples is made),
    /// after making them (black) if the picture held 10-bit planes. The picture's format must hold
    /// 8-bit planes; `body` keeps the planes' sizes.
    package mutating func withEightBitPlanes<Result>(_ body: (inout EightBitPlanes) throws -> Result) rethrows
        -> Result
    {
        precondition(format.canHold(.eightBit), "8-bit planes in a picture of \(format)")
        var planes: EightBitPlanes
        if case .eightBit(let held) = storage {
            planes = held
        } else {
            planes = Self.blankPlanes(width, height, format, black: 16, neutral: 128, opaque: 255)
        }
        // The storage lets go of the planes, so that `planes` is their only owner and `body` writes them in place.
        storage = .rgba([])
        defer { storage = .eightBit(planes) }
        return try body(&planes)
    }

    /// Runs `body` on the picture's 10-bit planes, written in place (no copy of the samples is made),
    /// after making them (black) if the picture held 8-bit planes. The picture's format must be 10-bit;
    /// `body` keeps the planes' sizes.
    package mutating func withDeepPlanes<Result>(_ body: (inout DeepPlanes) throws -> Result) rethrows -> Result {
        precondition(format.canHold(.tenBit), "10-bit planes in a picture of \(format)")
        var planes: DeepPlanes
        if case .tenBit(let held) = storage {
            planes = held
        } else {
            planes = Self.blankPlanes(width, height, format, black: 64, neutral: 512, opaque: 1023)
        }
        storage = .rgba([])  // as in withEightBitPlanes: `planes` is then the only owner
        defer { storage = .tenBit(planes) }
        return try body(&planes)
    }

    /// Runs `body` on the picture's packed RGBA pixels, written in place (no copy of them is made). The
    /// picture's format must be packed RGBA; `body` keeps their count.
    package mutating func withRGBA<Result>(_ body: (inout [UInt8]) throws -> Result) rethrows -> Result {
        guard case .rgba(var pixels) = storage else { preconditionFailure("RGBA in a picture of \(format)") }
        storage = .rgba([])  // as in withEightBitPlanes: `pixels` is then the only owner
        defer { storage = .rgba(pixels) }
        return try body(&pixels)
    }
}

extension YUVPicture {
    /// The 8-bit planes, or `nil` when the picture holds 10-bit planes or RGBA.
    package var eightBitPlanes: EightBitPlanes? {
        guard case .eightBit(let planes) = storage else { return nil }
        return planes
    }

    /// The 10-bit planes, or `nil` when the picture holds 8-bit planes or RGBA.
    package var deep: DeepPlanes? {
        guard case .tenBit(let planes) = storage else { return nil }
        return planes
    }

    /// The luma plane of a picture of 8-bit planes (asking any other traps).
    package var luma: [UInt8] { heldEightBitPlanes.luma }
    /// The Cb plane of a picture of 8-bit planes (asking any other traps).
    package var cb: [UInt8] { heldEightBitPlanes.cb }
    /// The Cr plane of a picture of 8-bit planes (asking any other traps).
    package var cr: [UInt8] { heldEightBitPlanes.cr }
    /// The alpha plane of a picture of 8-bit planes, `nil` for a format without alpha (asking a
    /// picture of other storage traps).
    package var alpha: [UInt8]? { heldEightBitPlanes.alpha }

    /// The pixels of a packed RGBA picture, 4 bytes a pixel (asking any other traps).
    package var rgba: [UInt8] {
        guard case .rgba(let pixels) = storage else { preconditionFailure("a picture of \(storage.kind) has no RGBA") }
        return pixels
    }

    /// The picture as 10-bit planes in 16-bit words: its 10-bit planes, or its 8-bit planes scaled
    /// exactly (`v << 2`, alpha left out). A packed RGBA picture has none: asking traps.
    package var tenBitPlanes: DeepPlanes {
        switch storage {
        case .tenBit(let planes): planes
        case .eightBit(let planes):
            DeepPlanes(
                luma: planes.luma.widenedToTenBits(), cb: planes.cb.widenedToTenBits(), cr: planes.cr.widenedToTenBits()
            )
        case .rgba: preconditionFailure("a picture of packed RGBA has no 10-bit planes")
        }
    }

    private var heldEightBitPlanes: EightBitPlanes {
        guard case .eightBit(let planes) = storage else {
            preconditionFailure("a picture of \(storage.kind) has no 8-bit planes")
        }
        return planes
    }
}

extension Array where Element == UInt8 {
    /// The samples as 10-bit values in 16-bit words, each scaled exactly (`v << 2`), for encoders
    /// that take 10-bit pictures in 16-bit words.
    func widenedToTenBits() -> [UInt16] {
        [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
            withUnsafeBufferPointer { source in
                for index in 0..<source.count { buffer[index] = UInt16(source[index]) << 2 }
            }
            initialized = count
        }
    }
}

/// Runs `body` with the byte addresses of three planes of 8- or 16-bit samples, valid during the call
/// only: what every encoder is handed (each copies the planes into frames of its own before returning).
func withPlaneAddresses<Sample, Result>(
    _ luma: [Sample], _ cb: [Sample], _ cr: [Sample],
    _ body: (
        _ luma: UnsafeMutablePointer<UInt8>?, _ cb: UnsafeMutablePointer<UInt8>?, _ cr: UnsafeMutablePointer<UInt8>?
    )
        throws -> Result
) rethrows -> Result {
    try luma.withUnsafeBytes { luma in
        try cb.withUnsafeBytes { cb in
            try cr.withUnsafeBytes { cr in
                func bytes(_ plane: UnsafeRawBufferPointer) -> UnsafeMutablePointer<UInt8>? {
                    UnsafeMutablePointer(mutating: plane.baseAddress?.assumingMemoryBound(to: UInt8.self))
                }
                return try body(bytes(luma), bytes(cb), bytes(cr))
            }
        }
    }
}
