import Foundation

/// Entry points for the fuzz targets under `fuzz/`: the decoders are internal, so the targets
/// reach them through this package-level door instead of a public API.
package enum FuzzEntry {
    /// Limits small enough that a hostile header cannot make one input allocate more than 64 MiB.
    static let limits = ImageLimits(maxDimension: 4096, maxPixels: 1 << 24, maxJPEGScans: 500)

    /// Decodes `bytes` as an image file would be (PNG through the fast path or libspng, JPEG
    /// through TurboJPEG with EXIF orientation), at full size and as drawn into a small movie (a
    /// JPEG then decodes at a smaller scale) and as Y'CbCr planes converted to YUV, throwing away the
    /// results and any error.
    package static func decodeImage(_ bytes: [UInt8]) {
        let data = Data(bytes)
        for hint in [nil, DecodeSizeHint(width: 16, height: 16, fit: .cover)] {
            if let frame = try? ImageDecoder.decode(data, limits: limits, sizeHint: hint) {
                precondition(
                    frame.pixels.count == frame.height * frame.bytesPerRow, "a decoded frame's size is wrong")
            }
        }
        // An animated GIF, APNG or WebP, frame by frame.
        decodeAnimation(bytes)
        // A Y'CbCr JPEG of even size as its planes, turned upright and converted to the movie's YUV.
        if case .planes(let planes) = try? ImageDecoder.decodeImage(data, limits: limits, planes: .anyEvenSize) {
            var picture = YUVPicture(width: planes.width, height: planes.height)
            JPEGToYUVConverter(matrix: .bt709).convert(planes, into: &picture)
        }
    }

    /// Decodes `bytes` as PNG through both paths: the fast path, and libspng after metadata is dropped.
    package static func decodePNG(_ bytes: [UInt8]) {
        let data = Data(ImageSniffing.pngSignature + bytes)
        _ = try? DeflatePNGDecoder.decode(data, limits: limits)
        _ = try? SPNGDecoder.decode(ImageSniffing.pngPixelChunks(data), limits: limits)
    }

    /// What the `FuzzPNG` target does with one input: the image decoders, then the bytes after a
    /// PNG's signature through both PNG paths.
    package static func pngTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        if bytes.count > 8 { decodePNG(Array(bytes.dropFirst(8))) }
    }

    /// What the `FuzzJPEG` target does with one input: the image decoders and the EXIF parser.
    package static func jpegTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        parseExif(bytes)
    }

    /// Parses `bytes` as a JPEG's EXIF metadata, both inside a JPEG and as a bare APP1 payload.
    package static func parseExif(_ bytes: [UInt8]) {
        _ = ExifOrientation.read(fromJPEG: bytes)
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        _ = ExifOrientation.fromExifSegment(exifHeader + bytes)
    }
}
