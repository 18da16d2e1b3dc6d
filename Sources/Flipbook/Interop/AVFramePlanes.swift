internal import CAVCodec

/// Copies of Flipbook's tightly packed planes into the planes of a libavcodec frame, whose rows have
/// strides of their own, for the video encoders that libavcodec drives.
enum AVFramePlanes {
    /// A plane of `width` by `height` samples (8-bit, or 16-bit words for deeper pictures) into plane
    /// `index` of `frame`, whose buffers are allocated.
    static func copy<Sample: FixedWidthInteger>(
        _ samples: [Sample], width: Int, height: Int, into frame: UnsafeMutablePointer<AVFrame>, plane index: Int
    ) {
        precondition(samples.count == width * height, "a plane of \(samples.count) samples for \(width)x\(height)")
        let (data, stride) = withUnsafePointer(to: frame.pointee.data) { data in
            withUnsafePointer(to: frame.pointee.linesize) { sizes in
                (
                    data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { $0[index] },
                    sizes.withMemoryRebound(to: Int32.self, capacity: 8) { Int($0[index]) }
                )
            }
        }
        guard let data else { return }
        let rowBytes = width * MemoryLayout<Sample>.size
        samples.withUnsafeBytes { source in
            let bytes = source.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for row in 0..<height {
                (data + row * stride).update(from: bytes + row * rowBytes, count: rowBytes)
            }
        }
    }
}
