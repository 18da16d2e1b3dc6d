import Foundation

/// Where a sequence's images come from, in the order they become frames: a list hands out every
/// image at once and never waits; a follower hands out what is complete and waits for the rest.
protocol SequenceArrivals<Item> {
    associatedtype Item: Sendable
    /// The next image, when it is there now.
    mutating func nextReady() throws -> Item?
    /// Waits for the next image; `nil` when the sequence has ended.
    mutating func waitForNext() async throws -> Item?
}

/// The images of a list, by index: all there from the start, so it never waits.
struct ListedImages: SequenceArrivals {
    /// The index of the next image to hand out.
    var next: Int
    let count: Int

    mutating func nextReady() -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }

    func waitForNext() -> Int? { nil }
}

extension SequenceFollower: SequenceArrivals {}

/// The one ordered decode pipeline of every image sequence, listed or followed: images are decoded,
/// fitted and converted on several threads ahead of the encoder, and each prepared picture is handed
/// on in the order the images arrived. At most ``lookahead`` pictures are being prepared or wait to be
/// handed on at once, so memory does not grow with the number of images; when none is being
/// prepared, the pipeline waits for the next image to arrive.
struct OrderedDecoding<Arrivals: SequenceArrivals> {
    /// Pictures prepared ahead of the encoder (``VideoSettings/imagesDecodedAhead``).
    let lookahead: Int
    let preparer: FramePreparer
    /// Decodes one image for the movie.
    let decode: @Sendable (Arrivals.Item) throws -> DecodedImage

    /// Runs the sequence to its end.
    ///
    /// - Parameters:
    ///   - arrivals: Where the images after `first` come from.
    ///   - first: The first image, already decoded (it gave the movie its size), and its position.
    ///   - waiting: Called when nothing is being prepared and the pipeline waits for an image.
    ///   - take: Called with each image's position, the image and its prepared picture (or why it
    ///     could not be prepared), in order; it appends the picture, skips it or throws.
    func run(
        _ arrivals: inout Arrivals, first: (position: Int, item: Arrivals.Item, image: DecodedImage),
        waiting: () -> Void, take: (Int, Arrivals.Item, Result<YUVPicture, any Error>) async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: (Int, Result<YUVPicture, any Error>).self) { group in
            let (preparer, decode) = (preparer, decode)
            var items: [Int: Arrivals.Item] = [first.position: first.item]
            group.addTask { [image = first.image] in (first.position, Result { try preparer.prepare(image) }) }
            var scheduled = first.position + 1
            var taken = first.position
            func fill() throws {
                while scheduled - taken < lookahead, let item = try arrivals.nextReady() {
                    let position = scheduled
                    items[position] = item
                    group.addTask { (position, Result { try preparer.prepare(try decode(item)) }) }
                    scheduled += 1
                }
            }
            var ready: [Int: Result<YUVPicture, any Error>] = [:]
            while true {
                try fill()
                if scheduled == taken {
                    waiting()
                    guard let item = try await arrivals.waitForNext() else { break }
                    items[scheduled] = item
                    group.addTask { [position = scheduled] in
                        (position, Result { try preparer.prepare(try decode(item)) })
                    }
                    scheduled += 1
                    continue
                }
                guard let (position, picture) = try await group.next() else { break }
                ready[position] = picture
                while let picture = ready.removeValue(forKey: taken), let item = items.removeValue(forKey: taken) {
                    try await take(taken, item, picture)
                    taken += 1
                    try fill()
                }
            }
        }
    }
}
