import MediaModel

/// A movie extension as an MP4 holds it: a private extension box (`uuid`, ISO/IEC 14496-12 §4.2), a
/// 16-byte user type and opaque bytes.
extension MovieExtension {
    /// Reads a `uuid` box; returns `nil` when it carries another user type.
    package init?(reading box: Box, in bytes: [UInt8], userType: [UInt8]) {
        // The header's last 16 bytes are the user type; the payload follows.
        let typeStart = box.offset + box.headerSize - 16
        guard box.type == "uuid", box.headerSize >= 24, typeStart >= 0, box.end <= bytes.count,
            Array(bytes[typeStart..<typeStart + 16]) == userType
        else { return nil }
        self.init(userType: userType, payload: Array(bytes[box.payloadRange]))
    }

    func write(to w: inout ByteWriter) {
        w.box("uuid") { w in
            w.putBytes(userType)
            w.putBytes(payload)
        }
    }
}
