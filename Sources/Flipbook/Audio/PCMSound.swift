import Foundation
import ISOBMFF

/// Uncompressed sound in memory: each channel's samples as floats from -1 to 1.
struct PCMSound: Sendable {
    /// The file the sound came from, for messages.
    let path: String
    let sampleRate: Int
    /// Each channel's samples, all of one length.
    var planes: [[Float]]

    var channelCount: Int { planes.count }
    /// Samples in each channel.
    var frameCount: Int { planes.first?.count ?? 0 }

    /// The sample rates AAC can carry (ISO/IEC 14496-3's sampling frequency table).
    static let aacSampleRates: Set<Int> = [
        96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350,
    ]

    /// Reads a WAV or FLAC file.
    ///
    /// - Throws: `.invalidAudio` naming the file when it is damaged or holds no sound.
    static func read(_ bytes: [UInt8], format: SoundFormat, path: String) throws -> PCMSound {
        let sound: PCMSound
        switch format {
        case .wav: sound = try WAVReader.read(bytes, path: path)
        case .flac: sound = try FLACReader.read(bytes, path: path)
        default: throw FlipbookError(.invalidAudio, "is not uncompressed or FLAC sound", path: path)
        }
        guard sound.frameCount > 0 else { throw FlipbookError(.invalidAudio, "holds no sound", path: path) }
        return sound
    }

    /// The same sound at `rate` samples a second (libswresample), or itself when it is at that rate.
    func resampled(to rate: Int) throws -> PCMSound {
        guard rate != sampleRate else { return self }
        return PCMSound(
            path: path, sampleRate: rate,
            planes: try SoundResampler.resample(planes, from: sampleRate, to: rate, path: path))
    }

    /// Throws `.invalidAudio` naming the file unless AAC can carry the sound's rate and channels.
    func checkAACCanCarry() throws {
        let sound = self
        guard Self.aacSampleRates.contains(sound.sampleRate) else {
            let rates = Self.aacSampleRates.sorted().map(String.init).joined(separator: ", ")
            throw FlipbookError(
                .invalidAudio,
                "has a sample rate of \(sound.sampleRate) Hz, which AAC cannot carry; resample it to one of \(rates)",
                path: path)
        }
        guard (1...8).contains(sound.channelCount), sound.channelCount != 7 else {
            throw FlipbookError(
                .invalidAudio, "has \(sound.channelCount) channels; AAC carries 1 to 6, or 8", path: path)
        }
    }
}

