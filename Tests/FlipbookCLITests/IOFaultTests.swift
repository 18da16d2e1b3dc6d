import FlipbookTestSupport
import Foundation
import Testing

/// Every file operation the tool makes on the movie's folder, failed at every call in turn (after
/// SQLite's I/O-error tests), with `Tests/FaultInjection/faultshim.c` preloaded: the tool must
/// either fail cleanly (status 1, one line naming the movie and the system's reason, no hidden file
/// left, an existing destination byte for byte as it was) or, when the failed call comes after the
/// movie is in place, succeed truthfully (status 0, the new movie, a warning line for a folder
/// that could not be flushed).
@Suite(
    .enabled(if: FaultShim.isAvailable, "needs a C compiler (cc, clang or gcc) to build the fault library"),
    .enabled(
        if: ProcessInfo.processInfo.environment["FLIPBOOK_SANITIZED"] == nil,
        "the sanitizers' runtimes must be loaded first and refuse a preloaded library")
)
struct IOFaultTests {
    static let operations = [
        "open", "write", "pwrite", "copy_file_range", "fallocate", "fdatasync", "fsync", "close", "rename", "link",
        "fchmod",
    ]
    static let errnos = ["EIO", "ENOSPC", "EFBIG"]

    /// A way a movie is written and put in place.
    struct Way: Sendable, CustomTestStringConvertible {
        /// Fragmented, or index first.
        var fragmented: Bool
        /// Over an existing movie (`rename`), or at a new name (`link`).
        var overwrite: Bool
        /// Whether the index is inserted in front of the media (`fallocate` insert-range, as on ext4),
        /// or the media is copied behind it (as on tmpfs).
        var insertRange = true
        /// Whether the kernel copies between files (`copy_file_range`), or the copy is read and written.
        var copyRange = true
        /// Whether the movie is ProRes 4444 with alpha in a `.mov` (libavcodec's encoder, frame
        /// threads), or H.264 in an `.mp4`.
        var proRes = false
        /// Whether the movie is a WebM (VP9, Flipbook's Matroska session: written front to back, its
        /// size, duration and index written over at the end).
        var webM = false

        var testDescription: String {
            (fragmented ? "--fragmented" : "faststart") + (overwrite ? ", over an existing movie" : ", new movie")
                + (fragmented || insertRange ? "" : ", media copied (no insert-range)")
                + (copyRange ? "" : ", read and written (no copy_file_range)")
                + (proRes ? ", ProRes 4444 with alpha" : "") + (webM ? ", WebM" : "")
        }

        /// The movie's name and the codec options for this way.
        var movieName: String { proRes ? "movie.mov" : webM ? "movie.webm" : "movie.mp4" }
        var codecOptions: [String] { proRes ? ["--codec", "prores", "--alpha"] : ["--preset", "ultrafast"] }

        /// The fault library's settings for this way.
        var environment: [String: String] {
            (insertRange ? [:] : ["FAULT_NO_INSERT_RANGE": "1"]).merging(
                copyRange ? [:] : ["FAULT_NO_COPY_RANGE": "1"]
            ) { $1 }
        }
    }

    @Test(arguments: [
        Way(fragmented: false, overwrite: true), Way(fragmented: false, overwrite: true, insertRange: false),
        Way(fragmented: false, overwrite: true, insertRange: false, copyRange: false),
        Way(fragmented: true, overwrite: true), Way(fragmented: false, overwrite: false),
        Way(fragmented: true, overwrite: false),
        Way(fragmented: false, overwrite: true, proRes: true), Way(fragmented: true, overwrite: true, proRes: true),
        Way(fragmented: false, overwrite: true, webM: true), Way(fragmented: true, overwrite: false, webM: true),
    ])
    func everyFailingCallLeavesTheDestinationOrTellsTheTruth(way: Way) throws {
        let (fragmented, overwrite) = (way.fragmented, way.overwrite)
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 12, width: 64, height: 64, into: frames)
        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        let movie = "\(folder)/\(way.movieName)"
        let old = Data("last week's movie, which must survive every failure".utf8)
        let arguments =
            [frames, "-o", movie] + way.codecOptions + (fragmented ? ["--fragmented"] : [])
            + (overwrite ? ["--overwrite"] : [])

