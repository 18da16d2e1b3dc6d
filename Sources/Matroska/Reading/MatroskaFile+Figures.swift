import Foundation

/// The figures `flipbook probe` gives, from what a ``MatroskaFile`` read: lengths, rates and counts.
extension MatroskaFile {
    /// Whether the file at `path` starts with an EBML header (and is to be read as Matroska or WebM).
    package static func startsWithEBMLHeader(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4)).map { [UInt8]($0) == EBMLID.ebml.bytes } ?? false
    }

    /// Seconds since 1904-01-01 UTC (MP4's epoch) when the movie was made, from its `DateUTC`.
    package var creationTime: UInt64? {
        dateUTC.flatMap { UInt64(exactly: $0 / 1_000_000_000 + Int64(MatroskaHead.secondsFrom1904To2001)) }
    }

    /// The first video track, and the first sound track.
    package var videoTrack: MatroskaTrackEntry? { tracks.first { $0.isVideo } }
    package var audioTrack: MatroskaTrackEntry? { tracks.first { $0.isAudio } }

    /// The blocks of `track`, in file order.
    package func blocks(of track: MatroskaTrackEntry) -> [MatroskaBlockEntry] {
        blocks.filter { $0.track == track.number }
    }

    /// `ticks` of the file's `TimestampScale` in seconds.
    package func seconds(_ ticks: Double) -> Double {
        ticks * Double(timestampScale) / 1e9
    }

    /// Ticks a second, rounded (10 000 for Flipbook's files, 1000 for most others).
    package var ticksPerSecond: UInt32 {
        UInt32(clamping: (1_000_000_000 + timestampScale / 2) / timestampScale)
    }

    /// Where `track`'s presentation ends, in ticks: its latest block's time plus that block's
    /// `BlockDuration`, or the track's `DefaultDuration`, or the gap before it; `nil` without blocks.
    package func presentationEnd(of track: MatroskaTrackEntry) -> Int64? {
        let times = blocks(of: track).map(\.time)
        guard let latest = blocks(of: track).max(by: { $0.time < $1.time }) else { return nil }
        let sorted = times.sorted()
        let gap = sorted.count > 1 ? sorted[sorted.count - 1] - sorted[sorted.count - 2] : 0
        let nominal = track.defaultDuration.map { Int64(clamping: ($0 + timestampScale / 2) / timestampScale) }
        let length = latest.duration.map { Int64(clamping: $0) } ?? nominal ?? gap
        return latest.time &+ length
    }

    /// The movie's length in seconds: the `Duration`, or (a file whose writer did not finish it)
    /// where its pictures end.
    package var durationSeconds: Double {
        if let duration { return seconds(duration) }
        return videoTrack.flatMap(presentationEnd(of:)).map { seconds(Double($0)) } ?? 0
    }

    /// How long `track`'s sound plays in seconds: from its first block to its last one's end, less
    /// the `CodecDelay` at the start and the `DiscardPadding` at the end, at most the movie's length.
    package func playedSeconds(of track: MatroskaTrackEntry) -> Double {
        let own = blocks(of: track)
        guard let first = own.first, let last = own.last, let end = presentationEnd(of: track) else { return 0 }
        let delay = Double(track.codecDelay) / Double(timestampScale)
        let padding = Double(max(0, last.discardPadding ?? 0)) / Double(timestampScale)
        let start = max(0, Double(first.time) - delay)
        let played = seconds(Double(end) - delay - padding - start)
        return max(0, durationSeconds > 0 ? min(played, durationSeconds) : played)
    }

    /// The most frames from one keyframe to the next, or to the end after the last; `nil` without frames.
    package static func longestKeyframeDistance(_ blocks: [MatroskaBlockEntry]) -> Int? {
        guard !blocks.isEmpty else { return nil }
        var longest = 0
        var last = 0
        for (index, block) in blocks.enumerated().dropFirst() where block.isKeyframe {
            longest = max(longest, index - last)
            last = index
        }
        return max(longest, blocks.count - last)
    }

    /// A frame rate as a fraction from a frame's length in nanoseconds (a `DefaultDuration`, rounded
    /// to the nanosecond when written): a whole rate, a rate over 1001 (NTSC), or the exact fraction.
    package static func frameRate(nanoseconds: UInt64) -> (numerator: UInt64, denominator: UInt64)? {
        guard nanoseconds > 0 else { return nil }
        for denominator: UInt64 in [1, 1001] {
            let numerator = (denominator * 1_000_000_000 + nanoseconds / 2) / nanoseconds
            guard numerator > 0 else { continue }
            let back = (denominator * 1_000_000_000 + numerator / 2) / numerator
            if back == nanoseconds { return (numerator, denominator) }
        }
        var (a, b) = (UInt64(1_000_000_000), nanoseconds)
        while b != 0 { (a, b) = (b, a % b) }
        return (1_000_000_000 / a, nanoseconds / a)
    }

    /// Whether every picture but the last lasts its track's `DefaultDuration`, to the tick
    /// (Flipbook puts each time on the tick nearest it).
    package func hasConstantFrameRate(_ track: MatroskaTrackEntry) -> Bool {
        guard let nominal = track.defaultDuration else { return false }
        let times = blocks(of: track).map(\.time).sorted()
        return zip(times, times.dropFirst()).allSatisfy { earlier, later in
            let gap = Double(later - earlier) * Double(timestampScale)
            return abs(gap - Double(nominal)) <= Double(timestampScale)
        }
    }
}
