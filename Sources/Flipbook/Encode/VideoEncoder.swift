import ISOBMFF

/// One compressed picture as it leaves the encoder, in decode order.
struct EncodedPacket: Sendable {
    /// NAL units, each preceded by its 4-byte big-endian length (the MP4 sample format).
    var data: [UInt8]
    /// Presentation time in the encoder's time base: the frame number given to ``VideoEncoder/encode(_:presentationTime:)``.
    var presentationTime: Int64
    /// Decode time in the encoder's time base; negative for the first pictures when frames are reordered.
    var decodeTime: Int64
    /// Whether a decoder can start here.
    var isKeyframe: Bool
    /// The same picture's alpha plane coded as a picture of its own (VP9's transparency, a Matroska
    /// BlockAdditional with ID 1); `nil` for an opaque movie.
    var alpha: [UInt8]? = nil
}

/// A video encoder as the writer sees it: pictures in, packets out, in decode order, and the
/// sample description of the track they make.
///
/// libx264 is the first conformer; tests use a fake. A codec is one conformer here and one
/// ``SampleEntry`` in the muxer, nothing else. Implementations need not be thread-safe: the writer
/// calls one method at a time.
protocol VideoEncoder: AnyObject {
    /// The sample entry for `stsd` (for H.264, `avc1` with the parameter sets in `avcC` and the colour
    /// in `colr`), known once the encoder is open.
    var sampleEntry: any SampleEntry { get }
    /// The codec name as ffprobe reports it.
    var codecName: String { get }
    /// The pictures the encoder takes: chroma format, coded bit depth, alpha.
    var pictureFormat: PictureFormat { get }
    /// Encodes one picture presented at `presentationTime` (its frame number); returns the packets that became ready.
    /// A picture of another chroma format or alpha than ``pictureFormat`` is refused.
    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket]
    /// Drains every delayed picture; returns the remaining packets.
    func flush() throws -> [EncodedPacket]
}

extension VideoEncoder {
    /// Throws unless `picture` has the chroma format and alpha the encoder takes (its 8-bit planes
    /// serve any coded depth, scaled exactly when the picture has no deeper ones).
    func checkFormat(of picture: YUVPicture) throws {
        guard picture.format.hasPlanes(of: pictureFormat) else {
            throw FlipbookError.pictureFormatRefused(picture.format, by: codecName, takes: pictureFormat)
        }
    }
}
