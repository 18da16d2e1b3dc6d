import MediaModel

/// One `TrackEntry` as a reader finds it: the codec, its configuration, and the picture's or the
/// sound's facts.
package struct MatroskaTrackEntry: Sendable, Equatable {
    /// The number blocks refer to the track by.
    package var number: Int
    /// 1 for video, 2 for audio (`TrackType`).
    package var type: UInt64
    /// The Matroska codec ID, such as `V_AV1` or `A_OPUS`.
    package var codecID: String
    /// The codec's configuration (`CodecPrivate`), if any.
    package var codecPrivate: [UInt8]?
    /// A frame's nominal length in nanoseconds (`DefaultDuration`), if stated.
    package var defaultDuration: UInt64?
    /// Nanoseconds the decoder discards at the start (`CodecDelay`).
    package var codecDelay: UInt64 = 0
    /// Whether the track's blocks are stored with a content encoding (compression or encryption),
    /// which Flipbook does not undo.
    package var isEncoded = false

    /// The picture's size in pixels, and how it is shown; 0 when not a video track.
    package var pixelWidth = 0
    package var pixelHeight = 0
    package var displayWidth: Int?
    package var displayHeight: Int?
    /// Whether blocks carry an alpha picture in `BlockAdditional` (`AlphaMode` 1).
    package var alphaMode: UInt64 = 0
    /// The H.273 colour code points and range (`Range`: 1 limited, 2 full), when stated.
    package var matrixCoefficients: UInt64?
    package var transferCharacteristics: UInt64?
    package var primaries: UInt64?
    package var range: UInt64?
    /// An HDR track's `MaxCLL` and `MaxFALL`, when both are stated.
    package var contentLight: ContentLightLevel?
    /// An HDR track's `MasteringMetadata`, when it states every primary, the white and the luminance.
    package var masteringDisplay: MasteringDisplayColourVolume?

    /// Samples a second and channels; 0 when not a sound track.
    package var samplingFrequency: Double = 0
    package var channels = 0

    /// Whether the track holds pictures.
    package var isVideo: Bool { type == 1 }
    /// Whether the track holds sound.
    package var isAudio: Bool { type == 2 }

    /// Reads a `TrackEntry` node.
    ///
    /// - Throws: ``MediaReadingError`` for a missing number or codec, or a value of the wrong kind.
    init(reading node: EBMLNode) throws {
        guard let number = try node.unsigned(.trackNumber), number > 0, number <= UInt64(Int32.max) else {
            throw MediaReadingError.matroska(
                .missing, "a TrackEntry without a valid TrackNumber", offset: node.element.offset,
                element: node.id)
        }
        guard let codecID = node.string(.codecID) else {
            throw MediaReadingError.matroska(
                .missing, "track \(number) has no CodecID", offset: node.element.offset, element: node.id)
        }
        self.number = Int(number)
        self.codecID = codecID
        type = try node.unsigned(.trackType) ?? 0
        codecPrivate = node.child(.codecPrivate).map { Array($0.data) }
        defaultDuration = try node.unsigned(.defaultDuration)
        codecDelay = try node.unsigned(.codecDelay) ?? 0
        isEncoded = node.child(.contentEncodings) != nil
        if let video = node.child(.video) {
            pixelWidth = Int(clamping: try video.unsigned(.pixelWidth) ?? 0)
            pixelHeight = Int(clamping: try video.unsigned(.pixelHeight) ?? 0)
            displayWidth = try video.unsigned(.displayWidth).map { Int(clamping: $0) }
            displayHeight = try video.unsigned(.displayHeight).map { Int(clamping: $0) }
            alphaMode = try video.unsigned(.alphaMode) ?? 0
            if let colour = video.child(.colour) {
                matrixCoefficients = try colour.unsigned(.matrixCoefficients)
                transferCharacteristics = try colour.unsigned(.transferCharacteristics)
                primaries = try colour.unsigned(.primaries)
                range = try colour.unsigned(.range)
                if let cll = try colour.unsigned(.maxCLL), let fall = try colour.unsigned(.maxFALL) {
                    contentLight = ContentLightLevel(maxCLL: Int(clamping: cll), maxFALL: Int(clamping: fall))
                }
                if let mastering = colour.child(.masteringMetadata) {
                    let ids: [EBMLID] = [
                        .primaryRChromaticityX, .primaryRChromaticityY, .primaryGChromaticityX, .primaryGChromaticityY,
                        .primaryBChromaticityX, .primaryBChromaticityY, .whitePointChromaticityX,
                        .whitePointChromaticityY, .luminanceMax, .luminanceMin,
                    ]
                    let values = try ids.compactMap { try mastering.float($0) }
                    if values.count == ids.count {
                        typealias Point = MasteringDisplayColourVolume.Chromaticity
                        masteringDisplay = MasteringDisplayColourVolume(
                            red: Point(values[0], values[1]), green: Point(values[2], values[3]),
                            blue: Point(values[4], values[5]), white: Point(values[6], values[7]),
                            maxLuminance: values[8], minLuminance: values[9])
                    }
                }
            }
        }
        if let audio = node.child(.audio) {
            samplingFrequency = try audio.float(.samplingFrequency) ?? 8000
            channels = Int(clamping: try audio.unsigned(.channels) ?? 1)
        }
    }
}
