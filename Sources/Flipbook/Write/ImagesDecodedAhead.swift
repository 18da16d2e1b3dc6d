import Foundation

extension VideoSettings {
    /// Images decoded and converted at once ahead of the encoder: ``decodeWorkers``, or one more than
    /// the cores, at least three. With one per core, both pictures often waited for an encoder busy
    /// with earlier frames while the decoders stood idle: on two cores, x264 at ultrafast on 1080p
    /// PNGs took about 5% longer.
    ///
    /// ProRes takes one for every four cores, at least one: its encoder keeps every core busy with
    /// frame threads and spends over ten times a PNG's decoding on each frame, so more images ahead
    /// only hold memory (on two cores, 1080p HQ from PNGs: the same time with one as with three, and
    /// 110 MB at peak instead of 135).
    var imagesDecodedAhead: Int {
        guard decodeWorkers == 0 else { return decodeWorkers }
        let cores = ProcessInfo.processInfo.activeProcessorCount
        return codec.encoderRecord.has(.keepsCoresBusy) ? max(1, cores / 4) : max(3, cores + 1)
    }
}
