import Foundation

extension TwoPassEncoding {
    /// Tries of a few-frame movie's quality a target size may take (each encode is a few pictures).
    static let qualityAttempts = 10
    /// Encodes an animated image's target size may take: a bisection of qualities 1-100 settles in 7,
    /// and one more publishes the best under the size.
    static let animationAttempts = 9

    /// Lands an animated image (GIF, WebP) at its target size by its quality (1-100): a bisection
    /// starting at the settings' quality, the size taken to grow with the quality. A try between 95%
    /// of the size and the size is published; once the search settles, the best quality under the
    /// size is encoded again and published however far under (quality 100 may be). Only a file at or
    /// under the size is ever published; when even quality 1 is over, nothing is, and the error says
    /// how large it came.
    func fitAnimationByQuality(target: Int64) async throws -> MovieSummary {
        var trial = options
        trial.settings = options.settings.forContainer(destination.container)
        trial.settings.rateControl = .constantQuality
        trial.settings.pass = nil
        var (low, high) = (1, 100)
        var quality = min(max(trial.settings.quality, 1), 100)
        var bestUnder: Int?
        var takesAnyUnder = false
        var notes: [String] = []
        var sizes: [UInt64] = []
        for attempt in 1...Self.animationAttempts {
            trial.settings.quality = quality
            switch try await tryAt(target, options: trial, attempt: attempt, takingAnyUnder: takesAnyUnder) {
            case .success(var summary):
                summary.notes = notes
                return summary
            case .failure(let missed):
                sizes.append(missed.bytes)
                let over = missed.bytes > UInt64(target)
                if over { high = quality - 1 } else { (low, bestUnder) = (quality + 1, max(bestUnder ?? 0, quality)) }
                let tried = quality
                if low > high || takesAnyUnder {
                    guard let best = bestUnder, !takesAnyUnder else {
                        throw FlipbookError.animationOverTargetSize(
                            trial.settings.codec.displayName, sizes: sizes, tries: attempt, target: target,
                            quality: tried, path: destination.url.path)
                    }
                    (quality, takesAnyUnder) = (best, true)
                } else {
                    quality = (low + high) / 2
                }
                notes.append(
                    "try \(attempt) at quality \(tried) came to \(missed.bytes) bytes, "
                        + (over ? "over" : "under 95% of")
                        + " the target of \(target); encoded again at quality \(quality)")
            }
        }
        throw FlipbookError.animationTargetSizeNotLanded(
            trial.settings.codec.displayName, target: target, tries: Self.animationAttempts, sizes: sizes,
            path: destination.url.path)
    }

