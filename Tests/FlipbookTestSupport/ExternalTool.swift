import Foundation

/// The outcome of running a program.
public struct ToolResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs programs for tests: the built `flipbook`, `ffprobe`, `ffmpeg`.
public enum ExternalTool {
    /// Runs `executable` (a path, or a name looked up on PATH) with `arguments` and waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil
    ) throws -> ToolResult {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        if let environment { process.environment = environment }
        let outPipe = Pipe()
        let errPipe = Pipe()
        let inPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe
        try process.run()
        if let stdin { try inPipe.fileHandleForWriting.write(contentsOf: stdin) }
        try inPipe.fileHandleForWriting.close()
        // Read both pipes at once so that neither fills up and blocks the child.
        let errors = DataBox()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            errors.data = errPipe.fileHandleForReading.readDataToEndOfFile()
        }
        let outData = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let result = ToolResult(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errors.data, as: UTF8.self))
        // env's own status when the program is not on PATH: a judge that is not installed fails by its name,
        // not as an empty report.
        if !executable.contains("/"), result.status == 127, result.stderr.hasPrefix("/usr/bin/env:") {
            throw ExternalToolMissing(name: executable)
        }
        return result
    }

    /// The folder holding the built products (`.build/debug`), found from the running test binary.
    public static var productsDirectory: URL {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("flipbook").path) { return url }
        }
        return URL(fileURLWithPath: ".build/debug")
    }

    /// The path of the built `flipbook` tool.
    public static var flipbookPath: String {
        productsDirectory.appendingPathComponent("flipbook").path
    }
}

/// A program the tests run is not installed; the make target that runs the suite installs it.
public struct ExternalToolMissing: Error, CustomStringConvertible {
    public var name: String
    public var description: String {
        "\(name) is not installed: the make target that runs these tests installs it (see the Makefile's packages)"
    }
}

/// Holds what a background reader read; written once before `DispatchGroup.wait` returns.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
