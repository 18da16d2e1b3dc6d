internal import CLCMS2

/// Little CMS 2, the one place it is called: profiles opened from an image's ICC bytes or built from
/// primaries and a curve, and the transforms between them.
///
/// Every transform has its own `cmsContext` and is made with `cmsFLAGS_NOCACHE`, so one transform is
/// applied from several decode threads at once without a lock (the cache of the last pixel is lcms2's
/// only state a transform changes). lcms2's own messages go to its context's log, which Flipbook does
/// not print: a profile lcms2 refuses becomes a ``LittleCMS/Failure`` that says what in plain words.
enum LittleCMS {
    /// Why a transform could not be made, in words for a warning.
    struct Failure: Error, Sendable {
        let reason: String
    }

    /// A profile as Flipbook describes it before lcms2 makes it.
    enum Profile: Sendable, Hashable {
        /// An ICC profile's bytes, as an image embeds it.
        case icc([UInt8])
        /// An RGB space: D65-or-other white point and primaries (x, y each), and one curve for all three channels.
        case rgb(white: [Double], primaries: [Double], curve: ToneCurve)
    }

    /// The colour of the pixels a transform reads or writes.
    enum PixelLayout: Sendable, Hashable {
        case rgb8, rgba8, bgra8, rgb16, rgba16
        /// Adobe's inverted CMYK (a CMYK JPEG's samples).
        case cmykInverted8
        /// Grey in the first byte of each 3-byte RGB pixel (a grey JPEG decoded to RGB).
        case greyInRGB8

        var lcmsType: cmsUInt32Number {
            switch self {
            case .rgb8: flipbook_lcms_rgb8()
            case .rgba8: flipbook_lcms_rgba8()
            case .bgra8: flipbook_lcms_bgra8()
            case .rgb16: flipbook_lcms_rgb16()
            case .rgba16: flipbook_lcms_rgba16()
            case .cmykInverted8: flipbook_lcms_cmyk8_inverted()
            case .greyInRGB8: flipbook_lcms_grey_in_rgb8()
            }
        }

        var hasAlpha: Bool { self == .rgba8 || self == .bgra8 || self == .rgba16 }

        /// The frame layout of an 8-bit RGB layout.
        var pixelFormat: PixelFormat? {
            switch self {
            case .rgb8: .rgb
            case .rgba8: .rgba
            case .bgra8: .bgra
            default: nil
            }
        }
    }

    /// What an ICC profile describes, as lcms2 reads its header.
    enum ProfileKind: Sendable {
        case rgb, cmyk, grey, other
    }

