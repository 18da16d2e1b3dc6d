/// An EBML element ID as it is written: 1 to 4 bytes whose leading bits give the length.
///
/// The IDs are those of the Matroska specification (RFC 9559) that Flipbook writes or reads.
package struct EBMLID: Sendable, Hashable, CustomStringConvertible {
    /// The ID's bytes read as a big-endian number, marker bits included (`0x1A45DFA3`).
    package let value: UInt32

    /// Creates an ID from its written value.
    package init(_ value: UInt32) {
        self.value = value
    }

    /// The bytes the ID takes.
    package var length: Int { max(1, (32 - value.leadingZeroBitCount + 7) / 8) }

    /// The ID's bytes.
    package var bytes: [UInt8] { (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) } }

    package var description: String { "0x" + String(value, radix: 16, uppercase: true) }

    // EBML header.
    package static let ebml = EBMLID(0x1A45_DFA3)
    package static let ebmlVersion = EBMLID(0x4286)
    package static let ebmlReadVersion = EBMLID(0x42F7)
    package static let ebmlMaxIDLength = EBMLID(0x42F2)
    package static let ebmlMaxSizeLength = EBMLID(0x42F3)
    package static let docType = EBMLID(0x4282)
    package static let docTypeVersion = EBMLID(0x4287)
    package static let docTypeReadVersion = EBMLID(0x4285)
    package static let void = EBMLID(0xEC)

    // Segment and its index.
    package static let segment = EBMLID(0x1853_8067)
    package static let seekHead = EBMLID(0x114D_9B74)
    package static let seek = EBMLID(0x4DBB)
    package static let seekID = EBMLID(0x53AB)
    package static let seekPosition = EBMLID(0x53AC)

    // Info.
    package static let info = EBMLID(0x1549_A966)
    package static let segmentUUID = EBMLID(0x73A4)
    package static let timestampScale = EBMLID(0x2A_D7B1)
    package static let duration = EBMLID(0x4489)
    package static let dateUTC = EBMLID(0x4461)
    package static let title = EBMLID(0x7BA9)
    package static let muxingApp = EBMLID(0x4D80)
    package static let writingApp = EBMLID(0x5741)

    // Tracks.
    package static let tracks = EBMLID(0x1654_AE6B)
    package static let trackEntry = EBMLID(0xAE)
    package static let trackNumber = EBMLID(0xD7)
    package static let trackUID = EBMLID(0x73C5)
    package static let trackType = EBMLID(0x83)
    package static let flagLacing = EBMLID(0x9C)
    package static let defaultDuration = EBMLID(0x23_E383)
    package static let maxBlockAdditionID = EBMLID(0x55EE)
    package static let language = EBMLID(0x22_B59C)
    package static let codecID = EBMLID(0x86)
    package static let codecPrivate = EBMLID(0x63A2)
    package static let codecDelay = EBMLID(0x56AA)
    package static let seekPreRoll = EBMLID(0x56BB)
    package static let video = EBMLID(0xE0)
    package static let pixelWidth = EBMLID(0xB0)
    package static let pixelHeight = EBMLID(0xBA)
    package static let displayWidth = EBMLID(0x54B0)
    package static let displayHeight = EBMLID(0x54BA)
    package static let displayUnit = EBMLID(0x54B2)
    package static let alphaMode = EBMLID(0x53C0)
    package static let colour = EBMLID(0x55B0)
    package static let matrixCoefficients = EBMLID(0x55B1)
    package static let bitsPerChannel = EBMLID(0x55B2)
    package static let chromaSubsamplingHorz = EBMLID(0x55B3)
    package static let chromaSubsamplingVert = EBMLID(0x55B4)
    package static let range = EBMLID(0x55B9)
    package static let transferCharacteristics = EBMLID(0x55BA)
    package static let primaries = EBMLID(0x55BB)
    package static let maxCLL = EBMLID(0x55BC)
    package static let maxFALL = EBMLID(0x55BD)
    package static let masteringMetadata = EBMLID(0x55D0)
    package static let primaryRChromaticityX = EBMLID(0x55D1)
    package static let primaryRChromaticityY = EBMLID(0x55D2)
    package static let primaryGChromaticityX = EBMLID(0x55D3)
    package static let primaryGChromaticityY = EBMLID(0x55D4)
    package static let primaryBChromaticityX = EBMLID(0x55D5)
    package static let primaryBChromaticityY = EBMLID(0x55D6)
    package static let whitePointChromaticityX = EBMLID(0x55D7)
    package static let whitePointChromaticityY = EBMLID(0x55D8)
    package static let luminanceMax = EBMLID(0x55D9)
    package static let luminanceMin = EBMLID(0x55DA)
    package static let projection = EBMLID(0x7670)
    package static let projectionType = EBMLID(0x7671)
    package static let projectionPoseRoll = EBMLID(0x7675)
    package static let audio = EBMLID(0xE1)
    package static let samplingFrequency = EBMLID(0xB5)
    package static let channels = EBMLID(0x9F)
    package static let bitDepth = EBMLID(0x6264)

    // Clusters and blocks.
    package static let cluster = EBMLID(0x1F43_B675)
    package static let timestamp = EBMLID(0xE7)
    package static let simpleBlock = EBMLID(0xA3)
    package static let blockGroup = EBMLID(0xA0)
    package static let block = EBMLID(0xA1)
    package static let blockDuration = EBMLID(0x9B)
    package static let referenceBlock = EBMLID(0xFB)
    package static let discardPadding = EBMLID(0x75A2)
    package static let blockAdditions = EBMLID(0x75A1)
    package static let blockMore = EBMLID(0xA6)
    package static let blockAddID = EBMLID(0xEE)
    package static let blockAdditional = EBMLID(0xA5)

    // Cues.
    package static let cues = EBMLID(0x1C53_BB6B)
    package static let cuePoint = EBMLID(0xBB)
    package static let cueTime = EBMLID(0xB3)
    package static let cueTrackPositions = EBMLID(0xB7)
    package static let cueTrack = EBMLID(0xF7)
    package static let cueClusterPosition = EBMLID(0xF1)
    package static let cueRelativePosition = EBMLID(0xF0)

    // Tags.
    package static let tags = EBMLID(0x1254_C367)
    package static let tag = EBMLID(0x7373)
    package static let targets = EBMLID(0x63C0)
    package static let simpleTag = EBMLID(0x67C8)
    package static let tagName = EBMLID(0x45A3)
    package static let tagString = EBMLID(0x4487)
    package static let tagBinary = EBMLID(0x4485)
}
