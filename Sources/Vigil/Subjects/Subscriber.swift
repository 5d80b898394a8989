import Synchronization

/// One subscription's end inside a subject: its disposed flag, its completion handler, and its mailbox when it is
/// delivered on a queue.
///
/// The subject holds it strongly in its subscriber list; it holds the subject's engine weakly, so a subscription
/// never keeps its subject alive.
@usableFromInline
final class Subscriber<Element: Sendable>: SubscriptionTarget {
    /// Set by dispose; read by delivery loops.
    @usableFromInline let isDisposed = Atomic<Bool>(false)
    /// The mailbox, for queue delivery; nil for immediate delivery.
    @usableFromInline let mailbox: Mailbox<Element>?
    @usableFromInline let completionHandler: Mutex<(@Sendable (Completion) -> Void)?>
    @usableFromInline weak let engine: SubjectEngine<Element>?

    @inlinable
    init(engine: SubjectEngine<Element>, mailbox: Mailbox<Element>?, onCompletion: (@Sendable (Completion) -> Void)?) {
        self.engine = engine
        self.mailbox = mailbox
        self.completionHandler = Mutex(onCompletion)
    }

    /// Identifies this subscriber in the engine's "callback in progress" mark.
    @inlinable
    var identity: UInt { UInt(bitPattern: ObjectIdentifier(self)) }

    /// Delivers the terminal event once, unless disposed first.
    @inlinable
    func finish(_ completion: Completion) {
        guard !isDisposed.load(ordering: .acquiring) else { return }
        if let mailbox {
            mailbox.complete(completion)
        } else {
            let handler = completionHandler.withLock { handler in
                defer { handler = nil }
                return handler
            }
            handler?(completion)
        }
    }

    @inlinable
    func cancel() {
        guard !isDisposed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        let handler = completionHandler.withLock { handler in
            defer { handler = nil }
            return handler
        }
        mailbox?.cancel()
        engine?.detach(self)
        withExtendedLifetime(handler) {}
    }
}
