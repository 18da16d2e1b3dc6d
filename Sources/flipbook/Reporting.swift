import Flipbook
import Foundation

/// Formats what the tool says about a movie.
enum Reporting {
    /// The one-line summary on standard error.
    static func summaryLine(_ movie: MovieSummary, seconds: Double) -> String {
        String(
            format: "flipbook: wrote %@: %d frames, %.3f s, %dx%d %@, %@ (video %.0f kb/s) in %.1f s",
            movie.url.path, movie.frames, movie.duration.seconds, movie.width, movie.height, movie.codec,
            byteCount(movie.bytes), movie.videoBitrate / 1000, seconds)
            + (movie.sizeRoundedFrom.map { " (size \($0) rounded to \(movie.width)x\(movie.height))" } ?? "")
            + (movie.skippedImages.isEmpty ? "" : " (\(movie.skippedImages.count) invalid images skipped)")
    }

    /// The error line on standard error: the library's message in the tool's words (its parameter
    /// names become the options that set them, such as `overwrite: true` becoming `--overwrite`).
    static func errorLine(_ error: any Error) -> String {
        guard var failure = error as? FlipbookError else { return "flipbook: error: \(error)" }
        for (parameter, option) in [
            ("overwrite: true", "--overwrite"), ("the hold or warn gap policy", "--gaps hold or --gaps warn"),
        ] {
            failure.message = failure.message.replacingOccurrences(of: parameter, with: option)
        }
        return "flipbook: error: \(failure)"
    }

    /// The warning lines on standard error: each image left out, then anything to know about the
    /// finished movie (such as a folder that could not be flushed to the disk after the rename).
    static func warningLines(_ movie: MovieSummary) -> [String] {
        (movie.gapDescription.map { ["flipbook: warning: \($0)"] } ?? [])
            + movie.skippedImages.map { "flipbook: warning: skipped \($0)" }
            + movie.warnings.map { "flipbook: warning: \($0)" }
            + movie.notes.map { "flipbook: note: \($0)" }
            + (colourNote(movie).map { ["flipbook: note: \($0)"] } ?? [])
    }

    /// The images converted into the movie's colour space, by the space their files stated.
    static func colourNote(_ movie: MovieSummary) -> String? {
        guard !movie.colourConversions.isEmpty else { return nil }
        let counts = movie.colourConversions.sorted { $0.key < $1.key }.map {
            "\($0.value) from \($0.key)"
        }
        return "colours converted into the movie's space: " + counts.joined(separator: ", ")
    }

    /// Advice when the movie took its first image's size and that is larger than many players
    /// decode (past the codec's ``VideoCodec/decoderLimit(width:height:)``: H.264 past level 5.2,
    /// HEVC and AV1 past level 5.1), where phones, TVs and browsers decoding in hardware stop. It
    /// names a size of the images' shape within 3840x2160 (2160x3840 upright) and a 1080p cover.
    static func sizeAdvice(_ movie: MovieSummary, sizeGiven: Bool) -> String? {
        guard !sizeGiven else { return nil }
        let (width, height) = (movie.width, movie.height)
        guard let codec = VideoCodec(name: movie.codec), let limit = codec.decoderLimit(width: width, height: height)
        else { return nil }
        if codec.isAnimatedImage {
            let (boxWidth, boxHeight) = width >= height ? (640.0, 360.0) : (360.0, 640.0)
            let scale = min(boxWidth / Double(width), boxHeight / Double(height))
            func even(_ side: Int) -> Int { max(2, 2 * Int((Double(side) * scale / 2).rounded(.down))) }
            return "the \(codec.displayName) is \(width)x\(height), the first image's size: \(limit), and takes "
                + "\(movie.bytes / 1024) KiB; --size \(even(width))x\(even(height)) keeps the images' shape at about "
                + "\(Int((scale * scale * 100).rounded()))% of the pixels"
        }
        let (boxWidth, boxHeight) = width >= height ? (3840.0, 2160.0) : (2160.0, 3840.0)
        let scale = min(boxWidth / Double(width), boxHeight / Double(height))
        func even(_ side: Int) -> Int { 2 * Int((Double(side) * scale / 2).rounded(.down)) }
        return "the movie is \(width)x\(height), the first image's size: \(limit) does not play on many phones, TVs "
            + "and browsers' hardware decoders; --size \(even(width))x\(even(height)) keeps the images' shape, "
            + "--size 1920x1080 --fit cover fills a 1080p screen (both also encode faster)"
    }

