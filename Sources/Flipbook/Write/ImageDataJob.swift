import Foundation

/// Whole image files' bytes from a sequence of them, read ahead by ``ImageDataPrefetch``, as a
/// ``SequenceJob``'s images (the job behind ``MovieWriter/makeMovie(fromImageData:to:options:)``):
/// an image's position is its place in the sequence, which is its frame number in errors.
struct StreamedImageData: SequenceImages {
    let arrivals: ImageDataArrivals
    /// Encoded frames per image.
    let copies: Int
    let rate: FrameRate

    func start(_ request: DecodeRequest, skipping: inout SkippedImages) async throws
        -> (arrivals: ImageDataArrivals, first: FirstSequenceImage<Data>)
    {
        var arrivals = arrivals
        var position = 0
        while let data = try await arrivals.waitForNext() {
            do {
                let image = try FrameOrigin(index: position).attributing { try Self.decode(data, request) }
                return (arrivals, (position, data, image))
            } catch let error as FlipbookError where skipping.maySkip(error) {
                skipping.skip(error)
                position += 1
            }
        }
        guard position > 0 else { throw FlipbookError.inputHeldNoImage() }
        throw skipping.nothingLeft(of: position)
    }

    func decoder(_ request: DecodeRequest) -> @Sendable (Data) throws -> DecodedImage {
        { data in try Self.decode(data, request) }
    }

    func origin(ofImage position: Int, _: Data) -> FrameOrigin {
        FrameOrigin(index: position)
    }

    func frames(ofImage position: Int, _: Data, skipping: SkippedImages) -> ImageFrames {
        ImageFrames(
            copies: copies, start: skipping.startTime(ofImage: position, firstImage: 0, copies: copies, rate: rate))
    }

    /// The images taken so far are all that is known of the sequence.
    func progress(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress {
        SequenceProgress(framesDone: framesDone, totalFrames: framesDone, elapsedSeconds: elapsedSeconds)
    }

    func lastFrameEnd(atPosition end: Int, skipping: SkippedImages) -> MediaTime? {
        // The last frame written lasts until the sequence ends: images skipped after it give it their time.
        skipping.errors.isEmpty ? nil : MediaTime(frame: end * copies, at: rate)
    }

    func firstImageName(at position: Int, _: Data) -> String? {
        "frame \(position)"
    }

    func firstImageNumber(at _: Int, _: Data) -> Int? {
        nil
    }

    /// Decodes one image's bytes as `request` asks, as a file's are decoded; when that fails and the
    /// image's structure stops before its end (the last image of a stream cut short), the error says so.
    static func decode(_ data: Data, _ request: DecodeRequest) throws -> DecodedImage {
        do {
            return try ImageDecoder.decodeImage(data, request)
        } catch let error as FlipbookError {
            guard let reason = data.withUnsafeBytes(ImageStreamSplitting.cutShort) else { throw error }
            throw FlipbookError.imageCutShort(reason, cause: error)
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
            throw FlipbookError.imageDataCannotHave(what)
        }
        if options.settings.deflicker != nil { throw FlipbookError.deflickerNeedsImageFiles() }
        try options.metadata.validate()
        // Before any work, so an existing movie is reported at once.
        let destination = try MovieDestination(url, overwrite: options.overwrite)
        let timing = try SlideshowTiming(
            settings: options.settings.forContainer(destination.container), imageDuration: options.imageDuration,
            repeatFrames: options.repeatFrames)
        let prefetch = ImageDataPrefetch(capacity: timing.settings.imagesDecodedAhead)
        let job = SequenceJob(
            images: StreamedImageData(
                arrivals: ImageDataArrivals(prefetch: prefetch), copies: timing.copies,
                rate: timing.settings.frameRate),
            destination: destination, settings: timing.settings, size: timing.settings.size,
            imageLimits: options.imageLimits, skipInvalidImages: options.skipInvalidImages, progress: options.progress,
            metadata: options.metadata)
        let reading = Task { await prefetch.fill(from: images) }
        defer {
            prefetch.close()
            reading.cancel()
        }
        return try await job.run()
    }
}
