/// The names ffprobe and ffmpeg use for ITU-T H.273 colour code points.
package enum ColourNames {
    package static func primaries(_ code: UInt16) -> String {
        [
            1: "bt709", 4: "bt470m", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 8: "film", 9: "bt2020",
            10: "smpte428",
            11: "smpte431", 12: "smpte432", 22: "jedec-p22",
        ][code] ?? "unknown"
    }

    package static func transfer(_ code: UInt16) -> String {
        [
            1: "bt709", 4: "gamma22", 5: "gamma28", 6: "smpte170m", 7: "smpte240m", 8: "linear", 11: "iec61966-2-4",
            13: "iec61966-2-1", 14: "bt2020-10", 15: "bt2020-12", 16: "smpte2084", 18: "arib-std-b67",
        ][code] ?? "unknown"
    }

    package static func matrix(_ code: UInt16) -> String {
        [
            0: "gbr", 1: "bt709", 4: "fcc", 5: "bt470bg", 6: "smpte170m", 7: "smpte240m", 8: "ycgco", 9: "bt2020nc",
            10: "bt2020c",
        ][code] ?? "unknown"
    }

    static func profile(_ idc: UInt8, compatibility: UInt8) -> String {
        switch idc {
        case 66: compatibility & 0x40 != 0 ? "Constrained Baseline" : "Baseline"
        case 77: "Main"
        case 88: "Extended"
        case 100: "High"
        case 110: "High 10"
        case 122: "High 4:2:2"
        case 244: "High 4:4:4 Predictive"
        default: "profile \(idc)"
        }
    }
}
