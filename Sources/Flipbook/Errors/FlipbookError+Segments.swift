import Foundation

/// The failures of segments and joins: a segment asked for out of range or without an index, a
/// segment file that cannot be read or joined, and segments that do not make one whole sequence.
/// One wording each; each keeps where it was raised (``FlipbookError/origin``) and its cause.
extension FlipbookError {
    // MARK: Asking for a segment

    /// A segment `index`/`count` outside `1 <= K <= N <= 10000`.
    static func segmentOutOfRange(
        _ index: Int, of count: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "segment \(index)/\(count) is out of range; use K/N with 1 <= K <= N <= 10000",
            fileID: fileID, line: line)
    }

    /// A `--segment` value that is not `K/N`.
    static func segmentNotKOfN(_ text: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "--segment \(text) is not K/N; use for example 2/8 or auto/8", fileID: fileID, line: line)
    }

    /// `--segment auto/N` where no scheduler's variable gives the index.
    static func segmentIndexNotInEnvironment(
        of count: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "--segment auto/\(count) found no segment index in the environment; set FLIPBOOK_SEGMENT, "
                + "JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, or give the index as K/\(count)", fileID: fileID,
            line: line)
    }

    /// A segment of a sequence too short to give every segment an image.
    static func segmentEmpty(
        _ segment: Segment, images: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "segment \(segment) of \(images) images is empty; use at most \(images) segments",
            fileID: fileID, line: line)
    }

    /// A soundtrack given to a segment, which is made without sound.
    static func segmentWithSoundtrack(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings,
            "a segment is made without sound; give the soundtrack to MovieJoiner.join when joining the segments",
            fileID: fileID, line: line)
    }

    /// A target size asked of a segment, though it is for the whole movie.
    static func segmentWithTargetSize(fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "a target size is for a whole movie; give each segment the same average bitrate instead",
            fileID: fileID, line: line)
    }

    // MARK: Reading a segment

    /// A segment file whose container cannot be parsed; `cause` is the reader's error.
    static func segmentNotAMovie(_ path: String, cause: any Error, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .invalidMovie, "the segment is not a readable movie", path: path, underlying: cause, fileID: fileID,
            line: line)
    }

    /// A segment file that cannot be read from disk.
    static func segmentNotReadable(_ path: String, cause: any Error, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        Self(
            .unreadableInput, "cannot read the segment", path: path, underlying: SystemCause(cause), fileID: fileID,
            line: line)
    }

    /// A movie that a join cannot take as a segment, and why.
    static func segmentNotJoinable(
        _ path: String, _ reason: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(.invalidSettings, reason, path: path, fileID: fileID, line: line)
    }

    /// A movie without Flipbook's description of a segment.
    static func notAFlipbookSegment(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        segmentNotJoinable(
            path, "not a Flipbook segment (it was not made with --segment K/N)", fileID: fileID, line: line)
    }

    /// A segment of `tracks` tracks, where a join copies one video track.
    static func segmentTrackCount(
        _ path: String, _ tracks: Int, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        segmentNotJoinable(
            path, "the segment has \(tracks) tracks; a join copies segments of one video track only", fileID: fileID,
            line: line)
    }

    /// A segment without a frame.
    static func segmentHasNoFrames(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        segmentNotJoinable(path, "the segment has no frames", fileID: fileID, line: line)
    }

    // MARK: Segments that make no whole

    /// A segment of another sequence than the first one given.
    static func segmentOfAnotherSequence(
        _ part: SegmentInfo, at path: String, first: SegmentInfo, firstPath: String, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "segment \(part.segment)/\(part.segments) of \(part.totalFrames) frames belongs to "
                + "another sequence than \(firstPath) (\(first.segment)/\(first.segments) of "
                + "\(first.totalFrames) frames)", path: path, fileID: fileID, line: line)
    }

    /// The same segment given twice.
    static func segmentGivenTwice(
        _ segment: Int, of count: Int, at path: String, twin: String, fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings, "segment \(segment)/\(count) is given twice, also as \(twin)", path: path, fileID: fileID,
            line: line)
    }

    /// Segments missing from a join.
    static func segmentsMissing(_ missing: [Int], of count: Int, fileID: String = #fileID, line: Int = #line)
        -> FlipbookError
    {
        let list = missing.map { "\($0)/\(count)" }.joined(separator: ", ")
        return Self(
            .invalidSettings,
            "segment\(missing.count == 1 ? "" : "s") \(list) \(missing.count == 1 ? "is" : "are") missing; "
                + "a join needs all \(count)", fileID: fileID, line: line)
    }

    /// A segment encoded with other settings than segment 1.
    static func segmentSettingsDiffer(
        _ part: SegmentInfo, of count: Int, at path: String, first: SegmentInfo, fileID: String = #fileID,
        line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            "segment \(part.segment)/\(count) was made with different settings (\(part.settings)) "
                + "than segment 1 (\(first.settings)); encode every segment with the same options", path: path,
            fileID: fileID, line: line)
    }

    /// Segment 1 starts later than time zero.
    static func firstSegmentStartsLate(_ path: String, fileID: String = #fileID, line: Int = #line) -> FlipbookError {
        Self(
            .invalidSettings, "segment 1 does not start at time zero", path: path, fileID: fileID, line: line)
    }

    /// A segment that does not start where the one before ends (times in seconds).
    static func segmentsDoNotFollowOn(
        _ segment: Int, startsAt start: Double, previous: Int, endsAt end: Double, path: String,
        fileID: String = #fileID, line: Int = #line
    ) -> FlipbookError {
        Self(
            .invalidSettings,
            String(
                format: "segment %d starts at %.6f s but segment %d ends at %.6f s; segments must follow on "
                    + "without a gap or an overlap", segment, start, previous, end), path: path, fileID: fileID,
            line: line)
    }
}
