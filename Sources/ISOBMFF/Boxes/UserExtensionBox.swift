/// A private extension box (`uuid`, ISO/IEC 14496-12 §4.2): a 16-byte user type and opaque bytes.
///
/// Readers that do not know the user type skip the box, so it can carry an application's own data
/// inside `moov` without disturbing players.
package struct UserExtensionBox: Sendable, Equatable {
    /// The 16-byte extended type that names the content.
    package var userType: [UInt8]
    /// The content.
    package var payload: [UInt8]

    /// Creates the box.
    ///
    /// - Precondition: `userType` is 16 bytes.
    package init(userType: [UInt8], payload: [UInt8]) {
        precondition(userType.count == 16, "a uuid box's user type is 16 bytes, got \(userType.count)")
        self.userType = userType
        self.payload = payload
    }

    /// Reads a `uuid` box; returns `nil` when it carries another user type.
    package init?(reading box: Box, in bytes: [UInt8], userType: [UInt8]) {
        // The header's last 16 bytes are the user type; the payload follows.
        let typeStart = box.offset + box.headerSize - 16
        guard box.type == "uuid", box.headerSize >= 24, typeStart >= 0, box.end <= bytes.count,
            Array(bytes[typeStart..<typeStart + 16]) == userType
        else { return nil }
        self.userType = userType
        payload = Array(bytes[box.payloadRange])
    }

    func write(to w: inout ByteWriter) {
        w.box("uuid") { w in
            w.putBytes(userType)
            w.putBytes(payload)
        }
    }
}
