import ISOBMFF
import MediaModel

/// Encodes uncompressed sound in step with the pictures, cut at the sample where the pictures end:
/// to AAC-LC, or for WebM to Opus (the sound resampled to 48 kHz first when it is at another rate).
///
/// The encoded stream starts at movie time zero: a positive offset is encoded as silence, a
/// negative one skips the sound's first samples, and looping sound repeats sample for sample. The
/// stream ends where the pictures end or the sound does; the edit list steps over the encoder's
/// delay and ends there too, so playback starts on the first sample and stops on the last.
///
/// Sound decoded from a file by libavformat is decoded as the pictures need it: only the samples not yet
/// encoded are held (all of it when it loops, since each repeat plays it again).
struct EncodedSoundFeed: SoundFeed {
    /// All the sound (from memory, or looping), or, for a file decoded as it goes, the samples not yet
    /// encoded from sound sample ``bufferStart`` on.
    private(set) var sound: PCMSound
    private let encoder: any SoundEncoder
    private let entry: any SampleEntry
    let movieTimescale: Int64
    /// Where sound sample zero plays, in samples of the movie's sound.
    let offset: Int64
    let loops: Bool
    /// Samples given to the encoder so far.
    private var encoded: Int64 = 0
    /// The file being decoded as the pictures need it; `nil` when ``sound`` holds all the sound.
    private let stream: FormatSoundDecoder?
    /// The sound sample ``sound`` starts at.
    private var bufferStart: Int64 = 0
    /// The sound's length in samples, once the file being decoded has ended.
    private var streamLength: Int64?
    /// The offset as given, for messages.
    private let givenOffset: MediaTime
    private(set) var warnings: [String] = []

    /// A feed for sound in memory, all of it (a file's) or the first of it (``append(_:)`` adds more).
    init(sound: PCMSound, soundtrack: Soundtrack, movieTimescale: Int32, codec: SoundCodec = .aac) throws {
        try self.init(
            sound: sound, offset: soundtrack.offset, loops: soundtrack.loops, bitrate: soundtrack.bitrate,
            movieTimescale: movieTimescale, codec: codec, keepingRate: soundtrack.keepsSampleRate)
        try checkOffsetLeavesSound(length: Int64(sound.frameCount))
    }

    /// A feed for a sound file libavformat reads, decoded as the pictures need it (all at once when it loops).
    ///
    /// - Throws: `.invalidAudio` naming the file when it holds no sound or does not decode.
    init(decoding decoder: FormatSoundDecoder, soundtrack: Soundtrack, movieTimescale: Int32) throws {
        guard let first = try decoder.next() else {
            throw FlipbookError.soundtrackHoldsNoSound(path: decoder.path)
        }
        var sound = PCMSound(path: decoder.path, sampleRate: decoder.sampleRate, planes: first)
        if soundtrack.loops {
            while let block = try decoder.next() { sound.append(block) }
        }
        try self.init(
            sound: sound, offset: soundtrack.offset, loops: soundtrack.loops, bitrate: soundtrack.bitrate,
            movieTimescale: movieTimescale, codec: decoder.codec, keepingRate: decoder.keepsRate,
            bitDepth: decoder.sourceBitDepth, stream: soundtrack.loops ? nil : decoder)
        warnings = decoder.warning.map { [$0] } ?? []
        if soundtrack.loops { try checkOffsetLeavesSound(length: Int64(sound.frameCount)) }
    }

    init(
        sound: PCMSound, offset: MediaTime, loops: Bool, bitrate: Int?, movieTimescale: Int32,
        codec: SoundCodec = .aac, keepingRate: Bool = false, bitDepth: Int = 16, stream: FormatSoundDecoder? = nil
    ) throws {
        var sound = sound
        let bitrate = bitrate ?? codec.defaultBitrate(channels: sound.channelCount)
        let rate = codec.carriedRate(sound.sampleRate, keepingRate: keepingRate)
        if sound.path == Self.fromMemory, sound.sampleRate != rate {
            throw FlipbookError.soundFromMemoryAtOtherRate(
                sound.sampleRate, codec: codec.name, encodedAt: rate, path: sound.path)
        }
        sound = try sound.resampled(to: rate)
        switch codec {
        case .aac:
            try sound.checkAACCanCarry()
            encoder = try AACEncoder(sampleRate: sound.sampleRate, channels: sound.channelCount, bitrate: bitrate)
        case .opus:
            encoder = try OpusEncoder(channels: sound.channelCount, bitrate: bitrate, path: sound.path)
        case .alac:
            encoder = try ALACEncoder(
                sampleRate: sound.sampleRate, channels: sound.channelCount, bitDepth: bitDepth, path: sound.path)
        }
        self.sound = sound
        self.stream = stream
        self.movieTimescale = Int64(movieTimescale)
        self.loops = loops
        self.offset = offset.ticks(atRate: Int64(sound.sampleRate))
        givenOffset = offset
        entry = encoder.sampleEntry(bitrate: bitrate)
    }

