import Foundation
import ISOBMFF
import MediaModel

/// A sound file's coded packets, read to be copied into a movie as they are.
///
/// The packets lie in ``bytes`` (the whole file); the media clock is ``timescale`` ticks a second
/// (the sample rate, or the source track's media timescale). The first ``priming`` ticks decode to
/// the encoder's delay, not sound; the ``playableLength`` ticks after them are the sound itself.
struct CompressedAudio: Sendable {
    /// One coded packet: where its bytes are and how long it lasts.
    struct Packet: Sendable {
        var offset: Int
        var size: Int
        /// In ticks of ``CompressedAudio/timescale``.
        var duration: UInt32
    }

    /// The file the sound came from, for messages.
    let path: String
    /// The whole file.
    let bytes: [UInt8]
    /// The sample description to write into the movie.
    let sampleEntry: any SampleEntry
    /// Media ticks a second.
    let timescale: UInt32
    /// Samples a second.
    let sampleRate: Int
    /// Channels.
    let channelCount: Int
    /// The codec's name as ffprobe gives it (`aac`).
    let codecName: String
    /// The packets in decode order.
    let packets: [Packet]
    /// Ticks at the start that are the encoder's delay.
    let priming: Int64
    /// Ticks of sound after the delay.
    let playableLength: Int64

    /// Packet `index` as a sample for the movie.
    func sample(_ index: Int) -> MediaSample {
        let packet = packets[index]
        return MediaSample(
            data: Array(bytes[packet.offset..<packet.offset + packet.size]), duration: packet.duration, isSync: true)
    }
}

/// What a sound file's first bytes say it is, where Flipbook's own readers take it: the formats whose packets
/// are copied (and FLAC, copied into Matroska). Everything else is left to libavformat.
enum SoundFormat {
    /// Thrown by a reader of Flipbook's own when the file holds a codec it does not copy: libavformat reads it.
    struct NotCopied: Error {}

    /// What the file's first bytes say it is; `nil` for a file Flipbook's own readers do not take.
    ///
    /// - Throws: `.invalidAudio` naming the file when it cannot be read.
    static func sniff(at url: URL) throws -> SoundFormat? {
        if POSIXFile.isDirectory(url.path) {
            throw FlipbookError.soundtrackIsFolder(path: url.path)
        }
        if !POSIXFile.exists(url.path) {
            throw FlipbookError.soundtrackMissing(path: url.path)
        }
        do {
            return SoundFormat(sniffing: [UInt8](try POSIXFile.readImageFile(at: url.path, limit: 65536)))
        } catch let error as FlipbookError {
            throw FlipbookError.soundtrackUnreadable(path: url.path, because: error)
        }
    }

    /// The whole file, for a reader that copies its packets.
    ///
    /// - Throws: `.invalidAudio` naming the file when it cannot be read.
    static func readWhole(at url: URL) throws -> [UInt8] {
        do {
            return [UInt8](try POSIXFile.readImageFile(at: url.path))
        } catch let error as FlipbookError {
            throw FlipbookError.soundtrackUnreadable(path: url.path, because: error)
        }
    }

    /// The kind of sound, as a message names it: `AAC`, `MP3`.
    var codecDescription: String {
        switch self {
        case .mp4: "MP4 (AAC)"
        case .adts: "AAC"
        case .wav: "WAV"
        case .flac: "FLAC"
        case .mp3: "MP3"
        case .oggOpus: "Opus"
        }
    }

    /// An ISO base media file (`.m4a`, `.mp4`): a box of type `ftyp` first.
    case mp4
    /// AAC in ADTS frames (`.aac`), perhaps after an ID3 tag.
    case adts
    /// RIFF WAVE (`.wav`).
    case wav
    /// FLAC (`.flac`).
    case flac
    /// MPEG layer III (`.mp3`), perhaps after an ID3 tag.
    case mp3
    /// Opus in Ogg (`.opus`).
    case oggOpus

    /// Whether Flipbook's own reader takes the file to copy its packets (WAV and FLAC are decoded by libavformat).
    var isCopied: Bool { self != .wav && self != .flac }

    init?(sniffing bytes: [UInt8]) {
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            self = .mp4
        } else if bytes.count >= 12, Array(bytes[0..<4]) == Array("RIFF".utf8),
            Array(bytes[8..<12]) == Array("WAVE".utf8)
        {
            self = .wav
        } else if bytes.count >= 4, Array(bytes[0..<4]) == Array("fLaC".utf8) {
            self = .flac
        } else if bytes.count >= 36, Array(bytes[0..<4]) == Array("OggS".utf8),
            Array(bytes[28..<36]) == Array("OpusHead".utf8)
        {
            self = .oggOpus  // Ogg whose first packet is Opus's header (Vorbis, FLAC in Ogg go to libavformat)
        } else if let start = ADTSReader.firstFrame(in: bytes), ADTSReader.isFrameHeader(bytes, at: start) {
            self = .adts
        } else if let start = ADTSReader.firstFrame(in: bytes), MP3Reader.startsStream(bytes, at: start) {
            self = .mp3
        } else if bytes.count > 10, bytes[0..<3] == [0x49, 0x44, 0x33] {
            self = .mp3  // an ID3 tag first: MP3, or nothing MP3Reader can find frames in
        } else {
            return nil
        }
    }
}
