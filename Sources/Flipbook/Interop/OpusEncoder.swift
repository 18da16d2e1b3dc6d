internal import CAVCodec
import ISOBMFF

/// libopus (through libavcodec's wrapper), making Opus packets of 20 ms from 48 kHz float PCM.
///
/// The encoder's `OpusHead` (its pre-skip included) comes from its extradata; its delay
/// (``priming``) is the pre-skip, which the movie's edit list steps over (in Matroska, the track's
/// `CodecDelay`).
final class OpusEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let channels: Int
    /// Samples a packet holds (960: 20 ms).
    private(set) var frameSize = 0
    /// Samples of delay before the first input sample (the pre-skip).
    private(set) var priming = 0
    /// The `OpusHead` for the track's configuration.
    private(set) var opusHead: [UInt8] = []
    /// Input samples given so far, as the frames' times.
    private var samplesIn: Int64 = 0
    /// The one sample rate Flipbook encodes Opus at.
    static let sampleRate = 48000

    /// Opens an encoder for 48 kHz sound.
    ///
    /// - Throws: `.invalidAudio` for a channel count Opus is not written with here (1 to 8) or a bit
    ///   rate it does not take, `.encoderFailed` when libavcodec has no libopus or cannot open it.
    init(channels: Int, bitrate: Int, path: String) throws {
        self.channels = channels
        guard (1...8).contains(channels) else {
            throw FlipbookError.soundChannelsRefused(channels, by: "Opus", carried: "1 to 8", path: path)
        }
        guard (6000...256_000 * channels).contains(bitrate) else {
            throw FlipbookError.opusBitrateRefused(bitrate, channels: channels, path: path)
        }
        AVLog.silence()
        guard let codec = avcodec_find_encoder_by_name("libopus") else {
            throw FlipbookError.encoderMissing("Opus", named: "libopus")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FlipbookError.encoderNotAllocated("Opus") }
        (self.context, self.frame, self.packet) = (context, frame, packet)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        context.pointee.sample_rate = Int32(Self.sampleRate)
        context.pointee.bit_rate = Int64(bitrate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(Self.sampleRate))
        try SoundLayout.set(
            &context.pointee.ch_layout, to: SoundCodec.opus.layoutName(channels: channels), path: nil)
        if channels > 2 {
            // Surround layouts take Vorbis channel mapping (family 1), as WebM players expect.
            av_opt_set_int(context.pointee.priv_data, "mapping_family", 1, 0)
        }
        try avcodecCall(
            "avcodec_open2", .encoderFailed, "the Opus encoder cannot take \(channels) channels at 48 kHz",
            avcodec_open2(context, codec, nil), path: path)
        frameSize = Int(context.pointee.frame_size)
        priming = Int(context.pointee.initial_padding)
        opusHead = Array(
            UnsafeBufferPointer(start: context.pointee.extradata, count: Int(context.pointee.extradata_size)))
        guard opusHead.count >= 19 else {
            throw FlipbookError.encoderGaveNoConfiguration("Opus", "OpusHead", path: path)
        }
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }
}

extension OpusEncoder: SoundEncoder {
    var codecName: String { "opus" }

    func sampleEntry(bitrate: Int) -> any SampleEntry { OpusSampleEntry(opusHead: opusHead) }

    /// Encodes up to ``frameSize`` samples of each channel (fewer only for the last call before
    /// ``flush()``), interleaved as libopus takes them; returns the packets that are ready.
    func encode(_ planes: [ArraySlice<Float>]) throws -> [[UInt8]] {
        guard let context, let frame, let packet else { return [] }
        guard planes.count == channels else {
            throw FlipbookError.encoderGivenChannels("Opus", given: planes.count, opened: channels)
        }
        let count = planes[0].count
        try AVCodecEncoding.prepare(frame, of: context, count: count, pts: samplesIn, encoder: "Opus")
        guard let data = frame.pointee.extended_data[0] else { return [] }
        data.withMemoryRebound(to: Float.self, capacity: count * channels) { target in
            for (channel, plane) in planes.enumerated() {
                var index = channel
                for sample in plane {
                    target[index] = sample
                    index += channels
                }
            }
        }
        samplesIn += Int64(count)
        try avcodecCall(
            "avcodec_send_frame", .encoderFailed, "the Opus encoder refused sound", avcodec_send_frame(context, frame))
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "Opus").map(\.bytes)
    }

    func flush() throws -> [[UInt8]] {
        guard let context, let packet else { return [] }
        try AVCodecEncoding.endStream(of: context, encoder: "Opus")
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "Opus").map(\.bytes)
    }
}
