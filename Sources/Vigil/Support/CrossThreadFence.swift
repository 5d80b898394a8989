import CVigilCore
import Glibc
import Synchronization

/// The slow half of an asymmetric fence, for the core's two waits.
///
/// A delivery loop checks for disposal with plain loads and publishes its progress with plain stores: no hardware
/// fence on the hot path. A thread about to wait (a disposer, a publisher) first makes its own store (the disposed
/// flag, its registration as a waiter) and then runs `membarrier(2)`, which executes a full barrier on every thread
/// of the process. Afterwards either the delivering thread sees that store, or the waiter sees the delivering
/// thread's progress. Where `membarrier(2)` is unavailable (an old kernel, a seccomp filter), both sides use a full
/// fence instead: the delivery loop then pays one per round, and the guarantees stay the same.
@usableFromInline
package enum CrossThreadFence {
    /// Whether private expedited `membarrier(2)` works in this process; checked once.
    private static let membarrierWorks: Bool = vigil_membarrier_setup() == 0

    /// Forces the fallback (a full fence on both sides) for subjects and mailboxes created afterwards, so tests can
    /// check that path on a kernel that has `membarrier(2)`.
    package static let forcesFallback = Atomic<Bool>(false)

    /// Whether a subject or mailbox created now relies on `membarrier(2)`; it keeps the answer for its lifetime, so
    /// its delivery loop tests a stored flag.
    @usableFromInline
    static var isAsymmetric: Bool {
        membarrierWorks && !forcesFallback.load(ordering: .relaxed)
    }

    /// The waiter's side: orders this thread's earlier stores before every other thread's later loads, and their
    /// earlier stores before this thread's later loads.
    @usableFromInline
    static func synchronize(asymmetric: Bool) {
        // Once registration succeeded, the kernel runs every private expedited barrier; the fence covers the rest.
        if asymmetric && vigil_membarrier_private() == 0 { return }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
    }

    /// The delivering thread's side: a full fence where `membarrier(2)` is not relied on, nothing otherwise.
    @inlinable
    static func deliveryFence(asymmetric: Bool) {
        if !asymmetric { atomicMemoryFence(ordering: .sequentiallyConsistent) }
    }
}

/// An identifier of the calling thread, comparable with another thread's.
@inlinable
func currentThreadID() -> UInt {
    UInt(pthread_self())
}
