import Foundation

/// The one error type Flipbook throws.
///
/// Switch on ``code`` to react to a kind of failure; show ``description`` to a person: it names the
/// frame and file at fault and says what was expected.
public struct FlipbookError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: Sendable, Hashable {
        /// The destination exists and overwriting was not asked for.
        case outputExists
        /// The destination cannot be written (missing folder, permissions, disk full).
        case outputNotWritable
        /// A setting is out of range or inconsistent.
        case invalidSettings
        /// An image file cannot be read from disk.
        case unreadableInput
        /// An input is not an image format Flipbook decodes.
        case unsupportedImage
        /// An image file is damaged or truncated.
        case corruptImage
        /// A movie given as input (a segment to join) is damaged or not a movie.
        case invalidMovie
        /// A frame does not have the movie's size.
        case frameSizeMismatch
        /// A frame's pixel buffer is inconsistent with its declared size and layout.
        case invalidFrame
        /// The video encoder reported a failure.
        case encoderFailed
        /// A presentation time or duration is impossible: not increasing, not positive, or not
        /// expressible in the movie's time scale.
        case invalidTimestamp
        /// A call came in a state that does not allow it (for example `append` after `finish`).
        case invalidState
        /// The writer was cancelled.
        case cancelled
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence a person can act on.
    public var message: String
    /// The index of the frame at fault, counted from 0, when one is.
    public var frameIndex: Int?
    /// The path of the file at fault, when one is.
    public var path: String?
    /// The underlying cause as reported by the system or a library, when there is one.
    public var underlying: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, frameIndex: Int? = nil, path: String? = nil, underlying: String? = nil)
    {
        self.code = code
        self.message = message
        self.frameIndex = frameIndex
        self.path = path
        self.underlying = underlying
    }

    public var description: String {
        var text = ""
        switch (frameIndex, path) {
        case (let index?, let path?): text = "frame \(index) (\(path)): "
        case (let index?, nil): text = "frame \(index): "
        case (nil, let path?): text = "\(path): "
        case (nil, nil): break
        }
        text += message
        if let underlying, !underlying.isEmpty { text += " (\(underlying))" }
        return text
    }

    /// The same error, attributed to a frame and file when it was not yet.
    ///
    /// Errors about the output (disk full, destination taken) are not about any one frame and are
    /// returned as they are.
    func attributed(toFrame index: Int?, path: String?) -> FlipbookError {
        guard code != .outputNotWritable && code != .outputExists else { return self }
        var copy = self
        copy.frameIndex = copy.frameIndex ?? index
        copy.path = copy.path ?? path
        return copy
    }
}
