internal import CAVCodec

/// libswresample, bringing sound of one rate to another (Opus is encoded at 48 kHz): the whole
/// sound at once, every channel, planar float in and out.
enum SoundResampler {
    /// `planes` (each channel's samples at `rate`) at `target` samples a second, as many samples as
    /// the sound's length holds at the new rate.
    ///
    /// - Throws: `.invalidAudio` naming `path` when libswresample cannot convert it.
    static func resample(_ planes: [[Float]], from rate: Int, to target: Int, path: String) throws -> [[Float]] {
        guard rate != target, let first = planes.first, !first.isEmpty else { return planes }
        let channels = planes.count
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(channels))
        var inputLayout = layout
        var context: OpaquePointer?
        try avcodecCall(
            "swr_alloc_set_opts2", .invalidAudio, "its sound could not be resampled to \(target) Hz",
            swr_alloc_set_opts2(
                &context, &layout, AV_SAMPLE_FMT_FLTP, Int32(target), &inputLayout, AV_SAMPLE_FMT_FLTP, Int32(rate), 0,
                nil),
            path: path)
        defer { swr_free(&context) }
        // A longer filter than the default, for music: as ffmpeg's high-quality settings.
        av_opt_set_int(UnsafeMutableRawPointer(context), "filter_size", 64, 0)
        try avcodecCall(
            "swr_init", .invalidAudio, "its sound could not be resampled to \(target) Hz", swr_init(context), path: path
        )

        let wanted = Int((Int64(first.count) * Int64(target) + Int64(rate) / 2) / Int64(rate))
        let capacity = wanted + 4096
        // One buffer per channel, held apart from Swift arrays so libswresample gets every channel's pointer at once.
        let inputs = planes.map { plane -> UnsafeMutablePointer<Float> in
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: plane.count)
            buffer.initialize(from: plane, count: plane.count)
            return buffer
        }
        let outputs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: capacity) }
        defer { for buffer in inputs + outputs { buffer.deallocate() } }
        var produced = 0
        for feeding in [true, false] {
            var outPointers: [UnsafeMutablePointer<UInt8>?] = outputs.map {
                UnsafeMutableRawPointer($0 + produced).assumingMemoryBound(to: UInt8.self)
            }
            var inPointers: [UnsafePointer<UInt8>?] = inputs.map {
                UnsafePointer(UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self))
            }
            let status = outPointers.withUnsafeMutableBufferPointer { outBuffer in
                inPointers.withUnsafeMutableBufferPointer { inBuffer in
                    swr_convert(
                        context, outBuffer.baseAddress, Int32(capacity - produced),
                        feeding ? inBuffer.baseAddress : nil, feeding ? Int32(first.count) : 0)
                }
            }
            try avcodecCall(
                "swr_convert", .invalidAudio, "its sound could not be resampled to \(target) Hz", status, path: path)
            produced += Int(status)
        }
        let kept = min(produced, wanted)
        return outputs.map { buffer in
            Array(UnsafeBufferPointer(start: buffer, count: kept)) + [Float](repeating: 0, count: wanted - kept)
        }
    }
}
