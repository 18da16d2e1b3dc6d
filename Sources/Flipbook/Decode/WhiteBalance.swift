/// How a camera raw file's colours are balanced before its camera matrix: as the camera set them when
/// it took the photo (the default), from the picture itself, for daylight, or for a light of a colour
/// temperature.
public enum WhiteBalance: Sendable, Hashable, CustomStringConvertible {
    /// The multipliers the camera recorded (daylight's when it recorded none).
    case camera
    /// Grey on average over the picture (LibRaw's automatic balance).
    case auto
    /// The camera's daylight multipliers (D65), the same for every photo.
    case daylight
    /// A black body of this many kelvin (2000 to 25000) made white, through the camera's own matrix.
    case kelvin(Int)

    /// The colour temperatures a white balance may name, in kelvin.
    public static let kelvinRange = 2000...25000

    /// `camera`, `auto`, `daylight`, or a temperature such as `5600` or `5600K`; `nil` for anything else.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "camera": self = .camera
        case "auto": self = .auto
        case "daylight": self = .daylight
        default:
            let digits = text.hasSuffix("K") || text.hasSuffix("k") ? String(text.dropLast()) : text
            guard let kelvin = Int(digits), Self.kelvinRange.contains(kelvin) else { return nil }
            self = .kelvin(kelvin)
        }
    }

    public var description: String {
        switch self {
        case .camera: "camera"
        case .auto: "auto"
        case .daylight: "daylight"
        case .kelvin(let kelvin): "\(kelvin)K"
        }
    }
}

/// How camera raw files are developed for a movie: their white balance, and whether the embedded
/// preview stands in for the sensor data.
package struct RawDevelopment: Sendable, Hashable {
    package var whiteBalance: WhiteBalance = .camera
    /// Whether the camera's own preview (a JPEG, processed by the camera) is decoded instead.
    package var usesPreview = false

    package init(whiteBalance: WhiteBalance = .camera, usesPreview: Bool = false) {
        self.whiteBalance = whiteBalance
        self.usesPreview = usesPreview
    }
}
