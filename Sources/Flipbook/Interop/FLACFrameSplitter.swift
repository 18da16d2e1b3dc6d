internal import CAVCodec

/// libavcodec's FLAC parser, finding where each frame of a FLAC file lies and how many samples it
/// holds, for a container that takes FLAC's frames as they are (Matroska's `A_FLAC`).
enum FLACFrameSplitter {
    /// The frames of `bytes` from `start` (the first frame, after the metadata): each one's offset
    /// in `bytes`, size and samples, in order.
    ///
    /// - Throws: `.invalidAudio` naming the file when the frames are not one contiguous FLAC stream.
    static func frames(in bytes: [UInt8], from start: Int, path: String) throws -> [(
        offset: Int, size: Int, samples: Int
    )] {
        guard let parser = av_parser_init(Int32(AV_CODEC_ID_FLAC.rawValue)) else {
            throw FlipbookError.flacParserMissing(path: path)
        }
        defer { av_parser_close(parser) }
        let decoder = try AVCodecDecoder(AV_CODEC_ID_FLAC, name: "FLAC", extradata: [], path: path)
        var input = Array(bytes[start...])
        let length = input.count
        input += [UInt8](repeating: 0, count: Int(AV_INPUT_BUFFER_PADDING_SIZE))
        var found: [(offset: Int, size: Int, samples: Int)] = []
        var position = 0
        var next = start
        let none = flipbook_av_nopts_value()
        input.withUnsafeBufferPointer { buffer in
            while true {
                var output: UnsafeMutablePointer<UInt8>?
                var outputSize: Int32 = 0
                let remaining = Int32(length - position)
                let used = av_parser_parse2(
                    parser, decoder.context, &output, &outputSize,
                    remaining > 0 ? buffer.baseAddress! + position : nil, remaining, none, none, 0)
                position += Int(max(0, used))
                if outputSize > 0 {
                    found.append((next, Int(outputSize), Int(parser.pointee.duration)))
                    next += Int(outputSize)
                }
                if remaining <= 0 && outputSize <= 0 { break }
            }
        }
        guard !found.isEmpty, next <= bytes.count, found.allSatisfy({ $0.samples > 0 }) else {
            throw FlipbookError.flacFramesInseparable(path: path)
        }
        return found
    }
}
