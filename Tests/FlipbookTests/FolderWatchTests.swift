import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

#if canImport(Glibc)
    import Glibc
#endif

/// The inotify watch behind `--follow`, judged by the kernel: files closed after writing and files
/// renamed in are reported by name, and lost events ask for the folder to be listed again.
@Suite struct FolderWatchTests {
    /// The kernel's limit on queued events, past which it drops them and says so.
    static var queuedEventLimit: Int? {
        (try? String(contentsOfFile: "/proc/sys/fs/inotify/max_queued_events", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func closedAndRenamedFilesAreReportedByName() throws {
        let dir = try TemporaryDirectory()
        let watch = try FolderWatch(folder: dir.url.path)
        #expect(try watch.events(waitingUpTo: 0) == [])
        #expect(FileManager.default.createFile(atPath: dir.path("written.png"), contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: dir.path(".hidden"), contents: Data([4])))
        try FileManager.default.moveItem(atPath: dir.path(".hidden"), toPath: dir.path("renamed.png"))
        var events: [FolderEvent] = []
        let deadline = Date().addingTimeInterval(5)
        while !events.contains(.completed("renamed.png")) && Date() < deadline {
            events += try watch.events(waitingUpTo: 100)
        }
        // Foundation opens a file twice to create it with contents, so it may be reported twice.
        let names = events.reduce(into: [FolderEvent]()) { if $0.last != $1 { $0.append($1) } }
        #expect(names == [.completed("written.png"), .completed(".hidden"), .completed("renamed.png")])
    }

    @Test(.enabled(if: (queuedEventLimit ?? .max) <= 65536, "the kernel queues too many events to overflow quickly"))
    func lostEventsAskForARescan() throws {
        let dir = try TemporaryDirectory()
        let watch = try FolderWatch(folder: dir.url.path)
        let limit = try #require(Self.queuedEventLimit)
        // One open and one close each: one event a file.
        let made = (0...limit).filter { index in
            let descriptor = open(dir.path("f\(index).png"), O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
            return descriptor >= 0 && close(descriptor) == 0
        }
        #expect(made.count == limit + 1)
        let events = try watch.events(waitingUpTo: 1000) + watch.events(waitingUpTo: 0)
        #expect(events.last == .rescan, "\(events.count) events, the last \(String(describing: events.last))")
        #expect(events.count == limit + 1, "every queued event, then the overflow")
    }
}
