internal import CFlipbookPixels

/// Flipbook's C pixel loops (`CFlipbookPixels`), called with sizes checked here first.
enum PixelKernels {
    /// Converts `frame` (even width and height) into `picture` of the same size: luma per pixel,
    /// chroma from each 2x2 block, with `coefficients`. Returns whether every pixel was opaque
    /// (always for RGB; for RGBA and BGRA when every alpha is 255), seen on the same pass.
    /// With `background`, every pixel is first composited over it by its alpha, in the same pass.
    @discardableResult
    static func rgbToYUV420(
        _ frame: Frame, coefficients c: FixedPointCoefficients, over background: RGBColour? = nil,
        into picture: inout YUVPicture
    ) -> Bool {
        let width = frame.width
        let height = frame.height
        precondition(width == picture.width && height == picture.height && width % 2 == 0 && height % 2 == 0)
        precondition(frame.pixels.count >= (height - 1) * frame.bytesPerRow + width * frame.format.bytesPerPixel)
        precondition(picture.format.isYUV420WithoutAlpha, "4:2:0 conversion into a picture of \(picture.format)")
        let layout = frame.format.kernelLayout
        var coefficients = c.kernelCoefficients
        return picture.withEightBitPlanes { planes in
            frame.pixels.withUnsafeBufferPointer { source in
                planes.luma.withUnsafeMutableBufferPointer { luma in
                    planes.cb.withUnsafeMutableBufferPointer { cb in
                        planes.cr.withUnsafeMutableBufferPointer { cr in
                            guard let background else {
                                return flipbook_rgb_to_yuv420(
                                    source.baseAddress, frame.bytesPerRow, Int32(width), Int32(height), layout,
                                    &coefficients, luma.baseAddress, cb.baseAddress, cr.baseAddress) != 0
                            }
                            let behind = [background.red, background.green, background.blue]
                            return flipbook_rgb_over_to_yuv420(
                                source.baseAddress, frame.bytesPerRow, Int32(width), Int32(height), layout, behind,
                                &coefficients, luma.baseAddress, cb.baseAddress, cr.baseAddress) != 0
                        }
                    }
                }
            }
        }
    }
}

extension PixelKernels {
    /// Converts `frame` into `picture` of the same size in the picture's format: luma per pixel,
    /// chroma from each block the format's sampling gives, alpha copied into the picture's alpha
    /// plane when it has one (255 for RGB). Returns whether every pixel was opaque. 4:2:0 without
    /// alpha goes through the vectorised ``rgbToYUV420(_:coefficients:over:into:)``.
    @discardableResult
    static func rgbToYUV(_ frame: Frame, coefficients c: FixedPointCoefficients, into picture: inout YUVPicture) -> Bool
    {
        let format = picture.format
        if format.isYUV420WithoutAlpha {
            return rgbToYUV420(frame, coefficients: c, into: &picture)
        }
        if format.isConvertedAtTenBits {
            return rgbToYUVp10(frame, coefficients: c, into: &picture)
        }
        let (width, height) = (frame.width, frame.height)
        precondition(width == picture.width && height == picture.height)
        precondition(format.chroma.fitsWhole(width: width, height: height))
        precondition(frame.pixels.count >= (height - 1) * frame.bytesPerRow + width * frame.format.bytesPerPixel)
        let layout = frame.format.kernelLayout
        var coefficients = c.kernelCoefficients
        // The picture's planes have its format's sizes, alpha included when the format has it.
        return picture.withEightBitPlanes { planes in
            var alpha = planes.alpha ?? []
            planes.alpha = nil  // the plane is then not shared, and is written in place
            defer { planes.alpha = format.hasAlpha ? alpha : nil }
            return frame.pixels.withUnsafeBufferPointer { source in
                planes.luma.withUnsafeMutableBufferPointer { luma in
                    planes.cb.withUnsafeMutableBufferPointer { cb in
                        planes.cr.withUnsafeMutableBufferPointer { cr in
                            alpha.withUnsafeMutableBufferPointer { alpha in
                                flipbook_rgb_to_yuv(
                                    source.baseAddress, frame.bytesPerRow, Int32(width), Int32(height), layout,
                                    Int32(format.chroma.horizontalShift), Int32(format.chroma.verticalShift),
                                    &coefficients, luma.baseAddress, cb.baseAddress, cr.baseAddress,
                                    format.hasAlpha ? alpha.baseAddress : nil) != 0
                            }
                        }
                    }
                }
            }
        }
    }

