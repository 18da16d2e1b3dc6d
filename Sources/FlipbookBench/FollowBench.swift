import Flipbook
import Foundation
import Synchronization

/// `FlipbookBench follow SOURCE LIVE N FPS OUT.mp4 [polling]`: a renderer thread makes `N` frames
/// appear in LIVE at FPS (`f_0001.png` …, copied from SOURCE's `f_NNNN.png` in turn, each under a
/// hidden name and then renamed), while Flipbook follows LIVE; prints how long after each frame
/// appeared it was taken (appended to the movie).
func followBench(_ arguments: [String]) async throws {
    let (source, live, count, fps) = (arguments[0], arguments[1], Int(arguments[2])!, Double(arguments[3])!)
    let output = URL(fileURLWithPath: arguments[4])
    let polling = arguments.count > 5 && arguments[5] == "polling"
    let sources = try FileManager.default.contentsOfDirectory(atPath: source).filter { $0.hasSuffix(".png") }.sorted()
    let images = try sources.map { try Data(contentsOf: URL(fileURLWithPath: "\(source)/\($0)")) }
    // Only the latest few times are kept, so the measurement's own memory stays flat.
    let closed = Mutex<[Int: UInt64]>([:])
    let latencies = Mutex<(count: Int, total: Double, worst: Double)>((0, 0, 0))
    let renderer = Thread {
        let start = DispatchTime.now().uptimeNanoseconds
        for number in 1...count {
            let due = start + UInt64(Double(number - 1) / fps * 1e9)
            let now = DispatchTime.now().uptimeNanoseconds
            if due > now { usleep(useconds_t((due - now) / 1000)) }
            let name = String(format: "f_%04d.png", number)
            try? images[(number - 1) % images.count].write(to: URL(fileURLWithPath: "\(live)/.\(name)"))
            // Noted just before the rename, so the follower cannot take the frame before it is noted.
            closed.withLock { $0[number] = DispatchTime.now().uptimeNanoseconds }
            try? FileManager.default.moveItem(atPath: "\(live)/.\(name)", toPath: "\(live)/\(name)")
        }
    }
    renderer.start()
    var options = SequenceOptions(settings: VideoSettings(frameRate: FrameRate(30), preset: .ultrafast))
    options.overwrite = true
    options.follow = FollowPolicy(lastNumber: count, timeout: .seconds(10), watching: polling ? .polling : .events)
    options.progress = { progress in
        guard progress.waitingFor == nil, progress.framesDone > 0 else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard let at = closed.withLock({ $0.removeValue(forKey: progress.framesDone) }) else { return }
        let latency = Double(now - min(now, at)) / 1e9
        latencies.withLock { $0 = ($0.count + 1, $0.total + latency, max($0.worst, latency)) }
    }
    let movie = try await MovieWriter.makeMovie(
        following: URL(fileURLWithPath: "\(live)/f_%04d.png"), to: output, options: options)
    let measured = latencies.withLock { $0 }
    print(
        String(
            format: "follow: %ld frames, %ld measured, closed to taken: mean %.1f ms, worst %.1f ms (%@)", movie.frames,
            measured.count, measured.total / Double(max(1, measured.count)) * 1000, measured.worst * 1000,
            polling ? "polling" : "inotify"))
}
