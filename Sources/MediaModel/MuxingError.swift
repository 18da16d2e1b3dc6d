/// A movie a muxing session cannot write: a track its container cannot hold, or no samples.
///
/// Made only through its factories, one per failure, each keeping where it was raised.
package struct MuxingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem.
    package enum Code: Sendable, Equatable {
        /// The track handed to the session cannot be written.
        case invalidTrack
        /// A movie was finished without a sample.
        case noSamples
    }

    /// The kind of problem.
    package let code: Code
    /// What went wrong, in words.
    package let message: String
    /// Where in Flipbook's source the error was raised, for a report.
    package let fileID: String
    package let line: Int

    private init(_ code: Code, _ message: String, fileID: String, line: Int) {
        self.code = code
        self.message = message
        self.fileID = fileID
        self.line = line
    }

    /// A track the container cannot write, and why.
    package static func invalidTrack(_ reason: String, fileID: String = #fileID, line: Int = #line) -> MuxingError {
        MuxingError(.invalidTrack, reason, fileID: fileID, line: line)
    }

    /// A codec the container does not hold.
    package static func codecNotHeld(
        _ codec: String, in container: String, fileID: String = #fileID, line: Int = #line
    ) -> MuxingError {
        MuxingError(.invalidTrack, "\(codec) is not written in \(container) files", fileID: fileID, line: line)
    }

    /// A sample of a track the movie does not have.
    package static func noSuchTrack(_ index: Int, fileID: String = #fileID, line: Int = #line) -> MuxingError {
        MuxingError(
            .invalidTrack, "a sample of track \(index + 1), which the movie does not have", fileID: fileID, line: line)
    }

    /// A movie finished before its first sample.
    package static func noSamples(fileID: String = #fileID, line: Int = #line) -> MuxingError {
        MuxingError(.noSamples, "no samples were written; a movie needs one", fileID: fileID, line: line)
    }

    package static func == (lhs: MuxingError, rhs: MuxingError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
    }

    package var description: String { message }
}
