import Glibc
import Synchronization

/// An open file descriptor owned by Vigil, closed exactly once: the one descriptor type of the sensors, the
/// Prometheus exporter and the MQTT publisher.
///
/// ``close()`` is idempotent and thread-safe (an atomic exchange decides which caller closes); the descriptor is
/// also closed when the object is released. After closing, ``rawValue`` is -1.
package final class FileDescriptor: Sendable {
    private let storage: Atomic<Int32>

    /// Takes ownership of `rawValue`, which must be an open descriptor.
    package init(_ rawValue: Int32) {
        precondition(rawValue >= 0, "FileDescriptor needs an open descriptor, got \(rawValue)")
        storage = Atomic(rawValue)
    }

    /// The descriptor number, or -1 once closed.
    package var rawValue: Int32 { storage.load(ordering: .acquiring) }

    /// Whether ``close()`` has run.
    package var isClosed: Bool { rawValue < 0 }

    /// Closes the descriptor; later calls do nothing.
    ///
    /// Wraps `close(2)`. `EINTR` is not retried: on Linux the descriptor is released even then.
    ///
    /// - Returns: The error `close(2)` reported (a file system may report a failed write only here), or nil.
    @discardableResult
    package func close() -> Errno? {
        let old = storage.exchange(-1, ordering: .acquiringAndReleasing)
        guard old >= 0, Glibc.close(old) != 0 else { return nil }
        return .current
    }

    deinit { close() }
}
