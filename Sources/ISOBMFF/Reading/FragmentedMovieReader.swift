import MediaModel

/// Decodes the movie fragments of a fragmented movie into one record per sample.
///
/// Reads every complete `moof` + `mdat` pair in file order; a file that ends inside a box (a
/// recording that was killed) is read up to its last complete box, so the result is exactly what a
/// player can still play. Sample offsets are absolute file offsets. Nothing traps, whatever the
/// input; malformed fragment boxes throw ``MediaReadingError``.
///
/// ```swift
/// let reader = try FragmentedMovieReader(bytes: partialFile)
/// print(reader.fragments.count, reader.samples.count)
/// ```
package struct FragmentedMovieReader: Sendable {
    /// One fragment as its `moof` describes it.
    package struct Fragment: Sendable, Equatable {
        /// The file offset of the `moof`.
        package var moofOffset: Int
        /// The `mfhd` sequence number.
        package var sequenceNumber: UInt32
        /// The `tfdt` base media decode time.
        package var baseMediaDecodeTime: UInt64
        /// The samples of every run, in decode order.
        package var samples: [SampleTableReader.DecodedSample]
        /// The decode time just past the last sample: the base plus every sample's duration.
        package var endDecodeTime: UInt64
        /// The payload range of the `mdat` that follows the `moof`, if there is one.
        package var mediaData: Range<Int>?
    }

    /// The top-level boxes that lie entirely within the bytes.
    package let boxes: [Box]
    /// Every complete fragment, in file order.
    package let fragments: [Fragment]
    /// The `mfra` random access entries of the first track, when the file has an `mfra`.
    package let randomAccess: [TrackFragmentRandomAccessBox.Entry]?
    /// The `mfro` size field, when the file has an `mfra`.
    package let randomAccessSize: UInt32?

    /// Every sample of every fragment, in decode order.
    package var samples: [SampleTableReader.DecodedSample] { fragments.flatMap(\.samples) }

    /// Reads the fragments of a file, or of the part of one that was written.
    ///
    /// - Parameter bytes: The file's bytes.
    /// - Throws: ``MediaReadingError`` when a fragment's boxes are missing or malformed.
    package init(bytes: [UInt8]) throws {
        boxes = BoxReader.parseCompleteBoxes(bytes)
        let defaults = try boxes.first("moov")?.descendant(["mvex", "trex"]).map {
            try TrackExtendsBox(reading: $0, in: bytes)
        }
        var fragments: [Fragment] = []
        for (index, moof) in boxes.enumerated() where moof.type == "moof" {
            let next = index + 1 < boxes.count ? boxes[index + 1] : nil
            // A moof without its complete mdat is not a fragment a player can use.
            guard let mdat = next, mdat.type == "mdat" else { continue }
            fragments.append(try Self.fragment(moof, mdat: mdat, in: bytes, defaults: defaults ?? TrackExtendsBox()))
        }
        self.fragments = fragments
        if let mfra = boxes.first("mfra") {
            randomAccess = try mfra.child("tfra").map { try TrackFragmentRandomAccessBox(reading: $0, in: bytes) }?
                .entries
            randomAccessSize = try mfra.child("mfro").map { try movieFragmentRandomAccessSize(reading: $0, in: bytes) }
        } else {
            randomAccess = nil
            randomAccessSize = nil
        }
    }

    private static func fragment(_ moof: Box, mdat: Box, in bytes: [UInt8], defaults: TrackExtendsBox) throws
        -> Fragment
    {
        func required(_ path: [String]) throws -> Box {
            guard let box = moof.descendant(path) else {
                throw MediaReadingError.isoBMFF(
                    .missing, "the fragment has no '\(path.joined(separator: "/"))' box", offset: moof.offset,
                    boxType: "moof")
            }
            return box
        }
        let sequence = try MovieFragmentHeaderBox(reading: try required(["mfhd"]), in: bytes).sequenceNumber
        let traf = try required(["traf"])
        let tfhd = try TrackFragmentHeaderBox(reading: try required(["traf", "tfhd"]), in: bytes)
        guard tfhd.flags & TrackFragmentHeaderBox.defaultBaseIsMoof != 0 else {
            throw MediaReadingError.isoBMFF(
                .malformed, "only fragments with default-base-is-moof are read", offset: traf.offset,
                boxType: "tfhd")
        }
        let base = try TrackFragmentDecodeTimeBox(reading: try required(["traf", "tfdt"]), in: bytes)
            .baseMediaDecodeTime
        var samples: [SampleTableReader.DecodedSample] = []
        var time = base
        for trunBox in traf.children("trun") {
            let trun = try TrackRunBox(reading: trunBox, in: bytes, defaults: tfhd.defaults(over: defaults))
            var offset = UInt64(max(0, moof.offset + Int(trun.dataOffset)))
            for entry in trun.entries {
                samples.append(
                    .init(
                        decodeTime: time, compositionOffset: entry.compositionOffset, size: entry.size, offset: offset,
                        isSync: entry.isSync))
                time = saturatingAdd(time, UInt64(entry.duration))
                offset = saturatingAdd(offset, UInt64(entry.size))
            }
        }
        return Fragment(
            moofOffset: moof.offset, sequenceNumber: sequence, baseMediaDecodeTime: base, samples: samples,
            endDecodeTime: time, mediaData: mdat.payloadRange)
    }

    /// Checks that the fragments agree with each other and with the file.
    ///
    /// Checks: sequence numbers increase; each fragment's decode time continues where the previous
    /// one's samples end; each fragment's samples lie inside the `mdat` that follows its `moof`; the
    /// `mfra`, when present, lists each fragment's `moof` offset and `mfro` gives its size.
    ///
    /// - Returns: One sentence per problem; empty when the fragments are consistent.
    package func validate() -> [String] {
        var problems: [String] = []
        for (previous, fragment) in zip(fragments, fragments.dropFirst()) {
            if fragment.sequenceNumber <= previous.sequenceNumber {
                problems.append("fragment at \(fragment.moofOffset) has sequence number \(fragment.sequenceNumber)")
            }
            if fragment.baseMediaDecodeTime != previous.endDecodeTime {
                problems.append(
                    "fragment at \(fragment.moofOffset) starts at \(fragment.baseMediaDecodeTime), "
                        + "not where the one before ends (\(previous.endDecodeTime))")
            }
        }
        for fragment in fragments {
            guard let data = fragment.mediaData else { continue }
            let outside = fragment.samples.filter {
                $0.offset < UInt64(data.lowerBound)
                    || saturatingAdd($0.offset, UInt64($0.size)) > UInt64(data.upperBound)
            }
            if !outside.isEmpty {
                problems.append("fragment at \(fragment.moofOffset) has \(outside.count) samples outside its mdat")
            }
        }
        if let randomAccess {
            let listed = randomAccess.map(\.moofOffset)
            let actual = fragments.map { UInt64($0.moofOffset) }
            if listed != actual {
                problems.append("tfra lists moof offsets \(listed) but the fragments are at \(actual)")
            }
            if let mfra = boxes.first("mfra"), randomAccessSize != UInt32(truncatingIfNeeded: mfra.size) {
                problems.append("mfro says \(randomAccessSize ?? 0) bytes but mfra has \(mfra.size)")
            }
        }
        return problems
    }
}
