import Foundation

/// Reads an image file and decodes it into a ``Frame``, choosing the decoder from the file's first bytes.
package enum ImageDecoder {
    /// Decodes PNG, JPEG, WebP, TIFF, HEIC or AVIF bytes.
    ///
    /// - Parameter sizeHint: The size and fit the image will be drawn at, if known: a JPEG drawn
    ///   smaller than its size is decoded at a smaller scale (PNGs always at full size).
    /// - Throws: ``FlipbookError`` with `.unsupportedImage` for other formats, `.corruptImage` for
    ///   damaged data; the caller attributes it to a frame and path.
    package static func decode(_ data: Data, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil) throws -> Frame {
        guard case .frame(let frame) = try decodeImage(data, limits: limits, sizeHint: sizeHint) else {
            preconditionFailure("planes decoded although none were asked for")
        }
        return frame
    }

    /// Decodes PNG, JPEG, WebP, TIFF, HEIC or AVIF bytes as ``decode(_:limits:sizeHint:)`` does, or, when
    /// `planes` accepts the upright size of a Y'CbCr JPEG or of an opaque lossy WebP, to its planes as
    /// stored (turned upright), which the preparer converts to the movie's YUV without going through RGB.
    ///
    /// With `deep` (a 10-bit movie), a 16-bit grey or RGB PNG or TIFF, or a 10- or 12-bit HEIC or AVIF (no
    /// alpha), that `planes` accepts by size comes as a ``DeepImage`` at its depth.
    package static func decodeImage(
        _ data: Data, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, planes: PlanarRequest? = nil,
        deep: Bool = false
    ) throws -> DecodedImage {
        if let format = ImageSniffing.cameraRawFormat(data) {
            throw FlipbookError(
                .unsupportedImage,
                "this is a \(format) camera raw file: its photo is sensor data, \(CameraRaw.notDecoded)")
        }
        if data.starts(with: ImageSniffing.pngSignature) {
            // The size is checked from the header before either decoder takes any memory.
            if let size = ImageSniffing.pngSize(data) {
                try limits.check(width: size.width, height: size.height)
                if deep, planes?.accepts(width: size.width, height: size.height) ?? false,
                    let image = try DeflatePNGDecoder.decodeImage(data, limits: limits, deep: true)
                {
                    return image
                }
            }
            return .frame(
                try DeflatePNGDecoder.decode(data, limits: limits)
                    ?? SPNGDecoder.decode(ImageSniffing.pngPixelChunks(data), limits: limits))
        }
        if ImageSniffing.isWebP(data) {
            return try WebPDecoder.decodeImage(data, limits: limits, planes: planes)
        }
        if ImageSniffing.isTIFF(data) {
            return try TIFFDecoder.decodeImage(data, limits: limits, deep: deep ? planes : nil)
        }
        if let format = ImageSniffing.heifFormat(data) {
            return try HEIFDecoder.decodeImage(data, limits: limits, format: format, deep: deep ? planes : nil)
        }
        if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            let layout = data.withUnsafeBytes { ImageSniffing.jpegLayout($0) }
            if layout?.manyScans ?? true {
                let scans = data.withUnsafeBytes { ImageSniffing.jpegScanCount($0, from: layout?.firstScan ?? 0) }
                guard scans <= limits.maxJPEGScans else {
                    throw FlipbookError(
                        .unsupportedImage,
                        "the JPEG has \(scans) scans, more than the limit of \(limits.maxJPEGScans); "
                            + "such a file takes minutes to decode (re-save it as a baseline JPEG)")
                }
            }
            let orientation = data.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) }
            let image = try TurboJPEGDecoder.decodeImage(
                data, limits: limits, sizeHint: sizeHint, swapsSides: (orientation ?? 1) >= 5, planes: planes)
            switch image {
            case .frame(let frame): return .frame(try orientation.map { try frame.oriented($0) } ?? frame)
            case .planes(let stored): return .planes(orientation.map { stored.oriented($0) } ?? stored)
            case .deep: preconditionFailure("TurboJPEG hands out 8-bit pictures only")
            }
        }
        if data.isEmpty {
            throw FlipbookError(
                .corruptImage, "the file is empty; expected a PNG, JPEG, WebP, TIFF, HEIC or AVIF image")
        }
        if let format = ImageSniffing.otherFormat(data) {
            throw FlipbookError(
                .unsupportedImage,
                "this is a \(format) file, not a PNG, JPEG, WebP, TIFF, HEIC or AVIF image; convert it to PNG (for example with ffmpeg)"
            )
        }
        throw FlipbookError(
            .unsupportedImage,
            "not a PNG, JPEG, WebP, TIFF, HEIC or AVIF image (the file does not start with any of their signatures)")
    }

    /// Reads and decodes the image file at `url`, at a smaller scale where `sizeHint` allows (see
    /// ``decode(_:limits:sizeHint:)``).
    package static func decodeFile(at url: URL, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil) throws -> Frame {
        guard case .frame(let frame) = try decodeImageFile(at: url, limits: limits, sizeHint: sizeHint) else {
            preconditionFailure("planes decoded although none were asked for")
        }
        return frame
    }

    /// The bytes of the image file at `url`, read as ``decodeImageFile(at:limits:sizeHint:planes:deep:)``
    /// reads them (a regular file only, opened without blocking).
    package static func readFile(at url: URL) throws -> Data {
        try POSIXFile.readImageFile(at: url.path)
    }

    /// Reads and decodes the image file at `url`, to Y'CbCr planes where `planes` allows, at 16 bits
    /// where `deep` allows (see ``decodeImage(_:limits:sizeHint:planes:deep:)``).
    package static func decodeImageFile(
        at url: URL, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, planes: PlanarRequest? = nil,
        deep: Bool = false
    ) throws -> DecodedImage {
        let data = try readFile(at: url)
        return try FrameOrigin(path: url.imageDescription).attributing {
            if let page = url.imagePage {
                guard ImageSniffing.isTIFF(data) else {
                    throw FlipbookError(.unsupportedImage, "only a TIFF has pages, and this file is not one")
                }
                return try TIFFDecoder.decodeImage(data, limits: limits, page: page - 1, deep: deep ? planes : nil)
            }
            return try decodeImage(data, limits: limits, sizeHint: sizeHint, planes: planes, deep: deep)
        }
    }

    /// A short reason for a Foundation file error, without Foundation's long wrapper text.
    static func reason(for error: Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return POSIXFile.describe(errno: Int32(posix.code))
        }
        switch CocoaError.Code(rawValue: nsError.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        default: return nsError.localizedDescription
        }
    }
}
