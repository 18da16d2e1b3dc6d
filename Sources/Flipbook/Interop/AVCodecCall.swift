internal import CAVCodec

/// The one way libavcodec's status codes become Swift errors: a negative status throws
/// ``LibraryCallError`` with the function and FFmpeg's own message, inside a ``FlipbookError`` of
/// `code` that says what Flipbook was doing.
///
/// The error's ``FlipbookError/origin`` is the line that called the funnel.
///
/// - Returns: The status, when it is not an error.
@discardableResult
func avcodecCall(
    _ function: String, _ code: FlipbookError.Code, _ doing: @autoclosure () -> String, _ status: Int32,
    path: String? = nil, fileID: String = #fileID, line: Int = #line
) throws -> Int32 {
    guard status < 0 else { return status }
    throw FlipbookError.libraryCallFailed(
        code, doing(), path: path,
        cause: LibraryCallError(
            library: "libavcodec", function: function, status: Int(status), libraryMessage: ffmpegMessage(status)),
        fileID: fileID, line: line)
}

/// FFmpeg's own words for a negative status (`av_strerror`), for both funnels; `nil` when it has none.
func ffmpegMessage(_ status: Int32) -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard av_strerror(status, &buffer, buffer.count) == 0 else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// libavcodec's "take output first" and "drained" statuses.
enum AVCodecStatus {
    static let again = flipbook_averror_eagain()
    static let endOfFile = flipbook_averror_eof()
}

/// How Flipbook drives a libavcodec encoder, the same for each (AAC, ProRes): frames in, then every
/// packet that is ready taken out; at the end, the stream's end sent and the rest taken out.
enum AVCodecEncoding {
    /// Every packet `context` has ready, copied out of libavcodec's buffers (through `packet`) with
    /// its presentation time and whether it is a keyframe, in the order the encoder hands them out.
    ///
    /// - Parameter encoder: The encoder as a message names it: `AAC`, `ProRes`.
    static func receivePackets(
        from context: UnsafeMutablePointer<AVCodecContext>, through packet: UnsafeMutablePointer<AVPacket>,
        encoder: String
    ) throws -> [(bytes: [UInt8], presentationTime: Int64, isKeyframe: Bool)] {
        var packets: [(bytes: [UInt8], presentationTime: Int64, isKeyframe: Bool)] = []
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == AVCodecStatus.again || status == AVCodecStatus.endOfFile { break }
            try avcodecCall("avcodec_receive_packet", .encoderFailed, "the \(encoder) encoder failed", status)
            packets.append(
                (
                    Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))),
                    packet.pointee.pts, packet.pointee.flags & AV_PKT_FLAG_KEY != 0
                ))
            av_packet_unref(packet)
        }
        return packets
    }

    /// Makes `frame` ready for `count` samples of `context`'s format, rate and layout at time `pts`, its buffers
    /// allocated, as each sound encoder fills it.
    static func prepare(
        _ frame: UnsafeMutablePointer<AVFrame>, of context: UnsafeMutablePointer<AVCodecContext>, count: Int,
        pts: Int64, encoder: String
    ) throws {
        av_frame_unref(frame)
        frame.pointee.nb_samples = Int32(count)
        frame.pointee.format = context.pointee.sample_fmt.rawValue
        frame.pointee.sample_rate = context.pointee.sample_rate
        frame.pointee.pts = pts
        try avcodecCall(
            "av_channel_layout_copy", .encoderFailed, "the \(encoder) encoder's frame could not be set up",
            av_channel_layout_copy(&frame.pointee.ch_layout, &context.pointee.ch_layout))
        try avcodecCall(
            "av_frame_get_buffer", .encoderFailed, "the \(encoder) encoder's frame could not be allocated",
            av_frame_get_buffer(frame, 0))
    }

    /// Tells `context` that no more frames come (sending it a second time is harmless), so that
    /// ``receivePackets(from:through:encoder:)`` drains it.
    static func endStream(of context: UnsafeMutablePointer<AVCodecContext>, encoder: String) throws {
        let status = avcodec_send_frame(context, nil)
        if status != AVCodecStatus.endOfFile {
            try avcodecCall("avcodec_send_frame", .encoderFailed, "the \(encoder) encoder could not be drained", status)
        }
    }
}
