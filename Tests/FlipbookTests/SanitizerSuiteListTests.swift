import Foundation
import Testing

/// `Tests/sanitizer-suites.txt` names every suite `make test-asan` runs under the sanitizers and says
/// why each other one is left out; this suite keeps it whole, so a new suite is sanitized unless its
/// line says why not.
@Suite struct SanitizerSuiteListTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let targets = ["FlipbookTests", "FlipbookCLITests", "ISOBMFFTests", "MatroskaTests"]
    /// The test targets that link no C library (their dependencies are the pure-Swift container targets).
    static let pureTargets: Set = ["ISOBMFFTests", "MatroskaTests"]

    /// Every `@Suite` type of the test targets as TARGET.SUITE, with its target.
    static func suites() throws -> [String: String] {
        let declaration = try Regex(#"(?:^|\s)(?:struct|class|enum) (\w+)"#)
        var found: [String: String] = [:]
        for target in targets {
            let folder = tests.appendingPathComponent(target)
            for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift")
            {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                var rest = text[...]
                while let attribute = rest.range(of: "\n@Suite")
                    ?? (rest.hasPrefix("@Suite") ? rest.range(of: "@Suite") : nil)
                {
                    guard let match = rest[attribute.upperBound...].firstMatch(of: declaration) else { break }
                    let name = String(match.output[1].substring ?? "")
                    found["\(target).\(name)"] = target
                    rest = rest[match.range.upperBound...]
                }
            }
        }
        return found
    }

    /// The list's lines as suite name and the rest of the line (empty for a sanitized suite).
    static func listed() throws -> [(name: String, excuse: String)] {
        let text = try String(contentsOf: tests.appendingPathComponent("sanitizer-suites.txt"), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let name = line.prefix { !$0.isWhitespace }
            return (String(name), line.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func everySuiteIsListedOnceAndEveryExcuseHolds() throws {
        let suites = try Self.suites()
        let listed = try Self.listed()
        #expect(suites.count > 100, "found only \(suites.count) suites: the scan of the test folders is broken")
        #expect(suites["FlipbookTests.SanitizerSuiteListTests"] == "FlipbookTests")
        let names = listed.map(\.name)
        #expect(
            Set(names).count == names.count,
            "listed twice: \(Dictionary(grouping: names) { $0 }.filter { $1.count > 1 }.keys.sorted())")
        let missing = Set(suites.keys).subtracting(names).sorted()
        #expect(
            missing.isEmpty,
            "suites missing from Tests/sanitizer-suites.txt (add each, sanitized unless it says why not): \(missing)")
        let gone = Set(names).subtracting(suites.keys).sorted()
        #expect(gone.isEmpty, "named in Tests/sanitizer-suites.txt but no longer suites: \(gone)")
        let sanitized = Set(listed.filter { $0.excuse.isEmpty }.map(\.name))
        for (name, excuse) in listed where !excuse.isEmpty {
            if excuse.hasPrefix("pure") {
                #expect(
                    Self.pureTargets.contains(suites[name] ?? ""),
                    "\(name) is excused as pure, but \(suites[name] ?? "its target") links C libraries")
            } else if excuse.hasPrefix("repeat:") {
                let covering = excuse.dropFirst("repeat:".count).prefix { $0 != "—" }.split(separator: " ").map(
                    String.init)
                #expect(!covering.isEmpty, "\(name) is excused as a repeat of no suite")
                for other in covering {
                    #expect(
                        sanitized.contains(other), "\(name) is excused as a repeat of \(other), which is not sanitized")
                }
                #expect(excuse.contains("— "), "\(name)'s excuse says what it judges instead: \(excuse)")
            } else {
                Issue.record("\(name): an excuse is `pure — …` or `repeat: SUITE… — …`, not \(excuse)")
            }
        }
    }

    /// What `make test-asan` skips is what the list excuses (the Makefile reads the list).
    @Test func theMakefileSkipsWhatTheListExcuses() throws {
        let makefile = try String(
            contentsOf: Self.tests.deletingLastPathComponent().appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("Tests/sanitizer-suites.txt"), "make test-asan does not read the list")
        #expect(try Self.listed().contains { !$0.excuse.isEmpty }, "the list excuses nothing")
    }
}
