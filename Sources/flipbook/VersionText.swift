import Flipbook
import Foundation

/// What `flipbook --version` prints: Flipbook's version, then each C library's, read from the
/// library at run time where it can be.
enum VersionText {
    /// `flipbook 0.1.0`, then one line per library: `  x265 3.5+1-f0c1022b6`, with `(headers)` after
    /// a version read from the headers Flipbook was built with.
    static func lines() -> String {
        let libraries = FlipbookBuild.linkedLibraries
        let width = (libraries.map(\.name.count).max() ?? 0) + 2
        return
            (["flipbook \(FlipbookBuild.version)"]
            + libraries.map { library in
                "  " + library.name.padding(toLength: width, withPad: " ", startingAt: 0) + library.version
                    + (library.source == .headers ? " (headers)" : "")
            }).joined(separator: "\n")
    }

    /// `{"version": "0.1.0", "libraries": [{"name": "x264", "version": "…", "source": "headers"}, …]}`.
    static func json() -> String {
        let object: [String: Any] = [
            "version": FlipbookBuild.version,
            "libraries": FlipbookBuild.linkedLibraries.map {
                ["name": $0.name, "version": $0.version, "source": $0.source.rawValue]
            },
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
