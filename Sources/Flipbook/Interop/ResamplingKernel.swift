internal import CFlipbookPixels

extension PixelKernels {
    /// `region` of `pixels` (rows `bytesPerRow` apart, laid out as `layout` says) resampled by
    /// `columns` and `rows` (built for the region's width and height) into tightly packed pixels of
    /// the layout's output.
    static func resample(
        _ pixels: [UInt8], region: PixelRect, bytesPerRow: Int, layout: ResamplingLayout, columns: ResamplingTaps,
        rows: ResamplingTaps
    ) -> [UInt8] {
        let channels = layout.sourceChannels
        let outputChannels = layout.outputChannels
        let cLayout: flipbook_resample_layout =
            switch layout {
            case .gray: FLIPBOOK_RESAMPLE_GRAY
            case .rgb: FLIPBOOK_RESAMPLE_RGB
            case .rgba: FLIPBOOK_RESAMPLE_RGBA
            case .rgbaToRGB: FLIPBOOK_RESAMPLE_RGBA_TO_RGB
            case .bgraToRGB: FLIPBOOK_RESAMPLE_BGRA_TO_RGB
            }
        precondition(columns.sourceCount == region.width && rows.sourceCount == region.height)
        precondition(region.x >= 0 && region.y >= 0 && region.width > 0 && region.height > 0)
        precondition(bytesPerRow >= (region.x + region.width) * channels, "\(bytesPerRow) bytes a row for \(region)")
        precondition(
            pixels.count >= (region.y + region.height - 1) * bytesPerRow + (region.x + region.width) * channels,
            "\(pixels.count) bytes for \(region) at \(bytesPerRow) bytes a row")
        let width = columns.outputCount
        let height = rows.outputCount
        var scratch = [Int32](repeating: 0, count: region.width * channels + 1)
        return [UInt8](unsafeUninitializedCapacity: width * height * outputChannels) { output, initialized in
            pixels.withUnsafeBufferPointer { source in
                columns.firsts.withUnsafeBufferPointer { columnFirsts in
                    columns.weights.withUnsafeBufferPointer { columnWeights in
                        rows.firsts.withUnsafeBufferPointer { rowFirsts in
                            rows.weights.withUnsafeBufferPointer { rowWeights in
                                var columnTaps = flipbook_taps(
                                    first: columnFirsts.baseAddress, weights: columnWeights.baseAddress,
                                    count: Int32(columns.count))
                                var rowTaps = flipbook_taps(
                                    first: rowFirsts.baseAddress, weights: rowWeights.baseAddress,
                                    count: Int32(rows.count))
                                flipbook_resample(
                                    source.baseAddress! + region.y * bytesPerRow + region.x * channels, bytesPerRow,
                                    Int32(region.width), cLayout, output.baseAddress, width * outputChannels,
                                    Int32(width), Int32(height), &columnTaps, &rowTaps, &scratch)
                            }
                        }
                    }
                }
            }
            initialized = width * height * outputChannels
        }
    }
}
