internal import CFlipbookPixels

extension PixelKernels {
    /// Converts Y'CbCr `planes` (JPEG's or WebP's) into `picture` of the same size with `c` (see
    /// ``JPEGToYUVConverter``), in one pass and without RGB.
    static func ycbcrToYUV420(_ planes: YCbCrPlanes, coefficients c: YCbCrCoefficients, into picture: inout YUVPicture)
    {
        precondition(planes.width == picture.width && planes.height == picture.height)
        precondition(picture.format.isYUV420WithoutAlpha, "4:2:0 conversion into a picture of \(picture.format)")
        picture.withEightBitPlanes { picture in
            picture.luma.withUnsafeMutableBufferPointer { outLuma in
                picture.cb.withUnsafeMutableBufferPointer { outCb in
                    picture.cr.withUnsafeMutableBufferPointer { outCr in
                        ycbcrToYUV420(planes, c, outLuma.baseAddress, outCb.baseAddress, outCr.baseAddress)
                    }
                }
            }
        }
    }

    /// The luma plane alone of ``ycbcrToYUV420(_:coefficients:into:)``.
    static func ycbcrLuma(_ planes: YCbCrPlanes, coefficients c: YCbCrCoefficients) -> [UInt8] {
        let count = planes.width * planes.height
        // Not zeroed first: the kernel writes every sample.
        return [UInt8](unsafeUninitializedCapacity: count) { luma, initialized in
            ycbcrToYUV420(planes, c, luma.baseAddress, nil, nil)
            initialized = count
        }
    }

    /// The chroma planes alone of ``ycbcrToYUV420(_:coefficients:into:)``.
    static func ycbcrChroma(_ planes: YCbCrPlanes, coefficients c: YCbCrCoefficients) -> (cb: [UInt8], cr: [UInt8]) {
        let count = planes.width * planes.height / 4
        var cr: [UInt8] = []
        // Not zeroed first: the kernel writes every sample.
        let cb = [UInt8](unsafeUninitializedCapacity: count) { cb, cbDone in
            cr = [UInt8](unsafeUninitializedCapacity: count) { cr, crDone in
                ycbcrToYUV420(planes, c, nil, cb.baseAddress, cr.baseAddress)
                crDone = count
            }
            cbDone = count
        }
        return (cb, cr)
    }

    /// The kernel's call: the planes whose output addresses are given (each `nil` or room for a
    /// whole plane: luma `width x height`, each chroma plane a quarter of that).
    private static func ycbcrToYUV420(
        _ planes: YCbCrPlanes, _ c: YCbCrCoefficients, _ outLuma: UnsafeMutablePointer<UInt8>?,
        _ outCb: UnsafeMutablePointer<UInt8>?, _ outCr: UnsafeMutablePointer<UInt8>?
    ) {
        let width = planes.width
        let height = planes.height
        precondition(width % 2 == 0 && height % 2 == 0 && (outCb == nil) == (outCr == nil))
        precondition(planes.luma.count == width * height)
        precondition(planes.cb.count == planes.chromaWidth * planes.chromaHeight && planes.cr.count == planes.cb.count)
        var coefficients = flipbook_ycbcr_coefficients(
            y_y: c.yY, y_cb: c.yCb, y_cr: c.yCr, cb_y: c.cbY, cb_cb: c.cbCb, cb_cr: c.cbCr,
            cr_y: c.crY, cr_cb: c.crCb, cr_cr: c.crCr, luma_offset: c.lumaOffset)
        var scratch = [Int16](repeating: 0, count: 3 * width + 2)
        planes.luma.withUnsafeBufferPointer { luma in
            planes.cb.withUnsafeBufferPointer { cb in
                planes.cr.withUnsafeBufferPointer { cr in
                    flipbook_ycbcr_to_yuv420(
                        luma.baseAddress, width, cb.baseAddress, cr.baseAddress, planes.chromaWidth, Int32(width),
                        Int32(height), planes.chromaFullWidth ? 1 : 0, planes.chromaFullHeight ? 1 : 0, &coefficients,
                        outLuma, outCb, outCr, &scratch)
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
