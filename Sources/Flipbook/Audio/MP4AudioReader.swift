import ISOBMFF
import MediaModel

/// Reads the sound track of an MP4 file (`.m4a`, `.mp4`): its packets from the sample tables, its
/// sample entry as it is, and its encoder delay from the track's edit list or, without one, from
/// iTunes' `iTunSMPB` tag.
enum MP4AudioReader {
    static func read(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        do {
            return try parse(bytes, path: path)
        } catch let error as MediaReadingError {
            throw FlipbookError.mp4SoundIncomplete(error, path: path)
        }
    }

    private static func parse(_ bytes: [UInt8], path: String) throws -> CompressedAudio {
        let boxes = try BoxReader.parse(bytes)
        guard let moov = boxes.first("moov") else {
            throw FlipbookError.mp4SoundHasNoMovieBox(path: path)
        }
        let sound = try moov.children("trak").first {
            guard let hdlr = $0.descendant(["mdia", "hdlr"]) else { return false }
            return try HandlerBox(reading: hdlr, in: bytes).handlerType == "soun"
        }
        guard let trak = sound else { throw FlipbookError.soundHasNo("sound track", path: path) }
        let tables = try SampleTableReader(bytes: bytes, handlerType: "soun")
        let entry = try CopiedAudioSampleEntry(reading: trak, in: bytes)
        let codecName: String
        switch (entry.type, entry.objectTypeIndication) {
        case ("mp4a", 0x40): codecName = "aac"
        case ("mp4a", 0x69), ("mp4a", 0x6B): codecName = "mp3"
        case ("Opus", _): codecName = "opus"
        default:
            // ALAC, AC-3, PCM …: libavformat reads it, to be decoded and encoded.
            throw SoundFormat.NotCopied()
        }
        guard !tables.samples.isEmpty else { throw FlipbookError.soundHasNo("sound packets", path: path) }
        guard tables.timescale > 0 else {
            throw FlipbookError.soundTimescaleZero(path: path)
        }
        if let problem = tables.validate().first {
            throw FlipbookError.soundTablesInconsistent(problem, path: path)
        }
        var packets: [CompressedAudio.Packet] = []
        packets.reserveCapacity(tables.samples.count)
        for (index, sample) in tables.samples.enumerated() {
            let end = index + 1 < tables.samples.count ? tables.samples[index + 1].decodeTime : tables.mediaDuration
            guard sample.offset > 0, sample.offset + UInt64(sample.size) <= UInt64(bytes.count) else {
                throw FlipbookError.soundPacketPastEnd(index, path: path)
            }
            let duration = end > sample.decodeTime ? end - sample.decodeTime : 1024
            packets.append(
                CompressedAudio.Packet(
                    offset: Int(sample.offset), size: Int(sample.size), duration: UInt32(clamping: duration)))
        }
        let total = packets.reduce(Int64(0)) { $0 + Int64($1.duration) }
        var (priming, playable) = (Int64(0), total)
        if let delay = try editedDelay(trak, moov: moov, bytes: bytes, timescale: tables.timescale) {
            (priming, playable) = delay
        } else if let delay = iTunesDelay(in: bytes[moov.offset..<moov.end]) {
            (priming, playable) = delay
        }
        priming = min(max(0, priming), total)
        playable = min(max(0, playable), total - priming)
        let rate = Int(tables.timescale)
        return CompressedAudio(
            path: path, bytes: bytes, sampleEntry: entry, timescale: tables.timescale, sampleRate: rate,
            channelCount: entry.channelCount, codecName: codecName, packets: packets, priming: priming,
            playableLength: playable)
    }

    /// The delay and length the track's edit list presents: its first non-empty edit's media time, and
    /// the media it spans.
    private static func editedDelay(_ trak: Box, moov: Box, bytes: [UInt8], timescale: UInt32) throws -> (
        Int64, Int64
    )? {
        guard let elst = trak.descendant(["edts", "elst"]), let mvhd = moov.child("mvhd") else { return nil }
        let movieTimescale = try MovieHeaderBox(reading: mvhd, in: bytes).timescale
        guard movieTimescale > 0,
            let edit = try EditListBox(reading: elst, in: bytes).entries.first(where: { $0.mediaTime >= 0 })
        else { return nil }
        let length = edit.segmentDuration.multipliedFullWidth(by: UInt64(timescale))
        guard length.high < UInt64(movieTimescale) else { return nil }
        let (ticks, _) = UInt64(movieTimescale).dividingFullWidth(length)
        return (edit.mediaTime, Int64(clamping: ticks))
    }

    /// The delay and length in iTunes' `iTunSMPB` tag: ` 00000000 PRIMING PADDING LENGTH …` in hex.
    private static func iTunesDelay(in moov: ArraySlice<UInt8>) -> (Int64, Int64)? {
        let key = Array("iTunSMPB".utf8)
        let bytes = Array(moov)
        guard bytes.count > key.count,
            let at = (0...(bytes.count - key.count)).first(where: { Array(bytes[$0..<$0 + key.count]) == key })
        else { return nil }
        // The value is in the `data` box that follows the name: 8 bytes of header, 8 of type and locale.
        let dataName = Array("data".utf8)
        guard
            let data = (at..<max(at, bytes.count - 4)).first(where: { Array(bytes[$0..<$0 + 4]) == dataName }),
            data >= 4
        else { return nil }
        let size =
            Int(bytes[data - 4]) << 24 | Int(bytes[data - 3]) << 16 | Int(bytes[data - 2]) << 8
            | Int(bytes[data - 1])
        let start = data + 12
        let end = min(bytes.count, data - 4 + size)
        guard start < end else { return nil }
        let fields = String(decoding: bytes[start..<end], as: UTF8.self).split(separator: " ")
        guard fields.count >= 4, let priming = Int64(fields[1], radix: 16), let length = Int64(fields[3], radix: 16)
        else { return nil }
        return (priming, length)
    }
}
