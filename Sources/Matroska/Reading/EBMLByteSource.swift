import Foundation

/// Where a reader takes a file's bytes from: any range on demand, so that a movie's frames are never
/// read to learn where they are.
package protocol EBMLByteSource: AnyObject {
    /// The file's length in bytes.
    var size: UInt64 { get }
    /// Up to `count` bytes from `offset` (fewer at the file's end).
    func read(at offset: UInt64, count: Int) throws -> ArraySlice<UInt8>
}

/// A file held in memory, for tests and fuzzing.
package final class EBMLMemorySource: EBMLByteSource {
    private let bytes: [UInt8]

    /// Serves `bytes`.
    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var size: UInt64 { UInt64(bytes.count) }

    package func read(at offset: UInt64, count: Int) throws -> ArraySlice<UInt8> {
        guard offset < size else { return [] }
        let start = Int(offset)
        return bytes[start..<start + min(count, bytes.count - start)]
    }
}

/// A file on disk, read a page at a time: element headers lie a few bytes apart in the metadata and
/// one frame apart in clusters, so a small read ahead serves most of them without a system call.
package final class EBMLFileSource: EBMLByteSource {
    private let handle: FileHandle
    package let size: UInt64
    /// The bytes read last, and the file offset of their first.
    private var window: [UInt8] = []
    private var windowOffset: UInt64 = 0
    /// The least a read takes from the file.
    private static let readAhead = 4096

    /// Opens the file at `path` for reading.
    ///
    /// - Throws: Foundation's error when the file cannot be opened.
    package init(path: String) throws {
        handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        size = try handle.seekToEnd()
    }

    deinit {
        try? handle.close()
    }

    package func read(at offset: UInt64, count: Int) throws -> ArraySlice<UInt8> {
        guard offset < size else { return [] }
        let wanted = UInt64(min(UInt64(count), size - offset))
        if offset >= windowOffset, offset + wanted <= windowOffset + UInt64(window.count) {
            let start = Int(offset - windowOffset)
            return window[start..<start + Int(wanted)]
        }
        try handle.seek(toOffset: offset)
        let length = Int(min(size - offset, UInt64(max(count, Self.readAhead))))
        window = [UInt8](try handle.read(upToCount: length) ?? Data())
        windowOffset = offset
        return window.prefix(Int(wanted))
    }
}
