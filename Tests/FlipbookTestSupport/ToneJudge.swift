import Foundation

/// Which tone each channel of a file's sound carries, as ffmpeg decodes it: every channel kept apart in
/// the decoder's own layout order, each measured by a Goertzel filter at the candidate frequencies.
public enum ToneJudge {
    /// Each channel of the first sound stream as ffmpeg decodes it (edit list applied), in the order of
    /// the layout ffprobe reports.
    public static func decodedChannels(of file: String) throws -> [[Float]] {
        let channels = try AudioJudge.stream(of: file).channels
        let data = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-f", "f32le", "-"])
        let interleaved = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        guard channels > 0 else { throw JudgeError(description: "\(file) has no sound channels") }
        return (0..<channels).map { channel in
            stride(from: channel, to: interleaved.count, by: channels).map { interleaved[$0] }
        }
    }

    /// The power of `frequency` Hz in `samples` at `rate` Hz (Goertzel's algorithm).
    public static func power(of frequency: Double, in samples: ArraySlice<Float>, rate: Int) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / Double(rate))
        var (previous, beforeThat) = (0.0, 0.0)
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforeThat
            (beforeThat, previous) = (previous, current)
        }
        return previous * previous + beforeThat * beforeThat - coefficient * previous * beforeThat
    }

    /// The candidate loudest in each channel of `file` (its middle second), with how much louder it is
    /// than the next one (a ratio of powers).
    public static func dominantTones(of file: String, candidates: [Double]) throws -> [(tone: Double, margin: Double)] {
        let rate = try AudioJudge.stream(of: file).sampleRate
        return try decodedChannels(of: file).map { samples in
            let middle = samples.count / 2
            let window = samples[max(0, middle - rate / 2)..<min(samples.count, middle + rate / 2)]
            let powers = candidates.map { power(of: $0, in: window, rate: rate) }.enumerated().sorted { $0.1 > $1.1 }
            return (candidates[powers[0].offset], powers[0].element / max(powers[1].element, 1e-12))
        }
    }
}
