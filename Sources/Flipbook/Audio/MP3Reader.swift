import ISOBMFF

/// Reads MPEG-1/2/2.5 layer III files (`.mp3`): each frame is a packet, carried in `mp4a` with the
/// `esds` object type 0x6B. A LAME/Xing header frame is left out; its encoder delay and padding,
/// plus the decoder's own 529 samples, are the delay and length the edit list presents.
enum MP3Reader {
    /// Bit rates in kb/s by index: MPEG-1 layer III, then MPEG-2 and 2.5 layer III.
    private static let bitrates = [
        [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
        [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    ]
    private static let sampleRates = [44100, 48000, 32000]

    /// One frame header's fields.
    struct FrameHeader: Equatable {
        var sampleRate: Int
        var channels: Int
        var length: Int
        var samples: Int
    }

    /// The frame header at `position`, if a layer III one with a usable bit rate is there.
    static func header(_ bytes: [UInt8], at position: Int) -> FrameHeader? {
        guard position + 4 <= bytes.count, bytes[position] == 0xFF, bytes[position + 1] & 0xE0 == 0xE0 else {
            return nil
        }
        let version = Int(bytes[position + 1] >> 3 & 3)  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
        let layer = Int(bytes[position + 1] >> 1 & 3)  // 1: layer III
        let bitrateIndex = Int(bytes[position + 2] >> 4)
        let rateIndex = Int(bytes[position + 2] >> 2 & 3)
        let padding = Int(bytes[position + 2] >> 1 & 1)
        guard version != 1, layer == 1, bitrateIndex != 0, bitrateIndex != 15, rateIndex != 3 else { return nil }
        let mpeg1 = version == 3
        let rate = sampleRates[rateIndex] >> (mpeg1 ? 0 : version == 2 ? 1 : 2)
        let bitrate = bitrates[mpeg1 ? 0 : 1][bitrateIndex] * 1000
        let samples = mpeg1 ? 1152 : 576
        let length = samples / 8 * bitrate / rate + padding
        let channels = bytes[position + 3] >> 6 == 3 ? 1 : 2
        return FrameHeader(sampleRate: rate, channels: channels, length: length, samples: samples)
    }

    static func read(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        var position = ADTSReader.firstFrame(in: bytes) ?? bytes.count
        // Some files have junk before the first frame: look for two frames back to back.
        while position < bytes.count, !startsStream(bytes, at: position) { position += 1 }
        var packets: [CompressedAudio.Packet] = []
        var first: FrameHeader?
        var delay: (priming: Int, padding: Int)?
        while let frame = header(bytes, at: position) {
            guard position + frame.length <= bytes.count else {
                throw FlipbookError.soundLastFrameCut("MP3", needs: frame.length, from: position, path: path)
            }
            if let first, first.sampleRate != frame.sampleRate {
                throw FlipbookError.soundChangesAt(position, "sample rate", path: path)
            }
            if packets.isEmpty && first == nil, let tag = lameDelay(bytes[position..<position + frame.length]) {
                delay = tag  // the header frame holds no sound
            } else {
                packets.append(
                    CompressedAudio.Packet(offset: position, size: frame.length, duration: UInt32(frame.samples)))
            }
            first = first ?? frame
            position += frame.length
        }
        guard let format = first, !packets.isEmpty else {
            throw FlipbookError.soundHasNo("MP3 frames", path: path)
        }
        let total = Int64(packets.count * format.samples)
        let priming = Int64(delay.map { $0.priming + 529 } ?? 0)
        let playable = total - priming - Int64(delay?.padding ?? 0)
        let largest = packets.map(\.size).max() ?? 0
        let entry = MPEG4AudioSampleEntry(
            objectTypeIndication: 0x6B, decoderSpecificInfo: [], channelCount: UInt16(format.channels),
            sampleRate: UInt32(format.sampleRate), bufferSize: UInt32(largest))
        return CompressedAudio(
            path: path, bytes: bytes, sampleEntry: entry, timescale: UInt32(format.sampleRate),
            sampleRate: format.sampleRate, channelCount: format.channels, codecName: "mp3", packets: packets,
            priming: min(priming, total), playableLength: max(0, min(playable, total - priming)))
    }

    /// Whether a frame starts at `position` and another follows it (or the file ends).
    static func startsStream(_ bytes: [UInt8], at position: Int) -> Bool {
        guard let frame = header(bytes, at: position) else { return false }
        let next = position + frame.length
        return next >= bytes.count || header(bytes, at: next) != nil
    }

    /// The encoder delay and padding in a Xing/Info frame's LAME extension.
    private static func lameDelay(_ frame: ArraySlice<UInt8>) -> (priming: Int, padding: Int)? {
        let bytes = Array(frame)
        let xing = Array("Xing".utf8)
        let info = Array("Info".utf8)
        guard bytes.count > 40,
            let at = (4..<min(bytes.count - 8, 40)).first(where: {
                Array(bytes[$0..<$0 + 4]) == xing || Array(bytes[$0..<$0 + 4]) == info
            })
        else { return nil }
        let flags = bytes[at + 7]
        var lame = at + 8
        if flags & 1 != 0 { lame += 4 }
        if flags & 2 != 0 { lame += 4 }
        if flags & 4 != 0 { lame += 100 }
        if flags & 8 != 0 { lame += 4 }
        guard lame + 24 <= bytes.count else { return (0, 0) }
        let field = lame + 21
        let priming = Int(bytes[field]) << 4 | Int(bytes[field + 1]) >> 4
        let padding = Int(bytes[field + 1] & 0xF) << 8 | Int(bytes[field + 2])
        return (priming, padding)
    }
}
