extension Frame {
    /// Copies the pixels as tightly packed RGBA into `rgba` (4 bytes a pixel, `width * height * 4`
    /// bytes, resized if need be): RGBA rows as they are, BGRA swapped, RGB made opaque.
    func copyRGBA(into rgba: inout [UInt8]) {
        let count = width * height * 4
        if rgba.count != count { rgba = [UInt8](repeating: 255, count: count) }
        let offsets = format.channelOffsets
        let pixelBytes = format.bytesPerPixel
        let (width, height, stride) = (width, height, bytesPerRow)
        pixels.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let from = row * stride
                    let to = row * width * 4
                    if format == .rgba {
                        for index in 0..<(width * 4) { target[to + index] = source[from + index] }
                        continue
                    }
                    for column in 0..<width {
                        let pixel = from + column * pixelBytes
                        let out = to + column * 4
                        target[out] = source[pixel + offsets.red]
                        target[out + 1] = source[pixel + offsets.green]
                        target[out + 2] = source[pixel + offsets.blue]
                        target[out + 3] = pixelBytes == 4 ? source[pixel + 3] : 255
                    }
                }
            }
        }
    }
}
