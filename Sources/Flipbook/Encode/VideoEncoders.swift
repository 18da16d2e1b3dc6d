/// Opens the encoder of a movie's codec.
enum VideoEncoders {
    /// The encoder for `settings.codec`, for pictures converted with `colour`.
    static func make(settings: VideoSettings, colour: ColourMatrix) throws -> any VideoEncoder {
        switch settings.codec {
        case .h264: try X264Encoder(settings: settings, colour: colour)
        case .hevc: try X265Encoder(settings: settings, colour: colour)
        case .av1: try SVTAV1Encoder(settings: settings, colour: colour)
        }
    }
}
