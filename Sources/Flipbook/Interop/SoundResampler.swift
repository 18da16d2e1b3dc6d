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
        // A second of sound at a time through small buffers, the output gathered in the result: the
        // sound is held twice (the source and the result), never more.
        let block = max(1, rate)
        let outBlock = block * target / rate + 4096
        let inputs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        let outputs = (0..<channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: outBlock) }
        defer { for buffer in inputs + outputs { buffer.deallocate() } }
        var result = [[Float]](repeating: [], count: channels)
        for index in result.indices { result[index].reserveCapacity(wanted) }
        var outPointers: [UnsafeMutablePointer<UInt8>?] = outputs.map {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self)
        }
        var inPointers: [UnsafePointer<UInt8>?] = inputs.map {
            UnsafePointer(UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self))
        }
        var start = 0
        while true {
            let count = min(block, first.count - start)
            for (channel, plane) in planes.enumerated() where count > 0 {
                plane.withUnsafeBufferPointer { inputs[channel].update(from: $0.baseAddress! + start, count: count) }
            }
            // After the last block, a call without input drains the filter's delay.
            let status = outPointers.withUnsafeMutableBufferPointer { outBuffer in
                inPointers.withUnsafeMutableBufferPointer { inBuffer in
                    swr_convert(
                        context, outBuffer.baseAddress, Int32(outBlock), count > 0 ? inBuffer.baseAddress : nil,
                        Int32(count))
                }
            }
            try avcodecCall(
                "swr_convert", .invalidAudio, "its sound could not be resampled to \(target) Hz", status, path: path)
            for channel in 0..<channels {
                result[channel].append(contentsOf: UnsafeBufferPointer(start: outputs[channel], count: Int(status)))
            }
            if count <= 0 { break }
            start += count
        }
        for channel in result.indices {
            let extra = result[channel].count - wanted
            if extra > 0 {
                result[channel].removeLast(extra)
            } else {
                result[channel].append(contentsOf: repeatElement(0, count: -extra))
            }
        }
        return result
    }
}
