import ISOBMFF

/// A sound encoder as the encoded soundtrack sees it: planar float samples in, packets of
/// ``frameSize`` samples out, and the sample entry that describes them.
///
/// AAC-LC (``AACEncoder``) is what MP4, MOV and Matroska get; Opus (``OpusEncoder``) is what WebM gets.
protocol SoundEncoder: AnyObject {
    /// Samples a packet holds.
    var frameSize: Int { get }
    /// Samples the first packets decode to before the first input sample (the edit list steps over them).
    var priming: Int { get }
    /// The codec's name as ffprobe gives it.
    var codecName: String { get }
    /// The sample entry of the track the packets make, for a stream of `bitrate` bits a second.
    func sampleEntry(bitrate: Int) -> any SampleEntry
    /// Encodes up to ``frameSize`` samples of each channel; returns the packets that are ready.
    func encode(_ planes: [ArraySlice<Float>]) throws -> [[UInt8]]
    /// Drains the encoder: the packets it still holds.
    func flush() throws -> [[UInt8]]
}

/// The sound codecs Flipbook encodes a soundtrack with.
enum SoundCodec: Sendable {
    /// AAC-LC, for MP4, MOV and Matroska.
    case aac
    /// Opus at 48 kHz, for WebM.
    case opus
    /// Apple Lossless, for MP4, MOV and Matroska.
    case alac

    /// The codec a container's soundtrack is encoded with.
    init(for container: MovieContainer) {
        self = container == .webm ? .opus : .aac
    }

    /// The codec as a message names it.
    var name: String {
        switch self {
        case .aac: "AAC"
        case .opus: "Opus"
        case .alac: "ALAC"
        }
    }

    /// The rate sound of `rate` samples a second is encoded at: its own where the codec carries it
    /// and it is at most 48 kHz (higher rates only make files larger) or `keepingRate` asks for it, 48 kHz
    /// otherwise.
    func carriedRate(_ rate: Int, keepingRate: Bool = false) -> Int {
        switch self {
        case .aac: (rate <= 48000 || keepingRate) && PCMSound.aacSampleRates.contains(rate) ? rate : 48000
        case .opus: OpusEncoder.sampleRate
        case .alac: rate <= 48000 || keepingRate && rate <= ALACEncoder.maximumRate ? rate : 48000
        }
    }

    /// Whether the codec carries rates other than 48 kHz, so that ``Soundtrack/keepsSampleRate`` applies.
    var carriesOtherRates: Bool { self != .opus }

    /// The channels sound of `count` channels is encoded in: its own where the codec carries them,
    /// otherwise mixed to 5.1 (AAC, from 7) or 7.1 (from more than 8).
    func carriedChannels(_ count: Int) -> Int {
        switch count {
        case 1...6, 8: count
        case 7: self == .aac ? 6 : 7
        default: 8
        }
    }

    /// The layout, by FFmpeg's name, of `count` channels as the codec carries them: AAC's channel
    /// configurations 1 to 7 (ISO/IEC 14496-3, written without a program config element), Opus's Vorbis
    /// channel order (mapping family 1, RFC 7845 §5.1.1.2).
    func layoutName(channels count: Int) -> String {
        let names: [String] =
            switch self {
            case .aac: ["mono", "stereo", "3.0", "4.0", "5.0", "5.1", "5.1", "7.1"]
            case .opus: ["mono", "stereo", "3.0", "quad", "5.0", "5.1", "6.1", "7.1"]
            case .alac: ["mono", "stereo", "3.0", "4.0", "5.0", "5.1", "6.1(back)", "7.1(wide)"]
            }
        return names[min(max(count, 1), names.count) - 1]
    }

    /// The bit rate when none is asked for.
    func defaultBitrate(channels: Int) -> Int {
        switch self {
        case .aac: 80_000 * channels
        case .opus: 64_000 * channels
        case .alac: 0
        }
    }
}

extension AACEncoder: SoundEncoder {
    var codecName: String { "aac" }

    func sampleEntry(bitrate: Int) -> any SampleEntry {
        var entry = MPEG4AudioSampleEntry(
            objectTypeIndication: 0x40, decoderSpecificInfo: audioSpecificConfig, channelCount: UInt16(channels),
            sampleRate: UInt32(sampleRate), averageBitrate: UInt32(bitrate), bufferSize: UInt32(768 * channels))
        entry.channelMask = SoundLayout.mask(named: SoundCodec.aac.layoutName(channels: channels))
        return entry
    }
}
