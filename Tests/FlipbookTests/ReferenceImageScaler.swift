@testable import Flipbook

/// The scaler as Flipbook had it in Swift before the C kernel, kept as the reference the kernel is
/// judged against: rows first (columns summed, 8 extra bits kept), then columns, with the same taps.
enum ReferenceImageScaler {
    static func scale(
        _ image: [UInt8], width: Int, height: Int, channels: Int, toWidth newWidth: Int, height newHeight: Int
    ) -> [UInt8] {
        let columns = ResamplingTaps(from: width, to: newWidth)
        let rows = ResamplingTaps(from: height, to: newHeight)
        var wide = [Int](repeating: 0, count: height * newWidth * channels)
        for y in 0..<height {
            for x in 0..<newWidth {
                let (first, weights) = columns.taps(x)
                for channel in 0..<channels {
                    var sum = 0
                    var offset = (y * width + first) * channels + channel
                    for weight in weights {
                        sum += Int(weight) * Int(image[offset])
                        offset += channels
                    }
                    wide[(y * newWidth + x) * channels + channel] = (sum + (1 << 5)) >> 6
                }
            }
        }
        var output = [UInt8](repeating: 0, count: newHeight * newWidth * channels)
        let rowSamples = newWidth * channels
        for y in 0..<newHeight {
            let (first, weights) = rows.taps(y)
            for index in 0..<rowSamples {
                var sum = 0
                var offset = first * rowSamples + index
                for weight in weights {
                    sum += Int(weight) * wide[offset]
                    offset += rowSamples
                }
                output[y * rowSamples + index] = UInt8(clamping: (sum + (1 << 21)) >> 22)
            }
        }
        return output
    }
}
