/// The IDs a reader meets beyond those Flipbook writes, which elements hold others, and names for
/// messages.
extension EBMLID {
    // Elements other muxers write that a reader passes over or stops at.
    package static let crc32 = EBMLID(0xBF)
    package static let chapters = EBMLID(0x1043_A770)
    package static let attachments = EBMLID(0x1941_A469)
    package static let position = EBMLID(0xA7)
    package static let prevSize = EBMLID(0xAB)
    package static let silentTracks = EBMLID(0x5854)
    package static let encryptedBlock = EBMLID(0xAF)
    package static let contentEncodings = EBMLID(0x6D80)
    package static let contentEncoding = EBMLID(0x6240)
    package static let tagTrackUID = EBMLID(0x63C5)
    package static let targetTypeValue = EBMLID(0x68CA)
    package static let targetType = EBMLID(0x63CA)
    package static let trackName = EBMLID(0x536E)
    package static let blockAdditionMapping = EBMLID(0x41E4)

    /// The elements whose data is other elements, as far as a reader looks into them.
    package static let masters: Set<EBMLID> = [
        .ebml, .segment, .seekHead, .seek, .info, .tracks, .trackEntry, .video, .audio, .colour, .masteringMetadata,
        .projection,
        .cluster, .blockGroup, .blockAdditions, .blockMore, .cues, .cuePoint, .cueTrackPositions, .tags, .tag,
        .targets, .simpleTag, .contentEncodings, .contentEncoding, .blockAdditionMapping,
    ]

    /// The elements that lie directly in a `Segment`: where a `Cluster` of unknown size ends.
    package static let segmentChildren: Set<EBMLID> = [
        .seekHead, .info, .tracks, .cluster, .cues, .tags, .chapters, .attachments,
    ]

    /// The elements that lie in a `Cluster`.
    package static let clusterChildren: Set<EBMLID> = [
        .timestamp, .simpleBlock, .blockGroup, .void, .crc32, .position, .prevSize, .silentTracks, .encryptedBlock,
    ]

    /// The specification's name of the element, for messages: `Cluster`, `SimpleBlock`.
    package var name: String? { Self.names[self] }

    private static let names: [EBMLID: String] = [
        .ebml: "EBML header", .docType: "DocType", .segment: "Segment", .seekHead: "SeekHead", .info: "Info",
        .timestampScale: "TimestampScale", .duration: "Duration", .dateUTC: "DateUTC", .title: "Title",
        .tracks: "Tracks", .trackEntry: "TrackEntry", .trackNumber: "TrackNumber", .trackType: "TrackType",
        .codecID: "CodecID", .codecPrivate: "CodecPrivate", .video: "Video", .audio: "Audio", .colour: "Colour",
        .cluster: "Cluster", .timestamp: "Timestamp", .simpleBlock: "SimpleBlock", .blockGroup: "BlockGroup",
        .block: "Block", .blockDuration: "BlockDuration", .blockAdditions: "BlockAdditions",
        .blockMore: "BlockMore", .blockAdditional: "BlockAdditional", .discardPadding: "DiscardPadding",
        .cues: "Cues", .tags: "Tags", .tag: "Tag", .simpleTag: "SimpleTag", .tagName: "TagName",
        .tagString: "TagString", .tagBinary: "TagBinary", .void: "Void", .chapters: "Chapters",
        .attachments: "Attachments",
    ]
}
