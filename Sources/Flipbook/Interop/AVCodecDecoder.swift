internal import CAVCodec

/// One libavcodec sound decoder with its frame and packet, opened with the codec's configuration
/// (`extradata`) and freed with it: the common part of the FLAC, AAC and MP3 decoders and of any
/// codec libavformat finds in a sound file.
final class AVCodecDecoder {
    let context: UnsafeMutablePointer<AVCodecContext>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>

    /// Opens the decoder of `codecID` (named `name` in messages) for the file at `path`.
    ///
    /// - Parameter configure: Sets the context's fields before it is opened (a sample rate, channels).
    /// - Throws: `.invalidAudio` naming the file when libavcodec has no such decoder or cannot open it.
    init(
        _ codecID: AVCodecID, name: String, extradata: [UInt8], path: String,
        configure: (UnsafeMutablePointer<AVCodecContext>) throws -> Void = { _ in }
    ) throws {
        guard let codec = avcodec_find_decoder(codecID) else {
            throw FlipbookError.soundDecoderMissing(name, path: path)
        }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        guard let madeContext = context, let madeFrame = frame, let madePacket = packet else {
            av_packet_free(&packet)
            av_frame_free(&frame)
            avcodec_free_context(&context)
            throw FlipbookError.soundLibraryOutOfMemory("libavcodec", path: path)
        }
        (self.context, self.frame, self.packet) = (madeContext, madeFrame, madePacket)
        if !extradata.isEmpty, let copy = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) {
            extradata.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: extradata.count) }
            madeContext.pointee.extradata = copy.assumingMemoryBound(to: UInt8.self)
            madeContext.pointee.extradata_size = Int32(extradata.count)
        }
        _ = AVLog.take(for: madeContext)  // an error a freed context at this address logged is not this one's
        try configure(madeContext)
        AVLog.silence()
        try avcodecCall(
            "avcodec_open2", .invalidAudio, "cannot be decoded as \(name)", avcodec_open2(madeContext, codec, nil),
            path: path)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }

    /// Hands every frame the decoder has ready to `take`, until it asks for more input or is drained.
    ///
    /// - Parameter damaged: What a decoding error says about the file.
    func receiveFrames(damaged: String, path: String, _ take: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        while true {
            let status = avcodec_receive_frame(context, frame)
            if status == AVCodecStatus.again || status == AVCodecStatus.endOfFile { return }
            try avcodecCall("avcodec_receive_frame", .invalidAudio, damaged, status, path: path)
            try take(frame)
        }
    }
}
