import Foundation
import ISOBMFF
import Matroska
import MediaModel

extension MovieInfo {
    /// Reads the Matroska or WebM movie at `path`.
    static func matroska(at path: String) throws -> MovieInfo {
        do {
            return MovieInfo(try MatroskaFile(path: path))
        } catch let error as MediaReadingError {
            throw FlipbookError.movieUnreadable("Matroska or WebM", path: path, cause: error)
        } catch {
            throw FlipbookError.movieFileUnreadable(path: path, cause: SystemCause(error))
        }
    }

    /// The figures of a Matroska or WebM movie, named as for an MP4: the document type stands for
    /// the brand, the index (`Cues`) for the layout, ticks of the `TimestampScale` for the time scale.
    /// A movie whose writer did not finish it (a killed `--fragmented` encode) gives what its whole
    /// clusters hold, and says what is missing in ``problems``.
    init(_ file: MatroskaFile) {
        let video = file.videoTrack
        let frames = video.map(file.blocks(of:)) ?? []
        let record = video.flatMap {
            VisualCodecs.record(forProbeName: MatroskaCodecs.probeName(ofCodecID: $0.codecID))
        }
        let stated = ConfigurationProfile.read(
            box: record?.configurationBox?.description ?? "", payload: video?.codecPrivate ?? [])
        majorBrand = file.docType
        layout =
            !file.segmentSizeKnown
            ? "unfinished" : file.hasCues ? (file.cuesFirst ? "cues first" : "cues at end") : "no cues"
        codec = record?.probeName ?? MatroskaCodecs.probeName(ofCodecID: video?.codecID ?? "none")
        profile = stated.profile
        level = stated.level
        width = video?.pixelWidth ?? 0
        height = video?.pixelHeight ?? 0
        hasAlpha = video?.alphaMode == 1
        self.frames = frames.count
        duration = file.durationSeconds
        timescale = file.ticksPerSecond
        let rate = video?.defaultDuration.flatMap(MatroskaFile.frameRate(nanoseconds:))
        constantFrameRate = video.map(file.hasConstantFrameRate) ?? false
        frameRate =
            constantFrameRate
            ? rate.map { $0.denominator == 1 ? "\($0.numerator)" : "\($0.numerator)/\($0.denominator)" } ?? "variable"
            : frames.isEmpty ? "unknown" : "variable"
        averageFrameRate = duration > 0 ? Double(frames.count) / duration : 0
        colourPrimaries = video?.primaries.map { ColourNames.primaries(UInt16(clamping: $0)) }
        colourTransfer = video?.transferCharacteristics.map { ColourNames.transfer(UInt16(clamping: $0)) }
        colourMatrix = video?.matrixCoefficients.map { ColourNames.matrix(UInt16(clamping: $0)) }
        colourRange = [1: "tv", 2: "pc"][video?.range ?? 0]
        problems = file.problems
        if video == nil { problems.append("the movie has no video track") }
        if video != nil && frames.isEmpty { problems.append("the video track has no frames") }
        rotation = 0
        let bytes = frames.reduce(UInt64(0)) { $0 + UInt64($1.frameSize) }
        videoBitrate = duration > 0 && !frames.isEmpty ? (Double(bytes) * 8 / duration).rounded() : nil
        keyframeInterval = MatroskaFile.longestKeyframeDistance(frames)
        metadata = Dictionary(
            file.tags.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        if let title = file.title { metadata["title"] = title }
        if let date = file.dateUTC {
            metadata["creation_time"] = MovieMetadata.iso8601(
                Date(timeIntervalSinceReferenceDate: Double(date) / 1e9))
        }
        audio = file.audioTrack.map { track in
            AudioStreamInfo(
                codec: MatroskaCodecs.probeName(ofCodecID: track.codecID),
                sampleRate: track.samplingFrequency.isFinite && (1...1_000_000).contains(track.samplingFrequency)
                    ? Int(track.samplingFrequency) : 0,
                channels: track.channels, duration: file.playedSeconds(of: track))
        }
    }
}
