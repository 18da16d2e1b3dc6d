import MediaModel

/// One track as Matroska describes it: its `CodecID`, `CodecPrivate` and the facts its blocks need,
/// read from the track's codec description through ``MatroskaCodecs``.
package struct MatroskaTrack: Sendable {
    /// The track's number in blocks, from 1.
    package let number: Int
    /// Whether the track holds pictures.
    package let isVideo: Bool
    /// How Matroska writes the track's codec.
    package let codec: MatroskaCodec
    /// The Matroska codec ID.
    package var codecID: String { codec.codecID }
    /// The codec's configuration, or `nil` for none.
    package let codecPrivate: [UInt8]?
    /// Bytes left off the front of every frame (ProRes's frame header).
    package var strippedPrefix: Int { codec.strippedPrefix }
    /// Samples a second and channels, for sound.
    package let sampleRate: Double
    package let channels: Int
    /// Time the decoder discards before the first sample it plays, in nanoseconds (the sound's
    /// media start: encoder delay, Opus's pre-skip); Matroska subtracts it from every block's time.
    /// The session sets it from the track's edit list; 0 until then.
    package var decoderDelay: UInt64 = 0
    /// Whether sound past the movie's end is trimmed with the last block's `DiscardPadding`.
    package var takesDiscardPadding: Bool { codec.takesDiscardPadding }
    /// Whether blocks carry each picture's alpha as a picture of its own in `BlockAdditional` (VP8's
    /// and VP9's transparency: `AlphaMode` 1, `MaxBlockAdditionID` 1).
    package let keepsAlpha: Bool
    /// The seek pre-roll in nanoseconds (Opus: 80 ms).
    package var seekPreRoll: UInt64 { codec.seekPreRoll }

    /// Reads track `track`'s facts.
    ///
    /// - Throws: ``MuxingError`` for a codec Matroska is not written with here.
    package init(_ track: Track, number: Int) throws {
        self.number = number
        let description = track.codec
        guard let codec = MatroskaCodecs.codec(named: description.codecName) else {
            throw MuxingError.codecNotHeld(description.codecName, in: "Matroska")
        }
        self.codec = codec
        if case .video = description.media { isVideo = true } else { isVideo = false }
        codecPrivate = try codec.codecPrivate(description)
        sampleRate = description.sound?.sampleRate ?? 0
        channels = description.sound?.channelCount ?? 0
        keepsAlpha = (description.picture?.hasAlpha ?? false) && codec.carriesAlphaBeside
    }

    /// Writes the `TrackEntry` element.
    ///
    /// - Parameters:
    ///   - track: The track the facts were read from.
    ///   - frameDuration: A picture's nominal length in nanoseconds, for `DefaultDuration`; `nil` for none.
    package func write(_ track: Track, frameDuration: UInt64?, to writer: inout EBMLWriter) {
        writer.master(.trackEntry) { w in
            w.unsigned(.trackNumber, UInt64(number))
            w.unsigned(.trackUID, UInt64(number))
            w.unsigned(.trackType, isVideo ? 1 : 2)
            w.unsigned(.flagLacing, 0)
            if let frameDuration, frameDuration > 0 { w.unsigned(.defaultDuration, frameDuration) }
            if keepsAlpha { w.unsigned(.maxBlockAdditionID, 1) }
            w.string(.language, "und")
            w.string(.codecID, codecID)
            if let codecPrivate, !codec.privateAfterPictureFacts { w.binary(.codecPrivate, codecPrivate) }
            if decoderDelay > 0 { w.unsigned(.codecDelay, decoderDelay) }
            if seekPreRoll > 0 { w.unsigned(.seekPreRoll, seekPreRoll) }
            if case .video(let width, let height) = track.codec.media {
                let picture =
                    track.codec.picture
                    ?? PictureDescription(colour: .bt709, pixelAspectRatio: .square, hasAlpha: false)
                w.master(.video) { w in
                    w.unsigned(.pixelWidth, UInt64(width))
                    w.unsigned(.pixelHeight, UInt64(height))
                    let aspect = picture.pixelAspectRatio
                    if aspect != .square, aspect.vSpacing > 0 {
                        let shown =
                            (UInt64(width) * UInt64(aspect.hSpacing) + UInt64(aspect.vSpacing) / 2)
                            / UInt64(aspect.vSpacing)
                        w.unsigned(.displayWidth, shown)
                        w.unsigned(.displayHeight, UInt64(height))
                    }
                    if keepsAlpha { w.unsigned(.alphaMode, 1) }
                    w.master(.colour) { w in
                        let colour = picture.colour
                        w.unsigned(.matrixCoefficients, UInt64(colour.matrixCoefficients))
                        w.unsigned(.range, colour.fullRange ? 2 : 1)
                        w.unsigned(.transferCharacteristics, UInt64(colour.transferCharacteristics))
                        w.unsigned(.primaries, UInt64(colour.colourPrimaries))
                        Self.writeHDRMetadata(colour, to: &w)
                    }
                }
            } else {
                w.master(.audio) { w in
                    w.float(.samplingFrequency, sampleRate)
                    w.unsigned(.channels, UInt64(channels))
                }
            }
            if let codecPrivate, codec.privateAfterPictureFacts { w.binary(.codecPrivate, codecPrivate) }
        }
    }
}

extension MatroskaTrack {
    /// MaxCLL and MaxFALL as written before they are known: four bytes each, zero, for
    /// ``MatroskaHead`` to find and the session to write over at the end.
    static let contentLightToCome: [UInt8] = {
        var w = EBMLWriter()
        w.unsigned(.maxCLL, 0, width: 4)
        w.unsigned(.maxFALL, 0, width: 4)
        return w.bytes
    }()

    /// MaxCLL and MaxFALL as written at the end over ``contentLightToCome``.
    static func contentLight(_ light: ContentLightLevel) -> [UInt8] {
        var w = EBMLWriter()
        w.unsigned(.maxCLL, UInt64(max(light.maxCLL, 0)), width: 4)
        w.unsigned(.maxFALL, UInt64(max(light.maxFALL, 0)), width: 4)
        return w.bytes
    }

    /// An HDR programme's `MaxCLL`, `MaxFALL` (or room for them) and `MasteringMetadata`, inside `Colour`.
    static func writeHDRMetadata(_ colour: ColourDescription, to w: inout EBMLWriter) {
        if let light = colour.contentLight {
            w.unsigned(.maxCLL, UInt64(max(light.maxCLL, 0)))
            w.unsigned(.maxFALL, UInt64(max(light.maxFALL, 0)))
        } else if colour.contentLightComesLast {
            w.append(contentLightToCome)
        }
        guard let display = colour.masteringDisplay else { return }
        w.master(.masteringMetadata) { w in
            w.float(.primaryRChromaticityX, display.red.x)
            w.float(.primaryRChromaticityY, display.red.y)
            w.float(.primaryGChromaticityX, display.green.x)
            w.float(.primaryGChromaticityY, display.green.y)
            w.float(.primaryBChromaticityX, display.blue.x)
            w.float(.primaryBChromaticityY, display.blue.y)
            w.float(.whitePointChromaticityX, display.white.x)
            w.float(.whitePointChromaticityY, display.white.y)
            w.float(.luminanceMax, display.maxLuminance)
            w.float(.luminanceMin, display.minLuminance)
        }
    }
}
