import Foundation

/// The work behind ``MovieWriter/makeMovie(fromImageData:to:options:)``: the job of a listed
/// sequence (``ImageSequenceJob``) with images that arrive from a sequence of their bytes.
///
/// The first usable image is decoded to learn the movie's size; then the ordered decode pipeline
/// (``OrderedDecoding``, with ``ImageDataArrivals``) prepares those read ahead a few at a time, and
/// each is appended in order through the writer's one way in. Frame numbers are the sequence's order.
struct ImageDataJob {
    let destination: MovieDestination
    let settings: VideoSettings
    /// The movie's size; `nil` means the first image's, odd sides rounded up.
    let size: FrameSize?
    /// Encoded frames per image.
    let copies: Int
    let imageLimits: ImageLimits
    /// Whether images that cannot be decoded are left out (see ``SkippedImages``).
    let skipInvalidImages: Bool
    /// The tags written into the movie.
    let metadata: MovieMetadata
    let progress: (@Sendable (SequenceProgress) -> Void)?

    func run(_ arrivals: inout ImageDataArrivals) async throws -> MovieSummary {
        let started = Date()
        var skipping = SkippedImages(enabled: skipInvalidImages)
        let first = try await firstUsableImage(&arrivals, skipping: &skipping)
        let (writer, roundedFrom) = try MovieWriter.forFirstImage(
            first.image, size: size, settings: settings, destination: destination, imageLimits: imageLimits,
            metadata: metadata)
        do {
            // The movie's size is known from here on, given or taken from the first image.
            let request = DecodeRequest.frame(of: writer.settings, limits: imageLimits)
            let pipeline = OrderedDecoding<ImageDataArrivals>(
                lookahead: settings.imagesDecodedAhead, preparer: writer.preparer,
                decode: { data in try Self.decode(data, request) })
            var images = first.position + 1
            try await pipeline.run(
                &arrivals, first: first, waiting: {},
                take: { index, _, picture in
                    images = index + 1
                    let origin = FrameOrigin(index: index)
                    let picture = picture.mapError { origin.attribute(any: $0) }
                    if case .failure(let error as FlipbookError) = picture, skipping.maySkip(error) {
                        skipping.skip(error)
                    } else {
                        let start = skipping.startTime(
                            ofImage: index, firstImage: 0, copies: copies, rate: settings.frameRate)
                        for copy in 0..<copies {
                            try await writer.append(
                                prepared: picture, at: copy == 0 ? start : nil, duration: nil, origin: origin)
                        }
                        skipping.wrote()
                    }
                    progress?(
                        SequenceProgress(
                            framesDone: index + 1, totalFrames: index + 1,
                            elapsedSeconds: Date().timeIntervalSince(started)))
                })
            if !skipping.errors.isEmpty {
                // The last frame written lasts until the sequence ends: images skipped after it give it their time.
                try await writer.extendLastFrame(until: MediaTime(frame: images * copies, at: settings.frameRate))
            }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            summary.skippedImages = skipping.errors
            if settings.colourManagement == .off,
                let colours = ColourProfile.warning(for: first.image.sourceColour, of: "frame \(first.position)")
            {
                summary.warnings.append(colours)
            }
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }

    /// The first image that decodes, with its position in the sequence; with skipping on, invalid
    /// ones before it are recorded and passed over.
    private func firstUsableImage(_ arrivals: inout ImageDataArrivals, skipping: inout SkippedImages) async throws
        -> (position: Int, item: Data, image: DecodedImage)
    {
        let request = DecodeRequest.firstImage(size: size, of: settings, limits: imageLimits)
        var position = 0
        while let data = try await arrivals.waitForNext() {
            do {
                let image = try FrameOrigin(index: position).attributing { try Self.decode(data, request) }
                return (position, data, image)
            } catch let error as FlipbookError where skipping.maySkip(error) {
                skipping.skip(error)
                position += 1
            }
        }
        guard position > 0 else {
            throw FlipbookError(.invalidSettings, "the input held no image; a movie needs at least one frame")
        }
        throw skipping.nothingLeft(of: position)
    }

    /// Decodes one image's bytes as `request` asks, as a file's are decoded; when that fails and the
    /// image's structure stops before its end (the last image of a stream cut short), the error says so.
    static func decode(_ data: Data, _ request: DecodeRequest) throws -> DecodedImage {
        do {
            return try ImageDecoder.decodeImage(data, request)
        } catch let error as FlipbookError {
            guard let reason = data.withUnsafeBytes(ImageStreamSplitting.cutShort) else { throw error }
            throw FlipbookError(.corruptImage, reason, underlying: error)
        }
    }
}

extension MovieWriter {
    /// Makes a movie from whole image files' bytes (PNG, JPEG, WebP, TIFF, HEIC, AVIF), one image
    /// per element, in the order the sequence gives them: images in memory, or read from a pipe with
    /// ``ImageStream``.
    ///
    /// Images are read a few ahead and decoded on several threads ahead of the encoder (a bounded
    /// number at a time, so memory does not grow with the number of images), as
    /// ``makeMovie(fromImagesAt:to:options:)`` decodes files; the same bytes from files give the same movie.
    ///
    /// ```swift
    /// let movie = try await MovieWriter.makeMovie(
    ///     fromImageData: ImageStream(reading: .standardInput), to: URL(filePath: "movie.mp4"),
    ///     options: SequenceOptions(settings: VideoSettings(frameRate: FrameRate(24))))
    /// ```
    ///
    /// - Parameters:
    ///   - images: Each element one whole image file's bytes, in presentation order; image `i` is frame `i`.
    ///   - url: The movie's destination; its extension chooses the container (see ``MovieContainer``).
    ///   - options: The movie's settings (its size, or none to take the first image's) and how the
    ///     images become frames (``SequenceOptions/imageDuration``, ``SequenceOptions/repeatFrames``,
    ///     ``SequenceOptions/imageLimits``, ``SequenceOptions/skipInvalidImages``,
    ///     ``SequenceOptions/metadata``, ``SequenceOptions/progress``). A segment, a soundtrack and two
    ///     passes need images that can be counted or read again, and are refused here.
    /// - Returns: What was written.
    /// - Throws: ``FlipbookError`` naming the frame index at fault: decoding errors as for files
    ///   (an image cut short is `.corruptImage`), `.invalidSettings` when the sequence holds no image,
    ///   and whatever the sequence throws (``ImageStream``'s errors name the byte offset); nothing is
    ///   left at `url` then. An image that cannot be decoded is left out with
    ///   ``SequenceOptions/skipInvalidImages``, by the same rule as for files.
    public static func makeMovie<Images: AsyncSequence & Sendable>(
        fromImageData images: Images, to url: URL, options: SequenceOptions
    ) async throws -> MovieSummary where Images.Element == Data {
        for (given, what) in [
            (options.segment != nil, "a segment"), (options.soundtrack != nil, "a soundtrack"),
            (options.settings.rateControl.passes == 2 && options.settings.pass == nil, "two passes"),
        ] where given {
            throw FlipbookError(
                .invalidSettings,
                "images from a sequence of their bytes are read once and not counted ahead, so they cannot have "
                    + "\(what); give them as files")
        }
        try options.metadata.validate()
        // Before any work, so an existing movie is reported at once.
        let destination = try MovieDestination(url, overwrite: options.overwrite)
        let timing = try SlideshowTiming(
            settings: options.settings.forContainer(destination.container), imageDuration: options.imageDuration,
            repeatFrames: options.repeatFrames)
        let job = ImageDataJob(
            destination: destination, settings: timing.settings, size: timing.settings.size, copies: timing.copies,
            imageLimits: options.imageLimits, skipInvalidImages: options.skipInvalidImages,
            metadata: options.metadata, progress: options.progress)
        let prefetch = ImageDataPrefetch(capacity: timing.settings.imagesDecodedAhead)
        let reading = Task { await prefetch.fill(from: images) }
        defer {
            prefetch.close()
            reading.cancel()
        }
        var arrivals = ImageDataArrivals(prefetch: prefetch)
        return try await job.run(&arrivals)
    }
}