    /// The kind of `bytes` as a profile lcms2 opens; `nil` when it cannot open it.
    static func kind(ofICCProfile bytes: [UInt8]) -> ProfileKind? {
        guard let context = cmsCreateContext(nil, nil) else { return nil }
        defer { cmsDeleteContext(context) }
        guard
            let profile = bytes.withUnsafeBytes({ cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) })
        else { return nil }
        defer { cmsCloseProfile(profile) }
        switch cmsGetColorSpace(profile) {
        case cmsSigRgbData: return .rgb
        case cmsSigCmykData: return .cmyk
        case cmsSigGrayData: return .grey
        default: return .other
        }
    }

    /// A transform from `source` read as `input` to `destination` written as `output`.
    final class Transform: @unchecked Sendable {
        // Safe to share: made with cmsFLAGS_NOCACHE, so cmsDoTransform changes nothing in it, and the
        // context and transform are freed only in deinit.
        private let context: cmsContext
        private let transform: cmsHTRANSFORM
        let input: PixelLayout
        let output: PixelLayout
        /// The matrix/curve kernel that does the same work faster, when both profiles are matrix/curve
        /// ones for the intent and the pixels are 8-bit RGB kept in their layout.
        let kernel: ColourMatrixKernel?

        /// - Parameter usesKernel: Whether ``kernel`` may be made (off to compare it with lcms2's own).
        /// - Throws: ``Failure`` when a profile cannot be opened or built, does not describe the
        ///   colours `input` holds, or lcms2 cannot join the two.
        init(
            from source: Profile, as input: PixelLayout, to destination: Profile, as output: PixelLayout,
            intent: RenderingIntent, blackPointCompensation: Bool, usesKernel: Bool = true
        ) throws(Failure) {
            guard let context = cmsCreateContext(nil, nil) else {
                throw Failure(reason: "Little CMS could not make a context")
            }
            guard let sourceProfile = Self.open(source, in: context) else {
                cmsDeleteContext(context)
                throw Failure(reason: "Little CMS cannot read the profile")
            }
            defer { cmsCloseProfile(sourceProfile) }
            guard let destinationProfile = Self.open(destination, in: context) else {
                cmsDeleteContext(context)
                throw Failure(reason: "Little CMS cannot build the movie's profile")
            }
            defer { cmsCloseProfile(destinationProfile) }
            let expected: cmsColorSpaceSignature =
                switch input {
                case .cmykInverted8: cmsSigCmykData
                case .greyInRGB8: cmsSigGrayData
                default: cmsSigRgbData
                }
            guard cmsGetColorSpace(sourceProfile) == expected else {
                cmsDeleteContext(context)
                throw Failure(reason: "the profile does not describe the image's colour channels")
            }
            let intentCode = intent.lcmsIntent
            // A profile without tables for the intent asked for falls back to its default, as viewers do.
            let usable = cmsIsIntentSupported(sourceProfile, intentCode, cmsUInt32Number(LCMS_USED_AS_INPUT)) != 0
            var flags = cmsUInt32Number(cmsFLAGS_NOCACHE)
            if blackPointCompensation { flags |= cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION) }
            if input.hasAlpha && output.hasAlpha { flags |= cmsUInt32Number(cmsFLAGS_COPY_ALPHA) }
            guard
                let transform = cmsCreateTransformTHR(
                    context, sourceProfile, input.lcmsType, destinationProfile, output.lcmsType,
                    usable ? intentCode : cmsGetHeaderRenderingIntent(sourceProfile), flags)
            else {
                cmsDeleteContext(context)
                throw Failure(reason: "Little CMS cannot convert from the profile")
            }
            self.context = context
            self.transform = transform
            self.input = input
            self.output = output
            let eightBitRGB: Set<PixelLayout> = [.rgb8, .rgba8, .bgra8]
            kernel =
                usesKernel && input == output && eightBitRGB.contains(input) && intent != .absoluteColorimetric
                ? Self.matrixShaperKernel(from: sourceProfile, to: destinationProfile, intent: intentCode) : nil
        }

        /// The kernel for two matrix/curve profiles (no lookup tables for `intent`), from their colorants
        /// (D50-adapted, so relative colorimetric is the matrix `destination⁻¹ × source`) and curves.
        /// Black-point compensation changes nothing between them: both blacks are zero.
        private static func matrixShaperKernel(
            from source: cmsHPROFILE, to destination: cmsHPROFILE, intent: cmsUInt32Number
        ) -> ColourMatrixKernel? {
            let input = cmsUInt32Number(LCMS_USED_AS_INPUT)
            let output = cmsUInt32Number(LCMS_USED_AS_OUTPUT)
            guard cmsIsMatrixShaper(source) != 0, cmsIsCLUT(source, intent, input) == 0,
                cmsIsMatrixShaper(destination) != 0, cmsIsCLUT(destination, intent, output) == 0,
                let sourceColumns = colorants(of: source), let destinationColumns = colorants(of: destination),
                let inverse = inverted(destinationColumns)
            else { return nil }
            let sourceCurves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].map {
                cmsReadTag(source, $0).map { OpaquePointer($0) }
            }
            guard sourceCurves.allSatisfy({ $0 != nil }),
                let destinationCurve = cmsReadTag(destination, cmsSigRedTRCTag).map({ OpaquePointer($0) }),
                let reversed = cmsReverseToneCurve(destinationCurve)
            else { return nil }
            defer { cmsFreeToneCurve(reversed) }
            let toLinear = sourceCurves.map { curve in
                (0..<256).map { cmsEvalToneCurveFloat(curve, Float($0) / 255) }
            }
            var matrix = [Float](repeating: 0, count: 9)
            for row in 0..<3 {
                for column in 0..<3 {
                    matrix[row * 3 + column] = Float(
                        (0..<3).reduce(0.0) { $0 + inverse[row * 3 + $1] * sourceColumns[$1 * 3 + column] })
                }
            }
            return ColourMatrixKernel(toLinear: toLinear, matrix: matrix) { linear in
                let encoded = Double(cmsEvalToneCurveFloat(reversed, Float(linear)))
                return UInt8(max(0, min(255, (encoded * 255).rounded())))
            }
        }

        /// The matrix whose columns are the profile's red, green and blue colorants (row-major: X, Y, Z rows).
        private static func colorants(of profile: cmsHPROFILE) -> [Double]? {
            var columns: [cmsCIEXYZ] = []
            for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
                guard let value = cmsReadTag(profile, tag) else { return nil }
                columns.append(value.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
            }
            return [
                columns[0].X, columns[1].X, columns[2].X, columns[0].Y, columns[1].Y, columns[2].Y,
                columns[0].Z, columns[1].Z, columns[2].Z,
            ]
        }

        /// The inverse of a row-major 3x3 matrix; `nil` when it is singular.
        private static func inverted(_ m: [Double]) -> [Double]? {
            let determinant =
                m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2]
                * (m[3] * m[7] - m[4] * m[6])
            guard abs(determinant) > 1e-12 else { return nil }
            let cofactors = [
                m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
            ]
            return cofactors.map { $0 / determinant }
        }

        deinit {
            cmsDeleteTransform(transform)
            cmsDeleteContext(context)
        }

        /// Converts `rows` rows of `width` pixels from `source` (rows `sourceRowBytes` apart) into
        /// `destination` (rows `destinationRowBytes` apart).
        func apply(
            _ source: UnsafeRawPointer, sourceRowBytes: Int, into destination: UnsafeMutableRawPointer,
            destinationRowBytes: Int, width: Int, rows: Int
        ) {
            if let kernel, let format = input.pixelFormat {
                kernel.apply(
                    source, sourceRowBytes: sourceRowBytes, into: destination, destinationRowBytes: destinationRowBytes,
                    width: width, rows: rows, format: format)
                return
            }
            cmsDoTransformLineStride(
                transform, source, destination, cmsUInt32Number(width), cmsUInt32Number(rows),
                cmsUInt32Number(sourceRowBytes), cmsUInt32Number(destinationRowBytes), 0, 0)
        }

        private static func open(_ profile: Profile, in context: cmsContext) -> cmsHPROFILE? {
            switch profile {
            case .icc(let bytes):
                return bytes.withUnsafeBytes { cmsOpenProfileFromMemTHR(context, $0.baseAddress, UInt32($0.count)) }
            case .rgb(let white, let primaries, let curve):
                guard white.count == 2, primaries.count == 6 else { return nil }
                var whitePoint = cmsCIExyY(x: white[0], y: white[1], Y: 1)
                var triple = cmsCIExyYTRIPLE(
                    Red: cmsCIExyY(x: primaries[0], y: primaries[1], Y: 1),
                    Green: cmsCIExyY(x: primaries[2], y: primaries[3], Y: 1),
                    Blue: cmsCIExyY(x: primaries[4], y: primaries[5], Y: 1))
                let parameters = curve.parameters
                guard let tone = cmsBuildParametricToneCurve(context, curve.lcmsType, parameters) else { return nil }
                defer { cmsFreeToneCurve(tone) }
                var curves: [OpaquePointer?] = [tone, tone, tone]
                return curves.withUnsafeMutableBufferPointer {
                    cmsCreateRGBProfileTHR(context, &whitePoint, &triple, $0.baseAddress)
                }
            }
        }
    }
}

