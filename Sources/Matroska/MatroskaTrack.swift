import ISOBMFF

/// One track as Matroska describes it: its `CodecID`, `CodecPrivate` and the facts its blocks need,
/// read from the sample entry the encoder or the sound reader made for MP4.
///
/// A codec is one mapping here, from the same sample entry: a configuration record (`avcC`, `hvcC`,
/// `av1C`) is `CodecPrivate` as it is, an AAC AudioSpecificConfig is, and an Opus entry's `OpusHead`
/// is. ProRes frames lose the 8-byte frame header (size and `icpf`) Matroska leaves out.
package struct MatroskaTrack: Sendable {
    /// The track's number in blocks, from 1.
    package let number: Int
    /// Whether the track holds pictures.
    package let isVideo: Bool
    /// The Matroska codec ID.
    package let codecID: String
    /// The codec's configuration, or `nil` for none.
    package let codecPrivate: [UInt8]?
    /// Bytes left off the front of every frame (ProRes's frame header).
    package let strippedPrefix: Int
    /// Samples a second and channels, for sound.
    package let sampleRate: Double
    package let channels: Int
    /// Time the decoder discards before the first sample it plays, in nanoseconds (the sound's
    /// media start: encoder delay, Opus's pre-skip); Matroska subtracts it from every block's time.
    /// The session sets it from the track's edit list; 0 until then.
    package var decoderDelay: UInt64 = 0
    /// Whether sound past the movie's end is trimmed with the last block's `DiscardPadding`. FLAC's
    /// and ALAC's last frame keeps its overhang: ffmpeg 5.1's frame-threaded FLAC and ALAC decoders
    /// apply a `DiscardPadding` to an earlier frame than its own, and play a stretch twice.
    package var takesDiscardPadding: Bool { codecID != "A_FLAC" && codecID != "A_ALAC" }
    /// Whether blocks carry each picture's alpha as a picture of its own in `BlockAdditional` (VP8's
    /// and VP9's transparency: `AlphaMode` 1, `MaxBlockAdditionID` 1).
    package let keepsAlpha: Bool
    /// The seek pre-roll in nanoseconds (Opus: 80 ms).
    package let seekPreRoll: UInt64
    /// The codecs WebM holds.
    package static let webMCodecs: Set<String> = ["V_VP8", "V_VP9", "V_AV1", "A_OPUS", "A_VORBIS"]

    /// Reads track `track`'s facts.
    ///
    /// - Throws: ``ISOBMFFError`` with `.invalidTrack` for a codec Matroska is not written with here.
    package init(_ track: Track, number: Int) throws {
        self.number = number
        var strippedPrefix = 0
        var sampleRate = 0.0
        var channels = 0
        var seekPreRoll: UInt64 = 0
        switch track.sampleEntry {
        case let entry as VideoSampleEntry:
            isVideo = true
            guard let record = VisualCodecs.record(forEntryType: entry.format.description),
                let id = record.matroskaCodecID
            else { throw Self.unwritable(entry.format.description) }
            codecID = id
            if id == "V_PRORES" {
                codecPrivate = entry.format.bytes
                strippedPrefix = 8
            } else if id == "V_VP9" {
                codecPrivate = entry.configuration.flatMap { VP9CodecFeatures(vpcC: $0.payload)?.codecPrivate }
            } else {
                codecPrivate = entry.configuration.flatMap { $0.payload.isEmpty ? nil : $0.payload }
            }
        case let entry as MPEG4AudioSampleEntry:
            isVideo = false
            (codecID, codecPrivate) = try Self.mpeg4Audio(entry.objectTypeIndication, entry.decoderSpecificInfo)
            sampleRate = Double(entry.sampleRate)
            channels = Int(entry.channelCount)
        case let entry as CopiedAudioSampleEntry:
            isVideo = false
            guard entry.type == "mp4a", let objectType = entry.objectTypeIndication else {
                throw Self.unwritable(entry.type)
            }
            (codecID, codecPrivate) = try Self.mpeg4Audio(objectType, entry.decoderSpecificInfo ?? [])
            sampleRate = Double(entry.sampleRate)
            channels = entry.channelCount
        case let entry as FLACSampleEntry:
            isVideo = false
            codecID = "A_FLAC"
            codecPrivate = entry.streamHeader
            sampleRate = Double(entry.sampleRate)
            channels = entry.channelCount
        case let entry as VorbisSampleEntry:
            isVideo = false
            codecID = "A_VORBIS"
            codecPrivate = entry.codecPrivate
            sampleRate = Double(entry.sampleRate)
            channels = entry.channelCount
        case let entry as ALACSampleEntry:
            isVideo = false
            codecID = "A_ALAC"
            codecPrivate = entry.specificConfig
            sampleRate = Double(entry.sampleRate)
            channels = entry.channelCount
        case let entry as AC3SampleEntry:
            isVideo = false
            codecID = entry.isEnhanced ? "A_EAC3" : "A_AC3"
            codecPrivate = nil  // each frame states its own configuration
            sampleRate = Double(entry.sampleRate)
            channels = entry.channelCount
        case let entry as OpusSampleEntry:
            isVideo = false
            codecID = "A_OPUS"
            codecPrivate = entry.opusHead
            sampleRate = 48000
            channels = Int(entry.opusHead[9])
            seekPreRoll = 80_000_000
        default:
            throw Self.unwritable("this sound")
        }
        self.strippedPrefix = strippedPrefix
        self.sampleRate = sampleRate
        self.channels = channels
        let video = track.sampleEntry as? VideoSampleEntry
        keepsAlpha = (video?.hasAlpha ?? false) && ["V_VP8", "V_VP9"].contains(codecID)
        self.seekPreRoll = seekPreRoll
    }

    /// AAC (with its AudioSpecificConfig) or MP3, by the entry's object type.
    private static func mpeg4Audio(_ objectType: UInt8, _ config: [UInt8]) throws -> (String, [UInt8]?) {
        switch objectType {
        case 0x40, 0x66, 0x67, 0x68:
            guard !config.isEmpty else { throw unwritable("AAC without its AudioSpecificConfig") }
            return ("A_AAC", config)
        case 0x69, 0x6B: return ("A_MPEG/L3", nil)
        default: throw unwritable("MPEG-4 audio of object type \(objectType)")
        }
    }

    private static func unwritable(_ what: String) -> ISOBMFFError {
        ISOBMFFError(.invalidTrack, "\(what) is not written in Matroska files")
    }

    /// Writes the `TrackEntry` element.
    ///
    /// - Parameters:
    ///   - track: The track the facts were read from.
    ///   - frameDuration: A picture's nominal length in nanoseconds, for `DefaultDuration`; `nil` for none.
    package func write(_ track: Track, frameDuration: UInt64?, to writer: inout EBMLWriter) {
        writer.master(.trackEntry) { w in
            w.unsigned(.trackNumber, UInt64(number))
            w.unsigned(.trackUID, UInt64(number))
            w.unsigned(.trackType, isVideo ? 1 : 2)
            w.unsigned(.flagLacing, 0)
            if let frameDuration, frameDuration > 0 { w.unsigned(.defaultDuration, frameDuration) }
            if keepsAlpha { w.unsigned(.maxBlockAdditionID, 1) }
            w.string(.language, "und")
            w.string(.codecID, codecID)
            if let codecPrivate { w.binary(.codecPrivate, codecPrivate) }
            if decoderDelay > 0 { w.unsigned(.codecDelay, decoderDelay) }
            if seekPreRoll > 0 { w.unsigned(.seekPreRoll, seekPreRoll) }
            if let entry = track.sampleEntry as? VideoSampleEntry {
                w.master(.video) { w in
                    w.unsigned(.pixelWidth, UInt64(entry.width))
                    w.unsigned(.pixelHeight, UInt64(entry.height))
                    let aspect = entry.pixelAspectRatio
                    if aspect != .square, aspect.vSpacing > 0 {
                        let shown =
                            (UInt64(entry.width) * UInt64(aspect.hSpacing) + UInt64(aspect.vSpacing) / 2)
                            / UInt64(aspect.vSpacing)
                        w.unsigned(.displayWidth, shown)
                        w.unsigned(.displayHeight, UInt64(entry.height))
                    }
                    if keepsAlpha { w.unsigned(.alphaMode, 1) }
                    w.master(.colour) { w in
                        let colour = entry.colour
                        w.unsigned(.matrixCoefficients, UInt64(colour.matrixCoefficients))
                        w.unsigned(.range, colour.fullRange ? 2 : 1)
                        w.unsigned(.transferCharacteristics, UInt64(colour.transferCharacteristics))
                        w.unsigned(.primaries, UInt64(colour.colourPrimaries))
                    }
                }
            } else {
                w.master(.audio) { w in
                    w.float(.samplingFrequency, sampleRate)
                    w.unsigned(.channels, UInt64(channels))
                }
            }
        }
    }
}
