internal import CAVCodec

/// The samples each Vorbis packet decodes to, read from the packets themselves with libavcodec's Vorbis
/// parser: a quarter of the previous block's size and a quarter of its own.
///
/// An Ogg demuxer states a length for each packet that is exact only where the block size does not change:
/// around a transient (a long block, then short ones) libavformat 5.1 gives the packet after the long block
/// 128 samples where the decoder makes 576. A copied Vorbis track laid out by those lengths plays a click
/// 9 ms early in Matroska and WebM; laid out by what the decoder makes, it lands on its sample.
enum VorbisPacketLengths {
    /// Sets every packet's duration to the samples it decodes to.
    ///
    /// The first packet keeps the length the parser gives it (half a short block: the decoder's delay,
    /// which the stream's first time already counts as priming).
    ///
    /// - Throws: `.invalidAudio` naming the file when its headers or a packet are not Vorbis.
    static func measure(
        _ packets: inout [CompressedAudio.Packet], in bytes: [UInt8], headers: [UInt8], path: String
    ) throws {
        var parser = headers.withUnsafeBufferPointer { av_vorbis_parse_init($0.baseAddress, Int32($0.count)) }
        guard parser != nil else {
            throw FlipbookError.vorbisHeadersUnreadable(path: path)
        }
        defer { av_vorbis_parse_free(&parser) }
        try bytes.withUnsafeBufferPointer { buffer in
            for index in packets.indices {
                let packet = packets[index]
                var flags: Int32 = 0
                let length = av_vorbis_parse_frame_flags(
                    parser, buffer.baseAddress! + packet.offset, Int32(packet.size), &flags)
                guard length >= 0 else {
                    throw FlipbookError.vorbisPacketUndescribed(index + 1, path: path)
                }
                // A header packet repeated in the stream decodes to nothing.
                packets[index].duration = flags == 0 ? UInt32(length) : 0
            }
        }
    }
}
