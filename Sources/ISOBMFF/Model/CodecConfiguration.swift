import MediaModel

/// A codec's configuration record as a sample entry carries it: the child box's type and its payload.
///
/// The payload stands apart from the MP4 box, so another container can carry the same record (a
/// Matroska `CodecPrivate` is this payload). Each codec's record type makes one
/// (``AVCDecoderConfiguration/codecConfiguration``, ``HEVCDecoderConfiguration/codecConfiguration``,
/// ``AV1CodecConfiguration/codecConfiguration``), and ``VideoSampleEntry`` writes it as a child box.
package struct CodecConfiguration: Sendable, Equatable {
    /// A picture size in pixels.
    package struct Size: Sendable, Equatable {
        package var width: Int
        package var height: Int

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The box type the record is written as: `avcC`, `hvcC`, `av1C`.
    package var boxType: FourCC
    /// The record's bytes, without the box header.
    package var payload: [UInt8]
    /// The largest picture the record allows, for a codec whose header states one (AV1's sequence header).
    package var maximumSize: Size?
    /// Why the record cannot be written, for one made from parameter sets too short to describe; `nil` when it can.
    package var problem: String?

    /// Creates a configuration from its box type and payload.
    ///
    /// - Parameters:
    ///   - boxType: The child box type.
    ///   - payload: The record, without the box header.
    ///   - maximumSize: The largest picture the record allows, if it states one.
    package init(boxType: FourCC, payload: [UInt8], maximumSize: Size? = nil) {
        self.boxType = boxType
        self.payload = payload
        self.maximumSize = maximumSize
    }

    /// A configuration that cannot be written, saying why; ``VideoSampleEntry/validate()`` throws it.
    package init(boxType: FourCC, problem: String) {
        self.init(boxType: boxType, payload: [])
        self.problem = problem
    }

    /// A configuration from a writer of the whole box (its header is taken off), or, when `check`
    /// throws, one that says why it cannot be written.
    init(
        boxType: FourCC, maximumSize: Size? = nil, checkedBy check: () throws -> Void = {},
        box: (inout ByteWriter) -> Void
    ) {
        do {
            try check()
        } catch {
            self.init(
                boxType: boxType,
                problem: (error as? MuxingError)?.message ?? (error as? MediaReadingError)?.message ?? "\(error)")
            return
        }
        var writer = ByteWriter()
        box(&writer)
        self.init(boxType: boxType, payload: Array(writer.bytes.dropFirst(8)), maximumSize: maximumSize)
    }

    /// Writes the record as its box.
    func write(to writer: inout ByteWriter) {
        writer.box(boxType) { $0.putBytes(payload) }
    }
}

extension AVCDecoderConfiguration {
    /// The record as an `avcC` box's payload.
    package var codecConfiguration: CodecConfiguration {
        CodecConfiguration(boxType: "avcC", checkedBy: validate) {
            AVCConfigurationBox(configuration: self).write(to: &$0)
        }
    }
}

extension HEVCDecoderConfiguration {
    /// The record as an `hvcC` box's payload.
    package var codecConfiguration: CodecConfiguration {
        CodecConfiguration(boxType: "hvcC", checkedBy: validate) { write(to: &$0) }
    }
}

extension AV1CodecConfiguration {
    /// The record as an `av1C` box's payload, with the sequence header's largest picture.
    package var codecConfiguration: CodecConfiguration {
        CodecConfiguration(
            boxType: "av1C",
            maximumSize: CodecConfiguration.Size(
                width: sequenceHeader.maximumWidth, height: sequenceHeader.maximumHeight)
        ) { write(to: &$0) }
    }
}
