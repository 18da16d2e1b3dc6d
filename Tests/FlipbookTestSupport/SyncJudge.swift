import Foundation

/// When a movie's click sounds and its white frame shows, as two players place them: ffmpeg (each decoded
/// sound frame at its own timestamp, the pictures at theirs, as ffprobe reports them) and GStreamer
/// (`decodebin` to `fakesink`, each buffer at its timestamp). A judge that counts decoded samples from
/// zero, or adds a stream's start time to them, mixes two conventions; these take each sample at the time
/// the player gives it.
public enum SyncJudge {
    /// A click's and a white frame's times in seconds, as one player places them.
    public struct Placement: Sendable, CustomStringConvertible {
        public var click: Double
        public var whiteFrame: Double
        /// The click's distance from its frame in milliseconds (negative: the click is early).
        public var offsetMilliseconds: Double { (click - whiteFrame) * 1000 }
        public var description: String {
            String(format: "click at %.5f s, white frame at %.5f s (%.2f ms)", click, whiteFrame, offsetMilliseconds)
        }
    }

    /// As ffmpeg places them: the loudest sample at its decoded frame's timestamp plus its place in the
    /// frame; the first frame whose mean luma passes 128 at its timestamp.
    public static func ffmpeg(_ movie: String) throws -> Placement {
        let listing = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "frame=pts_time,nb_samples", "-of",
                "csv=p=0", movie,
            ])
        let frames = listing.stdout.split(whereSeparator: \.isNewline).compactMap { line -> (Double, Int)? in
            let fields = line.split(separator: ",")
            guard fields.count >= 2, let time = Double(fields[0]), let count = Int(fields[1]) else { return nil }
            return (time, count)
        }
        let samples = try AudioJudge.decodedSamples(of: movie)
        let rate = try AudioJudge.stream(of: movie).sampleRate
        let click = try time(ofLoudestIn: samples, frames: frames, rate: Double(rate), player: "ffmpeg")
        let lumas = try Judge.lumaMeans(of: movie)
        guard let white = lumas.firstIndex(where: { $0 > 128 }),
            let frameTime = Double(try Judge.frames(of: movie)[white].ptsTime)
        else { throw JudgeError(description: "ffmpeg found no white frame in \(movie)") }
        return Placement(click: click, whiteFrame: frameTime)
    }

    /// As GStreamer places them: each buffer's timestamp from `fakesink`'s log, its samples (mono 32-bit
    /// floats) counted from that time; the pictures as grey bytes, the first whose mean passes 128.
    public static func gstreamer(_ movie: String) throws -> Placement {
        let sound = try buffers(
            of: movie, branch: "audioconvert ! audioresample ! audio/x-raw,format=F32LE,channels=1,layout=interleaved")
        var frames: [(Double, Int)] = []
        var samples: [Float] = []
        for buffer in sound.buffers {
            frames.append((buffer.time, buffer.bytes.count / 4))
            samples += buffer.bytes.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        }
        let click = try time(ofLoudestIn: samples, frames: frames, rate: sound.rate, player: "GStreamer")
        let pictures = try buffers(of: movie, branch: "videoconvert ! video/x-raw,format=GRAY8")
        guard
            let white = pictures.buffers.first(where: { buffer in
                !buffer.bytes.isEmpty
                    && Double(buffer.bytes.reduce(0) { $0 + Int($1) }) / Double(buffer.bytes.count) > 128
            })
        else { throw JudgeError(description: "GStreamer found no white frame in \(movie)") }
        return Placement(click: click, whiteFrame: white.time)
    }

    private static func time(
        ofLoudestIn samples: [Float], frames: [(Double, Int)], rate: Double, player: String
    ) throws -> Double {
        guard let peak = samples.indices.max(by: { abs(samples[$0]) < abs(samples[$1]) }) else {
            throw JudgeError(description: "\(player) decoded no sound")
        }
        var start = 0
        for (time, count) in frames {
            if peak < start + count { return time + Double(peak - start) / rate }
            start += count
        }
        throw JudgeError(description: "\(player)'s frames hold \(start) samples, the click is at \(peak)")
    }

    private struct Buffer {
        var time: Double
        var bytes: [UInt8]
    }

    /// The buffers of one branch of `decodebin`: their times from `fakesink`'s log (`-v`, `silent=false`),
    /// their bytes from `fdsink` beside it through a `tee`, in the same order.
    private static func buffers(of movie: String, branch: String) throws -> (buffers: [Buffer], rate: Double) {
        let dump = FileManager.default.temporaryDirectory.appendingPathComponent("sync-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: dump) }
        let pipeline =
            "filesrc location=\(movie) ! decodebin ! \(branch) ! tee name=t "
            + "t. ! queue ! filesink location=\(dump) t. ! queue ! fakesink silent=false sync=false"
        let result = try ExternalTool.run(
            "gst-launch-1.0", ["-v"] + pipeline.split(separator: " ").map(String.init))
        guard result.status == 0 else {
            throw JudgeError(description: "GStreamer could not decode \(movie): \(result.stderr)")
        }
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
        var buffers: [Buffer] = []
        var offset = 0
        for line in result.stdout.split(whereSeparator: \.isNewline) where line.contains("chain") {
            guard let size = number(after: "sink) (", upTo: " bytes", in: line),
                let time = clock(after: "pts: ", in: line)
            else { continue }
            let count = Int(size)
            guard offset + count <= data.count else { break }
            buffers.append(Buffer(time: time, bytes: Array(data[offset..<offset + count])))
            offset += count
        }
        let rate = number(after: "rate=(int)", upTo: ",", in: Substring(result.stdout)) ?? 48000
        return (buffers, rate)
    }

    private static func number(after prefix: String, upTo suffix: String, in line: Substring) -> Double? {
        guard let start = line.range(of: prefix)?.upperBound,
            let end = line[start...].range(of: suffix)?.lowerBound
        else { return nil }
        return Double(line[start..<end].trimmingCharacters(in: .whitespaces))
    }

    /// A GStreamer clock time (`0:00:01.000000000`) in seconds.
    private static func clock(after prefix: String, in line: Substring) -> Double? {
        guard let start = line.range(of: prefix)?.upperBound else { return nil }
        let text = line[start...].prefix { $0 != "," && $0 != " " }
        let parts = text.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
}
