internal import CLinux

/// A process-wide allocator setting for programs that make movies from many large images.
package enum MemoryTuning {
    /// Keeps large, short-lived buffers (decoded images and pictures: megabytes each, a few per
    /// frame) in the heap instead of fresh memory maps, so the kernel does not zero new pages for
    /// every frame; in the `flipbook` tool this saves about a fifth of the CPU time.
    ///
    /// Freed memory then stays with the process (up to 256 MiB before it is trimmed); Flipbook's
    /// bounded queues keep the working set far below that. Allocation also stays in one arena:
    /// buffers allocated on one thread and freed on another otherwise spread over one arena per
    /// thread, and peak memory creeps up with the number of frames (+14% from 240 to 3000 frames at
    /// 1080p with an arena per thread; with two arenas still +4% from 60 to 240 frames at the medium
    /// preset, where one arena stays flat and 5% lower). The few large allocations a frame make the
    /// shared lock cheap. It changes glibc's `malloc` for the whole process, so call it at start-up
    /// of a program that mostly makes movies.
    package static func keepLargeBuffersInTheHeap() {
        _ = flipbook_set_malloc_thresholds(64 << 20, 256 << 20, 1)
    }
}
