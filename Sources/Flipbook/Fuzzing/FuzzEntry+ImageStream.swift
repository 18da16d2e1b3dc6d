extension FuzzEntry {
    /// What the `FuzzImageStream` target does with one input: cuts it as images sent back to back
    /// (``ImageStreamSplitting``), checking that every image found lies inside the input, that a walk
    /// resumed after reads of a few bytes (their size from the input's first byte) ends exactly where
    /// a walk over all the bytes does, and that a walk that runs out of bytes asks for more than it has.
    package static func imageStreamTarget(_ bytes: [UInt8]) {
        let step = 1 + Int(bytes.first ?? 0) % 29
        var offset = 0
        while offset < bytes.count {
            let rest = Array(bytes[offset...])
            guard case .image(let start) = rest.withUnsafeBytes({ ImageStreamSplitting.start(of: $0, atEnd: true) })
            else { return }
            let whole = rest.withUnsafeBytes { ImageStreamSplitting.advance(start, in: $0, atEnd: true) }
            let resumed = resumedWalk(rest, from: start, step: step)
            switch (whole, resumed) {
            case (.image(let length), .image(let again)):
                precondition(length > 0 && length <= rest.count, "an image of \(length) bytes in \(rest.count)")
                precondition(length == again, "a resumed walk ends at \(again), a whole one at \(length)")
                _ = Array(rest.prefix(length)).withUnsafeBytes(ImageStreamSplitting.cutShort)
                offset += length
            case (.needsMore(_, let atLeast), .needsMore):
                precondition(atLeast > rest.count, "a walk asks for \(atLeast) bytes and has \(rest.count)")
                _ = rest.withUnsafeBytes(ImageStreamSplitting.cutShort)
                return
            case (.malformed(let at, _), .malformed(let again, _)):
                precondition(at == again && at >= 0 && at < rest.count, "malformed at \(at) and \(again)")
                return
            default:
                preconditionFailure("a whole walk gave \(whole), a resumed one \(resumed)")
            }
        }
    }

    /// The walk of `bytes` from `start` as a reader makes it: on the first `step`, `2 * step` …
    /// bytes, resuming each time it needs more, with the end of the input seen only at the last.
    private static func resumedWalk(
        _ bytes: [UInt8], from start: ImageStreamSplitting.Progress, step: Int
    ) -> ImageStreamSplitting.Step {
        var progress = start
        var length = 0
        while true {
            length = min(bytes.count, length + step)
            let atEnd = length == bytes.count
            let step = Array(bytes.prefix(length)).withUnsafeBytes {
                ImageStreamSplitting.advance(progress, in: $0, atEnd: atEnd)
            }
            guard case .needsMore(let next, _) = step, !atEnd else { return step }
            progress = next
        }
    }
}
