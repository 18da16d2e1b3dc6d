import Foundation
import ISOBMFF

/// The movie on disk while it is being written: media bytes in a hidden file beside the destination,
/// and, on ``commit(tracks:extensions:)``, a complete faststart file renamed over the destination.
///
/// Samples of every track are placed by a ``MediaDataInterleaver``: chunks of about a second, the
/// tracks' chunks in time order, written as they are complete.
///
/// Nothing appears at the destination until the movie is complete. An existing destination is never
/// opened; without permission to overwrite it is never replaced either. Dropping an uncommitted
/// `MovieFile` removes its temporary files.
final class MovieFile: MovieOutput {
    let destination: MovieDestination
    private let moviePath: String
    private let mediaPath: String
    private var media: POSIXFile?
    private var interleaver: MediaDataInterleaver
    private(set) var sampleTables: [SampleTable]
    /// Bytes of media written so far.
    private var payloadSize: UInt64 = 0
    private var committed = false
    /// Media bytes copied file to file with ``appendMedia(_:of:at:)``, and the bytes the samples
    /// appended with external bytes describe; they must agree when the movie is committed.
    private var copiedBytes: UInt64 = 0
    private var externalSampleBytes: UInt64 = 0
    /// What the caller should pass on about a movie that was committed (see ``MovieDestination/publish(_:)``).
    private(set) var warnings: [String] = []

    /// Creates the hidden media file beside `destination`.
    ///
    /// - Parameter timescales: Each track's media timescale, in track order.
    init(destination: MovieDestination, timescales: [UInt32]) throws {
        sampleTables = timescales.map { SampleTable(timescale: $0) }
        interleaver = MediaDataInterleaver(timescales: timescales)
        self.destination = destination
        let stem = destination.temporaryStem()
        moviePath = stem + ".tmp"
        mediaPath = stem + ".media.tmp"
        media = try destination.createTemporary(at: mediaPath)
    }

    deinit {
        if !committed { removeTemporaryFiles() }
    }

    func append(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws {
        guard media != nil else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        sampleTables[track].append(sample.entry)
        if sample.hasExternalBytes { externalSampleBytes += UInt64(sample.size) }
        try write(interleaver.add(sample, track: track))
    }

    /// Copies `count` bytes of `source` from its byte `offset` to the end of the media, file to file
    /// (see ``POSIXFile/append(_:bytesOf:at:)``): the bytes of samples appended with external bytes
    /// (``MediaSample/withExternalBytes(count:)``), which a join copies without reading them.
    ///
    /// - Important: Only for a movie of one track whose samples all come this way, copied in decode
    ///   order; the copied bytes must equal the samples' sizes by ``commit(tracks:extensions:)``.
    func appendMedia(_ count: UInt64, of source: POSIXFile, at offset: UInt64) throws {
        guard let media else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        precondition(sampleTables.count == 1, "media is copied into movies of one track, not \(sampleTables.count)")
        try media.append(count, bytesOf: source, at: offset)
        copiedBytes += count
    }

    /// Writes complete chunks at the end of the media, sample by sample from the samples' own bytes
    /// (no copy into a chunk buffer), and records where they are.
    private func write(_ chunks: [MediaDataInterleaver.Chunk]) throws {
        guard let media else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        for chunk in chunks {
            sampleTables[chunk.track].appendChunk(offset: payloadSize, sampleCount: chunk.samples.count)
            for sample in chunk.samples where !sample.hasExternalBytes { try media.write(sample.data) }
            payloadSize += chunk.byteCount
        }
    }

    /// Writes the last chunks and the complete movie (ftyp, moov, mdat), and renames it over the destination.
    ///
    /// Where the file system can insert blocks at the start of a file (ext4, XFS), the header, padded
    /// with a `free` box to whole blocks, is inserted in front of the media already on disk, and
    /// that file becomes the movie: no byte of media is copied. Elsewhere the header and a copy of
    /// the media go into a second file.
    ///
    /// - Returns: The size of the movie in bytes.
    func commit(tracks: [Track], extensions: [UserExtensionBox] = []) throws -> UInt64 {
        try write(interleaver.finish())
        guard let media else { throw FlipbookError(.invalidState, "the movie file is already closed") }
        guard copiedBytes == externalSampleBytes, externalSampleBytes == 0 || externalSampleBytes == payloadSize else {
            throw FlipbookError(
                .invalidState,
                "\(copiedBytes) bytes of media were copied for samples of \(externalSampleBytes) bytes, in a movie "
                    + "of \(payloadSize) bytes of media; the movie is not written")
        }
        let aligned = try MovieLayout(
            brand: destination.brand, tracks: tracks, sampleTables: sampleTables, extensions: extensions,
            alignment: media.blockSize)
        let header: [UInt8]
        if payloadSize > 0, try media.insertRange(at: 0, length: UInt64(aligned.header.count)) {
            header = aligned.header
            try media.write(header, at: 0)
            try media.sync()
            try media.close()
            self.media = nil
            warnings = try destination.publish(mediaPath)
        } else {
            header = try MovieLayout(
                brand: destination.brand, tracks: tracks, sampleTables: sampleTables, extensions: extensions
            ).header
            let movie = try destination.createTemporary(at: moviePath)
            try movie.write(header)
            try movie.append(contentsOf: media)
            try movie.sync()
            try movie.close()
            warnings = try destination.publish(moviePath)
            try? media.close()
            self.media = nil
            POSIXFile.remove(mediaPath)
        }
        committed = true
        return UInt64(header.count) + payloadSize
    }

    /// Removes the temporary files; the destination is not touched.
    func discard() {
        try? media?.close()
        media = nil
        removeTemporaryFiles()
    }

    private func removeTemporaryFiles() {
        POSIXFile.remove(mediaPath)
        POSIXFile.remove(moviePath)
    }
}
