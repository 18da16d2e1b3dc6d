import Foundation

/// Reads an image file and decodes it, choosing the format's decoder (see ``ImageFormats``) from
/// the file's first bytes.
package enum ImageDecoder {
    /// Decodes an image of any format in ``ImageFormat/all`` to RGBA.
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

    /// Decodes an image of any format in ``ImageFormat/all`` as ``decodeImage(_:_:)`` does, from loose arguments.
    package static func decodeImage(
        _ data: Data, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, planes: PlanarRequest? = nil,
        deep: Bool = false
    ) throws -> DecodedImage {
        try decodeImage(data, DecodeRequest(limits: limits, sizeHint: sizeHint, planes: planes, deep: deep))
    }

    /// Decodes an image of any format in ``ImageFormat/all``, recognised by its first bytes, as
    /// `request` asks: to Y'CbCr planes as stored (turned upright) where `request.planes` accepts the
    /// upright size of a Y'CbCr JPEG or of an opaque lossy WebP, which the preparer converts to the
    /// movie's YUV without going through RGB; with `request.deep` (a 10-bit movie), a 16-bit grey or
    /// RGB PNG or TIFF, or a 10- or 12-bit HEIC or AVIF (no alpha), that `request.planes` accepts by
    /// size comes as a ``DeepImage`` at its depth.
    ///
    /// - Throws: ``FlipbookError`` with `.unsupportedImage` for other formats (naming a well-known
    ///   one), `.corruptImage` for damaged data; the caller attributes it to a frame and path.
    package static func decodeImage(_ data: Data, _ request: DecodeRequest) throws -> DecodedImage {
        if let format = ImageFormat.recognising(data) {
            if request.page != nil && !format.hasPages { throw pagesRefused(thisFile: "a \(format.name)") }
            return try format.decodeImage(data, request)
        }
        if request.page != nil { throw pagesRefused(thisFile: "not one") }
        if data.isEmpty {
            throw FlipbookError.imageFileEmpty()
        }
        if let format = ImageSniffing.otherFormat(data) {
            throw FlipbookError.imageOfOtherFormat(format)
        }
        throw FlipbookError.imageUnrecognised()
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

    /// The error for a page asked of a file of a format without pages: "only a TIFF has pages, and
    /// this file is `what`".
    private static func pagesRefused(thisFile what: String) -> FlipbookError {
        let paged = ImageFormat.all.filter(\.hasPages).map(\.name).joined(separator: " or ")
        return FlipbookError.imageHasNoPages(paged: paged, thisFile: what)
    }

    /// Reads and decodes the image file at `url` as ``decodeImageFile(at:_:)`` does, from loose arguments.
    package static func decodeImageFile(
        at url: URL, limits: ImageLimits, sizeHint: DecodeSizeHint? = nil, planes: PlanarRequest? = nil,
        deep: Bool = false
    ) throws -> DecodedImage {
        try decodeImageFile(at: url, DecodeRequest(limits: limits, sizeHint: sizeHint, planes: planes, deep: deep))
    }

    /// Reads and decodes the image file at `url` as ``decodeImageFile(_:_:)`` does: a `page=N` or
    /// `frame=N` fragment names a page or frame of it.
    package static func decodeImageFile(at url: URL, _ request: DecodeRequest) throws -> DecodedImage {
        try decodeImageFile(ImageReference(url), request)
    }

    /// Reads and decodes `image` (a TIFF's page, or an animation's frame, where it names one) as
    /// `request` asks (see ``decodeImage(_:_:)``), attributing a failure to the image.
    package static func decodeImageFile(_ image: ImageReference, _ request: DecodeRequest) throws -> DecodedImage {
        if let frame = image.frame {
            return try FrameOrigin(image: image).attributing {
                .frame(try AnimationFrames.decodeFrame(frame, at: image.file, limits: request.limits))
            }
        }
        let data = try readFile(at: image.file)
        let decoded = try FrameOrigin(image: image).attributing {
            try decodeImage(data, request.onPage(image.page.map { $0 - 1 } ?? request.page))
        }
        var colour = decoded.sourceColour
        colour.imageName = image.description
        return decoded.withSourceColour(colour)
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
