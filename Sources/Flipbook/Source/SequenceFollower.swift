import Foundation

/// One image of a followed sequence: its number and its file.
struct FollowedImage: Sendable {
    let number: Int
    let url: URL
}

/// Takes the images of a numbered sequence that a renderer is still writing, in number order, each
/// once it is complete.
///
/// An image is complete when it ends as its format ends (see ``ImageCompleteness``) and the folder
/// watch says it was closed after writing or renamed into the folder, or it was found by listing
/// the folder (at the start, after lost events), or, polling, it has not changed since the listing
/// before. A missing number is waited for; once a later number has arrived and the missing one has
/// not come within the grace period (or at the end) the gap policy decides about it. Only numbers
/// not yet taken are remembered, so memory does not grow with the sequence.
final class SequenceFollower {
    /// The folder the images appear in.
    let folder: URL
    let policy: FollowPolicy
    private let gaps: GapPolicy
    private let stop: FollowStop?
    /// The input is a folder: its image files are followed, numbered like the first one.
    private let wholeFolder: Bool
    private var pattern: NumberPattern?
    private var watch: FolderWatch?
    private let clock = ContinuousClock()

    /// Complete images not taken yet, by number.
    private var complete: [Int: String] = [:]
    /// Files found by listing that may still be written, with their state at that listing.
    private var seen: [String: FileState] = [:]
    private var lastScan: ContinuousClock.Instant?
    /// When the last new complete image arrived (or following started).
    private var lastArrival: ContinuousClock.Instant
    /// When a later number was first seen while ``next`` was missing.
    private var gapSince: ContinuousClock.Instant?
    private var ending = false
    private var tailDecided = false
    private var lastTakenName: String?
    private var waitedOn: Int?

    /// The number to take next; `nil` until the first image is taken (unless a start was given).
    private(set) var next: Int?
    /// The number of the first image taken.
    private(set) var firstNumber: Int?
    /// The numbers given up on, in order.
    private(set) var missing: [Int] = []
    /// The image names around each gap given up on.
    private(set) var neighbours: [(before: String, after: String)] = []
    /// How many numbers were not there yet when their turn came.
    private(set) var waitedFor = 0
    /// Things to tell the user: events unavailable, images that came after their number was given up on.
    private(set) var notes: [String] = []

    /// Starts following `input`, a folder or a printf pattern (`frames/frame_%04d.png`).
    ///
    /// - Throws: `.unreadableInput` for a folder that does not exist or cannot be listed.
    init(input: URL, startNumber: Int?, policy: FollowPolicy, gaps: GapPolicy, stop: FollowStop?) throws {
        if let pattern = NumberPattern(input.lastPathComponent) {
            self.pattern = pattern
            folder = input.deletingLastPathComponent()
            wholeFolder = false
        } else {
            folder = input
            wholeFolder = true
        }
        guard POSIXFile.isDirectory(folder.path) else {
            throw FlipbookError.nothingToFollow(input.path)
        }
        self.policy = policy
        self.gaps = gaps
        self.stop = stop
        next = startNumber
        lastArrival = clock.now
        if policy.watching == .events {
            do {
                watch = try FolderWatch(folder: folder.path)
            } catch {
                notes.append("\(error); the folder is listed every \(policy.pollInterval) instead")
            }
        }
        // After the watch starts, so no image completed in between is missed.
        try scan()
    }

    /// Whether following was asked to stop early.
    var stopped: Bool { stop?.isRequested == true }

    /// The next image if it is complete now, without waiting; `nil` otherwise or once stopped.
    func nextReady() throws -> FollowedImage? {
        guard stop?.isRequested != true else { return nil }
        try collect(waitingUpTo: 0)
        return try takeIfReady()
    }

    /// Waits for the next image; `nil` when following has ended (the last number taken, nothing
    /// new for the timeout, or a stop requested).
    ///
    /// - Throws: `.missingImages` when a gap is given up on under ``GapPolicy/fail``;
    ///   `CancellationError` when the task is cancelled.
    func waitForNext() async throws -> FollowedImage? {
        while true {
            try Task.checkCancellation()
            guard stop?.isRequested != true else { return nil }
            try collect(waitingUpTo: 0)
            if let image = try takeIfReady() { return image }
            if let last = policy.lastNumber, let next, next > last { return nil }
            if ending || clock.now - lastArrival >= policy.timeout { return try end() }
            try await waitForChanges(upTo: timeToNextDecision())
        }
    }

    /// Notes that the next image is not there yet and is about to be waited for (counted once per number).
    func noteWaiting() {
        guard let next, waitedOn != next else { return }
        waitedOn = next
        waitedFor += 1
    }

    /// How long until a timeout or a gap's grace runs out, at most a tenth of a second (so a stop
    /// is noticed promptly).
    private func timeToNextDecision() -> Duration {
        var wait = min(Duration.milliseconds(100), policy.timeout - (clock.now - lastArrival))
        if let gapSince { wait = min(wait, (policy.gapGrace ?? policy.timeout) - (clock.now - gapSince)) }
        return max(wait, .milliseconds(1))
    }

