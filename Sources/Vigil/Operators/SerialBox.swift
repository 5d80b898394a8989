import Synchronization

/// Operator state touched only by one subscription's callbacks, which never overlap: no lock needed.
///
/// A subscription's callbacks are serialized by its source (a subject's drain loop, or a relay subject inside
/// operators that combine several sources), and each call happens-after the previous one through that source's
/// lock and atomics, which is what makes the unlocked access safe. Debug builds check it: two threads inside at
/// once trap.
@usableFromInline
final class SerialBox<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    #if DEBUG
        @usableFromInline let isInside = Atomic<Bool>(false)
    #endif

    @inlinable
    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value; only from the serialized callbacks of the subscription that owns this box.
    @inlinable
    func withValue<Result>(_ body: (inout Value) -> Result) -> Result {
        #if DEBUG
            precondition(
                !isInside.exchange(true, ordering: .acquiring), "operator state reached by overlapping callbacks")
            defer { isInside.store(false, ordering: .releasing) }
        #endif
        return body(&value)
    }
}
