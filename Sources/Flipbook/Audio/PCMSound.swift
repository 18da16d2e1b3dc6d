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

    /// Appends each channel's `samples` after what the sound holds.
    mutating func append(_ samples: [[Float]]) {
        for (channel, more) in samples.enumerated() where channel < planes.count { planes[channel] += more }
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
            throw FlipbookError.aacSampleRateRefused(sound.sampleRate, rates: rates, path: path)
        }
        guard (1...8).contains(sound.channelCount), sound.channelCount != 7 else {
            throw FlipbookError.soundChannelsRefused(sound.channelCount, by: "AAC", carried: "1 to 6, or 8", path: path)
        }
    }
}

/// Reads FLAC files' frames as they are, with the STREAMINFO block, to copy them (decoding is libavformat's).
enum FLACReader {
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
        guard entry.sampleRate > 0 else { throw FlipbookError.flacRateZero(path: path) }
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
            throw FlipbookError.flacStreamInfoMissing(path: path)
        }
        return (info, position)
    }
}
