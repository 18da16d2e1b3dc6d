/// Image files whose data is damaged or cut short, format by format, and decoders that could not be set
/// up. One wording each; each keeps where it was raised (``FlipbookError/origin``) and, from a library,
/// its cause.
extension FlipbookError {
    /// An image of `format` (`"PNG"`, `"TIFF"`) that cannot be decoded, for `reason` (often the library's
    /// own words).
    ///
    /// - Parameter code: `.corruptImage`, or `.unsupportedImage` when the reason is a size the library refuses.
    static func imageUndecodable(
        _ format: String, _ reason: String, code: Code = .corruptImage, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            code, "the \(format) cannot be decoded: \(reason)", underlying: cause, fileID: fileID, line: line)
    }

    /// An image of `format` that ends before its data does.
    static func imageTruncated(
        _ format: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(format, "the file is truncated", cause: cause, fileID: fileID, line: line)
    }

    /// An image of `format` whose compressed picture data the library could not decode.
    static func imageDataDamaged(
        _ format: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(format, "its image data is damaged or truncated", cause: cause, fileID: fileID, line: line)
    }

    /// An image of `format` whose header or data the library refused without saying which.
    static func imageHeaderOrDataDamaged(
        _ format: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(format, "its header or data is damaged", cause: cause, fileID: fileID, line: line)
    }

    /// An image file whose container (the chunks around the pictures) cannot be read.
    static func imageContainerDamaged(
        _ format: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "the \(format) cannot be read: its container is damaged or the file is truncated",
            underlying: cause, fileID: fileID, line: line)
    }

    /// The decoding `library` could not create `what` it decodes with (`"a decoder"`).
    ///
    /// - Parameter code: `.corruptImage`; libheif's failure has always been `.unsupportedImage`.
    static func imageDecoderNotCreated(
        by library: String, _ what: String, code: Code = .corruptImage, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(code, "\(library) could not create \(what)", underlying: cause, fileID: fileID, line: line)
    }

    /// An animation (`"GIF"`, `"APNG"`) that ends before frame `frame` (counted from 1) of `total`.
    static func animationEndsEarly(
        _ format: String, beforeFrame frame: Int, of total: Int? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "the \(format) ends before frame \(frame)" + (total.map { " of \($0)" } ?? ""),
            fileID: fileID, line: line)
    }

    /// Frame `frame` (counted from 1) of an animation (`"GIF"`, `"animated WebP"`) cannot be decoded, for
    /// `reason`.
    static func animationFrameUndecodable(
        _ frame: Int, of format: String, _ reason: String, cause: (any Error)? = nil, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "frame \(frame) of the \(format) cannot be decoded: \(reason)", underlying: cause,
            fileID: fileID, line: line)
    }

    /// Frame `frame` (counted from 1) of a GIF has neither its own colour table nor a global one.
    static func gifFrameHasNoColourTable(_ frame: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .corruptImage, "frame \(frame) of the GIF has no colour table (neither its own nor a global one)",
            fileID: fileID, line: line)
    }

    /// A GIF that ends inside its header.
    static func gifHeaderTruncated(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.corruptImage, "the GIF is truncated inside its header", fileID: fileID, line: line)
    }

    /// A GIF without one whole image in it.
    static func gifHasNoWholeImage(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .corruptImage, "the GIF has no whole image (the file is truncated or damaged)", fileID: fileID, line: line)
    }

    /// An APNG whose `acTL` chunk cannot be read.
    static func apngControlChunkUnreadable(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .corruptImage, "the APNG's animation control chunk cannot be read", fileID: fileID, line: line)
    }

    /// A PNG row whose filter type byte is none of the five.
    static func pngRowFilterUnknown(
        row: Int, filter: UInt8, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable("PNG", "row \(row) has an unknown filter type \(filter)", fileID: fileID, line: line)
    }

    /// A PNG whose image data inflates to fewer bytes than its size needs.
    static func pngDataShort(
        produced: Int, expected: Int, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(
            "PNG", "its image data ends after \(produced) of \(expected) bytes (the file is truncated or damaged)",
            cause: cause, fileID: fileID, line: line)
    }

    /// A PNG whose image data inflates to more bytes than its size needs.
    static func pngDataTooLong(cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line) -> FlipbookError
    {
        imageUndecodable("PNG", "its image data is longer than its size says", cause: cause, fileID: fileID, line: line)
    }

    /// A PNG whose compressed image data does not inflate.
    static func pngDataDamaged(cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line) -> FlipbookError
    {
        imageUndecodable("PNG", "its compressed image data is damaged", cause: cause, fileID: fileID, line: line)
    }

    /// A TIFF without page `page` (counted from 1).
    static func tiffHasNoPage(_ page: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(.corruptImage, "the TIFF has no page \(page)", fileID: fileID, line: line)
    }

    /// A TIFF without its photometric interpretation.
    static func tiffColourUnstated(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        imageUndecodable("TIFF", "it does not say how its samples are coloured", fileID: fileID, line: line)
    }

    /// A TIFF whose strips or tiles are declared larger than the image.
    static func tiffBlocksTooLarge(tiled: Bool, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        imageUndecodable(
            "TIFF", "its \(tiled ? "tiles" : "strips") are declared larger than the image", fileID: fileID, line: line)
    }

    /// A TIFF whose strip or tile sizes do not add up.
    static func tiffBlockLayoutDamaged(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        imageUndecodable("TIFF", "its strip or tile layout is damaged", fileID: fileID, line: line)
    }

    /// A HEIF-based image that lists item `part` twice among the parts of one image.
    static func heifPartListedTwice(
        _ format: String, part: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(format, "an image lists item \(part) twice as its part", fileID: fileID, line: line)
    }

    /// A HEIF-based image whose item `part` is built, through others, from itself.
    static func heifPartBuiltFromItself(
        _ format: String, part: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        imageUndecodable(format, "item \(part) is built from itself", fileID: fileID, line: line)
    }

    /// A HEIF-based image that libheif decoded to no picture of the asked depth.
    static func heifDecodedToNoPicture(
        _ format: String, deep: Bool, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "the \(format) image decoded to no \(deep ? "deep" : "8-bit") RGB picture", fileID: fileID,
            line: line)
    }

    /// A HEIF-based image that libheif decoded to rows narrower than its width.
    static func heifDecodedNarrow(_ format: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .corruptImage, "the \(format) image decoded to a picture narrower than it says", fileID: fileID, line: line)
    }
}
