internal import CLinux
import Glibc

/// What a replaced file's owner set on it, which the movie that replaces it keeps.
struct FileOwnership: Sendable, Equatable {
    /// The permission bits, set-id and sticky bits included (`st_mode & 07777`).
    var permissions: UInt32
    var owner: UInt32
    var group: UInt32
}

extension POSIXFile {
    /// The ownership of the regular file at `path` (links followed); `nil` for anything else.
    static func ownership(of path: String) -> FileOwnership? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileOwnership(permissions: UInt32(info.st_mode & 0o7777), owner: info.st_uid, group: info.st_gid)
    }

    /// The open file's ownership.
    func ownership() throws -> FileOwnership {
        var info = stat()
        try POSIXFile.check("fstat", path: path) { fstat(descriptor, &info) }
        return FileOwnership(permissions: UInt32(info.st_mode & 0o7777), owner: info.st_uid, group: info.st_gid)
    }

    /// Whether `path` is a symbolic link, and where it points as written in the link (`readlink`).
    static func linkTarget(of path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length >= 0 else { return "" }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The path with every symbolic link resolved (`realpath`); `nil` when it leads nowhere.
    static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Sets the permission bits (`fchmod`).
    func setPermissions(_ permissions: UInt32) throws {
        try POSIXFile.check("fchmod", path: path) { fchmod(descriptor, mode_t(permissions)) }
    }

    /// Sets the owner and group (`fchown`). Returns `false` without changing anything when the
    /// process may not (`EPERM`: not root, or a group it is not in); other failures throw.
    func setOwner(_ owner: UInt32, group: UInt32) throws -> Bool {
        if fchown(descriptor, owner, group) == 0 { return true }
        if errno == EPERM { return false }
        try POSIXFile.check("fchown", path: path) { Int32(-1) }
        return false
    }

    /// Copies the extended attributes of the file at `source` (its ACL among them) onto this file.
    ///
    /// - Returns: The names of those that could not be copied, with the system's reason; empty when
    ///   every one was (or there were none, or the file systems have none).
    func copyExtendedAttributes(from source: String) -> [String] {
        let size = listxattr(source, nil, 0)
        guard size > 0 else { return [] }
        var names = [CChar](repeating: 0, count: size)
        let listed = listxattr(source, &names, size)
        guard listed > 0 else { return ["the extended attributes (\(POSIXFile.describe(errno: errno)))"] }
        var failed: [String] = []
        for letters in names[..<listed].split(separator: 0) {
            let name = Array(letters) + [0]
            let length = getxattr(source, name, nil, 0)
            var value = [UInt8](repeating: 0, count: max(0, length))
            let read = length < 0 ? -1 : getxattr(source, name, &value, value.count)
            if read < 0 || fsetxattr(descriptor, name, value, read, 0) != 0 {
                let shown = String(decoding: letters.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                failed.append("\(shown) (\(POSIXFile.describe(errno: errno)))")
            }
        }
        return failed
    }
}
