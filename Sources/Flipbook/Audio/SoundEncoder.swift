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

    /// The codec a container's soundtrack is encoded with.
    init(for container: MovieContainer) {
        self = container == .webm ? .opus : .aac
    }

    /// The bit rate when none is asked for.
    func defaultBitrate(channels: Int) -> Int {
        switch self {
        case .aac: 80_000 * channels
        case .opus: 64_000 * channels
        }
    }
}

extension AACEncoder: SoundEncoder {
    var codecName: String { "aac" }

    func sampleEntry(bitrate: Int) -> any SampleEntry {
        MPEG4AudioSampleEntry(
            objectTypeIndication: 0x40, decoderSpecificInfo: audioSpecificConfig, channelCount: UInt16(channels),
            sampleRate: UInt32(sampleRate), averageBitrate: UInt32(bitrate), bufferSize: UInt32(768 * channels))
    }
}
