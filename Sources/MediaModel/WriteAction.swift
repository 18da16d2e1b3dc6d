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
    /// sink's blocks (an MP4's progressive session aligns its media data so) for a sink
    /// that can insert blocks at the start of its file; a sink that cannot, or when `inserted` is
    /// `nil`, writes `copied` into a new file followed by a copy of what was written.
    case prependHeader(inserted: [UInt8]?, copied: [UInt8])
}

extension [WriteAction] {
    /// Adds the action that writes `sample`'s bytes: a copy from its source file, joined to the last
    /// action when that copies the bytes just before; or its data, joined to the last action's bytes
    /// when `merging` (to write them in one call).
    package mutating func appendBytes(of sample: MediaSample, merging: Bool) {
        if let range = sample.sourceBytes {
            if case .copy(let source, let start, let length)? = last, source == range.source,
                start + length == range.offset
            {
                self[endIndex - 1] = .copy(source: source, offset: start, count: length + UInt64(range.count))
            } else {
                append(.copy(source: range.source, offset: range.offset, count: UInt64(range.count)))
            }
        } else if merging {
            appendData(sample.data)
        } else {
            append(.append(sample.data))
        }
    }

    /// Adds bytes to write, joined to the last action's bytes when it writes bytes (one call for both).
    package mutating func appendData(_ data: [UInt8]) {
        guard case .append(var bytes)? = last else { return append(.append(data)) }
        self[endIndex - 1] = .syncData  // drops the array's second reference, so it grows in place
        bytes += data
        self[endIndex - 1] = .append(bytes)
    }
}
