import MediaModel

/// An element read whole into memory, with its children when it is a master element: the small
/// describing parts of a file (the EBML header, `Info`, `Tracks`, `Tags`), never a cluster.
package struct EBMLNode: Sendable {
    /// The element's header.
    package let element: EBMLElement
    /// The element's data; empty for a master element, whose data is its children.
    package let data: ArraySlice<UInt8>
    /// The children of a master element, in file order.
    package let children: [EBMLNode]

    /// The element's ID.
    package var id: EBMLID { element.id }

    /// The first child with `id`.
    package func child(_ id: EBMLID) -> EBMLNode? {
        children.first { $0.id == id }
    }

    /// Every child with `id`.
    package func children(_ id: EBMLID) -> [EBMLNode] {
        children.filter { $0.id == id }
    }

    /// The data as an unsigned integer of up to 8 bytes (an empty element is 0).
    package func unsigned() throws -> UInt64 {
        guard data.count <= 8 else { throw malformed("an unsigned integer of \(data.count) bytes") }
        return data.reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The data as a signed two's complement integer of up to 8 bytes.
    package func signed() throws -> Int64 {
        guard data.count <= 8 else { throw malformed("a signed integer of \(data.count) bytes") }
        guard let first = data.first else { return 0 }
        let start: Int64 = first & 0x80 != 0 ? -1 : 0
        return data.reduce(start) { $0 << 8 | Int64($1) }
    }

    /// The data as a 4- or 8-byte IEEE float (an empty element is 0).
    package func float() throws -> Double {
        let bits = data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        switch data.count {
        case 0: return 0
        case 4: return Double(Float(bitPattern: UInt32(bits)))
        case 8: return Double(bitPattern: bits)
        default: throw malformed("a float of \(data.count) bytes (4 or 8 are allowed)")
        }
    }

    /// The data as UTF-8 text, without the zero bytes that may pad it.
    package func string() -> String {
        String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The unsigned value of the child `id`, if there is one.
    package func unsigned(_ id: EBMLID) throws -> UInt64? {
        try child(id)?.unsigned()
    }

    /// The float value of the child `id`, if there is one.
    package func float(_ id: EBMLID) throws -> Double? {
        try child(id)?.float()
    }

    /// The text of the child `id`, if there is one.
    package func string(_ id: EBMLID) -> String? {
        child(id)?.string()
    }

    private func malformed(_ what: String, line: Int = #line) -> MediaReadingError {
        MediaReadingError.matroska(.malformed, "\(what)", offset: element.offset, element: id, line: line)
    }
}
