import FlipbookTestSupport
import Foundation
import Testing

/// `join` and `probe` read their options from the main command's table: the same spellings, the
/// same `--opt=value` form, the same usage errors.
@Suite struct SubcommandOptionTests {
    @Test(arguments: [["join", "--bogus", "a.mp4", "-o", "x.mp4"], ["probe", "--bogus", "a.mp4"]])
    func anUnknownOptionIsAUsageError(arguments: [String]) throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option --bogus"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anOptionOfTheMainCommandThatJoinDoesNotTakeIsRefused() throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["join", "a.mp4", "-o", "x.mp4", "--crf", "18"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("unknown option --crf"), "\(result.stderr)")
    }

    @Test func joinHelpListsItsOptionsWithTheMainCommandsSentences() throws {
        let help = try ExternalTool.run(ExternalTool.flipbookPath, ["join", "--help"])
        let main = try ExternalTool.run(ExternalTool.flipbookPath, ["--help"])
        #expect(help.status == 0)
        for option in ["-o, --output FILE", "--overwrite", "--json", "-q, --quiet"] {
            let line = try #require(help.stdout.split(separator: "\n").first { $0.contains(option) }, "\(option)")
            let sentence = line.split(separator: " ").suffix(3).joined(separator: " ")
            #expect(main.stdout.contains(sentence), "\(option) is explained as in flipbook --help")
        }
        #expect(!help.stdout.contains("--crf"))
    }

    @Test func joinTakesTheOutputInTheEqualsForm() throws {
        let dir = try TemporaryDirectory()
        let result = try ExternalTool.run(
            ExternalTool.flipbookPath, ["join", dir.path("missing.mp4"), "--output=\(dir.path("x.mp4"))"])
        #expect(result.status == 1, "parsed, then failed on the missing segment: \(result.stderr)")
        #expect(result.stderr.contains("missing.mp4"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("x.mp4")))
    }
}
