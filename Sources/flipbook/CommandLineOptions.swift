import Flipbook
import Foundation

/// Everything the command line asked for.
struct CommandLineOptions {
    var inputs: [String] = []
    var output: String?
    var frameRate = FrameRate(30)
    var imageDuration: MediaTime?
    /// `--timing`'s list of images and their durations, or `exif`.
    var timingList: String?
    /// `--speedup`: how much faster than it was shot `--timing exif` plays a time-lapse.
    var speedup: MediaTime?
    var repeatFrames = false
    var segment: String?
    var size: FrameSize?
    var fit = FitPolicy.contain
    var background = RGBColour.black
    var backgroundGiven = false
    var colourStandard = ColourStandard.bt709
    var colourRange = ColourRange.limited
    var colourManagement = ColourManagement.on
    var renderingIntent = RenderingIntent.relativeColorimetric
    var viewTransform = ViewTransform.standard
    /// `--view` as given: a built-in view, or an OpenColorIO view when a config is in use.
    var viewName: String?
    var ocioConfig: String?
    var inputColourspace: String?
    var ocioDisplay: String?
    var layer: String?
    var timecode = TimecodeStart.fromImageNumbers
    var burnIns: [BurnIn] = []
    /// `--field`'s values, by key.
    var fields: [String: String] = [:]
    var fontFile: String?
    var slate: SlateLength?
    var timecodeOnSlate = false
    var whiteBalance = WhiteBalance.camera
    var rawPreview = false
    var deflickerAsked = false
    var deflickerWindow: Int?
    var deflickerRegion: PixelRegion?
    var peakLuminance = 203.0
    var masteringDisplay: MasteringDisplay?
    var contentLight: ContentLight?
    /// What `-` reads: `--stdin`, or raw frames when `--raw-size` is given without it.
    var stdin: StandardInputContent?
    var rawSize: FrameSize?
    var rawFormat = PixelFormat.rgba
    var rawFormatGiven = false
    var crf: Double?
    var codec = VideoCodec.h264
    /// Whether `--codec` was given; without it the output's container chooses (VP9 for `.webm`).
    var codecGiven = false
    /// `--encoder`'s name, applied to the codec once it is known.
    var encoderName: String? = nil
    var bitDepth: Int?
    var profileName: String?
    var rateControl = RateControl.constantQuality
    /// The options that set ``rateControl``, in the order given (one at most is allowed).
    var rateOptions: [String] = []
    var twoPass = false
    var maxBitrate: Int?
    var bufferSize: Int?
    var keyframeInterval: KeyframeInterval?
    var bFrames: Int?
    var tune: String?
    var level: CodecLevel?
    var encoderParameters: [EncoderParameter] = []
    var keepsAlpha = false
    /// `--quality`, `--lossless` and `--loop`: an animated image's (GIF, WebP).
    var quality: Int?
    var lossless = false
    var loopCount: Int?
    var preset: EncoderPreset?
    var threads = 0
    var decodeWorkers = 0
    var overwrite = false
    var fragmented = false
    var fragmentDuration: MediaTime?
    var keepOrder = false
    var skipInvalid = false
    var gaps = GapPolicy.warn
    var startNumber: Int?
    var tiffPages = TIFFPages.first
    var follow = false
    var followUntil: Int?
    var followTimeout: Duration?
    var imageLimits = ImageLimits()
    var audio: String?
    var audioOffset = MediaTime.zero
    var loopAudio = false
    var audioBitrate: Int?
    var audioCodec: SoundtrackCodec?
    var keepAudioRate = false
    var metadata = MovieMetadata()
    var rotation = Rotation.upright
    var quiet = false
    var json = false
    var showHelp = false
    var showVersion = false
}

/// What the input `-` reads from standard input.
enum StandardInputContent: String {
    /// Raw frames of `--raw-size`, one after another.
    case raw
    /// Whole image files back to back (`cat *.png | flipbook - --stdin images`).
    case images
}