    /// Converts `frame` into the 10-bit planes (``YUVPicture/withDeepPlanes(_:)``) of `picture`, of the same size and
    /// a format ``PictureFormat/isConvertedAtTenBits``, alpha included when the format has it. A
    /// translucent frame for a format without alpha is left unconverted: returns `false` so that the
    /// caller composites it first (as ``rgbToYUV(_:coefficients:into:)`` reports it); `true` otherwise.
    private static func rgbToYUVp10(
        _ frame: Frame, coefficients c: FixedPointCoefficients, into picture: inout YUVPicture
    ) -> Bool {
        let format = picture.format
        guard format.hasAlpha || frame.isOpaque else { return false }
        let (width, height) = (frame.width, frame.height)
        precondition(width == picture.width && height == picture.height)
        precondition(format.chroma.fitsWhole(width: width, height: height))
        precondition(frame.pixels.count >= (height - 1) * frame.bytesPerRow + width * frame.format.bytesPerPixel)
        var coefficients = c.kernelCoefficients
        // The picture's planes have its format's sizes, alpha included when the format has it.
        picture.withDeepPlanes { deep in
            var alpha = deep.alpha ?? []
            deep.alpha = nil  // the plane is then not shared, and is written in place
            defer { deep.alpha = format.hasAlpha ? alpha : nil }
            frame.pixels.withUnsafeBufferPointer { source in
                deep.luma.withUnsafeMutableBufferPointer { luma in
                    deep.cb.withUnsafeMutableBufferPointer { cb in
                        deep.cr.withUnsafeMutableBufferPointer { cr in
                            alpha.withUnsafeMutableBufferPointer { alpha in
                                flipbook_rgb_to_yuv_p10(
                                    source.baseAddress, frame.bytesPerRow, Int32(width), Int32(height),
                                    frame.format.kernelLayout, Int32(format.chroma.horizontalShift),
                                    Int32(format.chroma.verticalShift), &coefficients, luma.baseAddress, cb.baseAddress,
                                    cr.baseAddress, format.hasAlpha ? alpha.baseAddress : nil)
                            }
                        }
                    }
                }
            }
        }
        return true
    }

    /// Whether every pixel of an RGBA or BGRA `frame` has alpha 255.
    static func alphaIsOpaque(_ frame: Frame) -> Bool {
        precondition(frame.format.bytesPerPixel == 4)
        precondition(frame.pixels.count >= (frame.height - 1) * frame.bytesPerRow + frame.width * 4)
        return frame.pixels.withUnsafeBufferPointer { pixels in
            flipbook_alpha_is_opaque(pixels.baseAddress, frame.bytesPerRow, Int32(frame.width), Int32(frame.height), 3)
                != 0
        }
    }
}

extension PixelKernels {
    /// Reverses the row filters of a non-interlaced PNG image in place (ISO/IEC 15948 §9).
    ///
    /// `buffer` holds the inflated image data: `rows` rows of a filter type byte and `rowBytes`
    /// filtered bytes. Row `r` is written unfiltered at `r * rowBytes`, so the rows end up packed at
    /// the buffer's start. `portable` picks the byte-by-byte loops other architectures use (for tests).
    ///
    /// - Returns: `nil`, or the index of the first row whose filter type is not 0 to 4.
    static func unfilterPNG(
        _ buffer: UnsafeMutableBufferPointer<UInt8>, rows: Int, rowBytes: Int, bytesPerPixel: Int,
        portable: Bool = false
    ) -> Int? {
        precondition((1...8).contains(bytesPerPixel) && rowBytes % bytesPerPixel == 0 && rows >= 0)
        let (bytes, overflow) = rows.multipliedReportingOverflow(by: rowBytes + 1)
        precondition(!overflow && buffer.count >= bytes, "\(buffer.count) bytes for \(rows) rows of \(rowBytes)")
        guard let base = buffer.baseAddress, rows > 0 else { return nil }
        let unfilter = portable ? flipbook_png_unfilter_portable : flipbook_png_unfilter
        let done = unfilter(base, rows, rowBytes, Int32(bytesPerPixel))
        return done == rows ? nil : done
    }
}

