import CLinuxSupport
import Glibc
import Synchronization

/// The slow half of an asymmetric fence, and the wait that follows it, for the dispose path.
///
/// Delivery loops mark the subscriber they are calling with a plain store and check for disposal with a plain load:
/// no hardware fence on the hot path. A dispose that races with a delivery on another thread runs `membarrier(2)`,
/// which makes every thread of the process execute a full barrier, so afterwards either the delivering thread sees
/// the disposal or the disposer sees the mark and waits for that callback to return.
@usableFromInline
enum CrossThreadFence {
    /// Whether the process registered for private expedited barriers (Linux 4.14 and later).
    private static let hasPrivateExpedited: Bool = vigil_membarrier_register() == 0

    /// Makes this thread's earlier stores visible to, and ordered before, every other thread's later loads.
    @usableFromInline
    static func synchronize() {
        if hasPrivateExpedited && vigil_membarrier_private() == 0 { return }
        if vigil_membarrier_global() == 0 { return }
        // No membarrier at all (a kernel without it): the best this thread can do alone.
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }

    /// Waits, yielding and then sleeping briefly, until `isDone` returns true.
    ///
    /// Used only while another thread finishes a callback that had already started, so the wait is as long as that
    /// callback and no lock is held meanwhile.
    /// Waits like ``wait(until:)``, but gives up after `limit`.
    @usableFromInline
    static func wait(atMost limit: Duration, until isDone: () -> Bool) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: limit)
        var rounds = 0
        while !isDone() && clock.now < deadline {
            rounds += 1
            if rounds < 64 {
                sched_yield()
            } else {
                usleep(20)
            }
        }
    }

    @usableFromInline
    static func wait(until isDone: () -> Bool) {
        var rounds = 0
        while !isDone() {
            rounds += 1
            if rounds < 64 {
                sched_yield()
            } else {
                usleep(50)
            }
        }
    }
}

/// An identifier of the calling thread, comparable with another thread's.
@inlinable
func currentThreadID() -> UInt {
    UInt(pthread_self())
}
