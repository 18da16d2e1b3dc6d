import Foundation
import ISOBMFF

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
}

extension SoundFeed {
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

/// Opens the feed a soundtrack needs: compressed sound copied where the container holds its codec,
/// uncompressed or FLAC sound encoded (to Opus for WebM, AAC-LC for the others).
enum SoundFeeds {
    static func make(_ soundtrack: Soundtrack, movieTimescale: Int32, container: MovieContainer = .mp4) throws
        -> any SoundFeed
    {
        let offset = soundtrack.offset
        guard offset.timescale > 0, abs(offset.value) / Int64(offset.timescale) <= 86_400 else {
            throw FlipbookError(
                .invalidSettings, "the audio offset \(offset) is out of range; use at most a day either way",
                path: soundtrack.url.path)
        }
        let (bytes, format) = try SoundFormat.read(at: soundtrack.url)
        let path = soundtrack.url.path
        let edited = soundtrack.loops || offset.value < 0
        if format == .flac, container == .mkv, !edited {
            // Matroska holds FLAC: its frames are copied as they are, lossless to the bit.
            return try CopiedSoundFeed(
                audio: try FLACReader.readFrames(bytes, path: path), offset: offset, loops: false,
                movieTimescale: movieTimescale)
        }
        if format.isEncoded {
            return try EncodedSoundFeed(
                sound: try PCMSound.read(bytes, format: format, path: path), soundtrack: soundtrack,
                movieTimescale: movieTimescale, codec: SoundCodec(for: container))
        }
        let audio: CompressedAudio
        switch format {
        case .mp4: audio = try MP4AudioReader.read(bytes, path: path)
        case .adts: audio = try ADTSReader.read(bytes, path: path)
        case .mp3: audio = try MP3Reader.read(bytes, path: path)
        default: audio = try OggOpusReader.read(bytes, path: path)
        }
        if container.isMatroska, let entry = audio.sampleEntry as? CopiedAudioSampleEntry,
            entry.type != "mp4a" || entry.decoderSpecificInfo == nil && entry.objectTypeIndication == 0x40
        {
            let kind = entry.type.trimmingCharacters(in: .whitespaces)
            throw FlipbookError(
                .invalidAudio,
                "holds \(kind) sound in an MP4 file, which Flipbook copies into MP4 and MOV only; give it as an "
                    + "Ogg .opus, AAC, MP3, WAV or FLAC file, or name the output .mp4", path: path)
        }
        // WebM holds Opus and Vorbis only: other sound is decoded and encoded to Opus. A Matroska
        // file's blocks carry no edit list, so copied sound that starts before the movie or repeats is
        // decoded and encoded too (each repeat then joins the last sample to the first).
        if container == .webm && audio.codecName != "opus" || container.isMatroska && edited {
            return try EncodedSoundFeed(
                sound: try CompressedAudioDecoder.decode(audio), soundtrack: soundtrack, movieTimescale: movieTimescale,
                codec: SoundCodec(for: container))
        }
        return try CopiedSoundFeed(
            audio: audio, offset: offset, loops: soundtrack.loops, movieTimescale: movieTimescale)
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
