import Foundation
import MediaModel

/// What a movie being written is, apart from its samples, as the writer and the joiner both complete
/// it: where it will appear, its pictures' clock, size and turn. It makes the video track as it
/// stands, the summary of the finished movie, and tells a disk error about the movie asked for.
struct MovieOutline {
    /// Where the movie will appear.
    let url: URL
    /// The video track's time units per second, the movie's.
    let timescale: Int32
    let width: Int
    let height: Int
    /// How far the pictures are turned clockwise when shown.
    let rotation: Rotation

    /// The video track with `codec`'s sample description and the edits so far (`nil`: none).
    func videoTrack(codec: any CodecDescription, editList: [EditListEntry]?) -> Track {
        var track = Track(
            trackID: TrackKind.video.trackID, timescale: UInt32(timescale), codec: codec, editList: editList ?? [])
        track.rotation = rotation.degrees
        return track
    }

    /// What the finished movie holds.
    ///
    /// - Parameters:
    ///   - frames: Frames written.
    ///   - end: Where the pictures end, in ``timescale`` ticks.
    ///   - bytes: The file's size.
    ///   - videoBytes: The video samples' bytes.
    ///   - codec: The codec as ffprobe names it.
    ///   - muxer: The movie's muxer, for its warnings and its sound.
    ///   - metadata: The tags written into the movie.
    ///   - colourConversions: The images converted from each colour space.
    func summary(
        frames: Int, end: Int64, bytes: UInt64, videoBytes: UInt64, codec: String, muxer: MovieMuxer,
        metadata: MovieMetadata, colourConversions: [String: Int]
    ) -> MovieSummary {
        var summary = MovieSummary(
            url: url, frames: frames, duration: MediaTime(value: end, timescale: timescale), bytes: bytes,
            width: width, height: height, codec: codec, warnings: muxer.warnings + (muxer.sound?.warnings ?? []))
        summary.audio = muxer.sound?.info(movieEnd: end, movieTimescale: Int64(timescale))
        summary.videoBytes = videoBytes
        summary.metadata = metadata
        summary.rotation = rotation
        summary.colourConversions = colourConversions
        return summary
    }

    /// `error`, naming the movie asked for when it is a disk error (the temporary file is in the cause).
    func namingMovie(_ error: FlipbookError) -> FlipbookError {
        guard error.code == .outputNotWritable else { return error }
        var named = error
        named.path = url.path
        return named
    }
}
