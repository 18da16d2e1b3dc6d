import Foundation

/// mkvtoolnix (Debian's `mkvtoolnix`) as the judge of Matroska and WebM files: `mkvmerge -J` and
/// `mkvinfo` read every element and say what they could not.
public enum MatroskaJudge {
    /// What `mkvmerge -J` says of a file: whether it recognised it, its container type, its errors and
    /// warnings, the duration in nanoseconds and each track's codec ID.
    public struct Identification: Sendable {
        public var recognized: Bool
        public var containerType: String
        public var errors: [String]
        public var warnings: [String]
        public var duration: Int64?
        public var codecIDs: [String]
    }

    public static func identify(_ file: String) throws -> Identification {
        let result = try ExternalTool.run("mkvmerge", ["-J", file])
        guard let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw JudgeError(description: "mkvmerge -J gave no JSON for \(file): \(result.stderr)")
        }
        let container = object["container"] as? [String: Any] ?? [:]
        let properties = container["properties"] as? [String: Any] ?? [:]
        let tracks = object["tracks"] as? [[String: Any]] ?? []
        return Identification(
            recognized: container["recognized"] as? Bool ?? false, containerType: container["type"] as? String ?? "",
            errors: object["errors"] as? [String] ?? [], warnings: object["warnings"] as? [String] ?? [],
            duration: (properties["duration"] as? NSNumber)?.int64Value,
            codecIDs: tracks.map { ($0["properties"] as? [String: Any])?["codec_id"] as? String ?? "" })
    }

    /// The lines of `mkvinfo -v` (every element, clusters and blocks included) that report a problem,
    /// and the number of clusters it listed; throws when mkvinfo fails.
    public static func elementProblems(of file: String) throws -> (problems: [String], clusters: Int) {
        let result = try ExternalTool.run("mkvinfo", ["-v", "--ui-language", "en_US", file])
        guard result.status == 0 else {
            throw JudgeError(description: "mkvinfo could not read \(file): \(result.stdout) \(result.stderr)")
        }
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let problems = lines.filter { $0.localizedCaseInsensitiveContains("error") || $0.contains("Warning") }
        return (problems, lines.filter { $0.hasSuffix("+ Cluster") }.count)
    }
}
