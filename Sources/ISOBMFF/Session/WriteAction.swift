/// What a muxing session asks of the file it writes: a sink carries the actions out in order, and
/// the session never touches a file itself, so the whole container policy can be tested in memory.
package enum WriteAction: Sendable, Equatable {
    /// Bytes at the end of what is written.
    case append([UInt8])
    /// `count` bytes of the source file numbered `source`, from its byte `offset`, copied to the end
    /// of what is written, file to file (see ``MediaSample/withBytes(inSource:at:count:)``).
    case copy(source: Int, offset: UInt64, count: UInt64)
    /// Bytes written over what is already there, from byte `at` of the file.
    case overwrite([UInt8], at: UInt64)
    /// Everything written so far made durable on the storage device (a finished fragment).
    case syncData
    /// The header put in front of everything written so far. `inserted` is a whole number of the
    /// sink's blocks (see ``ProgressiveMovieSession/init(brand:timescales:alignment:)``) for a sink
    /// that can insert blocks at the start of its file; a sink that cannot, or when `inserted` is
    /// `nil`, writes `copied` into a new file followed by a copy of what was written.
    case prependHeader(inserted: [UInt8]?, copied: [UInt8])
}
