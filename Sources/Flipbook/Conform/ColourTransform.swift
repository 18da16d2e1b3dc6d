import Foundation

/// The one place an image's colour is made the movie's: from what its file states (``SourceColour``)
/// to the movie's primaries and transfer (``SourceProfile/destination(_:)``), before the conversion
/// to Y'CbCr.
///
/// An image already in the movie's space (sRGB, or nothing stated, for a BT.709 movie; a profile
/// whose transform changes no value by more than one level) is handed on untouched, so it keeps
/// the fast paths (JPEG and WebP planes straight to Y'CbCr) and the very bytes Flipbook wrote before
/// colour management. Every other image is converted by Little CMS, one transform per distinct
/// profile, cached for the process (``ColourTransforms``). A statement that cannot be used is a
/// warning naming the image, which is then read as sRGB.
struct ColourTransform: Sendable {
    let settings: ColourSettings
    var management: ColourManagement { settings.management }
    var intent: RenderingIntent { settings.intent }
    var target: ColourStandard { settings.target }
    /// Where conversions are counted and warnings kept for the movie's summary.
    let log = ColourConversionLog()

    init(settings: VideoSettings) {
        self.settings = ColourSettings(settings)
    }

    /// `image` in the movie's colour.
    func apply(to image: DecodedImage) -> DecodedImage {
        let colour = image.sourceColour
        guard management == .on else { return colour.pixelsAreCMYK ? Self.naiveCMYK(image) : image }
        let plan = ColourTransforms.shared.plan(for: colour, target: target, intent: intent)
        switch plan {
        case .keep:
            return colour.pixelsAreCMYK ? Self.naiveCMYK(image) : image
        case .unusable(let reason):
            log.warn(image: colour.imageName, reason: reason)
            return colour.pixelsAreCMYK ? Self.naiveCMYK(image) : image
        case .hdr(let conversion):
            log.count(conversion.name)
            return conversion.convert(image, settings: settings)
        case .convert(let source, let kind, let name):
            do {
                let converted = try convert(image, from: source, kind: kind)
                log.count(name)
                return converted
            } catch {
                log.warn(image: colour.imageName, reason: error.reason)
                return colour.pixelsAreCMYK ? Self.naiveCMYK(image) : image
            }
        }
    }