/// A command-line mistake: said on one line, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String

    /// Runs one of the library's checks of a setting the tool took from an option, and turns its
    /// error into a usage error in the same words, with the option as the subject: the library's
    /// "CRF 52 is out of range for h264; …" becomes "--crf 52 is out of range for h264; …".
    static func rephrasing(_ subject: String, as option: String, _ check: () throws -> Void) throws {
        do {
            try check()
        } catch let error as FlipbookError {
            let message =
                error.message.hasPrefix(subject + " ")
                ? option + error.message.dropFirst(subject.count) : "\(option): \(error.message)"
            throw UsageError(description: message + ".")
        }
    }
}

/// One option: its spellings, its value's placeholder (nil for a flag), one sentence of help, and
/// what it does to the options.
struct OptionSpec: Sendable {
    let names: [String]
    let value: String?
    let help: String
    let apply: @Sendable (inout CommandLineOptions, String) throws -> Void
}

/// The parsed value, or a usage error saying what was expected when `text` did not parse.
func require<Value>(_ value: Value?, _ message: @autoclosure () -> String) throws -> Value {
    guard let value else { throw UsageError(description: message()) }
    return value
}

/// A name given to an option, or a usage error saying `message` when it is empty.
func named(_ text: String, _ message: @autoclosure () -> String) throws -> String {
    try require(text.isEmpty ? nil : text, message())
}

/// A thread or worker count: 0 (automatic) to 128.
func automaticOrCount(_ text: String, option: String) throws -> Int {
    try require(
        Int(text).flatMap { VideoSettings.threadRange.contains($0) ? $0 : nil },
        "\(option) \(text) is out of range; \(VideoSettings.threadRangeAdvice).")
}

