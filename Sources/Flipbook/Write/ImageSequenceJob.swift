import Foundation

/// The work behind ``MovieWriter/makeMovie(fromImagesAt:to:options:)``: the sequence job over image
/// files listed ahead, all there from the start, so the pipeline never waits for one.
typealias ImageSequenceJob = SequenceJob<ListedImageFiles>

/// Image files listed ahead (a segment's slice, or all), as a ``SequenceJob``'s images: an image's
/// position is its index in the slice; frames are timed by the images' numbers, by animations'
/// delays, or one image after another.
struct ListedImageFiles: SequenceImages {
    /// The images to encode (a segment's slice, or all).
    let images: [ImageReference]
    /// The index of `images[0]` in the whole sequence.
    let firstImage: Int
    /// Images in the whole sequence.
    let totalImages: Int
    let segment: Segment?
    /// Every image's number in the whole sequence when time is kept by the numbers (``GapPolicy/hold``).
    let numbers: [Int]?
    /// Encoded frames per image.
    let copies: Int
    let rate: FrameRate
    /// How every image of the whole sequence is appended when it holds frames of animations (see
    /// ``AnimatedInputs/timing(rate:copies:constantRate:)``); `nil` times stills as before.
    var timings: [EntryTiming]? = nil
    /// Every image's change in stops from a ``Deflicker`` (the whole sequence's), or `nil` for none.
    var exposureChanges: [Double]? = nil

    func start(_ request: DecodeRequest, skipping: inout SkippedImages) throws
        -> (arrivals: ListedImages, first: FirstSequenceImage<Int>)
    {
        let (usable, image) = try Self.firstUsableImage(
            images, firstImage: firstImage, request: request, skipping: &skipping,
            changes: exposureChanges.map { Array($0[firstImage...]) })
        return (ListedImages(next: usable + 1, count: images.count), (usable, usable, image))
    }

    func decoder(_ request: DecodeRequest) -> @Sendable (Int) throws -> DecodedImage {
        let animations = AnimationFrames(limits: request.limits)
        let changes = exposureChanges.map { Array($0[firstImage...]) }
        return { [images] index in
            let change = changes?[index]
            return try animations.decodeImage(images[index], request.deflickered(byStops: change))
                .deflickered(byStops: change)
        }
    }

    func origin(ofImage index: Int, _: Int) -> FrameOrigin {
        FrameOrigin(index: firstImage + index, image: images[index])
    }

    func frames(ofImage index: Int, _: Int, skipping: SkippedImages) -> ImageFrames {
        if let timing = timings?[firstImage + index] {
            return ImageFrames(copies: timing.copies, start: timing.start, duration: timing.duration)
        }
        let start =
            startByNumber(ofImage: firstImage + index)
            ?? skipping.startTime(ofImage: firstImage + index, firstImage: firstImage, copies: copies, rate: rate)
        return ImageFrames(copies: copies, start: start)
    }

    func progress(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress {
        SequenceProgress(framesDone: framesDone, totalFrames: images.count, elapsedSeconds: elapsedSeconds)
    }

    func lastFrameEnd(atPosition _: Int, skipping: SkippedImages) -> MediaTime? {
        if let end = sliceEndByNumber() {
            // Time kept by the numbers: the slice's last frame lasts until the next image's time
            // (a gap after it, or the next segment), or one image's time at the sequence's end.
            return end
        }
        guard !skipping.errors.isEmpty && timings == nil else { return nil }
        // The last frame written lasts until the sequence ends: images skipped after it (or, when it
        // is the only one, before it) give it their time.
        return MediaTime(frame: (firstImage + images.count) * copies, at: rate)
    }

    func firstImageName(at index: Int, _: Int) -> String? {
        images[index].description
    }

    func firstImageNumber(at index: Int, _: Int) -> Int? {
        let name = images[index].file.lastPathComponent
        return NumberPattern(example: name)?.number(in: name)
    }

    func segmentInfo(of settings: VideoSettings) -> SegmentInfo? {
        segment.map {
            SegmentInfo(
                segment: $0, firstFrame: firstImage, frames: images.count, totalFrames: totalImages, settings: settings)
        }
    }

    /// The first of `images` that decodes, with its index; with skipping on, invalid ones before
    /// it are recorded and passed over.
    ///
    /// - Parameter firstImage: The index of `images[0]` in the whole sequence, for errors.
    static func firstUsableImage(
        _ images: [ImageReference], firstImage: Int, request: DecodeRequest, skipping: inout SkippedImages,
        changes: [Double]? = nil
    ) throws -> (Int, DecodedImage) {
        for (index, image) in images.enumerated() {
            do {
                let origin = FrameOrigin(index: firstImage + index, image: image)
                let change = changes?[index]
                let frame = try origin.attributing {
                    try ImageDecoder.decodeImageFile(image, request.deflickered(byStops: change))
                        .deflickered(byStops: change)
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
        return MediaTime(frame: (numbers[index] - numbers[0]) * copies, at: rate)
    }

    /// Where the slice ends when time is kept by the numbers: at the next image's time, or one image
    /// after the last number.
    private func sliceEndByNumber() -> MediaTime? {
        guard let numbers else { return nil }
        let next = firstImage + images.count
        let frame = next < numbers.count ? numbers[next] - numbers[0] : numbers[next - 1] - numbers[0] + 1
        return MediaTime(frame: frame * copies, at: rate)
    }
}

extension SequenceJob where Images == ListedImageFiles {
    /// The job of `images`, a slice of the whole sequence starting at its image `firstImage`.
    init(
        images: [ImageReference], firstImage: Int, totalImages: Int, destination: MovieDestination,
        settings: VideoSettings,
        size: FrameSize?, copies: Int, imageLimits: ImageLimits, segment: Segment?, skipInvalidImages: Bool,
        numbers: [Int]?, progress: (@Sendable (SequenceProgress) -> Void)?
    ) {
        self.init(
            images: ListedImageFiles(
                images: images, firstImage: firstImage, totalImages: totalImages, segment: segment, numbers: numbers,
                copies: copies, rate: settings.frameRate),
            destination: destination, settings: settings, size: size, imageLimits: imageLimits,
            skipInvalidImages: skipInvalidImages, progress: progress)
    }

    /// How every image of the whole sequence is appended when it holds frames of animations.
    var timings: [EntryTiming]? {
        get { images.timings }
        set { images.timings = newValue }
    }

    /// Every image's change from a deflicker, by its index in the whole sequence.
    var exposureChanges: [Double]? {
        get { images.exposureChanges }
        set { images.exposureChanges = newValue }
    }

    /// See ``ListedImageFiles/firstUsableImage(_:firstImage:request:skipping:)``.
    static func firstUsableImage(
        _ images: [ImageReference], firstImage: Int, request: DecodeRequest, skipping: inout SkippedImages
    ) throws -> (Int, DecodedImage) {
        try ListedImageFiles.firstUsableImage(images, firstImage: firstImage, request: request, skipping: &skipping)
    }
}
