import Foundation

/// A check of a HEIF file's item references (`meta`/`iref`) before libheif sees the file.
///
/// Debian 12's libheif (1.15) decodes a grid image's tiles as its `dimg` references list them, each
/// with its own decoder and threads, and accepts a list that names one tile thousands of times: a
/// file of a kilobyte then takes minutes and gigabytes, and ends the process when no more threads
/// can start. Later libheif refuses such a list ("double references"); Flipbook refuses it here, and
/// any image built from more than ``maxReferences`` items.
enum HEIFReferences {
    /// The most items one item may be built from: a 48-megapixel photo in 512x512 tiles has 192.
    static let maxReferences = 4096

    /// Throws `.corruptImage` when an item lists another twice, `.unsupportedImage` when it lists more
    /// than ``maxReferences``. Files without a readable `meta`/`iref` pass (libheif judges them).
    static func check(_ data: Data, format: String) throws {
        let bytes = [UInt8](data.prefix(1 << 20))
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= bytes.count else { return nil }
            return bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= bytes.count else { return nil }
            return Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }
        /// The payload range of the first box of `type` among the boxes in `range`.
        func child(_ type: String, in range: Range<Int>) -> Range<Int>? {
            var position = range.lowerBound
            while position + 8 <= range.upperBound, let size = u32(position), size >= 8 {
                let end = min(position + size, range.upperBound)
                if bytes[position + 4..<position + 8].elementsEqual(type.utf8) { return position + 8..<end }
                position += size
            }
            return nil
        }
        // meta is a full box (4 bytes of version and flags before its children); so is iref.
        guard let meta = child("meta", in: 0..<bytes.count), meta.count > 4,
            let iref = child("iref", in: meta.lowerBound + 4..<meta.upperBound), iref.count > 4
        else { return }
        let wide = bytes[iref.lowerBound] != 0  // version 1: 32-bit item ids
        let idSize = wide ? 4 : 2
        var position = iref.lowerBound + 4
        var edges: [Int: [Int]] = [:]
        while position + 8 <= iref.upperBound, let size = u32(position), size >= 8 {
            let end = min(position + size, iref.upperBound)
            let from = (wide ? u32(position + 8) : u16(position + 8)) ?? 0
            var at = position + 8 + idSize  // after from_item_ID
            if let count = u16(at) {
                guard count <= maxReferences else {
                    throw FlipbookError(
                        .unsupportedImage,
                        "the \(format) builds one image from \(count) others, more than the \(maxReferences) Flipbook reads"
                    )
                }
                at += 2
                var seen = Set<Int>()
                for _ in 0..<count where at + idSize <= end {
                    let id = wide ? u32(at) ?? 0 : u16(at) ?? 0
                    guard seen.insert(id).inserted else {
                        throw FlipbookError(
                            .corruptImage,
                            "the \(format) cannot be decoded: an image lists item \(id) twice as its part")
                    }
                    edges[from, default: []].append(id)
                    at += idSize
                }
            }
            position += size
        }
        // An item built from itself, directly or through others, sends libheif round in circles. A
        // depth-first walk with its own stack (a chain of thousands of items must not deepen the call stack).
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
                    throw FlipbookError(
                        .corruptImage, "the \(format) cannot be decoded: item \(part) is built from itself")
                }
                if !finished.contains(part) {
                    onPath.insert(part)
                    stack.append((part, 0))
                }
            }
        }
    }
}
