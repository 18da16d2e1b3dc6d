internal import CAVCodec

/// Any sound file FFmpeg reads (AIFF, ALAC, Vorbis, AC-3, WMA, WAV, FLAC …), demuxed by libavformat
/// a packet at a time, decoded by libavcodec and brought by libswresample to planar float samples at
/// the rate and in the channel layout an encoder takes (``SoundCodec/carriedRate(_:)`` and
/// ``SoundCodec/carriedChannels(_:)``).
///
/// The file's first sound stream is read; only the packet being decoded and the samples handed out
/// are in memory, however long the file. A file that stops before the length its header states, or
/// whose packets do not decode, is refused by name.
final class FormatSoundDecoder {
    private let demuxer: Demuxer
    private let decoder: AVCodecDecoder
    private let streamIndex: Int32
    private var resampler: OpaquePointer?
    /// The codec the sound is converted for.
    let codec: SoundCodec
    /// Whether the source's rate is kept where the codec carries it (``Soundtrack/keepsSampleRate``).
    let keepsRate: Bool
    /// Bits a sample of the source as its codec states them (16 for CD sound, 24 for a studio master).
    private(set) var sourceBitDepth = 16
    let path: String
    /// The source's codec as ffprobe names it (`vorbis`, `alac`, `pcm_s16be`).
    let codecName: String
    /// The length the file's header states, in seconds; `nil` when it states none it can be held to.
    private let statedSeconds: Double?
    /// Source samples decoded so far, and their rate.
    private var decodedSamples: Int64 = 0
    private var sourceRate: Int32 = 0
    /// The first frame's shape, which every later frame must keep.
    private var inputLayout = AVChannelLayout()
    private var inputFormat: Int32 = -1
    private var outputLayout = AVChannelLayout()
    /// The rate and channels handed out; known once the first frame is decoded.
    private(set) var sampleRate = 0
    private(set) var channelCount = 0
    /// A line for the person who gave the file, when its layout was mixed down.
    private(set) var warning: String?
    private var ended = false

    /// Opens `path` and its first sound stream for `codec`.
    ///
    /// - Throws: `.invalidAudio` naming the file when libavformat does not read it or finds no sound in it.
    init(path: String, for codec: SoundCodec, keepingRate: Bool = false) throws {
        self.path = path
        self.codec = codec
        keepsRate = keepingRate
        AVLog.silence()
        var opened: UnsafeMutablePointer<AVFormatContext>?
        try avformatCall(
            "avformat_open_input", .invalidAudio,
            "is not a sound file Flipbook reads, or is cut short or damaged (FFmpeg's libavformat cannot open it)",
            avformat_open_input(&opened, path, nil, nil), path: path)
        guard let context = opened else {
            throw FlipbookError.soundtrackNotOpened(path: path)
        }
        demuxer = Demuxer(context)
        _ = AVLog.take(for: context)
        try avformatCall(
            "avformat_find_stream_info", .invalidAudio, "is damaged: its streams cannot be read",
            avformat_find_stream_info(context, nil), path: path)
        if let container = context.pointee.iformat?.pointee.name {
            try SoundFileEnding.check(path, container: String(cString: container))
        }
        let streams = (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
        guard let stream = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO })
        else {
            throw FlipbookError.soundtrackNotSound(path: path)
        }
        streamIndex = stream.pointee.index
        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        codecName = avcodec_get_name(codecID).map { String(cString: $0) } ?? "unknown"
        let rawBits = Int(parameters.pointee.bits_per_raw_sample)
        let sampleBits = Int(av_get_bytes_per_sample(AVSampleFormat(parameters.pointee.format))) * 8
        sourceBitDepth = rawBits > 0 ? rawBits : sampleBits > 0 ? sampleBits : 16
        for index in 0..<Int(context.pointee.nb_streams) where index != Int(streamIndex) {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
        let timeBase = stream.pointee.time_base
        let streamDuration = stream.pointee.duration
        if streamDuration > 0, streamDuration != flipbook_av_nopts_value(), timeBase.den > 0,
            av_fmt_ctx_get_duration_estimation_method(context) != AVFMT_DURATION_FROM_BITRATE
        {
            statedSeconds = Double(streamDuration) * Double(timeBase.num) / Double(timeBase.den)
        } else {
            statedSeconds = nil
        }
        let name = codecName
        decoder = try AVCodecDecoder(codecID, name: name, extradata: [], path: path) { [path] decoding in
            try avcodecCall(
                "avcodec_parameters_to_context", .invalidAudio, "is damaged: its \(name) stream cannot be set up",
                avcodec_parameters_to_context(decoding, parameters), path: path)
            decoding.pointee.pkt_timebase = timeBase
            // Checksums checked and any damage an error, as `ffmpeg -err_detect crccheck+explode` does.
            decoding.pointee.err_recognition |= AV_EF_CRCCHECK | AV_EF_EXPLODE
        }
    }

