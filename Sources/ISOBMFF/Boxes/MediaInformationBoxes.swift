import MediaModel

/// The handler reference box (`hdlr`, ISO/IEC 14496-12 §8.4.3): what kind of media a track holds.
///
/// In QuickTime files the component type field holds `mhlr` and the name is a Pascal string;
/// in MP4 the field is zero and the name is NUL-terminated UTF-8.
package struct HandlerBox: Sendable, Equatable {
    /// The media kind, `vide` for video.
    package var handlerType: FourCC
    /// A human-readable name for the track's handler.
    package var name: String
    /// Whether to use the QuickTime layout (`mhlr`, Pascal-string name).
    package var isQuickTime: Bool

    /// Creates a handler box.
    ///
    /// - Parameters:
    ///   - handlerType: The media kind, `vide` by default.
    ///   - name: The handler name, `VideoHandler` by default.
    ///   - isQuickTime: Whether to use the QuickTime layout.
    package init(handlerType: FourCC = "vide", name: String = "VideoHandler", isQuickTime: Bool = false) {
        self.handlerType = handlerType
        self.name = name
        self.isQuickTime = isQuickTime
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("hdlr", version: 0, flags: 0) { w in
            w.putFourCC(isQuickTime ? "mhlr" : FourCC(rawValue: 0))  // pre_defined / component type
            w.putFourCC(handlerType)
            w.putZeros(12)  // reserved
            let utf8 = Array(name.utf8.prefix(255))
            if isQuickTime {
                w.putUInt8(UInt8(utf8.count))
                w.putBytes(utf8)
            } else {
                w.putBytes(utf8)
                w.putUInt8(0)
            }
        }
    }

    package init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        _ = try r.readVersionAndFlags()
        isQuickTime = try r.readFourCC() == "mhlr"
        handlerType = try r.readFourCC()
        try r.skip(12)
        var nameBytes = r.readRest()[...]
        if let length = nameBytes.first, Int(length) == nameBytes.count - 1 {
            nameBytes = nameBytes.dropFirst()
        }
        while nameBytes.last == 0 { nameBytes = nameBytes.dropLast() }
        name = String(decoding: nameBytes, as: UTF8.self)
    }
}

/// The video media header box (`vmhd`, ISO/IEC 14496-12 §12.1.2), flags 1, copy graphics mode.
package struct VideoMediaHeaderBox: Sendable, Equatable {
    /// Creates a video media header.
    package init() {}

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("vmhd", version: 0, flags: 1) { w in
            w.putUInt16(0)  // graphicsmode: copy
            w.putZeros(6)  // opcolor
        }
    }
}

/// The sound media header box (`smhd`, ISO/IEC 14496-12 §12.2.2): balance centred.
package struct SoundMediaHeaderBox: Sendable, Equatable {
    /// Creates a sound media header.
    package init() {}

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.fullBox("smhd", version: 0, flags: 0) { w in
            w.putInt16(0)  // balance
            w.putZeros(2)  // reserved
        }
    }
}

/// The data information box (`dinf`, ISO/IEC 14496-12 §8.7.1) holding a `dref` with one
/// self-contained `url ` entry: the media data is in this file.
package struct DataInformationBox: Sendable, Equatable {
    /// Creates a data information box for media in the same file.
    package init() {}

    /// Writes `dinf`, `dref` and its `url ` entry.
    package func write(to writer: inout ByteWriter) {
        writer.box("dinf") { w in
            w.fullBox("dref", version: 0, flags: 0) { w in
                w.putUInt32(1)  // entry_count
                w.fullBox("url ", version: 0, flags: 1) { _ in }  // flag 1: data in this file
            }
        }
    }
}

/// The edit list box (`elst`, ISO/IEC 14496-12 §8.6.6), written inside an edit box (`edts`).
///
/// Version 1 (64-bit fields) is used only when a duration or media time needs it. Every entry
/// plays at rate 1.0.
package struct EditListBox: Sendable, Equatable {
    /// The edits, in movie time order.
    package var entries: [EditListEntry]

    /// Creates an edit list.
    ///
    /// - Parameter entries: The edits, in movie time order.
    package init(entries: [EditListEntry]) {
        self.entries = entries
    }

    /// The version that will be written: 1 if a field needs 64 bits.
    package var version: UInt8 {
        let wide = entries.contains {
            $0.segmentDuration > UInt64(UInt32.max) || Int32(exactly: $0.mediaTime) == nil
        }
        return wide ? 1 : 0
    }

    /// The sum of the segment durations, in the movie timescale.
    package var duration: UInt64 {
        entries.reduce(0) { $0 &+ $1.segmentDuration }
    }

    /// Writes `edts` containing this `elst`.
    package func write(to writer: inout ByteWriter) {
        let version = version
        writer.box("edts") { w in
            w.fullBox("elst", version: version, flags: 0) { w in
                w.putUInt32(UInt32(entries.count))
                for entry in entries {
                    if version == 1 {
                        w.putUInt64(entry.segmentDuration)
                        w.putInt64(entry.mediaTime)
                    } else {
                        w.putUInt32(UInt32(entry.segmentDuration))
                        w.putInt32(Int32(entry.mediaTime))
                    }
                    w.putInt16(1)  // media_rate_integer
                    w.putInt16(0)  // media_rate_fraction
                }
            }
        }
    }

    package init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        let (version, _) = try r.readVersionAndFlags()
        let count = try r.readUInt32()
        try r.requireEntries(count, size: version == 1 ? 20 : 12)
        entries = []
        for _ in 0..<count {
            if version == 1 {
                entries.append(EditListEntry(segmentDuration: try r.readUInt64(), mediaTime: try r.readInt64()))
            } else {
                let duration = UInt64(try r.readUInt32())
                entries.append(EditListEntry(segmentDuration: duration, mediaTime: Int64(try r.readInt32())))
            }
            try r.skip(4)  // media rate
        }
    }
}
