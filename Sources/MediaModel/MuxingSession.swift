/// A container's policy for writing a movie, as a value: samples and the end of the movie go in,
/// ``WriteAction``s come out, and one file sink performs them.
///
/// The session decides everything about the file's layout (where samples go, which boxes or
/// elements describe them, when a part of the file is complete and must be made durable, what is
/// written again once the movie's length is known); the sink only writes. Each container is one
/// conformer; the writer and the joiner feed whichever the destination asks for.
///
/// ```swift
/// var session: any MuxingSession = ProgressiveMovieSession(brand: .mp4, timescales: [30000])
/// for sample in samples { try sink.perform(session.add(sample, track: TrackKind.video.index, tracks: { tracks })) }
/// try sink.perform(session.finish(tracks: tracks, extensions: []))
/// ```
package protocol MuxingSession: Sendable {
    /// Takes the next sample of track `track` (an index into the movie's tracks), in that track's
    /// decode order. Feed the tracks in step, each about as far as the others in time.
    ///
    /// - Parameter tracks: The tracks as they stand (edit lists so far), for sessions that describe
    ///   the tracks before the movie is complete.
    /// - Returns: What to write now.
    mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction]

    /// Ends the movie.
    ///
    /// - Parameters:
    ///   - tracks: The tracks with their final edit lists.
    ///   - extensions: Private boxes describing the movie (a segment's description), where the
    ///     container can still hold them.
    /// - Returns: What to write to complete the movie.
    /// - Throws: ``MuxingError`` or the container's own error when the movie cannot be described (no samples, a track the
    ///   container cannot hold).
    mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction]

    /// What the caller should pass on about the finished file (frames an animated image left out);
    /// none for the movie containers.
    var warnings: [String] { get }

    /// Adds tags known only once every sample is in (how many images had their colour converted),
    /// replacing any of the same name, when the container writes its tags at the end.
    ///
    /// - Returns: Whether the tags will be written; `false` where the tags are already in the file
    ///   (a fragmented movie's `moov`) or the container has none (GIF, WebP).
    mutating func addClosingTags(_ items: [MovieTags.Item]) -> Bool
}

extension MuxingSession {
    package var warnings: [String] { [] }

    package mutating func addClosingTags(_ items: [MovieTags.Item]) -> Bool { false }
}

extension MovieTags {
    /// Sets `items`, replacing the value of a tag of the same name and appending the others.
    package mutating func set(_ newItems: [Item]) {
        for item in newItems {
            if let index = items.firstIndex(where: { $0.name == item.name }) {
                items[index].value = item.value
            } else {
                items.append(item)
            }
        }
    }
}
