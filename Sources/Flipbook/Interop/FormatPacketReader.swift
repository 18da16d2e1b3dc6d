internal import CAVCodec
import ISOBMFF

/// A sound file's coded packets as libavformat demuxes them, to be copied into a container that holds the
/// codec: Vorbis from an Ogg file into Matroska and WebM, AC-3 and E-AC-3 into Matroska, ALAC (from an `.m4a`
/// or `.caf` file) into MP4, QuickTime and Matroska.
///
/// The packets are read one at a time and only their bytes are kept (a 3-minute Vorbis song is about 2 MB,
/// AC-3 at 192 kb/s about 4 MB);
/// the first packets' negative times are the codec's delay (``CompressedAudio/priming``), and the stream's
/// stated length (an Ogg stream's last granule position) is the sound itself.
enum FormatPacketReader {
    /// The first sound stream's packets of the file at `path`.
    ///
    /// - Throws: `.invalidAudio` naming the file when it cannot be read, or its codec is not one Flipbook
    ///   copies from libavformat (Vorbis, AC-3, E-AC-3, ALAC).
    static func read(path: String) throws -> CompressedAudio {
        var opened: UnsafeMutablePointer<AVFormatContext>?
        try avformatCall(
            "avformat_open_input", .invalidAudio,
            "is not a sound file Flipbook reads, or is cut short or damaged (FFmpeg's libavformat cannot open it)",
            avformat_open_input(&opened, path, nil, nil), path: path)
        defer { avformat_close_input(&opened) }
        guard let context = opened else {
            throw FlipbookError.soundtrackNotOpened(path: path)
        }
        try avformatCall(
            "avformat_find_stream_info", .invalidAudio, "is damaged: its streams cannot be read",
            avformat_find_stream_info(context, nil), path: path)
        let streams = (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
        guard let stream = streams.first(where: { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }),
            let parameters = stream.pointee.codecpar, parameters.pointee.sample_rate > 0
        else {
            throw FlipbookError.soundtrackHoldsNothingToCopy(path: path)
        }
        let rate = parameters.pointee.sample_rate
        let timeBase = stream.pointee.time_base
        let ticks = AVRational(num: 1, den: rate)
        let channels = Int(parameters.pointee.ch_layout.nb_channels)
        let codecID = parameters.pointee.codec_id
        let entry: any SampleEntry
        switch codecID {
        case AV_CODEC_ID_VORBIS where parameters.pointee.extradata_size > 0:
            entry = VorbisSampleEntry(
                codecPrivate: Array(
                    UnsafeBufferPointer(
                        start: parameters.pointee.extradata, count: Int(parameters.pointee.extradata_size))),
                channelCount: channels, sampleRate: Int(rate))
        case AV_CODEC_ID_ALAC:
            let extradata = Array(
                UnsafeBufferPointer(start: parameters.pointee.extradata, count: Int(parameters.pointee.extradata_size)))
            guard let alac = ALACSampleEntry(configuration: extradata) else {
                throw FlipbookError.alacConfigurationMissing(path: path)
            }
            entry = alac
        case AV_CODEC_ID_AC3, AV_CODEC_ID_EAC3:
            entry = AC3SampleEntry(
                isEnhanced: codecID == AV_CODEC_ID_EAC3, channelCount: channels, sampleRate: Int(rate))
        default:
            throw FlipbookError.soundCodecNotCopied(path: path)
        }
        let codecName = avcodec_get_name(codecID).map { String(cString: $0) } ?? "unknown"
        guard let packet = av_packet_alloc() else {
            throw FlipbookError.soundLibraryOutOfMemory("libavformat", path: path)
        }
        var freeing: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&freeing) }
        var bytes: [UInt8] = []
        var packets: [CompressedAudio.Packet] = []
        var firstTime: Int64?
        // Each packet's start, for packets whose duration the container does not state (a `.caf`'s).
        var starts: [Int64] = []
        while true {
            let status = av_read_frame(context, packet)
            if status == AVCodecStatus.endOfFile { break }
            try avformatCall(
                "av_read_frame", .invalidAudio, "is damaged: its packets cannot be read", status, path: path)
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == stream.pointee.index, packet.pointee.size > 0 else { continue }
            if firstTime == nil { firstTime = av_rescale_q(packet.pointee.pts, timeBase, ticks) }
            starts.append(
                packet.pointee.pts == flipbook_av_nopts_value() ? -1 : av_rescale_q(packet.pointee.pts, timeBase, ticks)
            )
            let duration = av_rescale_q(packet.pointee.duration, timeBase, ticks)
            guard (0...Int64(UInt32.max)).contains(duration) else {
                throw FlipbookError.soundPacketDuration(duration, codec: codecName, path: path)
            }
            packets.append(.init(offset: bytes.count, size: Int(packet.pointee.size), duration: UInt32(duration)))
            bytes += UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))
        }
        let statedLength = stream.pointee.duration > 0 ? av_rescale_q(stream.pointee.duration, timeBase, ticks) : nil
        if codecID == AV_CODEC_ID_VORBIS {
            try VorbisPacketLengths.measure(
                &packets, in: bytes,
                headers: Array(
                    UnsafeBufferPointer(
                        start: parameters.pointee.extradata, count: Int(parameters.pointee.extradata_size))),
                path: path)
        }
        try fillDurations(of: &packets, starts: starts, end: statedLength.map { $0 + (firstTime ?? 0) }, path: path)
        let total = packets.reduce(Int64(0)) { $0 + Int64($1.duration) }
        var priming = max(0, -(firstTime ?? 0))
        if codecID == AV_CODEC_ID_VORBIS, let first = packets.first {
            // Vorbis's first packet decodes to nothing: it lasts no time, and the delay the demuxer counts
            // for it is no priming. Players that read no `CodecDelay` (GStreamer) place the sound right.
            priming = max(0, priming - Int64(first.duration))
            packets[0].duration = 0
        }
        let stated = statedLength ?? total
        return CompressedAudio(
            path: path, bytes: bytes, sampleEntry: entry, timescale: UInt32(rate), sampleRate: Int(rate),
            channelCount: channels, codecName: codecName, packets: packets, priming: priming,
            playableLength: min(stated, total - priming))
    }

    /// Gives each packet whose container states no duration the time to the next packet's start, and the last
    /// one the time to `end` (the stream's stated end) or, without it, the packet before's duration.
    ///
    /// - Throws: `.invalidAudio` naming the file when the starts do not rise.
    private static func fillDurations(
        of packets: inout [CompressedAudio.Packet], starts: [Int64], end: Int64?, path: String
    ) throws {
        for index in packets.indices where packets[index].duration == 0 && starts[index] >= 0 {
            let next = index + 1 < packets.count ? starts[index + 1] : end ?? -1
            let duration =
                next >= 0 ? next - starts[index] : index > 0 ? Int64(packets[index - 1].duration) : 0
            guard (0...Int64(UInt32.max)).contains(duration) else {
                throw FlipbookError.soundPacketTimesJump(duration, path: path)
            }
            packets[index].duration = UInt32(duration)
        }
    }
}