    /// The `--json` object on standard output.
    static func json(_ movie: MovieSummary) -> String {
        var object: [String: Any] = [
            "output": movie.url.path,
            "frames": movie.frames,
            "duration": movie.duration.seconds,
            "width": movie.width,
            "height": movie.height,
            "codec": movie.codec,
            "bytes": movie.bytes,
            "videoBytes": movie.videoBytes,
            "videoBitrate": Int(movie.videoBitrate.rounded()),
            "passes": movie.passes,
        ]
        if !movie.missingNumbers.isEmpty { object["gaps"] = movie.missingNumbers }
        if !movie.skippedImages.isEmpty { object["skipped"] = movie.skippedImages.count }
        if !movie.warnings.isEmpty { object["warnings"] = movie.warnings }
        if !movie.colourConversions.isEmpty { object["colourConversions"] = movie.colourConversions }
        if !movie.notes.isEmpty { object["notes"] = movie.notes }
        if !movie.metadata.isEmpty { object["metadata"] = movie.metadata.tags }
        if movie.rotation != .upright { object["rotation"] = movie.rotation.degrees }
        if let audio = movie.audio {
            object["audio"] = [
                "codec": audio.codec, "sampleRate": audio.sampleRate, "channels": audio.channels,
                "duration": audio.duration,
            ]
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The progress line: frames done of total, rate, and time left.
    static func progressLine(_ progress: SequenceProgress) -> String {
        if progress.isFollowing { return followingLine(progress) }
        let rate = progress.elapsedSeconds > 0 ? Double(progress.framesDone) / progress.elapsedSeconds : 0
        let left = rate > 0 ? Double(progress.totalFrames - progress.framesDone) / rate : 0
        let percent = 100 * progress.framesDone / max(progress.totalFrames, 1)
        let pass = progress.passes > 1 ? "pass \(progress.pass) of \(progress.passes): " : ""
        return String(
            format: "flipbook: %@frame %d/%d (%d%%), %.1f fps, %@ left", pass, progress.framesDone,
            progress.totalFrames,
            percent, rate, clock(left))
    }

    /// The progress line for images on standard input, whose number is known only at its end.
    static func streamLine(_ progress: SequenceProgress) -> String {
        let rate = progress.elapsedSeconds > 0 ? Double(progress.framesDone) / progress.elapsedSeconds : 0
        return String(format: "flipbook: %d frames from standard input, %.1f fps", progress.framesDone, rate)
    }

    /// The progress line when following: frames taken, frames waited for, and what it waits for now.
    static func followingLine(_ progress: SequenceProgress) -> String {
        let rate = progress.elapsedSeconds > 0 ? Double(progress.framesDone) / progress.elapsedSeconds : 0
        let waiting =
            progress.waitingFor.map { ", waiting for image \($0)" }
            ?? (progress.framesDone == 0 ? ", waiting for the first image" : "")
        return String(
            format: "flipbook: following: %d frames taken, %d waited for, %.1f fps%@", progress.framesDone,
            progress.framesWaitedFor, rate, waiting)
    }

    private static func clock(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        return String(format: "%d:%02d", whole / 60, whole % 60)
    }

    private static func byteCount(_ bytes: UInt64) -> String {
        if bytes >= 1 << 20 { return String(format: "%.1f MiB", Double(bytes) / 1_048_576) }
        if bytes >= 1 << 10 { return String(format: "%.1f KiB", Double(bytes) / 1024) }
        return "\(bytes) bytes"
    }
}
