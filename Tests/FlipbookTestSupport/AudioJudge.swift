import Foundation

/// A sound stream as ffprobe reports it.
public struct ProbedAudioStream: Sendable {
    public var codecName: String
    public var sampleRate: Int
    public var channels: Int
    /// Seconds, `nan` when not reported.
    public var startTime: Double
    /// Seconds, `nan` when not reported.
    public var duration: Double
    /// Where the stream ends: start plus duration.
    public var end: Double { startTime + duration }
}

/// One packet of a movie, in file order, for judging how the tracks are interleaved.
public struct PlacedPacket: Sendable {
    public var stream: Int
    public var seconds: Double
    public var position: Int
}

/// Judges of sound: ffprobe for streams and packet hashes, ffmpeg to make sound files.
public enum AudioJudge {
    /// The first sound stream of a movie or sound file.
    public static func stream(of file: String) throws -> ProbedAudioStream {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries",
                "stream=codec_name,sample_rate,channels,start_time,duration", "-of", "json", file,
            ])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let stream = (object["streams"] as? [[String: Any]])?.first
        else { throw JudgeError(description: "ffprobe found no sound stream in \(file): \(result.stderr)") }
        func number(_ key: String) -> Double { Double(stream[key] as? String ?? "") ?? .nan }
        return ProbedAudioStream(
            codecName: stream["codec_name"] as? String ?? "", sampleRate: Int(number("sample_rate")),
            channels: (stream["channels"] as? NSNumber)?.intValue ?? 0, startTime: number("start_time"),
            duration: number("duration"))
    }

    /// The MD5 of every sound packet's data, in decode order (`ffprobe -show_data_hash`).
    public static func packetHashes(of file: String) throws -> [String] {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "a:0", "-show_entries", "packet=data_hash", "-show_data_hash", "md5",
                "-of", "csv=p=0", file,
            ])
        guard result.status == 0 else { throw JudgeError(description: "ffprobe: \(result.stderr)") }
        // A packet with side data (the priming packet's skip samples) has more fields before its hash.
        return result.stdout.split(separator: "\n").compactMap { line in
            line.range(of: "MD5:").map { String(line[$0.upperBound...].prefix(32)) }
        }
    }

    /// The MD5 of every packet of an ADTS file's raw data blocks (headers stripped by ffmpeg's
    /// `aac_adtstoasc`), as they are in an MP4.
    public static func adtsPacketHashes(of file: String) throws -> [String] {
        let result = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-i", file, "-map", "0:a", "-c", "copy", "-bsf:a", "aac_adtstoasc", "-f", "framemd5", "-"])
        guard result.status == 0 else { throw JudgeError(description: "ffmpeg: \(result.stderr)") }
        return result.stdout.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let fields = line.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return fields.count >= 6 ? fields[5] : nil
        }
    }

    /// Every packet of every stream with its presentation time and file position.
    public static func placedPackets(of movie: String) throws -> [PlacedPacket] {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "packet=stream_index,pts_time,pos", "-of", "csv=p=0", movie])
        guard result.status == 0 else { throw JudgeError(description: "ffprobe: \(result.stderr)") }
        return result.stdout.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let stream = Int(fields[0]), let seconds = Double(fields[1]),
                let position = Int(fields[2])
            else { return nil }
            return PlacedPacket(stream: stream, seconds: seconds, position: position)
        }
    }

    /// How many times the file switches from one stream's packets to another's, read front to back.
    public static func streamSwitches(of movie: String) throws -> Int {
        let packets = try placedPackets(of: movie).sorted { $0.position < $1.position }
        return zip(packets, packets.dropFirst()).filter { $0.stream != $1.stream }.count
    }

    /// Makes a sound file with ffmpeg from a lavfi source (`sine=frequency=440:duration=3`) and
    /// encoder arguments (`-c:a aac`).
    public static func makeSound(_ path: String, source: String, _ arguments: [String]) throws {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", source] + arguments + [path])
        guard result.status == 0 else {
            throw JudgeError(description: "ffmpeg could not make \(path): \(result.stderr)")
        }
    }

    /// The first sound stream decoded by ffmpeg (edit list applied), mixed to one channel of floats.
    public static func decodedSamples(of file: String) throws -> [Float] {
        let data = try ExternalTool.runForData(
            "ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-ac", "1", "-f", "f32le", "-"])
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    /// The time in seconds of the loudest sample of a file's sound, as ffmpeg decodes it.
    public static func loudestMoment(of file: String) throws -> Double {
        let samples = try decodedSamples(of: file)
        let rate = try stream(of: file).sampleRate
        guard let peak = samples.indices.max(by: { abs(samples[$0]) < abs(samples[$1]) }), rate > 0 else {
            throw JudgeError(description: "ffmpeg decoded no sound from \(file)")
        }
        return Double(peak) / Double(rate)
    }
}
