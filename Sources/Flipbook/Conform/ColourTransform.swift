/// The one place an image's colour is made the movie's: from what its file states (``SourceColour``)
/// to the movie's primaries and transfer, before the conversion to Y'CbCr.
///
/// Today it is the identity for every image: Flipbook takes every image as sRGB, which is what the
/// movie is tagged as (BT.709 primaries; the conversion then applies ``ColourMatrix``), and a first
/// image in another space gets a warning saying so (``ColourProfile/warning(for:of:)``). Converting
/// between spaces is this type's to do, so nothing else in the preparation changes when it does.
struct ColourTransform: Sendable {
    /// `image` in the movie's colour: as it is, for now (see the type's note).
    @inline(__always)
    func apply(to image: DecodedImage) -> DecodedImage { image }
}
