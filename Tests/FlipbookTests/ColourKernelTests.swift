import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// The matrix/curve kernel (`CFlipbookPixels`) against Little CMS's own transform of the same two
/// profiles: every RGB profile Debian's colord-data and icc-profiles-free ship, and those Little CMS
/// builds for Display P3, a gamma of 1.8 and BT.709's curve, into each movie space, within one level
/// on every value of a 33-step grid (35,937 colours) and every grey, in RGB, RGBA and BGRA.
@Suite struct ColourKernelTests {
    static let folders = ["/usr/share/color/icc/colord", "/usr/share/color/icc"]

    static func profiles() throws -> [(name: String, profile: LittleCMS.Profile)] {
        var found: [(String, LittleCMS.Profile)] = []
        for folder in folders {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            where name.hasSuffix(".icc") {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
                if LittleCMS.kind(ofICCProfile: bytes) == .rgb { found.append((name, .icc(bytes))) }
            }
        }
        let d65 = SourceProfile.d65
        found += [
            ("built Display P3", .rgb(white: d65, primaries: SourceProfile.displayP3Primaries, curve: .sRGB)),
            ("built gamma 1.8", .rgb(white: d65, primaries: SourceProfile.sRGBPrimaries, curve: .power(1.8))),
            ("built BT.709 curve", .rgb(white: d65, primaries: SourceProfile.bt2020Primaries, curve: .bt709)),
        ]
        return found
    }

    static func grid(_ format: PixelFormat) -> [UInt8] {
        let steps = (0...32).map { UInt8(min(255, $0 * 8)) }
        var pixels: [UInt8] = []
        func add(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            switch format {
            case .rgb: pixels += [red, green, blue]
            case .rgba: pixels += [red, green, blue, red ^ blue]
            case .bgra: pixels += [blue, green, red, green]
            }
        }
        for red in steps {
            for green in steps {
                for blue in steps { add(red, green, blue) }
            }
        }
        for grey in 0...255 { add(UInt8(grey), UInt8(grey), UInt8(grey)) }
        return pixels
    }

    static func convert(_ transform: LittleCMS.Transform, _ pixels: [UInt8], format: PixelFormat) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixels.count)
        let width = pixels.count / format.bytesPerPixel
        pixels.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { destination in
                transform.apply(
                    source.baseAddress!, sourceRowBytes: pixels.count, into: destination.baseAddress!,
                    destinationRowBytes: pixels.count, width: width, rows: 1)
            }
        }
        return out
    }

    /// Every profile into every movie space in RGB with the relative intent; the first three also in RGBA
    /// and BGRA and with the perceptual intent (the same for matrix profiles, which have no tables for it).
    @Test func theKernelIsWithinOneLevelOfLittleCMSOnEveryMatrixProfile() throws {
        let profiles = try Self.profiles()
        #expect(profiles.count >= 20, "\(profiles.map(\.name))")
        var checked = 0
        let layouts = [(PixelFormat.rgb, LittleCMS.PixelLayout.rgb8), (.rgba, .rgba8), (.bgra, .bgra8)]
        for (index, (name, profile)) in profiles.enumerated() {
            for target in [ColourStandard.bt709, .displayP3, .bt2020] {
                for (format, layout) in index < 3 ? layouts : [layouts[0]] {
                    for intent in index < 3
                        ? [RenderingIntent.relativeColorimetric, .perceptual] : [.relativeColorimetric]
                    {
                        let destination = SourceProfile.destination(target)
                        let fast = try LittleCMS.Transform(
                            from: profile, as: layout, to: destination, as: layout, intent: intent,
                            blackPointCompensation: true)
                        let reference = try LittleCMS.Transform(
                            from: profile, as: layout, to: destination, as: layout, intent: intent,
                            blackPointCompensation: true, usesKernel: false)
                        #expect(reference.kernel == nil)
                        guard fast.kernel != nil else { continue }
                        checked += 1
                        let pixels = Self.grid(format)
                        let ours = Self.convert(fast, pixels, format: format)
                        let theirs = Self.convert(reference, pixels, format: format)
                        let worst = zip(ours, theirs).map { abs(Int($0) - Int($1)) }.max() ?? 0
                        #expect(worst <= 1, "\(name) into \(target) as \(format), \(intent): \(worst) levels apart")
                    }
                }
            }
        }
        // Every profile but the lookup-table ones takes the kernel.
        #expect(checked >= 3 * 20, "\(checked) profile, space, layout and intent combinations took the kernel")
    }

    @Test func absoluteColorimetricAndLookupTableProfilesUseLittleCMS() throws {
        let p3 = LittleCMS.Profile.rgb(
            white: SourceProfile.d65, primaries: SourceProfile.displayP3Primaries, curve: .sRGB)
        let absolute = try LittleCMS.Transform(
            from: p3, as: .rgb8, to: SourceProfile.sRGB, as: .rgb8, intent: .absoluteColorimetric,
            blackPointCompensation: false)
        #expect(absolute.kernel == nil)
        let deep = try LittleCMS.Transform(
            from: p3, as: .rgb16, to: SourceProfile.sRGB, as: .rgb16, intent: .relativeColorimetric,
            blackPointCompensation: true)
        #expect(deep.kernel == nil)
    }
}
