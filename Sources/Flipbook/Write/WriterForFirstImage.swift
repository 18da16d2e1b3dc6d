extension MovieWriter {
    /// The writer for an image sequence whose first image is `frame`: the movie is `size`, or the
    /// image's size (rounded up to even sides but for GIF and WebP), in the codec `settings` name, with `soundtrack` under it and `metadata`
    /// in it. Also returns the image's own size when it was rounded, for the summary to say so.
    static func forFirstImage(
        _ frame: DecodedImage, size: FrameSize?, settings: VideoSettings, destination: MovieDestination,
        imageLimits: ImageLimits, soundtrack: Soundtrack? = nil, metadata: MovieMetadata
    ) throws -> (MovieWriter, FrameSize?) {
        var movieSettings = settings
        let imageSize = FrameSize(width: frame.width, height: frame.height)
        // An animated image (GIF, WebP) has no chroma subsampling: it keeps the image's own size.
        let movieSize = size ?? (settings.codec.isAnimatedImage ? imageSize : imageSize.roundedUpToEven)
        movieSettings.width = movieSize.width
        movieSettings.height = movieSize.height
        let writer = try MovieWriter(
            destination: destination, settings: movieSettings, imageLimits: imageLimits, soundtrack: soundtrack,
            metadata: metadata, makeEncoder: VideoEncoders.make)
        return (writer, size == nil && movieSize != imageSize ? imageSize : nil)
    }
}