    /// Waits up to `time` for the folder watch's events, or sleeps that long when polling.
    private func waitForChanges(upTo time: Duration) async throws {
        guard let watch else {
            try await Task.sleep(for: min(time, policy.pollInterval))
            return
        }
        let milliseconds = Int32(
            max(1, time.components.seconds * 1000 + time.components.attoseconds / 1_000_000_000_000_000))
        // poll() blocks, so it runs on a Dispatch thread rather than one of Swift concurrency's few.
        let events = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try watch.events(waitingUpTo: milliseconds) })
            }
        }
        try handle(events)
    }

    /// Takes in what happened: the watch's events, or a new listing when polling and one is due.
    private func collect(waitingUpTo milliseconds: Int32) throws {
        if let watch {
            try handle(try watch.events(waitingUpTo: milliseconds))
        } else if lastScan.map({ clock.now - $0 >= policy.pollInterval }) ?? true {
            try scan()
        }
    }

    private func handle(_ events: [FolderEvent]) throws {
        for event in events {
            switch event {
            case .completed(let name): consider(name, completed: true)
            case .rescan: try scan()
            }
        }
    }

    /// Lists the folder and considers every name in it, lowest number first when the numbering is
    /// still to be learnt from the first image.
    private func scan() throws {
        var names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw FlipbookError.folderNotListable(folder.path, "the folder being followed", cause: error)
        }
        if pattern == nil { names.sort(by: NaturalOrder.precedes) }
        for name in names { consider(name, completed: false) }
        lastScan = clock.now
    }

    /// Records `name` as complete if it is an image of the sequence not taken yet, its content is
    /// whole, and it was closed after writing or renamed in (`completed`) or, polling, has not
    /// changed since the listing before.
    private func consider(_ name: String, completed: Bool) {
        guard !name.hasPrefix(".") else { return }
        if wholeFolder {
            guard ImageFiles.extensions.contains((name as NSString).pathExtension.lowercased()) else { return }
            if pattern == nil { pattern = NumberPattern(example: name) }
        }
        guard let number = pattern?.number(in: name), complete[number] == nil,
            number <= policy.lastNumber ?? Int.max
        else { return }
        if let next, number < next {
            if completed, missing.contains(number) {
                notes.append("\(name) arrived after its number was given up on and was left out")
            }
            return
        }
        let path = folder.appendingPathComponent(name).path
        guard let state = POSIXFile.state(of: path) else { return }
        if !completed && watch == nil && seen[name] != state {
            seen[name] = state
            return
        }
        // Even a closed file may be opened again to be finished (created empty, then written).
        guard ImageCompleteness.looksComplete(path, size: state.size) else { return }
        seen[name] = nil
        complete[number] = name
        lastArrival = clock.now
    }

    /// The image numbered ``next`` if it is complete; past a gap once its grace has run out (or
    /// at the end); otherwise `nil`.
    private func takeIfReady() throws -> FollowedImage? {
        if next == nil { next = complete.keys.min() }
        guard var number = next else { return nil }
        if let last = policy.lastNumber, number > last { return nil }
        if complete[number] == nil {
            guard let later = complete.keys.min() else {
                gapSince = nil
                return nil
            }
            let now = clock.now
            let since = gapSince ?? now
            gapSince = since
            guard ending || now - since >= policy.gapGrace ?? policy.timeout else { return nil }
            // A file numbered more than a million past the next one is a stray, not the render moving on.
            if later - number > ImageNumbering.largestGap {
                let stray = complete.removeValue(forKey: later)!
                notes.append(
                    "\(stray) is numbered \(later - number) past the next image and was left out as a stray file")
                gapSince = nil
                return complete.isEmpty ? nil : try takeIfReady()
            }
            try giveUp(Array(number..<later), before: lastTakenName ?? "the start", after: complete[later]!)
            number = later
        }
        let name = complete.removeValue(forKey: number)!
        gapSince = nil
        next = number + 1
        firstNumber = firstNumber ?? number
        lastTakenName = name
        return FollowedImage(number: number, url: folder.appendingPathComponent(name))
    }

    /// Following has ended: every complete image left is taken past its gaps, then the numbers up
    /// to the last one that never came are given up on.
    private func end() throws -> FollowedImage? {
        ending = true
        if let image = try takeIfReady() { return image }
        if let last = policy.lastNumber, let next, next <= last, !tailDecided {
            tailDecided = true
            if last - next >= ImageNumbering.largestGap {
                // Not listed number by number: the render stopped long before the last number given.
                if gaps == .fail {
                    throw FlipbookError.imagesNeverArrived(next, to: last)
                }
                notes.append("images \(next) to \(last) never arrived; the movie ends with the last image taken")
            } else {
                try giveUp(
                    Array(next...last), before: lastTakenName ?? "the start", after: "the end (\(last) is the last)")
            }
        }
        return nil
    }

    /// Gives up on `numbers`: recorded for the summary, or an error under ``GapPolicy/fail``.
    private func giveUp(_ numbers: [Int], before: String, after: String) throws {
        missing += numbers
        neighbours.append((before, after))
        if gaps == .fail {
            throw FlipbookError.imagesMissing(gapDescription, folder: folder.path)
        }
    }

    /// One sentence naming the numbers given up on and the images around each gap.
    var gapDescription: String {
        ImageNumbering.gapDescription(missing: missing, neighbours: neighbours)
    }
}