    /// Throws `.invalidSettings` when the offset skips all of a sound `length` samples long that does not loop.
    private func checkOffsetLeavesSound(length: Int64) throws {
        if !loops && offset <= -length {
            throw FlipbookError.audioOffsetSkipsAllSound(
                givenOffset, lasting: Double(length) / Double(sound.sampleRate), path: sound.path)
        }
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

    /// The sound's length in samples; `nil` while a file being decoded has not ended.
    private var soundLength: Int64? { stream == nil ? Int64(sound.frameCount) : streamLength }

    /// Where the sound ends on the movie's timeline, in samples; `nil` when it loops or is not known yet.
    private var soundEnd: Int64? { loops ? nil : soundLength.map { offset + $0 } }

    /// Samples of sound in a movie ending at movie tick `movieEnd`.
    private func length(movieEnd: Int64) -> Int64 {
        let pictures = picturesLength(movieEnd: movieEnd)
        return min(pictures, soundEnd ?? pictures)
    }

    /// Samples of sound the pictures ending at movie tick `movieEnd` last.
    private func picturesLength(movieEnd: Int64) -> Int64 {
        (movieEnd * Int64(sound.sampleRate) + movieTimescale / 2) / movieTimescale
    }

    func track(movieEnd: Int64?) -> Track {
        let duration = movieEnd.map { length(movieEnd: $0) * movieTimescale / Int64(sound.sampleRate) } ?? 0
        return Track(
            trackID: TrackKind.audio.trackID, timescale: timescale, codec: entry,
            editList: [EditListEntry(segmentDuration: UInt64(max(0, duration)), mediaTime: Int64(encoder.priming))])
    }

    mutating func samples(through movieTime: Int64) throws -> [MediaSample] {
        let target = movieTime * Int64(sound.sampleRate) / movieTimescale
        var out: [MediaSample] = []
        let frame = Int64(encoder.frameSize)
        while encoded + frame <= target {
            try fill(through: encoded + frame)
            if let soundEnd, encoded + frame > soundEnd { break }
            out += try encode(count: frame)
        }
        return out
    }

    mutating func finish(movieEnd: Int64) throws -> [MediaSample] {
        let pictures = picturesLength(movieEnd: movieEnd)
        var out: [MediaSample] = []
        while encoded < pictures {
            try fill(through: min(encoded + Int64(encoder.frameSize), pictures))
            let end = min(pictures, soundEnd ?? pictures)
            guard encoded < end else { break }
            out += try encode(count: min(Int64(encoder.frameSize), end - encoded))
        }
        out += try encoder.flush().map { MediaSample(data: $0, duration: UInt32(encoder.frameSize), isSync: true) }
        return out
    }

    /// Decodes the file until the held samples reach movie sample `end`, or the file has ended.
    private mutating func fill(through end: Int64) throws {
        guard let stream else { return }
        while streamLength == nil && bufferStart + Int64(sound.frameCount) < end - offset {
            if let block = try stream.next() {
                sound.append(block)
            } else {
                streamLength = bufferStart + Int64(sound.frameCount)
                try checkOffsetLeavesSound(length: streamLength!)
            }
        }
    }

    /// Encodes the next `count` samples of the movie's sound.
    private mutating func encode(count: Int64) throws -> [MediaSample] {
        let planes = sound.planes.map { block(of: $0, from: encoded, count: Int(count)) }
        encoded += count
        if stream != nil {
            // A file decoded as it goes keeps only what is not yet encoded.
            let done = Int(min(max(0, encoded - offset - bufferStart), Int64(sound.frameCount)))
            if done > 0 {
                for channel in sound.planes.indices { sound.planes[channel].removeFirst(done) }
                bufferStart += Int64(done)
            }
        }
        do {
            return try encoder.encode(planes).map {
                MediaSample(data: $0, duration: UInt32(encoder.frameSize), isSync: true)
            }
        } catch let error as FlipbookError where error.path == nil {
            throw FlipbookError.soundtrackNotEncoded(path: sound.path, because: error)
        }
    }

    /// `count` samples of a channel from movie sample `start`: silence before the offset, the sound
    /// (repeated when it loops), silence after it.
    private func block(of plane: [Float], from start: Int64, count: Int) -> ArraySlice<Float> {
        let length = Int64(plane.count)
        var first = start - offset - bufferStart
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
