import ISOBMFF

/// Reads Opus in Ogg (`.opus`): pages are parsed into packets, the `OpusHead` packet becomes the
/// `dOps` box of an `Opus` sample entry, and its pre-skip and the last page's granule position are
/// the delay and length the edit list presents.
enum OggOpusReader {
    static func read(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        var position = 0
        // The sound packets, back to back (a packet may span pages, so they are gathered here).
        var data: [UInt8] = []
        var packets: [CompressedAudio.Packet] = []
        var headers: [[UInt8]] = []
        var current: [UInt8] = []
        var lastGranule: Int64 = 0
        var serial: ArraySlice<UInt8>?
        while position + 27 <= bytes.count {
            guard Array(bytes[position..<position + 4]) == Array("OggS".utf8) else {
                throw FlipbookError.soundSyncLost("Ogg page", at: position, path: path)
            }
            let granule = (6..<14).reduce(UInt64(0)) { $0 | UInt64(bytes[position + $1]) << (8 * ($1 - 6)) }
            let segments = Int(bytes[position + 26])
            var body = position + 27 + segments
            guard body <= bytes.count,
                body + bytes[position + 27..<body].reduce(0, { $0 + Int($1) }) <= bytes.count
            else { throw FlipbookError.oggLastPageIncomplete(path: path) }
            let pageSerial = bytes[position + 14..<position + 18]
            if serial == nil { serial = pageSerial }
            guard pageSerial == serial else {
                throw FlipbookError.oggHasSeveralStreams(path: path)
            }
            for length in bytes[position + 27..<position + 27 + segments] {
                current += bytes[body..<body + Int(length)]
                body += Int(length)
                guard length < 255 else { continue }  // the packet goes on in the next segment
                if headers.count < 2 {
                    headers.append(current)  // OpusHead, then OpusTags
                } else if !current.isEmpty {
                    let count = current.count > 1 ? current[1] : 0
                    packets.append(
                        CompressedAudio.Packet(
                            offset: data.count, size: current.count,
                            duration: duration(toc: current[0], countByte: count)))
                    data += current
                }
                current = []
            }
            if granule != UInt64.max { lastGranule = Int64(bitPattern: granule) }
            position = body
        }
        guard let head = headers.first, head.count >= 19, Array(head[0..<8]) == Array("OpusHead".utf8) else {
            throw FlipbookError.oggWithoutOpus(path: path)
        }
        guard !packets.isEmpty else { throw FlipbookError.soundHasNo("Opus packets", path: path) }
        let channels = Int(head[9])
        let preSkip = Int64(head[10]) | Int64(head[11]) << 8
        let total = packets.reduce(Int64(0)) { $0 + Int64($1.duration) }
        let playable = min(total, max(0, lastGranule)) - preSkip
        return CompressedAudio(
            path: path, bytes: data, sampleEntry: OpusSampleEntry(opusHead: head), timescale: 48000, sampleRate: 48000,
            channelCount: channels, codecName: "opus", packets: packets, priming: min(preSkip, total),
            playableLength: max(0, playable))
    }

    /// A packet's length in 48 kHz samples, from its TOC byte (RFC 6716 §3.1) and, for code 3, its
    /// frame count byte.
    static func duration(toc: UInt8, countByte: UInt8) -> UInt32 {
        let config = Int(toc >> 3)
        let frame: Int  // in 48 kHz samples
        switch config {
        case 0..<12: frame = [480, 960, 1920, 2880][config % 4]
        case 12..<16: frame = [480, 960][config % 2]
        default: frame = [120, 240, 480, 960][config % 4]
        }
        let frames: Int
        switch toc & 3 {
        case 0: frames = 1
        case 1, 2: frames = 2
        default: frames = Int(countByte & 0x3F)
        }
        return UInt32(frame * frames)
    }
}
