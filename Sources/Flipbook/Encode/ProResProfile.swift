import ISOBMFF

/// The flavour of an Apple ProRes movie: how much data each frame may take, its chroma sampling and
/// whether it can carry alpha. The names follow AVFoundation's `AVVideoCodecType` (`.proRes422HQ`, …).
///
/// | Profile | `--profile` | Sample entry | Pictures | For |
/// |---|---|---|---|---|
/// | ``proRes422Proxy`` | `proxy` | `apco` | 10-bit 4:2:2 | offline editing, the smallest |
/// | ``proRes422LT`` | `lt` | `apcs` | 10-bit 4:2:2 | editing where space counts |
/// | ``proRes422`` | `standard` | `apcn` | 10-bit 4:2:2 | editing |
/// | ``proRes422HQ`` | `hq` | `apch` | 10-bit 4:2:2 | delivery and finishing (the default) |
/// | ``proRes4444`` | `4444` | `ap4h` | 10-bit 4:4:4, alpha | graphics, keys, anything with alpha |
/// | ``proRes4444XQ`` | `4444xq` | `ap4x` | 10-bit 4:4:4, alpha | the highest quality |
public enum ProResProfile: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case proRes422Proxy = "proxy"
    case proRes422LT = "lt"
    case proRes422 = "standard"
    case proRes422HQ = "hq"
    case proRes4444 = "4444"
    case proRes4444XQ = "4444xq"

    /// The profile `--profile` names (`proxy`, `lt`, `standard`, `hq`, `4444`, `4444xq`), compared
    /// case-insensitively; `nil` for another.
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    /// The name `--profile` takes: `proxy`, `lt`, `standard`, `hq`, `4444` or `4444xq`.
    public var name: String { rawValue }
    public var description: String { rawValue }

    /// The name as Apple writes it: `ProRes 422 HQ`, `ProRes 4444 XQ`.
    public var displayName: String {
        switch self {
        case .proRes422Proxy: "ProRes 422 Proxy"
        case .proRes422LT: "ProRes 422 LT"
        case .proRes422: "ProRes 422"
        case .proRes422HQ: "ProRes 422 HQ"
        case .proRes4444: "ProRes 4444"
        case .proRes4444XQ: "ProRes 4444 XQ"
        }
    }

    /// The chroma sampling of the profile's pictures: 4:2:2, or 4:4:4 for 4444 and 4444 XQ.
    public var chromaFormat: ChromaFormat { carriesAlpha ? .yuv444 : .yuv422 }

    /// Whether the profile can carry an alpha channel: 4444 and 4444 XQ.
    public var carriesAlpha: Bool { self == .proRes4444 || self == .proRes4444XQ }

    /// The profile of a movie that keeps alpha or not: HQ, or 4444 with alpha.
    public static func `default`(keepingAlpha: Bool) -> ProResProfile {
        keepingAlpha ? .proRes4444 : .proRes422HQ
    }

    /// The QuickTime sample entry type: `apco`, `apcs`, `apcn`, `apch`, `ap4h`, `ap4x`.
    var sampleEntryType: FourCC {
        switch self {
        case .proRes422Proxy: "apco"
        case .proRes422LT: "apcs"
        case .proRes422: "apcn"
        case .proRes422HQ: "apch"
        case .proRes4444: "ap4h"
        case .proRes4444XQ: "ap4x"
        }
    }

    /// libavcodec's prores_ks profile number, 0 (proxy) to 5 (4444 XQ).
    var encoderProfile: Int32 { Int32(Self.allCases.firstIndex(of: self)!) }

    /// Every profile's name as a person reads a list: `proxy, lt, standard, hq, 4444 or 4444xq`.
    public static var nameList: String { spokenList(allCases.map(\.name), joinedBy: "or") }
}
