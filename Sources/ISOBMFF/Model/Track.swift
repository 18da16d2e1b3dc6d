/// What a track's samples are, as its sample description (`stsd`) says: one sample entry box such
/// as `avc1` with `avcC`, and the kind of media, which decides the handler and media header boxes.
///
/// A codec is one conformer: the encoder that makes the samples hands its entry to the muxer, which
/// writes it without knowing the codec.
package protocol SampleEntry: Sendable {
    /// The kind of media and what the track header says about it.
    var media: MediaKind { get }
    /// Writes the sample entry box (for example `avc1` and its children) inside `stsd`.
    ///
    /// - Parameter isQuickTime: Whether the file is a QuickTime movie, for entries whose layout differs.
    func write(to writer: inout ByteWriter, isQuickTime: Bool)
    /// Throws ``ISOBMFFError`` if the entry cannot be described in the file's fields.
    func validate() throws
    /// The `ftyp` compatible brand an MP4 holding this entry names (`avc1` for H.264, `av01` for AV1),
    /// or `nil` for none.
    var compatibleBrand: FourCC? { get }
    /// The version of the `stsd` that holds this entry: 1 for an MP4's version 1 audio sample entry, 0 otherwise.
    func descriptionVersion(isQuickTime: Bool) -> UInt8
}

extension SampleEntry {
    /// An entry with nothing to check.
    package func validate() throws {}
    /// No brand of its own.
    package var compatibleBrand: FourCC? { nil }
    /// A version 0 `stsd`.
    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { 0 }
}

/// The kind of media a track holds.
package enum MediaKind: Sendable, Equatable {
    /// Pictures of a display size in pixels: handler `vide`, `vmhd`.
    case video(width: Int, height: Int)
    /// Sound: handler `soun`, `smhd`, full volume.
    case audio

    /// The handler type written in `hdlr`.
    package var handlerType: FourCC {
        switch self {
        case .video: "vide"
        case .audio: "soun"
        }
    }

    /// The handler name written in `hdlr`.
    package var handlerName: String {
        switch self {
        case .video: "VideoHandler"
        case .audio: "SoundHandler"
        }
    }
}

/// One track of a movie: its number, its clock and what its samples are.
///
/// The track's ``timescale`` is its media timescale (`mdhd`). The movie's timescale (`mvhd`, `tkhd`,
/// `elst` segment durations) is the first track's, so a movie whose only track is video has one
/// clock throughout.
package struct Track: Sendable {
    /// The track's ID, from 1, unique in the movie.
    package var trackID: UInt32
    /// Media time units per second.
    package var timescale: UInt32
    /// The sample description.
    package var sampleEntry: any SampleEntry
    /// Edits to write as `edts`/`elst` (segment durations in the movie's timescale, media times in
    /// this track's); none by default.
    package var editList: [EditListEntry]
    /// Degrees the pictures are turned clockwise for display (the `tkhd` matrix): 0 (the default),
    /// 90, 180 or 270. The pictures themselves and the track's width and height are unchanged.
    package var rotation: Int = 0

    /// Creates a track.
    ///
    /// - Parameters:
    ///   - trackID: The track's ID, from 1.
    ///   - timescale: Media time units per second; not zero.
    ///   - sampleEntry: The sample description.
    ///   - editList: Edits, none by default.
    package init(trackID: UInt32 = 1, timescale: UInt32, sampleEntry: any SampleEntry, editList: [EditListEntry] = []) {
        self.trackID = trackID
        self.timescale = timescale
        self.sampleEntry = sampleEntry
        self.editList = editList
    }

    /// Throws if the track cannot be described in the file's fields.
    package func validate() throws {
        guard timescale > 0 else {
            throw ISOBMFFError(.invalidTrack, "timescale is 0; use the frame rate's time base, e.g. 30000")
        }
        guard trackID > 0 else { throw ISOBMFFError(.invalidTrack, "track ID 0 is reserved; number tracks from 1") }
        guard [0, 90, 180, 270].contains(rotation) else {
            throw ISOBMFFError(.invalidTrack, "a rotation of \(rotation) degrees; a track turns by 0, 90, 180 or 270")
        }
        try sampleEntry.validate()
    }
}
