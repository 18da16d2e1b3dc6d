import FlipbookTestSupport
import Foundation
import ISOBMFF
import MediaModel
import Testing

@testable import Matroska

/// The session on its own, in memory: what it asks to write, judged by mkvmerge once on disk.
@Suite struct MatroskaSessionTests {
    /// An AV1 entry whose configuration is the four bytes of `av1C` alone.
    static func videoTrack(timescale: UInt32 = 30, editList: [EditListEntry] = []) -> Track {
        let entry = VideoSampleEntry(
            format: "av01", width: 64, height: 48,
            configuration: CodecConfiguration(boxType: "av1C", payload: [0x81, 0x00, 0x0C, 0x00]),
            compressorName: "")
        return Track(trackID: 1, timescale: timescale, codec: entry, editList: editList)
    }

    static func perform(_ actions: [WriteAction], on file: inout [UInt8], syncs: inout [Int]) {
        for action in actions {
            switch action {
            case .append(let bytes): file += bytes
            case .overwrite(let bytes, let offset):
                precondition(Int(offset) + bytes.count <= file.count, "an overwrite past the end")
                file.replaceSubrange(Int(offset)..<Int(offset) + bytes.count, with: bytes)
            case .syncData: syncs.append(file.count)
            case .copy, .prependHeader: Issue.record("a Matroska session asked for \(action)")
            }
        }
    }

    /// 90 frames at 30 fps, a keyframe each 15: clusters of half a second when durable, a second otherwise.
    static func write(durable: Bool) throws -> (file: [UInt8], syncs: [Int]) {
        var session = MatroskaSession(
            docType: .webm, isDurable: durable, clusterSeconds: durable ? 0.5 : 1, frameDuration: 33_333_333)
        var file: [UInt8] = []
        var syncs: [Int] = []
        let track = videoTrack()
        for index in 0..<90 {
            let sample = MediaSample(data: [UInt8(index), 1, 2, 3], duration: 1, isSync: index % 15 == 0)
            perform(try session.add(sample, track: 0, tracks: { [track] }), on: &file, syncs: &syncs)
        }
        var finished = track
        finished.editList = [EditListEntry(segmentDuration: 90, mediaTime: 0)]
        perform(try session.finish(tracks: [finished], extensions: []), on: &file, syncs: &syncs)
        return (file, syncs)
    }

    @Test(arguments: [false, true])
    func theFileIsWhatMkvmergeReads(durable: Bool) throws {
        let (file, syncs) = try Self.write(durable: durable)
        let dir = try TemporaryDirectory()
        let path = dir.path("session.webm")
        try Data(file).write(to: URL(fileURLWithPath: path))
        let identified = try MatroskaJudge.identify(path)
        #expect(identified.recognized && identified.errors.isEmpty && identified.warnings.isEmpty, "\(identified)")
        #expect(identified.duration == 3_000_000_000)
        #expect(identified.codecIDs == ["V_AV1"])
        let elements = try MatroskaJudge.elementProblems(of: path)
        #expect(elements.problems.isEmpty, "\(elements.problems)")
        #expect(elements.clusters == (durable ? 6 : 3))
        // A durable file is made durable after each cluster and at the end; another never.
        #expect(syncs.count == (durable ? 7 : 0))
    }

    @Test func aMovieWithoutSamplesIsRefused() {
        var session = MatroskaSession(docType: .matroska, isDurable: false)
        #expect(throws: MuxingError.noSamples()) { try session.finish(tracks: [Self.videoTrack()], extensions: []) }
    }

    @Test func webMRefusesCodecsOutsideItsSubset() {
        var session = MatroskaSession(docType: .webm, isDurable: false)
        let entry = VideoSampleEntry(
            format: "avc1", width: 64, height: 48,
            configuration: CodecConfiguration(boxType: "avcC", payload: [1, 0x64, 0, 0x1F, 0xFF, 0xE0, 0]),
            compressorName: "")
        let track = Track(trackID: 1, timescale: 30, codec: entry)
        let refusal = MuxingError.invalidTrack(
            "V_MPEG4/ISO/AVC is not one of WebM's codecs (VP8, VP9, AV1, Opus, Vorbis)")
        #expect(throws: refusal) {
            _ = try session.add(MediaSample(data: [0], duration: 1, isSync: true), track: 0, tracks: { [track] })
        }
    }

    /// A picture far from its cluster's time starts a new cluster even without a keyframe, so
    /// no block's 16-bit offset wraps.
    @Test func aBlockNeverLiesBeyondItsClustersReach() throws {
        var session = MatroskaSession(docType: .webm, isDurable: true)
        var file: [UInt8] = []
        var syncs: [Int] = []
        let track = Self.videoTrack(timescale: 1)
        // One keyframe, then pictures 4 s apart: each beyond 3.2 s of the last.
        for index in 0..<4 {
            let sample = MediaSample(data: [UInt8(index)], duration: 4, isSync: index == 0)
            Self.perform(try session.add(sample, track: 0, tracks: { [track] }), on: &file, syncs: &syncs)
        }
        #expect(syncs.count == 3, "a cluster for each picture before the last")
    }
}
