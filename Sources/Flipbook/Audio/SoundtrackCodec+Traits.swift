/// What a soundtrack codec choice takes, for a caller that checks a soundtrack's settings before the
/// movie is made (the command-line tool asks these rather than naming codecs).
extension SoundtrackCodec {
    /// The codec as people write it: `AAC`, `Opus`, `ALAC`; `copy` for ``copy``, which names no codec.
    public var displayName: String { encoder?.name ?? name }

    /// Whether the sound is encoded (every choice but ``copy``, whose packets are the source's).
    public var encodes: Bool { encoder != nil }

    /// Whether the encoder keeps every sample exactly (ALAC), so that ``Soundtrack/bitrate`` has
    /// nothing to set.
    public var isLossless: Bool { self == .alac }

    /// The one sample rate the encoder codes at whatever the source's (Opus: 48000), so that
    /// ``Soundtrack/keepsSampleRate`` cannot keep another; `nil` for a choice that carries the
    /// source's rate.
    public var fixedSampleRate: Int? { self == .opus ? OpusEncoder.sampleRate : nil }
}