/// A transfer curve as lcms2's parametric curves state it: a plain power, or sRGB's and BT.709's
/// power with a linear segment near black (lcms2's type 4).
///
/// The parameters are held as plain numbers, not an array: a curve is part of the key of the cached colour plans,
/// which live as long as the process, and an array there would be held only through an enum's case-tagged pointer,
/// which LeakSanitizer cannot follow.
struct ToneCurve: Sendable, Hashable {
    /// lcms2's curve type: 1 (`Y = X^g`) or 4 (`Y = (aX + b)^g` above `d`, `cX` below).
    let lcmsType: Int32
    private let g: Double
    private let a: Double
    private let b: Double
    private let c: Double
    private let d: Double

    private init(lcmsType: Int32, g: Double, a: Double = 0, b: Double = 0, c: Double = 0, d: Double = 0) {
        self.lcmsType = lcmsType
        (self.g, self.a, self.b, self.c, self.d) = (g, a, b, c, d)
    }

    /// The parameters as lcms2 takes them: `g` for type 1; `g, a, b, c, d` for type 4.
    var parameters: [Double] { lcmsType == 1 ? [g] : [g, a, b, c, d] }

    /// `Y = X^gamma`.
    static func power(_ gamma: Double) -> ToneCurve { ToneCurve(lcmsType: 1, g: gamma) }

    /// IEC 61966-2-1 (sRGB, and Display P3's curve).
    static let sRGB = ToneCurve(lcmsType: 4, g: 2.4, a: 1 / 1.055, b: 0.055 / 1.055, c: 1 / 12.92, d: 0.04045)

    /// ITU-R BT.709's (and BT.601's and BT.2020's) opto-electronic curve, inverted.
    static let bt709 = ToneCurve(lcmsType: 4, g: 1 / 0.45, a: 1 / 1.099, b: 0.099 / 1.099, c: 1 / 4.5, d: 0.081)
}

extension RenderingIntent {
    var lcmsIntent: cmsUInt32Number {
        switch self {
        case .perceptual: cmsUInt32Number(INTENT_PERCEPTUAL)
        case .relativeColorimetric: cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC)
        case .saturation: cmsUInt32Number(INTENT_SATURATION)
        case .absoluteColorimetric: cmsUInt32Number(INTENT_ABSOLUTE_COLORIMETRIC)
        }
    }
}
