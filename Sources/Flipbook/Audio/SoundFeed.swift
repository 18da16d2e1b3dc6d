import Foundation
import ISOBMFF
import MediaModel

/// Where a movie's sound track comes from: packets handed to the muxer in step with the pictures,
/// and the track with the edits that play them from movie time zero.
protocol SoundFeed {
    /// The sound track's media ticks a second.
    var timescale: UInt32 { get }
    /// The sound track, with its edits for a movie whose pictures end at `movieEnd` (movie ticks);
    /// with no end yet, the edits' shape with the last one's length still 0.
    func track(movieEnd: Int64?) -> Track
    /// The packets that start by movie tick `movieTime`, to interleave with the pictures up to there.
    mutating func samples(through movieTime: Int64) throws -> [MediaSample]
    /// The packets still needed for a movie whose pictures end at movie tick `movieEnd`.
    mutating func finish(movieEnd: Int64) throws -> [MediaSample]
    /// The codec's name as ffprobe gives it, and the channels.
    var codecName: String { get }
    var channelCount: Int { get }
    /// Lines for the person who gave the sound (a layout mixed to one the codec carries).
    var warnings: [String] { get }
}

extension SoundFeed {
    var warnings: [String] { [] }

    /// The sound track of a movie whose pictures end at movie tick `movieEnd` (in `movieTimescale`
    /// ticks a second), as the summary reports it.
    func info(movieEnd: Int64, movieTimescale: Int64) -> AudioStreamInfo {
        let played = track(movieEnd: movieEnd).editList.filter { $0.mediaTime >= 0 }.reduce(UInt64(0)) {
            $0 + $1.segmentDuration
        }
        return AudioStreamInfo(
            codec: codecName, sampleRate: Int(timescale), channels: channelCount,
            duration: Double(played) / Double(movieTimescale))
    }
}

/// Opens the feed a soundtrack needs: copied where ``SoundCopying`` says the container holds the sound's
/// codec (or ``Soundtrack/codec`` asks for a copy), decoded and encoded otherwise (AAC-LC, or Opus for WebM,
/// unless ``Soundtrack/codec`` names one).
enum SoundFeeds {
    static func make(_ soundtrack: Soundtrack, movieTimescale: Int32, container: MovieContainer = .mp4) throws
        -> any SoundFeed
    {
        let offset = soundtrack.offset
        let path = soundtrack.url.path
        guard offset.timescale > 0, abs(offset.value) / Int64(offset.timescale) <= 86_400 else {
            throw FlipbookError.audioOffsetOutOfRange(offset, path: path)
        }
        let choice = soundtrack.codec
        do {
            try choice?.check(in: container)
        } catch var error as FlipbookError {
            error.path = path
            throw error
        }
        let encoding = choice?.encoder ?? SoundCodec(for: container)
        let edited = soundtrack.loops || offset.value < 0
        let format = try SoundFormat.sniff(at: soundtrack.url)
        if format == .flac, container == .mkv, !edited, choice == nil || choice == .copy {
            // Matroska holds FLAC: its frames are copied as they are, lossless to the bit.
            let bytes = try SoundFormat.readWhole(at: soundtrack.url)
            return try CopiedSoundFeed(
                audio: try FLACReader.readFrames(bytes, path: path), offset: offset, loops: false,
                movieTimescale: movieTimescale)
        }
        var audio: CompressedAudio?
        if let format, format.isCopied {
            let bytes = try SoundFormat.readWhole(at: soundtrack.url)
            switch format {
            case .mp4:
                do {
                    audio = try MP4AudioReader.read(bytes, path: path)
                } catch is SoundFormat.NotCopied {
                    audio = nil  // ALAC, AC-3 … in an MP4 file: libavformat reads it below
                }
            case .adts: audio = try ADTSReader.read(bytes, path: path)
            case .mp3: audio = try MP3Reader.read(bytes, path: path)
            default: audio = try OggOpusReader.read(bytes, path: path)
            }
        }
        guard let audio else {
            // Everything else FFmpeg reads is decoded a packet at a time, then encoded.
            let decoder = try FormatSoundDecoder(
                path: path, for: encoding, keepingRate: soundtrack.keepsSampleRate)
            let copies = SoundCopying.copies(decoder.codecName, into: container) && !(container.isMatroska && edited)
            if copies && (choice == nil || choice == .copy) {
                // Decoded once through, so damage and a file cut short are refused by name as when encoded.
                while try decoder.next() != nil {}
                return try CopiedSoundFeed(
                    audio: try FormatPacketReader.read(path: path), offset: offset, loops: soundtrack.loops,
                    movieTimescale: movieTimescale)
            }
            if choice == .copy { throw notCopied(decoder.codecName, into: container, edited: edited, path: path) }
            return try EncodedSoundFeed(decoding: decoder, soundtrack: soundtrack, movieTimescale: movieTimescale)
        }
        // A Matroska file's blocks carry no edit list, so copied sound that starts before the movie or repeats
        // is decoded and encoded (each repeat then joins the last sample to the first); and Matroska takes
        // MPEG-4 sound only as AAC with its configuration, or MP3.
        var copies = SoundCopying.copies(audio.codecName, into: container) && !(container.isMatroska && edited)
        if container.isMatroska, let entry = audio.sampleEntry as? CopiedAudioSampleEntry,
            entry.type != "mp4a" || entry.decoderSpecificInfo == nil && entry.objectTypeIndication == 0x40
        {
            copies = false
        }
        if choice == .copy || choice == nil && copies {
            guard copies else { throw notCopied(audio.codecName, into: container, edited: edited, path: path) }
            return try CopiedSoundFeed(
                audio: audio, offset: offset, loops: soundtrack.loops, movieTimescale: movieTimescale)
        }
        return try EncodedSoundFeed(
            sound: try CompressedAudioDecoder.decode(audio), soundtrack: soundtrack, movieTimescale: movieTimescale,
            codec: encoding)
    }

    /// Throws ``notCopied(_:into:edited:path:)`` (as `.invalidSettings`) when the soundtrack's codec, as
    /// libavformat names it, is not copied into `container`.
    static func checkCopy(_ soundtrack: Soundtrack, into container: MovieContainer) throws {
        let path = soundtrack.url.path
        let edited = soundtrack.loops || soundtrack.offset.value < 0
        let codecName = try FormatSoundDecoder(path: path, for: SoundCodec(for: container)).codecName
        if !SoundCopying.copies(codecName, into: container) || container.isMatroska && edited {
            var refusal = notCopied(codecName, into: container, edited: edited, path: path)
            refusal.code = .invalidSettings
            throw refusal
        }
    }

    /// The error for sound of `codecName` that a copy was asked for but that is not copied into `container`.
    private static func notCopied(_ codecName: String, into container: MovieContainer, edited: Bool, path: String)
        -> FlipbookError
    {
        let kind = "." + container.fileExtensions[0]
        let reason =
            if SoundCopying.copies(codecName, into: container) {
                "\(kind) files place no copied sound that loops or starts before the movie"
            } else if let list = SoundCopying.containerList(codecName) {
                "Flipbook copies \(codecName) into \(list) files only"
            } else {
                "Flipbook copies no \(codecName) sound; it is decoded and encoded"
            }
        return FlipbookError.soundtrackNotCopied(codecName, into: kind, reason: reason, path: path)
    }
}

extension MediaTime {
    /// This time in ticks of `rate` a second, rounded toward zero, without overflowing for times of
    /// up to a day at any time scale.
    func ticks(atRate rate: Int64) -> Int64 {
        let scale = Int64(timescale)
        return value / scale * rate + value % scale * rate / scale
    }
}
