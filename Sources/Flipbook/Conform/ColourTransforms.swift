/// The process's Little CMS transforms, one per distinct source profile, pixel layout, movie space
/// and intent, made on first use and kept (a few hundred kilobytes each at most; a movie has few
/// distinct profiles). Also what each stated colour means for each movie space: kept as it is,
/// converted, or unusable.
final class ColourTransforms: Sendable {
    static let shared = ColourTransforms()

    /// What happens to an image stating a colour, in a movie of one space.
    enum Plan: Sendable {
        /// The values are the movie's already (within a level), or taken as they are.
        case keep
        case convert(LittleCMS.Profile, kind: LittleCMS.ProfileKind, name: String)
        case unusable(String)
        /// PQ or HLG pictures, made the movie's by their transfer rather than Little CMS.
        case hdr(HDRSourceConversion)

        var converts: Bool {
            switch self {
            case .convert, .hdr: true
            default: false
            }
        }
    }

    private struct PlanKey: Hashable {
        let colour: SourceColour
        let target: ColourStandard
        let intent: RenderingIntent
    }

    private struct TransformKey: Hashable {
        let source: LittleCMS.Profile
        let input: LittleCMS.PixelLayout
        let output: LittleCMS.PixelLayout
        let target: ColourStandard
        let intent: RenderingIntent
    }

    /// Beyond this many entries a table is emptied before the next is added (a sequence of
    /// hundreds of distinct profiles is not one anyone makes, but must not grow without end).
    private static let largestTable = 256

    private let plans = LockedValue([PlanKey: Plan]())
    private let transforms = LockedValue([TransformKey: Result<LittleCMS.Transform, LittleCMS.Failure>]())

    /// What to do with an image stating `colour` in a movie of `target`.
    func plan(for colour: SourceColour, target: ColourStandard, intent: RenderingIntent) -> Plan {
        let key = PlanKey(colour: colour, target: target, intent: intent)
        if let known = plans.withLock({ $0[key] }) { return known }
        let plan = makePlan(for: key.colour, target: target, intent: intent)
        plans.withLock {
            if $0.count >= Self.largestTable { $0.removeAll() }
            $0[key] = plan
        }
        return plan
    }

    private func makePlan(for colour: SourceColour, target: ColourStandard, intent: RenderingIntent) -> Plan {
        if colour == .inMovieSpace { return .keep }
        // Pictures coded with an HDR movie's own transfer in BT.2020 (a render decoded for it, a PQ or HLG
        // PNG) are its values already.
        if target.holdsCodedValues(colour) { return .keep }
        if let conversion = HDRSourceConversion(colour) { return .hdr(conversion) }
        let source: LittleCMS.Profile
        let kind: LittleCMS.ProfileKind
        let name: String
        switch SourceProfile.resolve(colour) {
        case .sRGB:
            guard target.convertsFromSRGB else { return .keep }
            (source, kind, name) = (SourceProfile.sRGB, .rgb, "sRGB")
        case .unusable(let reason):
            return .unusable(reason)
        case .profile(let profile, let profileKind, let profileName):
            (source, kind, name) = (profile, profileKind, profileName)
        }
        if kind == .cmyk {
            // A CMYK profile applies only to CMYK pixels; a decoder that already made them RGB (TIFF) keeps them.
            return colour.pixelsAreCMYK ? .convert(source, kind: kind, name: name) : .keep
        }
        if source == SourceProfile.destination(target) { return .keep }
        let input: LittleCMS.PixelLayout = kind == .grey ? .greyInRGB8 : .rgb8
        do {
            let transform = try self.transform(from: source, as: input, to: target, as: .rgb8, intent: intent)
            return Self.changesValues(transform, grey: kind == .grey) ? .convert(source, kind: kind, name: name) : .keep
        } catch {
            return .unusable(error.reason)
        }
    }

    /// The transform from `source` read as `input` to the movie space `target` written as `output`.
    func transform(
        from source: LittleCMS.Profile, as input: LittleCMS.PixelLayout, to target: ColourStandard,
        as output: LittleCMS.PixelLayout, intent: RenderingIntent
    ) throws(LittleCMS.Failure) -> LittleCMS.Transform {
        let key = TransformKey(source: source, input: input, output: output, target: target, intent: intent)
        if let known = transforms.withLock({ $0[key] }) { return try known.get() }
        let made: Result<LittleCMS.Transform, LittleCMS.Failure>
        do {
            made = .success(
                try LittleCMS.Transform(
                    from: source, as: input, to: SourceProfile.destination(target), as: output, intent: intent,
                    blackPointCompensation: intent != .absoluteColorimetric))
        } catch {
            made = .failure(error)
        }
        transforms.withLock {
            if $0.count >= Self.largestTable { $0.removeAll() }
            $0[key] = made
        }
        return try made.get()
    }

    /// Whether `transform` (8-bit RGB in and out) moves any value of a 17-step grid by more than one level.
    private static func changesValues(_ transform: LittleCMS.Transform, grey: Bool) -> Bool {
        let steps = (0...16).map { UInt8(min(255, $0 * 16)) }
        var grid: [UInt8] = []
        for red in steps {
            for green in steps {
                for blue in steps { grid += [red, green, blue] }
            }
        }
        var result = [UInt8](repeating: 0, count: grid.count)
        let count = grid.count / 3
        grid.withUnsafeBytes { source in
            result.withUnsafeMutableBytes { out in
                transform.apply(
                    source.baseAddress!, sourceRowBytes: grid.count, into: out.baseAddress!,
                    destinationRowBytes: grid.count, width: count, rows: 1)
            }
        }
        for index in 0..<grid.count {
            // A grey profile reads each pixel's first value and writes it to all three.
            let expected = grey ? grid[index - index % 3] : grid[index]
            if abs(Int(result[index]) - Int(expected)) > 1 { return true }
        }
        return false
    }
}

extension ColourStandard {
    /// Whether sRGB images are converted into a movie of this standard (its primaries are not sRGB's).
    var convertsFromSRGB: Bool {
        switch self {
        case .bt709, .bt601: false
        case .displayP3, .bt2020, .pq, .hlg: true
        }
    }
}
