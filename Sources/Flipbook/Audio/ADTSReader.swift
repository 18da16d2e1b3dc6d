import ISOBMFF

/// Reads AAC in ADTS frames (`.aac`): each frame's raw data block becomes a packet, and the frame
/// header's profile, sample rate and channels become the `mp4a` entry's AudioSpecificConfig.
///
/// An ADTS stream does not say how many samples its encoder put in front of the sound (AAC encoders
/// usually prime with 1024): that delay is not knowable from the file, so it is taken as zero and
/// the packets play from their first sample.
enum ADTSReader {
    /// The sampling frequencies of ISO/IEC 14496-3 by index.
    static let sampleRates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    static func read(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        guard var position = firstFrame(in: bytes) else {
            throw FlipbookError.soundHasNo("ADTS frames", path: path)
        }
        var packets: [CompressedAudio.Packet] = []
        var config: (profile: Int, rateIndex: Int, channels: Int)?
        while position < bytes.count {
            // Trailing tags (ID3v1 "TAG") or padding after the last frame end the stream.
            guard bytes.count - position >= 7 else { break }
            guard isFrameHeader(bytes, at: position) else {
                if packets.isEmpty || bytes[position] == 0xFF {
                    throw FlipbookError.soundSyncLost("ADTS frame header", at: position, path: path)
                }
                break
            }
            let header = Array(bytes[position..<position + 7])
            let protectionAbsent = header[1] & 1 == 1
            let profile = Int(header[2] >> 6)
            let rateIndex = Int(header[2] >> 2 & 0xF)
            let channels = Int(header[2] & 1) << 2 | Int(header[3] >> 6)
            let length = Int(header[3] & 3) << 11 | Int(header[4]) << 3 | Int(header[5] >> 5)
            let blocks = Int(header[6] & 3)
            let headerLength = protectionAbsent ? 7 : 9
            guard rateIndex < sampleRates.count, channels > 0, length > headerLength else {
                throw FlipbookError.adtsFrameNotCopied(
                    at: position, rateIndex: rateIndex, channels: channels, path: path)
            }
            guard blocks == 0 else {
                throw FlipbookError.adtsHasSeveralBlocks(path: path)
            }
            guard position + length <= bytes.count else {
                throw FlipbookError.soundLastFrameCut("ADTS", needs: length, from: position, path: path)
            }
            if let config, config != (profile, rateIndex, channels) {
                throw FlipbookError.soundChangesAt(position, "AAC profile, sample rate or channels", path: path)
            }
            config = (profile, rateIndex, channels)
            packets.append(
                CompressedAudio.Packet(
                    offset: position + headerLength, size: length - headerLength, duration: 1024))
            position += length
        }
        guard let config, !packets.isEmpty else { throw FlipbookError.soundHasNo("ADTS frames", path: path) }
        let objectType = config.profile + 1
        let specificConfig: [UInt8] = [
            UInt8(objectType << 3 | config.rateIndex >> 1), UInt8((config.rateIndex & 1) << 7 | config.channels << 3),
        ]
        let rate = sampleRates[config.rateIndex]
        let largest = packets.map(\.size).max() ?? 0
        let total = packets.reduce(0) { $0 + $1.size }
        let seconds = Double(packets.count * 1024) / Double(rate)
        let entry = MPEG4AudioSampleEntry(
            objectTypeIndication: 0x40, decoderSpecificInfo: specificConfig, channelCount: UInt16(config.channels),
            sampleRate: UInt32(rate), averageBitrate: UInt32(clamping: Int(Double(total * 8) / seconds)),
            bufferSize: UInt32(largest))
        let duration = Int64(packets.count * 1024)
        return CompressedAudio(
            path: path, bytes: bytes, sampleEntry: entry, timescale: UInt32(rate), sampleRate: rate,
            channelCount: config.channels, codecName: "aac", packets: packets, priming: 0, playableLength: duration)
    }

    /// Where the first frame starts: after an ID3v2 tag, if the file has one.
    static func firstFrame(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 else { return 0 }
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        let footer = bytes[5] & 0x10 != 0 ? 10 : 0
        let start = 10 + size + footer
        return start < bytes.count ? start : nil
    }

    /// Whether an ADTS header starts at `position`: the sync word, MPEG-4 or -2, layer 0.
    static func isFrameHeader(_ bytes: [UInt8], at position: Int) -> Bool {
        position + 7 <= bytes.count && bytes[position] == 0xFF && bytes[position + 1] & 0xF6 == 0xF0
    }
}
