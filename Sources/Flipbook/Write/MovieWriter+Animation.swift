import Foundation

extension MovieWriter {
    /// Appends every frame of the animation at `url` (see ``append(imageAt:at:duration:)``).
    nonisolated func appendAnimation(
        at url: URL, _ layout: AnimationLayout, at time: MediaTime?, duration: MediaTime?
    ) async throws {
        let origin = FrameOrigin(image: ImageReference(file: url))
        guard duration == nil else {
            throw origin.attribute(FlipbookError.animationTakesNoDuration(layout.kind.rawValue))
        }
        guard !layout.isTruncated else {
            throw origin.attribute(
                FlipbookError.animationTruncated(layout.kind.rawValue, wholeFrames: layout.delays.count))
        }
        let decoder = try origin.attributing { try AnimationFrames.open(url, limits: imageLimits) }
        let scale = settings.resolvedTimescale
        var elapsed = MediaTime.zero
        var ticksSoFar: Int64 = 0
        for (index, delay) in layout.delays.enumerated() {
            let frameOrigin = FrameOrigin(image: ImageReference(file: url, part: .frame(index + 1)))
            let picture = Result {
                try frameOrigin.attributing { try preparer.prepare(.frame(try decoder.nextFrame())) }
            }
            // Each frame ends where the delays so far end on the movie's clock, so rounding an APNG's
            // odd fractions never adds up.
            elapsed = elapsed + delay
            let end = elapsed.rounded(toTimescale: scale)?.value ?? ticksSoFar + 1
            let length = MediaTime(value: max(1, end - ticksSoFar), timescale: scale)
            ticksSoFar += length.value
            try await append(
                prepared: picture, at: index == 0 ? time : nil, duration: length, origin: frameOrigin)
        }
    }
}
