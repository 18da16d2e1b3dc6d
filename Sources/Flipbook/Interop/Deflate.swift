internal import CDeflate

/// libdeflate, the one place it is called: whole-buffer zlib inflation and CRC-32, with its status
/// codes turned into errors that say what is wrong with the image data.
enum Deflate {
    /// The CRC-32 of `bytes`, as PNG chunks carry it.
    static func crc32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        UInt32(libdeflate_crc32(0, bytes.baseAddress, bytes.count))
    }

    /// Inflates the zlib stream split over `parts` (a PNG's IDAT payloads, in order) into exactly
    /// `count` bytes.
    ///
    /// - Throws: `.corruptImage` when the stream is damaged, ends early or is longer than `count`.
    static func zlibDecompress(_ parts: [UnsafeBufferPointer<UInt8>], count: Int) throws -> [UInt8] {
        guard let decompressor = libdeflate_alloc_decompressor() else {
            throw FlipbookError.imageDecoderNotCreated(
                by: "libdeflate", "a decompressor",
                cause: LibraryCallError(
                    library: "libdeflate", function: "libdeflate_alloc_decompressor", status: 0))
        }
        defer { libdeflate_free_decompressor(decompressor) }
        var joined: [UInt8] = []
        if parts.count > 1 {
            joined.reserveCapacity(parts.reduce(0) { $0 + $1.count })
            for part in parts { joined.append(contentsOf: part) }
        }
        var produced = 0
        var status = LIBDEFLATE_BAD_DATA
        // Not zeroed first: libdeflate writes every byte or the image is refused below.
        let output = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            if parts.count == 1, let part = parts.first {
                status = libdeflate_zlib_decompress(
                    decompressor, part.baseAddress, part.count, out.baseAddress, count, &produced)
            } else {
                status = joined.withUnsafeBytes { input in
                    libdeflate_zlib_decompress(
                        decompressor, input.baseAddress, input.count, out.baseAddress, count, &produced)
                }
            }
            initialized = status == LIBDEFLATE_SUCCESS && produced == count ? count : 0
        }
        try check(status, produced: produced, expected: count)
        return output
    }

    /// Inflates a small zlib stream of unknown length (a PNG's `iCCP` profile) into at most `atMost`
    /// bytes; `nil` when it is damaged or longer.
    static func zlibInflate(_ stream: UnsafeBufferPointer<UInt8>, atMost: Int) -> [UInt8]? {
        guard let decompressor = libdeflate_alloc_decompressor() else { return nil }
        defer { libdeflate_free_decompressor(decompressor) }
        var capacity = min(atMost, max(4096, stream.count * 4))
        while true {
            var produced = 0
            var status = LIBDEFLATE_BAD_DATA
            let output = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
                status = libdeflate_zlib_decompress(
                    decompressor, stream.baseAddress, stream.count, out.baseAddress, capacity, &produced)
                initialized = status == LIBDEFLATE_SUCCESS ? produced : 0
            }
            if status == LIBDEFLATE_SUCCESS { return output }
            guard status == LIBDEFLATE_INSUFFICIENT_SPACE, capacity < atMost else { return nil }
            capacity = min(atMost, capacity * 4)
        }
    }

    /// The funnel for libdeflate's status codes.
    private static func check(_ status: libdeflate_result, produced: Int, expected: Int) throws {
        let cause = LibraryCallError(
            library: "libdeflate", function: "libdeflate_zlib_decompress", status: Int(status.rawValue))
        switch status {
        case LIBDEFLATE_SUCCESS where produced == expected:
            return
        case LIBDEFLATE_SUCCESS, LIBDEFLATE_SHORT_OUTPUT:
            throw FlipbookError.pngDataShort(produced: produced, expected: expected, cause: cause)
        case LIBDEFLATE_INSUFFICIENT_SPACE:
            throw FlipbookError.pngDataTooLong(cause: cause)
        default:
            throw FlipbookError.pngDataDamaged(cause: cause)
        }
    }

    /// A decompressor kept for many streams on one thread (the chunks of one OpenEXR picture).
    final class Inflater {
        private let decompressor: OpaquePointer?

        init() { decompressor = libdeflate_alloc_decompressor() }

        deinit { libdeflate_free_decompressor(decompressor) }

        /// Inflates the zlib stream at `input` (`inputCount` bytes) into exactly `count` bytes at
        /// `output`; false when the stream is damaged, ends early, is longer, or no decompressor was made.
        func inflate(_ input: UnsafeRawPointer, count inputCount: Int, into output: UnsafeMutableRawPointer, count: Int)
            -> Bool
        {
            guard let decompressor else { return false }
            var produced = 0
            let status = libdeflate_zlib_decompress(decompressor, input, inputCount, output, count, &produced)
            return status == LIBDEFLATE_SUCCESS && produced == count
        }
    }
}