    deinit {
        swr_free(&resampler)
        av_channel_layout_uninit(&inputLayout)
        av_channel_layout_uninit(&outputLayout)
    }

    /// The next decoded samples of each channel, at ``sampleRate`` in ``channelCount`` channels;
    /// `nil` once the file has ended.
    ///
    /// - Throws: `.invalidAudio` naming the file when a packet does not decode or the file is cut short.
    func next() throws -> [[Float]]? {
        guard !ended else { return nil }
        let format = demuxer.context
        let packet = decoder.packet
        while true {
            var out: [[Float]] = []
            let status = av_read_frame(format, packet)
            if status == AVCodecStatus.endOfFile {
                _ = avcodec_send_packet(decoder.context, nil)
                try receive(into: &out)
                try drainResampler(into: &out)
                ended = true
                try checkLength()
                return out.first.map { $0.isEmpty } ?? true ? nil : out
            }
            try avformatCall(
                "av_read_frame", .invalidAudio, "is damaged: its packets cannot be read", status, path: path)
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            try avcodecCall(
                "avcodec_send_packet", .invalidAudio, "is damaged: its \(codecName) packets do not decode",
                avcodec_send_packet(decoder.context, packet), path: path)
            try receive(into: &out)
            if let first = out.first, !first.isEmpty { return out }
        }
    }

    /// Every frame the decoder has ready, converted and appended to `out`.
    private func receive(into out: inout [[Float]]) throws {
        do {
            try decoder.receiveFrames(damaged: "is damaged: its \(codecName) packets do not decode", path: path) {
                frame in
                try convert(frame, into: &out)
            }
        } catch let error as FlipbookError where error.code == .invalidAudio {
            // A packet cut in two where the file stops short of the length its header states.
            if sourceRate > 0 { try checkLength() }
            throw error
        }
        // Damage some decoders only log, going on with silence or the last frame again.
        if let logged = AVLog.take(for: decoder.context) ?? AVLog.take(for: demuxer.context) {
            throw FlipbookError.soundDamageLogged(logged, codec: codecName, path: path)
        }
    }

