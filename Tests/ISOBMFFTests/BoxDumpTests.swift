import MediaModel
import Testing

@testable import ISOBMFF

@Suite struct BoxDumpTests {
    static func smallMovie(brand: FileBrand) throws -> [UInt8] {
        var table = SampleTable(timescale: 30)
        table.append(Sample(size: 10, duration: 1, compositionOffset: 1, isSync: true))
        table.append(Sample(size: 20, duration: 1, compositionOffset: 2, isSync: false))
        table.append(Sample(size: 30, duration: 1, compositionOffset: 0, isSync: false))
        let layout = try MovieLayout(
            brand: brand, track: makeTrack(), sampleTable: table,
            editList: [EditListEntry(segmentDuration: 3, mediaTime: 1)])
        return layout.header + [UInt8](repeating: 0xAB, count: 60)
    }

    @Test func dumpsASmallMP4() throws {
        let dump = try BoxDump.render(try Self.smallMovie(brand: .mp4))
        let expected = """
            ftyp size=32 major=isom minor=512 compatible=isom,iso2,avc1,mp41
            moov size=744
              mvhd size=108 version=0 timescale=30 duration=3 next_track=2
              trak size=628
                tkhd size=92 version=0 flags=3 track=1 duration=3 width=64 height=48
                edts size=36
                  elst size=28 version=0 entries=1 [3@1]
                mdia size=492
                  mdhd size=32 version=0 timescale=30 duration=3 language=und
                  hdlr size=45 handler=vide name="VideoHandler"
                  minf size=407
                    vmhd size=20
                    dinf size=36
                      dref size=28
                        url  size=12
                    stbl size=343
                      stsd size=171
                        avc1 size=155 width=64 height=48 compressor="Flipbook H.264"
                          avcC size=34 profile=100 compatibility=0 level=31 sps=1 pps=1 chroma=1 depth=8/8
                          colr size=19 kind=nclx primaries=1 transfer=1 matrix=1 range=limited
                          pasp size=16 ratio=1:1
                      stts size=24 entries=1 [3x1]
                      ctts size=40 version=0 entries=3 [1x1, 1x2, 1x0]
                      stss size=20 entries=1
                      stsc size=28 entries=1
                      stsz size=32 samples=3 constant_size=0
                      stco size=20 entries=1
            mdat size=68

            """
        #expect(dump == expected)
    }

    @Test func quickTimeDumpShowsItsBrandHandlerAndColour() throws {
        let lines = try BoxDump.render(try Self.smallMovie(brand: .quickTime)).split(separator: "\n")
        #expect(lines.first == "ftyp size=20 major=qt   minor=537199360 compatible=qt  ")
        #expect(lines.contains("      hdlr size=45 handler=vide name=\"VideoHandler\""))
        #expect(lines.contains("              colr size=18 kind=nclc primaries=1 transfer=1 matrix=1"))
    }

    @Test func headerOnlyDumpShowsTheWholeMdatSize() throws {
        var table = SampleTable(timescale: 30)
        table.append(Sample(size: 1000, duration: 1, isSync: true))
        let layout = try MovieLayout(brand: .mp4, track: makeTrack(), sampleTable: table)
        let dump = try BoxDump.render(layout.header, fileSize: layout.header.count + 1000)
        #expect(dump.hasSuffix("\nmdat size=1008\n"))
    }

    @Test func unreadableFieldsAreReportedInline() throws {
        var w = ByteWriter()
        w.fullBox("stts", version: 0, flags: 0) { w in w.putUInt32(1000) }
        #expect(try BoxDump.render(w.bytes).hasPrefix("stts size=16 unreadable: declares 1000 entries"))
    }
}
