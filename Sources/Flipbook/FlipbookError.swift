import Foundation

/// The one error type Flipbook throws.
///
/// Switch on ``code`` to react to a kind of failure; show ``description`` to a person: it names the
/// frame and file at fault and says what was expected. Two errors are equal when their codes are.
public struct FlipbookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is: a value a caller compares with the static members, such as
    /// `error.code == .outputExists`. New codes may be added; treat unknown ones as failures.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The destination exists and overwriting was not asked for.
        public static let outputExists = Code("outputExists")
        /// The destination cannot be written (missing folder, permissions, disk full).
        public static let outputNotWritable = Code("outputNotWritable")
        /// The destination's name asks for a kind of file Flipbook does not write (see ``MovieContainer``).
        public static let unsupportedOutput = Code("unsupportedOutput")
        /// A setting is out of range or inconsistent.
        public static let invalidSettings = Code("invalidSettings")
        /// An image file cannot be read from disk.
        public static let unreadableInput = Code("unreadableInput")
        /// An input is not an image format Flipbook decodes.
        public static let unsupportedImage = Code("unsupportedImage")
        /// An image file is damaged or truncated.
        public static let corruptImage = Code("corruptImage")
        /// Numbers are missing from a numbered image sequence and the gap policy is `fail`.
        public static let missingImages = Code("missingImages")
        /// A movie given as input (a segment to join) is damaged or not a movie.
        public static let invalidMovie = Code("invalidMovie")
        /// A frame's pixel buffer is inconsistent with its declared size and layout.
        public static let invalidFrame = Code("invalidFrame")
        /// A soundtrack cannot be used: unreadable, damaged, or in a format or sample rate Flipbook
        /// does not carry.
        public static let invalidAudio = Code("invalidAudio")
        /// The video encoder reported a failure.
        public static let encoderFailed = Code("encoderFailed")
        /// A presentation time or duration is impossible: not increasing, not positive, or not
        /// expressible in the movie's time scale.
        public static let invalidTimestamp = Code("invalidTimestamp")
        /// A call came in a state that does not allow it (for example `append` after `finish`).
        public static let invalidState = Code("invalidState")
        /// The writer was cancelled.
        public static let cancelled = Code("cancelled")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence a person can act on.
    public var message: String
    /// The index of the frame at fault, counted from 0, when one is.
    public var frameIndex: Int?
    /// The path of the file at fault, when one is.
    public var path: String?
    /// The cause as reported by the system or a library (which call failed, and its code), when there is one.
    public var underlying: (any Error)?
    /// Whether the settings cannot make this movie at all, whatever the pictures hold: a size, rate or
    /// target learnt from the first image or pass that the codec, level or target cannot hold. The
    /// command-line tool reports these as usage errors, as it does the same conflict stated by its options.
    public package(set) var isSettingsConflict = false
    /// Where in Flipbook's source the error was made (`Flipbook/FFV1Encoder.swift:58`), for a report of
    /// a failure that should not happen; never part of ``description``.
    public let origin: String

    /// Creates an error; `fileID` and `line` record where (see ``origin``).
    public init(
        _ code: Code, _ message: String, frameIndex: Int? = nil, path: String? = nil, underlying: (any Error)? = nil,
        fileID: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.frameIndex = frameIndex
        self.path = path
        self.underlying = underlying
        origin = "\(fileID):\(line)"
    }

    /// The same error, marked as a conflict of the settings (``isSettingsConflict``).
    package var asSettingsConflict: FlipbookError {
        var marked = self
        marked.isSettingsConflict = true
        return marked
    }

    /// Runs `check`, marking a ``FlipbookError`` it throws as a conflict of the settings.
    package static func markingSettingsConflicts<T>(_ check: () throws -> T) throws -> T {
        do {
            return try check()
        } catch let error as FlipbookError {
            throw error.asSettingsConflict
        }
    }

    public static func == (lhs: FlipbookError, rhs: FlipbookError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    public var description: String {
        var text = ""
        switch (frameIndex, path) {
        case (let index?, let path?): text = "frame \(index) (\(path)): "
        case (let index?, nil): text = "frame \(index): "
        case (nil, let path?): text = "\(path): "
        case (nil, nil): break
        }
        text += message
        if let underlying {
            let cause = "\(underlying)"
            if !cause.isEmpty { text += " (\(cause))" }
        }
        return text
    }
}

/// A failed call into a C library or the system: which library, which function, the status it
/// returned and, where it has one, its own words.
struct LibraryCallError: Error, Sendable, CustomStringConvertible {
    /// `libx264`, `TurboJPEG`, `libspng`, `POSIX`, ...
    let library: String
    let function: String
    let status: Int
    /// The library's message for the status, when it has one.
    var libraryMessage: String? = nil
    /// Whether the call threw (a C++ library's exception, caught at its C interface) rather than returned.
    var threw = false

    var description: String {
        "\(library) \(function) " + (threw ? "threw" : "returned \(status)") + (libraryMessage.map { ": \($0)" } ?? "")
    }

    /// A C++ library's exception, caught at Flipbook's C interface to it, which copied its message into
    /// `buffer` (up to a terminating zero).
    static func thrown(by library: String, _ function: String, message buffer: [CChar]) -> LibraryCallError {
        let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return LibraryCallError(library: library, function: function, status: 0, libraryMessage: message, threw: true)
    }
}

/// A failed system call: which call, on which file, and its `errno`.
struct SystemCallError: Error, Sendable, CustomStringConvertible {
    let function: String
    var path: String? = nil
    let errno: Int32

    var description: String {
        "\(function)" + (path.map { " of \($0)" } ?? "") + " failed with errno \(errno)"
    }
}

/// Where a frame came from, for the errors about it: its index in the sequence and its file.
///
/// Every error about a frame is attributed here, once; errors about the output (disk full,
/// destination taken) are not about any one frame and keep no frame or file.
struct FrameOrigin: Sendable {
    /// The frame's index in the whole sequence, when the caller knows it.
    var index: Int? = nil
    /// The image file the frame was decoded from.
    var path: String? = nil

    /// The name of the frame's image file, without its folder.
    var fileName: String? { path.map { URL(filePath: $0).lastPathComponent } }

    /// The error, attributed to this frame and file when it was not yet.
    func attribute(_ error: FlipbookError, fallbackIndex: Int? = nil) -> FlipbookError {
        // The output and the soundtrack are no frame's.
        guard ![.outputNotWritable, .outputExists, .invalidAudio].contains(error.code) else { return error }
        var copy = error
        copy.frameIndex = copy.frameIndex ?? index ?? fallbackIndex
        copy.path = copy.path ?? path
        return copy
    }

    /// Any error, attributed when it is a ``FlipbookError``.
    func attribute(any error: any Error) -> any Error {
        guard let error = error as? FlipbookError else { return error }
        return attribute(error, fallbackIndex: nil)
    }

    /// Runs `work`, attributing a ``FlipbookError`` it throws to this frame (or frame
    /// `fallbackIndex` when the origin has no index).
    func attributing<T>(index fallbackIndex: Int? = nil, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as FlipbookError {
            throw attribute(error, fallbackIndex: fallbackIndex)
        }
    }
}

/// A cause reported by Foundation or the system, shown as its short reason (such as "permission
/// denied") while the original error is kept.
struct SystemCause: Error, Sendable, CustomStringConvertible {
    /// The reason in a few words.
    let reason: String
    /// The error as it was thrown.
    let error: any Error

    init(_ error: any Error) {
        reason = ImageDecoder.reason(for: error)
        self.error = error
    }

    var description: String { reason }
}
