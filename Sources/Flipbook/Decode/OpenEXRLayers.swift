/// The pictures an OpenEXR file holds, and the one a movie shows.
///
/// A picture is a layer of one part: the channels that share a name up to their last dot
/// (`ViewLayer.Combined.R`, `.G`, `.B`, `.A` are the layer `ViewLayer.Combined`; a file's bare `R`, `G`,
/// `B` are the part's unnamed layer). A layer is a picture when it has `R`, `G` and `B`, or `Y` (with
/// `RY` and `BY` for a luminance-chroma file). A multi-part file (stereo views, render passes) has one
/// header a part, each named.
struct OpenEXRLayers {
    /// One part's header, as the choice needs it.
    struct Part {
        /// The part's index in the file.
        let index: Int32
        /// The part's `name` attribute; `nil` in a single-part file without one.
        let name: String?
        /// Whether the part holds deep data.
        let deep: Bool
        /// The part's channel names in the order the file lists them.
        let channels: [String]
    }

    /// A picture in a part: the full channel name for each role.
    struct Picture: Equatable {
        let part: Int32
        /// The name a user gives `--layer` for it.
        let name: String
        /// `R`, `G`, `B`, or `Y` (and `RY`, `BY`), and `A` when present: role to channel name.
        let channels: [String: String]

        /// Whether the picture is luminance (and chroma) rather than R, G and B.
        var isLuminance: Bool { channels["R"] == nil }
        /// Whether the luminance picture carries chroma (`RY` and `BY`).
        var hasChroma: Bool { channels["RY"] != nil && channels["BY"] != nil }
        /// The channels to decode.
        var decoded: [String] { Array(channels.values) }
    }

    let parts: [Part]

    /// Every picture of every flat part, in file order, bare layers first within a part.
    var pictures: [Picture] {
        parts.filter { !$0.deep }.flatMap { part in Self.pictures(in: part, named: parts.count > 1) }
    }

    /// The picture `layer` names, or the default one: the first part's bare `R`, `G`, `B` (or `Y`), else a
    /// layer named `Combined` (Blender's beauty pass), else the first picture of the file.
    ///
    /// A name matches a layer (`ViewLayer.Combined`), a part (`rgba_left`: its first picture), or a part
    /// and one of its layers (`rgba_left.diffuse`).
    func choose(_ layer: String?) throws -> Picture {
        let all = pictures
        guard let layer else {
            if let first = all.first(where: { $0.part == parts.first?.index && isBare($0) }) { return first }
            if let combined = all.first(where: { $0.name == "Combined" || $0.name.hasSuffix(".Combined") }) {
                return combined
            }
            if let first = all.first { return first }
            if parts.contains(where: \.deep) { throw FlipbookError.exrIsDeep() }
            throw FlipbookError.exrHasNoPictureChannels(parts.flatMap(\.channels))
        }
        if let exact = all.first(where: { $0.name == layer }) { return exact }
        if let part = parts.first(where: { $0.name == layer }) {
            if part.deep { throw FlipbookError.exrIsDeep() }
            if let first = all.first(where: { $0.part == part.index }) { return first }
        }
        if let insensitive = all.first(where: { $0.name.lowercased() == layer.lowercased() }) { return insensitive }
        throw FlipbookError.exrHasNoLayer(layer, layers: all.map(\.name))
    }

    private func isBare(_ picture: Picture) -> Bool {
        picture.channels.values.allSatisfy { !$0.contains(".") }
    }

    /// The pictures of one part. In a multi-part file a bare layer is named by its part, and a named
    /// layer by its own name (or the part's and its own, when the part's name does not begin it).
    private static func pictures(in part: Part, named multiPart: Bool) -> [Picture] {
        var prefixes: [String] = []
        var roles: [String: [String: String]] = [:]
        var vectors = Set<String>()
        for channel in part.channels {
            let (prefix, role) = split(channel)
            // A layer with X or Z (normals, positions, motion) holds a vector: its Y is not luminance.
            if role == "X" || role == "Z" { vectors.insert(prefix) }
            guard ["R", "G", "B", "A", "Y", "RY", "BY"].contains(role) else { continue }
            if roles[prefix] == nil { prefixes.append(prefix) }
            roles[prefix, default: [:]][role] = channel
        }
        // Bare channels first: they are the part's own picture.
        prefixes.sort { ($0.isEmpty ? 0 : 1) < ($1.isEmpty ? 0 : 1) }
        return prefixes.compactMap { prefix in
            var channels = roles[prefix] ?? [:]
            if channels["R"] != nil && channels["G"] != nil && channels["B"] != nil {
                channels = channels.filter { ["R", "G", "B", "A"].contains($0.key) }
            } else if channels["Y"] != nil && !vectors.contains(prefix) {
                channels = channels.filter { ["Y", "RY", "BY", "A"].contains($0.key) }
            } else {
                return nil
            }
            let name: String
            if prefix.isEmpty {
                name = (multiPart ? part.name : nil) ?? "RGBA"
            } else if multiPart, let partName = part.name, !prefix.hasPrefix(partName) {
                name = partName + "." + prefix
            } else {
                name = prefix
            }
            return Picture(part: part.index, name: name, channels: channels)
        }
    }

    /// A channel name as its layer and its role: `a.b.R` is `a.b` and `R`.
    private static func split(_ channel: String) -> (prefix: String, role: String) {
        guard let dot = channel.lastIndex(of: ".") else { return ("", channel) }
        return (String(channel[..<dot]), String(channel[channel.index(after: dot)...]))
    }
}
