extension YUVPicture {
    /// A black picture of `picture`'s size and format, its samples stored as `picture`'s are (opaque
    /// black for packed RGBA).
    static func black(like picture: YUVPicture) -> YUVPicture {
        var black = YUVPicture(width: picture.width, height: picture.height, format: picture.format)
        switch picture.storage {
        case .eightBit: break
        case .tenBit: black.withDeepPlanes { _ in }
        case .rgba:
            black.withRGBA { pixels in
                for index in pixels.indices where index % 4 != 3 { pixels[index] = 0 }
            }
        }
        return black
    }

    /// Draws `source` (a picture of this one's format and storage) made `size`, each sample the mean of
    /// the samples it covers, with its top-left corner at (`x`, `y`); `x`, `y` and the size are even, and
    /// the whole is inside this picture.
    mutating func draw(_ source: YUVPicture, scaledTo size: (width: Int, height: Int), atX x: Int, y: Int) {
        let chroma = format.chroma.chromaSize(width: width, height: height)
        let across = width / chroma.width
        let down = height / chroma.height
        let target = Area(x: x, y: y, width: size.width, height: size.height)
        let whole = (width: width, height: height)
        let from = (width: source.width, height: source.height)
        switch (storage, source.storage) {
        case (.eightBit, .eightBit(let planes)):
            withEightBitPlanes { Self.shrink(planes, from, into: &$0, whole, target, across, down) }
        case (.tenBit, .tenBit(let planes)):
            withDeepPlanes { Self.shrink(planes, from, into: &$0, whole, target, across, down) }
        case (.rgba, .rgba(let pixels)):
            withRGBA { Self.shrink(pixels, from, channels: 4, into: &$0, whole, target) }
        default:
            preconditionFailure("a thumbnail stored otherwise than its card")
        }
    }

    /// A rectangle of a plane, in its samples.
    private struct Area {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
    }

    private static func shrink<Sample>(
        _ source: PicturePlanes<Sample>, _ from: (width: Int, height: Int), into planes: inout PicturePlanes<Sample>,
        _ whole: (width: Int, height: Int), _ target: Area, _ across: Int, _ down: Int
    ) {
        shrink(source.luma, from, channels: 1, into: &planes.luma, whole, target)
        let chromaFrom = (width: from.width / across, height: from.height / down)
        let chromaWhole = (width: whole.width / across, height: whole.height / down)
        let chromaTarget = Area(
            x: target.x / across, y: target.y / down, width: target.width / across, height: target.height / down)
        shrink(source.cb, chromaFrom, channels: 1, into: &planes.cb, chromaWhole, chromaTarget)
        shrink(source.cr, chromaFrom, channels: 1, into: &planes.cr, chromaWhole, chromaTarget)
        if let alpha = source.alpha, planes.alpha != nil {
            shrink(alpha, from, channels: 1, into: &planes.alpha!, whole, target)
        }
    }

    /// Each sample of `target` in `plane` (`whole` samples of `channels` each) the mean of the samples of
    /// `source` (`from`) it covers.
    private static func shrink<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: [Sample], _ from: (width: Int, height: Int), channels: Int, into plane: inout [Sample],
        _ whole: (width: Int, height: Int), _ target: Area
    ) {
        guard target.width > 0 && target.height > 0 else { return }
        for row in 0..<target.height {
            let top = row * from.height / target.height
            let bottom = max(top + 1, (row + 1) * from.height / target.height)
            for column in 0..<target.width {
                let left = column * from.width / target.width
                let right = max(left + 1, (column + 1) * from.width / target.width)
                let count = (bottom - top) * (right - left)
                for channel in 0..<channels {
                    var total = 0
                    for sourceRow in top..<bottom {
                        for sourceColumn in left..<right {
                            total += Int(source[(sourceRow * from.width + sourceColumn) * channels + channel])
                        }
                    }
                    plane[((target.y + row) * whole.width + target.x + column) * channels + channel] =
                        Sample((total + count / 2) / count)
                }
            }
        }
    }
}
