import Glibc
import Synchronization

/// An open file descriptor owned by Vigil, closed exactly once.
///
/// ``close()`` is idempotent and thread-safe (an atomic exchange decides which caller closes); the descriptor is
/// also closed when the object is released. After closing, ``rawValue`` is -1.
final class FileDescriptor: Sendable {
    private let storage: Atomic<Int32>

    /// Takes ownership of `rawValue`, which must be an open descriptor.
    init(_ rawValue: Int32) {
        precondition(rawValue >= 0, "FileDescriptor needs an open descriptor, got \(rawValue)")
        storage = Atomic(rawValue)
    }

    /// The descriptor number, or -1 once closed.
    var rawValue: Int32 { storage.load(ordering: .acquiring) }

    /// Whether ``close()`` has run.
    var isClosed: Bool { rawValue < 0 }

    /// Closes the descriptor; later calls do nothing.
    ///
    /// Wraps `close(2)`. `EINTR` is not retried: on Linux the descriptor is released even then.
    func close() {
        let old = storage.exchange(-1, ordering: .acquiringAndReleasing)
        if old >= 0 { _ = Glibc.close(old) }
    }

    deinit { close() }
}
