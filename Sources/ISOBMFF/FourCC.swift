/// A four-character code, the type of a box or a brand.
///
/// Written big-endian as four bytes. Create one from a string literal of exactly four characters
/// in the Latin-1 range: `let type: FourCC = "moov"`.
package struct FourCC: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The four bytes as one big-endian integer.
    package var rawValue: UInt32

    /// Creates a code from its integer value.
    ///
    /// - Parameter rawValue: The four bytes, most significant first.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creates a code from a four-character string.
    ///
    /// - Parameter string: Exactly four Unicode scalars, each at most U+00FF.
    /// - Important: Traps if the string is not four Latin-1 characters; codes are program constants.
    package init(_ string: String) {
        let scalars = Array(string.unicodeScalars)
        precondition(
            scalars.count == 4 && scalars.allSatisfy { $0.value <= 0xFF },
            "FourCC needs four Latin-1 characters, got \"\(string)\"")
        rawValue = scalars.reduce(0) { ($0 << 8) | $1.value }
    }

    /// Creates a code from a four-character string literal.
    ///
    /// - Parameter value: Exactly four Latin-1 characters.
    package init(stringLiteral value: String) {
        self.init(value)
    }

    /// The four bytes, most significant first.
    package var bytes: [UInt8] {
        [
            UInt8(truncatingIfNeeded: rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16),
            UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue),
        ]
    }

    /// The code as text, each byte read as Latin-1.
    package var description: String {
        FourCC.string(from: bytes[...])
    }

    /// Renders four bytes as text, each byte read as Latin-1; control bytes become `.`.
    static func string(from bytes: ArraySlice<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            let printable = (0x20..<0x7F).contains(byte) || byte >= 0xA0
            text.unicodeScalars.append(Unicode.Scalar(printable ? byte : 0x2E))
        }
        return text
    }
}
