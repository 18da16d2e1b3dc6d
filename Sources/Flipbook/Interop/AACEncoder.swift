internal import CAVCodec

/// libavcodec's native AAC encoder, making AAC-LC packets from planar float PCM.
///
/// The encoder's AudioSpecificConfig (for `esds`) comes from its extradata; its delay
/// (``priming``, FFmpeg's `initial_padding`) is the number of samples its first packets decode to
/// before the first input sample, which the movie's edit list steps over.
final class AACEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let sampleRate: Int
    let channels: Int
    /// Samples a packet holds (1024).
    let frameSize: Int
    /// Samples of delay before the first input sample.
    let priming: Int
    /// The AudioSpecificConfig for `esds`.
    let audioSpecificConfig: [UInt8]
    /// Input samples given so far, as the frames' times.
    private var samplesIn: Int64 = 0

    /// Opens an encoder.
    ///
    /// - Throws: `.invalidAudio` for a rate or channel count AAC cannot carry, `.encoderFailed`
    ///   when libavcodec cannot open it.
    init(sampleRate: Int, channels: Int, bitrate: Int) throws {
        self.sampleRate = sampleRate
        self.channels = channels
        AVLog.silence()
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_AAC) else {
            throw FlipbookError.encoderMissing("AAC")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FlipbookError.encoderNotAllocated("AAC") }
        (self.context, self.frame, self.packet) = (context, frame, packet)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        context.pointee.flags |= flipbook_codec_flag_global_header()
        try SoundLayout.set(
            &context.pointee.ch_layout, to: SoundCodec.aac.layoutName(channels: channels), path: nil)
        try avcodecCall(
            "avcodec_open2", .encoderFailed, "the AAC encoder cannot take \(channels) channels at \(sampleRate) Hz",
            avcodec_open2(context, codec, nil))
        frameSize = Int(context.pointee.frame_size)
        priming = Int(context.pointee.initial_padding)
        audioSpecificConfig = Array(
            UnsafeBufferPointer(start: context.pointee.extradata, count: Int(context.pointee.extradata_size)))
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    /// Encodes up to ``frameSize`` samples of each channel (fewer only for the last call before
    /// ``flush()``), and returns the packets that are ready.
    func encode(_ planes: [ArraySlice<Float>]) throws -> [[UInt8]] {
        guard let context, let frame, planes.count == channels else { return [] }
        try AVCodecEncoding.prepare(frame, of: context, count: planes[0].count, pts: samplesIn, encoder: "AAC")
        for (channel, plane) in planes.enumerated() {
            guard let data = frame.pointee.extended_data[channel] else { continue }
            data.withMemoryRebound(to: Float.self, capacity: plane.count) { target in
                plane.withUnsafeBufferPointer { target.update(from: $0.baseAddress!, count: plane.count) }
            }
        }
        samplesIn += Int64(planes[0].count)
        try avcodecCall(
            "avcodec_send_frame", .encoderFailed, "the AAC encoder refused sound", avcodec_send_frame(context, frame))
        return try receivePackets()
    }

    /// Drains the encoder: the packets it still holds.
    func flush() throws -> [[UInt8]] {
        guard let context else { return [] }
        try AVCodecEncoding.endStream(of: context, encoder: "AAC")
        return try receivePackets()
    }

    /// Every packet the encoder has ready, copied out of libavcodec's buffers.
    private func receivePackets() throws -> [[UInt8]] {
        guard let context, let packet else { return [] }
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "AAC").map(\.bytes)
    }
}
