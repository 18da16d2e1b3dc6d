/// ffprobe's names for the Matroska codec IDs of sound and of pictures that ``ISOBMFF/VisualCodecs``
/// does not list: a table, looked up by ``probeName(_:)``.
package enum MatroskaCodecNames {
    /// ffprobe's name for `codecID`, or the ID itself for one not in the table.
    package static func probeName(_ codecID: String) -> String {
        names[codecID] ?? codecID
    }

    private static let names: [String: String] = [
        "V_VP8": "vp8", "V_VP9": "vp9", "V_AV1": "av1", "V_MPEG4/ISO/AVC": "h264", "V_MPEGH/ISO/HEVC": "hevc",
        "V_PRORES": "prores", "A_OPUS": "opus", "A_VORBIS": "vorbis", "A_AAC": "aac", "A_MPEG/L3": "mp3",
        "A_MPEG/L2": "mp2", "A_FLAC": "flac", "A_ALAC": "alac", "A_AC3": "ac3", "A_EAC3": "eac3",
        "A_PCM/INT/LIT": "pcm_s16le",
    ]
}
