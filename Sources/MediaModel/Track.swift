/// One track of a movie: its number, its clock and what its samples are.
///
/// The track's ``timescale`` is its media timescale. The movie's timescale (an MP4's `mvhd`, `tkhd`
/// and `elst` segment durations; a Matroska movie's picture clock) is the first track's, so a movie
/// whose only track is video has one clock throughout.
package struct Track: Sendable {
    /// The track's ID, from 1, unique in the movie.
    package var trackID: UInt32
    /// Media time units per second.
    package var timescale: UInt32
    /// What the samples are.
    package var codec: any CodecDescription
    /// Edits (segment durations in the movie's timescale, media times in this track's); none by default.
    package var editList: [EditListEntry]
    /// Degrees the pictures are turned clockwise for display: 0 (the default), 90, 180 or 270. The
    /// pictures themselves and the track's width and height are unchanged.
    package var rotation: Int = 0
    /// The ID of the timecode track that gives this track's pictures their timecode (an MP4's
    /// `tref`/`tmcd`); `nil` for none.
    package var timecodeTrackID: UInt32?

    /// The ID of the movie's picture track.
    package static let videoTrackID = TrackKind.video.trackID
    /// The ID of the movie's sound track, after the pictures'.
    package static let soundTrackID = TrackKind.audio.trackID

    /// Creates a track.
    ///
    /// - Parameters:
    ///   - trackID: The track's ID, from 1.
    ///   - timescale: Media time units per second; not zero.
    ///   - codec: What the samples are.
    ///   - editList: Edits, none by default.
    package init(
        trackID: UInt32 = Track.videoTrackID, timescale: UInt32, codec: any CodecDescription,
        editList: [EditListEntry] = []
    ) {
        self.trackID = trackID
        self.timescale = timescale
        self.codec = codec
        self.editList = editList
    }

    /// Throws ``MuxingError`` if the track cannot be described in a movie's fields, or what its codec
    /// description's check throws.
    package func validate() throws {
        guard timescale > 0 else {
            throw MuxingError.invalidTrack("timescale is 0; use the frame rate's time base, e.g. 30000")
        }
        guard trackID > 0 else { throw MuxingError.invalidTrack("track ID 0 is reserved; number tracks from 1") }
        guard [0, 90, 180, 270].contains(rotation) else {
            throw MuxingError.invalidTrack("a rotation of \(rotation) degrees; a track turns by 0, 90, 180 or 270")
        }
        try codec.validate()
    }
}

/// Which of a movie's tracks a track is. A movie has its pictures first and may have sound after
/// them, so a kind fixes both the track's place among a muxing session's tracks and its ID in the file.
package enum TrackKind: Int, Sendable, CaseIterable {
    /// The pictures: always the first track, whose clock is the movie's.
    case video
    /// The sound, after the pictures.
    case audio

    /// The track's place among a session's tracks (the `track` a sample is added to), from 0.
    package var index: Int { rawValue }

    /// The track's ID in the movie (an MP4 `tkhd`'s, a Matroska `TrackNumber`), from 1.
    package var trackID: UInt32 { UInt32(rawValue + 1) }
}