    /// Converts one decoded frame (any sample format) to the output rate and layout.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, into out: inout [[Float]]) throws {
        if resampler == nil { try openResampler(for: frame) }
        guard frame.pointee.format == inputFormat, frame.pointee.sample_rate == sourceRate,
            av_channel_layout_compare(&frame.pointee.ch_layout, &inputLayout) == 0
                || frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC
                    && frame.pointee.ch_layout.nb_channels == inputLayout.nb_channels
        else {
            throw FlipbookError.soundChangesFormatMidway(path: path)
        }
        decodedSamples += Int64(frame.pointee.nb_samples)
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data)!.assumingMemoryBound(
            to: UnsafePointer<UInt8>?.self)
        try run(input: input, count: frame.pointee.nb_samples, into: &out)
    }

    /// Passes `count` input samples (none to drain) through the resampler and appends what comes out.
    private func run(input: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, count: Int32, into out: inout [[Float]])
        throws
    {
        let capacity = Int(swr_get_out_samples(resampler, count)) + 64
        guard capacity > 0 else { return }
        let buffers = (0..<channelCount).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: capacity) }
        defer { for buffer in buffers { buffer.deallocate() } }
        var pointers: [UnsafeMutablePointer<UInt8>?] = buffers.map {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: UInt8.self)
        }
        let made = pointers.withUnsafeMutableBufferPointer {
            swr_convert(resampler, $0.baseAddress, Int32(capacity), input, count)
        }
        try avcodecCall(
            "swr_convert", .invalidAudio, "its sound could not be converted to \(sampleRate) Hz", made, path: path)
        if out.isEmpty { out = Array(repeating: [], count: channelCount) }
        for channel in 0..<channelCount {
            // Float sources may hold anything: what is not a number is silence, and no sample passes ±16, so
            // the encoders (which refuse NaN and infinities) take every file that decodes.
            let samples = UnsafeMutableBufferPointer(start: buffers[channel], count: Int(made))
            for index in samples.indices where !(abs(samples[index]) <= 16) {
                samples[index] = samples[index].isNaN ? 0 : samples[index] < 0 ? -16 : 16
            }
            out[channel].append(contentsOf: samples)
        }
    }

    private func drainResampler(into out: inout [[Float]]) throws {
        guard resampler != nil else { return }
        try run(input: nil, count: 0, into: &out)
    }

    /// Sets the output's rate and layout by the first frame, and opens the resampler: SoX's resampler at
    /// its very high quality (precision 28 bits, as ffmpeg's `aresample=resampler=soxr:precision=28`).
    private func openResampler(for frame: UnsafeMutablePointer<AVFrame>) throws {
        sourceRate = frame.pointee.sample_rate
        inputFormat = frame.pointee.format
        let sourceChannels = Int(frame.pointee.ch_layout.nb_channels)
        guard sourceRate > 0, sourceChannels > 0 else {
            throw FlipbookError.soundFormatUnstated(path: path)
        }
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&inputLayout, Int32(sourceChannels))
        } else {
            try avcodecCall(
                "av_channel_layout_copy", .invalidAudio, "its channel layout could not be read",
                av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout), path: path)
        }
        sampleRate = codec.carriedRate(Int(sourceRate), keepingRate: keepsRate)
        channelCount = codec.carriedChannels(sourceChannels)
        try SoundLayout.set(&outputLayout, to: codec.layoutName(channels: channelCount), path: path)
        let from = Self.describe(&inputLayout)
        let to = Self.describe(&outputLayout)
        // Side and back surround speakers are the same two channels under FFmpeg's two names: no mix.
        if sourceChannels != channelCount
            || from != to && from.replacingOccurrences(of: "(side)", with: "") != to
        {
            warning =
                "\(path): its sound is \(from) (\(sourceChannels) channels), which \(codec.name) does not carry; "
                + "it is mixed to \(to)"
        }
        try avcodecCall(
            "swr_alloc_set_opts2", .invalidAudio, "its sound could not be converted to \(sampleRate) Hz",
            swr_alloc_set_opts2(
                &resampler, &outputLayout, AV_SAMPLE_FMT_FLTP, Int32(sampleRate), &inputLayout,
                AVSampleFormat(inputFormat), sourceRate, 0, nil), path: path)
        av_opt_set_int(UnsafeMutableRawPointer(resampler), "resampler", Int64(SWR_ENGINE_SOXR.rawValue), 0)
        av_opt_set_double(UnsafeMutableRawPointer(resampler), "precision", 28, 0)
        try avcodecCall(
            "swr_init", .invalidAudio, "its sound could not be converted to \(sampleRate) Hz", swr_init(resampler),
            path: path)
    }

    /// A layout's name as FFmpeg gives it (`5.1(side)`, `stereo`).
    private static func describe(_ layout: inout AVChannelLayout) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard av_channel_layout_describe(&layout, &buffer, buffer.count) > 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws when the file's sound stops well before the length its header states: it is cut short.
    private func checkLength() throws {
        guard sourceRate > 0 else {
            throw FlipbookError.soundtrackHoldsNoSound(path: path)
        }
        guard let statedSeconds else { return }
        let decoded = Double(decodedSamples) / Double(sourceRate)
        if decoded + max(0.1, statedSeconds * 0.01) < statedSeconds {
            throw FlipbookError.soundShorterThanStated(
                stated: Self.seconds(statedSeconds), holds: Self.seconds(decoded), path: path)
        }
    }

    private static func seconds(_ value: Double) -> String {
        "\((value * 1000).rounded() / 1000) s"
    }
}

/// The owner of a libavformat demuxer: closes it however the opening of the file ends.
private final class Demuxer {
    let context: UnsafeMutablePointer<AVFormatContext>

    init(_ context: UnsafeMutablePointer<AVFormatContext>) { self.context = context }

    deinit {
        var closing: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&closing)
    }
}

/// Channel layouts by FFmpeg's names, for the encoders and the decoder's converter.
enum SoundLayout {
    /// Sets `layout` to the one FFmpeg calls `name` (`5.1`, `stereo`).
    static func set(_ layout: inout AVChannelLayout, to name: String, path: String?) throws {
        av_channel_layout_uninit(&layout)
        try avcodecCall(
            "av_channel_layout_from_string", .encoderFailed, "the channel layout \(name) is unknown to libavutil",
            av_channel_layout_from_string(&layout, name), path: path)
    }

    /// The WAVE channel mask of the layout FFmpeg calls `name` (`0x3F` for `5.1`); 0 when it has none.
    static func mask(named name: String) -> UInt64 {
        var layout = AVChannelLayout()
        defer { av_channel_layout_uninit(&layout) }
        guard av_channel_layout_from_string(&layout, name) == 0, layout.order == AV_CHANNEL_ORDER_NATIVE else {
            return 0
        }
        return layout.u.mask
    }
}