/// Reads RIFF WAVE files: PCM of 16, 24 or 32 bits, or 32-bit float (plain or WAVE_FORMAT_EXTENSIBLE).
enum WAVReader {
    static func read(_ bytes: [UInt8], path: String) throws -> PCMSound {
        func le(_ at: Int, _ count: Int) -> Int { (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        var position = 12
        var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
        while position + 8 <= bytes.count {
            let id = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            let size = le(position + 4, 4)
            let body = position + 8
            if id == "fmt " {
                guard size >= 16, body + size <= bytes.count else { break }
                var tag = le(body, 2)
                if tag == 0xFFFE, size >= 26 { tag = le(body + 24, 2) }  // the extensible format's sub-format
                format = (tag, le(body + 2, 2), le(body + 4, 4), le(body + 14, 2))
            } else if id == "data" {
                guard let format else { break }
                // A WAV written to a pipe cannot say how long it is (0 or 0xFFFFFFFF): the data runs to the end.
                let size = size == 0 || size == 0xFFFF_FFFF ? bytes.count - body : size
                guard body + size <= bytes.count else {
                    throw FlipbookError(
                        .invalidAudio,
                        "is cut short: its data chunk declares \(size) bytes, "
                            + "the file holds \(bytes.count - body)", path: path)
                }
                return try decode(bytes[body..<body + size], format: format, path: path)
            }
            position = body + size + (size & 1)
        }
        throw FlipbookError(.invalidAudio, "is cut short or damaged: no 'fmt ' and 'data' chunks", path: path)
    }

    private static func decode(
        _ data: ArraySlice<UInt8>, format: (tag: Int, channels: Int, rate: Int, bits: Int), path: String
    ) throws -> PCMSound {
        let convert: (ArraySlice<UInt8>, Int) -> Float
        switch (format.tag, format.bits) {
        case (1, 16):
            convert = { d, at in Float(Int16(bitPattern: UInt16(d[at]) | UInt16(d[at + 1]) << 8)) / 32768 }
        case (1, 24):
            convert = { d, at in
                let value = Int32(bitPattern: UInt32(d[at]) << 8 | UInt32(d[at + 1]) << 16 | UInt32(d[at + 2]) << 24)
                return Float(value >> 8) / 8_388_608
            }
        case (1, 32):
            convert = { d, at in
                let bits = UInt32(d[at]) | UInt32(d[at + 1]) << 8 | UInt32(d[at + 2]) << 16 | UInt32(d[at + 3]) << 24
                return Float(Int32(bitPattern: bits)) / 2_147_483_648
            }
        case (3, 32):
            convert = { d, at in
                Float(
                    bitPattern: UInt32(d[at]) | UInt32(d[at + 1]) << 8 | UInt32(d[at + 2]) << 16 | UInt32(d[at + 3])
                        << 24)
            }
        default:
            throw FlipbookError(
                .invalidAudio,
                "is WAV of format \(format.tag) with \(format.bits)-bit samples; Flipbook reads 16-, 24- and 32-bit PCM "
                    + "and 32-bit float", path: path)
        }
        let channels = format.channels
        guard channels > 0 else { throw FlipbookError(.invalidAudio, "declares 0 channels", path: path) }
        let width = format.bits / 8
        let frames = data.count / (width * channels)
        var planes = [[Float]](repeating: [Float](repeating: 0, count: frames), count: channels)
        var at = data.startIndex
        for frame in 0..<frames {
            for channel in 0..<channels {
                planes[channel][frame] = convert(data, at)
                at += width
            }
        }
        return PCMSound(path: path, sampleRate: format.rate, planes: planes)
    }
}

/// Reads FLAC files: the STREAMINFO block in Swift, the frames by libavcodec's decoder.
enum FLACReader {
    static func read(_ bytes: [UInt8], path: String) throws -> PCMSound {
        let (info, position) = try streamInfo(of: bytes, path: path)
        let stream = FLACSampleEntry(streamInfo: info)
        let planes = try FLACDecoder.decode(
            streamInfo: info, frames: bytes[position...], channels: stream.channelCount, path: path)
        return PCMSound(path: path, sampleRate: stream.sampleRate, planes: planes)
    }

    /// A FLAC file's frames as they are, to be copied into a container that holds FLAC (Matroska).
    static func readFrames(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        let (info, position) = try streamInfo(of: bytes, path: path)
        let entry = FLACSampleEntry(streamInfo: info)
        let frames = try FLACFrameSplitter.frames(in: bytes, from: position, path: path)
        let total = frames.reduce(Int64(0)) { $0 + Int64($1.samples) }
        // STREAMINFO's total samples (36 bits), when the encoder wrote it; the frames' sum otherwise.
        let stated =
            Int64(info[13] & 0x0F) << 32 | Int64(info[14]) << 24 | Int64(info[15]) << 16
            | Int64(info[16]) << 8 | Int64(info[17])
        guard entry.sampleRate > 0 else { throw FlipbookError(.invalidAudio, "states a sample rate of 0", path: path) }
        return CompressedAudio(
            path: path, bytes: bytes, sampleEntry: entry, timescale: UInt32(entry.sampleRate),
            sampleRate: entry.sampleRate, channelCount: entry.channelCount, codecName: "flac",
            packets: frames.map {
                CompressedAudio.Packet(offset: $0.offset, size: $0.size, duration: UInt32($0.samples))
            },
            priming: 0, playableLength: stated > 0 ? min(stated, total) : total)
    }

    /// The STREAMINFO block of a FLAC file and where its first frame starts.
    private static func streamInfo(of bytes: [UInt8], path: String) throws -> ([UInt8], Int) {
        var position = 4
        var streamInfo: [UInt8]?
        while position + 4 <= bytes.count {
            let header = bytes[position]
            let size = Int(bytes[position + 1]) << 16 | Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let body = position + 4
            guard body + size <= bytes.count else { break }
            if header & 0x7F == 0, size >= 34 { streamInfo = Array(bytes[body..<body + 34]) }
            position = body + size
            if header & 0x80 != 0 { break }
        }
        guard let info = streamInfo, position < bytes.count else {
            throw FlipbookError(
                .invalidAudio, "is cut short or damaged: no FLAC stream information or frames", path: path)
        }
        return (info, position)
    }
}
