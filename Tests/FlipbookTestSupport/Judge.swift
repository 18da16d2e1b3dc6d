import Foundation

/// What ffprobe says about a movie's video stream.
public struct ProbedStream: Sendable {
    public var codecName: String
    public var profile: String
    public var pixelFormat: String
    public var width: Int
    public var height: Int
    public var colorSpace: String
    public var colorRange: String
    public var colorPrimaries: String
    public var colorTransfer: String
    public var frameCount: Int
    public var duration: String
    public var timeBase: String
}

/// One decoded frame as ffprobe reports it: times are exact strings, in seconds.
public struct ProbedFrame: Sendable {
    public var pts: Int64
    public var ptsTime: String
    public var duration: Int64
    public var keyFrame: Bool
}

/// ffprobe and ffmpeg (Debian's `ffmpeg` package) as the outside judge of Flipbook's movies.
public enum Judge {
    /// The first video stream's properties.
    public static func stream(of movie: String) throws -> ProbedStream {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                "stream=codec_name,profile,pix_fmt,width,height,color_space,color_range,color_primaries,"
                    + "color_transfer,nb_read_frames,duration,time_base",
                "-of", "json", movie,
            ])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let stream = (object["streams"] as? [[String: Any]])?.first
        else {
            throw JudgeError(description: "ffprobe could not read \(movie): \(result.stderr)")
        }
        func text(_ key: String) -> String { stream[key].map { "\($0)" } ?? "" }
        return ProbedStream(
            codecName: text("codec_name"), profile: text("profile"), pixelFormat: text("pix_fmt"),
            width: stream["width"] as? Int ?? 0, height: stream["height"] as? Int ?? 0,
            colorSpace: text("color_space"), colorRange: text("color_range"), colorPrimaries: text("color_primaries"),
            colorTransfer: text("color_transfer"), frameCount: Int(text("nb_read_frames")) ?? -1,
            duration: text("duration"), timeBase: text("time_base"))
    }

    /// Every decoded frame, in presentation order.
    public static func frames(of movie: String) throws -> [ProbedFrame] {
        let result = try ExternalTool.run(
            "ffprobe",
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts,pts_time,pkt_duration,key_frame",
                "-of",
                "json", movie,
            ])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let frames = object["frames"] as? [[String: Any]]
        else {
            throw JudgeError(description: "ffprobe could not list the frames of \(movie): \(result.stderr)")
        }
        return frames.map { frame in
            ProbedFrame(
                pts: (frame["pts"] as? NSNumber)?.int64Value ?? -1, ptsTime: frame["pts_time"] as? String ?? "",
                duration: (frame["pkt_duration"] as? NSNumber)?.int64Value ?? -1,
                keyFrame: frame["key_frame"] as? Int == 1)
        }
    }

    /// The container's duration in seconds, as ffprobe reports it (an exact decimal string).
    public static func formatDuration(of movie: String) throws -> String {
        let result = try ExternalTool.run(
            "ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", movie])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// What ffmpeg prints on standard error when it decodes the whole movie strictly; empty means clean.
    public static func decodeErrors(of movie: String) throws -> String {
        let result = try ExternalTool.run(
            "ffmpeg", ["-v", "error", "-xerror", "-err_detect", "+explode", "-i", movie, "-f", "null", "-"])
        return result.status == 0 ? result.stderr : "exit \(result.status): " + result.stderr
    }

    /// Mean PSNR (Y, U and V together) of `movie` against the source images, both compared as
    /// BT.709 limited-range 4:2:0, the colour the movie is tagged with.
    ///
    /// - Parameter pattern: an ffmpeg image2 pattern for the sources, such as `dir/frame%03d.png`.
    ///
    /// - Parameter byIndex: Pair the movie's frames with the images by their order rather than their
    ///   times, for a container whose ticks round a frame's time (Matroska's 100 µs: 0.0333 s lies
    ///   before the image at 1/30 s, and ffmpeg's time-based pairing would take the image before).
    public static func psnr(
        of movie: String, againstImages pattern: String, frameRate: String = "30", byIndex: Bool = false
    ) throws -> Double {
        let renumber = byIndex ? "settb=1,setpts=N," : ""
        return try psnr(
            of: movie, againstImages: pattern, frameRate: frameRate, movieFilters: "\(renumber)format=yuv420p",
            imageFilters: "\(renumber)scale=out_color_matrix=bt709:out_range=tv,format=yuv420p")
    }

    /// Mean PSNR (every plane together) of `movie` against the source images, each through its own
    /// ffmpeg filters first (which must end in the same pixel format).
    public static func psnr(
        of movie: String, againstImages pattern: String, frameRate: String = "30", movieFilters: String,
        imageFilters: String
    ) throws -> Double {
        let result = try ExternalTool.run(
            "ffmpeg",
            [
                "-v", "info", "-nostats", "-i", movie, "-framerate", frameRate, "-i", pattern, "-lavfi",
                "[1:v]\(imageFilters)[ref];[0:v]\(movieFilters)[mov];[mov][ref]psnr",
                "-f", "null", "-",
            ])
        guard
            let line = result.stderr.split(separator: "\n").last(where: {
                $0.contains("PSNR") && $0.contains("average:")
            }),
            let range = line.range(of: "average:")
        else {
            throw JudgeError(description: "ffmpeg did not report a PSNR for \(movie): \(result.stderr.suffix(2000))")
        }
        let value = line[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
        if value == "inf" { return .infinity }
        guard let psnr = Double(value) else { throw JudgeError(description: "unreadable PSNR line: \(line)") }
        return psnr
    }
}

