import MediaModel

/// An HDR programme's static metadata in a visual sample entry, beside its `colr`: `mdcv` and `clli`
/// (ISO/IEC 14496-12's mastering display colour volume and content light level boxes, as HEVC's SEI
/// orders and scales them), or, for VP9 (its ISO-BMFF binding), `SmDm` and `CoLL`.
package enum HDRMetadataBoxes {
    /// Writes the boxes `colour` has metadata for; `vp9` for VP9's own.
    package static func write(_ colour: ColourDescription, vp9: Bool, to writer: inout ByteWriter) {
        if let display = colour.masteringDisplay {
            if vp9 {
                writer.fullBox("SmDm", version: 0, flags: 0) { w in
                    for point in [display.red, display.green, display.blue, display.white] {
                        w.putUInt16(fixed(point.x, fraction: 16))
                        w.putUInt16(fixed(point.y, fraction: 16))
                    }
                    w.putUInt32(UInt32(clamping: Int64((display.maxLuminance * 256).rounded())))
                    w.putUInt32(UInt32(clamping: Int64((display.minLuminance * 16_384).rounded())))
                }
            } else {
                writer.box("mdcv") { w in
                    for point in [display.green, display.blue, display.red] {
                        w.putUInt16(MasteringDisplayColourVolume.fiftyThousandths(point.x))
                        w.putUInt16(MasteringDisplayColourVolume.fiftyThousandths(point.y))
                    }
                    w.putUInt16(MasteringDisplayColourVolume.fiftyThousandths(display.white.x))
                    w.putUInt16(MasteringDisplayColourVolume.fiftyThousandths(display.white.y))
                    w.putUInt32(MasteringDisplayColourVolume.tenThousandths(display.maxLuminance))
                    w.putUInt32(MasteringDisplayColourVolume.tenThousandths(display.minLuminance))
                }
            }
        }
        if let light = colour.contentLight {
            let body: (inout ByteWriter) -> Void = { w in
                w.putUInt16(UInt16(clamping: light.maxCLL))
                w.putUInt16(UInt16(clamping: light.maxFALL))
            }
            if vp9 {
                writer.fullBox("CoLL", version: 0, flags: 0, body)
            } else {
                writer.box("clli", body)
            }
        }
    }

    /// The metadata a sample entry's `mdcv` and `clli` (or `SmDm` and `CoLL`) state, into `colour`.
    static func read(_ entry: Box, in bytes: [UInt8], into colour: inout ColourDescription) throws {
        typealias Point = MasteringDisplayColourVolume.Chromaticity
        if let box = entry.child("mdcv") {
            var r = ByteReader(payloadOf: box, in: bytes)
            var points: [Point] = []
            for _ in 0..<4 {
                let x = Double(try r.readUInt16()) / 50_000
                points.append(Point(x, Double(try r.readUInt16()) / 50_000))
            }
            let most = Double(try r.readUInt32()) / 10_000
            colour.masteringDisplay = MasteringDisplayColourVolume(
                red: points[2], green: points[0], blue: points[1], white: points[3], maxLuminance: most,
                minLuminance: Double(try r.readUInt32()) / 10_000)
        } else if let box = entry.child("SmDm") {
            var r = ByteReader(payloadOf: box, in: bytes)
            _ = try r.readUInt32()
            var points: [Point] = []
            for _ in 0..<4 {
                let x = Double(try r.readUInt16()) / 65_536
                points.append(Point(x, Double(try r.readUInt16()) / 65_536))
            }
            let most = Double(try r.readUInt32()) / 256
            colour.masteringDisplay = MasteringDisplayColourVolume(
                red: points[0], green: points[1], blue: points[2], white: points[3], maxLuminance: most,
                minLuminance: Double(try r.readUInt32()) / 16_384)
        }
        if let box = entry.child("clli") ?? entry.child("CoLL") {
            var r = ByteReader(payloadOf: box, in: bytes)
            if box.type == "CoLL" { _ = try r.readUInt32() }
            let cll = Int(try r.readUInt16())
            colour.contentLight = ContentLightLevel(maxCLL: cll, maxFALL: Int(try r.readUInt16()))
        }
    }

    /// `value` (0...1) in 0.16 fixed point, saturated.
    private static func fixed(_ value: Double, fraction bits: Int) -> UInt16 {
        UInt16(clamping: Int((value * Double(1 << bits)).rounded()))
    }
}
