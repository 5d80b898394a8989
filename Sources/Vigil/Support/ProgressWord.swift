import CVigilCore

/// A counter that the delivering thread advances after each callback round, and that waiting threads sleep on.
///
/// Waiting spins for a few microseconds, then registers, runs the cross-thread fence, and sleeps on a futex until
/// the counter moves: no polling, and no wake-up cost for the deliverer unless someone is registered. A mailbox's
/// drains never overlap, so it advances ``count`` directly. A subject's deliverer role changes hands, so it counts
/// its rounds apart (with its role, see `SubjectEngine.deliveryState`), and uses this word only to wake the waiters,
/// which any thread that gave up the role may still do.
@usableFromInline
struct ProgressWord: ~Copyable {
    @usableFromInline let word: UnsafeMutablePointer<vigil_progress>

    /// How many pauses a waiter spins before it sleeps: a few microseconds.
    @inlinable
    static var spinRounds: Int { 256 }

    @inlinable
    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: vigil_progress(count: 0, waiters: 0))
    }

    @inlinable
    deinit {
        word.deallocate()
    }

    /// The number of rounds completed.
    @inlinable
    var count: UInt32 { vigil_progress_load(word) }

    /// Marks one more round completed and wakes the registered waiters; only the delivering thread calls it.
    @inlinable
    func advance(asymmetric: Bool) {
        vigil_progress_advance(word, asymmetric ? 0 : 1)
    }

    /// Wakes the registered waiters after the stores they wait for (a round's end, the role given up); any thread
    /// may call it, even one that no longer holds the role.
    @inlinable
    func wakeWaiters(asymmetric: Bool) {
        vigil_progress_wake_waiters(word, asymmetric ? 0 : 1)
    }

    /// Spins briefly until `isDone`; returns whether it became true.
    @inlinable
    func spin(until isDone: () -> Bool) -> Bool {
        for _ in 0..<Self.spinRounds {
            if isDone() { return true }
            vigil_cpu_relax()
        }
        return isDone()
    }

    /// Registers the calling thread as a waiter and runs the fence: afterwards the deliverer either sees the
    /// registration (and wakes it) or its progress, and any store this thread made before, are visible here.
    @inlinable
    func register(asymmetric: Bool) {
        vigil_progress_add_waiter(word)
        CrossThreadFence.synchronize(asymmetric: asymmetric)
    }

    @inlinable
    func unregister() {
        vigil_progress_remove_waiter(word)
    }

    /// Sleeps, registered, until `isDone` or `deadline`; returns whether `isDone` became true.
    @inlinable
    func sleep(until isDone: () -> Bool, deadline: ContinuousClock.Instant? = nil) -> Bool {
        while true {
            let seen = count
            if isDone() { return true }
            var timeout: Int64 = -1
            if let deadline {
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { return false }
                let (seconds, attoseconds) = left.components
                timeout = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            }
            vigil_progress_sleep(word, seen, timeout)
        }
    }
}

// Safe: the word is a C resource reached only through atomic operations and the futex calls above.
extension ProgressWord: @unchecked Sendable {}
