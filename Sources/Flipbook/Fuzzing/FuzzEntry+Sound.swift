import Foundation

extension FuzzEntry {
    /// The most sound one input is decoded to, in seconds: enough for every codec's first frames, the
    /// resampler and a change of shape midway, short enough that a stated length of hours costs nothing.
    static let soundSeconds = 4

    /// What the `FuzzSound` target does with one input: `bytes` as a soundtrack file, opened by libavformat,
    /// decoded by libavcodec and resampled by libswresample for AAC and for Opus (as ``FormatSoundDecoder``
    /// does for every soundtrack Flipbook does not copy), then read packet by packet as a copied soundtrack
    /// is; at most ``soundSeconds`` of sound each way, any error thrown away.
    ///
    /// The bytes go through a file rather than memory because the soundtrack path takes a path: libavformat
    /// probes the name, and ``SoundFileEnding`` reads the file's tail to see that an Ogg or ASF file ends
    /// where it says it does.
    package static func soundTarget(_ bytes: [UInt8]) {
        let path = soundFile.path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            preconditionFailure("the fuzz input could not be written to \(path)")
        }
        defer { try? FileManager.default.removeItem(atPath: path) }
        for codec in [SoundCodec.aac, .opus] { decodeSound(at: path, for: codec) }
        _ = try? FormatPacketReader.read(path: path)
    }

    /// Decodes the sound file at `path` for `codec` until it ends, fails, or ``soundSeconds`` have come out.
    private static func decodeSound(at path: String, for codec: SoundCodec) {
        guard let decoder = try? FormatSoundDecoder(path: path, for: codec) else { return }
        var samples = 0
        while let chunk = try? decoder.next() {
            precondition(
                chunk.count == decoder.channelCount && chunk.allSatisfy { $0.count == chunk[0].count },
                "a decoded chunk has \(chunk.map(\.count)) samples in its channels, for \(decoder.channelCount)")
            precondition(
                chunk.allSatisfy { $0.allSatisfy { abs($0) <= 16 } }, "a decoded sample is not a number within ±16")
            samples += chunk[0].count
            if samples >= soundSeconds * decoder.sampleRate { break }
        }
    }

    /// Where this process writes each input: one file, named without an extension so libavformat sniffs
    /// the bytes alone.
    private static let soundFile = FileManager.default.temporaryDirectory
        .appendingPathComponent("flipbook-fuzz-sound-\(ProcessInfo.processInfo.processIdentifier)")
}
