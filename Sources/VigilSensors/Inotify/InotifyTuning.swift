import Glibc

/// How the session reads; the defaults suit every use, tests shrink them to split renames across reads.
package struct InotifyTuning: Sendable {
    /// The `read(2)` buffer, in bytes; at least one record with the longest name (`16 + NAME_MAX + 1`).
    package var readBufferSize: Int
    /// Reads per wake-up of the event loop before it serves other descriptors.
    package var readsPerWake: Int
    /// How long an `IN_MOVED_FROM` waits for its `IN_MOVED_TO` once the queue is empty.
    package var moveDeadline: Duration

    /// 64 KiB reads, 16 per wake-up, 10 ms for the second half of a rename.
    package static let standard = InotifyTuning(
        readBufferSize: 64 * 1024, readsPerWake: 16, moveDeadline: .milliseconds(10))

    package init(readBufferSize: Int, readsPerWake: Int, moveDeadline: Duration) {
        self.readBufferSize = max(readBufferSize, InotifyEvent.headerSize + Int(NAME_MAX) + 1)
        self.readsPerWake = max(1, readsPerWake)
        self.moveDeadline = moveDeadline
    }
}
