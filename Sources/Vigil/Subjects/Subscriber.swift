import Synchronization

/// One subscription's end inside a subject: its disposed flag, and its mailbox when it is delivered on a queue.
///
/// Its closures live in the subject's subscriber list (see ``SubjectEngine/Entry``), so removing it from the list
/// releases them. It holds the subject's engine weakly, so a subscription never keeps its subject alive.
@usableFromInline
final class Subscriber<Element: Sendable>: SubscriptionTarget {
    /// Set by dispose; read by delivery loops.
    @usableFromInline let isDisposed = Atomic<Bool>(false)
    /// The mailbox, for queue delivery; nil for immediate delivery.
    @usableFromInline let mailbox: Mailbox<Element>?
    @usableFromInline weak let engine: SubjectEngine<Element>?

    @inlinable
    init(engine: SubjectEngine<Element>, mailbox: Mailbox<Element>?) {
        self.engine = engine
        self.mailbox = mailbox
    }

    /// Identifies this subscriber in the engine's "callback in progress" mark.
    @inlinable
    var identity: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    @inlinable
    func cancel() {
        guard !isDisposed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        mailbox?.cancel()
        engine?.detach(self)
    }
}
