/// The planes of a picture in planar Y'CbCr: luma, two chroma planes and, for a format with alpha, an
/// alpha plane the luma plane's size. Rows are tightly packed.
package struct PicturePlanes<Sample: FixedWidthInteger & UnsignedInteger & Sendable>: Sendable {
    package var luma: [Sample]
    package var cb: [Sample]
    package var cr: [Sample]
    /// The alpha plane, for a format that has one (opaque at the samples' top code); `nil` otherwise.
    package var alpha: [Sample]? = nil
}

/// 8-bit planes: what the converters make for an 8-bit movie, and for a 10-bit 4:2:0 one from 8-bit images.
package typealias EightBitPlanes = PicturePlanes<UInt8>

/// 10-bit planes of a picture, in 16-bit words, for an encoder at 10 bits (1023 opaque alpha).
package typealias DeepPlanes = PicturePlanes<UInt16>

/// The samples of a ``YUVPicture``: one storage, which its ``PictureFormat`` decides (see
/// ``PictureFormat/storageKind``), save that a 10-bit 4:2:0 picture without alpha holds either 8-bit
/// planes (its encoder scales them exactly) or 10-bit ones made from 16-bit images.
package enum PictureStorage: Sendable {
    /// 8-bit Y'CbCr planes.
    case eightBit(EightBitPlanes)
    /// 10-bit Y'CbCr planes in 16-bit words.
    case tenBit(DeepPlanes)
    /// Packed RGBA, 4 bytes a pixel: what the animated-image encoders (GIF, WebP) and FFV1 in RGB take.
    case rgba([UInt8])

    /// Which of the storages this is.
    package var kind: Kind {
        switch self {
        case .eightBit: .eightBit
        case .tenBit: .tenBit
        case .rgba: .rgba
        }
    }

    /// The cases of ``PictureStorage`` without their samples.
    package enum Kind: Sendable, Hashable, CustomStringConvertible {
        case eightBit, tenBit, rgba

        package var description: String {
            switch self {
            case .eightBit: "8-bit planes"
            case .tenBit: "10-bit planes"
            case .rgba: "packed RGBA"
            }
        }
    }
}

extension PictureFormat {
    /// The storage a new picture of this format has: packed RGBA for ``isPackedRGBA``, 10-bit planes
    /// for a format ``isConvertedAtTenBits``, 8-bit planes otherwise.
    package var storageKind: PictureStorage.Kind {
        isPackedRGBA ? .rgba : isConvertedAtTenBits ? .tenBit : .eightBit
    }

    /// Whether a picture of this format may hold `kind`: its own ``storageKind``, or 10-bit planes
    /// for a 10-bit format with 8-bit planes (converted from 16-bit images).
    package func canHold(_ kind: PictureStorage.Kind) -> Bool {
        kind == storageKind || (kind == .tenBit && storageKind == .eightBit && bitDepth == 10)
    }
}
