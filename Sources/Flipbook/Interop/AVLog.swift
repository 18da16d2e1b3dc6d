internal import CAVCodec
import Foundation

/// FFmpeg's log, kept off standard error and read for what it says about a sound file.
///
/// Some of FFmpeg's decoders report damage only in their log and go on (AC-3's "incomplete frame" at the end
/// of a file cut short): the last error each decoder or demuxer logs is kept here, by its context, so the
/// file's reader can refuse the file by name. Nothing is printed: the tool's standard error stays its own.
enum AVLog {
    /// The last error logged by each context, by the context's address.
    private final class Errors: @unchecked Sendable {
        let lock = NSLock()
        var byContext: [UInt: String] = [:]
    }
    private static let errors = Errors()

    /// Sends FFmpeg's log to ``take(for:)`` instead of standard error (errors only; the rest is dropped).
    static func silence() {
        av_log_set_level(AV_LOG_ERROR)
        av_log_set_callback { context, level, format, arguments in
            guard level <= AV_LOG_ERROR, let context, let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 256)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            AVLog.errors.lock.withLock {
                AVLog.errors.byContext[UInt(bitPattern: context)] = message.trimmingCharacters(
                    in: .whitespacesAndNewlines)
            }
        }
    }

    /// The last error `context` logged since the last call, forgotten once taken.
    static func take(for context: UnsafeMutableRawPointer) -> String? {
        errors.lock.withLock { errors.byContext.removeValue(forKey: UInt(bitPattern: context)) }
    }
}
