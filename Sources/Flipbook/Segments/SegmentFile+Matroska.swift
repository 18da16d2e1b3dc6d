import Foundation
import ISOBMFF
import Matroska
import MediaModel

extension SegmentFile {
    /// Reads a Matroska or WebM segment: its description from the binary `FLIPBOOK_` tag, its frames'
    /// places and times from its blocks, put back on the movie's clock by ``MatroskaSegmentClock``.
    /// Only the file's elements are read, never its frames.
    init(matroskaAt url: URL) throws {
        let path = url.path
        let file = try Self.matroskaFile(at: path)
        guard file.problems.isEmpty, let duration = file.duration else {
            let problem = file.problems.first ?? "it has no Duration"
            throw FlipbookError.segmentNotJoinable(path, "the segment was not finished (\(problem)); encode it again")
        }
        guard let info = file.extensionPayload(userType: SegmentInfo.userType).flatMap(SegmentInfo.init(payload:))
        else { throw FlipbookError.notAFlipbookSegment(path) }
        guard file.tracks.count == 1, let video = file.videoTrack else {
            throw FlipbookError.segmentTrackCount(path, file.tracks.count)
        }
        let sampleEntry = try Self.sampleEntry(of: video, path: path)
        guard file.timestampScale == MatroskaClock.nanosecondsPerTick, let timescale = info.timescale,
            let frameDuration = info.frameDuration
        else {
            throw FlipbookError.segmentNotJoinable(
                path,
                "the segment does not record its clock (a TimestampScale of \(file.timestampScale) ns, no movie time "
                    + "scale); encode it again with this version of Flipbook")
        }
        let clock = MatroskaSegmentClock(timescale: Int64(timescale), frameDuration: frameDuration)
        guard let end = clock.movieTime(ofDuration: duration) else {
            throw FlipbookError.segmentNotJoinable(
                path, "the segment's Duration (\(duration) ticks) is not a length a movie can have")
        }
        guard clock.isExact else {
            throw FlipbookError.segmentNotJoinable(
                path, "the segment's frames are too short for their block times to be put back exactly")
        }
        let blocks = file.blocks
        guard !blocks.isEmpty else { throw FlipbookError.segmentHasNoFrames(path) }
        let presentation = try Self.presentationTimes(of: blocks, track: video.number, clock: clock, path: path)
        let delay = MatroskaSegmentClock.reorderDelay(presentation: presentation)
        let decode = clock.decodeTimes(presentation: presentation, delay: delay)
        let origin = decode[0]
        let alphaPictures: [(offset: UInt64, size: Int)?] = video.alphaMode == 1 ? blocks.map { $0.alpha } : []
        if let missing = alphaPictures.firstIndex(where: { $0 == nil }) {
            throw FlipbookError.segmentNotJoinable(
                path,
                "the frame at offset \(blocks[missing].frameOffset) has no alpha picture, though the segment keeps "
                    + "alpha; a join would show it opaque")
        }
        let samples = zip(blocks, zip(presentation, decode)).map { block, times in
            SampleTableReader.DecodedSample(
                decodeTime: UInt64(times.1 - origin), compositionOffset: times.0 - times.1,
                size: UInt32(block.frameSize), offset: block.frameOffset, isSync: block.isKeyframe)
        }
        self.init(
            url: url, info: info, sampleEntry: sampleEntry, width: video.pixelWidth, height: video.pixelHeight,
            codecName: sampleEntry.codecName, timescale: UInt32(timescale),
            sampleDescription: Array(video.codecID.utf8) + [0] + (video.codecPrivate ?? []),
            tags: Self.tags(of: file), rotation: .upright,
            samples: samples, alphaPictures: alphaPictures, offset: origin, reorderDelay: delay,
            start: presentation.min()!, end: end)
    }

    /// The same Matroska segment decoded `frames` behind its presentation (at least its own delay):
    /// segments too short for the encoder's full reordering take the longest delay of a join's
    /// segments, so that every segment's decode times follow on from the one before.
    func decoded(framesBehind frames: Int) -> SegmentFile {
        guard let delay = reorderDelay, frames > delay, let frameDuration = info.frameDuration else { return self }
        let presentation = samples.map { offset + Int64($0.decodeTime) + $0.compositionOffset }
        let clock = MatroskaSegmentClock(timescale: Int64(timescale), frameDuration: frameDuration)
        let decode = clock.decodeTimes(presentation: presentation, delay: frames)
        var delayed = self
        delayed.offset = decode[0]
        delayed.reorderDelay = frames
        delayed.samples = zip(samples, zip(presentation, decode)).map { sample, times in
            var sample = sample
            sample.decodeTime = UInt64(times.1 - decode[0])
            sample.compositionOffset = times.0 - times.1
            return sample
        }
        return delayed
    }

    /// The segment's file, read; an error naming it when it cannot be.
    private static func matroskaFile(at path: String) throws -> MatroskaFile {
        do {
            return try MatroskaFile(path: path)
        } catch let error as MediaReadingError {
            throw FlipbookError.segmentNotAMovie(path, cause: error)
        } catch {
            throw FlipbookError.segmentNotReadable(path, cause: error)
        }
    }

