/// The file type box (`ftyp`, ISO/IEC 14496-12 §4.3): the brands a file conforms to.
package struct FileTypeBox: Sendable, Equatable {
    /// The best-fitting brand.
    package var majorBrand: FourCC
    /// The version of the major brand.
    package var minorVersion: UInt32
    /// Every brand the file conforms to.
    package var compatibleBrands: [FourCC]

    /// Creates a file type box.
    ///
    /// - Parameters:
    ///   - majorBrand: The best-fitting brand.
    ///   - minorVersion: The version of the major brand.
    ///   - compatibleBrands: Every brand the file conforms to.
    package init(majorBrand: FourCC, minorVersion: UInt32, compatibleBrands: [FourCC]) {
        self.majorBrand = majorBrand
        self.minorVersion = minorVersion
        self.compatibleBrands = compatibleBrands
    }

    /// The brands Flipbook writes for each kind of file.
    ///
    /// - Parameters:
    ///   - brand: The kind of file.
    ///   - codecBrands: The brands of the tracks' codecs (`avc1`, `av01`), named by an MP4 between
    ///     `iso2` and `mp41`.
    package init(brand: FileBrand, codecBrands: [FourCC] = ["avc1"]) {
        switch brand {
        case .mp4:
            self.init(
                majorBrand: "isom", minorVersion: 0x200, compatibleBrands: ["isom", "iso2"] + codecBrands + ["mp41"])
        case .m4v:
            self.init(majorBrand: "M4V ", minorVersion: 0x200, compatibleBrands: ["M4V ", "M4A ", "mp42", "isom"])
        case .quickTime:
            self.init(majorBrand: "qt  ", minorVersion: 0x2005_0300, compatibleBrands: ["qt  "])
        }
    }

    /// Writes the box.
    package func write(to writer: inout ByteWriter) {
        writer.box("ftyp") { w in
            w.putFourCC(majorBrand)
            w.putUInt32(minorVersion)
            for brand in compatibleBrands { w.putFourCC(brand) }
        }
    }

    init(reading box: Box, in bytes: [UInt8]) throws {
        var r = ByteReader(payloadOf: box, in: bytes)
        majorBrand = try r.readFourCC()
        minorVersion = try r.readUInt32()
        compatibleBrands = []
        while r.remaining >= 4 { compatibleBrands.append(try r.readFourCC()) }
    }
}
