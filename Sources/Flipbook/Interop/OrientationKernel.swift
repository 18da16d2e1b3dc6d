internal import CFlipbookPixels

extension PixelKernels {
    /// The pixels of `frame` (3 or 4 bytes a pixel) turned upright for EXIF `orientation` 1...8,
    /// tightly packed; orientations 5 to 8 swap width and height.
    static func orient(_ frame: Frame, orientation: Int) -> [UInt8] {
        let bpp = frame.format.bytesPerPixel
        precondition((1...8).contains(orientation), "EXIF orientation \(orientation)")
        precondition(frame.pixels.count >= (frame.height - 1) * frame.bytesPerRow + frame.width * bpp)
        let count = frame.width * frame.height * bpp
        return [UInt8](unsafeUninitializedCapacity: count) { output, initialized in
            frame.pixels.withUnsafeBufferPointer { source in
                flipbook_orient(
                    source.baseAddress, frame.bytesPerRow, Int32(frame.width), Int32(frame.height), Int32(bpp),
                    Int32(orientation), output.baseAddress)
            }
            initialized = count
        }
    }
}
