import MediaModel

/// Decides where the samples of every track go in the `mdat` payload: each track's samples are
/// gathered into chunks, and the chunks of all tracks are written in the order of their start
/// times, so a player reading the file front to back finds picture and sound of the same moment
/// close together.
///
/// Chunking rule, per track: consecutive samples share a chunk until adding the next one would
/// make the chunk larger than ``maximumChunkSize`` bytes, or the chunk already spans at least one
/// second of the track's media time. A movie with one track has its samples in decode order, back
/// to back, whatever the chunks.
///
/// A chunk is handed out once no other track can still produce a chunk that starts earlier: the
/// caller feeds the tracks in step (each about as far as the others in time), and memory holds at
/// most about a chunk a track.
///
/// ```swift
/// var interleaver = MediaDataInterleaver(timescales: [12000, 48000])
/// for chunk in interleaver.add(videoSample, track: TrackKind.video.index) { write(chunk) }
/// for chunk in interleaver.finish() { write(chunk) }
/// ```
package struct MediaDataInterleaver: Sendable {
    /// Samples of one track that lie back to back in the file.
    package struct Chunk: Sendable {
        /// The index of the track, as given to ``MediaDataInterleaver/add(_:track:)``.
        package let track: Int
        /// The samples, in decode order.
        package var samples: [MediaSample]
        /// The decode time of the first sample, in the track's timescale.
        package let startTime: UInt64
        /// The sum of the samples' sizes.
        package var byteCount: UInt64
    }

    /// One track's progress.
    private struct Lane: Sendable {
        let timescale: UInt32
        var open: Chunk?
        var openDuration: UInt64 = 0
        var ready: [Chunk] = []
        /// The decode time of the next sample.
        var decodeTime: UInt64 = 0
        var finished = false

        /// Adds the next sample, closing the open chunk first when the sample would make it larger
        /// than `maximumChunkSize` or it already spans a second.
        mutating func take(_ sample: MediaSample, track: Int, maximumChunkSize: UInt64) {
            let size = UInt64(sample.size)
            if let chunk = open, chunk.byteCount + size > maximumChunkSize || openDuration >= UInt64(timescale) {
                ready.append(chunk)
                open = nil
            }
            if open == nil {
                open = Chunk(track: track, samples: [], startTime: decodeTime, byteCount: 0)
                openDuration = 0
            }
            open!.samples.append(sample)
            open!.byteCount += size
            openDuration += UInt64(sample.duration)
            decodeTime += UInt64(sample.duration)
        }

        /// The earliest time this track may still place a chunk at.
        var frontier: UInt64? {
            if let first = ready.first { return first.startTime }
            if let open { return open.startTime }
            return finished ? nil : decodeTime
        }
    }

    /// The byte limit of a chunk of several samples.
    package let maximumChunkSize: UInt64
    private var lanes: [Lane]

    /// Creates an interleaver for tracks with these timescales, in track order.
    ///
    /// - Parameters:
    ///   - timescales: Each track's media timescale; a chunk spans at most about one second.
    ///   - maximumChunkSize: The byte limit of a chunk of several samples, 1 MiB by default.
    package init(timescales: [UInt32], maximumChunkSize: UInt64 = 1 << 20) {
        precondition(!timescales.isEmpty && !timescales.contains(0), "timescales \(timescales) must be above 0")
        self.maximumChunkSize = maximumChunkSize
        lanes = timescales.map { Lane(timescale: $0) }
    }

    /// Takes the next sample of `track`, in that track's decode order.
    ///
    /// - Returns: The chunks that are now complete and due, in file order.
    package mutating func add(_ sample: MediaSample, track: Int) -> [Chunk] {
        precondition(lanes.indices.contains(track) && !lanes[track].finished, "track \(track) cannot take samples")
        // In place: a copy of the lane would copy its open chunk's samples at every sample.
        lanes[track].take(sample, track: track, maximumChunkSize: maximumChunkSize)
        return due()
    }

    /// Closes every track's last chunk.
    ///
    /// - Returns: Every chunk not handed out yet, in file order.
    package mutating func finish() -> [Chunk] {
        for index in lanes.indices {
            if let open = lanes[index].open { lanes[index].ready.append(open) }
            lanes[index].open = nil
            lanes[index].finished = true
        }
        return due()
    }

    /// Hands out complete chunks while none of another track could still come before them.
    private mutating func due() -> [Chunk] {
        var out: [Chunk] = []
        while let next = earliestReady() {
            let start = lanes[next].ready[0].startTime
            // Another track blocks it when it may still place a chunk earlier, or at the same time
            // and it comes first (the lower track first on a tie, so the order does not depend on
            // which track's chunk closed first).
            let blocked = lanes.indices.contains { other in
                guard other != next, let frontier = lanes[other].frontier else { return false }
                let (scale, nextScale) = (lanes[other].timescale, lanes[next].timescale)
                return Self.isEarlier(frontier, scale, than: start, nextScale)
                    || (other < next && !Self.isEarlier(start, nextScale, than: frontier, scale))
            }
            if blocked { break }
            out.append(lanes[next].ready.removeFirst())
        }
        return out
    }

    /// The track whose first complete chunk starts first (the lower track on a tie).
    private func earliestReady() -> Int? {
        var best: Int?
        for index in lanes.indices where !lanes[index].ready.isEmpty {
            guard let current = best else {
                best = index
                continue
            }
            let candidate = lanes[index].ready[0].startTime
            let leader = lanes[current].ready[0].startTime
            if Self.isEarlier(candidate, lanes[index].timescale, than: leader, lanes[current].timescale) {
                best = index
            }
        }
        return best
    }

    /// Whether `a / scaleA` seconds comes strictly before `b / scaleB`, exactly.
    private static func isEarlier(_ a: UInt64, _ scaleA: UInt32, than b: UInt64, _ scaleB: UInt32) -> Bool {
        let left = a.multipliedFullWidth(by: UInt64(scaleB))
        let right = b.multipliedFullWidth(by: UInt64(scaleA))
        return (left.high, left.low) < (right.high, right.low)
    }
}
