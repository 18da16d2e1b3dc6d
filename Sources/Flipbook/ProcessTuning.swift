/// Process-wide settings for programs that mostly make movies, such as the `flipbook` tool.
public enum ProcessTuning {
    /// Keeps large, short-lived buffers (decoded images and pictures: megabytes each, a few per
    /// frame) in the heap instead of fresh memory maps, so the kernel does not zero new pages for
    /// every frame: in the `flipbook` tool this saves about a fifth of the CPU time, and peak memory
    /// stays flat over any number of frames.
    ///
    /// - Important: It changes glibc's `malloc` for the whole process (freed memory stays with the
    ///   process, up to 256 MiB before it is trimmed, in one arena), so call it once at start-up of
    ///   a program whose main work is making movies, not from a library.
    public static func keepLargeBuffersInTheHeap() {
        MemoryTuning.keepLargeBuffersInTheHeap()
    }
}
