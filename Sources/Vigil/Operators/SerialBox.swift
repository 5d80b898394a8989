import Synchronization

/// The state of one operator for one subscription, reached only from that subscription's callbacks: no lock.
///
/// `@unchecked Sendable`, the one such type in the core that wraps no C resource, because no checked form says what
/// makes it safe: a subscription's callbacks never overlap (``ObservableType/subscribe(on:onNext:onCompletion:)``
/// promises it, and every source keeps it: a subject's drain loop hands the deliverer role through its lock and
/// atomics, and an operator with several upstreams serializes them through a relay subject), so each callback
/// happens after the previous one and sees the state it left. A lock here would be taken ~8 ns per value and never
/// contended; worse, it would hide a broken serialization instead of showing it. Without it, ThreadSanitizer reports
/// two callbacks that overlap as a race on this state, and debug builds trap when two threads are inside at once.
///
/// Use it only where every access is inside the owning subscription's callbacks (or before its first one, when
/// the subscription is made); state also touched from elsewhere belongs behind ``FutexMutex``.
@usableFromInline
final class SerialBox<Value: Sendable>: @unchecked Sendable {
    /// The value, in memory of its own: reached through a pointer, so no exclusivity check runs per access.
    @usableFromInline let value: UnsafeMutablePointer<Value>
    #if DEBUG
        /// Set while a thread is inside ``withValue(_:)``: a second one arriving means callbacks overlapped.
        @usableFromInline let isInside = Atomic<Bool>(false)
    #endif

    @inlinable
    init(_ initialValue: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value; only from the serialized callbacks of the subscription that owns this box.
    @inlinable
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        #if DEBUG
            precondition(
                !isInside.exchange(true, ordering: .acquiringAndReleasing),
                "Vigil: callbacks of one subscription overlapped; an Observable must call onNext and onCompletion "
                    + "serially")
            defer { isInside.store(false, ordering: .releasing) }
        #endif
        return body(&value.pointee)
    }
}
