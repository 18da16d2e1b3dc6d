import MediaModel

/// Walks one `Cluster` element by element, reading each block's header and leaving its frame in
/// the file: a cluster of a few megabytes of pictures costs a few small reads.
///
/// A `Cluster` of unknown size (a live stream's) ends where an element that lies directly in a
/// `Segment` starts, or at the end of the segment. A cluster cut off by the end of the file (a movie
/// whose writer was killed while it wrote) gives up the blocks it holds whole, when `lenient`.
struct MatroskaClusterReader {
    let reader: EBMLReader

    /// What reading a cluster found.
    struct Outcome {
        /// Where the cluster ends: where the next element starts.
        var end: UInt64
        /// Whether the file ends inside the cluster, cutting a block short or leaving it out.
        var cutShort = false
    }

    /// Reads `cluster`, in a segment whose data ends at `segmentEnd`, and appends its blocks.
    ///
    /// - Parameter lenient: Whether a cluster the file's end cuts short gives up its whole blocks
    ///   rather than throwing.
    /// - Throws: ``MediaReadingError`` for a malformed element or block header.
    func read(
        _ cluster: EBMLElement, segmentEnd: UInt64, lenient: Bool, into blocks: inout [MatroskaBlockEntry]
    ) throws -> Outcome {
        let declaredEnd = cluster.end ?? segmentEnd
        let cutByFile = declaredEnd > segmentEnd
        if cutByFile && !lenient { try reader.checked(cluster, before: segmentEnd) }
        // A cluster of unknown size in a file cut short ends wherever the file does.
        let mayBeCut = lenient && (cutByFile || cluster.size == nil)
        let limit = min(declaredEnd, segmentEnd)
        var clusterTime: Int64 = 0
        var position = cluster.dataOffset
        while position < limit {
            let child: EBMLElement
            do {
                child = try reader.element(at: position, before: limit)
            } catch let error as MediaReadingError where error.code == .truncated && mayBeCut {
                return Outcome(end: limit, cutShort: true)
            }
            if cluster.size == nil && !EBMLID.clusterChildren.contains(child.id) {
                guard EBMLID.segmentChildren.contains(child.id) || child.id == .ebml else {
                    throw MediaReadingError.matroska(
                        .malformed, "an element that has no place in a Cluster", offset: child.offset,
                        element: child.id)
                }
                return Outcome(end: position)
            }
            if mayBeCut, let end = child.end, end > limit { return Outcome(end: limit, cutShort: true) }
            try reader.checked(child, before: limit)
            switch child.id {
            case .timestamp:
                clusterTime = Int64(clamping: try reader.node(child, before: limit).unsigned())
            case .simpleBlock:
                blocks.append(try simpleBlock(child, clusterTime: clusterTime))
            case .blockGroup:
                blocks.append(try blockGroup(child, clusterTime: clusterTime))
            default:
                break
            }
            position = child.end!
        }
        return Outcome(end: cluster.end ?? position, cutShort: cutByFile)
    }

    /// The block of a `SimpleBlock`: its flags say whether it is a keyframe.
    private func simpleBlock(_ element: EBMLElement, clusterTime: Int64) throws -> MatroskaBlockEntry {
        let header = try blockHeader(element)
        return MatroskaBlockEntry(
            track: header.track, time: try time(header, clusterTime: clusterTime, element: element),
            isKeyframe: header.flags & 0x80 != 0, frameOffset: element.dataOffset + UInt64(header.length),
            frameSize: Int(element.size!) - header.length, lacing: (header.flags >> 1) & 3)
    }

    /// The block of a `BlockGroup`: a keyframe unless it has a `ReferenceBlock`, with its duration,
    /// discarded padding and alpha picture.
    private func blockGroup(_ group: EBMLElement, clusterTime: Int64) throws -> MatroskaBlockEntry {
        let end = group.end!
        var block: MatroskaBlockEntry?
        var isKeyframe = true
        var duration: UInt64?
        var discardPadding: Int64?
        var alpha: (offset: UInt64, size: Int)?
        var position = group.dataOffset
        while position < end {
            let child = try reader.checked(try reader.element(at: position, before: end), before: end)
            switch child.id {
            case .block:
                let header = try blockHeader(child)
                block = MatroskaBlockEntry(
                    track: header.track, time: try time(header, clusterTime: clusterTime, element: child),
                    isKeyframe: true, frameOffset: child.dataOffset + UInt64(header.length),
                    frameSize: Int(child.size!) - header.length, lacing: (header.flags >> 1) & 3)
            case .blockDuration: duration = try reader.node(child, before: end).unsigned()
            case .referenceBlock: isKeyframe = false
            case .discardPadding: discardPadding = try reader.node(child, before: end).signed()
            case .blockAdditions: alpha = try alphaPicture(in: reader.node(child, before: end))
            default: break
            }
            position = child.end!
        }
        guard var found = block else {
            throw MediaReadingError.matroska(
                .missing, "a BlockGroup without a Block", offset: group.offset, element: group.id)
        }
        found.isKeyframe = isKeyframe
        found.duration = duration
        found.discardPadding = discardPadding
        found.alpha = alpha
        return found
    }

    /// Where the `BlockAdditional` of `BlockAddID` 1 (an alpha picture) lies.
    private func alphaPicture(in additions: EBMLNode) throws -> (offset: UInt64, size: Int)? {
        for more in additions.children(.blockMore) where try (more.unsigned(.blockAddID) ?? 1) == 1 {
            if let additional = more.child(.blockAdditional) {
                return (additional.element.dataOffset, additional.data.count)
            }
        }
        return nil
    }

    private func blockHeader(_ element: EBMLElement) throws -> MatroskaBlockEntry.Header {
        let bytes = try reader.source.read(at: element.dataOffset, count: Int(min(element.size!, 11)))
        return try MatroskaBlockEntry.Header(bytes, element: element)
    }

    private func time(_ header: MatroskaBlockEntry.Header, clusterTime: Int64, element: EBMLElement) throws -> Int64 {
        let (time, overflow) = clusterTime.addingReportingOverflow(Int64(header.relativeTime))
        guard !overflow else {
            throw MediaReadingError.matroska(
                .malformed, "a block time past 2^63 ticks", offset: element.offset, element: element.id)
        }
        return time
    }
}
