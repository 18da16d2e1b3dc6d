import Foundation

/// One field of one box as MediaInfo prints it with `--Details=1`: the file offset of the field,
/// its name and its value, in the box that was opened last before it.
public struct MediaInfoField: Sendable {
    /// The four-character type of the box the field belongs to.
    public var box: String
    /// Where the field is in the file (for `Name`, the box's start plus 4).
    public var offset: Int
    public var key: String
    public var value: String

    /// The value's leading number (`15 (0x0000000F)` is 15), if it starts with one.
    public var number: Int64? { value.split(separator: " ").first.flatMap { Int64($0) } }
}

/// MediaInfo (`mediainfo`, Debian's package) and ExifTool (`libimage-exiftool-perl`) as MP4 readers
/// that are not Flipbook's own: the judges of box-level claims.
public enum BoxReaders {
    /// Every field MediaInfo prints for `movie` with `--Details=1`, in file order.
    public static func mediaInfoFields(of movie: String) throws -> [MediaInfoField] {
        let result = try ExternalTool.run("mediainfo", ["--Details=1", movie])
        guard result.status == 0, !result.stdout.isEmpty else {
            throw JudgeError(description: "mediainfo could not read \(movie): \(result.stderr)")
        }
        var fields: [MediaInfoField] = []
        var box = ""
        // "0138     Time scale:                         12000 (0x00002EE0)": offset, indent, key, value.
        for line in result.stdout.split(separator: "\n") {
            guard let space = line.firstIndex(of: " "), let offset = Int(line[..<space], radix: 16),
                let colon = line[space...].firstIndex(of: ":")
            else { continue }
            let key = line[space..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if key == "Name" { box = value }
            fields.append(MediaInfoField(box: box, offset: offset, key: key, value: value))
        }
        return fields
    }

    /// The top-level boxes of `movie` in file order, as ExifTool lists them (`exiftool -v3`).
    public static func exifToolTopLevelBoxes(of movie: String) throws -> [String] {
        let result = try ExternalTool.run("exiftool", ["-v3", movie])
        guard result.status == 0 else {
            throw JudgeError(description: "exiftool could not read \(movie): \(result.stderr)")
        }
        // "  - Tag 'moov' (858 bytes):" at the top level; nested boxes are prefixed with "| ".
        return result.stdout.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  - Tag '") else { return nil }
            return String(line.dropFirst(9).prefix(4))
        }
    }

    /// The H.264 VUI colour fields of every sequence parameter set in `movie`'s stream, read by
    /// ffmpeg's `trace_headers` from the Annex B stream (no container, so no `colr` box) that
    /// `h264_mp4toannexb` extracts: `colour_primaries`, `transfer_characteristics`,
    /// `matrix_coefficients`, `video_full_range_flag`.
    public static func h264ColourFields(of movie: String, scratch folder: String) throws -> [[String: Int]] {
        let stream = "\(folder)/\(URL(fileURLWithPath: movie).lastPathComponent).h264"
        let extract = try ExternalTool.run(
            "ffmpeg",
            ["-v", "error", "-y", "-i", movie, "-c", "copy", "-bsf:v", "h264_mp4toannexb", "-f", "h264", stream])
        guard extract.status == 0 else { throw JudgeError(description: "ffmpeg could not extract: \(extract.stderr)") }
        let trace = try ExternalTool.run(
            "ffmpeg",
            ["-v", "trace", "-hide_banner", "-i", stream, "-c", "copy", "-bsf:v", "trace_headers", "-f", "null", "-"])
        // "[trace_headers @ 0x…] 81          colour_primaries                   00000001 = 1"
        var sets: [[String: Int]] = []
        for line in trace.stderr.split(separator: "\n") where line.hasPrefix("[trace_headers") {
            let words = line.split(separator: " ")
            guard words.count >= 4, let value = words.last.flatMap({ Int($0) }) else { continue }
            let name = String(words[words.count - 4])
            if name == "video_full_range_flag" { sets.append([:]) }
            if ["video_full_range_flag", "colour_primaries", "transfer_characteristics", "matrix_coefficients"]
                .contains(name), !sets.isEmpty
            {
                sets[sets.count - 1][name] = value
            }
        }
        return sets
    }
}
