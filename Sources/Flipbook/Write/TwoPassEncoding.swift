import Foundation

/// A movie made in two passes over its images (``RateControl/averageBitrate(_:passes:)`` with two
/// passes, or ``RateControl/targetSize(bytes:)``): a first pass that only measures, writing the
/// encoder's statistics to a private folder, then the real encode that reads them.
///
/// For a target size, the first pass also writes the sound and the container, so that everything in
/// the file but the video is measured, not guessed: the video gets the rest of the budget. A second
/// pass that lands over the size, or below 95% of it, is discarded unpublished and encoded again at
/// the rate scaled by how far it missed, at most ``attempts`` times; only a movie at or under the size
/// is ever published. The private folder is removed in every outcome.
struct TwoPassEncoding {
    let images: [ImageReference]
    let destination: MovieDestination
    let options: SequenceOptions

    /// Movies of at most this many frames reach a target size by their quality (CRF), not a rate:
    /// the encoders' rate control cannot spread a rate over a few pictures (a slideshow's), whose size
    /// barely follows it.
    static let fewFrames = 30
    /// Encodes of the second pass a target size may take.
    static let attempts = 4
    /// The share of the video's budget a second pass aims at, below 100% for the encoder's spread.
    static let aim = 0.97
    /// The share of the target a published movie must at least reach, but for the last attempt.
    static let lowestShare = 0.95

