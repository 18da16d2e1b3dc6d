internal import CFlipbookPixels

extension PixelKernels {
    /// Converts JPEG Y'CbCr `planes` into `picture` of the same size with `c` (see
    /// ``JPEGToYUVConverter``), in one pass and without RGB.
    static func ycbcrToYUV420(_ planes: YCbCrPlanes, coefficients c: YCbCrCoefficients, into picture: inout YUVPicture)
    {
        let width = planes.width
        let height = planes.height
        precondition(width == picture.width && height == picture.height && width % 2 == 0 && height % 2 == 0)
        precondition(planes.luma.count == width * height)
        precondition(planes.cb.count == planes.chromaWidth * planes.chromaHeight && planes.cr.count == planes.cb.count)
        precondition(picture.luma.count == width * height)
        precondition(picture.cb.count == width * height / 4 && picture.cr.count == width * height / 4)
        var coefficients = flipbook_ycbcr_coefficients(
            y_y: c.yY, y_cb: c.yCb, y_cr: c.yCr, cb_y: c.cbY, cb_cb: c.cbCb, cb_cr: c.cbCr,
            cr_y: c.crY, cr_cb: c.crCb, cr_cr: c.crCr, luma_offset: c.lumaOffset)
        var scratch = [Int16](repeating: 0, count: 3 * width + 2)
        planes.luma.withUnsafeBufferPointer { luma in
            planes.cb.withUnsafeBufferPointer { cb in
                planes.cr.withUnsafeBufferPointer { cr in
                    picture.luma.withUnsafeMutableBufferPointer { outLuma in
                        picture.cb.withUnsafeMutableBufferPointer { outCb in
                            picture.cr.withUnsafeMutableBufferPointer { outCr in
                                flipbook_ycbcr_to_yuv420(
                                    luma.baseAddress, width, cb.baseAddress, cr.baseAddress, planes.chromaWidth,
                                    Int32(width), Int32(height), planes.chromaFullWidth ? 1 : 0,
                                    planes.chromaFullHeight ? 1 : 0, &coefficients, outLuma.baseAddress,
                                    outCb.baseAddress, outCr.baseAddress, &scratch)
                            }
                        }
                    }
                }
            }
        }
    }

    /// One plane of 1-byte samples, `width x height` tightly packed, turned upright for EXIF
    /// `orientation` 1...8 (5 to 8 swap width and height).
    static func orient(plane: [UInt8], width: Int, height: Int, orientation: Int) -> [UInt8] {
        precondition((1...8).contains(orientation), "EXIF orientation \(orientation)")
        precondition(plane.count == width * height, "\(plane.count) samples for \(width)x\(height)")
        return [UInt8](unsafeUninitializedCapacity: plane.count) { output, initialized in
            plane.withUnsafeBufferPointer { source in
                flipbook_orient(
                    source.baseAddress, width, Int32(width), Int32(height), 1, Int32(orientation), output.baseAddress)
            }
            initialized = plane.count
        }
    }
}
