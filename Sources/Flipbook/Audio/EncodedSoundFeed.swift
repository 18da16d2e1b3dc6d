import ISOBMFF

/// Encodes uncompressed sound in step with the pictures, cut at the sample where the pictures end:
/// to AAC-LC, or for WebM to Opus (the sound resampled to 48 kHz first when it is at another rate).
///
/// The encoded stream starts at movie time zero: a positive offset is encoded as silence, a
/// negative one skips the sound's first samples, and looping sound repeats sample for sample. The
/// stream ends where the pictures end or the sound does; the edit list steps over the encoder's
/// delay and ends there too, so playback starts on the first sample and stops on the last.
struct EncodedSoundFeed: SoundFeed {
    private(set) var sound: PCMSound
    private let encoder: any SoundEncoder
    private let entry: any SampleEntry
    let movieTimescale: Int64
    /// Where sound sample zero plays, in samples of the movie's sound.
    let offset: Int64
    let loops: Bool
    /// Samples given to the encoder so far.
    private var encoded: Int64 = 0

    /// A feed for sound in memory, all of it (a file's) or the first of it (``append(_:)`` adds more).
    init(sound: PCMSound, soundtrack: Soundtrack, movieTimescale: Int32, codec: SoundCodec = .aac) throws {
        try self.init(
            sound: sound, offset: soundtrack.offset, loops: soundtrack.loops, bitrate: soundtrack.bitrate,
            movieTimescale: movieTimescale, codec: codec)
        if !loops && offset <= -Int64(sound.frameCount) {
            throw FlipbookError(
                .invalidSettings,
                "the audio offset \(soundtrack.offset) skips all of the sound, which lasts "
                    + "\(Double(sound.frameCount) / Double(sound.sampleRate)) s", path: sound.path)
        }
    }

    init(
        sound: PCMSound, offset: MediaTime, loops: Bool, bitrate: Int?, movieTimescale: Int32,
        codec: SoundCodec = .aac
    ) throws {
        var sound = sound
        let bitrate = bitrate ?? codec.defaultBitrate(channels: sound.channelCount)
        switch codec {
        case .aac:
            try sound.checkAACCanCarry()
            encoder = try AACEncoder(sampleRate: sound.sampleRate, channels: sound.channelCount, bitrate: bitrate)
        case .opus:
            encoder = try OpusEncoder(channels: sound.channelCount, bitrate: bitrate, path: sound.path)
            if sound.path == Self.fromMemory, sound.sampleRate != OpusEncoder.sampleRate {
                throw FlipbookError(
                    .invalidAudio,
                    "is at \(sound.sampleRate) Hz; a WebM's sound is Opus, encoded at 48000 Hz, so give sound from "
                        + "memory at 48000 Hz", path: sound.path)
            }
            sound = try sound.resampled(to: OpusEncoder.sampleRate)
        }
        self.sound = sound
        self.movieTimescale = Int64(movieTimescale)
        self.loops = loops
        self.offset = offset.ticks(atRate: Int64(sound.sampleRate))
        entry = encoder.sampleEntry(bitrate: bitrate)
    }

    /// The name of sound given from memory, in messages.
    static let fromMemory = "sound from memory"

    /// Adds sound after what the feed holds, for sound given from memory.
    mutating func append(_ channels: [[Float]]) {
        for (index, samples) in channels.enumerated() { sound.planes[index] += samples }
    }

    var timescale: UInt32 { UInt32(sound.sampleRate) }
    var codecName: String { encoder.codecName }
    var channelCount: Int { sound.channelCount }

    /// Where the sound ends on the movie's timeline, in samples; `nil` when it loops.
    private var soundEnd: Int64? { loops ? nil : offset + Int64(sound.frameCount) }

    /// Samples of sound in a movie ending at movie tick `movieEnd`.
    private func length(movieEnd: Int64) -> Int64 {
        let pictures = (movieEnd * Int64(sound.sampleRate) + movieTimescale / 2) / movieTimescale
        return min(pictures, soundEnd ?? pictures)
    }

    func track(movieEnd: Int64?) -> Track {
        let duration = movieEnd.map { length(movieEnd: $0) * movieTimescale / Int64(sound.sampleRate) } ?? 0
        return Track(
            trackID: 2, timescale: timescale, sampleEntry: entry,
            editList: [EditListEntry(segmentDuration: UInt64(max(0, duration)), mediaTime: Int64(encoder.priming))])
    }

    mutating func samples(through movieTime: Int64) throws -> [MediaSample] {
        var target = movieTime * Int64(sound.sampleRate) / movieTimescale
        if let soundEnd { target = min(target, soundEnd) }
        var out: [MediaSample] = []
        let frame = Int64(encoder.frameSize)
        while encoded + frame <= target { out += try encode(count: frame) }
        return out
    }

    mutating func finish(movieEnd: Int64) throws -> [MediaSample] {
        let end = length(movieEnd: movieEnd)
        var out: [MediaSample] = []
        while encoded < end { out += try encode(count: min(Int64(encoder.frameSize), end - encoded)) }
        out += try encoder.flush().map { MediaSample(data: $0, duration: UInt32(encoder.frameSize), isSync: true) }
        return out
    }

    /// Encodes the next `count` samples of the movie's sound.
    private mutating func encode(count: Int64) throws -> [MediaSample] {
        let planes = sound.planes.map { block(of: $0, from: encoded, count: Int(count)) }
        encoded += count
        return try encoder.encode(planes).map {
            MediaSample(data: $0, duration: UInt32(encoder.frameSize), isSync: true)
        }
    }

    /// `count` samples of a channel from movie sample `start`: silence before the offset, the sound
    /// (repeated when it loops), silence after it.
    private func block(of plane: [Float], from start: Int64, count: Int) -> ArraySlice<Float> {
        let length = Int64(plane.count)
        var first = start - offset
        if first >= 0 && first + Int64(count) <= length { return plane[Int(first)..<Int(first) + count] }
        var out = [Float](repeating: 0, count: count)
        for index in 0..<count {
            var position = first
            first += 1
            if position < 0 { continue }
            if loops { position %= length }
            if position < length { out[index] = plane[Int(position)] }
        }
        return out[...]
    }
}
