/// What a decoder is asked for, in one value: the limits an image must keep, the size and fit it
/// will be drawn at, whether it may come as Y'CbCr planes, whether at 16 bits, and which page.
///
/// Every decode goes through ``ImageDecoder/decodeImage(_:_:)`` with one of these, so a 10-bit movie's
/// images are decoded deep whichever way they were handed over (a list, `--follow`, or
/// ``MovieWriter/append(imageAt:at:duration:)``).
package struct DecodeRequest: Sendable, Hashable {
    /// Size and complexity limits checked before any pixel memory is taken.
    package var limits: ImageLimits
    /// The size and fit the image will be drawn at, if known: a JPEG drawn smaller is decoded at a smaller scale.
    package var sizeHint: DecodeSizeHint?
    /// Whether and at which sizes the image may come as Y'CbCr planes; `nil` for RGB only.
    package var planes: PlanarRequest?
    /// Whether a 16-bit or 10/12-bit image that `planes` accepts by size comes at its depth (a 10-bit movie).
    package var deep: Bool
    /// Whether a deep image with alpha comes at its depth with its alpha (a movie that keeps alpha);
    /// otherwise such an image comes at 8 bits, to be composited.
    package var deepAlpha = false
    /// The TIFF page, counted from 0; `nil` for the first page of any format.
    package var page: Int?
    /// The layer or part of a multi-layer image (OpenEXR) to read; `nil` for its default picture.
    package var layer: String?
    /// The colour a picture with associated alpha (OpenEXR) is composited over in linear light, when the
    /// movie keeps no alpha; `nil` to keep its alpha (straight) for the movie or the caller.
    package var background: RGBColour?
    /// Whether a JPEG's or lossy WebP's stored Y'CbCr planes may be handed over when `planes` accepts
    /// them (the movie's pictures are 4:2:0); otherwise those come as RGB. Deep images go by `planes` alone.
    package var storedPlanes = true
    /// How the movie manages colour, so that an image to be converted comes as RGB (not planes) and a
    /// CMYK JPEG with a profile as CMYK; `nil` (a decode outside a movie) for values as they are.
    package var colour: ColourSettings?
    /// How a camera raw file is developed: its white balance, or its embedded preview instead.
    package var raw = RawDevelopment()
    /// Whether a CMYK JPEG comes as its CMYK samples (``SourceColour/pixelsAreCMYK``), set by
    /// ``ImageFormat`` when its profile will convert them.
    package var keepsCMYK = false

    /// A request.
    package init(
        limits: ImageLimits = ImageLimits(), sizeHint: DecodeSizeHint? = nil, planes: PlanarRequest? = nil,
        deep: Bool = false, page: Int? = nil
    ) {
        self.limits = limits
        self.sizeHint = sizeHint
        self.planes = planes
        self.deep = deep
        self.page = page
    }

    /// The request for an image of a movie of `settings` (its size known): scaled and as planes
    /// where the movie's size and fit allow, deep for a 10-bit movie.
    ///
    /// Stored Y'CbCr planes (JPEG, lossy WebP) are converted to 4:2:0 only, so a movie whose encoder
    /// takes another ``PictureFormat`` asks for RGB.
    package static func frame(of settings: VideoSettings, limits: ImageLimits) -> DecodeRequest {
        let hint = DecodeSizeHint(width: settings.width, height: settings.height, fit: settings.fit)
        var request = DecodeRequest(
            limits: limits, sizeHint: hint, planes: .fitting(hint), deep: settings.pictureFormat.bitDepth == 10)
        request.storedPlanes = takesPlanes(settings)
        request.deepAlpha = settings.keepsAlpha
        request.colour = ColourSettings(settings)
        request.layer = settings.layer
        request.raw = RawDevelopment(whiteBalance: settings.whiteBalance, usesPreview: settings.rawPreview)
        request.background = settings.keepsAlpha ? nil : settings.background
        return request
    }

    /// Whether pictures of the movie can be made from stored 4:2:0 planes.
    private static func takesPlanes(_ settings: VideoSettings) -> Bool {
        settings.pictureFormat.isYUV420WithoutAlpha
    }

    /// The request for the first image of a movie of `settings` and `size`, which the image gives
    /// when `size` is `nil`: planes of any even size then.
    package static func firstImage(size: FrameSize?, of settings: VideoSettings, limits: ImageLimits) -> DecodeRequest {
        guard let size else {
            var request = DecodeRequest(
                limits: limits, planes: .anyEvenSize, deep: settings.pictureFormat.bitDepth == 10)
            request.storedPlanes = takesPlanes(settings)
            request.deepAlpha = settings.keepsAlpha
            request.colour = ColourSettings(settings)
            request.layer = settings.layer
            request.raw = RawDevelopment(whiteBalance: settings.whiteBalance, usesPreview: settings.rawPreview)
            request.background = settings.keepsAlpha ? nil : settings.background
            return request
        }
        var sized = settings
        sized.size = size
        return frame(of: sized, limits: limits)
    }

    /// `image` as the request takes it: at its depth when it asks for 16 bits at this size (with alpha only
    /// when it keeps alpha), otherwise as an 8-bit frame.
    func delivering(_ image: DeepImage) throws -> DecodedImage {
        let keepsDepth =
            deep && (planes?.accepts(width: image.width, height: image.height) ?? false)
            && (!image.hasAlpha || deepAlpha)
        return keepsDepth ? .deep(image) : .frame(try image.eightBit())
    }

    /// The same request for another page.
    func onPage(_ page: Int?) -> DecodeRequest {
        var request = self
        request.page = page
        return request
    }
}