/// A judge could not judge.
public struct JudgeError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

extension Judge {
    /// The mean luma (0...255) of every decoded frame, in presentation order.
    ///
    /// - Throws: ``JudgeError`` when ffmpeg exits non-zero or decodes no whole frames.
    public static func lumaMeans(of movie: String) throws -> [Double] {
        let info = try stream(of: movie)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Every decoded frame once: no frame repeated to fill a stream that starts before the pictures.
        process.arguments = [
            "ffmpeg", "-v", "error", "-i", movie, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-",
        ]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // Only `-v error` lines reach standard error, so it cannot fill the pipe unread.
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw JudgeError(
                description: "ffmpeg could not decode \(movie) (exit \(process.terminationStatus)): \(message)")
        }
        let frameBytes = info.width * info.height
        guard frameBytes > 0, !data.isEmpty, data.count % frameBytes == 0 else {
            throw JudgeError(
                description: "ffmpeg decoded \(data.count) bytes, not whole \(info.width)x\(info.height) frames")
        }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: frameBytes).map { start in
            Double(bytes[start..<start + frameBytes].reduce(0) { $0 + Int($1) }) / Double(frameBytes)
        }
    }
}

extension SampleImages {
    /// Writes one flat grey image per level in `levels` (0...255), named `prefix1.png`, `prefix2.png` …
    /// in the order given, so a movie's frame order can be read back from its brightness.
    @discardableResult
    public static func writeGreyLevels(
        _ levels: [Int], width: Int = 64, height: Int = 64, into folder: String, prefix: String = "f"
    ) throws -> [String] {
        var paths: [String] = []
        for (offset, level) in levels.enumerated() {
            let path = "\(folder)/\(prefix)\(offset + 1).png"
            let colour = String(format: "0x%02X%02X%02X", level, level, level)
            let result = try ExternalTool.run(
                "ffmpeg",
                [
                    "-v", "error", "-f", "lavfi", "-i", "color=c=\(colour):s=\(width)x\(height)", "-frames:v", "1",
                    "-pix_fmt", "rgb24", path,
                ])
            guard result.status == 0 else { throw JudgeError(description: "ffmpeg: \(result.stderr)") }
            paths.append(path)
        }
        return paths
    }
}

