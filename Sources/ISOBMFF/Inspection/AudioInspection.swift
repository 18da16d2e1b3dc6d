/// A movie's sound track as `flipbook probe` reports it.
package struct AudioInspection: Sendable, Codable, Equatable {
    /// The codec as ffprobe names it (`aac`, `mp3`, `opus`), or the sample entry's type.
    package var codec: String
    /// Samples a second (the track's media time scale).
    package var sampleRate: Int
    /// Channels, from the sample entry.
    package var channels: Int
    /// How long the sound plays, in seconds: its edit list's, or its media's without one.
    package var duration: Double

    /// Reads the first sound track of `moov`, if it has one.
    package static func inspect(moov: Box, bytes: [UInt8]) throws -> AudioInspection? {
        let sound = moov.children("trak").first { trak in
            guard let hdlr = trak.descendant(["mdia", "hdlr"]) else { return false }
            return (try? HandlerBox(reading: hdlr, in: bytes).handlerType) == "soun"
        }
        guard let trak = sound, let mdhd = trak.descendant(["mdia", "mdhd"]) else { return nil }
        let entry = try CopiedAudioSampleEntry(reading: trak, in: bytes)
        let media = try MediaHeaderBox(reading: mdhd, in: bytes)
        let codec: String
        switch (entry.type, entry.objectTypeIndication) {
        case ("mp4a", 0x40): codec = "aac"
        case ("mp4a", 0x69), ("mp4a", 0x6B): codec = "mp3"
        case ("Opus", _): codec = "opus"
        default: codec = entry.type.trimmingCharacters(in: .whitespaces)
        }
        var duration = media.timescale > 0 ? Double(media.duration) / Double(media.timescale) : 0
        if let elst = trak.descendant(["edts", "elst"]), let mvhd = moov.child("mvhd") {
            let movieTimescale = try MovieHeaderBox(reading: mvhd, in: bytes).timescale
            let edits = try EditListBox(reading: elst, in: bytes).entries.filter { $0.mediaTime >= 0 }
            if movieTimescale > 0, !edits.isEmpty {
                duration = Double(edits.reduce(UInt64(0)) { $0 &+ $1.segmentDuration }) / Double(movieTimescale)
            }
        }
        return AudioInspection(
            codec: codec, sampleRate: Int(media.timescale), channels: entry.channelCount, duration: duration)
    }
}
