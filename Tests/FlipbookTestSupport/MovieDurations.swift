import Foundation
import ISOBMFF
import MediaModel

/// The durations a movie's headers declare, read with Flipbook's own box reader.
package struct MovieDurations: Sendable {
    /// `mvhd` timescale and duration.
    public var movieTimescale: UInt32
    public var movieDuration: UInt64
    /// `tkhd` duration, in the movie timescale.
    public var trackDuration: UInt64
    /// `mdhd` timescale and duration.
    public var mediaTimescale: UInt32
    public var mediaDuration: UInt64
    /// `elst` entries, if any.
    package var edits: [EditListEntry]

    /// Reads the first track's durations from a movie file.
    package init(of movie: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: movie)))
        let boxes = try BoxReader.parse(bytes)
        guard let moov = boxes.first("moov"), let mvhd = moov.child("mvhd"),
            let tkhd = moov.descendant(["trak", "tkhd"]), let mdhd = moov.descendant(["trak", "mdia", "mdhd"])
        else { throw JudgeError(description: "\(movie) lacks mvhd, tkhd or mdhd") }
        let movieHeader = try MovieHeaderBox(reading: mvhd, in: bytes)
        let mediaHeader = try MediaHeaderBox(reading: mdhd, in: bytes)
        movieTimescale = movieHeader.timescale
        movieDuration = movieHeader.duration
        trackDuration = try TrackHeaderBox(reading: tkhd, in: bytes).duration
        mediaTimescale = mediaHeader.timescale
        mediaDuration = mediaHeader.duration
        edits =
            try moov.descendant(["trak", "edts", "elst"]).map { try EditListBox(reading: $0, in: bytes).entries } ?? []
    }
}
