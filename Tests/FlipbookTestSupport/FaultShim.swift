import Foundation

/// One failing call for ``FaultShim``: the `n`-th call of `operation` on `folder` or a file in it
/// fails with `errno`.
public struct Fault: Sendable, CustomStringConvertible {
    /// `write`, `pwrite`, `fsync`, `fdatasync`, `fallocate`, `rename`, `link`, `open` or `close`.
    public var operation: String
    /// Which call fails, counting from 1; 0 counts the calls without failing any.
    public var n: Int
    /// `EIO`, `ENOSPC`, `EFBIG`, `EACCES`, `EROFS` or `EPERM`.
    public var errno: String
    /// The absolute path of the folder whose calls count.
    public var folder: String
    /// Whether every later call fails too, as on a disk that stays full.
    public var persistent: Bool

    public init(_ operation: String, n: Int, errno: String = "EIO", in folder: String, persistent: Bool = false) {
        self.operation = operation
        self.n = n
        self.errno = errno
        self.folder = folder
        self.persistent = persistent
    }

    public var description: String { "\(operation) #\(n) \(errno)" }

    /// The system's sentence for the errno, as `strerror` and the tool print it.
    public var reason: String {
        switch errno {
        case "ENOSPC": "No space left on device"
        case "EFBIG": "File too large"
        case "EACCES": "Permission denied"
        case "EROFS": "Read-only file system"
        case "EPERM": "Operation not permitted"
        default: "Input/output error"
        }
    }
}

/// What a run under ``FaultShim`` did.
public struct FaultRun: Sendable {
    /// The program's exit status and output.
    public var result: ToolResult
    /// How many calls of the operation were made on the folder.
    public var calls: Int
    /// The path the failed call was about (the folder itself for a folder `fsync`), or `nil` when
    /// the program never made the `n`-th call.
    public var failedPath: String?
}

/// The fault-injection library in `Tests/FaultInjection/faultshim.c`, preloaded (`LD_PRELOAD`) into
/// a program so that one chosen call of one file operation fails, as a full disk or a failing
/// device would make it fail, without root. Built once per test run with the C compiler next to Swift.
public enum FaultShim {
    /// The built library's path, or why it could not be built.
    public static let library: Result<String, JudgeError> = build()

    /// Whether the library could be built.
    public static var isAvailable: Bool { (try? library.get()) != nil }

    /// Runs `executable` with `fault` injected, and reads back what the library saw.
    public static func run(
        _ executable: String, _ arguments: [String], fault: Fault, environment extra: [String: String] = [:]
    ) throws -> FaultRun {
        let library = try library.get()
        let report = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flipbook-fault-\(UUID().uuidString).txt"
        ).path
        defer { try? FileManager.default.removeItem(atPath: report) }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = library
        environment["FAULT_OP"] = fault.operation
        environment["FAULT_N"] = String(fault.n)
        environment["FAULT_ERRNO"] = fault.errno
        environment["FAULT_DIR"] = fault.folder
        environment["FAULT_REPORT"] = report
        if fault.persistent { environment["FAULT_PERSIST"] = "1" }
        environment.merge(extra) { _, new in new }
        let result = try ExternalTool.run(executable, arguments, environment: environment)
        // "OP calls=K failed=N path=P": written by the library when the program exits.
        guard let line = try? String(contentsOfFile: report, encoding: .utf8),
            let calls = field("calls", in: line).flatMap({ Int($0) }),
            let failed = field("failed", in: line).flatMap({ Int($0) })
        else {
            throw JudgeError(
                description: "the fault library left no report for \(fault) (status \(result.status)): \(result.stderr)"
            )
        }
        let path = line.range(of: " path=").map { String(line[$0.upperBound...].dropLast()) }
        return FaultRun(result: result, calls: calls, failedPath: failed > 0 ? path : nil)
    }

    private static func field(_ name: String, in line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix("\(name)=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    private static func build() -> Result<String, JudgeError> {
        // #filePath is Tests/FlipbookTestSupport/FaultShim.swift; the source is Tests/FaultInjection.
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let source = tests.appendingPathComponent("FaultInjection/faultshim.c").path
        // Beside the built tool, or in the temporary folder when the build folder is someone else's.
        let products = ExternalTool.productsDirectory.path
        let folder = access(products, W_OK) == 0 ? products : FileManager.default.temporaryDirectory.path
        let partial = "\(folder)/flipbook-faultshim-\(getpid()).so"
        let output = "\(folder)/flipbook-faultshim-uid\(getuid()).so"
        var failures: [String] = []
        for compiler in ["cc", "clang", "gcc"] {
            guard
                let result = try? ExternalTool.run(
                    compiler, ["-O1", "-Wall", "-shared", "-fPIC", "-o", partial, source, "-ldl"])
            else { continue }
            if result.status == 0 && rename(partial, output) == 0 { return .success(output) }
            failures.append("\(compiler): \(result.stderr)")
        }
        return .failure(JudgeError(description: "no C compiler could build \(source): \(failures)"))
    }
}
