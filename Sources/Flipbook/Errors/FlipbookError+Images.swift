/// Image files Flipbook does not decode: empty, of another kind, a camera's sensor data, larger than
/// the limits, or using a feature the decoder lacks. One wording each; each keeps where it was raised
/// (``FlipbookError/origin``) and, from a library, its cause.
extension FlipbookError {
    /// The image file holds no bytes.
    static func imageFileEmpty(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .corruptImage, "the file is empty; expected a \(ImageFormat.nameList) image", fileID: fileID, line: line)
    }

    /// A file whose signature names another kind of file (`format`, such as `"PDF"`).
    static func imageOfOtherFormat(_ format: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "this is a \(format) file, not a \(ImageFormat.nameList) image; convert it to PNG (for example with ffmpeg)",
            fileID: fileID, line: line)
    }

    /// A file that starts with no signature Flipbook knows.
    static func imageUnrecognised(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "not a \(ImageFormat.nameList) image (the file does not start with any of their signatures)",
            fileID: fileID, line: line)
    }

    /// A TIFF-based camera raw file whose only picture is a small preview.
    static func tiffHoldsOnlyPreview(
        width: Int, height: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the TIFF holds only a \(width)x\(height) reduced-resolution preview, as camera raw files (DNG, NEF, "
                + "ARW, PEF) do: the photo itself is sensor data, \(CameraRaw.notDecoded)", fileID: fileID, line: line)
    }

    /// A TIFF whose picture is a camera's sensor data (a colour filter array or linear raw).
    static func tiffHoldsSensorData(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the TIFF holds a camera's sensor data, as camera raw files (DNG, NEF, ARW, SRW) do, "
                + CameraRaw.notDecoded, fileID: fileID, line: line)
    }

    /// A TIFF of floating-point or signed samples.
    static func tiffSampleFormatRefused(
        floatingPoint: Bool, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the TIFF has \(floatingPoint ? "floating-point" : "signed") samples; Flipbook reads "
                + "unsigned 1- to 16-bit TIFFs (convert it, for example with ImageMagick or tiffcp)", fileID: fileID,
            line: line)
    }

    /// A TIFF of more samples a pixel, or more bits a sample, than Flipbook reads.
    static func tiffSampleLayoutRefused(
        samples: Int, bits: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the TIFF has \(samples) samples of \(bits) bits a pixel; Flipbook reads unsigned 1- to 16-bit TIFFs of "
                + "at most 8 samples (convert it, for example with ImageMagick or tiffcp)", fileID: fileID, line: line)
    }

    /// A page was asked of a file whose format has none (`paged` lists the formats that do).
    static func imageHasNoPages(
        paged: String, thisFile what: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage, "only a \(paged) has pages, and this file is \(what)", fileID: fileID, line: line)
    }

    /// A frame other than the first was asked of a still image.
    static func imageNotAnimated(askedFrame frame: Int, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage, "the file is not an animation, so it has no frame \(frame)", fileID: fileID, line: line)
    }

    /// An animated WebP given as bytes, whose frames are read only from a file.
    static func animatedWebPNotFromBytes(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "this is an animated WebP, whose frames are read from a file in a list of images (or "
                + "MovieWriter.append(imageAt:)), not from bytes on their own", fileID: fileID, line: line)
    }

    /// An image that declares a width or height of 0.
    static func imageSizeEmpty(
        width: Int, height: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .corruptImage, "the image declares an empty size \(width)x\(height)", fileID: fileID, line: line)
    }

    /// An image over ``ImageLimits``' side or pixel limit.
    static func imageTooLarge(
        width: Int, height: Int, maxDimension: Int, maxPixels: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the image is \(width)x\(height) pixels, over the limit of \(maxDimension) a side and "
                + "\(maxPixels) pixels in all; shrink it, or raise the limits (ImageLimits; the tool's "
                + "--max-image-side and --max-image-pixels) if such images are expected", fileID: fileID, line: line)
    }

    /// An animation whose frames together are over ``ImageLimits/maxAnimationPixels``.
    static func animationTooLarge(
        _ format: String, frames: Int, width: Int, height: Int, maxPixels: Int, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the \(format) has \(frames) frames of \(width)x\(height), over the limit of "
                + "\(maxPixels) pixels in all frames together; shorten it, or raise the limit "
                + "(ImageLimits.maxAnimationPixels) if such animations are expected", fileID: fileID, line: line)
    }

    /// A progressive JPEG of more scans than ``ImageLimits/maxJPEGScans``.
    static func jpegHasTooManyScans(
        _ scans: Int, limit: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the JPEG has \(scans) scans, more than the limit of \(limit); "
                + "such a file takes minutes to decode (re-save it as a baseline JPEG)", fileID: fileID, line: line)
    }

    /// A HEIF-based image built from more other images than Flipbook follows.
    static func heifHasTooManyReferences(
        _ format: String, count: Int, limit: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the \(format) builds one image from \(count) others, more than the \(limit) Flipbook reads",
            fileID: fileID, line: line)
    }

    /// A HEIF-based image whose metadata box is larger than Flipbook reads.
    static func heifMetadataTooLarge(
        _ format: String, bytes size: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage, "the \(format)'s metadata box is \(size) bytes, more than Flipbook reads",
            fileID: fileID,
            line: line)
    }

    /// An image the decoding library ran out of memory for.
    static func imageTooLargeToDecode(
        _ format: String, detail: String, cause: (any Error)? = nil, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage, "the \(format) image is too large to decode (\(detail))", underlying: cause,
            fileID: fileID, line: line)
    }

    /// An image using a feature (a compression, a kind of file) its `library` does not decode.
    static func imageFeatureNotDecoded(
        _ format: String, by library: String, detail: String? = nil, cause: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the \(format) uses a feature \(library) does not decode" + (detail.map { " (\($0))" } ?? ""),
            underlying: cause, fileID: fileID, line: line)
    }

    /// An OpenEXR file whose first part holds deep data (several samples a pixel).
    static func exrIsDeep(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the OpenEXR holds deep data (several samples a pixel); Flipbook reads flat scanline and tiled images "
                + "(flatten it first, for example in Nuke or with OpenImageIO's oiiotool --flatten)", fileID: fileID,
            line: line)
    }

    /// An OpenEXR file with neither R, G and B channels nor a Y channel; `channels` are those it has.
    static func exrHasNoPictureChannels(
        _ channels: [String], fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .unsupportedImage,
            "the OpenEXR has no R, G and B channels and no Y channel to show (it has "
                + (channels.isEmpty ? "none" : channels.joined(separator: ", ")) + ")", fileID: fileID, line: line)
    }

    /// An OpenEXR file without the layer or part `layer`; `layers` are the pictures it has.
    static func exrHasNoLayer(
        _ layer: String, layers: [String], fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        var seen = Set<String>()
        let names = layers.filter { seen.insert($0).inserted }
        return Self(
            .unsupportedImage,
            "the OpenEXR has no layer or part named \(layer); its pictures are "
                + (names.isEmpty ? "none" : names.joined(separator: ", ")), fileID: fileID, line: line)
    }

}
