import Foundation
import Testing

@testable import ISOBMFF

@Suite struct TemporaryRemuxCheck {
    @Test func remux() throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/tmp/ref.mp4")))
        print(try BoxDump.render(bytes))
        let reader = try SampleTableReader(bytes: bytes)
        #expect(reader.validate() == [])
        let moov = try #require(try BoxReader.parse(bytes).first("moov"))
        let trak = try #require(moov.child("trak"))
        let avc1 = try #require(trak.descendant(["mdia", "minf", "stbl", "stsd", "avc1"]))
        let config = try AVCConfigurationBox(reading: try #require(avc1.child("avcC")), in: bytes).configuration
        let elst = try trak.descendant(["edts", "elst"]).map { try EditListBox(reading: $0, in: bytes).entries }
        var table = SampleTable(timescale: reader.timescale)
        for (i, s) in reader.samples.enumerated() {
            let next = i + 1 < reader.samples.count ? reader.samples[i + 1].decodeTime : reader.mediaDuration
            table.append(Sample(size: s.size, duration: UInt32(next - s.decodeTime),
                compositionOffset: UInt32(s.compositionOffset), isSync: s.isSync))
        }
        let track = VideoTrack(width: 128, height: 96, timescale: reader.timescale, decoderConfiguration: config)
        let layout = try MovieLayout(brand: .mp4, track: track, sampleTable: table, editList: elst)
        var out = layout.header
        for s in reader.samples { out += bytes[Int(s.offset)..<Int(s.offset) + Int(s.size)] }
        try Data(out).write(to: URL(fileURLWithPath: "/tmp/remux.mp4"))
        print(try BoxDump.render(out))
        #expect(try SampleTableReader(bytes: out).validate() == [])
    }
}