/// The table every option lives in; `--help` is printed from it.
let optionTable: [OptionSpec] =
    [
        OptionSpec(
            names: ["-o", "--output"], value: "FILE",
            help: "The movie to write: \(MovieContainer.extensionList) (required)."
        ) {
            $0.output = $1
        },
        OptionSpec(
            names: ["--fps"], value: "RATE",
            help:
                "Frames per second: 30, 25, 12.5, 30000/1001, or 29.97 and 23.976 for the exact NTSC rates (default 30)."
        ) { options, text in
            options.frameRate = try require(
                FrameRate(parsing: text),
                "--fps \(text) is not a frame rate; use a number such as 30, 29.97 or 30000/1001."
            )
        },
        OptionSpec(
            names: ["--duration"], value: "SECONDS",
            help: "Seconds each image stays on screen, such as 2 or 0.5, for a slideshow (default: one frame at --fps)."
        ) { options, text in
            guard let duration = MediaTime(parsingSeconds: text), duration > .zero else {
                throw UsageError(description: "--duration \(text) is not a time; use seconds such as 2, 0.5 or 1/3.")
            }
            options.imageDuration = duration
        },
        OptionSpec(
            names: ["--timing"], value: "FILE",
            help:
                "The images and how long each stays on screen, from a list: ffmpeg's concat list (file 'a.png' "
                + "then duration 2.5), CSV (a.png,2.5) or JSON ([{\"file\": \"a.png\", \"duration\": 2.5}]); "
                + "names from the list's folder, durations exact; an image without one lasts --duration (or one frame). "
                + "exif times the images given by when each photo was taken (EXIF DateTimeOriginal), sped up by --speedup."
        ) { options, text in
            options.timingList = try named(text, "--timing needs a list file, or exif.")
        },
        OptionSpec(
            names: ["--speedup"], value: "N",
            help:
                "With --timing exif, how many times faster than it was shot the movie plays, such as 600 (ten minutes "
                + "of shooting a second; default 1)."
        ) { options, text in
            guard let speedup = MediaTime(parsingSeconds: text), speedup > .zero else {
                throw UsageError(description: "--speedup \(text) is not a positive number such as 600 or 2.5.")
            }
            options.speedup = speedup
        },
        OptionSpec(
            names: ["--repeat-frames"], value: nil,
            help:
                "Encode at a constant --fps for players that need one: each image (with --duration) or animation "
                + "frame repeated, or left out, to keep its time."
        ) { options, _ in options.repeatFrames = true },
        OptionSpec(
            names: ["--size"], value: "WxH",
            help:
                "The movie's size in pixels, even numbers such as 1280x720 (default: the first image's size, rounded up to even;"
                + " past what many players decode, such as a camera's 6000x4000, a warning names a smaller size)."
        ) { options, text in
            options.size = try require(
                FrameSize(parsing: text), "--size \(text) is not a size; use WIDTHxHEIGHT, such as 1280x720.")
        },
        OptionSpec(
            names: ["--fit"], value: "POLICY",
            help:
                "How images of another shape fit the size: contain (letterbox on the background), cover (fill and crop) or stretch (default contain)."
        ) { options, text in
            options.fit = try require(
                FitPolicy(rawValue: text.lowercased()),
                "--fit \(text) is not a fit policy; use contain, cover or stretch.")
        },
        OptionSpec(
            names: ["--background"], value: "COLOR",
            help:
                "The colour of letterbox bands and behind transparency: a name such as white or gray, or #RRGGBB (default black)."
        ) { options, text in
            options.background = try require(
                RGBColour(parsing: text),
                "--background \(text) is not a colour; use a name such as black, white or gray, or #RRGGBB.")
            options.backgroundGiven = true
        },
        OptionSpec(
            names: ["--colour", "--color"], value: "STANDARD",
            help:
                "The colour space images are converted into and the movie is tagged as: bt709 (HD), bt601 (SD), "
                + "p3 (Display P3 primaries, BT.709 matrix), bt2020 (BT.2020 primaries and matrix, 10-bit), "
                + "pq (HDR10: BT.2020 with SMPTE ST 2084, 10-bit) or hlg (BT.2100 hybrid log-gamma, 10-bit) "
                + "(default bt709)."
        ) { options, text in
            options.colourStandard = try require(
                ColourStandard(rawValue: text.lowercased()),
                "--colour \(text) is not a colour standard; use bt709, bt601, p3, bt2020, pq or hlg.")
        },
        OptionSpec(
            names: ["--peak"], value: "NITS",
            help:
                "The nits white is shown at in a pq or hlg movie: display white of an image, scene 1.0 of a "
                + "render (default 203, BT.2408's reference white)."
        ) { options, text in
            options.peakLuminance = try require(
                Double(text).flatMap { VideoSettings.peakLuminanceRange.contains($0) ? $0 : nil },
                "--peak \(text) is not a luminance from 1 to 10000 nits.")
        },
        OptionSpec(
            names: ["--colour-management", "--color-management"], value: "on|off",
            help:
                "Whether images are converted from the colour their files state (ICC profiles, PNG cICP, sRGB, gAMA "
                + "and cHRM, HEIF nclx) into the movie's, or their values taken as they are (default on)."
        ) { options, text in
            options.colourManagement = try require(
                ColourManagement(rawValue: text.lowercased()),
                "--colour-management \(text) is not a choice; use on or off.")
        },
        OptionSpec(
            names: ["--intent"], value: "INTENT",
            help:
                "How colours outside the movie's gamut are brought in: relative (colorimetric, with black-point "
                + "compensation), perceptual, saturation or absolute (colorimetric) (default relative)."
        ) { options, text in
            options.renderingIntent = try require(
                RenderingIntent(rawValue: text.lowercased()),
                "--intent \(text) is not a rendering intent; use relative, perceptual, saturation or absolute.")
        },
        OptionSpec(
            names: ["--view"], value: "VIEW",
            help:
                "How scene-linear images (OpenEXR, log DPX and Cineon) are shown: standard (scene 1.0 is display "
                + "white, clipped, encoded with the sRGB curve) or filmic (Hable's filmic curve: highlights rolled "
                + "off to white at 11.2 times scene white); with an OpenColorIO config, one of its display's views "
                + "(default standard, or the display's default view)."
        ) { options, text in
            options.viewName = try named(text, "--view needs a view's name.")
        },
        OptionSpec(
            names: ["--ocio"], value: "CONFIG",
            help:
                "An OpenColorIO config (.ocio file) whose display transform shows scene-linear images "
                + "(default: the OCIO environment variable, as OpenColorIO's own tools read it)."
        ) { options, text in
            options.ocioConfig = try named(text, "--ocio needs a config file.")
        },
        OptionSpec(
            names: ["--input-colourspace", "--input-colorspace"], value: "NAME",
            help: "The OpenColorIO colour space scene-linear images are in (default: the config's scene_linear role)."
        ) { options, text in
            options.inputColourspace = try named(text, "--input-colourspace needs a name.")
        },
        OptionSpec(
            names: ["--display"], value: "NAME",
            help: "The OpenColorIO display the movie is made for (default: the config's default display)."
        ) { options, text in
            options.ocioDisplay = try named(text, "--display needs a name.")
        },
        OptionSpec(
            names: ["--exposure"], value: "EV",
            help:
                "Stops of exposure for scene-linear images (OpenEXR, camera raw, log DPX) before the view: +1 doubles the light (default 0)."
        ) { options, text in
            options.viewTransform.exposure = try require(
                Double(text).flatMap { $0.isFinite && abs($0) <= 32 ? $0 : nil },
                "--exposure \(text) is not a number of stops from -32 to 32.")
        },
        OptionSpec(
            names: ["--mastering-display"], value: "DISPLAY",
            help:
                "The display a pq or hlg movie was mastered on, written as its HDR metadata: P3-D65 or BT2020 "
                + "(1000 to 0.0001 nits), either followed by L(max,min), or G(x,y)B(x,y)R(x,y)WP(x,y)L(max,min) "
                + "in plain chromaticities and nits (default none)."
        ) { options, text in
            options.masteringDisplay = try require(
                MasteringDisplay(parsing: text),
                "--mastering-display \(text) is not a display; use P3-D65, BT2020, P3-D65L(4000,0.005) or "
                    + "G(0.265,0.69)B(0.15,0.06)R(0.68,0.32)WP(0.3127,0.329)L(1000,0.0001).")
        },
        OptionSpec(
            names: ["--max-cll"], value: "CLL,FALL",
            help:
                "A pq movie's MaxCLL and MaxFALL in nits, written as given (default: measured from the pictures, "
                + "written where the container is described at the end)."
        ) { options, text in
            options.contentLight = try require(
                ContentLight(parsing: text),
                "--max-cll \(text) is not CLL,FALL in nits (0 to 65535, FALL no more than CLL), such as 1000,400.")
        },
        OptionSpec(
            names: ["--layer"], value: "NAME",
            help:
                "The layer or part of multi-layer OpenEXR files to show, such as ViewLayer.Combined or rgba_left "
                + "(default: the first part's R, G, B, else a Combined layer, else the first picture); a file "
                + "without it is refused with the names it has."
        ) { options, text in
            options.layer = try named(text, "--layer needs a layer or part name.")
        },
        OptionSpec(
            names: ["--timecode"], value: "TIMECODE",
            help:
                "The first frame's timecode: HH:MM:SS:FF (HH:MM:SS;FF drop-frame, at 29.97 or 59.94 fps), "
                + "from-frame (the first image's number as a frame count: frame 1001 at 24 fps is 00:00:41:17) "
                + "or none (default from-frame for numbered images). A timecode track (tmcd) in .mp4 and .mov, "
                + "a TIMECODE tag in .mkv; none in fragmented movies, GIF or WebP."
        ) { options, text in
            switch text {
            case "none": options.timecode = .none
            case "from-frame": options.timecode = .fromImageNumbers
            default: options.timecode = .at(try Timecode(parsing: text))
            }
        },
        OptionSpec(
            names: ["--range"], value: "RANGE",
            help:
                "The range of the video's code values: limited (16-235, what players expect) or full (0-255) (default limited)."
        ) { options, text in
            options.colourRange = try require(
                ColourRange(rawValue: text.lowercased()), "--range \(text) is not a range; use limited or full.")
        },
        OptionSpec(
            names: ["--stdin"], value: "raw|images",
            help: "What the input - reads from standard input: raw (frames of --raw-size; the default with "
                + "--raw-size) or images (whole \(ImageStream.formatList) files back to back, as cat *.png sends "
                + "them; TIFF has no end marker, so it is refused there)."
        ) { options, text in
            options.stdin = try require(
                StandardInputContent(rawValue: text.lowercased()), "--stdin \(text) is not a choice; use raw or images."
            )
        },
        OptionSpec(
            names: ["--raw-size"], value: "WxH",
            help:
                "The size in pixels of the raw frames read from standard input when the input is - (required for raw frames, and implies --stdin raw)."
        ) { options, text in
            options.rawSize = try require(
                FrameSize(parsing: text), "--raw-size \(text) is not a size; use WIDTHxHEIGHT, such as 640x360.")
        },
        OptionSpec(
            names: ["--raw-format"], value: "FORMAT",
            help:
                "The byte order of each raw pixel on standard input: rgba, bgra or rgb, 8 bits a channel (default rgba)."
        ) { options, text in
            options.rawFormat = try require(
                PixelFormat(rawValue: text.lowercased()),
                "--raw-format \(text) is not a pixel format; use rgba, bgra or rgb.")
            options.rawFormatGiven = true
        },
        OptionSpec(
            names: ["--audio"], value: "FILE",
            help:
                "A soundtrack: any sound file FFmpeg reads; AAC (.m4a, or ADTS .aac), MP3 and Opus (and Vorbis into .webm and .mkv, AC-3 into .mkv) copied as they are, anything else (WAV, FLAC, AIFF, ALAC, Vorbis, AC-3, WMA ...) encoded to AAC-LC, or Opus for .webm; cut to the pictures' length, silent after a shorter one ends (default none)."
        ) { options, text in options.audio = text },
        OptionSpec(
            names: ["--audio-offset"], value: "SECONDS",
            help:
                "Start the soundtrack this many seconds later, or skip its beginning when negative, such as -1.5 (default 0)."
        ) { options, text in
            let negative = text.hasPrefix("-")
            guard let time = MediaTime(parsingSeconds: negative ? String(text.dropFirst()) : text) else {
                throw UsageError(
                    description: "--audio-offset \(text) is not a time; use seconds such as 2, -1.5 or 1/3.")
            }
            options.audioOffset = negative ? MediaTime(value: -time.value, timescale: time.timescale) : time
        },
        OptionSpec(
            names: ["--audio-bitrate"], value: "RATE",
            help:
                "The bit rate of encoded sound, in kb/s such as 128k or 192 (default 80k a channel for AAC: 160k stereo; 64k a channel for Opus)."
        ) { options, text in
            let digits = text.lowercased().hasSuffix("k") ? String(text.dropLast()) : text
            options.audioBitrate = try require(
                Int(digits).flatMap { (16...512).contains($0) ? $0 * 1000 : nil },
                "--audio-bitrate \(text) is out of range; use 16k to 512k.")
        },
        OptionSpec(
            names: ["--audio-codec"], value: "NAME",
            help:
                "Copy the soundtrack's packets or encode them: copy (AAC, MP3, Opus and ALAC into .mp4, .m4v, .mov and .mkv, Opus and Vorbis into .webm, FLAC, Vorbis, AC-3 and E-AC-3 into .mkv), aac (AAC-LC; not .webm), opus (Opus at 48 kHz; .mp4, .webm and .mkv) or alac (Apple Lossless, 16 or 24 bits as the source; not .webm) (default: copy where the container holds the sound, otherwise aac, or opus for .webm)."
        ) { options, text in
            options.audioCodec = try require(
                SoundtrackCodec(rawValue: text.lowercased()),
                "--audio-codec \(text) is not a sound codec; use "
                    + SoundtrackCodec.allCases.map(\.name).joined(separator: ", ") + ".")
        },
        OptionSpec(
            names: ["--audio-rate"], value: "keep",
            help:
                "Keep encoded sound's rate above 48 kHz (88.2, 96, 192 kHz): aac up to 96 kHz, alac up to 384 kHz; opus is always 48 kHz (default: such sound is resampled to 48 kHz; copied sound keeps its rate)."
        ) { options, text in
            guard text.lowercased() == "keep" else {
                throw UsageError(
                    description:
                        "--audio-rate \(text) is not a choice; use keep (without it, sound above 48 kHz is resampled to 48 kHz)."
                )
            }
            options.keepAudioRate = true
        },
        OptionSpec(
            names: ["--loop-audio"], value: nil,
            help: "Repeat a soundtrack shorter than the movie until the movie ends (default: silence after it)."
        ) { options, _ in options.loopAudio = true },
        OptionSpec(
            names: ["--codec"], value: "NAME",
            help: "The video codec: "
                + HelpText.list(VideoCodec.allCases.map { "\($0.name) (\($0.encoderName), \($0.strength))" })
                + " (default \(VideoCodec.h264.name); \(MovieContainer.webm.defaultCodec.name) for .webm; gif and webp "
                + "for .gif and .webp, the only codecs those take)."
        ) { options, text in
            options.codec = try require(
                VideoCodec(name: text), "--codec \(text) is not a codec; use \(VideoCodec.nameList).")
            options.codecGiven = true
        },
        OptionSpec(
            names: ["--encoder"], value: "NAME",
            help: "The encoder of a codec that has more than one: "
                + HelpText.list(
                    VideoCodec.allCases.filter { $0.encoderNames.count > 1 }.map {
                        "\($0.name) \(HelpText.list($0.encoderNames))"
                    }) + " (default the first)."
        ) { options, text in
            options.encoderName = text
        },
        OptionSpec(
            names: ["--profile"], value: "NAME",
            help: "The profile: for h264 baseline, main, high or high10; hevc main or main10; av1 main (default by "
                + "--bit-depth); for prores "
                + HelpText.list(ProResProfile.allCases.map { "\($0.name) (\($0.displayName))" })
                + " (default hq, or 4444 with --alpha): proxy and lt for offline editing, hq for delivery, 4444 for graphics and alpha."
        ) { options, text in
            options.profileName = text.lowercased()
        },
        OptionSpec(
            names: ["--alpha"], value: nil,
            help:
                "Keep the images' transparency as the movie's alpha channel instead of compositing over --background: "
                + "vp9 (8-bit, in .webm and .mkv) and prores with profile 4444 or 4444xq; the bands around fitted images "
                + "are transparent (default: composite); in .gif 1-bit (pixels under half opacity transparent), in .webp whole."
        ) { options, _ in options.keepsAlpha = true },
        OptionSpec(
            names: ["--quality"], value: "N",
            help: "The quality of a .gif or .webp, 1 (smallest) to 100 (best) (default 90): the GIF's palettes "
                + "(libimagequant), the WebP's lossy coding."
        ) { options, text in
            options.quality = try require(
                Int(text).flatMap { (1...100).contains($0) ? $0 : nil },
                "--quality \(text) is out of range; use 1 (smallest) to 100 (best).")
        },
        OptionSpec(
            names: ["--lossless"], value: nil,
            help: "Code a .webp losslessly (larger, every pixel exact; a GIF has at most 256 colours a frame)."
        ) { options, _ in options.lossless = true },
        OptionSpec(
            names: ["--loop"], value: "N",
            help: "How many times a .gif or .webp plays: 0 for ever (default), or 1 to 65535."
        ) { options, text in
            options.loopCount = try require(
                Int(text).flatMap { (0...65535).contains($0) ? $0 : nil },
                "--loop \(text) is out of range; use 0 (for ever) or a count of 1 to 65535.")
        },
        OptionSpec(
            names: ["--crf"], value: "N",
            help: "Quality as a constant rate factor on the codec's scale, lower is better: "
                + VideoCodec.allCases.filter(\.takesCRF).map { codec in
                    "\(codec.name) \(HelpText.range(codec.crfRange)) (default \(HelpText.number(codec.defaultCRF))"
                        + (codec.crfNote.map { ", \($0)" } ?? "") + ")"
                }.joined(separator: ", ") + "."
        ) { options, text in
            options.crf = try require(
                Double(text).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil },
                "--crf \(text) is not a number; use one on the codec's scale: "
                    + VideoCodec.allCases.filter(\.takesCRF).map { "\($0.name) \(HelpText.range($0.crfRange))" }
                    .joined(separator: ", ") + ".")
        },
    ] + rateControlOptionTable + [
        OptionSpec(
            names: ["--bit-depth"], value: "N",
            help:
                "Bits per sample of the movie: 8 (default) or 10 (H.264 High 10, HEVC Main 10, AV1 Main, VP9 profile 2); ProRes is always 10."
        ) { options, text in
            let depths = Array(Set(VideoCodec.allCases.flatMap(\.bitDepths))).sorted()
            options.bitDepth = try require(
                Int(text).flatMap { depths.contains($0) ? $0 : nil },
                "--bit-depth \(text) is not available; use \(HelpText.list(depths.map(String.init))).")
        },
        OptionSpec(
            names: ["--preset"], value: "NAME",
            help: "Encoder speed: "
                + EncoderPreset.allCases.filter { $0 != .placebo }.map(\.rawValue).joined(separator: ", ")
                + " (default medium)" + VideoCodec.allCases.compactMap(\.presetNote).map { "; \($0)" }.joined() + "."
        ) { options, text in
            guard let preset = EncoderPreset(rawValue: text.lowercased()) else {
                let names = EncoderPreset.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError(description: "--preset \(text) is not a preset; use one of \(names).")
            }
            options.preset = preset
        },
        OptionSpec(
            names: ["--threads"], value: "N",
            help:
                "Encoder threads (default 0: chosen from the cores)."
        ) { options, text in options.threads = try automaticOrCount(text, option: "--threads") },
        OptionSpec(
            names: ["--decode-workers"], value: "N",
            help:
                "Images decoded at once ahead of the encoder (default 0: one more than the cores, at least three; for prores one for every four cores)."
        ) { options, text in options.decodeWorkers = try automaticOrCount(text, option: "--decode-workers") },
        OptionSpec(
            names: ["--segment"], value: "K/N",
            help:
                "Encode only the K-th of N equal slices, for joining later with flipbook join; K may be auto (see --help)."
        ) { options, text in options.segment = text },
        OptionSpec(
            names: ["--overwrite"], value: nil,
            help:
                "Replace the output file if it exists, keeping its permissions, owner, group and extended attributes; a link is written through to its target (default: refuse)."
        ) {
            options, _ in options.overwrite = true
        },
        OptionSpec(
            names: ["--fragmented"], value: nil,
            help:
                "Write a fragmented movie, saved to disk fragment by fragment, so a crash keeps every finished fragment (default: index first)."
        ) { options, _ in options.fragmented = true },
        OptionSpec(
            names: ["--fragment-duration"], value: "SECONDS",
            help: "The length of a fragment with --fragmented, in seconds, cut at the next keyframe (default 1)."
        ) { options, text in
            guard let time = MediaTime(parsingSeconds: text), time.value > 0,
                time <= MediaTime(value: 3600, timescale: 1)
            else {
                throw UsageError(
                    description:
                        "--fragment-duration \(text) is not a length; use seconds above 0 and up to 3600, such as 2.")
            }
            options.fragmentDuration = time
        },
        OptionSpec(
            names: ["--skip-invalid"], value: nil,
            help:
                "Leave out images that cannot be read or decoded, with a warning, instead of failing; the frame before a skipped image is shown for its time."
        ) { options, _ in options.skipInvalid = true },
        OptionSpec(
            names: ["--max-image-side"], value: "PIXELS",
            help: "Refuse images wider or taller than this, before decoding them (default 16384)."
        ) { options, text in
            guard let side = Int(text), side > 0 else {
                throw UsageError(
                    description: "--max-image-side \(text) is not a size; use a number of pixels such as 8192.")
            }
            options.imageLimits.maxDimension = side
        },
        OptionSpec(
            names: ["--max-image-pixels"], value: "COUNT",
            help:
                "Refuse images with more pixels than this, before decoding them: a number, or WxH such as 8192x8192 (default 268435456, 16384x16384)."
        ) { options, text in
            let product = FrameSize(parsing: text).map { $0.width.multipliedReportingOverflow(by: $0.height) }
            guard let pixels = product.map({ $0.overflow ? Int.max : $0.partialValue }) ?? Int(text), pixels > 0 else {
                throw UsageError(
                    description:
                        "--max-image-pixels \(text) is not a pixel count; use a number or WxH, such as 8192x8192.")
            }
            options.imageLimits.maxPixels = pixels
        },
        OptionSpec(
            names: ["--gaps"], value: "POLICY",
            help:
                "Numbers missing from numbered images (f1.png, f2.png ...): warn (name them), hold (keep time by the numbers, holding the image before a gap) or fail (default warn)."
        ) { options, text in
            options.gaps = try require(
                GapPolicy(rawValue: text.lowercased()), "--gaps \(text) is not a gap policy; use warn, hold or fail.")
        },
        OptionSpec(
            names: ["--start-number"], value: "N",
            help: "The first number a printf pattern input such as frame_%04d.png takes (default: the lowest present)."
        ) { options, text in
            options.startNumber = try require(
                Int(text).flatMap { $0 >= 0 ? $0 : nil }, "--start-number \(text) is not a number; use 0 or more.")
        },
        OptionSpec(
            names: ["--tiff-pages"], value: "WHICH",
            help: "Which pages of a multi-page TIFF become frames: first (default) or all (a stack, in page order)."
        ) { options, text in
            options.tiffPages = try require(
                TIFFPages(rawValue: text.lowercased()), "--tiff-pages \(text) is not a choice; use first or all.")
        },
        OptionSpec(
            names: ["--follow"], value: nil,
            help:
                "Follow a folder or printf pattern a renderer is still writing: take each image once it is closed, in number order, into a fragmented movie that plays at any moment; Ctrl-C finishes the movie with the images taken."
        ) { options, _ in options.follow = true },
        OptionSpec(
            names: ["--follow-until"], value: "N",
            help:
                "With --follow, the number of the last image: end once it is taken (default: end on --follow-timeout)."
        ) { options, text in
            options.followUntil = try require(
                Int(text).flatMap { $0 >= 0 ? $0 : nil }, "--follow-until \(text) is not a number; use 0 or more.")
        },
        OptionSpec(
            names: ["--follow-timeout"], value: "SECONDS",
            help:
                "With --follow, end when no new image has come for this many seconds; a missing number is given up on (see --gaps) once a later one has come and it has not within this time (default 60)."
        ) { options, text in
            guard let time = MediaTime(parsingSeconds: text), time.value > 0,
                time <= MediaTime(value: 86400, timescale: 1)
            else {
                throw UsageError(
                    description:
                        "--follow-timeout \(text) is not a time; use seconds above 0 and up to 86400, such as 60.")
            }
            // Whole seconds and the rest apart: a value in nanoseconds of a fine time scale overflows 64 bits.
            let (seconds, rest) = time.value.quotientAndRemainder(dividingBy: Int64(time.timescale))
            options.followTimeout = .seconds(seconds) + .nanoseconds(rest * 1_000_000_000 / Int64(time.timescale))
        },
    ] + metadataOptionTable + dailiesOptionTable + timelapseOptionTable + deflickerOptionTable + [
        OptionSpec(
            names: ["--keep-order"], value: nil,
            help:
                "Keep the inputs in the order given instead of natural order by path (f2 before f10); "
                + "a file given again is another frame."
        ) { options, _ in options.keepOrder = true },
        OptionSpec(names: ["-q", "--quiet"], value: nil, help: "Print nothing on standard error unless it fails.") {
            options, _ in options.quiet = true
        },
        OptionSpec(
            names: ["--json"], value: nil,
            help: "Print a summary object on standard output: output, frames, duration, width, height, codec, bytes, "
                + "videoBytes, videoBitrate, passes (and notes, metadata, rotation when given)."
        ) { options, _ in options.json = true },
        OptionSpec(names: ["-h", "--help"], value: nil, help: "Show this help.") { options, _ in options.showHelp = true
        },
        OptionSpec(
            names: ["--version"], value: nil,
            help:
                "Show the version of Flipbook and of each library it encodes and decodes with (with --json, as an object)."
        ) { options, _ in
            options.showVersion = true
        },
    ]