        let table = try Self.failEveryCall(
            arguments: arguments, movie: movie, folder: folder, old: overwrite ? old : nil, way: way, frames: 12)
        print("I/O faults, \(way.testDescription):\n  " + table.joined(separator: "\n  "))
        // The operations each way makes at least once; a shim that saw none would prove nothing.
        let seen = Set(table.filter { !$0.contains("not reached") }.map { String($0.prefix { $0 != " " }) })
        var expected: Set =
            fragmented ? ["open", "write", "pwrite", "fdatasync", "fsync"] : ["open", "write", "fsync"]
        if !fragmented && !way.insertRange && way.copyRange { expected.insert("copy_file_range") }
        // A WebM's size, duration and index are written over what was written first.
        if way.webM { expected.insert("pwrite") }
        // A replaced movie's hidden file is given the old one's permissions.
        if overwrite { expected.insert("fchmod") }
        #expect(seen.isSuperset(of: expected.union([overwrite ? "rename" : "link"])), "\(seen)")
    }

    @Test func aFolderThatCannotBeFlushedIsAWarningInTheJSONSummaryAndTheMovieIsInPlace() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 3, width: 64, height: 64, into: frames)
        let folder = URL(fileURLWithPath: try dir.folder("out")).resolvingSymlinksInPath().path
        let movie = "\(folder)/movie.mp4"
        let arguments = [frames, "-o", movie, "--preset", "ultrafast", "--overwrite", "--json", "--quiet"]
        // The folder's fsync is the last one: count them, then fail that one.
        try Data("old".utf8).write(to: URL(fileURLWithPath: movie))
        let count = try FaultShim.run(ExternalTool.flipbookPath, arguments, fault: Fault("fsync", n: 0, in: folder))
        try Data("old".utf8).write(to: URL(fileURLWithPath: movie))
        let run = try FaultShim.run(
            ExternalTool.flipbookPath, arguments, fault: Fault("fsync", n: count.calls, errno: "EIO", in: folder))

        #expect(run.failedPath == folder)
        #expect(run.result.status == 0, "\(run.result.stderr)")
        #expect(run.result.stderr.isEmpty, "--quiet: nothing on stderr when the movie is complete")
        let summary = try JSONSerialization.jsonObject(with: Data(run.result.stdout.utf8)) as? [String: Any]
        let warnings = summary?["warnings"] as? [String] ?? []
        #expect(warnings.count == 1, "\(run.result.stdout)")
        #expect(warnings.first?.contains("\(movie): the movie is complete and in place") == true, "\(warnings)")
        #expect(warnings.first?.contains("Input/output error") == true, "\(warnings)")
        #expect(summary?["frames"] as? Int == 3)
        #expect(try Judge.stream(of: movie).frameCount == 3)
    }

    /// Runs the tool with `arguments` once for every call of every operation on `folder`, failing
    /// that call, and judges each run (``judge(_:fault:movie:old:frames:sourceLocation:)``).
    ///
    /// - Returns: One line a run, for the table: the call failed and what the tool did.
    static func failEveryCall(
        arguments: [String], movie: String, folder: String, old: Data?, way: Way, frames: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [String] {
        var table: [String] = []
        for operation in operations {
            var n = 1
            while n <= 100 {
                if let old {
                    try old.write(to: URL(fileURLWithPath: movie))
                } else {
                    try? FileManager.default.removeItem(atPath: movie)
                }
                let fault = Fault(operation, n: n, errno: errnos[n % 3], in: folder)
                let run = try FaultShim.run(
                    ExternalTool.flipbookPath, arguments, fault: fault, environment: way.environment)
                let outcome = try judge(
                    run, fault: fault, movie: movie, old: old, frames: frames, sourceLocation: sourceLocation)
                table.append(
                    "\(operation) #\(n) \(fault.errno) on \(describe(run.failedPath, folder: folder)): \(outcome)")
                if run.failedPath == nil { break }
                n += 1
            }
            #expect(n <= 100, "\(operation) was still being called after 100 calls", sourceLocation: sourceLocation)
        }
        return table
    }

    /// Checks one run against the contract and says what happened, for the table.
    static func judge(
        _ run: FaultRun, fault: Fault, movie: String, old: Data?, frames: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let stderr = run.result.stderr
        let lines = stderr.split(separator: "\n")
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: fault.folder)) ?? []).sorted()
        if run.failedPath != nil && run.result.status != 0 {
            // A failure: one line naming the movie and why, nothing hidden left, the old movie as it was.
            #expect(run.result.status == 1, "\(fault): \(stderr)", sourceLocation: sourceLocation)
            #expect(lines.count == 1, "\(fault): one line: \(stderr)", sourceLocation: sourceLocation)
            #expect(
                stderr.contains(movie + ":"), "\(fault): names the movie: \(stderr)", sourceLocation: sourceLocation)
            #expect(stderr.contains(fault.reason), "\(fault): says why: \(stderr)", sourceLocation: sourceLocation)
            let name = URL(fileURLWithPath: movie).lastPathComponent
            #expect(entries == (old == nil ? [] : [name]), "\(fault): \(entries)", sourceLocation: sourceLocation)
            #expect(
                FileManager.default.contents(atPath: movie) == old, "\(fault): destination changed",
                sourceLocation: sourceLocation)
            return "exit 1, \(old == nil ? "nothing left" : "old movie kept")"
        }
        // A success is judged by the movie it left: complete, decodable, and nothing hidden beside it.
        #expect(
            entries == [URL(fileURLWithPath: movie).lastPathComponent], "\(fault): \(entries)",
            sourceLocation: sourceLocation)
        #expect(try Judge.stream(of: movie).frameCount == frames, "\(fault)", sourceLocation: sourceLocation)
        #expect(try Judge.decodeErrors(of: movie) == "", "\(fault)", sourceLocation: sourceLocation)
        guard let failedPath = run.failedPath else { return "not reached; exit 0, new movie" }
        if failedPath == fault.folder && (fault.operation == "fsync" || fault.operation == "open") {
            // The movie was in place; only its folder could not be flushed: said, not hidden.
            let warnings = lines.filter { $0.contains("warning") }
            #expect(warnings.count == 1, "\(fault): \(stderr)", sourceLocation: sourceLocation)
            #expect(
                warnings.first.map {
                    $0.contains(movie) && $0.contains(fault.reason) && $0.contains("may not survive a power cut")
                } == true, "\(fault): \(stderr)", sourceLocation: sourceLocation)
            return "exit 0, new movie, warning: the rename may not survive a power cut"
        }
        // Only the close of a descriptor that is no longer needed (the flushed folder, or the media
        // file already copied into the movie) may fail unseen: no data can be lost there.
        #expect(fault.operation == "close", "\(fault) was ignored: \(stderr)", sourceLocation: sourceLocation)
        return "exit 0, new movie (close of a descriptor no longer needed)"
    }

    /// The failed call's file, short: the folder, the hidden file's kind, or the movie.
    private static func describe(_ path: String?, folder: String) -> String {
        guard let path else { return "-" }
        if path == folder { return "the folder" }
        if path.hasSuffix(".media.tmp") { return "hidden media file" }
        if path.hasSuffix(".tmp") { return "hidden movie file" }
        return URL(fileURLWithPath: path).lastPathComponent
    }
}
