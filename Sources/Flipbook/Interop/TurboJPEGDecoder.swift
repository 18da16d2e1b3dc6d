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
        guard case .frame(let frame) = try decodeImage(data, limits: limits, sizeHint: sizeHint, swapsSides: swapsSides)
        else { preconditionFailure("planes decoded although none were asked for") }
        return frame
    }

    /// Decodes a JPEG as ``decode(_:limits:sizeHint:swapsSides:)`` does, or, when `planes` accepts
    /// its upright size (``PlanarRequest/acceptsFitted(width:height:)``, after the same scaling) and it
    /// is stored as Y'CbCr 4:2:0, 4:2:2, 4:4:0 or 4:4:4, to its planes as stored
    /// (`tjDecompressToYUVPlanes`: no chroma upsampling, no conversion to RGB). With `keepsCMYK`, a CMYK
    /// or YCCK file comes as its inverted CMYK in an RGBA-shaped frame marked
    /// ``SourceColour/pixelsAreCMYK``, for ``ColourTransform`` to convert through its profile.
    static func decodeImage(
        _ data: Data, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, swapsSides: Bool = false,
        planes request: PlanarRequest? = nil, keepsCMYK: Bool = false
    ) throws -> DecodedImage {
        guard let handle = tjInitDecompress() else {
            throw FlipbookError.imageDecoderNotCreated(by: "TurboJPEG", "a decompressor")
        }
        defer { tjDestroy(handle) }
        return try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> DecodedImage in
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
            // tjDecompress2 and tjDecompressToYUVPlanes pick the factor whose result fits in the width
            // and height they are given.
            width = Int32(scale.scaled(Int(width)))
            height = Int32(scale.scaled(Int(height)))
            if let request, colourspace == Int32(TJCS_YCbCr.rawValue),
                let (fullWidth, fullHeight) = chromaLayout(subsampling),
                request.acceptsFitted(
                    width: Int(swapsSides ? height : width), height: Int(swapsSides ? width : height))
            {
                let planes = try decodePlanes(
                    handle, bytes, width: Int(width), height: Int(height), chromaFullWidth: fullWidth,
                    chromaFullHeight: fullHeight)
                return .planes(planes)
            }
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
            if isCMYK && keepsCMYK {
                // Left as CMYK for the colour transform to convert through the file's profile.
                var frame = try Frame(width: Int(width), height: Int(height), format: .rgba, pixels: pixels)
                frame.sourceColour.pixelsAreCMYK = true
                return .frame(frame)
            }
            if isCMYK { pixels = rgbFromInvertedCMYK(pixels) }
            return .frame(try Frame(width: Int(width), height: Int(height), format: .rgb, pixels: pixels))
        }
    }

    /// Whether chroma is as wide and as high as luma, for the subsamplings the planar path takes.
    private static func chromaLayout(_ subsampling: Int32) -> (Bool, Bool)? {
        switch subsampling {
        case Int32(TJSAMP_420.rawValue): (false, false)
        case Int32(TJSAMP_422.rawValue): (false, true)
        case Int32(TJSAMP_440.rawValue): (true, false)
        case Int32(TJSAMP_444.rawValue): (true, true)
        default: nil
        }
    }

    /// The Y'CbCr planes of an image whose header `handle` has read, decoded at the scale that makes
    /// it `width x height` (sides even; every plane scaled alike, so chroma keeps its subsampling).
    private static func decodePlanes(
        _ handle: tjhandle, _ bytes: UnsafeBufferPointer<UInt8>, width: Int, height: Int, chromaFullWidth: Bool,
        chromaFullHeight: Bool
    ) throws -> YCbCrPlanes {
        let chromaWidth = chromaFullWidth ? width : width / 2
        let chromaCount = chromaWidth * (chromaFullHeight ? height : height / 2)
        var cb: [UInt8] = []
        var cr: [UInt8] = []
        // Not zeroed first: TurboJPEG writes every sample or the image is refused.
        let luma = try [UInt8](unsafeUninitializedCapacity: width * height) { y, lumaDone in
            cb = try [UInt8](unsafeUninitializedCapacity: chromaCount) { u, cbDone in
                cr = try [UInt8](unsafeUninitializedCapacity: chromaCount) { v, crDone in
                    var planes: [UnsafeMutablePointer<UInt8>?] = [y.baseAddress, u.baseAddress, v.baseAddress]
                    var strides: [Int32] = [Int32(width), Int32(chromaWidth), Int32(chromaWidth)]
                    try turboCheck(
                        tjDecompressToYUVPlanes(
                            handle, bytes.baseAddress, UInt(bytes.count), &planes, Int32(width), &strides,
                            Int32(height), TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT),
                        handle, "tjDecompressToYUVPlanes")
                    crDone = chromaCount
                }
                cbDone = chromaCount
            }
            lumaDone = width * height
        }
        return YCbCrPlanes(
            width: width, height: height, chromaFullWidth: chromaFullWidth, chromaFullHeight: chromaFullHeight,
            luma: luma, cb: cb, cr: cr)
    }
}

/// The funnel for TurboJPEG status codes: -1 is an error, described by `tjGetErrorStr2`.
private func turboCheck(_ status: Int32, _ handle: tjhandle, _ function: String) throws {
    guard status != 0 else { return }
    let reason = String(cString: tjGetErrorStr2(handle))
    throw FlipbookError.imageUndecodable(
        "JPEG", reason, cause: LibraryCallError(library: "TurboJPEG", function: function, status: Int(status)))
}
