import Foundation

extension FuzzEntry {
    /// What the `FuzzDPX` target does with one input: the image decoders, then the input as a DPX and
    /// as a Cineon file (its magic number put first), each as a movie asks (16 bits, alpha kept or
    /// composited), checking each picture's size.
    package static func dpxTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        let body = Array(bytes.dropFirst(min(4, bytes.count)))
        for magic in [Array("SDPX".utf8), Array("XPDS".utf8), [0x80, 0x2A, 0x5F, 0xD7]] {
            for background in [nil, RGBColour.white] {
                var request = DecodeRequest(limits: limits, planes: .anyEvenSize, deep: true)
                request.deepAlpha = background == nil
                request.background = background
                switch try? DPXDecoder.decodeImage(Data(magic + body), request: request) {
                case .deep(let image):
                    let channels = image.hasAlpha ? 4 : 3
                    precondition(image.samples.count == image.width * image.height * channels, "a deep picture's size")
                case .frame(let frame):
                    precondition(frame.pixels.count == frame.height * frame.bytesPerRow, "a frame's size")
                default:
                    break
                }
            }
        }
    }
}
