/// An image as a decoder hands it over: RGB(A) pixels, or a JPEG's own Y'CbCr planes when the caller
/// allowed them (see ``PlanarRequest``).
package enum DecodedImage: Sendable {
    case frame(Frame)
    case planes(YCbCrPlanes)
    case deep(DeepImage)

    /// Width as shown (after EXIF orientation).
    package var width: Int {
        switch self {
        case .frame(let frame): frame.width
        case .planes(let planes): planes.width
        case .deep(let image): image.width
        }
    }

    /// Height as shown (after EXIF orientation).
    package var height: Int {
        switch self {
        case .frame(let frame): frame.height
        case .planes(let planes): planes.height
        case .deep(let image): image.height
        }
    }
}

/// When a JPEG may be handed over as its Y'CbCr planes instead of RGB (JPEGs have no alpha to
/// composite): when its upright size is the movie's, or, for ``fitting(_:)``, when it fills the whole
/// picture once fitted (covered, stretched, or contained without bands), so that the preparer can
/// resample the planes themselves. Images placed on bands of background are decoded to RGB.
package enum PlanarRequest: Sendable, Hashable {
    /// The movie's size is known: planes only for an image of exactly that size.
    case size(FrameSize)
    /// The movie's size and fit are known: planes for an image of that size, and (JPEG only) for an
    /// image of even sides that fills the picture when fitted.
    case fitting(DecodeSizeHint)
    /// The movie takes the image's size (the first image, no size given): planes for any even size.
    case anyEvenSize

    /// Whether an image `width x height` as shown may come as planes of the movie's size.
    func accepts(width: Int, height: Int) -> Bool {
        switch self {
        case .size(let size): width == size.width && height == size.height
        case .fitting(let hint): width == hint.width && height == hint.height
        case .anyEvenSize: width % 2 == 0 && height % 2 == 0
        }
    }

    /// Whether a JPEG of `width x height` as shown (after any scaling while decoding) may come as
    /// planes that the preparer converts and fits to the movie (``YCbCrPlanes/fitted(to:converter:)``).
    func acceptsFitted(width: Int, height: Int) -> Bool {
        guard case .fitting(let hint) = self, width % 2 == 0, height % 2 == 0 else {
            return accepts(width: width, height: height)
        }
        let placement = FitPlacement(
            sourceWidth: width, sourceHeight: height, width: hint.width, height: hint.height, fit: hint.fit)
        return placement.destination == PixelRect(x: 0, y: 0, width: hint.width, height: hint.height)
    }
}
