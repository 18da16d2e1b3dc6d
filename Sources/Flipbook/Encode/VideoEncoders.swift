/// Opens the encoder of a movie's codec.
enum VideoEncoders {
    /// The encoder for `settings.codec`, for pictures converted with `colour`.
    static func make(settings: VideoSettings, colour: ColourMatrix) throws -> any VideoEncoder {
        try settings.codec.encoderRecord.makeEncoder(settings, colour)
    }
}
