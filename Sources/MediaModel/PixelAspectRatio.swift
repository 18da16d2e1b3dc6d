/// The shape of a pixel: horizontal spacing to vertical spacing, as in the `pasp` box.
package struct PixelAspectRatio: Sendable, Equatable, CustomStringConvertible {
    /// The relative width of a pixel.
    package var hSpacing: UInt32
    /// The relative height of a pixel.
    package var vSpacing: UInt32

    /// Square pixels, 1:1.
    package static let square = PixelAspectRatio(hSpacing: 1, vSpacing: 1)

    /// Creates a pixel aspect ratio.
    ///
    /// - Parameters:
    ///   - hSpacing: The relative width of a pixel.
    ///   - vSpacing: The relative height of a pixel.
    package init(hSpacing: UInt32, vSpacing: UInt32) {
        self.hSpacing = hSpacing
        self.vSpacing = vSpacing
    }

    package var description: String { "\(hSpacing):\(vSpacing)" }
}
