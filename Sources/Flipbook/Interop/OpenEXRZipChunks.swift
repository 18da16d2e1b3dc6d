internal import CFlipbookPixels
internal import COpenEXR

/// OpenEXR's ZIP and ZIPS chunks undone by libdeflate and Flipbook's vectorised loop
/// (`flipbook_exr_zip_unpredict`) instead of OpenEXRCore 3.1's own way (zlib, then a loop a byte at a
/// time as Debian builds it): the same bytes, sooner. One per picture read, on one thread: it keeps its
/// decompressor and scratch from chunk to chunk.
final class OpenEXRZipChunks {
    private let inflater = Deflate.Inflater()
    private var scratch = UnsafeMutableRawBufferPointer(start: nil, count: 0)

    /// The undoer for a part of `compression`; `nil` unless it is ZIP or ZIPS.
    init?(_ compression: exr_compression_t) {
        guard compression == EXR_COMPRESSION_ZIP || compression == EXR_COMPRESSION_ZIPS else { return nil }
    }

    deinit { scratch.deallocate() }

    /// Makes `pipeline`, its routines chosen, undo its chunk's compression here. The pipeline must not
    /// run after this is gone.
    func take(_ pipeline: inout exr_decode_pipeline_t) {
        guard pipeline.decompress_fn != nil else { return }
        pipeline.decoding_user_data = Unmanaged.passUnretained(self).toOpaque()
        pipeline.decompress_fn = undoZipChunk
    }

    /// Inflates the pipeline's packed chunk and undoes its reordering into the unpacked buffer, as
    /// OpenEXRCore's own routine does: a chunk whose packed size is its unpacked size is stored as it is.
    fileprivate func undo(_ decode: UnsafeMutablePointer<exr_decode_pipeline_t>) -> exr_result_t {
        let packed = Int(clamping: decode.pointee.chunk.packed_size)
        let unpacked = Int(clamping: decode.pointee.chunk.unpacked_size)
        guard packed > 0 else { return exr_result_t(EXR_ERR_SUCCESS.rawValue) }
        guard let input = decode.pointee.packed_buffer, let output = decode.pointee.unpacked_buffer else {
            return exr_result_t(EXR_ERR_INVALID_ARGUMENT.rawValue)
        }
        if packed == unpacked {
            if input != output { output.copyMemory(from: input, byteCount: unpacked) }
            return exr_result_t(EXR_ERR_SUCCESS.rawValue)
        }
        if scratch.count < unpacked {
            scratch.deallocate()
            scratch = .allocate(byteCount: unpacked, alignment: 16)
        }
        guard let coded = scratch.baseAddress, inflater.inflate(input, count: packed, into: coded, count: unpacked)
        else {
            return exr_result_t(EXR_ERR_CORRUPT_CHUNK.rawValue)
        }
        flipbook_exr_zip_unpredict(
            output.assumingMemoryBound(to: UInt8.self), coded.assumingMemoryBound(to: UInt8.self), unpacked)
        return exr_result_t(EXR_ERR_SUCCESS.rawValue)
    }
}

extension OpenEXRZipChunks {
    /// `coded` (an inflated ZIP chunk) with its reordering and delta coding undone, by the vectorised
    /// loop or, when `portable`, the byte-by-byte one; for the tests that hold the two to one result.
    static func unpredicted(_ coded: [UInt8], portable: Bool = false) -> [UInt8] {
        var coded = coded
        return [UInt8](unsafeUninitializedCapacity: coded.count) { out, initialized in
            coded.withUnsafeMutableBufferPointer { coded in
                guard let input = coded.baseAddress, let output = out.baseAddress else { return }
                if portable {
                    flipbook_exr_zip_unpredict_portable(output, input, coded.count)
                } else {
                    flipbook_exr_zip_unpredict(output, input, coded.count)
                }
            }
            initialized = coded.count
        }
    }
}

/// The pipeline's decompression routine: the ``OpenEXRZipChunks`` in its user data undoes the chunk.
private func undoZipChunk(_ decode: UnsafeMutablePointer<exr_decode_pipeline_t>?) -> exr_result_t {
    guard let decode, let chunks = decode.pointee.decoding_user_data else {
        return exr_result_t(EXR_ERR_INVALID_ARGUMENT.rawValue)
    }
    return Unmanaged<OpenEXRZipChunks>.fromOpaque(chunks).takeUnretainedValue().undo(decode)
}
