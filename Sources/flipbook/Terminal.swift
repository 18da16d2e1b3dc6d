import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard error and standard output, as the tool uses them.
enum Terminal {
    /// Whether standard error is a terminal, so a progress line can be redrawn in place.
    static let stderrIsTerminal = isatty(STDERR_FILENO) == 1

    /// Writes a line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.writeIgnoringErrors(line + "\n")
    }

    /// Redraws the progress line on standard error.
    static func progress(_ line: String) {
        FileHandle.standardError.writeIgnoringErrors("\r\u{1B}[K" + line)
    }

    /// Clears the progress line.
    static func clearProgress() {
        FileHandle.standardError.writeIgnoringErrors("\r\u{1B}[K")
    }

    /// Writes a line to standard output.
    static func output(_ line: String) {
        FileHandle.standardOutput.writeIgnoringErrors(line + "\n")
    }
}

extension FileHandle {
    /// Diagnostics must never crash the tool, even on a closed pipe.
    fileprivate func writeIgnoringErrors(_ text: String) {
        try? write(contentsOf: Data(text.utf8))
    }
}
