internal import COpenColorIO
import Foundation

/// An OpenColorIO config read from its file (OpenColorIO 2.1, through Flipbook's C interface to its C++
/// library): its colour spaces, displays and views, and the processors made from it, kept for the
/// process (a movie has one, shared by the threads that decode its images).
final class OpenColorIOConfig: @unchecked Sendable {
    // The config is read once and never changed; OpenColorIO's configs and CPU processors are safe to
    // share between threads once made.
    private let handle: OpaquePointer
    let path: String

    private static let opened = LockedValue([String: OpenColorIOConfig]())

    private init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { flipbook_ocio_config_close(handle) }

    /// The config at `path`, read once a process.
    static func open(_ path: String) throws -> OpenColorIOConfig {
        if let known = opened.withLock({ $0[path] }) { return known }
        var message = [CChar](repeating: 0, count: 512)
        guard let handle = flipbook_ocio_config_open(path, &message, message.count) else {
            throw FlipbookError.colourConfigNotRead(
                path, cause: LibraryCallError.thrown(by: "OpenColorIO", "Config::CreateFromFile", message: message))
        }
        let config = OpenColorIOConfig(handle: handle, path: path)
        return opened.withLock { opened in
            if let known = opened[path] { return known }
            opened[path] = config
            return config
        }
    }

    private static func names(_ count: Int32, _ name: (Int32) -> UnsafePointer<CChar>?) -> [String] {
        (0..<max(count, 0)).compactMap { name($0).map { String(cString: $0) } }
    }

    var colourspaces: [String] {
        Self.names(flipbook_ocio_colourspace_count(handle)) { flipbook_ocio_colourspace_name(handle, $0) }
    }

    var displays: [String] {
        Self.names(flipbook_ocio_display_count(handle)) { flipbook_ocio_display_name(handle, $0) }
    }

    func views(of display: String) -> [String] {
        Self.names(flipbook_ocio_view_count(handle, display)) { flipbook_ocio_view_name(handle, display, $0) }
    }

    var defaultDisplay: String? { flipbook_ocio_default_display(handle).map { String(cString: $0) } }

    func defaultView(of display: String) -> String? {
        flipbook_ocio_default_view(handle, display).map { String(cString: $0) }
    }

    /// The colour space `role` names (`scene_linear`), if the config has the role.
    func role(_ role: String) -> String? { flipbook_ocio_role(handle, role).map { String(cString: $0) } }

    private static let processors = LockedValue([String: OpenColorIOProcessor]())

    /// The processor from `input` to `display`'s `view`, made once a process.
    func processor(input: String, display: String, view: String) throws -> OpenColorIOProcessor {
        let key = [path, input, display, view].joined(separator: "\u{0}")
        if let known = Self.processors.withLock({ $0[key] }) { return known }
        var message = [CChar](repeating: 0, count: 512)
        guard let made = flipbook_ocio_processor_make(handle, input, display, view, &message, message.count) else {
            throw FlipbookError.colourConfigNotRead(
                path, cause: LibraryCallError.thrown(by: "OpenColorIO", "Config::getProcessor", message: message))
        }
        let processor = OpenColorIOProcessor(handle: made, config: self)
        return Self.processors.withLock { processors in
            if let known = processors[key] { return known }
            processors[key] = processor
            return processor
        }
    }

    /// OpenColorIO's version, such as `2.1.2`.
    static var version: String { String(cString: flipbook_ocio_version()) }
}

/// A CPU processor from a colour space to a display's view.
final class OpenColorIOProcessor: @unchecked Sendable {
    // Applying a CPU processor changes nothing in it: it is shared by the decoding threads.
    private let handle: OpaquePointer
    /// The config the processor came from, kept alive as long as it.
    private let config: OpenColorIOConfig

    fileprivate init(handle: OpaquePointer, config: OpenColorIOConfig) {
        self.handle = handle
        self.config = config
    }

    deinit { flipbook_ocio_processor_free(handle) }

    /// Applies the processor to packed R, G, B floats in place; `false` when OpenColorIO failed.
    func apply(_ rgb: inout [Float]) -> Bool {
        rgb.withUnsafeMutableBufferPointer { buffer in
            flipbook_ocio_apply_rgb(handle, buffer.baseAddress, buffer.count / 3) == 0
        }
    }
}
