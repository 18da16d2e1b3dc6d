/// The images of a sequence left out because they cannot be read or decoded, and the times that
/// keep every other frame where it would have been.
///
/// The rule: a skipped image's time is given to the frame before it, so every later frame keeps
/// its time and the movie keeps its length (and its sync with a soundtrack). Skipped images at the
/// start give their time to the first frame that can be read, which then starts at the sequence's
/// start.
struct SkippedImages {
    /// Whether invalid images are skipped at all.
    let enabled: Bool
    /// The errors of the images left out so far, in order, each naming its frame index and file.
    private(set) var errors: [FlipbookError] = []
    /// Images written so far.
    private(set) var written = 0

    /// Whether `error` is about an image that may be left out: unreadable, unsupported or corrupt.
    func maySkip(_ error: FlipbookError) -> Bool {
        enabled && [.unreadableInput, .unsupportedImage, .corruptImage].contains(error.code)
    }

    /// Records an image left out.
    mutating func skip(_ error: FlipbookError) {
        errors.append(error)
    }

    /// Records an image written.
    mutating func wrote() {
        written += 1
    }

    /// When the first frame of image `index` (counted in the whole sequence) starts, if it must be
    /// given: a segment's first frame keeps the time it has in the whole movie, and once an image was
    /// skipped, every frame is given its own time.
    func startTime(ofImage index: Int, firstImage: Int, copies: Int, rate: FrameRate) -> MediaTime? {
        if written == 0 {
            return firstImage > 0 ? MediaTime(frame: firstImage * copies, at: rate) : nil
        }
        return errors.isEmpty ? nil : MediaTime(frame: index * copies, at: rate)
    }

    /// The error for a sequence none of whose images could be used.
    func nothingLeft(of count: Int) -> FlipbookError {
        FlipbookError.noImageUsable(of: count, firstProblem: errors.first)
    }
}
