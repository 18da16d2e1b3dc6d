import ISOBMFF

/// Everything Flipbook knows about one video codec's bitstream, in one place: its names, the sample
/// entry it is written with, where it may go, what it can carry (asked for by name: ``capability(_:)``),
/// its profiles and levels, what players decode, and the encoders that make it. ``VideoCodec`` reads it;
/// ``VideoCodecs`` holds one per codec. What each encoder can make is its ``VideoEncoderRecord``.
struct VideoCodecRecord: Sendable {
    /// The short name: `--codec`'s value and ffprobe's name.
    let name: String
    /// The name as people write it.
    let displayName: String
    /// What to choose it for, in a few words, for help text.
    let strength: String
    /// The sample entry type it is written with; ``VisualCodecs`` says the rest.
    let sampleEntryType: FourCC
    /// The containers it may be written as.
    let containers: [MovieContainer]
    /// What the bitstream can carry beyond 4:2:0 pictures in video range, and where.
    var capabilities: [CodecCapability: CapabilityScope] = [:]
    /// The profiles of ``CodecProfile`` its streams are written in, when asked for one.
    var profiles: [CodecProfile] = []
    /// The levels the codec's streams are marked with, from the lowest, and whether their picture
    /// sizes count whole 16x16 macroblocks (H.264).
    var levels: [LevelLimits] = []
    var levelsCountMacroblocks = false
    /// The largest picture most hardware decoders take, as a sentence's subject ("H.264 past
    /// 4096x2304 (level 5.2)"), and whether a size is past it.
    let decoderLimit: String
    let isPastDecoderLimit: @Sendable (_ width: Int, _ height: Int) -> Bool
    /// The widths and heights past which the file is heavy for what it is used for (an animated
    /// image in a chat or a web page), and the box a smaller size is advised within; `nil` for none.
    var heavySize: (limit: (width: Int, height: Int), advised: (width: Int, height: Int))? = nil
    /// The encoders that make the codec, the default first.
    let encoders: [VideoEncoderRecord]

    /// Where the bitstream carries `capability`, or `nil` when it cannot.
    func capability(_ capability: CodecCapability) -> CapabilityScope? { capabilities[capability] }

    /// ffprobe's name for the codec, from the sample entry's record.
    var probeName: String { VisualCodecs.record(forEntryType: sampleEntryType.description)?.probeName ?? name }
}

/// Something a codec's bitstream may carry, asked for by name rather than kept as a field of every record.
enum CodecCapability: Sendable, Hashable {
    /// An alpha (transparency) plane.
    case alpha
    /// Full-range code values (ProRes is video range only).
    case fullRange
}

/// Where a codec carries a capability: at which bit depths and in which containers (`nil`: all it has).
struct CapabilityScope: Sendable {
    var bitDepths: [Int]? = nil
    var containers: [MovieContainer]? = nil

    /// Everywhere the codec goes.
    static let everywhere = CapabilityScope()
}
