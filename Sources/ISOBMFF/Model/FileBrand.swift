/// The flavour of file to write, which decides the `ftyp` brands and a few QuickTime details.
package enum FileBrand: Sendable, Equatable {
    /// ISO MP4 (`.mp4`): brands `isom iso2 avc1 mp41`.
    case mp4
    /// Apple's MP4 variant (`.m4v`): brands `M4V  M4A  mp42 isom`.
    case m4v
    /// QuickTime movie (`.mov`): brand `qt  `, `nclc` colour, QuickTime-style `hdlr`.
    case quickTime
}
