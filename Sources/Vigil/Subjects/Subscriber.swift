import Synchronization

/// One subscription's end inside a subject: its disposed flag, and its mailbox when it is delivered on a queue.
///
/// Its closures live in the subject's subscriber list (see ``SubjectEntry``), so removing it from the list
/// releases them. It holds the subject's engine, not the subject: a subscription never keeps its subject alive, and
/// the subject's release ends the engine's subscriptions, which empties its list. Held strongly, not weakly: a weak
/// reference gave the engine a side table, and forming, loading and destroying it were a fifth of the time of a
/// subscribe and dispose (`perf record` of `subscription.churn`). The engine and an attached subscriber hold each
/// other until the subscriber leaves the list (dispose, termination, the subject's release).
@usableFromInline
final class Subscriber<Element: Sendable>: Sendable {
    /// Bit 0: disposed (set once, under the subject's lock, read by delivery loops). The other bits: this
    /// subscriber's index in the subject's list, written under the subject's lock, so dispose finds it in O(1).
    @usableFromInline let status = Atomic<UInt>(UInt.max << 1)
    /// The mailbox, for queue delivery; nil for immediate delivery.
    @usableFromInline let mailbox: Mailbox<Element>?
    @usableFromInline let engine: SubjectEngine<Element>

    @inlinable
    init(engine: SubjectEngine<Element>, mailbox: Mailbox<Element>?) {
        self.engine = engine
        self.mailbox = mailbox
    }

    /// Whether the subscription was disposed.
    @inlinable
    var isDisposed: Bool { status.load(ordering: .acquiring) & 1 != 0 }

    /// Sets the disposed flag; returns whether it was set by this call.
    @inlinable
    func markDisposed() -> Bool {
        status.bitwiseOr(1, ordering: .sequentiallyConsistent).oldValue & 1 == 0
    }

    /// Where this subscriber's entry sits in the subject's list; written and read under the subject's lock.
    @inlinable
    var index: Int {
        get { Int(truncatingIfNeeded: status.load(ordering: .relaxed) >> 1) }
        set {
            var current = status.load(ordering: .relaxed)
            while true {
                let updated = UInt(truncatingIfNeeded: newValue) << 1 | current & 1
                let (exchanged, found) = status.weakCompareExchange(
                    expected: current, desired: updated, ordering: .relaxed)
                if exchanged { return }
                current = found
            }
        }
    }

    /// Stops the subscription without waiting: no callback starts after this returns, pending values are dropped,
    /// and the closures are released.
    @inlinable
    func cancel() {
        mailbox?.cancel()
        engine.detach(self)
    }

    /// Waits until a callback of this subscription running on another thread has returned; after ``cancel()``.
    @inlinable
    func awaitCallbacks() {
        engine.awaitCallbacks()
        mailbox?.awaitCallbacks()
    }

    /// The subscription handed to the subscriber, specialized here.
    @inlinable
    func makeSubscription() -> Subscription {
        Subscription { [self] control in
            switch control {
            case .cancel: cancel()
            case .awaitCallbacks: awaitCallbacks()
            }
        }
    }
}
