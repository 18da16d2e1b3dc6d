import Flipbook

/// What a shell may offer after an option: words from the library's tables, file names, or
/// nothing it can guess (a number, a size, a time).
enum OptionValues: Equatable {
    /// One of these words.
    case words([String])
    /// A file name; with extensions, only files that have one of them (and folders to go through).
    case files(extensions: [String])
    /// Nothing to offer: the value is typed.
    case typed

    /// The values of `spec`: from ``known`` by its long name, else the lowercase words of a
    /// placeholder such as `raw|images` or `keep`, else file names for a `FILE` placeholder. A flag has none.
    static func of(_ spec: OptionSpec) -> OptionValues? {
        guard let placeholder = spec.value else { return nil }
        if let values = spec.names.lazy.compactMap({ known[$0] }).first { return values }
        // A placeholder in lowercase is the value itself (`keep`, `raw|images`, the `now` of `ISO8601|now`).
        let words = placeholder.split(separator: "|").map(String.init).filter { $0 == $0.lowercased() }
        if !words.isEmpty { return .words(words) }
        return placeholder == "FILE" ? .files(extensions: []) : .typed
    }

    /// The options whose values come from the library's tables, by one of their names.
    ///
    /// Made when asked for rather than kept in a global: a global would hold `.files` arrays only through
    /// pointers that carry the enum's case in their spare bits, which LeakSanitizer cannot follow.
    static var known: [String: OptionValues] {
        [
            "--output": .files(extensions: MovieContainer.allCases.flatMap(\.fileExtensions)),
            "--codec": .words(VideoCodec.allCases.map(\.name)),
            "--encoder": .words(VideoCodec.allCases.flatMap(\.encoderNames)),
            "--profile": .words(unique(CodecProfile.allCases.map(\.name) + ProResProfile.allCases.map(\.name))),
            "--bit-depth": .words(Array(Set(VideoCodec.allCases.flatMap(\.bitDepths))).sorted().map(String.init)),
            "--preset": .words(EncoderPreset.allCases.map(\.rawValue)),
            "--tune": .words(unique(VideoCodec.allCases.flatMap(\.tunes))),
            "--fit": .words(FitPolicy.allCases.map(\.rawValue)),
            "--colour": .words(ColourStandard.allCases.map(\.rawValue)),
            "--range": .words(ColourRange.allCases.map(\.rawValue)),
            "--view": .words(ViewTransform.Curve.allCases.map(\.rawValue)),
            "--raw-format": .words(PixelFormat.allCases.map(\.rawValue)),
            "--audio-codec": .words(SoundtrackCodec.allCases.map(\.name)),
            "--gaps": .words(GapPolicy.allCases.map(\.rawValue)),
            "--tiff-pages": .words(TIFFPages.allCases.map(\.rawValue)),
            "--rotate": .words(Rotation.allCases.map { String($0.degrees) }),
        ]
    }

    /// The extensions of the images an input may be (folders are offered too).
    static var inputExtensions: [String] { ImageFormat.allFileExtensions.sorted() }

    private static func unique(_ words: [String]) -> [String] {
        var seen = Set<String>()
        return words.filter { seen.insert($0).inserted }
    }
}

/// The tool's subcommands as the generated documents list them, with the options each takes.
enum Subcommands {
    static let all: [(name: String, usage: String, summary: String, table: [OptionSpec])] = [
        ("join", JoinCommand.usage, JoinCommand.summary, JoinCommand.table),
        ("probe", ProbeCommand.usage, ProbeCommand.summary, ProbeCommand.table),
    ]
}
