internal import CTurboJPEG
import Foundation

/// JPEG decoding with libjpeg-turbo's TurboJPEG API, one handle per image.
enum TurboJPEGDecoder {
    /// The scaling factors a decode may use: those of `tjGetScalingFactors` that libjpeg-turbo
    /// decodes with its SIMD reduced-size IDCTs, 1/2, 1/4 and 1/8. (The other n/8 factors use plain C
    /// IDCTs: for a 24 MP 4:2:0 photo 3/8 took longer than 1/2, and 5/8 to 7/8 longer than full size.)
    static let scales: [DecodeScale] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [] }
        return (0..<Int(count)).map {
            DecodeScale(numerator: Int(factors[$0].num), denominator: Int(factors[$0].denom))
        }
        .filter { $0.numerator == 1 && [2, 4, 8].contains($0.denominator) }
    }()

    /// Decodes a JPEG (baseline or progressive; RGB/YCbCr, grayscale, CMYK or YCCK) to 8-bit RGB.
    ///
    /// - Parameters:
    ///   - sizeHint: Where the image will be drawn; when it is drawn smaller, the image is decoded
    ///     at the smallest of ``scales`` that is still at least the drawn size.
    ///   - swapsSides: Whether the image's orientation turns it a quarter (so the hint's width
    ///     applies to the stored height).
    static func decode(_ data: Data, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, swapsSides: Bool = false)
        throws -> Frame
    {
        guard let handle = tjInitDecompress() else {
            throw FlipbookError(.corruptImage, "TurboJPEG could not create a decompressor")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Frame in
            let bytes = buffer.bindMemory(to: UInt8.self)
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colourspace: Int32 = 0
            try turboCheck(
                tjDecompressHeader3(
                    handle, bytes.baseAddress, UInt(bytes.count), &width, &height, &subsampling, &colourspace),
                handle, "tjDecompressHeader3")
            try limits.check(width: Int(width), height: Int(height))
            let scale =
                sizeHint?.smallestScale(
                    storedWidth: Int(width), storedHeight: Int(height), swapsSides: swapsSides, among: scales) ?? .one
            // tjDecompress2 picks the factor whose result fits in the width and height it is given.
            width = Int32(scale.scaled(Int(width)))
            height = Int32(scale.scaled(Int(height)))
            // CMYK and YCCK files are decoded to CMYK and converted here; libjpeg converts the rest.
            let isCMYK = colourspace == Int32(TJCS_CMYK.rawValue) || colourspace == Int32(TJCS_YCCK.rawValue)
            let pixelFormat = isCMYK ? TJPF_CMYK : TJPF_RGB
            let rowBytes = Int(width) * (isCMYK ? 4 : 3)
            // Not zeroed first: TurboJPEG writes every pixel or the image is refused.
            var pixels = try [UInt8](unsafeUninitializedCapacity: rowBytes * Int(height)) { out, initialized in
                try turboCheck(
                    tjDecompress2(
                        handle, bytes.baseAddress, UInt(bytes.count), out.baseAddress, width, Int32(rowBytes), height,
                        Int32(pixelFormat.rawValue), TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT),
                    handle, "tjDecompress2")
                initialized = out.count
            }
            if isCMYK { pixels = rgbFromInvertedCMYK(pixels) }
            return try Frame(width: Int(width), height: Int(height), format: .rgb, pixels: pixels)
        }
    }
}

/// The funnel for TurboJPEG status codes: -1 is an error, described by `tjGetErrorStr2`.
private func turboCheck(_ status: Int32, _ handle: tjhandle, _ function: String) throws {
    guard status != 0 else { return }
    let reason = String(cString: tjGetErrorStr2(handle))
    throw FlipbookError(
        .corruptImage, "the JPEG cannot be decoded: \(reason)",
        underlying: LibraryCallError(library: "TurboJPEG", function: function, status: Int(status)))
}
