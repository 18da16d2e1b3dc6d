internal import CAVCodec

/// libavcodec's FLAC decoder and parser: a whole FLAC file to planar float PCM.
enum FLACDecoder {
    /// Decodes the frames that follow a FLAC file's metadata.
    ///
    /// - Parameters:
    ///   - streamInfo: The STREAMINFO block's 34 bytes, the decoder's configuration.
    ///   - frames: The file's bytes from its first frame.
    ///   - channels: Channels, from STREAMINFO.
    ///   - path: The file, for errors.
    /// - Returns: Each channel's samples, from -1 to 1.
    /// - Throws: `.invalidAudio` naming the file when the frames do not decode.
    static func decode(streamInfo: [UInt8], frames: ArraySlice<UInt8>, channels: Int, path: String) throws -> [[Float]]
    {
        guard let parser = av_parser_init(Int32(AV_CODEC_ID_FLAC.rawValue)) else {
            throw FlipbookError(
                .invalidAudio, "cannot be decoded: this system's libavcodec has no FLAC parser", path: path)
        }
        defer { av_parser_close(parser) }
        let decoder = try AVCodecDecoder(AV_CODEC_ID_FLAC, name: "FLAC", extradata: streamInfo, path: path)
        let (context, packet) = (decoder.context, decoder.packet)
        let damaged = "is damaged: its FLAC frames do not decode"

        var planes = [[Float]](repeating: [], count: channels)
        func receiveFrames() throws {
            try decoder.receiveFrames(damaged: damaged, path: path) { try append($0, to: &planes, path: path) }
        }
        // The input, padded as the parser requires, then parsed into frames and decoded one by one.
        var input = [UInt8](frames)
        input += [UInt8](repeating: 0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE))
        let length = frames.count
        var position = 0
        let none = flipbook_av_nopts_value()
        try input.withUnsafeBufferPointer { buffer in
            while true {
                var output: UnsafeMutablePointer<UInt8>?
                var outputSize: Int32 = 0
                let remaining = Int32(length - position)
                let used = av_parser_parse2(
                    parser, context, &output, &outputSize, remaining > 0 ? buffer.baseAddress! + position : nil,
                    remaining, none, none, 0)
                position += Int(max(0, used))
                if let output, outputSize > 0 {
                    packet.pointee.data = output
                    packet.pointee.size = outputSize
                    try avcodecCall(
                        "avcodec_send_packet", .invalidAudio, damaged, avcodec_send_packet(context, packet), path: path)
                    try receiveFrames()
                }
                if remaining <= 0 && outputSize <= 0 { break }
            }
        }
        packet.pointee.data = nil
        packet.pointee.size = 0
        _ = avcodec_send_packet(context, nil)
        try receiveFrames()
        return planes
    }

    /// Appends a decoded frame's samples (16- or 32-bit integers, interleaved or planar) as floats.
    private static func append(_ frame: UnsafeMutablePointer<AVFrame>, to planes: inout [[Float]], path: String) throws
    {
        let count = Int(frame.pointee.nb_samples)
        let format = AVSampleFormat(frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        let channels = planes.count
        guard Int(frame.pointee.ch_layout.nb_channels) == channels else {
            throw FlipbookError(
                .invalidAudio,
                "is damaged: a FLAC frame has \(frame.pointee.ch_layout.nb_channels) channels, its stream information "
                    + "\(channels)", path: path)
        }
        for channel in 0..<channels {
            guard let data = frame.pointee.extended_data[planar ? channel : 0] else { continue }
            let stride = planar ? 1 : channels
            let first = planar ? 0 : channel
            switch format {
            case AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P:
                data.withMemoryRebound(to: Int16.self, capacity: count * stride) { samples in
                    for index in 0..<count { planes[channel].append(Float(samples[first + index * stride]) / 32768) }
                }
            case AV_SAMPLE_FMT_S32, AV_SAMPLE_FMT_S32P:
                data.withMemoryRebound(to: Int32.self, capacity: count * stride) { samples in
                    for index in 0..<count {
                        planes[channel].append(Float(samples[first + index * stride]) / 2_147_483_648)
                    }
                }
            default:
                throw FlipbookError(
                    .invalidAudio, "decodes to a sample format Flipbook does not take (\(format.rawValue))", path: path)
            }
        }
    }
}
