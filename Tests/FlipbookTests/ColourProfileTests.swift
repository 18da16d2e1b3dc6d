import FlipbookTestSupport
import Foundation
import Testing

@testable import Flipbook

/// ICC profiles read for their primaries: Debian's real sRGB and Adobe RGB (1998)-compatible
/// profiles (icc-profiles-free), judged by ExifTool's reading of their colorants.
@Suite struct ColourProfileTests {
    static let folder = "/usr/share/color/icc"

    static func profile(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name).icc")))
    }

    /// ExifTool's red, green and blue matrix columns of the profile at `path`.
    static func exiftoolColorants(_ path: String) throws -> [Double] {
        let result = try ExternalTool.run(
            "exiftool", ["-s3", "-RedMatrixColumn", "-GreenMatrixColumn", "-BlueMatrixColumn", path])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    }

    @Test(arguments: [("compatibleWithAdobeRGB1998", "Adobe RGB (1998)"), ("sRGB", nil)])
    func theColorantsAreExifToolsAndNameTheSpace(name: String, space: String?) throws {
        let profile = try Self.profile(name)
        let colorants = try #require(ColourProfile.colorants(of: profile))
        let judged = try Self.exiftoolColorants("\(Self.folder)/\(name).icc")
        #expect(judged.count == 9)
        #expect(zip(colorants, judged).allSatisfy { abs($0 - $1) < 0.0001 }, "\(colorants) against \(judged)")
        #expect(ColourProfile.nonSRGBSpace(ofICCProfile: profile) == space)
    }

    /// A profile split over several APP2 segments, as JPEG writers split those over 64 KB, is put
    /// together in sequence order; a missing chunk means no profile.
    @Test func aProfileInSeveralSegmentsIsPutTogether() throws {
        let profile = try Self.profile("compatibleWithAdobeRGB1998")
        let jpeg = [UInt8](
            try TestJPEG.encode([UInt8](repeating: 90, count: 8 * 8 * 3), width: 8, height: 8, kind: .rgb))
        func segment(_ chunk: ArraySlice<UInt8>, _ sequence: UInt8, of count: UInt8) -> [UInt8] {
            let payload = Array("ICC_PROFILE".utf8) + [0, sequence, count] + chunk
            return [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let half = profile.count / 2
        // The second chunk first: order comes from the sequence numbers, not the file.
        let split = segment(profile[half...], 2, of: 2) + segment(profile[..<half], 1, of: 2)
        let whole = Array(jpeg[..<2]) + split + Array(jpeg[2...])
        #expect(ColourProfile.iccProfile(ofJPEG: whole) == profile)
        let missing = Array(jpeg[..<2]) + segment(profile[..<half], 1, of: 2) + Array(jpeg[2...])
        #expect(ColourProfile.iccProfile(ofJPEG: missing) == nil)
        #expect(ColourProfile.iccProfile(ofJPEG: jpeg) == nil)
    }

    /// Truncated and altered profiles never trap: every truncation, and bytes of the header and tag
    /// table set to a few values.
    @Test func malformedProfilesNeverTrap() throws {
        let profile = try Self.profile("compatibleWithAdobeRGB1998")
        for length in stride(from: 0, to: profile.count, by: 7) {
            _ = ColourProfile.nonSRGBSpace(ofICCProfile: Array(profile.prefix(length)))
        }
        for position in stride(from: 0, to: min(profile.count, 400), by: 3) {
            for value: UInt8 in [0x00, 0x7F, 0x80, 0xFF] {
                var altered = profile
                altered[position] = value
                _ = ColourProfile.nonSRGBSpace(ofICCProfile: altered)
            }
        }
    }
}
