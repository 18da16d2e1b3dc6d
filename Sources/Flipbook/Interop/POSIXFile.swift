internal import CLinux
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// An open file descriptor with writes, reads and syncs that throw instead of crashing.
///
/// The only place Flipbook calls the POSIX file API. Every failing call goes through one funnel
/// that names the path, the call and the system's reason (for example "No space left on device").
final class POSIXFile {
    let path: String
    private(set) var descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        if descriptor >= 0 { _ = Glibc.close(descriptor) }
    }

    /// Creates a new file that must not exist yet, for reading and writing, with `permissions`
    /// (0644 by default) less the umask.
    static func createExclusive(at path: String, permissions: UInt32 = 0o644) throws -> POSIXFile {
        let fd = try POSIXFile.check("open", path: path) {
            Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(permissions))
        }
        return POSIXFile(path: path, descriptor: fd)
    }

    /// Opens an existing file for reading.
    static func openForReading(at path: String) throws -> POSIXFile {
        let fd = try POSIXFile.check("open", path: path, code: .unreadableInput, verb: "read") {
            Glibc.open(path, O_RDONLY | O_CLOEXEC)
        }
        return POSIXFile(path: path, descriptor: fd)
    }

    /// Reads a whole image file, refusing anything that is not a regular file.
    ///
    /// The file is opened without blocking, so a FIFO or a device given as an image fails at once
    /// instead of waiting for a writer. Errors name the file and say what to do.
    ///
    /// - Parameter limit: Read at most this many bytes from the start (a file's head, to see what it is).
    /// - Throws: `.unreadableInput` for a file that is gone, not readable, or not a regular file.
    static func readImageFile(at path: String, limit: Int = .max) throws -> Data {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let number = errno
            // A socket cannot be opened at all (ENXIO): name what it is rather than the errno.
            var info = stat()
            if stat(path, &info) == 0, let kind = notAnImageError(mode: info.st_mode, path: path) { throw kind }
            throw inputError("open", path: path, number: number)
        }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw inputError("fstat", path: path, number: errno) }
        if let kind = notAnImageError(mode: info.st_mode, path: path) { throw kind }
        var data = Data(count: min(limit, Int(info.st_size)))
        let done = data.withUnsafeMutableBytes { readFully(fd, into: $0, at: 0) }
        guard done >= 0 else { throw inputError("read", path: path, number: errno) }
        // A file that shrank while being read is passed on short: the decoder reports the truncation.
        if done < data.count { data.count = done }
        return data
    }

    /// The error for an input that is not a regular file (a folder, FIFO, socket or device), named
    /// as what it is; `nil` for a regular file.
    private static func notAnImageError(mode: mode_t, path: String) -> FlipbookError? {
        let what: String
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: what = "a folder"
        case S_IFIFO: what = "a FIFO (named pipe)"
        case S_IFSOCK: what = "a socket"
        case S_IFCHR, S_IFBLK: what = "a device"
        default: what = "not a regular file"
        }
        return FlipbookError.notAnImageFile(what, path: path)
    }

    /// An input file's open or read failure, with what to do about it.
    private static func inputError(_ function: String, path: String, number: Int32) -> FlipbookError {
        let cause = SystemCallError(function: function, errno: number)
        return switch number {
        case ENOENT: FlipbookError.inputFileGone(path: path, cause: cause)
        case EACCES, EPERM: FlipbookError.inputFileNotPermitted(path: path, cause: cause)
        case ENOTDIR:
            FlipbookError.inputFileUnreadable(path: path, reason: "a folder in its path is a file", cause: cause)
        default: FlipbookError.inputFileUnreadable(path: path, reason: describe(errno: number), cause: cause)
        }
    }

    /// Reads exactly `count` bytes at `offset`.
    func read(at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes { POSIXFile.readFully(descriptor, into: $0, at: off_t(offset)) }
        guard done >= 0 else { throw POSIXFile.error("read", path: path, code: .unreadableInput, verb: "read") }
        guard done == count else {
            throw FlipbookError.fileTruncated(path: path, before: offset + UInt64(count))
        }
        return bytes
    }

    /// Appends to `bytes` what one `read` of descriptor `fd` (a pipe, a terminal or a file, such as
    /// standard input) gives, at most `count` bytes, retrying after signals: on a pipe, what has been
    /// written so far, without waiting for more.
    ///
    /// - Returns: The number of bytes read; 0 at the end of the input.
    /// - Throws: `.unreadableInput` naming `path` (what the descriptor is, for messages) and the reason.
    static func readAvailable(_ fd: Int32, upTo count: Int, appendingTo bytes: inout [UInt8], path: String) throws
        -> Int
    {
        let old = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        var got = -1
        repeat {
            got = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + old, count) }
        } while got < 0 && errno == EINTR
        guard got >= 0 else {
            let failure = error("read", path: path, code: .unreadableInput, verb: "read")
            bytes.removeLast(count)
            throw failure
        }
        bytes.removeLast(count - got)
        return got
    }

    /// Reads into `buffer` from `offset` until it is full or the file ends, retrying after signals.
    ///
    /// - Returns: The bytes read, or -1 with `errno` set.
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: off_t) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(fd, buffer.baseAddress! + done, buffer.count - done, offset + off_t(done))
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { return got < 0 ? -1 : done }
            done += got
        }
        return done
    }

    /// Writes all of `bytes` at the current position.
    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try writeFully($0, at: nil) }
    }

    /// Writes all of `bytes` at `offset`, leaving the current position where it was.
    func write(_ bytes: [UInt8], at offset: UInt64) throws {
        try bytes.withUnsafeBytes { try writeFully($0, at: off_t(offset)) }
    }

    /// Writes all of `buffer` at the current position (`offset` nil) or at `offset`, retrying after
    /// signals and short writes.
    private func writeFully(_ buffer: UnsafeRawBufferPointer, at offset: off_t?) throws {
        var done = 0
        while done < buffer.count {
            let start = buffer.baseAddress! + done
            let written =
                if let offset { pwrite(descriptor, start, buffer.count - done, offset + off_t(done)) } else {
                    Glibc.write(descriptor, start, buffer.count - done)
                }
            if written < 0 {
                if errno == EINTR { continue }
                throw POSIXFile.error(offset == nil ? "write" : "pwrite", path: path)
            }
            done += written
        }
    }

    /// Flushes the file's data (and the metadata needed to read it back, such as its size) to the
    /// storage device; cheaper than ``sync()`` when only the content matters.
    func syncData() throws {
        try POSIXFile.check("fdatasync", path: path) { fdatasync(descriptor) }
    }

    /// The file system's preferred block size for this file (`st_blksize`), 4096 if unknown.
    var blockSize: Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_blksize > 0 else { return 4096 }
        return Int(info.st_blksize)
    }

    /// Inserts `length` zero bytes at `offset` by moving the file's later blocks, without copying
    /// them (Linux `fallocate` with `FALLOC_FL_INSERT_RANGE`; ext4 and XFS support it).
    ///
    /// - Returns: `false` when the file system or kernel cannot do it (the file is unchanged), so the
    ///   caller can copy instead; throws only for real I/O failures.
    func insertRange(at offset: UInt64, length: UInt64) throws -> Bool {
        while flipbook_fallocate_insert_range(descriptor, Int64(offset), Int64(length)) != 0 {
            switch errno {
            case EINTR: continue
            case EOPNOTSUPP, EINVAL, ENOSYS, EPERM, ENODEV: return false
            default: throw POSIXFile.error("fallocate", path: path)
            }
        }
        return true
    }

    /// Appends the whole content of `source`, from its start, copied by the kernel where it can
    /// (see ``append(_:bytesOf:at:)``).
    func append(contentsOf source: POSIXFile) throws {
        var info = stat()
        try POSIXFile.check("fstat", path: source.path) { fstat(source.descriptor, &info) }
        try append(UInt64(info.st_size), bytesOf: source, at: 0)
    }

    /// Appends `count` bytes of `source`, starting at its byte `offset`, at the current position.
    ///
    /// The kernel copies them (`copy_file_range`): file to file without a trip through this
    /// process's memory, sharing blocks (a reflink) or copying on the server where the file system
    /// can. Where it cannot copy between these two files (`EXDEV`, `ENOSYS`, `EOPNOTSUPP`, `EINVAL`),
    /// the rest is read and written in blocks of a few MiB.
    ///
    /// - Throws: `.unreadableInput` naming `source` when it ends before `offset + count`;
    ///   `.outputNotWritable` naming this file when it cannot be written (a full disk), or naming both
    ///   files when the kernel's copy fails otherwise (an I/O error, which either file may have caused).
    func append(_ count: UInt64, bytesOf source: POSIXFile, at offset: UInt64) throws {
        var done: UInt64 = 0
        while done < count {
            let copied = flipbook_copy_file_range(
                source.descriptor, Int64(offset + done), descriptor, Int64(min(count - done, 1 << 30)))
            if copied > 0 {
                done += UInt64(copied)
                continue
            }
            if copied == 0 { throw FlipbookError.fileTruncated(path: source.path, before: offset + count) }
            switch errno {
            case EINTR: continue
            case EXDEV, ENOSYS, EOPNOTSUPP, EINVAL:
                return try appendByReading(count - done, bytesOf: source, at: offset + done)
            case ENOSPC, EDQUOT, EFBIG: throw POSIXFile.error("copy_file_range", path: path)
            // Either file may be at fault (an I/O error): the message names both.
            default: throw POSIXFile.error("copy_file_range", path: path, verb: "copy \(source.path) into the movie")
            }
        }
    }

    /// Appends `count` bytes of `source` from `offset`, read and written in blocks of 4 MiB.
    private func appendByReading(_ count: UInt64, bytesOf source: POSIXFile, at offset: UInt64) throws {
        var block = [UInt8](repeating: 0, count: Int(min(count, 4 << 20)))
        var done: UInt64 = 0
        try block.withUnsafeMutableBytes { buffer in
            while done < count {
                let wanted = Int(min(count - done, UInt64(buffer.count)))
                let got = POSIXFile.readFully(
                    source.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]),
                    at: off_t(offset + done))
                guard got >= 0 else {
                    throw POSIXFile.error("read", path: source.path, code: .unreadableInput, verb: "read")
                }
                guard got == wanted else {
                    throw FlipbookError.fileTruncated(path: source.path, before: offset + count)
                }
                try writeFully(UnsafeRawBufferPointer(rebasing: buffer[..<got]), at: nil)
                done += UInt64(got)
            }
        }
    }

    /// Flushes the file's data and metadata to the storage device.
    func sync() throws {
        try POSIXFile.check("fsync", path: path) { fsync(descriptor) }
    }

    /// Closes the descriptor, reporting errors a deferred write may only show now.
    func close() throws {
        let fd = descriptor
        descriptor = -1
        try POSIXFile.check("close", path: path) { Glibc.close(fd) }
    }

    /// Whether something exists at `path` (a file, a folder, or a dangling link).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    /// A regular file's size and modification time, to tell whether it is still changing; `nil` for
    /// anything else or a file that is gone.
    static func state(of path: String) -> FileState? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileState(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Up to `count` bytes of the file at `path` from `offset`; `nil` when it cannot be read.
    static func bytes(of path: String, at offset: Int64, count: Int) -> [UInt8]? {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes { readFully(fd, into: $0, at: off_t(offset)) }
        guard done >= 0 else { return nil }
        return Array(bytes[..<done])
    }

    /// Whether `path` is a folder.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Atomically replaces `destination` with `source`.
    static func rename(_ source: String, over destination: String) throws {
        try POSIXFile.check("rename", path: destination) { Glibc.rename(source, destination) }
    }

    /// Gives `source` the name `destination` only if nothing has that name yet, atomically.
    static func link(_ source: String, toNew destination: String) throws {
        try POSIXFile.check("link", path: destination) { Glibc.link(source, destination) }
    }

    /// Removes a file, ignoring a missing one.
    static func remove(_ path: String) {
        _ = unlink(path)
    }

    /// Flushes a folder's entries (a rename inside it) to the storage device.
    static func syncDirectory(_ path: String) throws {
        let verb = "flush its folder to the disk"
        let fd = try POSIXFile.check("open", path: path, verb: verb) {
            Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }
        defer { _ = Glibc.close(fd) }
        try POSIXFile.check("fsync", path: path, verb: verb) { fsync(fd) }
    }

    /// The system's sentence for an errno value.
    static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// The funnel for POSIX calls: runs `call`, and turns a result below zero into an error naming
    /// the call, the path and the system's reason (from `errno`).
    @discardableResult
    static func check<Result: BinaryInteger>(
        _ function: String, path: String, code: FlipbookError.Code = .outputNotWritable,
        verb: String = "write the movie", _ call: () -> Result
    ) throws -> Result {
        let result = call()
        guard result >= 0 else { throw error(function, path: path, code: code, verb: verb) }
        return result
    }

    /// The error of a failed call: the call, the path, and the system's reason.
    private static func error(
        _ function: String, path: String, code: FlipbookError.Code = .outputNotWritable,
        verb: String = "write the movie"
    ) -> FlipbookError {
        let number = errno
        return FlipbookError.systemCallFailed(
            code, cannot: verb, reason: describe(errno: number), path: path,
            cause: SystemCallError(function: function, path: path, errno: number))
    }
}

/// A file's size and modification time (nanoseconds since 1970), as `stat` reports them.
struct FileState: Sendable, Hashable {
    let size: Int64
    let modified: Int64
}
