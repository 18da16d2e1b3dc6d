import Flipbook
import Foundation

extension CommandLineOptions {
    /// Parses arguments (without the program name) with the options of `table`: the main command's
    /// by default, or a subcommand's subset of it.
    init(parsing arguments: [String], table: [OptionSpec] = optionTable) throws {
        self.init()
        var index = 0
        var onlyInputs = false
        while index < arguments.count {
            var argument = arguments[index]
            index += 1
            if onlyInputs || argument == "-" || !argument.hasPrefix("-") {
                inputs.append(argument)
                continue
            }
            if argument == "--" {
                onlyInputs = true
                continue
            }
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            guard let spec = table.first(where: { $0.names.contains(argument) }) else {
                throw UsageError(description: "unknown option \(argument); run flipbook --help for the list.")
            }
            var value = ""
            if spec.value != nil {
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(description: "\(argument) needs a value (\(spec.value!)).")
                    }
                    value = arguments[index]
                    index += 1
                }
            } else if inlineValue != nil {
                throw UsageError(description: "\(argument) takes no value.")
            }
            try spec.apply(&self, value)
        }
        if !codecGiven, let output, let container = try? MovieContainer(forOutput: URL(fileURLWithPath: output)) {
            codec = container.defaultCodec
        }
        // An encoder is one of its codec's; --help is shown whatever the combination.
        if let encoderName, !showHelp {
            try UsageError.rephrasing("encoder", as: "--encoder") { codec = try codec.encoded(by: encoderName) }
        }
    }

    /// The view transform the options name: an OpenColorIO config's (`--ocio`, or `$OCIO`) with its
    /// colour space, display and view, or a built-in view.
    func resolvedViewTransform(environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ViewTransform
    {
        var view = viewTransform
        let config = ocioConfig ?? environment["OCIO"].flatMap { $0.isEmpty ? nil : $0 }
        guard let config else {
            for (given, name, kind) in [
                (inputColourspace != nil, "--input-colourspace", "colour space"),
                (ocioDisplay != nil, "--display", "display"),
            ] where given {
                throw UsageError(description: "\(name) names a \(kind) of an OpenColorIO config; add --ocio CONFIG.")
            }
            if let viewName {
                view.curve = try require(
                    ViewTransform.Curve(rawValue: viewName.lowercased()),
                    "--view \(viewName) is not a view; use standard or filmic, or an OpenColorIO config's view with "
                        + "--ocio CONFIG.")
            }
            return view
        }
        view.openColorIO = OpenColorIOView(
            config: config, inputColourspace: inputColourspace, display: ocioDisplay, view: viewName)
        return view
    }

    /// Checks that the options make a command.
    func validate() throws {
        try validateCodecChoices()
        let view = try resolvedViewTransform()
        if let config = view.openColorIO {
            if colourStandard.isHDR {
                throw UsageError(
                    description: "--ocio makes display values for a standard-dynamic-range movie, and this one is "
                        + "--colour \(colourStandard.rawValue); leave out --ocio (and unset OCIO), or use bt709.")
            }
            do {
                _ = try config.resolved()
            } catch let error as FlipbookError {
                throw UsageError(description: error.message + ".")
            }
        }
        guard output != nil else {
            throw UsageError(description: "no output file; add -o movie.mp4.")
        }
        try Self.checkOutputName(output!)
        let container = try MovieContainer(forOutput: URL(fileURLWithPath: output!))
        if container.isAnimatedImage && !codec.containers.contains(container) {
            throw UsageError(
                description: "--codec \(codec.name) does not go in .\(container.fileExtensions[0]) files, which are "
                    + "\(container.defaultCodec.name) only; drop --codec, or name the output "
                    + HelpText.list(codec.containers.flatMap(\.fileExtensions).map { "." + $0 }) + ".")
        }
        try UsageError.rephrasing(codec.name, as: "--codec \(codec.name)") { try codec.checkContainer(container) }
        if container.isAnimatedImage { try validateAnimatedImage(container) }
        try UsageError.rephrasing("a rotation", as: "--rotate \(rotation.degrees)") {
            try container.checkRotation(rotation)
        }
        if let start = timecode.start {
            try UsageError.rephrasing("timecode \(start)", as: "--timecode \(start)") {
                try start.check(at: frameRate)
            }
            if container.isAnimatedImage || fragmented || follow {
                throw UsageError(
                    description: "--timecode goes in progressive .mp4, .mov and .mkv files; "
                        + (container.isAnimatedImage
                            ? "a .\(container.fileExtensions[0]) holds none: leave it out, or name the output .mp4, "
                                + ".mov or .mkv."
                            : "a fragmented or followed movie holds none: leave it out, or drop --fragmented."))
            }
        }
        try validateDeflicker()
        try validateDailies()
        if keepsAlpha {
            try UsageError.rephrasing("", as: "--alpha") {
                try codec.checkAlpha(bitDepth: effectiveBitDepth, in: container)
            }
        }
        if speedup != nil && timingList != "exif" {
            throw UsageError(description: "--speedup is for --timing exif; add it, or leave --speedup out.")
        }
        if timingList != nil && timingList != "exif" {
            guard inputs.isEmpty else {
                throw UsageError(
                    description: "--timing names the images; give no other inputs (\(inputs[0]) was given).")
            }
        } else {
            guard !inputs.isEmpty else {
                throw UsageError(description: "no inputs; give image files or folders, such as frames/.")
            }
        }
        if timingList != nil && (repeatFrames || follow || inputs == ["-"]) {
            throw UsageError(
                description: "--timing makes each image one frame of its own duration; leave out "
                    + (repeatFrames ? "--repeat-frames." : follow ? "--follow." : "standard input (-)."))
        }
        try validateStandardInput()
        if startNumber != nil && !inputs.contains(where: { $0.contains("%") }) && !follow {
            throw UsageError(
                description: "--start-number is for printf pattern inputs such as frame_%04d.png; give one.")
        }
        if segment != nil && fragmented {
            throw UsageError(description: "--segment and --fragmented cannot be used together; pick one.")
        }
        if fragmentDuration != nil && !fragmented && !follow {
            throw UsageError(description: "--fragment-duration applies to fragmented output; add --fragmented.")
        }
        if audio == nil
            && (loopAudio || audioOffset != .zero || audioBitrate != nil || audioCodec != nil || keepAudioRate)
        {
            throw UsageError(
                description:
                    "--audio-offset, --audio-bitrate, --audio-codec, --audio-rate and --loop-audio need a soundtrack; add --audio FILE."
            )
        }
        if let audioCodec, let output, let container = try? MovieContainer(forOutput: URL(fileURLWithPath: output)) {
            do {
                try audioCodec.check(in: container)
            } catch let error as FlipbookError {
                throw UsageError(description: "--audio-codec \(audioCodec.name): \(error.message).")
            }
        }
        if audioCodec?.encodes == false, let audio, let output,
            let container = try? MovieContainer(forOutput: URL(fileURLWithPath: output))
        {
            // A copy the container cannot hold is a usage error before any picture is encoded; a file that
            // cannot be read is reported when the movie is made.
            let soundtrack = Soundtrack(url: URL(fileURLWithPath: audio), offset: audioOffset, loops: loopAudio)
            do {
                try soundtrack.checkCopy(into: container)
            } catch let error as FlipbookError where error.code == .invalidSettings {
                throw UsageError(description: "--audio-codec copy: \(error.path ?? audio) \(error.message).")
            } catch {}
        }
        if keepAudioRate, let audioCodec, let rate = audioCodec.fixedSampleRate {
            let keepers = SoundtrackCodec.allCases.filter { $0.encodes && $0.fixedSampleRate == nil }.map(\.name)
            throw UsageError(
                description: "--audio-rate keep: \(audioCodec.displayName) is always \(HelpText.kilohertz(rate)); "
                    + "use --audio-codec \(HelpText.list(keepers)) to keep the rate.")
        }
        if let audioCodec, audioBitrate != nil, audioCodec.isLossless {
            throw UsageError(
                description: "--audio-bitrate is for lossy sound, and \(audioCodec.displayName) is lossless; drop one.")
        }
        if let audioCodec, audioBitrate != nil, !audioCodec.encodes {
            throw UsageError(
                description:
                    "--audio-bitrate is for encoded sound, and --audio-codec \(audioCodec.name) copies it; drop one.")
        }
        if audio != nil && follow {
            throw UsageError(
                description:
                    "--audio does not go with --follow (a followed movie's length is known only when it ends); "
                    + "add the sound to the finished movie, for example with ffmpeg -i movie.mp4 -i FILE -c copy out.mp4."
            )
        }
        if audio != nil && (segment != nil || inputs == ["-"]) {
            throw UsageError(
                description:
                    "--audio is for a whole movie of image inputs; join segments with flipbook join --audio FILE.")
        }
        try validateFollowing()
        if let size {
            try UsageError.rephrasing("size", as: "--size") {
                try codec.checkSize(width: size.width, height: size.height)
            }
        }
    }

    /// Checks what an animated image (GIF, WebP) cannot have: sound, fragments.
    private func validateAnimatedImage(_ container: MovieContainer) throws {
        let kind = ".\(container.fileExtensions[0])"
        if audio != nil {
            throw UsageError(
                description: "--audio does not go with \(kind) output, which has no sound; name the output "
                    + ".mp4, .mov, .webm or .mkv for a movie with sound.")
        }
        if !metadata.isEmpty {
            throw UsageError(
                description: "--title, --artist, --comment, --creation-time, --location and --metadata are not written "
                    + "in \(kind) files; name the output .mp4, .mov or .mkv to tag it.")
        }
        for (given, name) in [(fragmented, "--fragmented"), (follow, "--follow"), (segment != nil, "--segment")]
        where given {
            throw UsageError(
                description: "\(name) does not go with \(kind) output, which is written whole; name the output .mp4 "
                    + "or .mkv.")
        }
    }

    /// Checks the options that depend on the codec: its quality scale, presets, depth, range, profile and alpha.
    private func validateCodecChoices() throws {
        if !codec.isAnimatedImage {
            let animatedImages = VideoCodec.allCases.filter(\.isAnimatedImage).map(HelpText.outputName)
            for (given, name) in [(quality != nil, "--quality"), (loopCount != nil, "--loop")] where given {
                throw UsageError(
                    description: "\(name) is for \(HelpText.list(animatedImages, joinedBy: "and")) output; a movie's "
                        + "quality is its --crf, and players choose whether to loop it.")
            }
        }
        if codec.isAnimatedImage && quality != nil && !rateOptions.isEmpty {
            throw UsageError(
                description: "--quality and \(rateOptions[0]) cannot be used together; pick one (--target-size "
                    + "searches the quality).")
        }
        if lossless && !codec.encodesLosslessly {
            let losslessCodecs = VideoCodec.allCases.filter(\.encodesLosslessly)
            let movieCodecs = losslessCodecs.filter { !$0.isAnimatedImage }.map(\.name)
            let animatedImages = losslessCodecs.filter(\.isAnimatedImage).map { HelpText.outputName($0) + " output" }
            throw UsageError(
                description: "--lossless is available for \(HelpText.list(movieCodecs + animatedImages)) only.")
        }
        if codec.isAnimatedImage && (crf != nil || preset != nil) {
            throw UsageError(
                description: "\(crf != nil ? "--crf" : "--preset") is for movies; the quality of a "
                    + "\(codec.displayName) is --quality 1-100" + (codec.encodesLosslessly ? " or --lossless." : "."))
        }
        if let crf {
            guard codec.takesCRF else {
                throw UsageError(
                    description: "--crf is not available for \(codec.name); \(codec.qualityNote ?? "it takes none").")
            }
            try UsageError.rephrasing("CRF", as: "--crf") { try codec.checkCRF(crf) }
        }
        if let preset, !codec.takesPreset {
            throw UsageError(
                description: "--preset \(preset.rawValue) is not available for \(codec.name), which has no presets; "
                    + "\(codec.qualityNote ?? "it takes none").")
        }
        if let bitDepth {
            try UsageError.rephrasing("bit depth", as: "--bit-depth") { try codec.checkBitDepth(bitDepth) }
        }
        try UsageError.rephrasing("range", as: "--range") { try codec.checkRange(colourRange) }
        if let depth = colourStandard.bitDepth, effectiveBitDepth != depth {
            let keepers = VideoCodec.allCases.filter { $0.bitDepths.contains(depth) }.map(\.name)
            throw UsageError(
                description: "--colour \(colourStandard.rawValue) is encoded at \(depth) bits; leave out --bit-depth, "
                    + "or use --bit-depth \(depth) with a codec that has it (\(HelpText.list(keepers))).")
        }
        if let profileName {
            if !codec.proResProfiles.isEmpty {
                guard proResProfile != nil else {
                    throw UsageError(
                        description: "--profile \(profileName) is not a ProRes profile; use \(ProResProfile.nameList).")
                }
            } else if let codecProfile {
                try UsageError.rephrasing("profile", as: "--profile") {
                    try codec.checkProfile(codecProfile, bitDepth: effectiveBitDepth)
                }
            } else {
                let names = codec.profiles.map(\.name)
                let takes = "\(codec.name) takes " + (names.isEmpty ? "none" : HelpText.list(names)) + "."
                let proResCodecs = VideoCodec.allCases.filter { !$0.proResProfiles.isEmpty }.map(\.name)
                throw UsageError(
                    description: proResProfile != nil
                        ? "--profile \(profileName) is for --codec \(HelpText.list(proResCodecs)); \(takes)"
                        : "--profile \(profileName) is not a profile of \(codec.name); \(takes)")
            }
        }
        if keepsAlpha && backgroundGiven {
            throw UsageError(
                description: "--background does not go with --alpha: transparency is kept, and the bands around "
                    + "fitted images are transparent; drop one.")
        }
        if keepsAlpha || proResProfile != nil {
            try UsageError.rephrasing("", as: "--alpha") {
                try codec.checkProfile(proResProfile, keepingAlpha: keepsAlpha)
            }
        }
        try validateRateControl()
        try validateEncoderChoices()
    }

    /// Checks that the output's name asks for a kind of file Flipbook writes.
    static func checkOutputName(_ output: String) throws {
        do {
            _ = try MovieContainer(forOutput: URL(fileURLWithPath: output))
        } catch let error as FlipbookError {
            throw UsageError(description: "-o \(output): \(error.message).")
        }
    }

    /// What `-` reads: `--stdin`, or raw frames when only `--raw-size` is given; `nil` without `-`.
    var standardInput: StandardInputContent? {
        guard inputs.contains("-") else { return nil }
        return stdin ?? (rawSize != nil ? .raw : nil)
    }

    /// Checks `-` (standard input) and the options that go with raw frames or images there.
    private func validateStandardInput() throws {
        guard inputs.contains("-") else {
            if rawSize != nil {
                throw UsageError(description: "--raw-size is for raw frames on standard input; give - as the input.")
            }
            if let stdin {
                throw UsageError(description: "--stdin \(stdin.rawValue) is for the input -; give - as the input.")
            }
            return
        }
        guard inputs == ["-"] else {
            throw UsageError(description: "- (standard input) cannot be mixed with other inputs.")
        }
        switch standardInput {
        case nil:
            throw UsageError(
                description: "reading standard input needs --stdin images (whole image files back to back) "
                    + "or --raw-size WxH (raw frames), such as --raw-size 640x360.")
        case .raw:
            guard rawSize != nil else {
                throw UsageError(
                    description: "reading raw frames from standard input needs --raw-size, such as 640x360.")
            }
            if imageDuration != nil {
                throw UsageError(description: "--duration is for image inputs; raw frames are shown at --fps.")
            }
            if skipInvalid {
                throw UsageError(description: "--skip-invalid is for image inputs; raw frames have no files to skip.")
            }
            if segment != nil {
                throw UsageError(
                    description: "--segment is for image inputs; raw frames cannot be sliced ahead of time.")
            }
        case .images:
            if rawSize != nil || rawFormatGiven {
                throw UsageError(
                    description: "\(rawSize != nil ? "--raw-size" : "--raw-format") is for --stdin raw; "
                        + "--stdin images reads whole image files, each with its own size and format.")
            }
            for (given, name, reason) in [
                (segment != nil, "--segment", "cannot be counted and sliced ahead of time"),
                (keepOrder, "--keep-order", "are always taken in the order they come"),
                (tiffPages == .all, "--tiff-pages", "cannot be TIFFs (TIFF has no end marker)"),
            ] where given {
                throw UsageError(description: "\(name) is for image files; images on standard input \(reason).")
            }
        }
    }

    /// Checks `--follow` and the options that go with it.
    private func validateFollowing() throws {
        guard follow else {
            for (given, name) in [(followUntil != nil, "--follow-until"), (followTimeout != nil, "--follow-timeout")]
            where given {
                throw UsageError(description: "\(name) applies to --follow; add --follow.")
            }
            return
        }
        guard inputs.count == 1, inputs != ["-"] else {
            throw UsageError(
                description: "--follow takes one input: a folder or a printf pattern such as frames/frame_%04d.png.")
        }
        for (given, name) in [
            (segment != nil, "--segment"), (keepOrder, "--keep-order"), (skipInvalid, "--skip-invalid"),
        ] where given {
            throw UsageError(description: "--follow and \(name) cannot be used together; pick one.")
        }
    }
}
