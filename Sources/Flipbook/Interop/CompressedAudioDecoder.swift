internal import CAVCodec
import ISOBMFF

/// libavcodec's AAC, MP3 and Opus decoders: a soundtrack's coded packets to planar float PCM, for a
/// container that does not hold the codec (a WebM's sound is Opus), or copied sound a Matroska file
/// cannot place as it is (looped, or starting before the movie).
enum CompressedAudioDecoder {
    /// Decodes every packet of `audio` and keeps the sound itself: the encoder's delay at the start
    /// (``CompressedAudio/priming``) left out, ``CompressedAudio/playableLength`` kept.
    ///
    /// - Throws: `.invalidAudio` naming the file when the codec is not AAC, MP3 or Opus or the packets do not decode.
    static func decode(_ audio: CompressedAudio) throws -> PCMSound {
        let path = audio.path
        let codecID: AVCodecID
        var configuration: [UInt8] = []
        switch audio.codecName {
        case "aac":
            codecID = AV_CODEC_ID_AAC
            if let entry = audio.sampleEntry as? MPEG4AudioSampleEntry {
                configuration = entry.decoderSpecificInfo
            } else if let entry = audio.sampleEntry as? CopiedAudioSampleEntry {
                configuration = entry.decoderSpecificInfo ?? []
            }
        case "mp3": codecID = AV_CODEC_ID_MP3
        case "opus":
            codecID = AV_CODEC_ID_OPUS
            guard let entry = audio.sampleEntry as? OpusSampleEntry else {
                throw FlipbookError.opusWithoutHead(path: path)
            }
            configuration = entry.opusHead
        default:
            throw FlipbookError.soundCodecNotDecoded(audio.codecName, path: path)
        }
        let decoder = try AVCodecDecoder(codecID, name: audio.codecName, extradata: configuration, path: path) {
            $0.pointee.sample_rate = Int32(audio.sampleRate)
            av_channel_layout_default(&$0.pointee.ch_layout, Int32(audio.channelCount))
        }
        let (context, packet) = (decoder.context, decoder.packet)
        let damaged = "is damaged: its \(audio.codecName) packets do not decode"
        // The channels are the decoded frames' (an MP4's entry may say 2 for mono AAC, as ffmpeg writes it).
        var planes: [[Float]] = []
        // The rate is the decoded frames' too: HE-AAC decodes at twice the rate its header states.
        var rate: Int32 = 0
        func receiveFrames() throws {
            try decoder.receiveFrames(damaged: damaged, path: path) { frame in
                if rate == 0 { rate = frame.pointee.sample_rate }
                guard frame.pointee.sample_rate == rate, rate > 0 else {
                    throw FlipbookError.soundChangesFormatMidway(
                        path: path, sampleRate: (Int(rate), Int(frame.pointee.sample_rate)))
                }
                try append(frame, to: &planes, path: path)
            }
        }
        var scratch = [UInt8]()
        for coded in audio.packets {
            scratch.removeAll(keepingCapacity: true)
            scratch += audio.bytes[coded.offset..<coded.offset + coded.size]
            scratch += repeatElement(0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE))
            try scratch.withUnsafeMutableBufferPointer { buffer in
                packet.pointee.data = buffer.baseAddress
                packet.pointee.size = Int32(coded.size)
                try avcodecCall(
                    "avcodec_send_packet", .invalidAudio, damaged, avcodec_send_packet(context, packet), path: path)
                packet.pointee.data = nil
                packet.pointee.size = 0
                try receiveFrames()
            }
        }
        _ = avcodec_send_packet(context, nil)
        try receiveFrames()

        // The delay and length are in the source's media ticks; the samples are at the decoded rate.
        let scale = Double(rate) / Double(audio.timescale)
        // libavcodec's Opus decoder drops the pre-skip itself (the OpusHead tells it); AAC's and MP3's
        // decoders give their encoder's delay, which is left out here.
        let priming = audio.codecName == "opus" ? 0 : audio.priming
        let skip = min(planes.first?.count ?? 0, Int((Double(priming) * scale).rounded()))
        let length = Int((Double(audio.playableLength) * scale).rounded())
        let kept = planes.map { plane in Array(plane.dropFirst(skip).prefix(max(0, length))) }
        guard let first = kept.first, !first.isEmpty else {
            throw FlipbookError.soundtrackHoldsNoSound(path: path)
        }
        return PCMSound(path: path, sampleRate: Int(rate), planes: kept)
    }

    /// Appends a decoded frame's float samples (AAC's and MP3's decoders give planar or interleaved floats).
    private static func append(_ frame: UnsafeMutablePointer<AVFrame>, to planes: inout [[Float]], path: String) throws
    {
        let count = Int(frame.pointee.nb_samples)
        let format = AVSampleFormat(frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        let decodedChannels = Int(frame.pointee.ch_layout.nb_channels)
        if planes.isEmpty { planes = Array(repeating: [], count: decodedChannels) }
        let channels = planes.count
        guard decodedChannels == channels, channels > 0 else {
            throw FlipbookError.soundPacketChannels(decodedChannels, not: channels, path: path)
        }
        guard format == AV_SAMPLE_FMT_FLT || format == AV_SAMPLE_FMT_FLTP else {
            let name = av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "number \(format.rawValue)"
            throw FlipbookError.soundSampleKindRefused(name, path: path)
        }
        for channel in 0..<channels {
            guard let data = frame.pointee.extended_data[planar ? channel : 0] else { continue }
            let stride = planar ? 1 : channels
            let first = planar ? 0 : channel
            data.withMemoryRebound(to: Float.self, capacity: count * stride) { samples in
                for index in 0..<count { planes[channel].append(samples[first + index * stride]) }
            }
        }
    }
}
