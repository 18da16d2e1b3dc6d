/// How far a movie's pictures are turned clockwise when shown, as the video track's display matrix
/// says: what a phone writes for a video shot upright (``clockwise90``), so players show it turned
/// while the pictures stay as they were encoded.
///
/// ffprobe reports the matrix in the stream's side data as the opposite angle (`rotation: -90` for
/// ``clockwise90``); players that honour it, browsers among them, show a ``clockwise90`` or
/// ``clockwise270`` movie with its width and height swapped.
public enum Rotation: Int, Sendable, Hashable, CaseIterable {
    /// Shown as encoded (the unity matrix).
    case upright = 0
    /// Turned a quarter turn clockwise.
    case clockwise90 = 90
    /// Turned upside down.
    case upsideDown = 180
    /// Turned three quarter turns clockwise (a quarter turn counterclockwise).
    case clockwise270 = 270

    /// The angle in degrees clockwise: 0, 90, 180 or 270.
    public var degrees: Int { rawValue }

    /// The rotation of `degrees` clockwise; `nil` for any angle but 0, 90, 180 and 270.
    public init?(degrees: Int) {
        self.init(rawValue: degrees)
    }
}
