import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// ``MovieWriter/append(audio:)``: sound from memory encoded to AAC-LC in step with the frames, cut
/// at the sample where the pictures end; a click lands on its frame. Judged by ffprobe and ffmpeg.
@Suite struct MovieWriterSoundTests {
    @Test func soundFromMemoryIsEncodedAndCutWhereThePicturesEnd() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("memory.mp4")
        let writer = try MovieWriter(
            url: url, settings: VideoSettings(width: 64, height: 48, preset: .ultrafast),
            audio: AudioFormat(sampleRate: 48000, channelCount: 2))
        // 45 frames (1.5 s) and 2 s of sound given in pieces of a frame's length: silence with a click
        // at exactly 1 s (frame 30).
        for index in 0..<60 {
            if index < 45 { try await writer.append(try MovieWriterTests.syntheticFrame(index, width: 64, height: 48)) }
            var piece = [Float](repeating: 0, count: 1600)
            if index == 30 { piece[0] = 0.9 }
            try await writer.append(audio: AudioSamples(channels: [piece, piece]))
        }
        let summary = try await writer.finish()
        #expect(summary.audio?.codec == "aac")
        #expect(summary.audio?.duration == 1.5)
        let sound = try AudioJudge.stream(of: url.path)
        #expect(sound.codecName == "aac" && sound.sampleRate == 48000 && sound.channels == 2)
        #expect(
            sound.startTime == 0 && abs(sound.duration - 1.5) < 1e-6,
            "sound from \(sound.startTime) for \(sound.duration) s")
        let click = try AudioJudge.loudestMoment(of: url.path)
        #expect(abs(click - 1) < 0.001, "the click plays at \(click) s")
        #expect(try Judge.decodeErrors(of: url.path) == "")
    }

    @Test func soundWithoutAFormatIsRefusedAndTheWriterGoesOn() async throws {
        let dir = try TemporaryDirectory()
        let url = dir.url.appendingPathComponent("silent.mp4")
        let writer = try MovieWriter(url: url, settings: VideoSettings(width: 64, height: 48, preset: .ultrafast))
        try await writer.append(try MovieWriterTests.syntheticFrame(0, width: 64, height: 48))
        await #expect(throws: FlipbookError.self) { try await writer.append(audio: AudioSamples(channels: [[0]])) }
        _ = try await writer.finish()
        #expect(throws: FlipbookError.self) {
            _ = try MovieWriter(
                url: dir.url.appendingPathComponent("odd.mp4"), settings: VideoSettings(width: 64, height: 48),
                audio: AudioFormat(sampleRate: 50000, channelCount: 2))
        }
    }
}
