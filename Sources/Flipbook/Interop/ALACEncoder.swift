internal import CAVCodec
import ISOBMFF

/// libavcodec's Apple Lossless (ALAC) encoder, making packets of 4096 samples from planar float PCM at
/// 16 or 24 bits a sample.
///
/// Samples are turned back into whole numbers of the stream's bit depth: a 16-bit or 24-bit source, decoded
/// to float without a change of rate, gives back exactly its own samples, so the movie's sound is the
/// source's to the bit. The encoder's configuration (for the `alac` entry, and Matroska's `A_ALAC`) comes from
/// its extradata; ALAC has no delay.
final class ALACEncoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    let sampleRate: Int
    let channels: Int
    /// 16 or 24.
    let bitDepth: Int
    /// Samples a packet holds (4096).
    let frameSize: Int
    /// The configuration for the sample entry.
    let entry: ALACSampleEntry
    /// Input samples given so far, as the frames' times.
    private var samplesIn: Int64 = 0
    /// The highest rate written.
    static let maximumRate = 384_000

    /// Opens an encoder for sound of `bitDepth` bits (16 or less gives 16-bit ALAC, more gives 24-bit).
    ///
    /// - Throws: `.invalidAudio` for a rate ALAC is not written at here, `.encoderFailed` when libavcodec
    ///   cannot open it.
    init(sampleRate: Int, channels: Int, bitDepth: Int, path: String) throws {
        guard (1...Self.maximumRate).contains(sampleRate) else {
            throw FlipbookError.alacSampleRateRefused(sampleRate, maximum: Self.maximumRate, path: path)
        }
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitDepth = bitDepth <= 16 ? 16 : 24
        AVLog.silence()
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_ALAC) else {
            throw FlipbookError.encoderMissing("ALAC")
        }
        guard let context = avcodec_alloc_context3(codec), let frame = av_frame_alloc(), let packet = av_packet_alloc()
        else { throw FlipbookError.encoderNotAllocated("ALAC") }
        (self.context, self.frame, self.packet) = (context, frame, packet)
        context.pointee.sample_fmt = self.bitDepth == 16 ? AV_SAMPLE_FMT_S16P : AV_SAMPLE_FMT_S32P
        context.pointee.bits_per_raw_sample = Int32(self.bitDepth)
        context.pointee.sample_rate = Int32(sampleRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(sampleRate))
        try SoundLayout.set(&context.pointee.ch_layout, to: SoundCodec.alac.layoutName(channels: channels), path: path)
        try avcodecCall(
            "avcodec_open2", .encoderFailed, "the ALAC encoder cannot take \(channels) channels at \(sampleRate) Hz",
            avcodec_open2(context, codec, nil), path: path)
        frameSize = Int(context.pointee.frame_size)
        let extradata = Array(
            UnsafeBufferPointer(start: context.pointee.extradata, count: Int(context.pointee.extradata_size)))
        guard var entry = ALACSampleEntry(configuration: extradata) else {
            throw FlipbookError.encoderGaveNoConfiguration("ALAC", "configuration", path: path)
        }
        entry.channelMask = SoundLayout.mask(named: SoundCodec.alac.layoutName(channels: channels))
        self.entry = entry
    }

    deinit {
        av_packet_free(&packet)
        av_frame_free(&frame)
        avcodec_free_context(&context)
    }
}

extension ALACEncoder: SoundEncoder {
    var codecName: String { "alac" }
    var priming: Int { 0 }

    func sampleEntry(bitrate: Int) -> any SampleEntry { entry }

    /// Encodes up to ``frameSize`` samples of each channel (fewer only for the last call before
    /// ``flush()``), as whole numbers of ``bitDepth`` bits; returns the packets that are ready.
    func encode(_ planes: [ArraySlice<Float>]) throws -> [[UInt8]] {
        guard let context, let frame, let packet else { return [] }
        guard planes.count == channels else {
            throw FlipbookError.encoderGivenChannels("ALAC", given: planes.count, opened: channels)
        }
        let count = planes[0].count
        try AVCodecEncoding.prepare(frame, of: context, count: count, pts: samplesIn, encoder: "ALAC")
        for (channel, plane) in planes.enumerated() {
            guard let data = frame.pointee.extended_data[channel] else { continue }
            if bitDepth == 16 {
                data.withMemoryRebound(to: Int16.self, capacity: count) { target in
                    for (index, sample) in plane.enumerated() { target[index] = Int16(Self.whole(sample, bits: 16)) }
                }
            } else {
                // 24-bit samples in the high bits of 32, as libavcodec takes them.
                data.withMemoryRebound(to: Int32.self, capacity: count) { target in
                    for (index, sample) in plane.enumerated() { target[index] = Self.whole(sample, bits: 24) << 8 }
                }
            }
        }
        samplesIn += Int64(count)
        try avcodecCall(
            "avcodec_send_frame", .encoderFailed, "the ALAC encoder refused sound", avcodec_send_frame(context, frame))
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "ALAC").map(\.bytes)
    }

    func flush() throws -> [[UInt8]] {
        guard let context, let packet else { return [] }
        try AVCodecEncoding.endStream(of: context, encoder: "ALAC")
        return try AVCodecEncoding.receivePackets(from: context, through: packet, encoder: "ALAC").map(\.bytes)
    }

    /// A float sample (full scale ±1) as a whole number of `bits` bits, rounded and clipped.
    static func whole(_ sample: Float, bits: Int) -> Int32 {
        let scale = Float(1 << (bits - 1))
        let value = (sample * scale).rounded()
        return Int32(min(max(value, -scale), scale - 1))
    }
}
