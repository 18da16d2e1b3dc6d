import Foundation
import MediaModel

/// What a movie file holds, read from its boxes: the figures `flipbook probe` prints.
///
/// Works on MP4 and QuickTime files from any tool, plain or fragmented, and never traps: malformed
/// input throws ``MediaReadingError`` or is listed under ``problems``.
package struct MovieInspection: Sendable, Codable, Equatable {
    /// The `ftyp` major brand, such as `isom` or `qt  `.
    package var majorBrand: String
    /// `faststart` (index before media), `index at end`, or `fragmented`.
    package var layout: String
    /// The codec as ffprobe names it (`h264`, `hevc`), or the sample entry's type.
    package var codec: String
    /// The H.264 or AV1 profile, such as `High` or `Main`.
    package var profile: String?
    /// The H.264 or AV1 level, such as 3.1.
    package var level: Double?
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// Whether the pictures carry an alpha channel, as the sample entry's depth (32) says.
    package var hasAlpha = false
    /// Number of frames (samples) in the video track.
    package var frames: Int
    /// Presentation duration in seconds.
    package var duration: Double
    /// The video track's time scale, ticks a second.
    package var timescale: UInt32
    /// `30`, `30000/1001` …, or `variable`.
    package var frameRate: String
    /// Whether every frame lasts the same time (the last frame may differ).
    package var constantFrameRate: Bool
    /// Frames divided by the media's duration.
    package var averageFrameRate: Double
    /// Colour tags from the `colr` box, as ffprobe names them; `nil` when the file has none.
    package var colourPrimaries: String?
    package var colourTransfer: String?
    package var colourMatrix: String?
    /// `tv` (limited) or `pc` (full), when the `colr` box says.
    package var colourRange: String?
    /// Structural problems found; empty for a sound file.
    package var problems: [String]
    /// The sound track, if the movie has one.
    package var audio: AudioInspection? = nil
    /// Degrees the video track's matrix turns its pictures clockwise for display (0, 90, 180, 270);
    /// `nil` when the matrix does something else.
    package var rotation: Int? = 0
    /// The video samples' bytes, from the sample table; `nil` for a fragmented movie.
    package var videoBytes: UInt64? = nil
    /// The most frames from one keyframe to the next (or to the end), from the sample table; `nil` for
    /// a fragmented movie.
    package var keyframeInterval: Int? = nil
    /// Seconds since 1904 in `mvhd`; 0 when not set.
    package var creationTime: UInt64 = 0
    /// The movie's tags (title, artist …), by the names ffmpeg gives them.
    package var tags: [MovieTags.Item] = []

    /// Inspects the movie file at `path`.
    package static func inspect(path: String) throws -> MovieInspection {
        try inspect(MovieFileBytes(path: path))
    }

    /// Inspects a movie's describing bytes.
    package static func inspect(_ file: MovieFileBytes) throws -> MovieInspection {
        let boxes = try BoxReader.parse(file.bytes, fileSize: file.fileSize)
        guard let moov = boxes.first("moov") else {
            throw MediaReadingError.isoBMFF(.missing, "no moov box: this is not a complete MP4 or QuickTime movie")
        }
        guard let trak = videoTrack(in: moov, bytes: file.bytes) else {
            throw MediaReadingError.isoBMFF(.missing, "the movie has no video track")
        }
        let fragmented = moov.child("mvex") != nil || boxes.first("moof") != nil
        let moovIndex = file.topLevel.firstIndex { $0.type == "moov" } ?? 0
        let mdatIndex = file.topLevel.firstIndex { $0.type == "mdat" }
        let layout =
            fragmented ? "fragmented" : (mdatIndex.map { moovIndex < $0 } ?? true) ? "faststart" : "index at end"
        let brand = try boxes.first("ftyp").map { try FileTypeBox(reading: $0, in: file.bytes).majorBrand.description }

        var inspection = MovieInspection(
            majorBrand: brand ?? "none", layout: layout, codec: "unknown", profile: nil, level: nil, width: 0,
            height: 0,
            frames: 0, duration: 0, timescale: 0, frameRate: "unknown", constantFrameRate: false, averageFrameRate: 0,
            colourPrimaries: nil, colourTransfer: nil, colourMatrix: nil, colourRange: nil, problems: [])
        try inspection.readSampleDescription(of: trak, bytes: file.bytes)
        inspection.audio = try AudioInspection.inspect(moov: moov, bytes: file.bytes)
        let tags = MovieTags(reading: moov, in: file.bytes)
        inspection.creationTime = tags.creationTime
        inspection.tags = tags.items
        if let tkhd = trak.child("tkhd"), let header = try? TrackHeaderBox(reading: tkhd, in: file.bytes) {
            inspection.rotation = header.rotation
        }
        guard let mdhd = trak.descendant(["mdia", "mdhd"]) else {
            throw MediaReadingError.isoBMFF(.missing, "the video track has no mdhd box")
        }
        let mediaHeader = try MediaHeaderBox(reading: mdhd, in: file.bytes)
        inspection.timescale = mediaHeader.timescale
        guard mediaHeader.timescale > 0 else {
            throw MediaReadingError.isoBMFF(.malformed, "the video track's time scale is zero")
        }

        var durations: [UInt64]
        if fragmented {
            durations = try FragmentReader.sampleDurations(boxes: boxes, moov: moov, bytes: file.bytes)
        } else {
            let table = try SampleTableReader(bytes: file.bytes, fileSize: file.fileSize)
            inspection.problems += table.validate()
            inspection.videoBytes = table.samples.reduce(0) { $0 &+ UInt64($1.size) }
            inspection.keyframeInterval = Self.longestKeyframeDistance(table.samples.map(\.isSync))
            // One duration per sample, never more: each stts entry may claim 2^32 samples.
            durations = []
            durations.reserveCapacity(table.samples.count)
            for entry in table.timeToSample.entries where durations.count < table.samples.count {
                let count = min(Int(entry.sampleCount), table.samples.count - durations.count)
                durations += repeatElement(UInt64(entry.sampleDelta), count: count)
            }
        }
        inspection.frames = durations.count
        inspection.describeRate(durations: durations)
        try inspection.readDuration(moov: moov, trak: trak, bytes: file.bytes, mediaTicks: durations.reduce(0, &+))
        if inspection.frames == 0 { inspection.problems.append("the video track has no frames") }
        return inspection
    }

    /// The most samples from one sync sample to the next, or to the end after the last; `nil` without samples.
    static func longestKeyframeDistance(_ sync: [Bool]) -> Int? {
        guard !sync.isEmpty else { return nil }
        var longest = 0
        var last = 0
        for (index, isSync) in sync.enumerated().dropFirst() where isSync {
            longest = max(longest, index - last)
            last = index
        }
        return max(longest, sync.count - last)
    }

    /// The first track whose handler is `vide`, or the first track.
    private static func videoTrack(in moov: Box, bytes: [UInt8]) -> Box? {
        let tracks = moov.children("trak")
        return tracks.first { trak in
            guard let hdlr = trak.descendant(["mdia", "hdlr"]) else { return false }
            return (try? HandlerBox(reading: hdlr, in: bytes).handlerType.description) == "vide"
        } ?? tracks.first
    }

    private mutating func readSampleDescription(of trak: Box, bytes: [UInt8]) throws {
        guard let stsd = trak.descendant(["mdia", "minf", "stbl", "stsd"]), let entry = stsd.children.first else {
            problems.append("the video track has no sample description")
            return
        }
        let record = VisualCodecs.record(forEntryType: entry.type)
        codec = record?.probeName ?? entry.type.trimmingCharacters(in: .whitespaces)
        profile = record?.profileByEntryType[entry.type]
        if let visual = try? VisualSampleEntry(reading: entry, in: bytes) {
            width = Int(visual.width)
            height = Int(visual.height)
            hasAlpha = visual.depth == 32
        }
        if let avcC = entry.child("avcC") {
            let configuration = try AVCConfigurationBox(reading: avcC, in: bytes).configuration
            profile = ColourNames.profile(
                configuration.profileIndication, compatibility: configuration.profileCompatibility)
            level = Double(configuration.levelIndication) / 10
        }
        for box in ["hvcC", "av1C"] {
            guard let child = entry.child(box) else { continue }
            let end = min(child.end, bytes.count)
            let stated = ConfigurationProfile.read(
                box: box, payload: Array(bytes[min(child.offset + child.headerSize, end)..<end]))
            if stated.profile != nil || stated.level != nil { (profile, level) = stated }
        }
        if let vpcC = entry.child("vpcC"), vpcC.size - vpcC.headerSize >= 6 {
            // version and flags, then profile and ten times the level.
            let payload = vpcC.offset + vpcC.headerSize
            profile = "Profile \(bytes[payload + 4])"
            level = Double(bytes[payload + 5]) / 10
        }
        if let colr = entry.child("colr"), let colour = try ColourInformationBox(reading: colr, in: bytes).colour {
            colourPrimaries = ColourNames.primaries(colour.colourPrimaries)
            colourTransfer = ColourNames.transfer(colour.transferCharacteristics)
            colourMatrix = ColourNames.matrix(colour.matrixCoefficients)
            if (try? ColourInformationBox(reading: colr, in: bytes).colourType.description) == "nclx" {
                colourRange = colour.fullRange ? "pc" : "tv"
            }
        }
    }

    /// Constant when every sample but possibly the last lasts the same; the rate is then exact.
    private mutating func describeRate(durations: [UInt64]) {
        let body = durations.count > 1 ? durations.dropLast() : durations[...]
        let total = durations.reduce(0, &+)
        averageFrameRate = total > 0 ? Double(durations.count) * Double(timescale) / Double(total) : 0
        guard let first = body.first, first > 0, body.allSatisfy({ $0 == first }) else {
            constantFrameRate = false
            frameRate = durations.isEmpty ? "unknown" : "variable"
            return
        }
        constantFrameRate = true
        var (top, bottom) = (UInt64(timescale), first)
        var (a, b) = (top, bottom)
        while b != 0 { (a, b) = (b, a % b) }
        top /= a
        bottom /= a
        frameRate = bottom == 1 ? "\(top)" : "\(top)/\(bottom)"
    }

    /// The presentation's length: the movie header's duration, else the edit list's, else the media's.
    private mutating func readDuration(moov: Box, trak: Box, bytes: [UInt8], mediaTicks: UInt64) throws {
        if let mvhd = moov.child("mvhd") {
            let header = try MovieHeaderBox(reading: mvhd, in: bytes)
            if header.timescale > 0 && header.duration > 0 {
                duration = Double(header.duration) / Double(header.timescale)
                return
            }
        }
        duration = Double(mediaTicks) / Double(max(timescale, 1))
    }
}
