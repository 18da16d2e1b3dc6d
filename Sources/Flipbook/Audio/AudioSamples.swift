/// The shape of uncompressed sound a ``MovieWriter`` takes from memory with
/// ``MovieWriter/append(audio:)``, encoded to AAC-LC.
public struct AudioFormat: Sendable, Hashable {
    /// Samples a second: one AAC has an index for, up to 48000 (8000, 11025, 12000, 16000, 22050, 24000, 32000,
    /// 44100 or 48000); for a WebM, whose sound is Opus, 48000.
    public var sampleRate: Int
    /// Channels: 1 to 6, or 8.
    public var channelCount: Int
    /// The AAC bit rate in bits a second; `nil` means 80 kb/s a channel (160 kb/s stereo).
    public var bitrate: Int?

    /// Creates a format.
    public init(sampleRate: Int, channelCount: Int, bitrate: Int? = nil) {
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.bitrate = bitrate
    }
}

/// Uncompressed sound from memory: each channel's samples as floats from -1 to 1, starting where
/// the previous ``MovieWriter/append(audio:)`` ended (the first at movie time zero).
public struct AudioSamples: Sendable {
    /// Each channel's samples, all of one length, in the writer's ``AudioFormat`` channel order.
    public var channels: [[Float]]

    /// Creates samples from each channel's values.
    public init(channels: [[Float]]) {
        self.channels = channels
    }
}
