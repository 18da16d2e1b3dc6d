/// How a soundtrack's sound goes into the movie: copied packet for packet, or encoded to AAC, Opus or ALAC.
///
/// Without a choice (`nil` in ``Soundtrack/codec``), sound is copied where the container holds its codec and
/// common players play it there, and encoded otherwise: to AAC-LC for MP4, M4V, MOV and Matroska, to Opus for
/// WebM.
///
/// | Sound | MP4, M4V, MOV | WebM | Matroska |
/// |---|---|---|---|
/// | AAC (`.m4a`, ADTS), MP3 | copied | Opus | copied |
/// | Opus (Ogg `.opus`) | copied | copied | copied |
/// | FLAC | AAC | Opus | copied |
/// | Vorbis (`.ogg`) | AAC | copied | copied |
/// | AC-3, E-AC-3 | AAC | Opus | copied |
/// | ALAC (`.m4a`, `.caf`) | copied | Opus | copied |
/// | anything else FFmpeg reads | AAC | Opus | AAC |
///
/// In Matroska and WebM, copied sound that loops or starts before the movie is encoded instead: their blocks
/// carry no edit list to place it.
public enum SoundtrackCodec: String, Sendable, Hashable, CaseIterable {
    /// The source's packets as they are: AAC, MP3, Opus and ALAC into MP4, M4V, MOV and Matroska (Opus into WebM
    /// too), FLAC, AC-3 and E-AC-3 into Matroska, Vorbis into WebM and Matroska. Sound that cannot be copied into the container
    /// is refused.
    case copy
    /// AAC-LC, encoded by FFmpeg's native encoder: for MP4, M4V, MOV and Matroska.
    case aac
    /// Opus at 48 kHz, encoded by libopus: for MP4, WebM and Matroska.
    case opus
    /// Apple Lossless, encoded by FFmpeg's encoder at 16 bits a sample, or 24 for deeper sources: for MP4, M4V,
    /// MOV and Matroska. A 16-bit or 24-bit source at its own rate comes out sample for sample.
    case alac

    /// The name as the command line spells it: `copy`, `aac`, `opus`, `alac`.
    public var name: String { rawValue }

    /// The containers that hold sound of this choice (for ``copy``, every container: whether the source's
    /// codec can be copied there depends on the file).
    public var containers: [MovieContainer] {
        switch self {
        case .copy: MovieContainer.allCases.filter { !$0.isAnimatedImage }
        case .aac, .alac: [.mp4, .m4v, .mov, .mkv]
        case .opus: [.mp4, .webm, .mkv]
        }
    }

    /// Checks that `container` holds sound of this choice.
    ///
    /// - Throws: ``FlipbookError`` with `.invalidSettings` naming the extensions that do.
    public func check(in container: MovieContainer) throws {
        guard !containers.contains(container) else { return }
        throw FlipbookError.soundCodecNotInContainer(rawValue, container: container, fitting: containers)
    }

    /// The encoder this choice asks for, `nil` for ``copy``.
    var encoder: SoundCodec? {
        switch self {
        case .copy: nil
        case .aac: .aac
        case .opus: .opus
        case .alac: .alac
        }
    }
}

/// Which sound Flipbook copies into which container: where the container holds the codec and common
/// players (browsers, QuickTime, VLC, ffmpeg) play it there. Everything else is decoded and encoded.
///
/// | Codec (ffprobe's name) | Copied into | Read by |
/// |---|---|---|
/// | `aac` (`.m4a`, ADTS `.aac`) | MP4, M4V, MOV, Matroska | Flipbook's MP4 and ADTS readers |
/// | `mp3` | MP4, M4V, MOV, Matroska | Flipbook's MP3 reader |
/// | `opus` (Ogg `.opus`) | MP4, M4V, MOV, WebM, Matroska | Flipbook's Ogg reader |
/// | `flac` | Matroska (when neither looped nor started early) | Flipbook's FLAC frame splitter |
/// | `vorbis` (Ogg) | WebM, Matroska (when neither looped nor started early) | libavformat's packets |
/// | `ac3`, `eac3` | Matroska (when neither looped nor started early) | libavformat's packets |
/// | `alac` (`.m4a`, `.caf`) | MP4, M4V, MOV, Matroska (when neither looped nor started early) | libavformat's packets |
/// | anything else libavformat reads | nowhere: decoded and encoded | libavformat, libavcodec |
enum SoundCopying {
    static let table: [String: Set<MovieContainer>] = [
        "aac": [.mp4, .m4v, .mov, .mkv],
        "mp3": [.mp4, .m4v, .mov, .mkv],
        "opus": [.mp4, .m4v, .mov, .webm, .mkv],
        "flac": [.mkv],
        "vorbis": [.webm, .mkv],
        "ac3": [.mkv],
        "eac3": [.mkv],
        "alac": [.mp4, .m4v, .mov, .mkv],
    ]

    /// Whether sound of `codecName` is copied into `container`.
    static func copies(_ codecName: String, into container: MovieContainer) -> Bool {
        table[codecName]?.contains(container) ?? false
    }

    /// The containers `codecName` is copied into, as a message names them (`.mp4, .m4v, .mov or .mkv`);
    /// `nil` for none.
    static func containerList(_ codecName: String) -> String? {
        let names = MovieContainer.allCases.filter { copies(codecName, into: $0) }.map { "." + $0.fileExtensions[0] }
        guard let last = names.last else { return nil }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }
}
