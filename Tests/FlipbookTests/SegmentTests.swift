import Testing

@testable import Flipbook

@Suite struct SegmentTests {
    @Test func slicesAreContiguousNearEqualAndCoverEveryFrame() throws {
        for total in [1, 7, 90, 1001] {
            for count in 1...min(total, 9) {
                let ranges = try (1...count).map { try Segment($0, of: count).frames(ofSequenceOf: total) }
                #expect(ranges.first?.lowerBound == 0)
                #expect(ranges.last?.upperBound == total)
                #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
                let sizes = ranges.map(\.count)
                #expect(sizes.max()! - sizes.min()! <= 1, "\(total) in \(count): \(sizes)")
            }
        }
    }

    @Test(arguments: [
        (["FLIPBOOK_SEGMENT": "3"], 3), (["JOB_COMPLETION_INDEX": "0"], 1), (["SLURM_ARRAY_TASK_ID": "4"], 4),
        // A task run again alone (`sbatch --array=3`) is its own array's lowest task; still segment 3.
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "3"], 3),
        (["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1"], 2),
        (["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0"], 1),
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0"], 4),
        (["JOB_COMPLETION_INDEX": "2", "SLURM_ARRAY_TASK_ID": "1"], 3),
    ])
    func autoReadsTheSchedulersIndex(environment: [String: String], index: Int) throws {
        #expect(try Segment(parsing: "auto/4", environment: environment) == Segment(index, of: 4))
    }

    @Test(arguments: ["0/4", "5/4", "1/0", "x/4", "2", "auto/4", "-1/3", "1/10001"])
    func refusesImpossibleSegments(text: String) {
        #expect(throws: FlipbookError.self) { try Segment(parsing: text, environment: [:]) }
    }
}