    /// Each block's frame time on the movie's clock, in decode order: all different, each one frame
    /// of one block of `track`.
    private static func presentationTimes(
        of blocks: [MatroskaBlockEntry], track: Int, clock: MatroskaSegmentClock, path: String
    ) throws -> [Int64] {
        var presentation: [Int64] = []
        presentation.reserveCapacity(blocks.count)
        for block in blocks {
            guard block.track == track else {
                throw FlipbookError.segmentNotJoinable(
                    path,
                    "the block at offset \(block.frameOffset) is of track \(block.track), which the segment does not have"
                )
            }
            guard block.lacing == 0 else {
                throw FlipbookError.segmentNotJoinable(
                    path,
                    "the block at offset \(block.frameOffset) packs several frames (lacing), which a join does not copy"
                )
            }
            guard block.frameSize <= Int(UInt32.max) else {
                throw FlipbookError.segmentNotJoinable(
                    path,
                    "the frame at offset \(block.frameOffset) is \(block.frameSize) bytes, more than a sample holds")
            }
            guard let time = clock.movieTime(ofTicks: block.time) else {
                throw FlipbookError.segmentNotJoinable(
                    path,
                    "the block at offset \(block.frameOffset) is at tick \(block.time), on no frame of the segment's "
                        + "\(clock.timescale)-tick clock; the segment was not written by Flipbook")
            }
            presentation.append(time)
        }
        guard Set(presentation).count == presentation.count else {
            throw FlipbookError.segmentNotJoinable(path, "two of the segment's frames are presented at the same time")
        }
        return presentation
    }

    /// The MP4 sample entry of a Matroska video track, for a joined movie of either container.
    private static func sampleEntry(
        of video: MatroskaTrackEntry, path: String
    ) throws -> VideoSampleEntry {
        guard video.codecID != "V_PRORES" else {
            // Matroska stores ProRes frames without their 8-byte frame header, which a joined movie
            // would have to put back.
            throw FlipbookError.segmentNotJoinable(
                path, "ProRes segments written as Matroska cannot be joined; write ProRes segments as .mov")
        }
        guard !video.isEncoded,
            let record = VisualCodecs.record(forProbeName: MatroskaCodecs.probeName(ofCodecID: video.codecID)),
            let box = record.configurationBox, let format = record.entryTypes.first,
            let codecPrivate = video.codecPrivate, let codec = VideoCodec(name: record.probeName)
        else {
            let name = MatroskaCodecs.probeName(ofCodecID: video.codecID)
            throw FlipbookError.segmentNotJoinable(
                path,
                video.isEncoded
                    ? "the segment's \(name) frames are compressed or encrypted inside the file, which a join does not undo"
                    : "a segment of \(name) cannot be joined; Flipbook joins h264, hevc, av1 and vp9 segments")
        }
        var colour = ColourDescription(
            UInt16(clamping: video.primaries ?? 1), UInt16(clamping: video.transferCharacteristics ?? 1),
            UInt16(clamping: video.matrixCoefficients ?? 1), fullRange: video.range == 2)
        colour.masteringDisplay = video.masteringDisplay
        colour.contentLight = video.contentLight
        var configuration = CodecConfiguration(boxType: box, payload: codecPrivate)
        if video.codecID == "V_VP9" {
            // Matroska's VP9 private data is a list of features; MP4's record is built from them.
            guard let features = VP9CodecFeatures(codecPrivate: codecPrivate) else {
                throw FlipbookError.segmentNotJoinable(path, "the segment's VP9 codec private data cannot be read")
            }
            configuration = features.configuration(colour: colour).codecConfiguration
        }
        var entry = VideoSampleEntry(
            format: format, width: video.pixelWidth, height: video.pixelHeight, configuration: configuration,
            colour: colour, compressorName: "Flipbook \(codec.displayName)")
        entry.hasAlpha = video.alphaMode == 1
        return entry
    }

    /// The segment's title, creation time and tags, named as Flipbook names them.
    private static func tags(of file: MatroskaFile) -> MovieTags {
        var items = file.title.map { [MovieTags.Item(name: "title", value: $0)] } ?? []
        for tag in file.tags where !items.contains(where: { $0.name == tag.name.lowercased() }) {
            items.append(MovieTags.Item(name: tag.name.lowercased(), value: tag.value))
        }
        return MovieTags(creationTime: file.creationTime ?? 0, items: items)
    }
}

extension VP9CodecFeatures {
    /// The MP4 `vpcC` record of a stream with these features and `colour`.
    func configuration(colour: ColourDescription) -> VPCodecConfiguration {
        VPCodecConfiguration(
            profile: profile, level: level, bitDepth: bitDepth,
            chromaSubsampling: VPCodecConfiguration.ChromaSubsampling(rawValue: chromaSubsampling) ?? .yuv420Vertical,
            colour: colour)
    }
}
