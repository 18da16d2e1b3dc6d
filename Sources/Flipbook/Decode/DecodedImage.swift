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

/// When a JPEG may be handed over as its Y'CbCr planes instead of RGB: only when it needs no
/// fitting, that is when its upright size is the movie's (JPEGs have no alpha to composite). Images
/// that are scaled, cropped or letterboxed are decoded to RGB.
package enum PlanarRequest: Sendable, Hashable {
    /// The movie's size is known: planes only for an image of exactly that size.
    case size(FrameSize)
    /// The movie takes the image's size (the first image, no size given): planes for any even size.
    case anyEvenSize

    /// Whether an image `width x height` as shown may come as planes.
    func accepts(width: Int, height: Int) -> Bool {
        switch self {
        case .size(let size): width == size.width && height == size.height
        case .anyEvenSize: width % 2 == 0 && height % 2 == 0
        }
    }
}
