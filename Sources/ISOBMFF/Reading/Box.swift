/// One box found in a file: where it is, how big, and the boxes inside it.
///
/// A box knows only its place; its fields are decoded from the file's bytes on demand (see
/// ``BoxDump`` and ``SampleTableReader``). Offsets are from the start of the file.
package struct Box: Sendable, Equatable {
    /// The four-character type, each byte read as Latin-1 (control bytes shown as `.`).
    package var type: String
    /// The file offset of the box's first byte (its size field).
    package var offset: Int
    /// The box's total size in bytes, header included.
    package var size: Int
    /// The header's size: 8, 16 with a largesize, plus 16 for a `uuid` user type.
    package var headerSize: Int
    /// The boxes inside, for containers; empty for leaf boxes.
    package var children: [Box]

    /// Creates a box record.
    package init(type: String, offset: Int, size: Int, headerSize: Int, children: [Box] = []) {
        self.type = type
        self.offset = offset
        self.size = size
        self.headerSize = headerSize
        self.children = children
    }

    /// The file offset just past the box.
    package var end: Int { offset &+ size }

    /// The bytes after the header, as file offsets. May extend past the bytes that were parsed
    /// when a file was read header-only (see ``BoxReader/parse(_:fileSize:)``).
    package var payloadRange: Range<Int> {
        let start = offset &+ headerSize
        return start..<max(start, offset &+ size)
    }

    /// The first direct child of the given type.
    ///
    /// - Parameter type: A four-character type, e.g. `"mvhd"`.
    package func child(_ type: String) -> Box? {
        children.first { $0.type == type }
    }

    /// Every direct child of the given type.
    ///
    /// - Parameter type: A four-character type, e.g. `"trak"`.
    package func children(_ type: String) -> [Box] {
        children.filter { $0.type == type }
    }

    /// The first descendant reached by following a path of types, e.g. `["mdia", "minf", "stbl"]`.
    ///
    /// - Parameter path: Types of successive children.
    package func descendant(_ path: [String]) -> Box? {
        var box = self
        for type in path {
            guard let next = box.child(type) else { return nil }
            box = next
        }
        return box
    }
}

extension [Box] {
    /// The first box of the given type at this level.
    ///
    /// - Parameter type: A four-character type, e.g. `"moov"`.
    package func first(_ type: String) -> Box? {
        first { $0.type == type }
    }
}
