import MediaModel

/// The movie's tags as a Matroska `Tags` element: each tag a `SimpleTag` named in capitals, as
/// Matroska's tag names are (`ARTIST`, `COMMENT`), and each private description (a segment's, for
/// `join`) a binary `SimpleTag` named after its user type.
struct MatroskaTags {
    var tags: MovieTags
    var extensions: [MovieExtension]

    /// The name of the `SimpleTag` that holds a private description.
    static func name(ofExtension userType: [UInt8]) -> String {
        "FLIPBOOK_" + userType.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// Whether there is anything beyond the title (which `Info` holds).
    var hasContent: Bool { tags.items.contains { $0.name != "title" } || !extensions.isEmpty }

    func write(to writer: inout EBMLWriter) {
        writer.master(.tags) { w in
            w.master(.tag) { w in
                w.master(.targets) { _ in }
                for item in tags.items where item.name != "title" {
                    w.master(.simpleTag) { w in
                        w.string(.tagName, item.name.uppercased())
                        w.string(.tagString, item.value)
                    }
                }
                for box in extensions {
                    w.master(.simpleTag) { w in
                        w.string(.tagName, Self.name(ofExtension: box.userType))
                        w.binary(.tagBinary, box.payload)
                    }
                }
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
