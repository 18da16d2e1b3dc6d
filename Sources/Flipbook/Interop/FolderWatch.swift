import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// What a ``FolderWatch`` saw happen in its folder.
enum FolderEvent: Sendable, Hashable {
    /// A file was written and closed, or moved into the folder under this name: it is complete.
    case completed(String)
    /// Events were lost (the kernel's queue overflowed) or the watch ended: list the folder again.
    case rescan
}

/// A Linux inotify watch on one folder for files that are complete: written and closed
/// (`IN_CLOSE_WRITE`) or renamed into it (`IN_MOVED_TO`).
///
/// The only place Flipbook calls inotify. Every failing call goes through one funnel that names the
/// folder, the call and the system's reason. One caller waits on it at a time.
final class FolderWatch: @unchecked Sendable {
    let folder: String
    private var descriptor: Int32
    /// Event records as the kernel hands them over (a record is 16 bytes and a padded name).
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts watching `folder`.
    ///
    /// - Throws: `.unreadableInput` naming the folder and the failed call (no inotify in this
    ///   kernel or container, the per-user watch limit reached, the folder gone), so the caller can
    ///   fall back to listing the folder.
    init(folder: String) throws {
        self.folder = folder
        descriptor = -1
        let fd = try FolderWatch.check("inotify_init1", folder: folder) {
            inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        }
        descriptor = fd
        let mask =
            UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_ONLYDIR) | UInt32(IN_DELETE_SELF)
            | UInt32(IN_MOVE_SELF)
        try FolderWatch.check("inotify_add_watch", folder: folder) { inotify_add_watch(fd, folder, mask) }
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Waits up to `milliseconds` (0: not at all) for events, and returns those that came.
    ///
    /// - Throws: `.unreadableInput` when waiting or reading fails for a reason other than a signal.
    func events(waitingUpTo milliseconds: Int32) throws -> [FolderEvent] {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&request, 1, milliseconds)
        if ready < 0 && errno == EINTR { return [] }
        try FolderWatch.check("poll", folder: folder) { ready }
        guard ready > 0 else { return [] }
        var found: [FolderEvent] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && (errno == EAGAIN || errno == EINTR) { break }
            try FolderWatch.check("read", folder: folder) { count }
            if count == 0 { break }
            found += FolderWatch.parse(buffer[..<count])
        }
        return found
    }

    /// The events of a run of `inotify_event` records: `wd`, `mask`, `cookie`, `len` (four 32-bit
    /// values in the machine's order) and a NUL-padded name of `len` bytes.
    private static func parse(_ records: ArraySlice<UInt8>) -> [FolderEvent] {
        var found: [FolderEvent] = []
        var offset = records.startIndex
        func word(_ at: Int) -> UInt32 {
            records[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        while offset + 16 <= records.endIndex {
            let mask = word(offset + 4)
            let length = Int(word(offset + 12))
            let nameBytes = records[offset + 16..<min(records.endIndex, offset + 16 + length)].prefix { $0 != 0 }
            offset += 16 + length
            if mask & (UInt32(IN_Q_OVERFLOW) | UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF))
                != 0
            {
                found.append(.rescan)
            } else if mask & (UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO)) != 0, !nameBytes.isEmpty {
                found.append(.completed(String(decoding: nameBytes, as: UTF8.self)))
            }
        }
        return found
    }

    /// The funnel for inotify and the calls around it: runs `call`, and turns a result below zero
    /// into an error naming the call, the folder and the system's reason (from `errno`).
    @discardableResult
    private static func check<Result: BinaryInteger>(
        _ function: String, folder: String, _ call: () -> Result
    ) throws -> Result {
        let result = call()
        guard result >= 0 else {
            let number = errno
            throw FlipbookError.systemCallFailed(
                .unreadableInput, cannot: "watch the folder", reason: POSIXFile.describe(errno: number), path: folder,
                cause: SystemCallError(function: function, path: folder, errno: number))
        }
        return result
    }
}