extension PixelKernels {
    /// `pixels` unfiltered PNG pixels of `channels` samples (1 grey, 2 grey and alpha, 3 RGB, 4 RGBA)
    /// of `bitDepth` 8 or 16 as 8-bit RGB (grey, RGB) or RGBA (with alpha): grey repeated into each
    /// colour, 16-bit samples cut to their high byte, as libspng decodes them.
    static func pngSamplesToRGB8(_ samples: [UInt8], pixels: Int, channels: Int, bitDepth: Int) -> [UInt8] {
        precondition((1...4).contains(channels) && (bitDepth == 8 || bitDepth == 16) && pixels >= 0)
        precondition(samples.count >= pixels * channels * bitDepth / 8)
        let count = pixels * (channels % 2 == 0 ? 4 : 3)
        return samples.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                flipbook_png_to_rgb8(source.baseAddress, pixels, Int32(channels), Int32(bitDepth), out.baseAddress)
                initialized = count
            }
        }
    }

    /// `pixels` unfiltered 16-bit grey (`channels` 1) or RGB (3) PNG samples as native 16-bit RGB; grey
    /// and alpha (2) or RGBA (4) as native 16-bit RGBA.
    static func png16ToRGB16(_ samples: [UInt8], pixels: Int, channels: Int) -> [UInt16] {
        precondition((1...4).contains(channels) && pixels >= 0 && samples.count >= pixels * channels * 2)
        let count = pixels * (channels % 2 == 0 ? 4 : 3)
        return samples.withUnsafeBufferPointer { source in
            [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
                flipbook_png16_to_rgb16(source.baseAddress, pixels, Int32(channels), out.baseAddress)
                initialized = count
            }
        }
    }

    /// A 16-bit RGB image of even sides converted to 10-bit 4:2:0 planes with the weights `c`.
    static func rgb16ToYUV420p10(_ image: DeepImage, coefficients c: FixedPointCoefficients) -> DeepPlanes {
        rgb16ToYUVp10(image, chroma: .yuv420, coefficients: c)
    }

    /// Converts a deep RGB image to 10-bit planes of `chroma` (the vectorisable 4:2:0 loop for 4:2:0),
    /// with its alpha plane when it has alpha.
    static func rgb16ToYUVp10(_ image: DeepImage, chroma: ChromaFormat, coefficients c: FixedPointCoefficients)
        -> DeepPlanes
    {
        let (width, height) = (image.width, image.height)
        precondition(
            chroma.fitsWhole(width: width, height: height)
                && image.samples.count == width * height * (image.hasAlpha ? 4 : 3))
        let chromaCount =
            chroma.chromaSize(width: width, height: height).width
            * chroma.chromaSize(width: width, height: height).height
        var coefficients = c.kernelCoefficients
        // Not zeroed first: the kernel writes every sample of the three planes.
        func plane(_ count: Int, _ fill: (UnsafeMutablePointer<UInt16>) -> Void) -> [UInt16] {
            [UInt16](unsafeUninitializedCapacity: count) { buffer, initialized in
                fill(buffer.baseAddress!)
                initialized = count
            }
        }
        var cb: [UInt16] = []
        var cr: [UInt16] = []
        var alpha: [UInt16]?
        let luma = plane(width * height) { luma in
            cb = plane(chromaCount) { cbPlane in
                cr = plane(chromaCount) { crPlane in
                    image.samples.withUnsafeBufferPointer { source in
                        if image.hasAlpha {
                            alpha = plane(width * height) { alphaPlane in
                                flipbook_rgba16_to_yuv_p10(
                                    source.baseAddress, Int32(width), Int32(height), Int32(chroma.horizontalShift),
                                    Int32(chroma.verticalShift), &coefficients, luma, cbPlane, crPlane, alphaPlane)
                            }
                        } else if chroma == .yuv420 {
                            flipbook_rgb16_to_yuv420p10(
                                source.baseAddress, Int32(width), Int32(height), &coefficients, luma, cbPlane, crPlane)
                        } else {
                            flipbook_rgb16_to_yuv_p10(
                                source.baseAddress, Int32(width), Int32(height), Int32(chroma.horizontalShift),
                                Int32(chroma.verticalShift), &coefficients, luma, cbPlane, crPlane)
                        }
                    }
                }
            }
        }
        return DeepPlanes(luma: luma, cb: cb, cr: cr, alpha: alpha)
    }
}

extension PixelFormat {
    /// The byte layout the C kernels name this format by.
    var kernelLayout: flipbook_pixel_layout {
        switch self {
        case .rgb: FLIPBOOK_LAYOUT_RGB
        case .rgba: FLIPBOOK_LAYOUT_RGBA
        case .bgra: FLIPBOOK_LAYOUT_BGRA
        }
    }
}

extension FixedPointCoefficients {
    /// The weights as the C kernels take them.
    fileprivate var kernelCoefficients: flipbook_yuv_coefficients {
        flipbook_yuv_coefficients(
            y_r: yR, y_g: yG, y_b: yB, cb_r: cbR, cb_g: cbG, cb_b: cbB, cr_r: crR, cr_g: crG, cr_b: crB,
            luma_offset: lumaOffset)
    }
}
