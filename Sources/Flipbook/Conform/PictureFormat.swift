/// What a picture for an encoder holds: how its chroma is sampled, the bits a sample, and whether it
/// has an alpha plane.
///
/// Each encoder states the one format it takes (``VideoEncoder/pictureFormat``), the preparation makes
/// pictures of it, and the encoder refuses any other. H.264, HEVC and AV1 take ``yuv420`` at 8 bits (and
/// 10 bits, through ``YUVPicture/tenBitPlanes``), without alpha; a 4:2:2 or 4:4:4 codec, or one with
/// alpha, takes the matching format, and the conversion makes it with ``PixelKernels/rgbToYUV(_:coefficients:into:)``.
package struct PictureFormat: Sendable, Hashable, CustomStringConvertible {
    /// How the chroma planes are sampled.
    package var chroma: ChromaFormat
    /// Bits a sample the encoder codes: 8, 10 or 12.
    package var bitDepth: Int
    /// Whether the picture has an alpha plane (the luma plane's size, 255 opaque).
    package var hasAlpha: Bool
    /// Whether the picture is packed RGBA (``YUVPicture/rgba``) and has no Y'CbCr planes: what the
    /// animated-image encoders (GIF, WebP) take, which work on the pixels' own colours.
    package var isPackedRGBA = false

    /// 8-bit 4:2:0 without alpha: what H.264, HEVC and AV1 take.
    package static let yuv420 = PictureFormat(chroma: .yuv420, bitDepth: 8, hasAlpha: false)

    /// 8-bit packed RGBA, opaque unless `hasAlpha` (then alpha is kept, not composited).
    package static func rgba(hasAlpha: Bool) -> PictureFormat {
        var format = PictureFormat(chroma: .yuv444, hasAlpha: hasAlpha)
        format.isPackedRGBA = true
        return format
    }

    package init(chroma: ChromaFormat, bitDepth: Int = 8, hasAlpha: Bool = false) {
        precondition([8, 10, 12].contains(bitDepth), "bit depth \(bitDepth)")
        self.chroma = chroma
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
    }

    /// Whether this is 4:2:0 without alpha: what the vectorised conversion loops and the stored
    /// JPEG and WebP planes make.
    package var isYUV420WithoutAlpha: Bool { chroma == .yuv420 && !hasAlpha && !isPackedRGBA }

    /// Whether pictures of this format are converted straight to 10-bit planes (``YUVPicture/deep``)
    /// and have no 8-bit planes: 10-bit formats other than 4:2:0 without alpha (ProRes's). A 10-bit
    /// 4:2:0 movie takes 8-bit planes scaled by its encoder, or deep ones from 16-bit images.
    package var isConvertedAtTenBits: Bool { bitDepth == 10 && !isYUV420WithoutAlpha }

    /// Whether a picture of `other` has the same planes (chroma sampling and alpha) as one of this
    /// format; the coded depth does not change the 8-bit planes.
    package func hasPlanes(of other: PictureFormat) -> Bool {
        chroma == other.chroma && hasAlpha == other.hasAlpha && isPackedRGBA == other.isPackedRGBA
    }

    package var description: String {
        isPackedRGBA
            ? "RGBA" + (hasAlpha ? "" : " (opaque)") : "\(bitDepth)-bit \(chroma)" + (hasAlpha ? " with alpha" : "")
    }
}
