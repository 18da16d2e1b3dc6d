extension YCbCrPlanes {
    /// A JPEG's or WebP's planes, decoded at a size that fills the movie's picture once fitted
    /// (``PlanarRequest/acceptsFitted(width:height:)``), as the movie's picture: the placement and
    /// filters an RGB image gets from ``FrameConformer`` (area when shrinking, Catmull-Rom when
    /// enlarging), applied to planes.
    ///
    /// Luma is converted to the movie's matrix at the planes' own size, where it is made from chroma
    /// interpolated at every decoded pixel, then resampled from the placement's source rectangle as
    /// the RGB path does. Chroma is resampled straight from the stored chroma planes to the picture's
    /// (each stored sample covers the pixels it was made from, so the same rectangle in chroma units,
    /// ends that may fall between two samples; each output sample covers 2x2 pixels), one filter from
    /// the stored samples to the output, then converted (a chroma output depends on Cb and Cr only).
    func fitted(to hint: DecodeSizeHint, converter: JPEGToYUVConverter) -> YUVPicture {
        let placement = FitPlacement(
            sourceWidth: width, sourceHeight: height, width: hint.width, height: hint.height, fit: hint.fit)
        precondition(
            placement.destination == PixelRect(x: 0, y: 0, width: hint.width, height: hint.height),
            "planes \(width)x\(height) placed at \(placement.destination), not over the whole picture")
        let source = placement.source
        let luma = PixelKernels.resample(
            converter.luma(of: self), region: source, bytesPerRow: width, layout: .gray,
            columns: ResamplingTaps(from: source.width, to: hint.width),
            rows: ResamplingTaps(from: source.height, to: hint.height))
        // Luma positions to chroma positions along each side.
        let across = Double(chromaWidth) / Double(width)
        let down = Double(chromaHeight) / Double(height)
        let columns = ResamplingTaps(
            from: chromaWidth, window: Double(source.x) * across..<Double(source.x + source.width) * across,
            to: hint.width / 2)
        let rows = ResamplingTaps(
            from: chromaHeight, window: Double(source.y) * down..<Double(source.y + source.height) * down,
            to: hint.height / 2)
        let whole = PixelRect(x: 0, y: 0, width: chromaWidth, height: chromaHeight)
        func resampled(_ plane: [UInt8]) -> [UInt8] {
            PixelKernels.resample(
                plane, region: whole, bytesPerRow: chromaWidth, layout: .gray, columns: columns, rows: rows)
        }
        // The chroma kernel reads luma for nothing (Cb and Cr out do not depend on it): the fitted luma.
        let chroma = converter.chroma(
            of: YCbCrPlanes(
                width: hint.width, height: hint.height, chromaFullWidth: false, chromaFullHeight: false,
                limitedRange: limitedRange, luma: luma, cb: resampled(cb), cr: resampled(cr)))
        return YUVPicture(width: hint.width, height: hint.height, luma: luma, cb: chroma.cb, cr: chroma.cr)
    }
}
