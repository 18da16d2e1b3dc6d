/// One of `count` contiguous, near-equal slices of an image sequence, for encoding a long sequence
/// on several machines and joining the parts without re-encoding.
///
/// Segment `index` (1 through `count`) holds frames `(index-1)*n/count ..< index*n/count` of an
/// `n`-frame sequence. Each segment starts with an IDR frame and a closed group of pictures, and its
/// frames keep the times they have in the whole movie, so ``MovieJoiner`` can put the segments
/// together losslessly.
public struct Segment: Sendable, Hashable, CustomStringConvertible {
    /// Which slice, from 1.
    public let index: Int
    /// How many slices.
    public let count: Int

    /// Creates a segment.
    ///
    /// - Throws: `.invalidSettings` unless `1 <= index <= count <= 10000`.
    public init(_ index: Int, of count: Int) throws {
        guard count >= 1, count <= 10000, index >= 1, index <= count else {
            throw FlipbookError.segmentOutOfRange(index, of: count)
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, where `K` may be `auto` to take the index from the scheduler's environment:
    /// `FLIPBOOK_SEGMENT` (from 1), `JOB_COMPLETION_INDEX` (a Kubernetes Indexed Job, from 0), or
    /// `SLURM_ARRAY_TASK_ID` (a Slurm job array: the task id itself, or the id plus 1 when the array
    /// starts at task 0, `SLURM_ARRAY_TASK_MIN` 0).
    ///
    /// - Parameters:
    ///   - text: The segment as `--segment` takes it: `2/8` or `auto/8`.
    ///   - environment: The variables to read an `auto` index from, such as `ProcessInfo.processInfo.environment`.
    /// - Throws: ``FlipbookError`` with `.invalidSettings` when `text` is not `K/N`, when `auto` finds no
    ///   index in `environment`, or unless `1 <= K <= N <= 10000`; the message names `--segment`.
    public init(parsing text: String, environment: [String: String]) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[1]) else {
            throw FlipbookError.segmentNotKOfN(text)
        }
        if parts[0] == "auto" {
            if let value = environment["FLIPBOOK_SEGMENT"], let index = Int(value) {
                try self.init(index, of: count)
            } else if let value = environment["JOB_COMPLETION_INDEX"], let index = Int(value) {
                try self.init(index + 1, of: count)
            } else if let value = environment["SLURM_ARRAY_TASK_ID"], let id = Int(value) {
                // The task id is the segment, whatever the array's lowest id: a task run again alone
                // (`sbatch --array=3`) is the lowest of its own array. Only an array that has a task 0
                // (`--array=0-7`) counts from 0.
                let fromZero = environment["SLURM_ARRAY_TASK_MIN"] == "0"
                try self.init(fromZero ? id + 1 : id, of: count)
            } else {
                throw FlipbookError.segmentIndexNotInEnvironment(of: count)
            }
            return
        }
        guard let index = Int(parts[0]) else {
            throw FlipbookError.segmentNotKOfN(text)
        }
        try self.init(index, of: count)
    }

    /// The frames of an `total`-frame sequence this segment holds.
    public func frames(ofSequenceOf total: Int) -> Range<Int> {
        (index - 1) * total / count..<index * total / count
    }

    public var description: String { "\(index)/\(count)" }
}
