import MediaModel

/// A timecode track's description (QuickTime's timecode sample description, `tmcd`, which MP4 readers
/// read as well): how its one sample, the frame number of the first picture's timecode, counts.
///
/// The frame rate is `timescale / frameDuration` (24000/1001 for 23.976 fps); `framesPerSecond` is that
/// rate rounded (24), the frames a timecode second counts. A drop-frame timecode (29.97 and 59.94 fps)
/// skips the first two or four frame numbers of every minute but each tenth.
package struct TimecodeSampleEntry: SampleEntry, Equatable {
    package let timescale: UInt32
    package let frameDuration: UInt32
    package let framesPerSecond: UInt8
    package let dropFrame: Bool

    package init(timescale: UInt32, frameDuration: UInt32, framesPerSecond: UInt8, dropFrame: Bool) {
        self.timescale = timescale
        self.frameDuration = frameDuration
        self.framesPerSecond = framesPerSecond
        self.dropFrame = dropFrame
    }

    package var media: MediaKind { .timecode }
    package var codecName: String { "tmcd" }

    /// The flags field: drop frame (1), and wrapping at 24 hours (2), as every timecode here does.
    var flags: UInt32 { (dropFrame ? 0x1 : 0) | 0x2 }

    package func write(to writer: inout ByteWriter, isQuickTime: Bool) {
        writer.box("tmcd") { w in
            w.putZeros(6)  // reserved
            w.putUInt16(1)  // data reference index
            w.putZeros(4)  // reserved
            w.putUInt32(flags)
            w.putUInt32(timescale)
            w.putUInt32(frameDuration)
            w.putUInt8(framesPerSecond)
            w.putUInt8(0)  // reserved
        }
    }

    package func validate() throws {
        guard timescale > 0, frameDuration > 0, framesPerSecond > 0 else {
            throw MuxingError.invalidTrack(
                "a timecode of \(timescale)/\(frameDuration) at \(framesPerSecond) frames a second; none may be 0")
        }
    }
}

/// The media header of a timecode track: QuickTime's base media information header (`gmhd`, with
/// `gmin` and the timecode media information `tmcd`/`tcmi`), or an MP4's null media header (`nmhd`,
/// ISO/IEC 14496-12 §12.1.2).
package struct TimecodeMediaHeaderBox: Sendable, Equatable {
    let isQuickTime: Bool

    package init(isQuickTime: Bool) { self.isQuickTime = isQuickTime }

    package func write(to writer: inout ByteWriter) {
        guard isQuickTime else {
            writer.fullBox("nmhd", version: 0, flags: 0) { _ in }
            return
        }
        writer.box("gmhd") { w in
            w.fullBox("gmin", version: 0, flags: 0) { w in
                w.putUInt16(0x0040)  // graphics mode: dither copy
                for _ in 0..<3 { w.putUInt16(0x8000) }  // opcolor
                w.putUInt16(0)  // balance
                w.putUInt16(0)  // reserved
            }
            w.box("tmcd") { w in
                w.fullBox("tcmi", version: 0, flags: 0) { w in
                    w.putUInt16(0)  // text font
                    w.putUInt16(0)  // text face
                    w.putUInt16(12)  // text size
                    w.putUInt16(0)  // reserved
                    for _ in 0..<3 { w.putUInt16(0) }  // text colour: black
                    for _ in 0..<3 { w.putUInt16(0xFFFF) }  // background colour: white
                    w.putUInt8(0)  // font name: none
                }
            }
        }
    }
}
