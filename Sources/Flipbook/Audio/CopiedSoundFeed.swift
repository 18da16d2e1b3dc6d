import ISOBMFF
import MediaModel

/// Hands a copied soundtrack's packets to the movie in step with its pictures, and says by its edit
/// list which part of them plays when.
///
/// Sound time is counted in the source's media ticks after its encoder delay: sound tick `u` plays
/// at movie time `u + offset`. The media holds the source's packets once, or one copy after another
/// when the sound loops; each copy's delay is stepped over by the copy's own edit, so every repeat
/// starts on its first audible sample. The edits end where the pictures end: longer sound is cut
/// there exactly, shorter sound ends early and leaves silence.
struct CopiedSoundFeed: SoundFeed {
    let audio: CompressedAudio
    /// The movie's (the video track's) ticks a second.
    let movieTimescale: Int64
    /// When sound tick zero plays, in sound ticks (negative: the start is skipped).
    let offset: Int64
    let loops: Bool
    /// The ticks all the source's packets last: one copy of the media.
    let mediaDuration: Int64

    /// Packets handed out so far, counting every copy.
    private var handedOut = 0
    /// The media time of the next packet.
    private var mediaTime: Int64 = 0

    /// - Throws: `.invalidAudio` when the sound has nothing to play.
    init(audio: CompressedAudio, offset: MediaTime, loops: Bool, movieTimescale: Int32) throws {
        self.audio = audio
        self.movieTimescale = Int64(movieTimescale)
        self.loops = loops
        mediaDuration = audio.packets.reduce(0) { $0 + Int64($1.duration) }
        self.offset = offset.ticks(atRate: Int64(audio.timescale))
        guard audio.playableLength > 0 else {
            throw FlipbookError.soundtrackEmptyAfterDelay(path: audio.path)
        }
        if !loops && self.offset <= -audio.playableLength {
            throw FlipbookError.audioOffsetSkipsAllSound(
                offset, lasting: Double(audio.playableLength) / Double(audio.timescale), path: audio.path)
        }
    }

    var timescale: UInt32 { audio.timescale }
    var codecName: String { audio.codecName }
    var channelCount: Int { audio.channelCount }

    func track(movieEnd: Int64?) -> Track {
        Track(
            trackID: TrackKind.audio.trackID, timescale: audio.timescale, codec: audio.sampleEntry,
            editList: editList(movieEnd: movieEnd))
    }

    mutating func samples(through movieTime: Int64) -> [MediaSample] {
        var out: [MediaSample] = []
        while let next = nextPacketIndex() {
            let (copy, local) = (mediaTime / mediaDuration, mediaTime % mediaDuration)
            let soundTime = copy * audio.playableLength + local - audio.priming + offset
            guard soundTime * movieTimescale <= movieTime * Int64(audio.timescale) else { break }
            out.append(take(next))
        }
        return out
    }

    mutating func finish(movieEnd: Int64) -> [MediaSample] {
        let needed =
            editList(movieEnd: movieEnd).filter { $0.mediaTime >= 0 }.map {
                $0.mediaTime + (Int64($0.segmentDuration) * Int64(audio.timescale) + movieTimescale - 1)
                    / movieTimescale
            }.max() ?? 0
        var out: [MediaSample] = []
        while mediaTime < needed, let next = nextPacketIndex() { out.append(take(next)) }
        return out
    }

    /// The index in the source of the next packet, or `nil` when the sound does not loop and every
    /// packet is out.
    private func nextPacketIndex() -> Int? {
        guard loops || handedOut < audio.packets.count else { return nil }
        return handedOut % audio.packets.count
    }

    private mutating func take(_ index: Int) -> MediaSample {
        handedOut += 1
        mediaTime += Int64(audio.packets[index].duration)
        return audio.sample(index)
    }

    /// The edits that play the sound from the movie's start to `movieEnd` (movie ticks); with no end
    /// yet, the shape of the edits with the last one's length still 0.
    func editList(movieEnd: Int64?) -> [EditListEntry] {
        let scale = Int64(audio.timescale)
        var edits: [EditListEntry] = []
        var remaining = movieEnd ?? Int64.max
        if offset > 0 {
            let silence = min(remaining, offset * movieTimescale / scale)
            edits.append(EditListEntry(segmentDuration: UInt64(silence), mediaTime: -1))
            remaining -= silence
        }
        let length = audio.playableLength
        var position = max(0, -offset)
        var copy = position / length
        position %= length
        if !loops && copy > 0 { return edits }
        while remaining > 0 {
            let span = (length - position) * movieTimescale / scale
            let duration = movieEnd == nil ? 0 : min(span, remaining)
            edits.append(
                EditListEntry(
                    segmentDuration: UInt64(duration),
                    mediaTime: copy * mediaDuration + audio.priming + position))
            if movieEnd == nil || !loops || duration == 0 { break }
            remaining -= duration
            copy += 1
            position = 0
        }
        return edits
    }
}
