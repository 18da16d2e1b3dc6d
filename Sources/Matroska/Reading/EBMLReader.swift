import MediaModel

/// Reads EBML elements (the binary format of Matroska and WebM) from a byte source, checking every
/// header against the bytes that hold it, so hostile input throws ``MediaReadingError`` instead of trapping.
///
/// Headers are read one at a time, so a file's clusters are walked without reading the frames in
/// them; the small describing elements are read whole as ``EBMLNode`` trees, at most
/// ``maximumDepth`` deep and ``maximumNodeSize`` long.
///
/// ```swift
/// let reader = EBMLReader(try EBMLFileSource(path: "movie.webm"))
/// let header = try reader.element(at: 0, before: reader.source.size)
/// let tree = try reader.node(header, before: reader.source.size)
/// ```
package struct EBMLReader {
    /// Where the bytes come from.
    package let source: any EBMLByteSource

    /// The deepest nesting of master elements read into a tree.
    package static let maximumDepth = 16
    /// The largest element read whole into memory.
    package static let maximumNodeSize: UInt64 = 64 << 20

    /// Reads from `source`.
    package init(_ source: any EBMLByteSource) {
        self.source = source
    }

    /// The header of the element at `offset`, whose parent ends at `end`. The element's data may run
    /// past `end`; callers decide whether that is an error (see ``checked(_:before:)``).
    ///
    /// - Throws: ``MediaReadingError`` for a header that is invalid or cut off by `end`.
    package func element(at offset: UInt64, before end: UInt64) throws -> EBMLElement {
        guard offset < end else {
            throw MediaReadingError.matroska(.truncated, "an element was expected before offset \(end)", offset: offset)
        }
        let bytes = try source.read(at: offset, count: Int(min(UInt64(EBMLElement.longestHeader), end - offset)))
        return try EBMLElement(parsing: bytes, at: offset)
    }

    /// `element` when its data ends by `end`.
    ///
    /// - Throws: ``MediaReadingError`` with `.invalidSize` for a known size that runs past `end`, or an
    ///   unknown size.
    @discardableResult
    package func checked(_ element: EBMLElement, before end: UInt64) throws -> EBMLElement {
        guard let elementEnd = element.end, elementEnd >= element.dataOffset else {
            throw MediaReadingError.matroska(
                .invalidSize, "an unknown size, which only a Segment or a Cluster may have",
                offset: element.offset, element: element.id)
        }
        guard elementEnd <= end else {
            throw MediaReadingError.matroska(
                .invalidSize,
                "its \(element.size!) bytes run \(elementEnd &- end) bytes past the end of "
                    + (end == source.size ? "the file" : "the element that holds it"),
                offset: element.offset, element: element.id)
        }
        return element
    }

    /// The data of `element`, which must end by `end`, read whole.
    package func data(of element: EBMLElement, before end: UInt64) throws -> ArraySlice<UInt8> {
        try checked(element, before: end)
        let size = element.size!
        guard size <= Self.maximumNodeSize else {
            throw MediaReadingError.matroska(
                .invalidSize, "\(size) bytes, more than the \(Self.maximumNodeSize) read whole",
                offset: element.offset, element: element.id)
        }
        let bytes = try source.read(at: element.dataOffset, count: Int(size))
        guard bytes.count == Int(size) else {
            throw MediaReadingError.matroska(
                .truncated, "the file ends inside the element", offset: element.offset, element: element.id)
        }
        return bytes
    }

    /// `element` read whole, its children parsed when it is one of ``EBMLID/masters``.
    ///
    /// - Throws: ``MediaReadingError`` for a child that is invalid, runs past its parent, or nests deeper
    ///   than ``maximumDepth``.
    package func node(_ element: EBMLElement, before end: UInt64) throws -> EBMLNode {
        try Self.node(element, data: try data(of: element, before: end), depth: 0)
    }

    /// The node of `element` whose data is `data`, parsed in memory.
    private static func node(_ element: EBMLElement, data: ArraySlice<UInt8>, depth: Int) throws -> EBMLNode {
        guard EBMLID.masters.contains(element.id) else { return EBMLNode(element: element, data: data, children: []) }
        guard depth < maximumDepth else {
            throw MediaReadingError.matroska(
                .nestingTooDeep, "elements nested more than \(maximumDepth) deep", offset: element.offset,
                element: element.id)
        }
        var children: [EBMLNode] = []
        var index = data.startIndex
        while index < data.endIndex {
            let offset = element.dataOffset + UInt64(index - data.startIndex)
            let child = try EBMLElement(
                parsing: data[index..<min(data.endIndex, index + EBMLElement.longestHeader)], at: offset)
            guard let size = child.size else {
                throw MediaReadingError.matroska(
                    .invalidSize, "an unknown size inside \(element.id.name ?? "\(element.id)")", offset: offset,
                    element: child.id)
            }
            let start = index + child.headerLength
            guard size <= UInt64(data.endIndex - start) else {
                throw MediaReadingError.matroska(
                    .invalidSize,
                    "its \(size) bytes run past the end of the \(element.id.name ?? "element") that holds it",
                    offset: offset, element: child.id)
            }
            let childEnd = start + Int(size)
            children.append(try node(child, data: data[start..<childEnd], depth: depth + 1))
            index = childEnd
        }
        return EBMLNode(element: element, data: [], children: children)
    }
}
