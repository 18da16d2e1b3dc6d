/// Whether a sound file whose container does not state its length to libavformat ends where it says it does.
///
/// libavformat reads an Ogg stream cut short, or an ASF (`.wma`) file cut short, as a shorter sound without
/// complaint. Both say where they end: an Ogg stream's last page carries the end-of-stream flag (RFC 3533
/// §6), and an ASF file's File Properties Object states the file's size. A file that stops before either is
/// refused by name rather than made into a movie with part of its sound missing.
enum SoundFileEnding {
    /// ASF's File Properties Object GUID (8CABDCA1-A947-11CF-8EE4-00C00C205365), as stored.
    private static let asfFileProperties: [UInt8] = [
        0xA1, 0xDC, 0xAB, 0x8C, 0x47, 0xA9, 0xCF, 0x11, 0x8E, 0xE4, 0x00, 0xC0, 0x0C, 0x20, 0x53, 0x65,
    ]

    /// Throws `.invalidAudio` naming the file when the container libavformat calls `container` (`ogg`,
    /// `asf`) says the file goes on past its end.
    static func check(_ path: String, container: String) throws {
        guard let size = POSIXFile.state(of: path)?.size, size > 0 else { return }
        switch container {
        case "ogg":
            let tailStart = max(0, size - 65536)
            guard let tail = POSIXFile.bytes(of: path, at: tailStart, count: Int(size - tailStart)) else { return }
            let capture = Array("OggS".utf8)
            // The last page's header: its header type's bit 2 marks the end of the stream.
            guard
                let last = stride(from: tail.count - 27, through: 0, by: -1).first(where: {
                    Array(tail[$0..<$0 + 4]) == capture
                }), tail[last + 5] & 0x04 != 0
            else {
                throw FlipbookError.oggStopsBeforeLastPage(path: path)
            }
        case "asf":
            guard let head = POSIXFile.bytes(of: path, at: 0, count: 65536),
                let object = (0...max(0, head.count - 48)).first(where: {
                    $0 + 48 <= head.count && Array(head[$0..<$0 + 16]) == asfFileProperties
                })
            else { return }
            let stated = (0..<8).reduce(Int64(0)) { $0 | Int64(head[object + 40 + $1]) << (8 * $1) }
            if stated > size {
                throw FlipbookError.soundFileShorterThanStated(stated: stated, size: size, path: path)
            }
        default: return
        }
    }
}
