/// Flicker taken out of a sequence (a time-lapse whose frames differ in brightness by aperture jitter,
/// changing light or automatic exposure): each image's brightness is measured in linear light, a smooth
/// curve is drawn through the brightnesses over ``window`` images, and each image is scaled to the curve
/// before the tone curve (a raw file's or a render's view; a photo's own curve undone and redone), so
/// highlights keep their hue. Exposure steps the images state in EXIF (shutter, aperture, ISO) are taken
/// out exactly first, and the curve brings back a smooth ramp of them.
///
/// Images given as files only: every image is measured before the first frame is encoded.
public struct Deflicker: Sendable, Hashable {
    /// The images the smooth curve follows around each: an odd number from 3 to 999 (15 by default, a
    /// little over half a second at 24 fps).
    public var window: Int
    /// Where brightness is measured, in the images' pixels (upright); `nil` for the whole picture.
    public var region: PixelRegion?

    /// The windows a deflicker may take.
    public static let windowRange = 3...999

    public init(window: Int = 15, region: PixelRegion? = nil) {
        self.window = window
        self.region = region
    }
}

/// A rectangle of an image, in its pixels from its top-left corner.
public struct PixelRegion: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `x,y,w,h`, such as `0,0,640,200`; `nil` unless four whole numbers, the sides positive.
    public init?(parsing text: String) {
        let numbers = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, let x = numbers[0], let y = numbers[1], let width = numbers[2],
            let height = numbers[3], x >= 0, y >= 0, width > 0, height > 0
        else { return nil }
        self.init(x: x, y: y, width: width, height: height)
    }

    public var description: String { "\(x),\(y),\(width),\(height)" }
}
