import Synchronization

/// One subscription's end inside a subject: its disposed flag, and its mailbox when it is delivered on a queue.
///
/// Its closures live in the subject's subscriber list (see ``SubjectEngine/Entry``), so removing it from the list
/// releases them. It holds the subject's engine weakly, so a subscription never keeps its subject alive.
@usableFromInline
final class Subscriber<Element: Sendable>: Sendable {
    /// Bit 0: disposed (set once, read by delivery loops). The other bits: this subscriber's index in the subject's
    /// list, written under the subject's lock, so dispose finds its entry in O(1).
    @usableFromInline let status = Atomic<UInt>(UInt.max << 1)
    /// The mailbox, for queue delivery; nil for immediate delivery.
    @usableFromInline let mailbox: Mailbox<Element>?
    @usableFromInline weak let engine: SubjectEngine<Element>?

    @inlinable
    init(engine: SubjectEngine<Element>, mailbox: Mailbox<Element>?) {
        self.engine = engine
        self.mailbox = mailbox
    }

    /// Whether the subscription was disposed.
    @inlinable
    var isDisposed: Bool { status.load(ordering: .acquiring) & 1 != 0 }

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

    /// Identifies this subscriber in the engine's "callback in progress" mark.
    @inlinable
    var identity: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    /// Stops the subscription: no callback starts after this returns, pending values are dropped, closures released.
    @inlinable
    func cancel() {
        guard status.bitwiseOr(1, ordering: .sequentiallyConsistent).oldValue & 1 == 0 else { return }
        mailbox?.cancel()
        engine?.detach(self)
    }
}