    func run() async throws -> MovieSummary {
        let settings = options.settings
        // What the passes depend on, before the first (the size comes from the first image later).
        try FlipbookError.markingSettingsConflicts { try settings.validateEncoderChoices() }
        if case .targetSize(let bytes) = settings.rateControl {
            if options.segment != nil {
                throw FlipbookError.segmentWithTargetSize()
            }
            let frames = try estimatedLength().frames
            let smallest = RateControl.smallestTargetSize(frames: frames)
            guard bytes >= smallest else {
                throw FlipbookError.targetSizeTooSmall(bytes, frames: frames, smallest: smallest)
            }
        }
        if destination.container.isAnimatedImage, case .targetSize(let bytes) = settings.rateControl {
            return try await fitAnimationByQuality(target: bytes)
        }
        let folder = try Self.makePrivateFolder(at: destination.temporaryStem() + "-passes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let statistics = folder.appendingPathComponent("statistics").path

        // No try goes past a rate limit or the level's rate, which the settings would refuse.
        var ceiling = Double(settings.codec.highestBitrate)
        if let limit = settings.rateLimit { ceiling = min(ceiling, Double(limit.maxBitrate)) }
        if let level = settings.level, let most = settings.codec.levelRate(level, profile: settings.effectiveProfile) {
            ceiling = min(ceiling, Double(most.bitrate))
        }
        // An encoder without two passes measures with a whole one-pass encode at a guessed rate.
        let twoPasses = settings.codec.takesTwoPasses
        var first = options
        first.settings.pass = twoPasses ? .first(statistics: statistics) : nil
        first.settings.rateControl = .averageBitrate(
            Int(min(Double(try firstPassRate()), ceiling)), passes: twoPasses ? 2 : 1)
        first.overwrite = true
        first.progress = reporting(pass: 1, of: 2)
        let measuring: Bool = if case .targetSize = settings.rateControl { true } else { false }
        if !measuring { first.soundtrack = nil }
        let firstMovie = folder.appendingPathComponent("first-pass.\(destination.url.pathExtension)")
        let measured = try await MovieWriter.makeMovie(
            fromImagesAt: images, to: try MovieDestination(firstMovie, overwrite: true), options: first)

        var second = options
        second.settings.pass = twoPasses ? .second(statistics: statistics) : nil
        guard case .targetSize(let target) = settings.rateControl else {
            second.progress = reporting(pass: 2, of: 2)
            var summary = try await MovieWriter.makeMovie(fromImagesAt: images, to: destination, options: second)
            summary.passes = 2
            return summary
        }
        // Everything but the video, as the first pass wrote it: the sound, the index, the headers.
        let rest = Int64(measured.bytes) - Int64(measured.videoBytes)
        let budget = target - rest
        let seconds = measured.duration.seconds
        guard budget > 0, seconds > 0, Double(budget) * 8 / seconds >= Double(RateControl.bitrateRange.lowerBound)
        else {
            throw FlipbookError.targetSizeLeavesNoRoom(target, rest: rest)
        }
        if measured.frames <= Self.fewFrames && settings.codec.takesCRF {
            return try await fitByQuality(target: target, rest: rest, firstVideo: measured.videoBytes)
        }
        var rate = Double(budget) * 8 / seconds * Self.aim
        if !twoPasses {
            // The measuring encode's own miss, corrected.
            let firstRate = Double(try firstPassRate())
            rate = firstRate * Double(budget) * Self.aim / Double(max(1, measured.videoBytes))
        }
        var tries: [(rate: Double, video: Double)] = []
        var underRate: Double?
        var takesAnyUnder = false
        var notes: [String] = []
        var sizes: [UInt64] = []
        for attempt in 1...Self.attempts {
            rate = min(rate, ceiling)
            second.settings.rateControl = .averageBitrate(Int(rate), passes: twoPasses ? 2 : 1)
            let isLast = attempt == Self.attempts
            switch try await tryAt(target, options: second, attempt: attempt, takingAnyUnder: isLast || takesAnyUnder) {
            case .success(var summary):
                summary.notes = notes
                return summary
            case .failure(let missed):
                sizes.append(missed.bytes)
                guard !isLast else {
                    throw FlipbookError.targetSizeMissed(
                        sizes: sizes, tries: Self.attempts, target: target, path: destination.url.path)
                }
                let video = max(1, Double(Int64(missed.bytes) - rest))
                let over = missed.bytes > UInt64(target)
                if !over {
                    // Two tries under the size whose rates differ and sizes do not: the pictures are at the
                    // encoder's best, and a smaller file is the movie.
                    if let last = tries.last, let underRate, abs(last.video - video) <= 0.005 * video, rate > underRate
                    {
                        takesAnyUnder = true
                    }
                    underRate = max(underRate ?? 0, rate)
                }
                let tried = rate
                rate = Self.nextRate(after: &tries, rate: rate, video: video, goal: Double(budget) * Self.aim)
                // The last try takes no chance: the highest rate that already came under the size, again
                // (the encoders give the same stream for the same settings), if one did.
                if let underRate, attempt + 1 == Self.attempts || takesAnyUnder { rate = underRate }
                notes.append(
                    "try \(attempt) at \(Int(tried / 1000)) kb/s came to \(missed.bytes) bytes, "
                        + (over ? "over" : "under 95% of") + " the target of \(target); encoded again at "
                        + "\(Int(min(rate, ceiling) / 1000)) kb/s")
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// One try at the target: the movie published when it lands between 95% of `target` (or nothing,
    /// when `takingAnyUnder`) and `target`, or the size it came to, unpublished.
    func tryAt(_ target: Int64, options: SequenceOptions, attempt: Int, takingAnyUnder: Bool) async throws
        -> Result<MovieSummary, SizeBudgetMissed>
    {
        var options = options
        var bound = destination
        let lowest = takingAnyUnder ? 0 : UInt64(Double(target) * Self.lowestShare)
        bound.acceptedBytes = lowest...UInt64(target)
        options.progress = reporting(pass: 1 + attempt, of: 1 + attempt)
        do {
            var summary = try await MovieWriter.makeMovie(fromImagesAt: images, to: bound, options: options)
            summary.passes = 1 + attempt
            return .success(summary)
        } catch {
            guard let missed = SizeBudgetMissed.behind(error) else { throw error }
            return .failure(missed)
        }
    }

    /// The rate for the next try at `goal` video bytes. Once tries lie on both sides of the goal,
    /// between the closest two (through them, or halfway when that lands near either or the last two
    /// tries fell on one side). Before that: through the last two tries; in proportion after one; and
    /// twice the proportional step when the last rate moved no size (an encoder whose few pictures
    /// change quantiser in steps). Never below the lowest rate.
    static func nextRate(
        after tries: inout [(rate: Double, video: Double)], rate: Double, video: Double, goal: Double
    ) -> Double {
        tries.append((rate, video))
        func through(_ a: (rate: Double, video: Double), _ b: (rate: Double, video: Double)) -> Double? {
            guard a.rate != b.rate, a.video != b.video else { return nil }
            let slope = (b.video - a.video) / (b.rate - a.rate)
            return slope > 0 ? b.rate + (goal - b.video) / slope : nil
        }
        var next = rate * goal / video
        let big = tries.filter { $0.video > goal }.min { $0.rate < $1.rate }
        let small = tries.filter { $0.video <= goal }.max { $0.rate < $1.rate }
        if let big, let small, small.rate < big.rate {
            let width = big.rate - small.rate
            let sameSide =
                tries.count >= 2 && (tries[tries.count - 1].video > goal) == (tries[tries.count - 2].video > goal)
            next = (small.rate + big.rate) / 2
            if !sameSide, let line = through(small, big), line > small.rate + width / 50, line < big.rate - width / 50 {
                next = line
            }
        } else if tries.count >= 2 {
            let (a, b) = (tries[tries.count - 2], tries[tries.count - 1])
            if abs(b.video - a.video) <= 0.005 * b.video {
                let ratio = goal / b.video
                next = b.rate * ratio * ratio
            } else if let line = through(a, b) {
                next = line
            }
        }
        return max(next, Double(RateControl.bitrateRange.lowerBound))
    }

    /// The frames the movie will have, from the images and the frames each one makes, and how long it lasts.
    private func estimatedLength() throws -> (frames: Int, seconds: Double) {
        let timing = try SlideshowTiming(
            settings: options.settings, imageDuration: options.imageDuration, repeatFrames: options.repeatFrames)
        let frames = images.count * timing.copies
        return (frames, Double(frames) * timing.settings.frameRate.frameDuration.seconds)
    }

    /// The first pass's rate: the one asked for, or for a target size a guess from the frames' time
    /// (the first pass only gathers statistics, which hardly depend on it).
    private func firstPassRate() throws -> Int {
        switch options.settings.rateControl {
        case .averageBitrate(let rate, _): return rate
        case .targetSize(let bytes):
            let rate = Double(bytes) * 8 / max(try estimatedLength().seconds, 0.001)
            return Int(min(max(rate, 1000), Double(RateControl.bitrateRange.upperBound)))
        case .constantQuality: preconditionFailure("one pass at constant quality")
        }
    }

    /// The caller's progress, marked with the pass.
    func reporting(pass: Int, of passes: Int) -> (@Sendable (SequenceProgress) -> Void)? {
        guard let progress = options.progress else { return nil }
        return { update in
            var update = update
            update.pass = pass
            update.passes = passes
            progress(update)
        }
    }

    /// A new hidden folder only this user may enter, beside the destination (so the first pass's movie
    /// is laid out on the same file system as the last).
    private static func makePrivateFolder(at path: String) throws -> URL {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        } catch {
            throw FlipbookError.firstPassFolderNotMade(at: path, cause: error)
        }
        return folder
    }
}
