import Foundation

/// A check of a HEIF file's derived images (`meta`/`iref`, references of type `dimg`) before libheif
/// sees the file.
///
/// Debian 12's libheif (1.15) decodes a grid image's tiles as its `dimg` references list them, each
/// with its own decoder and threads: a list that names one tile thousands of times, or an image built
/// from itself (directly or through others), makes a file of a kilobyte take minutes and gigabytes and
/// end the process when no more threads can start. Later libheif refuses such lists; Flipbook refuses
/// them here, and any image built from more than ``maxReferences`` items.
enum HEIFReferences {
    /// The most items one image may be built from: a 48-megapixel photo in 512x512 tiles has 192.
    static let maxReferences = 4096
    /// The largest `meta` box read (a HEIF's metadata is a few kilobytes; its pictures are elsewhere).
    static let maxMetaBytes = 16 << 20

    /// Throws `.corruptImage` when an image lists a part twice or is built from itself,
    /// `.unsupportedImage` when one is built from more than ``maxReferences`` parts or the `meta` box is
    /// larger than ``maxMetaBytes``. Files without a readable `meta`/`iref` pass (libheif judges them).
    static func check(_ data: Data, format: String) throws {
        guard let meta = try metaPayload(data, format: format) else { return }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= meta.count else { return nil }
            return meta[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= meta.count else { return nil }
            return Int(meta[at]) << 8 | Int(meta[at + 1])
        }
        // meta and iref are full boxes: 4 bytes of version and flags before their children.
        var position = 4
        var iref: Range<Int>?
        while position + 8 <= meta.count, let size = u32(position), size >= 8, size <= meta.count - position {
            if meta[position + 4..<position + 8].elementsEqual("iref".utf8) {
                iref = position + 8..<position + size
                break
            }
            position += size
        }
        guard let iref, iref.count > 4 else { return }
        let idSize = meta[iref.lowerBound] != 0 ? 4 : 2  // version 1: 32-bit item ids
        func id(_ at: Int) -> Int? { idSize == 4 ? u32(at) : u16(at) }
        var edges: [Int: [Int]] = [:]
        position = iref.lowerBound + 4
        while position + 8 <= iref.upperBound, let size = u32(position), size >= 8,
            size <= iref.upperBound - position
        {
            defer { position += size }
            // Only `dimg` (an image derived from others) builds pictures; other types (auxl, prem,
            // thmb, cdsc) may point both ways between two items.
            guard meta[position + 4..<position + 8].elementsEqual("dimg".utf8), let from = id(position + 8),
                let count = u16(position + 8 + idSize)
            else { continue }
            guard count <= maxReferences else {
                throw FlipbookError.heifHasTooManyReferences(format, count: count, limit: maxReferences)
            }
            var seen = Set<Int>()
            var at = position + 10 + idSize
            for _ in 0..<count where at + idSize <= position + size {
                let part = id(at) ?? 0
                guard seen.insert(part).inserted else {
                    throw FlipbookError.heifPartListedTwice(format, part: part)
                }
                edges[from, default: []].append(part)
                at += idSize
            }
        }
        try refuseCycles(edges, format: format)
    }

    /// The `meta` box's payload, found by walking the file's top-level boxes (32-bit, 64-bit and
    /// to-the-end sizes), or `nil` when there is none.
    private static func metaPayload(_ data: Data, format: String) throws -> [UInt8]? {
        let count = data.count
        func read(_ at: Int, _ length: Int) -> UInt64? {
            guard at >= 0, length <= count - at else { return nil }
            return data[data.startIndex + at..<data.startIndex + at + length].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        var position = 0
        while position + 8 <= count, let small = read(position, 4) {
            var header = 8
            var size = Int(small)
            if small == 1, let large = read(position + 8, 8) {
                header = 16
                size = large > UInt64(count - position) ? count - position + 1 : Int(large)
            } else if small == 0 {
                size = count - position
            }
            guard size >= header, size <= count - position else { return nil }
            let typeStart = data.startIndex + position + 4
            if data[typeStart..<typeStart + 4].elementsEqual("meta".utf8) {
                guard size - header <= maxMetaBytes else {
                    throw FlipbookError.heifMetadataTooLarge(format, bytes: size)
                }
                let start = data.startIndex + position + header
                return [UInt8](data[start..<data.startIndex + position + size])
            }
            position += size
        }
        return nil
    }

    /// Throws when an image is built from itself, directly or through others: a depth-first walk with
    /// its own stack (a chain of thousands of items must not deepen the call stack).
    private static func refuseCycles(_ edges: [Int: [Int]], format: String) throws {
        var finished = Set<Int>()
        for root in edges.keys where !finished.contains(root) {
            var onPath: Set<Int> = [root]
            var stack: [(item: Int, next: Int)] = [(root, 0)]
            while let top = stack.last {
                let parts = edges[top.item] ?? []
                guard top.next < parts.count else {
                    finished.insert(top.item)
                    onPath.remove(top.item)
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let part = parts[top.next]
                if onPath.contains(part) {
                    throw FlipbookError.heifPartBuiltFromItself(format, part: part)
                }
                if !finished.contains(part) {
                    onPath.insert(part)
                    stack.append((part, 0))
                }
            }
        }
    }
}
