import MediaModel

/// A codec description as an MP4 writes it in its sample description (`stsd`): one sample entry box
/// such as `avc1` with `avcC`; the kind of media decides the handler and media header boxes.
///
/// An encoder or a sound reader that makes samples for MP4 hands its entry to the muxer, which writes
/// it without knowing the codec; other containers read the same value as a ``CodecDescription``.
package protocol SampleEntry: CodecDescription {
    /// Writes the sample entry box (for example `avc1` and its children) inside `stsd`.
    ///
    /// - Parameter isQuickTime: Whether the file is a QuickTime movie, for entries whose layout differs.
    func write(to writer: inout ByteWriter, isQuickTime: Bool)
    /// The `ftyp` compatible brand an MP4 holding this entry names (`avc1` for H.264, `av01` for AV1),
    /// or `nil` for none.
    var compatibleBrand: FourCC? { get }
    /// The version of the `stsd` that holds this entry: 1 for an MP4's version 1 audio sample entry, 0 otherwise.
    func descriptionVersion(isQuickTime: Bool) -> UInt8
}

extension SampleEntry {
    /// No brand of its own.
    package var compatibleBrand: FourCC? { nil }
    /// A version 0 `stsd`.
    package func descriptionVersion(isQuickTime: Bool) -> UInt8 { 0 }
}

extension MediaKind {
    /// The handler type written in `hdlr`: `vide` with `vmhd`, `soun` with `smhd` at full volume, or
    /// `tmcd` with QuickTime's `gmhd` (an MP4's `nmhd`).
    package var handlerType: FourCC {
        switch self {
        case .video: "vide"
        case .audio: "soun"
        case .timecode: "tmcd"
        }
    }

    /// The handler name written in `hdlr`.
    package var handlerName: String {
        switch self {
        case .video: "VideoHandler"
        case .audio: "SoundHandler"
        case .timecode: "TimeCodeHandler"
        }
    }
}

extension Track {
    /// The track's description as an MP4 sample entry.
    ///
    /// - Throws: ``MuxingError`` for a codec made for another container only.
    package func sampleEntry() throws -> any SampleEntry {
        guard let entry = codec as? any SampleEntry else { throw MuxingError.codecNotHeld(codec.codecName, in: "MP4") }
        return entry
    }
}
