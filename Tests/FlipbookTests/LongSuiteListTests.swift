import Foundation
import Testing

/// `Tests/long-suites.txt` names the suites `make test` leaves to `make test-long`; this suite keeps
/// it honest, so a renamed suite is not silently dropped from both targets.
@Suite struct LongSuiteListTests {
    /// The list's lines as suite name and what makes it long.
    static func listed() throws -> [(name: String, reason: String)] {
        let url = SanitizerSuiteListTests.tests.appendingPathComponent("long-suites.txt")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map {
            line in
            let name = line.prefix { !$0.isWhitespace }
            return (String(name), line.dropFirst(name.count).trimmingCharacters(in: .whitespaces))
        }
    }

    @Test func everyLongSuiteIsASuiteOnceAndSaysWhatMakesItLong() throws {
        let suites = try SanitizerSuiteListTests.suites()
        let listed = try Self.listed()
        #expect(listed.count >= 10, "the list names only \(listed.count) suites: its reading is broken")
        let names = listed.map(\.name)
        #expect(Set(names).count == names.count, "listed twice: \(names)")
        let gone = Set(names).subtracting(suites.keys).sorted()
        #expect(gone.isEmpty, "named in Tests/long-suites.txt but no longer suites: \(gone)")
        for (name, reason) in listed {
            #expect(reason.hasPrefix("— ") && reason.count > 10, "\(name) does not say what makes it long")
        }
    }

    /// `make test` skips exactly what `make test-long` runs: both read the list.
    @Test func makeTestAndMakeTestLongReadTheList() throws {
        let makefile = try String(
            contentsOf: SanitizerSuiteListTests.tests.deletingLastPathComponent().appendingPathComponent("Makefile"),
            encoding: .utf8)
        #expect(makefile.contains("Tests/long-suites.txt"), "the Makefile does not read the list")
        let rule = { (target: String) -> String in
            guard let start = makefile.range(of: "\n\(target): ") else { return "" }
            return String(makefile[start.upperBound...].split(separator: "\n\n").first ?? "")
        }
        #expect(rule("test").contains("--skip '^$(subst .,\\.,$(suite))/'"), "make test does not skip the long suites")
        #expect(rule("test-long").contains("scripts/long-suites.sh"), "make test-long does not run them")
    }

    /// CI's `make test-long LONG_SELECTION=unsanitized` runs every long suite its ASan pass does not run
    /// whole: each one the sanitizer list excuses, and each one with a test off under the sanitizers.
    @Test func theUnsanitizedSelectionHoldsEveryLongSuiteTheASanPassLeaves() throws {
        let root = SanitizerSuiteListTests.tests.deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [root.appendingPathComponent("scripts/long-suites.sh").path, "unsanitized"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let selected = Set(text.split(separator: "\n").map(String.init))
        let excused = Set(try SanitizerSuiteListTests.listed().filter { !$0.excuse.isEmpty }.map(\.name))
        for (name, _) in try Self.listed() {
            let file = root.appendingPathComponent("Tests/\(name.replacingOccurrences(of: ".", with: "/")).swift")
            let offUnderSanitizers =
                (try? String(contentsOf: file, encoding: .utf8))?.contains("FLIPBOOK_SANITIZED") ?? true
            if excused.contains(name) || offUnderSanitizers {
                #expect(selected.contains(name), "\(name) runs in neither CI's ASan pass nor its make test-long")
            }
        }
        #expect(selected.isSubset(of: Set(try Self.listed().map(\.name))), "\(selected)")
        #expect(selected.contains("FlipbookCLITests.RateControlTests"), "\(selected)")
        #expect(!selected.contains("FlipbookCLITests.CodecGuaranteeTests"), "run whole by the ASan pass: \(selected)")
    }
}