    private func convert(_ image: DecodedImage, from source: LittleCMS.Profile, kind: LittleCMS.ProfileKind)
        throws(LittleCMS.Failure) -> DecodedImage
    {
        let transforms = ColourTransforms.shared
        switch image {
        case .frame(let frame):
            let input: LittleCMS.PixelLayout
            var output: LittleCMS.PixelLayout
            switch (kind, frame.format) {
            case (.cmyk, _) where frame.sourceColour.pixelsAreCMYK: (input, output) = (.cmykInverted8, .rgb8)
            case (.grey, .rgb): (input, output) = (.greyInRGB8, .rgb8)
            case (.rgb, .rgb): (input, output) = (.rgb8, .rgb8)
            case (.rgb, .rgba): (input, output) = (.rgba8, .rgba8)
            case (.rgb, .bgra): (input, output) = (.bgra8, .bgra8)
            default: throw LittleCMS.Failure(reason: "its profile does not describe the image's colour channels")
            }
            let transform = try transforms.transform(
                from: source, as: input, to: target, as: output, intent: intent)
            let format: PixelFormat = output == .rgb8 ? .rgb : frame.format
            let rowBytes = frame.width * format.bytesPerPixel
            let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * frame.height) { out, initialized in
                frame.pixels.withUnsafeBytes { source in
                    transform.apply(
                        source.baseAddress!, sourceRowBytes: frame.bytesPerRow,
                        into: UnsafeMutableRawPointer(out.baseAddress!), destinationRowBytes: rowBytes,
                        width: frame.width, rows: frame.height)
                }
                initialized = rowBytes * frame.height
            }
            guard var result = try? Frame(width: frame.width, height: frame.height, format: format, pixels: pixels)
            else { throw LittleCMS.Failure(reason: "the converted image has no pixels") }
            result.sourceColour = .inMovieSpace
            return .frame(result)
        case .deep(let deep):
            guard kind == .rgb else { throw LittleCMS.Failure(reason: "its profile is not an RGB profile") }
            let layout: LittleCMS.PixelLayout = deep.hasAlpha ? .rgba16 : .rgb16
            let transform = try transforms.transform(from: source, as: layout, to: target, as: layout, intent: intent)
            let channels = deep.hasAlpha ? 4 : 3
            let samples = [UInt16](unsafeUninitializedCapacity: deep.samples.count) { out, initialized in
                deep.samples.withUnsafeBytes { source in
                    transform.apply(
                        source.baseAddress!, sourceRowBytes: deep.width * channels * 2,
                        into: UnsafeMutableRawPointer(out.baseAddress!), destinationRowBytes: deep.width * channels * 2,
                        width: deep.width, rows: deep.height)
                }
                initialized = deep.samples.count
            }
            var result = DeepImage(width: deep.width, height: deep.height, samples: samples, hasAlpha: deep.hasAlpha)
            result.sourceColour = .inMovieSpace
            return .deep(result)
        case .planes:
            // DecodeRequest asks for RGB whenever ``converts(_:)`` says so; planes here are already the movie's.
            return image
        }
    }

    /// A CMYK frame converted the naive way (no profile, or colour management off).
    private static func naiveCMYK(_ image: DecodedImage) -> DecodedImage {
        guard case .frame(let frame) = image, frame.sourceColour.pixelsAreCMYK,
            var result = try? Frame(
                width: frame.width, height: frame.height, format: .rgb, pixels: rgbFromInvertedCMYK(frame.pixels))
        else { return image }
        result.sourceColour = .unstated
        return .frame(result)
    }
}

/// The colour choices of a movie's settings, as a decode request carries them.
package struct ColourSettings: Sendable, Hashable {
    let management: ColourManagement
    let intent: RenderingIntent
    let target: ColourStandard
    /// How scene-linear images become the display-referred pictures converted from there.
    var view: ViewTransform
    /// The nits reference white is shown at in an HDR movie.
    let peakLuminance: Double

    init(_ settings: VideoSettings) {
        management = settings.colourManagement
        intent = settings.renderingIntent
        target = settings.colourStandard
        view = settings.viewTransform
        peakLuminance = settings.peakLuminance
    }

    /// Whether an image stating `colour` is converted (and so is decoded to RGB, not planes).
    func converts(_ colour: SourceColour) -> Bool {
        guard management == .on else { return false }
        return ColourTransforms.shared.plan(for: colour, target: target, intent: intent).converts
    }
}

/// Conversions counted by source space, and warnings about statements that could not be used, for
/// one movie's summary. Shared by the threads that prepare its images.
final class ColourConversionLog: Sendable {
    private struct State {
        var counts: [String: Int] = [:]
        var warnings: [String] = []
        var warnedReasons: Set<String> = []
    }
    private let state = LockedValue(State())

    init() {}

    func count(_ space: String) {
        state.withLock { $0.counts[space, default: 0] += 1 }
    }

    /// Records a warning for the first image whose colour statement fails for `reason`.
    func warn(image: String?, reason: String) {
        state.withLock { state in
            guard state.warnedReasons.insert(reason).inserted else { return }
            state.warnings.append(
                "\(image ?? "an image"): \(reason); it is read as sRGB (images with the same statement are too)")
        }
    }

    var counts: [String: Int] { state.withLock { $0.counts } }
    var warnings: [String] { state.withLock { $0.warnings } }
}

/// A value behind an `NSLock` (seen by the thread sanitizer, unlike `Mutex`'s futex).
final class LockedValue<Value>: @unchecked Sendable {
    // Safe to share: every access to `value` holds `lock`.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
