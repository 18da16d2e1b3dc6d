import Foundation

/// An image format Flipbook decodes: its name, the file name extensions that mean it, what of it is
/// decoded, and (inside the library) how its files are recognised and decoded.
///
/// ``ImageFormat/all`` is the one list: folder listings, `--help`, and every error that names the
/// formats there are read it.
public struct ImageFormat: Sendable, CustomStringConvertible {
    /// The format's name as people write it: `PNG`, `JPEG`, `HEIC, AVIF`.
    public let name: String
    /// The file name extensions that mean the format, lowercase, without the dot.
    public let fileExtensions: [String]
    /// What is decoded, as lines of help text.
    public let summary: [String]
    /// Whether a file may hold several pictures addressed as pages (TIFF).
    let hasPages: Bool
    /// Whether images of the format are found in a stream of images back to back (standard input):
    /// every format but TIFF (no end of its own) and GIF (not split from a stream yet).
    let streams: Bool
    /// Whether `data` starts as a file of this format does.
    let recognises: @Sendable (_ data: Data) -> Bool
    /// Decodes a file of this format.
    let decode: @Sendable (_ data: Data, _ request: DecodeRequest) throws -> DecodedImage
    /// Reads what the file says about its colour from its bytes, for a format whose decoder does not
    /// hand it over itself; `nil` when the decoder does.
    let readColour: (@Sendable (_ data: Data) -> SourceColour)?

    init(
        name: String, fileExtensions: [String], summary: [String], hasPages: Bool, streams: Bool = true,
        recognises: @escaping @Sendable (Data) -> Bool,
        readColour: (@Sendable (Data) -> SourceColour)? = nil,
        decode: @escaping @Sendable (Data, DecodeRequest) throws -> DecodedImage
    ) {
        self.name = name
        self.fileExtensions = fileExtensions
        self.summary = summary
        self.hasPages = hasPages
        self.streams = streams && !hasPages
        self.recognises = recognises
        self.readColour = readColour
        self.decode = decode
    }

    /// Decodes `data`, a file of this format, with the colour it states.
    ///
    /// An image whose colour the movie converts is asked for as RGB (the planes' fast path is for
    /// images already in the movie's space), and a CMYK JPEG with a CMYK profile as its CMYK samples.
    func decodeImage(_ data: Data, _ request: DecodeRequest) throws -> DecodedImage {
        guard let readColour else { return try decode(data, request) }
        let colour = readColour(data)
        var request = request
        if let settings = request.colour {
            var asCMYK = colour
            asCMYK.pixelsAreCMYK = true
            request.keepsCMYK = colour.iccProfile != nil && settings.converts(asCMYK)
            if request.keepsCMYK || settings.converts(colour) { request.storedPlanes = false }
        }
        return try decode(data, request).withSourceColour(colour)
    }

    public var description: String { name }

    /// Every format, in the order help text lists them.
    public static var all: [ImageFormat] { ImageFormats.all }

    /// Every extension of every format, lowercase, without the dot.
    public static var allFileExtensions: Set<String> { Set(all.flatMap(\.fileExtensions)) }

    /// The formats' names as a sentence lists them: `PNG, JPEG, WebP, GIF, camera raw, TIFF, HEIC, AVIF, OpenEXR, DPX or Cineon`.
    public static var nameList: String {
        spokenList(all.flatMap { $0.name.components(separatedBy: ", ") }, joinedBy: "or")
    }

    /// The extensions as a listing names them: `.png, .jpg, .jpeg, …`.
    static var extensionList: String { all.flatMap(\.fileExtensions).map { "." + $0 }.joined(separator: ", ") }

    /// The format of a file name's extension (compared case-insensitively), or `nil`.
    static func forExtension(_ pathExtension: String) -> ImageFormat? {
        let lowered = pathExtension.lowercased()
        return all.first { $0.fileExtensions.contains(lowered) }
    }

    /// The format `data` is, from its first bytes, or `nil`.
    static func recognising(_ data: Data) -> ImageFormat? {
        all.first { $0.recognises(data) }
    }
}
