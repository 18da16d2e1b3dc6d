import MediaModel

/// How Matroska writes one codec: its `CodecID`, its `CodecPrivate` made from the codec description,
/// and the facts its blocks need. ``MatroskaCodecs/all`` holds one per codec, keyed by the codec's
/// name as ffprobe gives it; a codec Matroska holds is one row here.
package struct MatroskaCodec: Sendable {
    /// The codec's name in the media model (`h264`, `opus`).
    package let name: String
    /// The Matroska codec ID.
    package let codecID: String
    /// Whether a WebM file may hold it (VP8, VP9, AV1, Opus, Vorbis).
    package var inWebM = false
    /// Bytes left off the front of every frame (ProRes's 8-byte frame header: size and `icpf`).
    package var strippedPrefix = 0
    /// The seek pre-roll in nanoseconds (Opus: 80 ms).
    package var seekPreRoll: UInt64 = 0
    /// Whether blocks carry each picture's alpha in `BlockAdditional` (VP8's and VP9's transparency).
    package var carriesAlphaBeside = false
    /// Whether sound past the movie's end is trimmed with the last block's `DiscardPadding`. FLAC's and
    /// ALAC's last frame keeps its overhang: ffmpeg 5.1's frame-threaded FLAC and ALAC decoders apply a
    /// `DiscardPadding` to an earlier frame than its own, and play a stretch twice.
    package var takesDiscardPadding = true
    /// Whether `CodecPrivate` follows the `Video` element rather than preceding it, for a configuration a
    /// reader checks against the picture's size as it parses it (MediaConch reads FFV1's slice raster
    /// against `PixelWidth`, and refuses it when the width is not yet known).
    package var privateAfterPictureFacts = false
    /// The `CodecPrivate` of a description, or `nil` for none.
    package var codecPrivate: @Sendable (any CodecDescription) throws -> [UInt8]? = { $0.codecConfiguration }

    init(_ name: String, _ codecID: String) {
        self.name = name
        self.codecID = codecID
    }
}

/// The codecs Flipbook writes in Matroska and WebM.
package enum MatroskaCodecs {
    package static let all: [MatroskaCodec] = {
        var prores = MatroskaCodec("prores", "V_PRORES")
        // The profile's four-character code is the whole CodecPrivate.
        prores.codecPrivate = { description in description.codecTag.map { Array($0.utf8) } }
        prores.strippedPrefix = 8
        var vp9 = MatroskaCodec("vp9", "V_VP9")
        vp9.inWebM = true
        vp9.carriesAlphaBeside = true
        // The feature list of the WebM codec mapping, read from the codec's own record.
        vp9.codecPrivate = { description in
            description.codecConfiguration.flatMap { VP9CodecFeatures(vpcC: $0)?.codecPrivate }
        }
        // FFV1's configuration record is checked against the picture's width as it is read.
        var ffv1 = MatroskaCodec("ffv1", "V_FFV1")
        ffv1.privateAfterPictureFacts = true
        var av1 = MatroskaCodec("av1", "V_AV1")
        av1.inWebM = true
        var aac = MatroskaCodec("aac", "A_AAC")
        aac.codecPrivate = { description in
            guard let config = description.codecConfiguration, !config.isEmpty else {
                throw MuxingError.codecNotHeld("AAC without its AudioSpecificConfig", in: "Matroska")
            }
            return config
        }
        var mp3 = MatroskaCodec("mp3", "A_MPEG/L3")
        mp3.codecPrivate = { _ in nil }
        var opus = MatroskaCodec("opus", "A_OPUS")
        opus.inWebM = true
        opus.seekPreRoll = 80_000_000
        var vorbis = MatroskaCodec("vorbis", "A_VORBIS")
        vorbis.inWebM = true
        var flac = MatroskaCodec("flac", "A_FLAC")
        flac.takesDiscardPadding = false
        var alac = MatroskaCodec("alac", "A_ALAC")
        alac.takesDiscardPadding = false
        // Each AC-3 and E-AC-3 frame states its own configuration.
        var ac3 = MatroskaCodec("ac3", "A_AC3")
        ac3.codecPrivate = { _ in nil }
        var eac3 = MatroskaCodec("eac3", "A_EAC3")
        eac3.codecPrivate = { _ in nil }
        return [
            MatroskaCodec("h264", "V_MPEG4/ISO/AVC"), MatroskaCodec("hevc", "V_MPEGH/ISO/HEVC"), av1, vp9, prores, ffv1,
            aac, mp3, opus, vorbis, flac, alac, ac3, eac3,
        ]
    }()

    /// The row of a codec name, or `nil` for a codec Matroska is not written with here.
    package static func codec(named name: String) -> MatroskaCodec? {
        all.first { $0.name == name }
    }

    /// The row of a Matroska codec ID, or `nil`.
    package static func codec(withID codecID: String) -> MatroskaCodec? {
        all.first { $0.codecID == codecID }
    }

    /// ffprobe's name for `codecID`: a written codec's, one only read (VP8, MP2, PCM), or the ID itself
    /// for one in neither.
    package static func probeName(ofCodecID codecID: String) -> String {
        codec(withID: codecID)?.name ?? readOnlyNames[codecID] ?? codecID
    }

    /// Codecs a Matroska file may hold that Flipbook reads (to name them) but does not write.
    private static let readOnlyNames: [String: String] = [
        "V_VP8": "vp8", "A_MPEG/L2": "mp2", "A_PCM/INT/LIT": "pcm_s16le",
    ]

    /// The codec IDs WebM holds, for the error that names them.
    package static var webMNames: String { "VP8, VP9, AV1, Opus, Vorbis" }
}