    /// Lands a movie of a few frames at its target size by its CRF: a search in which the video's size
    /// is taken to fall exponentially with the CRF (halving about every 6 steps of x264's and x265's
    /// scale), through the last two tries once there are two. A try between 95% of the size and the
    /// size is published; the last try repeats the best that came under, and a movie at the codec's
    /// best quality still under 95% is taken as it is. Only a movie at or under the size is published.
    func fitByQuality(target: Int64, rest: Int64, firstVideo: UInt64) async throws -> MovieSummary {
        let codec = options.settings.codec
        let goal = Double(target - rest) * Self.aim
        var quality = options
        quality.settings.pass = nil
        quality.settings.rateControl = .constantQuality
        var crf = codec.defaultCRF
        var tries: [(crf: Double, video: Double)] = []
        var bestUnder: (crf: Double, bytes: UInt64)?
        var takesAnyUnder = false
        var notes: [String] = []
        var sizes: [UInt64] = []
        for attempt in 1...Self.qualityAttempts {
            crf = Self.crf(crf, on: codec)
            quality.settings.crf = crf
            let isLast = attempt == Self.qualityAttempts
            switch try await tryAt(target, options: quality, attempt: attempt, takingAnyUnder: isLast || takesAnyUnder)
            {
            case .success(var summary):
                summary.notes = notes
                return summary
            case .failure(let missed):
                sizes.append(missed.bytes)
                let over = missed.bytes > UInt64(target)
                let atBest = crf <= codec.crfRange.lowerBound
                guard !isLast, !(over && crf >= codec.crfRange.upperBound) else {
                    throw FlipbookError.targetSizeMissed(
                        sizes: sizes, tries: attempt, target: target, path: destination.url.path)
                }
                if !over, missed.bytes > bestUnder?.bytes ?? 0 { bestUnder = (crf, missed.bytes) }
                let video = max(1, Double(Int64(missed.bytes) - rest))
                tries.append((crf, video))
                let tried = crf
                crf = Self.nextCRF(tries, goal: goal)
                // A codec of whole CRFs is stuck too when the next rounds to one tried already (the size
                // falls past the goal within one step).
                let stuck =
                    crf == tried
                    || codec.encoderRecord.has(.wholeConstantRateFactor)
                        && tries.contains { $0.crf == Self.crf(crf, on: codec) }
                // Under the size at the best quality, or the search stuck on one step: the best under is the movie.
                if (!over && atBest) || stuck || attempt + 1 == Self.qualityAttempts, let bestUnder {
                    takesAnyUnder = takesAnyUnder || !over && atBest || stuck
                    crf = bestUnder.crf
                }
                notes.append(
                    "try \(attempt) at CRF \(VideoCodec.number(tried)) came to \(missed.bytes) bytes, "
                        + (over ? "over" : "under 95% of") + " the target of \(target); encoded again at CRF "
                        + VideoCodec.number(Self.crf(crf, on: codec)))
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// The CRF the next try takes to make `goal` video bytes. Once tries lie on both sides of the goal,
    /// between the closest two: through them with the size modelled as falling exponentially with the
    /// CRF, or halfway when that lands near either or the last two tries fell on one side (x265's size
    /// of a few pictures stays flat over many CRFs and then falls off a cliff). Before that, from the
    /// last try: through the last two, or 6 steps a halving.
    static func nextCRF(_ tries: [(crf: Double, video: Double)], goal: Double) -> Double {
        func through(_ a: (crf: Double, video: Double), _ b: (crf: Double, video: Double)) -> Double? {
            guard a.crf != b.crf, a.video != b.video else { return nil }
            let slope = (Foundation.log(b.video) - Foundation.log(a.video)) / (b.crf - a.crf)
            return slope < 0 ? b.crf + (Foundation.log(goal) - Foundation.log(b.video)) / slope : nil
        }
        let big = tries.filter { $0.video > goal }.max { $0.crf < $1.crf }
        let small = tries.filter { $0.video <= goal }.min { $0.crf < $1.crf }
        if let big, let small {
            let width = small.crf - big.crf
            let middle = (big.crf + small.crf) / 2
            // The last two tries on one side: the line keeps landing there (one side flat, the other
            // steep), so halve the bracket instead.
            let sameSide =
                tries.count >= 2 && (tries[tries.count - 1].video > goal) == (tries[tries.count - 2].video > goal)
            guard !sameSide, let next = through(big, small), next > big.crf + width / 50, next < small.crf - width / 50
            else { return middle }
            return next
        }
        let last = tries[tries.count - 1]
        if tries.count >= 2, let next = through(tries[tries.count - 2], last) { return next }
        return last.crf + (Foundation.log(goal) - Foundation.log(last.video)) / (-Foundation.log(2.0) / 6)
    }

    /// `crf` within the codec's scale, whole for SVT-AV1 and libvpx (which take whole quantisers), to a
    /// tenth otherwise.
    static func crf(_ crf: Double, on codec: VideoCodec) -> Double {
        let clamped = min(max(crf, codec.crfRange.lowerBound), codec.crfRange.upperBound)
        return codec.encoderRecord.has(.wholeConstantRateFactor) ? clamped.rounded() : (clamped * 10).rounded() / 10
    }
}
