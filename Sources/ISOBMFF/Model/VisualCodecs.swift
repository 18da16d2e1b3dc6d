/// What the muxer and the readers know about one video codec's sample entry: its types, the box its
/// configuration record travels in, ffprobe's name for it and the `ftyp` brand an MP4 holding it names.
///
/// Every place that turns a sample entry type into something else (the inspection's codec name, the
/// box dump, the box parser's child offsets, the join's reading of a segment) reads ``VisualCodecs/all``,
/// so a new codec is one record here.
package struct VisualCodecRecord: Sendable, Equatable {
    /// The sample entry types, the one Flipbook writes first (`hvc1` before `hev1`).
    package let entryTypes: [FourCC]
    /// The child box that holds the codec configuration record (`avcC`, `hvcC`, `av1C`, `vpcC`), or `nil` for none.
    package let configurationBox: FourCC?
    /// The codec's name as ffprobe gives it (`h264`).
    package let probeName: String
    /// The `ftyp` compatible brand an MP4 holding the entry names, or `nil` for none.
    package let compatibleBrand: FourCC?
    /// Whether Flipbook writes the codec (and so a join can carry it); `false` for one only named in inspections.
    package var isWritten = true
    /// The profile each entry type stands for, as ffprobe names it, for a codec whose entry type is
    /// its profile (ProRes: `apch` is `HQ`); empty for the others.
    package var profileByEntryType: [String: String] = [:]
}

/// The video codecs whose sample entries Flipbook writes and reads.
package enum VisualCodecs {
    /// H.264, HEVC, AV1, VP9, ProRes (its six profiles' entries, 422 Proxy to 4444 XQ; no configuration
    /// record: each frame's header describes it), then MPEG-4 Part 2 (read only: named in inspections).
    package static let all: [VisualCodecRecord] = [
        VisualCodecRecord(
            entryTypes: ["avc1", "avc3"], configurationBox: "avcC", probeName: "h264", compatibleBrand: "avc1"),
        VisualCodecRecord(
            entryTypes: ["hvc1", "hev1"], configurationBox: "hvcC", probeName: "hevc", compatibleBrand: nil),
        VisualCodecRecord(
            entryTypes: ["av01"], configurationBox: "av1C", probeName: "av1", compatibleBrand: "av01"),
        // The VP9 binding names no brand, and ffmpeg's MP4 muxer writes none for it. Matroska's VP9
        // takes no configuration record (its CodecPrivate is a list of feature IDs, all optional).
        VisualCodecRecord(
            entryTypes: ["vp09"], configurationBox: "vpcC", probeName: "vp9", compatibleBrand: nil),
        VisualCodecRecord(
            entryTypes: ["apch", "apcn", "apcs", "apco", "ap4h", "ap4x"], configurationBox: nil, probeName: "prores",
            compatibleBrand: nil,
            profileByEntryType: [
                "apco": "Proxy", "apcs": "LT", "apcn": "Standard", "apch": "HQ", "ap4h": "4444", "ap4x": "XQ",
            ]),
        // FFV1 as ffmpeg's QuickTime muxer writes it: its version 3 configuration record in `glbl`.
        VisualCodecRecord(entryTypes: ["FFV1"], configurationBox: "glbl", probeName: "ffv1", compatibleBrand: nil),
        VisualCodecRecord(
            entryTypes: ["mp4v"], configurationBox: nil, probeName: "mpeg4", compatibleBrand: nil, isWritten: false),
    ]

    /// The record of a sample entry type, or `nil` when it is not a video codec Flipbook knows.
    package static func record(forEntryType type: String) -> VisualCodecRecord? {
        all.first { record in record.entryTypes.contains { $0.description == type } }
    }

    /// The record ffprobe's codec name belongs to, or `nil`.
    package static func record(forProbeName name: String) -> VisualCodecRecord? {
        all.first { $0.probeName == name }
    }

    /// Every visual sample entry type, plus `encv` (an encrypted one): the boxes whose children start
    /// after the visual sample entry's fields.
    package static var visualEntryTypes: [String] {
        all.flatMap { $0.entryTypes.map(\.description) } + ["encv"]
    }
}
