/// Whether the colours images state (ICC profiles, PNG colour chunks, HEIF `nclx`) are applied.
public enum ColourManagement: String, Sendable, Hashable, CaseIterable {
    /// Every image is converted from the space its file states into the movie's (the default).
    case on
    /// Every image's values are taken as they are, as if they were in the movie's space (Flipbook
    /// before colour management, and ffmpeg).
    case off
}

/// How colours a movie's space cannot show are brought into it, as ICC.1 defines the intents.
///
/// Matrix-and-curve profiles (almost every RGB profile: sRGB, Display P3, Adobe RGB) have no
/// perceptual tables, so for them perceptual and saturation are relative colorimetric; lookup-table
/// profiles (CMYK press profiles, some camera profiles) differ. Black-point compensation is applied
/// with every intent but absolute colorimetric.
public enum RenderingIntent: String, Sendable, Hashable, CaseIterable {
    /// The source's white becomes the movie's white, colours inside both gamuts are kept, others are
    /// clipped to the nearest the movie shows (the default, as browsers convert photos).
    case relativeColorimetric = "relative"
    /// The whole source gamut is compressed into the movie's, as the profile's perceptual tables say.
    case perceptual
    /// Saturated colours stay saturated, as the profile's saturation tables say.
    case saturation
    /// Colours are kept as measured, white included (a paper's white stays tinted).
    case absoluteColorimetric = "absolute"
}

/// The colour space pixels handed over in memory are in (``Frame/colourSpace``).
public enum FrameColourSpace: String, Sendable, Hashable, CaseIterable {
    /// sRGB (IEC 61966-2-1): what pixels are taken to be unless said otherwise.
    case sRGB = "srgb"
    /// Display P3: the P3 primaries with a D65 white and sRGB's curve, as Apple's devices and most
    /// recent phones capture and show.
    case displayP3 = "display-p3"
    /// sRGB's primaries with linear values (no curve), as renderers compute light.
    case linearSRGB = "linear-srgb"
}
