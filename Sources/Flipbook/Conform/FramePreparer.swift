/// Turns any decoded frame into the encoder's input: its colour made the movie's (``ColourTransform``),
/// fitted to the movie's size, composited over the background (unless the movie keeps alpha),
/// converted to the encoder's ``PictureFormat``.
///
/// Safe to share: the image-sequence pipeline runs it on several threads at once, ahead of the
/// encoder (the picture pool is the one shared part, and it locks).
package struct FramePreparer: Sendable {
    let conformer: FrameConformer
    let converter: RGBToYUVConverter
    /// Converts JPEGs decoded to their Y'CbCr planes.
    let planarConverter: JPEGToYUVConverter
    /// Pictures back from the encoder, reused by ``prepare(_:)``.
    let pool: PicturePool
    /// Whether the movie is 10-bit, so 16-bit images of its size keep their depth.
    let tenBit: Bool
    /// Makes an image's stated colour the movie's, first of all.
    let colourTransform: ColourTransform
    /// How an HDR movie's pictures are coded; `nil` for a standard-dynamic-range movie.
    let hdr: HDRTransfer?
    /// MaxCLL and MaxFALL of a PQ movie's pictures, as they are prepared.
    let contentLight: ContentLightMeter?

    /// A preparer for a movie of `settings` (size, fit, background, bit depth) converting to `matrix`.
    package init(settings: VideoSettings, matrix: ColourMatrix) {
        tenBit = settings.pictureFormat.bitDepth == 10
        colourTransform = ColourTransform(settings: settings)
        hdr = HDRTransfer(settings.colourStandard, whiteNits: settings.peakLuminance)
        contentLight = hdr.flatMap { $0.curve == .pq ? ContentLightMeter($0) : nil }
        conformer = FrameConformer(settings: settings)
        converter = RGBToYUVConverter(matrix: matrix)
        planarConverter = JPEGToYUVConverter(matrix: matrix)
        // One spare picture for each image prepared ahead, and one more for the picture the encoder holds.
        pool = PicturePool(
            width: settings.width, height: settings.height, format: settings.pictureFormat,
            capacity: settings.imagesDecodedAhead + 1)
    }

    /// The image as the encoder takes it: a frame as `prepare(_: Frame)` prepares it, JPEG planes
    /// converted straight to the movie's YUV (fitted first, as planes, when they are another size
    /// that fills the picture, as ``PlanarRequest`` ensures).
    package func prepare(_ image: DecodedImage) throws -> YUVPicture {
        switch colourTransform.apply(to: image) {
        case .frame(let frame):
            return try prepareInMovieColour(frame)
        case .planes(let planes):
            // DecodeRequest asks for stored planes only for a movie of 4:2:0 pictures without alpha.
            precondition(
                pool.format.isYUV420WithoutAlpha, "stored Y'CbCr planes for a movie of \(pool.format) pictures")
            guard planes.width == conformer.width && planes.height == conformer.height else {
                return planes.fitted(
                    to: DecodeSizeHint(width: conformer.width, height: conformer.height, fit: conformer.fit),
                    converter: planarConverter)
            }
            var picture = pool.take()
            planarConverter.convert(planes, into: &picture)
            return picture
        case .deep(var image):
            // Alpha is kept at its depth only for a movie that keeps it; otherwise it is composited at 8 bits.
            guard tenBit && image.width == conformer.width && image.height == conformer.height,
                !image.hasAlpha || pool.format.hasAlpha
            else {
                var frame = try image.eightBit()
                frame.sourceColour = image.sourceColour
                return try prepareInMovieColour(frame)
            }
            if let hdr {
                if !colourTransform.target.holdsCodedValues(image.sourceColour) { image = hdr.recoded(image) }
                contentLight?.measure(image)
            }
            var planes = PixelKernels.rgb16ToYUVp10(
                image, chroma: pool.format.chroma, coefficients: converter.coefficients)
            if pool.format.hasAlpha && !image.hasAlpha {
                planes.alpha = [UInt16](repeating: 1023, count: image.width * image.height)
            }
            return YUVPicture(width: image.width, height: image.height, format: pool.format, storage: .tenBit(planes))
        }
    }

    /// The frame as the encoder takes it, its colour made the movie's first.
    func prepare(_ frame: Frame) throws -> YUVPicture {
        try prepare(DecodedImage.frame(frame))
    }

    /// A frame whose colour is the movie's, as the encoder takes it.
    private func prepareInMovieColour(_ frame: Frame) throws -> YUVPicture {
        if let hdr {
            // HDR pictures are made at 16 bits from the fitted, composited frame, then coded at 10.
            let coded = colourTransform.target.holdsCodedValues(frame.sourceColour)
            let keepsAlpha = pool.format.hasAlpha
            let conformed = try keepsAlpha ? conformer.conformKeepingAlpha(frame) : conformer.conform(frame)
            let image = hdr.deep(conformed, coded: coded, keepingAlpha: keepsAlpha)
            contentLight?.measure(image)
            var planes = PixelKernels.rgb16ToYUVp10(
                image, chroma: pool.format.chroma, coefficients: converter.coefficients)
            if keepsAlpha && !image.hasAlpha {
                planes.alpha = [UInt16](repeating: 1023, count: image.width * image.height)
            }
            return YUVPicture(width: image.width, height: image.height, format: pool.format, storage: .tenBit(planes))
        }
        var picture = pool.take()
        if picture.format.isPackedRGBA {
            let conformed =
                try picture.format.hasAlpha ? conformer.conformKeepingAlpha(frame) : conformer.conform(frame)
            picture.withRGBA { conformed.copyRGBA(into: &$0) }
            return picture
        }
        if frame.width == conformer.width && frame.height == conformer.height {
            // Most frames of the movie's size have no transparency: converted in one pass over their
            // pixels, which also tells whether any alpha was below 255 (0.7 ms a 1080p RGBA frame).
            // A translucent one is then composited and converted in a second pass (2.2 ms), never
            // through an RGB copy.
            if !converter.convert(frame, into: &picture) {
                converter.convert(frame, over: conformer.background, into: &picture)
            }
            return picture
        }
        let conformed = try picture.format.hasAlpha ? conformer.conformKeepingAlpha(frame) : conformer.conform(frame)
        converter.convert(conformed, into: &picture)
        return picture
    }
}
