import Foundation

/// The work of making a movie from an image sequence, whatever its ``SequenceImages`` kind: listed
/// files, images' bytes from a stream, or files followed while they are written.
///
/// The first usable image is decoded to learn the movie's size; then the ordered decode pipeline
/// (``OrderedDecoding``, with the kind's arrivals) prepares the rest a few at a time ahead of the
/// encoder, and each is appended in order through the writer's one way in, or left out by
/// ``SkippedImages``' rule. Errors name the image's frame and file as the kind gives them.
struct SequenceJob<Images: SequenceImages> {
    /// The sequence's own part: where its images come from and when its frames start.
    var images: Images
    let destination: MovieDestination
    let settings: VideoSettings
    /// The movie's size; `nil` means the first image's, odd sides rounded up.
    let size: FrameSize?
    let imageLimits: ImageLimits
    /// Whether images that cannot be read or decoded are left out (see ``SkippedImages``).
    let skipInvalidImages: Bool
    let progress: (@Sendable (SequenceProgress) -> Void)?
    /// Sound for the movie, if any.
    var soundtrack: Soundtrack? = nil
    /// The tags written into the movie.
    var metadata = MovieMetadata()

    /// Pictures decoded and prepared ahead of the encoder (``VideoSettings/imagesDecodedAhead``).
    var lookahead: Int {
        settings.imagesDecodedAhead
    }

    func run() async throws -> MovieSummary {
        let started = Date()
        if let report = images.progressBeforeFirstImage { progress?(report) }
        var skipping = SkippedImages(enabled: skipInvalidImages)
        let opened = try await images.start(
            .firstImage(size: size, of: settings, limits: imageLimits), skipping: &skipping)
        var arrivals = opened.arrivals
        let first = opened.first
        var settings = settings
        if case .fromImageNumbers = settings.timecode {
            // Only a container that holds a timecode takes one from the images' numbers.
            let holds = !destination.container.isAnimatedImage && settings.fragmentDuration == nil
            settings.timecode =
                holds
                ? settings.timecode.resolved(
                    firstNumber: images.firstImageNumber(at: first.position, first.item), frameRate: settings.frameRate)
                : .none
        }
        let (writer, roundedFrom) = try MovieWriter.forFirstImage(
            first.image, size: size, settings: settings, destination: destination, imageLimits: imageLimits,
            soundtrack: soundtrack, metadata: metadata)
        do {
            if let segment = images.segmentInfo(of: writer.settings) { await writer.describeAsSegment(segment) }
            // The movie's size is known from here on, given or taken from the first image.
            let pipeline = OrderedDecoding<Images.Arrivals>(
                lookahead: lookahead, preparer: writer.preparer,
                decode: images.decoder(.frame(of: writer.settings, limits: imageLimits)))
            // The position after the last image taken.
            var done = first.position
            try await pipeline.run(
                &arrivals, first: first,
                waiting: {
                    let report = images.waiting(
                        framesDone: done, elapsedSeconds: Date().timeIntervalSince(started))
                    if let report { progress?(report) }
                },
                take: { position, item, picture in
                    let origin = images.origin(ofImage: position, item)
                    let picture = picture.mapError { origin.attribute(any: $0) }
                    if case .failure(let error as FlipbookError) = picture, skipping.maySkip(error) {
                        skipping.skip(error)
                    } else {
                        let frames = images.frames(ofImage: position, item, skipping: skipping)
                        for copy in 0..<frames.copies {
                            try await writer.append(
                                prepared: picture, at: copy == 0 ? frames.start : nil,
                                duration: copy == 0 ? frames.duration : nil, origin: origin)
                        }
                        skipping.wrote()
                    }
                    done = position + 1
                    progress?(images.progress(framesDone: done, elapsedSeconds: Date().timeIntervalSince(started)))
                })
            if let end = images.lastFrameEnd(atPosition: done, skipping: skipping) {
                try await writer.extendLastFrame(until: end)
            }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            summary.skippedImages = skipping.errors
            if settings.colourManagement == .off, let name = images.firstImageName(at: first.position, first.item),
                let colours = ColourProfile.warning(for: first.image.sourceColour, of: name)
            {
                summary.warnings.append(colours)
            }
            images.complete(&summary)
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }
}
