import Foundation

/// What sets one kind of image sequence apart in a ``SequenceJob``: where its images come from
/// (files listed ahead, images' bytes read from a stream, files followed while they are written), how
/// each is decoded and named in errors, when its frames start, and what the summary says of it.
///
/// An image is known by its position: its place in the order the images arrive, from the first
/// image looked at (so images skipped before the first usable one count).
protocol SequenceImages {
    /// Where the images after the first come from, in order.
    associatedtype Arrivals: SequenceArrivals

    /// What to report before the first image is there (a follower waiting for it); `nil` for nothing.
    var progressBeforeFirstImage: SequenceProgress? { get }

    /// The first image that decodes as `request` asks, with its position, and the arrivals of the
    /// images after it; with skipping on, the invalid ones before it are recorded in `skipping`.
    ///
    /// - Throws: Why there is no first image, naming the image or the input at fault.
    func start(_ request: DecodeRequest, skipping: inout SkippedImages) async throws
        -> (arrivals: Arrivals, first: FirstSequenceImage<Arrivals.Item>)

    /// Decodes an image after the first as `request` asks (the movie's size is known by then).
    func decoder(_ request: DecodeRequest) -> @Sendable (Arrivals.Item) throws -> DecodedImage

    /// Where the image at `position` comes from, for the errors about it.
    func origin(ofImage position: Int, _ item: Arrivals.Item) -> FrameOrigin

    /// The frames the image at `position` becomes, given the images skipped so far.
    func frames(ofImage position: Int, _ item: Arrivals.Item, skipping: SkippedImages) -> ImageFrames

    /// Called when the pipeline waits for the next image; returns what to report then, if anything.
    ///
    /// - Parameters:
    ///   - framesDone: The images taken so far, skipped ones included.
    ///   - elapsedSeconds: Seconds since the job started.
    func waiting(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress?

    /// What to report once `framesDone` images are taken (skipped ones included).
    func progress(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress

    /// Where the last frame written lasts until, when not one frame's time: `end` is the position after
    /// the last image taken.
    func lastFrameEnd(atPosition end: Int, skipping: SkippedImages) -> MediaTime?

    /// The first image as a warning about its colours names it; `nil` gives no such warning.
    func firstImageName(at position: Int, _ item: Arrivals.Item) -> String?

    /// The first image's own number (the last run of digits in its file's name), which the movie's
    /// timecode starts from by default; `nil` when it has none.
    func firstImageNumber(at position: Int, _ item: Arrivals.Item) -> Int?

    /// What the movie says of itself as a segment of a longer sequence, made with `settings`; `nil`
    /// when it is no segment.
    func segmentInfo(of settings: VideoSettings) -> SegmentInfo?

    /// Adds what the summary says of this kind of sequence (missing numbers, a follower's notes).
    func complete(_ summary: inout MovieSummary)
}

extension SequenceImages {
    var progressBeforeFirstImage: SequenceProgress? { nil }

    func waiting(framesDone: Int, elapsedSeconds: Double) -> SequenceProgress? { nil }

    func segmentInfo(of settings: VideoSettings) -> SegmentInfo? { nil }

    func complete(_ summary: inout MovieSummary) {}
}

/// A sequence's first usable image: its position, where it came from and the image decoded (it gives
/// the movie its size).
typealias FirstSequenceImage<Item> = (position: Int, item: Item, image: DecodedImage)

/// The frames one image becomes: `copies` frames, the first starting at `start` and lasting
/// `duration` (`nil`: after the previous frame, one frame at the movie's rate); the others follow it.
struct ImageFrames {
    var copies: Int
    var start: MediaTime?
    var duration: MediaTime? = nil
}
