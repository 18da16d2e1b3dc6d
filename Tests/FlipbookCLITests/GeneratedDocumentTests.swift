import FlipbookTestSupport
import Foundation
import Testing

/// The man page and the bash, zsh and fish completions are generated from the option table, so
/// every option `--help` lists is in each of them. mandoc judges the page (lint-clean, and every
/// option in the text it renders); bash, zsh (in a pseudo-terminal) and fish complete a real command
/// line from their scripts, and check their syntax. Every value a shell offers is one the tool accepts.
@Suite struct GeneratedDocumentTests {
    static func has(_ tool: String) -> Bool {
        (try? ExternalTool.run("sh", ["-c", "command -v \(tool)"]).status == 0) ?? false
    }

    /// Every option name in `flipbook --help`'s option list.
    static func helpOptions() throws -> [String] {
        let help = try ExternalTool.run(ExternalTool.flipbookPath, ["--help"])
        try #require(help.status == 0, "\(help.stderr)")
        let options = help.stdout.components(separatedBy: "\n\n").first { $0.hasPrefix("Options:") } ?? ""
        let names = optionNames(options)
        try #require(names.count > 40, "the option list of --help: \(options)")
        return names
    }

    /// The option names of a help text's option lines (`  -o, --output FILE  The movie …`).
    static func optionNames(_ help: String) -> [String] {
        help.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line -> [String] in
            let label = line.trimmingCharacters(in: .whitespaces).components(separatedBy: "  ")[0]
            return label.split(separator: " ").map { $0.trimmingCharacters(in: [","]) }.filter { $0.hasPrefix("-") }
        }
    }

    static func generate(_ arguments: [String], into dir: TemporaryDirectory, name: String) throws -> String {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, arguments)
        try #require(result.status == 0, "\(arguments): \(result.stderr)")
        let path = dir.path(name)
        try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(.enabled(if: has("mandoc"), "mandoc is not installed; make test-deps installs it"))
    func theManPageIsLintCleanAndNamesEveryOption() throws {
        let dir = try TemporaryDirectory()
        let page = try Self.generate(["--generate-man-page"], into: dir, name: "flipbook.1")
        let lint = try ExternalTool.run("mandoc", ["-T", "lint", "-W", "warning", page])
        #expect(lint.status == 0 && lint.stdout.isEmpty && lint.stderr.isEmpty, "\(lint.stdout)\(lint.stderr)")
        let rendered = try ExternalTool.run("mandoc", ["-T", "ascii", "-O", "width=400", page])
        try #require(rendered.status == 0, "\(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        let words = Set(text.split(whereSeparator: { " \n,[]()".contains($0) }).map(String.init))
        for option in try Self.helpOptions() {
            #expect(words.contains(option), "\(option) is not in the man page")
        }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES"] {
            #expect(text.contains("\n\(section)\n"), "no \(section) section")
        }
    }

    @Test func eachCompletionScriptNamesEveryOption() throws {
        let dir = try TemporaryDirectory()
        for shell in ["bash", "zsh", "fish"] {
            let script = try String(
                contentsOfFile: try Self.generate(["--generate-completion", shell], into: dir, name: shell),
                encoding: .utf8)
            let words = Set(script.split(whereSeparator: { " \n'|()[]\"".contains($0) }).map(String.init))
            for option in try Self.helpOptions() {
                let spelled =
                    shell == "fish" ? (option.hasPrefix("--") ? option.dropFirst(2) : option.dropFirst()) : option[...]
                #expect(words.contains(String(spelled)), "\(option) is not in the \(shell) completion")
            }
        }
    }

    @Test func bashCompletesEveryOptionAndOffersValuesTheToolAccepts() throws {
        let dir = try TemporaryDirectory()
        let script = try Self.generate(["--generate-completion", "bash"], into: dir, name: "flipbook.bash")
        let syntax = try ExternalTool.run("bash", ["-n", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        func complete(_ words: [String]) throws -> [String] {
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let result = try ExternalTool.run(
                "bash",
                [
                    "-c",
                    "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _flipbook; "
                        + "printf '%s\\n' \"${COMPREPLY[@]}\"",
                ])
            try #require(result.status == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init)
        }
        let offered = Set(try complete(["flipbook", "-"]))
        for option in try Self.helpOptions() {
            #expect(offered.contains(option), "bash does not complete \(option)")
        }
        // The codecs the tool's own refusal names ("use h264, hevc, … or prores."), and the options probe's help lists.
        let refusal = try ExternalTool.run(ExternalTool.flipbookPath, ["--codec", "none", "--help"]).stderr
        let codecs = refusal.components(separatedBy: "use ").last?.split(whereSeparator: { " ,.\n".contains($0) })
            .map(String.init).filter { $0 != "or" }
        #expect(Set(try complete(["flipbook", "frames", "--codec", ""])) == Set(codecs ?? []), "\(refusal)")
        let probeHelp = try ExternalTool.run(ExternalTool.flipbookPath, ["probe", "--help"]).stdout
        #expect(Set(try complete(["flipbook", "probe", "-"])) == Set(Self.optionNames(probeHelp)), "\(probeHelp)")
        // Every option's values in one bash, run in an empty folder so that no file name is offered: the
        // options with values from the library's tables offer some, and the tool accepts each one.
        let empty = try TemporaryDirectory()
        let options = try Self.helpOptions()
        let listing = try ExternalTool.run(
            "bash",
            [
                "-c",
                "cd '\(empty.url.path)'; source '\(script)'; for option in \(options.joined(separator: " ")); do "
                    + "COMP_WORDS=(flipbook frames $option ''); COMP_CWORD=3; _flipbook; "
                    + "for value in \"${COMPREPLY[@]}\"; do printf '%s\\t%s\\n' \"$option\" \"$value\"; done; done",
            ])
        try #require(listing.status == 0, "\(listing.stderr)")
        let pairs = listing.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let withValues = Set(pairs.map { $0[0] })
        for option in [
            "--codec", "--preset", "--fit", "--colour", "--range", "--raw-format", "--audio-codec", "--gaps",
            "--tiff-pages", "--rotate", "--bit-depth", "--stdin", "--profile", "--tune",
        ] {
            #expect(withValues.contains(option), "no values for \(option)")
        }
        for pair in pairs where pair.count == 2 && pair[0] != "-o" && pair[0] != "--output" {
            let parsed = try ExternalTool.run(ExternalTool.flipbookPath, [pair[0], pair[1], "--help"])
            #expect(parsed.status == 0, "\(pair[0]) \(pair[1]) is offered but refused: \(parsed.stderr)")
        }
    }

    @Test(.enabled(if: has("fish"), "fish is not installed; make test-deps installs it"))
    func fishCompletesEveryOption() throws {
        let dir = try TemporaryDirectory()
        let script = try Self.generate(["--generate-completion", "fish"], into: dir, name: "flipbook.fish")
        let syntax = try ExternalTool.run("fish", ["-n", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        let result = try ExternalTool.run(
            "fish",
            ["--no-config", "-c", "source '\(script)'; complete -C 'flipbook -'; complete -C 'flipbook x --fit '"])
        try #require(result.status == 0, "\(result.stderr)")
        let offered = Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        for option in try Self.helpOptions() {
            #expect(offered.contains(option), "fish does not complete \(option)")
        }
        #expect(offered.isSuperset(of: ["contain", "cover", "stretch"]), "\(offered)")
    }

    /// What an interactive zsh (in a pseudo-terminal, through its zpty module) lists when Tab is pressed
    /// after `line`, with the completion system and the generated `_flipbook` loaded: the words of the screen.
    /// The listing is read until the line is drawn again below it and every word of `awaiting` is on the
    /// screen (a loaded machine may draw the line before the listing has all come), for at most 30 s.
    static func zshCompletes(_ line: String, script: String, in dir: TemporaryDirectory, awaiting: [String] = [])
        throws -> Set<String>
    {
        let driver = dir.path("complete.zsh")
        let folder = URL(fileURLWithPath: script).deletingLastPathComponent().path
        let setup = "PS1=''; fpath=(\(folder) \\$fpath); autoload -U compinit; compinit -u -D; LISTMAX=100000"
        // Typed after the setup; the listing is complete once the line is drawn again below it (a trailing
        // space is drawn as a move of the cursor).
        let drawn = line.trimmingCharacters(in: .whitespaces)
        let program = """
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "\(setup)"
            zpty -n -w z $'\(line)\\t'
            out=""
            for attempt in {1..300}; do
                while zpty -r -t z chunk; do out+=$chunk; done
                [[ $out == *"\(drawn)"*"\(drawn)"* \(awaiting.map { "&& $out == *\"\($0)\"*" }.joined(separator: " ")) ]] && break
                sleep 0.1
            done
            print -r -- "$out"
            zpty -d z
            """
        try Data(program.utf8).write(to: URL(fileURLWithPath: driver))
        let result = try ExternalTool.run("zsh", ["-f", driver])
        try #require(result.status == 0, "\(result.stderr)")
        let plain = result.stdout.replacingOccurrences(
            of: "\u{1B}\\[[0-9;?]*[a-zA-Z]", with: "", options: .regularExpression)
        return Set(plain.components(separatedBy: .whitespacesAndNewlines).filter { !$0.isEmpty })
    }

    @Test(.enabled(if: has("zsh"), "zsh is not installed; make test-deps installs it"))
    func zshCompletesEveryOptionAndTheValuesOfOne() throws {
        let dir = try TemporaryDirectory()
        let script = try Self.generate(["--generate-completion", "zsh"], into: dir, name: "_flipbook")
        let syntax = try ExternalTool.run("zsh", ["-n", script])
        #expect(syntax.status == 0, "\(syntax.stderr)")
        #expect(try String(contentsOfFile: script, encoding: .utf8).hasPrefix("#compdef flipbook\n"))
        let options = try Self.helpOptions()
        let offered = try Self.zshCompletes("flipbook frames -", script: script, in: dir, awaiting: options)
        for option in options {
            #expect(offered.contains(option), "zsh does not complete \(option)")
        }
        // A subcommand's options are its own: join takes sound options, not picture ones.
        let join = try Self.zshCompletes(
            "flipbook join part-1.mp4 --", script: script, in: dir, awaiting: ["--audio", "--overwrite"])
        #expect(join.contains("--audio") && join.contains("--overwrite") && !join.contains("--fps"), "\(join)")
        #expect(
            try Self.zshCompletes(
                "flipbook frames --fit ", script: script, in: dir, awaiting: ["contain", "cover", "stretch"]
            ).isSuperset(of: [
                "contain", "cover", "stretch",
            ]))
    }

    @Test func aShellFlipbookDoesNotKnowIsAUsageErrorNamingTheOnesItDoes() throws {
        let result = try ExternalTool.run(ExternalTool.flipbookPath, ["--generate-completion", "tcsh"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("bash, zsh or fish"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