/// One packet as ffprobe reports it, in decode order.
public struct ProbedPacket: Sendable {
    public var pts: Int64
    public var dts: Int64
    public var isKeyframe: Bool
}

extension Judge {
    /// Every packet of the first video stream, in decode order.
    public static func packets(of movie: String) throws -> [ProbedPacket] {
        let result = try ExternalTool.run(
            "ffprobe",
            ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,dts,flags", "-of", "json", movie])
        guard result.status == 0,
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
            let packets = object["packets"] as? [[String: Any]]
        else {
            throw JudgeError(description: "ffprobe could not list the packets of \(movie): \(result.stderr)")
        }
        return packets.map { packet in
            ProbedPacket(
                pts: (packet["pts"] as? NSNumber)?.int64Value ?? Int64.min,
                dts: (packet["dts"] as? NSNumber)?.int64Value ?? Int64.min,
                isKeyframe: (packet["flags"] as? String)?.hasPrefix("K") == true)
        }
    }
}

extension Judge {
    /// Every decoded frame as 8-bit RGB rows (`width * 3` bytes each), converted by ffmpeg from the
    /// movie's own colour tags (matrix and range: ffmpeg 5.1's `auto`, which reads them) with
    /// swscale's accurate rounding and full chroma interpolation, as a careful player would.
    public static func decodedRGB(of movie: String) throws -> (width: Int, height: Int, frames: [[UInt8]]) {
        let info = try stream(of: movie)
        let result = try ExternalTool.runForData(
            "ffmpeg",
            [
                "-v", "error", "-i", movie, "-vf",
                "scale=in_color_matrix=auto:in_range=auto:flags=accurate_rnd+full_chroma_int+bitexact",
                "-pix_fmt", "rgb24", "-f", "rawvideo", "-",
            ])
        let frameBytes = info.width * info.height * 3
        guard frameBytes > 0, !result.isEmpty, result.count % frameBytes == 0 else {
            throw JudgeError(
                description: "ffmpeg decoded \(result.count) bytes, not whole \(info.width)x\(info.height) RGB frames")
        }
        let bytes = [UInt8](result)
        let frames = stride(from: 0, to: bytes.count, by: frameBytes).map { Array(bytes[$0..<$0 + frameBytes]) }
        return (info.width, info.height, frames)
    }
}

extension ExternalTool {
    /// Runs a program (given `stdin` on its standard input, or none) and returns its standard output
    /// as bytes; standard error is discarded, and a program that fails (non-zero status or a signal)
    /// is an error, not a short output.
    public static func runForData(_ executable: String, _ arguments: [String], stdin: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice
        try process.run()
        if let input, let stdin {
            // Written from another thread, so a program that writes before it has read all can go on.
            let writer = input.fileHandleForWriting
            Thread.detachNewThread {
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw JudgeError(
                description:
                    "\(executable) \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return data
    }
}

extension Judge {
    /// Every decoded frame's alpha channel as 8-bit samples (`width * height` each), as ffmpeg's
    /// `alphaextract` gives it.
    ///
    /// - Throws: ``JudgeError`` when ffmpeg fails or decodes no whole frames.
    public static func decodedAlpha(of movie: String) throws -> [[UInt8]] {
        let info = try stream(of: movie)
        let raw = [UInt8](
            try ExternalTool.runForData(
                "ffmpeg",
                ["-v", "error", "-i", movie, "-vf", "alphaextract", "-pix_fmt", "gray", "-f", "rawvideo", "-"]))
        let frameBytes = info.width * info.height
        guard frameBytes > 0, !raw.isEmpty, raw.count % frameBytes == 0 else {
            throw JudgeError(
                description: "ffmpeg decoded \(raw.count) bytes of alpha, not whole \(info.width)x\(info.height) frames"
            )
        }
        return stride(from: 0, to: raw.count, by: frameBytes).map { Array(raw[$0..<$0 + frameBytes]) }
    }
}
