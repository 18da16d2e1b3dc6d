/// How the encoder decides how many bits each picture gets.
///
/// ```swift
/// settings.rateControl = .targetSize(bytes: 8_000_000)          // fits an 8 MB upload limit
/// settings.rateControl = .averageBitrate(2_500_000, passes: 2)  // 2.5 Mb/s, two passes
/// ```
public enum RateControl: Sendable, Hashable {
    /// Constant quality at ``VideoSettings/crf`` (the default): the file's size follows the pictures.
    case constantQuality
    /// An average rate over the whole movie, in bits per second of video, reached in one pass (within
    /// about 10%) or two (within about 3%; the first pass only measures, and the images are decoded twice).
    case averageBitrate(Int, passes: Int = 1)
    /// A size for the whole file in bytes (pictures, sound and container together): two passes at the
    /// rate that lands the file at or just under it; an encode that lands over the size is encoded again
    /// at a rate scaled down, and a file over the size is never published.
    case targetSize(bytes: Int64)

    /// The passes the encoder makes: 2 for a target size.
    public var passes: Int {
        switch self {
        case .constantQuality: 1
        case .averageBitrate(_, let passes): passes
        case .targetSize: 2
        }
    }

    /// The average rate the encoder is given, in bits per second; `nil` for constant quality. A target
    /// size is turned into a rate before the encoder is opened.
    public var averageRate: Int? {
        if case .averageBitrate(let rate, _) = self { return rate }
        return nil
    }

    /// The smallest target size worth trying for `frames` frames: the container's index and the
    /// smallest picture an encoder makes (together about 32 bytes a frame), and 2 KB for the rest.
    public static func smallestTargetSize(frames: Int) -> Int64 {
        2048 + Int64(frames) * 32
    }

    /// `bits` in whole kilobits, rounded, at least one: x264's and x265's unit for rates and buffers.
    static func kilobits(_ bits: Int) -> Int { max(1, (bits + 500) / 1000) }

    /// Average bit rates the encoders take, in bits per second: 1 kb/s to 1 Gb/s.
    public static let bitrateRange: ClosedRange<Int> = 1000...1_000_000_000
}

/// A cap on the video's bit rate over a decoder's buffer (the VBV of H.264 and HEVC, a leaky bucket):
/// the buffer fills at ``maxBitrate`` and each picture takes its size out at its decode time, never
/// emptying it. Streaming and device profiles ask for one; it goes with constant quality or an
/// average bit rate.
public struct RateLimit: Sendable, Hashable {
    /// The rate the buffer fills at, in bits per second.
    public var maxBitrate: Int
    /// The buffer's size in bits; one or two seconds of ``maxBitrate`` is usual.
    public var bufferSize: Int

    /// Creates a limit.
    public init(maxBitrate: Int, bufferSize: Int) {
        self.maxBitrate = maxBitrate
        self.bufferSize = bufferSize
    }
}

/// The longest distance between keyframes: a number of frames, or a time the frame rate turns into one.
public enum KeyframeInterval: Sendable, Hashable {
    /// At most this many frames from one keyframe to the next.
    case frames(Int)
    /// At most this long from one keyframe to the next, rounded down to whole frames (at least one).
    case duration(MediaTime)

    /// The interval in frames at `frameRate`.
    public func frames(at frameRate: FrameRate) -> Int {
        switch self {
        case .frames(let count): return count
        case .duration(let time):
            let frames = (time.seconds * frameRate.framesPerSecond).rounded(.down)
            return frames.isFinite ? Int(max(1, min(frames, Double(Int32.max)))) : Int(Int32.max)
        }
    }
}

/// One option handed to the encoder's own parser as it is (x264's `--x264-params` names, x265's
/// `--x265-params` names, SVT-AV1's `--svtav1-params` names): it overrides what Flipbook set.
public struct EncoderParameter: Sendable, Hashable {
    /// The encoder's name for the option, such as `aq-mode`.
    public var key: String
    /// Its value as the encoder spells it, such as `3`.
    public var value: String

    /// Creates a parameter.
    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }

    /// The error for a parameter `encoder`'s parser refused (`status`, from `function` of `library`):
    /// an unknown name when `unknownName`, otherwise a value it does not take.
    func refusal(by encoder: String, unknownName: Bool, library: String, function: String, status: Int32)
        -> FlipbookError
    {
        .parameterRefused(
            key, value: value, unknownName: unknownName, by: encoder,
            cause: LibraryCallError(library: library, function: function, status: Int(status)))
    }

    /// Parses `key=value:key=value`, as ffmpeg's `-x264-params` takes them; `nil` when a pair has no `=`
    /// or an empty key.
    public static func list(parsing text: String) -> [EncoderParameter]? {
        var parameters: [EncoderParameter] = []
        for pair in text.split(separator: ":", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else { return nil }
            parameters.append(
                EncoderParameter(key: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...])))
        }
        return parameters.isEmpty ? nil : parameters
    }
}

/// One of two passes over the same pictures: the first writes the encoder's statistics to a file (its
/// movie is written to the private folder and removed), the second reads them to spend its bits where
/// they count.
enum EncoderPass: Sendable, Hashable {
    case first(statistics: String)
    case second(statistics: String)

    /// The statistics file's path.
    var statistics: String {
        switch self {
        case .first(let path), .second(let path): path
        }
    }
}
