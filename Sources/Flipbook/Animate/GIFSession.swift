import ISOBMFF
import MediaModel

/// An animated GIF as a muxing session: RGBA frames with their durations in, the file's blocks out.
///
/// Delays are whole hundredths of a second, laid out from the frames' exact times so that they
/// never drift: a frame starting at `t` seconds starts at `round(100 t)` hundredths, and its delay
/// runs to the next frame's start (at a constant rate, delay `i` is `round(100(i+1)/fps) -
/// round(100 i/fps)`), the last one to the end of the movie. Browsers show delays under 2/100 s as
/// 10/100 s, so a frame that would start less than 2/100 s after the previous one is left out (its
/// time goes to the previous frame), keeping at most 50 frames a second; ``warnings`` says how many.
struct GIFSession: MuxingSession {
    let timescale: Int64
    let options: AnimationOptions
    private var frames: GIFFrameEncoder
    /// Where the frames so far end, in ticks.
    private var elapsed: Int64 = 0
    /// The latest frame kept, written once the next frame's start (its delay) is known.
    private var pending: (frame: GIFFrameEncoder.Encoded, start: Int64)?
    private var started = false
    private var framesGiven = 0
    private var framesLeftOut = 0

    init(timescale: UInt32, options: AnimationOptions) {
        self.timescale = Int64(max(1, timescale))
        self.options = options
        frames = GIFFrameEncoder(options: options)
    }

    /// Ticks as hundredths of a second, rounded to the nearest (halves up).
    private func centiseconds(_ ticks: Int64) -> Int64 {
        (ticks * 200 + timescale) / (2 * timescale)
    }

    mutating func add(_ sample: MediaSample, track: Int, tracks: () -> [Track]) throws -> [WriteAction] {
        guard track == TrackKind.video.index else {
            throw FlipbookError.animatedImageGivenSound(".gif")
        }
        let start = centiseconds(elapsed)
        elapsed += Int64(sample.duration)
        framesGiven += 1
        var bytes: [UInt8] = []
        if !started {
            bytes = GIFFile.header(width: options.width, height: options.height, plays: options.loopCount)
            started = true
        }
        if let pending {
            guard start - pending.start >= 2 else {
                framesLeftOut += 1
                return bytes.isEmpty ? [] : [.append(bytes)]
            }
            bytes += written(pending.frame, delay: start - pending.start)
        }
        pending = (try frames.encode(sample.data), start)
        return [.append(bytes)]
    }

    mutating func finish(tracks: [Track], extensions: [MovieExtension]) throws -> [WriteAction] {
        guard let pending else {
            throw FlipbookError.noFramesAppended("GIF")
        }
        self.pending = nil
        let delay = max(1, centiseconds(elapsed) - pending.start)
        return [.append(written(pending.frame, delay: delay) + GIFFile.trailer)]
    }

    /// A frame's bytes with its delay; a delay past the 655.35 s a GIF frame can hold goes on in
    /// frames that change nothing.
    private func written(_ frame: GIFFrameEncoder.Encoded, delay: Int64) -> [UInt8] {
        var bytes = GIFFile.frame(
            frame.image, delay: Int(min(delay, 65535)), disposal: frame.disposal,
            transparentIndex: frame.transparentIndex)
        var remaining = delay - 65535
        while remaining > 0 {
            bytes += GIFFile.frame(
                GIFFile.unchangedImage, delay: Int(min(remaining, 65535)), disposal: .keep, transparentIndex: 0)
            remaining -= 65535
        }
        return bytes
    }

    var warnings: [String] {
        guard framesLeftOut > 0 else { return [] }
        let seconds = Double(elapsed) / Double(timescale)
        let rate = seconds > 0 ? Double(framesGiven - framesLeftOut) / seconds : 0
        return [
            "a GIF's delays are whole hundredths of a second and browsers slow any under 2/100 s, so "
                + "\(framesLeftOut) of \(framesGiven) frames were left out to keep at most 50 a second "
                + "(about \(Int(rate.rounded())) fps kept, the same length); use --fps 50 or less, or .webp, for every frame"
        ]
    }
}
