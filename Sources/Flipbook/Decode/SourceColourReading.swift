import Foundation

/// Reading what a file says about its colour from the bytes already in memory for decoding: PNG's
/// colour chunks, a JPEG's APP2 profile, a WebP's `ICCP` chunk. (libtiff and libheif hand over
/// TIFF's and HEIF's while their decoders have the file open.) Every offset is checked: a malformed
/// chunk says nothing, never traps.
extension SourceColour {
    /// The largest ICC profile taken: larger is not a profile anyone embeds.
    static let largestProfile = 16 << 20

    /// What a PNG's `iCCP`, `cICP`, `gAMA`, `cHRM` and `sRGB` chunks say (they come before its image data).
    init(png data: Data) {
        self = data.withUnsafeBytes { SourceColour(png: $0.bindMemory(to: UInt8.self)) }
    }

    private init(png bytes: UnsafeBufferPointer<UInt8>) {
        self.init()
        func read32(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        var position = 8
        while position + 12 <= bytes.count {
            let length = Int(read32(position))
            let body = position + 8
            guard length <= bytes.count - body - 4 else { return }
            let name = String(decoding: bytes[(position + 4)..<body], as: UTF8.self)
            let payload = bytes[body..<body + length]
            switch name {
            case "IDAT", "IEND":
                return
            case "iCCP":
                // A name of 1 to 79 bytes, a NUL, the compression method (0: zlib), the stream.
                if let end = payload.prefix(80).firstIndex(of: 0), end + 2 <= payload.endIndex,
                    payload[end + 1] == 0
                {
                    iccProfile = Deflate.zlibInflate(
                        UnsafeBufferPointer(rebasing: payload[(end + 2)...]), atMost: Self.largestProfile)
                }
            case "cICP" where length == 4:
                codePoints = CodePoints(
                    primaries: Int(payload[body]), transfer: Int(payload[body + 1]), matrix: Int(payload[body + 2]),
                    fullRange: payload[body + 3] != 0)
            case "gAMA" where length == 4:
                let value = read32(body)
                if value > 0 { gamma = Double(value) / 100_000 }
            case "cHRM" where length == 32:
                chromaticities = (0..<8).map { Double(read32(body + 4 * $0)) / 100_000 }
            case "sRGB" where length == 1:
                statesSRGB = true
            default:
                break
            }
            position = body + length + 4
        }
    }

    /// What a JPEG's `ICC_PROFILE` APP2 segments hold.
    init(jpeg data: Data) {
        self.init(iccProfile: data.withUnsafeBytes { ColourProfile.iccProfile(ofJPEG: $0) })
    }

    /// What a WebP's `ICCP` chunk holds (an extended WebP: `VP8X` first, with the ICC flag).
    init(webp data: Data) {
        self = data.withUnsafeBytes { SourceColour(webp: $0.bindMemory(to: UInt8.self)) }
    }

    private init(webp bytes: UnsafeBufferPointer<UInt8>) {
        self.init()
        var position = 12
        while position + 8 <= bytes.count {
            let size =
                Int(bytes[position + 4]) | Int(bytes[position + 5]) << 8 | Int(bytes[position + 6]) << 16
                | Int(bytes[position + 7]) << 24
            let body = position + 8
            guard size <= bytes.count - body else { return }
            switch String(decoding: bytes[position..<position + 4], as: UTF8.self) {
            case "ICCP":
                iccProfile = Array(bytes[body..<body + size])
                return
            case "VP8X":
                break
            default:
                // The profile comes right after VP8X; the image data means there is none.
                return
            }
            position = body + size + (size & 1)
        }
    }
}
