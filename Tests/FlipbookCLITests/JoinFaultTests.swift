import FlipbookTestSupport
import Foundation
import Testing

/// `flipbook join` meets a failing disk: every file operation on the joined movie's folder
/// (`copy_file_range` of the segments' media included) is failed at every call in turn, with
/// `Tests/FaultInjection/faultshim.c` preloaded, and judged as ``IOFaultTests`` judges the encoder:
/// status 1, one line naming the movie and the reason, nothing left beside it, an existing movie
/// byte for byte as it was; or, where the tool succeeds, the very movie a join without faults writes.
@Suite(
    .enabled(if: FaultShim.isAvailable, "needs a C compiler (cc, clang or gcc) to build the fault library"),
    .enabled(
        if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
        "the sanitizers' runtimes must be loaded first and refuse a preloaded library")
)
struct JoinFaultTests {
    @Test(arguments: [
        IOFaultTests.Way(fragmented: false, overwrite: false),
        IOFaultTests.Way(fragmented: false, overwrite: true, insertRange: false),
        IOFaultTests.Way(fragmented: false, overwrite: true, copyRange: false),
    ])
    func everyFailingCallOfAJoinLeavesTheDestinationOrTellsTheTruth(way: IOFaultTests.Way) throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 64, height: 64, into: frames)
        let parts = try dir.folder("parts")
        let segments = try (1...3).map { k in
            let part = "\(parts)/part-\(k).mp4"
            let encode = try ExternalTool.run(
                ExternalTool.flipbookPath, [frames, "-o", part, "--segment", "\(k)/3", "--preset", "ultrafast", "-q"])
            #expect(encode.status == 0, "\(encode.stderr)")
            return part
        }
        let reference = dir.path("reference.mp4")
        let clean = try ExternalTool.run(ExternalTool.flipbookPath, ["join"] + segments + ["-o", reference, "-q"])
        #expect(clean.status == 0, "\(clean.stderr)")

        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        let movie = "\(folder)/movie.mp4"
        let old = Data("last week's movie, which must survive every failure".utf8)
        let arguments = ["join"] + segments + ["-o", movie] + (way.overwrite ? ["--overwrite"] : [])
        let table = try IOFaultTests.failEveryCall(
            arguments: arguments, movie: movie, folder: folder, old: way.overwrite ? old : nil, way: way, frames: 12)
        print("I/O faults of a join, \(way.testDescription):\n  " + table.joined(separator: "\n  "))

        var expected: Set = ["open", "fsync", way.overwrite ? "rename" : "link"]
        if way.copyRange { expected.insert("copy_file_range") } else { expected.insert("write") }
        let seen = Set(table.filter { !$0.contains("not reached") }.map { String($0.prefix { $0 != " " }) })
        #expect(seen.isSuperset(of: expected), "\(seen)")

        // Without faults, under the library: the movie a plain join writes.
        if way.overwrite {
            try old.write(to: URL(fileURLWithPath: movie))
        } else {
            try FileManager.default.removeItem(atPath: movie)
        }
        let run = try FaultShim.run(
            ExternalTool.flipbookPath, arguments, fault: Fault("write", n: 0, in: folder), environment: way.environment)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        if way.insertRange {
            #expect(FileManager.default.contents(atPath: movie) == FileManager.default.contents(atPath: reference))
        } else {
            // The index is not padded to whole blocks without insert-range: the same packets, as ffprobe reads them.
            #expect(try SegmentTests.packetHashes(of: movie) == SegmentTests.packetHashes(of: reference))
            #expect(try Judge.frames(of: movie).map(\.pts) == Judge.frames(of: reference).map(\.pts))
        }
    }
}
