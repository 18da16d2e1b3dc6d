import Foundation

extension FuzzEntry {
    /// What the `FuzzEXR` target does with one input: the image decoders, then OpenEXR's decoder as
    /// a movie asks (16 bits, alpha kept or composited over a background) for its default picture and for
    /// a layer and a part by name, checking each picture's size.
    package static func exrTarget(_ bytes: [UInt8]) {
        decodeImage(bytes)
        let data = Data(bytes)
        for layer in [nil, "ViewLayer.Combined", "rgba_left"] {
            for background in [nil, RGBColour.white] {
                var request = DecodeRequest(limits: limits, planes: .anyEvenSize, deep: true)
                request.deepAlpha = background == nil
                request.layer = layer
                request.background = background
                switch try? OpenEXRDecoder.decodeImage(data, request: request) {
                case .deep(let image):
                    let channels = image.hasAlpha ? 4 : 3
                    precondition(image.samples.count == image.width * image.height * channels, "a deep picture's size")
                    precondition(background == nil || !image.hasAlpha, "a composited picture kept its alpha")
                case .frame(let frame):
                    precondition(frame.pixels.count == frame.height * frame.bytesPerRow, "a frame's size")
                default:
                    break
                }
            }
        }
    }
}
