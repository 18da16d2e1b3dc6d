import Foundation

extension FuzzEntry {
    /// What the `FuzzRaw` target does with one input: the image decoders, then the input as a camera raw
    /// file developed at its size, at half size and 16 bits, and its embedded preview, checking each
    /// picture's size.
    package static func rawTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        for (hint, preview) in [(nil, false), (DecodeSizeHint(width: 2, height: 2, fit: .contain), false), (nil, true)]
        {
            var request = DecodeRequest(limits: limits, sizeHint: hint, planes: .anyEvenSize, deep: hint != nil)
            request.raw = RawDevelopment(usesPreview: preview)
            switch try? LibRawDecoder.decodeImage(Data(bytes), request: request) {
            case .deep(let image):
                precondition(image.samples.count == image.width * image.height * 3, "a deep picture's size")
            case .frame(let frame):
                precondition(frame.pixels.count == frame.height * frame.bytesPerRow, "a frame's size")
            default:
                break
            }
        }
    }
}
