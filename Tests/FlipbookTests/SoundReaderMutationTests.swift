import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// Hostile sound files: every reader (MP4, ADTS, MP3, Ogg Opus, WAV, FLAC) given files made by ffmpeg
/// with bytes overwritten, cut short or shuffled either reads them or throws `.invalidAudio` or
/// `.invalidSettings` naming the file; none traps.
@Suite struct SoundReaderMutationTests {
    /// A small deterministic generator, so a failure names a mutant that can be made again.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [
        ("m4a", ["-c:a", "aac"]), ("aac", ["-c:a", "aac"]), ("mp3", ["-c:a", "libmp3lame"]),
        ("opus", ["-c:a", "libopus"]),
        ("wav", ["-c:a", "pcm_s16le"]), ("flac", ["-c:a", "flac"]),
    ])
    func damagedSoundIsRefusedByNameAndNeverTraps(ext: String, codec: [String]) throws {
        let dir = try TemporaryDirectory()
        let source = dir.url.appendingPathComponent("sound.\(ext)")
        try AudioJudge.makeSound(source.path, source: "sine=frequency=440:duration=0.5", codec)
        let original = [UInt8](try Data(contentsOf: source))
        var random = Generator(state: UInt64(ext.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let mutant = dir.url.appendingPathComponent("mutant.\(ext)")
        var refused = 0
        for round in 0..<150 {
            var bytes = original
            switch round % 3 {
            case 0:
                for _ in 0..<Int.random(in: 1...16, using: &random) {
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
            default:
                let at = Int.random(in: 0..<bytes.count, using: &random)
                bytes.replaceSubrange(at..<min(bytes.count, at + 64), with: repeatElement(0xFF, count: 64))
            }
            try Data(bytes).write(to: mutant)
            do {
                _ = try SoundFeeds.make(Soundtrack(url: mutant), movieTimescale: 12000)
            } catch let error as FlipbookError {
                #expect([.invalidAudio, .invalidSettings].contains(error.code), "round \(round): \(error)")
                #expect(error.path == mutant.path, "round \(round): \(error)")
                refused += 1
            }
        }
        #expect(refused > 0, "damaged files are noticed")
    }
}
