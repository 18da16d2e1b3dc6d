import ISOBMFF

/// The encoder of an animated image's frames as the writer sees it: each RGBA picture becomes one
/// packet of its pixels, unchanged, in order. The container's session (``GIFSession``,
/// ``WebPAnimationSession``) encodes them, for only it knows each frame's duration.
final class AnimationFrameEncoder: VideoEncoder {
    let sampleEntry: any SampleEntry
    let codecName: String
    let pictureFormat: PictureFormat

    init(settings: VideoSettings) {
        sampleEntry = AnimatedImageEntry(width: settings.width, height: settings.height, codecName: settings.codec.name)
        codecName = settings.codec.record.probeName
        pictureFormat = .rgba(hasAlpha: settings.keepsAlpha)
    }

    func encode(_ picture: YUVPicture, presentationTime: Int64) throws -> [EncodedPacket] {
        try checkFormat(of: picture)
        return [
            EncodedPacket(
                data: picture.rgba, presentationTime: presentationTime, decodeTime: presentationTime, isKeyframe: true)
        ]
    }

    func flush() throws -> [EncodedPacket] { [] }
}
