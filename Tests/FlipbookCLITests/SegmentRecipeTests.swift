import FlipbookTestSupport
import Foundation
import Testing

/// The recipes of docs/segments.md: the page shows the recipe files as they are; the Kubernetes Jobs
/// pass a field-by-field check of batch/v1 Job (no cluster runs here), which refuses broken copies;
/// the GNU parallel recipe encodes and joins a movie that ffprobe judges. (`make test-slurm` runs the
/// Slurm recipe on a real one-node cluster.)
@Suite struct SegmentRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static var checker: String { root.appendingPathComponent("Tests/Kubernetes/check_jobs.py").path }
    static let hasPyYAML = (try? ExternalTool.run("python3", ["-c", "import yaml"]).status) == 0
    static let hasGNUParallel =
        (try? ExternalTool.run("parallel", ["--version"]).stdout.contains("GNU parallel")) ?? false

    static func text(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    /// The contents of every fenced code block of a Markdown text, each ending with a newline.
    static func codeBlocks(of markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.map { $0 + "\n" }.joined())
                    current = nil
                } else {
                    current = []
                }
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    @Test(arguments: [
        "docs/slurm/segments.sbatch", "docs/slurm/join.sbatch", "docs/kubernetes/segments-job.yaml",
        "docs/kubernetes/join-job.yaml", "docs/parallel/segments.sh",
    ])
    func theDocsShowTheRecipeFileAsItIs(file: String) throws {
        let blocks = Self.codeBlocks(of: try Self.text("docs/segments.md"))
        #expect(
            blocks.contains(try Self.text(file)),
            "docs/segments.md has no code block equal to \(file); copy the file into the page")
    }

    @Test(arguments: ["docs/slurm/segments.sbatch", "docs/slurm/join.sbatch", "docs/parallel/segments.sh"])
    func theShellRecipesParse(file: String) throws {
        let result = try ExternalTool.run("bash", ["-n", Self.root.appendingPathComponent(file).path])
        #expect(result.status == 0, "\(file): \(result.stderr)")
    }

    @Test(.enabled(if: hasPyYAML, "python3 with PyYAML (Debian python3-yaml, make deps) is not installed"))
    func theKubernetesJobsPassTheCheck() throws {
        let jobs = ["segments-job.yaml", "join-job.yaml"].map {
            Self.root.appendingPathComponent("docs/kubernetes/\($0)").path
        }
        let result = try ExternalTool.run("python3", [Self.checker] + jobs)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
    }

    @Test(
        .enabled(if: hasPyYAML, "python3 with PyYAML (Debian python3-yaml, make deps) is not installed"),
        arguments: [
            ("segments-job.yaml", "completionMode: Indexed", "completionmode: Indexed", "spec.completionmode"),
            ("segments-job.yaml", "completions: 8", "completions: 6", "the command encodes 8 segments"),
            ("segments-job.yaml", "parallelism: 8", "parallelism: 9", "more than the 8 segments"),
            ("segments-job.yaml", "restartPolicy: Never", "restartPolicy: Always", "needs Never or OnFailure"),
            ("segments-job.yaml", "apiVersion: batch/v1", "apiVersion: v1", "want 'batch/v1'"),
            ("segments-job.yaml", "kind: Job", "kind: Pod", "want 'Job'"),
            ("segments-job.yaml", "part-$((JOB_COMPLETION_INDEX + 1)).mp4", "part.mp4", "JOB_COMPLETION_INDEX"),
            ("segments-job.yaml", "--segment auto/8", "--segment 1/8", "want auto/N"),
            (
                "segments-job.yaml", "{ name: data, mountPath: /data }", "{ name: dat, mountPath: /data }",
                "not in volumes"
            ),
            ("segments-job.yaml", "  name: flipbook-segments", "  name: Flipbook_Segments", "DNS-1123"),
            ("segments-job.yaml", "  completions: 8", "  completions: \"8\"", "want a whole number"),
            ("segments-job.yaml", "      containers:", "      containers: [\n", "not readable YAML"),
            ("join-job.yaml", "completions: 1", "completions: 2", "a join runs once"),
            (
                "join-job.yaml", "spec:\n  completions", "spec:\n  completionMode: Indexed\n  completions",
                "must not be Indexed"
            ),
            ("join-job.yaml", "flipbook join", "flipbook probe", "runs neither"),
        ])
    func aBrokenJobFailsTheCheck(file: String, original: String, broken: String, complaint: String) throws {
        let dir = try TemporaryDirectory()
        let text = try Self.text("docs/kubernetes/\(file)")
        #expect(text.contains(original), "\(file) no longer holds \(original); update the test")
        let copy = dir.path(file)
        try text.replacingOccurrences(of: original, with: broken).write(
            toFile: copy, atomically: true, encoding: .utf8)
        let result = try ExternalTool.run("python3", [Self.checker, copy])
        #expect(result.status == 1, "the checker passed \(file) with \(broken)")
        #expect(result.stderr.contains(complaint), "\(result.stderr)")
        #expect(result.stderr.contains(copy), "the problem is named by its file")
    }

    /// The one-machine recipe, run as the page shows it with four segments, two at a time: the joined
    /// movie has every frame at its time, as a one-machine encode of the same frames.
    @Test(.enabled(if: hasGNUParallel, "GNU parallel (Debian parallel, make deps) is not installed"))
    func theParallelRecipeEncodesAndJoinsTheMovie() throws {
        let dir = try TemporaryDirectory()
        let frames = try dir.folder("frames")
        try SampleImages.write(count: 40, width: 96, height: 64, into: frames, padded: true)
        var environment = ProcessInfo.processInfo.environment
        environment["RENDER"] = dir.url.path
        environment["SEGMENTS"] = "4"
        environment["JOBS"] = "2"
        environment["FLIPBOOK"] = ExternalTool.flipbookPath
        let run = try ExternalTool.run(
            "bash", [Self.root.appendingPathComponent("docs/parallel/segments.sh").path], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let single = dir.path("single.mp4")
        let encode = try ExternalTool.run(
            ExternalTool.flipbookPath, [frames, "-o", single, "--fps", "24", "--crf", "18", "--preset", "slow", "-q"])
        #expect(encode.status == 0, "\(encode.stderr)")
        let joined = try Judge.frames(of: dir.path("movie.mp4"))
        let expected = try Judge.frames(of: single)
        #expect(joined.count == 40)
        #expect(joined.map(\.pts) == expected.map(\.pts))
        #expect(joined.map(\.duration) == expected.map(\.duration))
        #expect(try Judge.decodeErrors(of: dir.path("movie.mp4")) == "")
    }
}
