/// A Matroska VP9 track's `CodecPrivate`: the "VP9 Codec Feature Metadata" of the WebM codec
/// mapping, a list of features each an ID byte, a length byte and a value (profile 1, level 2, bit
/// depth 3, chroma subsampling 4), every one optional.
package struct VP9CodecFeatures: Sendable, Equatable {
    package var profile: UInt8
    package var level: UInt8
    package var bitDepth: UInt8
    /// As the VP codec binding numbers it: 0 and 1 are 4:2:0, 2 is 4:2:2, 3 is 4:4:4.
    package var chromaSubsampling: UInt8

    /// The features of an MP4 `vpcC` record's payload (version 1); `nil` for another version.
    package init?(vpcC payload: [UInt8]) {
        guard payload.count >= 8, payload[0] == 1 else { return nil }
        profile = payload[4]
        level = payload[5]
        bitDepth = payload[6] >> 4
        chromaSubsampling = payload[6] >> 1 & 0x07
    }

    /// Reads the features; one that is absent takes the value of an 8-bit 4:2:0 profile 0 stream.
    /// `nil` when the list is cut short.
    package init?(codecPrivate: [UInt8]) {
        (profile, level, bitDepth, chromaSubsampling) = (0, 0, 8, 1)
        var index = 0
        while index < codecPrivate.count {
            guard index + 2 <= codecPrivate.count else { return nil }
            let (id, length) = (codecPrivate[index], Int(codecPrivate[index + 1]))
            guard length >= 1, index + 2 + length <= codecPrivate.count else { return nil }
            let value = codecPrivate[index + 2]
            switch id {
            case 1: profile = value
            case 2: level = value
            case 3: bitDepth = value
            case 4: chromaSubsampling = value
            default: break
            }
            index += 2 + length
        }
    }

    /// The features as `CodecPrivate` bytes.
    package var codecPrivate: [UInt8] {
        [1, 1, profile, 2, 1, level, 3, 1, bitDepth, 4, 1, chromaSubsampling]
    }

}
