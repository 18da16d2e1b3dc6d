/// Private data describing a movie, named by a 16-byte user type: an MP4 writes it as a `uuid` box
/// (ISO/IEC 14496-12 §4.2) in `moov`, a Matroska movie as a tag; readers that do not know the user
/// type pass over it, so it carries an application's own data without disturbing players.
package struct MovieExtension: Sendable, Equatable {
    /// The 16-byte type that names the content.
    package var userType: [UInt8]
    /// The content.
    package var payload: [UInt8]

    /// Creates the extension.
    ///
    /// - Precondition: `userType` is 16 bytes.
    package init(userType: [UInt8], payload: [UInt8]) {
        precondition(userType.count == 16, "a user type is 16 bytes, got \(userType.count)")
        self.userType = userType
        self.payload = payload
    }
}
