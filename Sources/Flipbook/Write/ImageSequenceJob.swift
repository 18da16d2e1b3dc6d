import Foundation

/// The work behind ``MovieWriter/makeMovie(fromImagesAt:to:options:)``.
///
/// The first usable image is decoded to learn the movie's size; then the ordered decode pipeline
/// (``OrderedDecoding``, the list as arrivals that never wait) prepares the rest a few at a time
/// ahead of the encoder, and each is appended in order through the writer's one way in.
struct ImageSequenceJob {
    /// The images to encode (a segment's slice, or all).
    let images: [ImageReference]
    /// The index of `images[0]` in the whole sequence.
    let firstImage: Int
    /// Images in the whole sequence.
    let totalImages: Int
    let destination: MovieDestination
    let settings: VideoSettings
    /// The movie's size; `nil` means the first image's, odd sides rounded up.
    let size: FrameSize?
    /// Encoded frames per image.
    let copies: Int
    let imageLimits: ImageLimits
    let segment: Segment?
    /// Whether images that cannot be read or decoded are left out (see ``SkippedImages``).
    let skipInvalidImages: Bool
    /// Every image's number in the whole sequence when time is kept by the numbers (``GapPolicy/hold``).
    let numbers: [Int]?
    let progress: (@Sendable (SequenceProgress) -> Void)?
    /// Sound for the movie, if any.
    var soundtrack: Soundtrack? = nil
    /// The tags written into the movie.
    var metadata = MovieMetadata()
    /// How every image of the whole sequence is appended when it holds frames of animations (see
    /// ``AnimatedInputs/timing(rate:copies:constantRate:)``); `nil` times stills as before.
    var timings: [EntryTiming]? = nil

    /// Pictures decoded and prepared ahead of the encoder (``VideoSettings/imagesDecodedAhead``).
    var lookahead: Int {
        settings.imagesDecodedAhead
    }

    func run() async throws -> MovieSummary {
        let started = Date()
        var skipping = SkippedImages(enabled: skipInvalidImages)
        let (usable, firstFrame) = try ImageSequenceJob.firstUsableImage(
            images, firstImage: firstImage,
            request: .firstImage(size: size, of: settings, limits: imageLimits), skipping: &skipping)
        let (writer, roundedFrom) = try await makeWriter(firstFrame: firstFrame)
        do {
            // The movie's size is known from here on, given or taken from the first image.
            let request = DecodeRequest.frame(of: writer.settings, limits: imageLimits)
            let animations = AnimationFrames(limits: imageLimits)
            let pipeline = OrderedDecoding<ListedImages>(
                lookahead: lookahead, preparer: writer.preparer,
                decode: { [images] index in try animations.decodeImage(images[index], request) })
            var listed = ListedImages(next: usable + 1, count: images.count)
            try await pipeline.run(
                &listed, first: (usable, usable, firstFrame), waiting: {},
                take: { index, _, picture in
                    let picture = picture.mapError { origin(of: index).attribute(any: $0) }
                    if case .failure(let error as FlipbookError) = picture, skipping.maySkip(error) {
                        skipping.skip(error)
                    } else if let timing = timings?[firstImage + index] {
                        for copy in 0..<timing.copies {
                            try await writer.append(
                                prepared: picture, at: copy == 0 ? timing.start : nil,
                                duration: copy == 0 ? timing.duration : nil, origin: origin(of: index))
                        }
                        skipping.wrote()
                    } else {
                        let start =
                            startByNumber(ofImage: firstImage + index)
                            ?? skipping.startTime(
                                ofImage: firstImage + index, firstImage: firstImage, copies: copies,
                                rate: settings.frameRate)
                        for copy in 0..<copies {
                            try await writer.append(
                                prepared: picture, at: copy == 0 ? start : nil, duration: nil, origin: origin(of: index)
                            )
                        }
                        skipping.wrote()
                    }
                    progress?(
                        SequenceProgress(
                            framesDone: index + 1, totalFrames: images.count,
                            elapsedSeconds: Date().timeIntervalSince(started)))
                })
            if let end = sliceEndByNumber() {
                // Time kept by the numbers: the slice's last frame lasts until the next image's time
                // (a gap after it, or the next segment), or one image's time at the sequence's end.
                try await writer.extendLastFrame(until: end)
            } else if !skipping.errors.isEmpty && timings == nil {
                // The last frame written lasts until the sequence ends: images skipped after it (or,
                // when it is the only one, before it) give it their time.
                try await writer.extendLastFrame(
                    until: MediaTime(frame: (firstImage + images.count) * copies, at: settings.frameRate))
            }
            var summary = try await writer.finish()
            summary.sizeRoundedFrom = roundedFrom
            summary.skippedImages = skipping.errors
            if settings.colourManagement == .off,
                let colours = ColourProfile.warning(for: firstFrame.sourceColour, of: images[usable].description)
            {
                summary.warnings.append(colours)
            }
            return summary
        } catch {
            await writer.cancel()
            throw error
        }
    }

    /// The first of `images` that decodes, with its index; with skipping on, invalid ones before
    /// it are recorded and passed over.
    ///
    /// - Parameter firstImage: The index of `images[0]` in the whole sequence, for errors.
    static func firstUsableImage(
        _ images: [ImageReference], firstImage: Int, request: DecodeRequest, skipping: inout SkippedImages
    ) throws -> (Int, DecodedImage) {
        for (index, image) in images.enumerated() {
            do {
                let origin = FrameOrigin(index: firstImage + index, image: image)
                let frame = try origin.attributing {
                    try ImageDecoder.decodeImageFile(image, request)
                }
                return (index, frame)
            } catch let error as FlipbookError where skipping.maySkip(error) {
                skipping.skip(error)
            }
        }
        throw skipping.nothingLeft(of: images.count)
    }

    /// When image `index` of the whole sequence starts when time is kept by the numbers.
    private func startByNumber(ofImage index: Int) -> MediaTime? {
        guard let numbers else { return nil }
        return MediaTime(frame: (numbers[index] - numbers[0]) * copies, at: settings.frameRate)
    }

    /// Where the slice ends when time is kept by the numbers: at the next image's time, or one image
    /// after the last number.
    private func sliceEndByNumber() -> MediaTime? {
        guard let numbers else { return nil }
        let next = firstImage + images.count
        let frame = next < numbers.count ? numbers[next] - numbers[0] : numbers[next - 1] - numbers[0] + 1
        return MediaTime(frame: frame * copies, at: settings.frameRate)
    }

    /// Where image `index` of the slice comes from.
    private func origin(of index: Int) -> FrameOrigin {
        FrameOrigin(index: firstImage + index, image: images[index])
    }

    /// The writer, sized from the first image unless a size was given.
    private func makeWriter(firstFrame frame: DecodedImage) async throws -> (MovieWriter, FrameSize?) {
        let (writer, roundedFrom) = try MovieWriter.forFirstImage(
            frame, size: size, settings: settings, destination: destination, imageLimits: imageLimits,
            soundtrack: soundtrack, metadata: metadata)
        if let segment {
            await writer.describeAsSegment(
                SegmentInfo(
                    segment: segment, firstFrame: firstImage, frames: images.count, totalFrames: totalImages,
                    settings: writer.settings))
        }
        return (writer, roundedFrom)
    }
}
