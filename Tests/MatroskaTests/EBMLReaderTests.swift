import MediaModel
import Testing

@testable import Matroska

/// Element headers and trees read back as written, and malformed bytes refused with the element
/// and offset at fault.
@Suite struct EBMLReaderTests {
    static func header(_ bytes: [UInt8]) throws -> EBMLElement {
        try EBMLElement(parsing: bytes[...], at: 0)
    }

    @Test(arguments: [
        ([0xEC, 0x80] as [UInt8], 0xEC as UInt32, 2, 0 as UInt64?),
        ([0x42, 0x86, 0x81], 0x4286, 3, 1),
        ([0x2A, 0xD7, 0xB1, 0x40, 0x02], 0x2A_D7B1, 5, 2),
        ([0x1A, 0x45, 0xDF, 0xA3, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00], 0x1A45_DFA3, 12, 256),
        ([0x18, 0x53, 0x80, 0x67, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 0x1853_8067, 12, nil),
        ([0x1F, 0x43, 0xB6, 0x75, 0xFF], 0x1F43_B675, 5, nil),
    ])
    func headersOfEveryLengthReadBack(bytes: [UInt8], id: UInt32, headerLength: Int, size: UInt64?) throws {
        let element = try Self.header(bytes)
        #expect(element.id == EBMLID(id))
        #expect(element.headerLength == headerLength)
        #expect(element.size == size, "all ones in any length is an unknown size")
    }

    @Test func aHeaderWrittenByTheWriterReadsBackWithItsSize() throws {
        for size: UInt64 in [0, 1, 126, 127, 16382, 16383, 1 << 20, 1 << 40] {
            var writer = EBMLWriter()
            writer.header(.cluster, dataSize: size)
            let element = try Self.header(writer.bytes)
            #expect(element.size == size)
            #expect(element.headerLength == writer.count)
        }
    }

    @Test(arguments: [
        ([0x00, 0x81] as [UInt8], MediaReadingError.Code.invalidHeader),
        ([0x08, 0x00, 0x00, 0x00, 0x00, 0x81], .invalidHeader),
        ([0xEC, 0x00], .invalidHeader),
        ([0x1A, 0x45], .truncated),
        ([0xEC], .truncated),
        ([0xEC, 0x40], .truncated),
        ([], .truncated),
    ])
    func malformedHeadersThrow(bytes: [UInt8], code: MediaReadingError.Code) {
        #expect(throws: MediaReadingError.self) { try Self.header(bytes) }
        do {
            _ = try Self.header(bytes)
        } catch let error as MediaReadingError {
            #expect(error.code == code, "\(error)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aTreeReadsBackItsValues() throws {
        var writer = EBMLWriter()
        writer.master(.info) { w in
            w.unsigned(.timestampScale, 100_000)
            w.float(.duration, 30_000.5)
            w.string(.title, "Title")
            w.signed(.dateUTC, -5)
        }
        let reader = EBMLReader(EBMLMemorySource(writer.bytes))
        let info = try reader.node(try reader.element(at: 0, before: 100), before: UInt64(writer.count))
        #expect(try info.unsigned(.timestampScale) == 100_000)
        #expect(try info.float(.duration) == 30_000.5)
        #expect(info.string(.title) == "Title")
        #expect(try info.child(.dateUTC)?.signed() == -5)
    }

    @Test func aChildRunningPastItsParentIsRefused() throws {
        // Info of 4 bytes holding a Title that says 10.
        let bytes: [UInt8] = [0x15, 0x49, 0xA9, 0x66, 0x84, 0x7B, 0xA9, 0x8A, 0x41]
        let reader = EBMLReader(EBMLMemorySource(bytes))
        let info = try reader.element(at: 0, before: UInt64(bytes.count))
        #expect(throws: MediaReadingError.self) { try reader.node(info, before: UInt64(bytes.count)) }
    }

    @Test func anElementRunningPastTheFileIsRefused() throws {
        let bytes: [UInt8] = [0x15, 0x49, 0xA9, 0x66, 0x90, 0x7B, 0xA9, 0x81, 0x41]
        let reader = EBMLReader(EBMLMemorySource(bytes))
        let info = try reader.element(at: 0, before: UInt64(bytes.count))
        do {
            _ = try reader.node(info, before: UInt64(bytes.count))
            Issue.record("an Info of 16 bytes in a file of 9 must be refused")
        } catch let error as MediaReadingError {
            #expect(error.code == .invalidSize)
            #expect("\(error)".contains("Info at offset 0"), "\(error)")
            #expect("\(error)".contains("past the end of the file"), "\(error)")
        }
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        func nested(_ depth: Int) -> [UInt8] {
            var writer = EBMLWriter()
            if depth == 0 {
                writer.string(.tagName, "X")
            } else {
                writer.raw(.simpleTag, nested(depth - 1))
            }
            return writer.bytes
        }
        for (depth, allowed) in [(EBMLReader.maximumDepth - 1, true), (EBMLReader.maximumDepth + 4, false)] {
            let bytes = nested(depth)
            let reader = EBMLReader(EBMLMemorySource(bytes))
            let top = try reader.element(at: 0, before: UInt64(bytes.count))
            if allowed {
                _ = try reader.node(top, before: UInt64(bytes.count))
            } else {
                #expect(throws: MediaReadingError.self) { try reader.node(top, before: UInt64(bytes.count)) }
            }
        }
    }

    @Test func anUnknownSizeInsideAMetadataElementIsRefused() throws {
        var writer = EBMLWriter()
        writer.unknownSizeHeader(.tracks)
        writer.unsigned(.trackNumber, 1)
        let reader = EBMLReader(EBMLMemorySource(writer.bytes))
        let tracks = try reader.element(at: 0, before: UInt64(writer.count))
        #expect(tracks.size == nil)
        #expect(throws: MediaReadingError.self) { try reader.node(tracks, before: UInt64(writer.count)) }
    }
}

extension EBMLWriter {
    /// Writes an element around bytes as they are (for nesting built by hand).
    fileprivate mutating func raw(_ id: EBMLID, _ data: [UInt8]) {
        header(id, dataSize: UInt64(data.count))
        append(data)
    }
}
