/// Who delivers a subject's events: nobody, one thread, or one thread with more events queued behind it.
///
/// The subject engine keeps it in an atomic so that the deliverer can give it up with one compare-and-swap outside
/// the lock when nothing was queued; every other change happens under the lock. ``SubjectStateMachine`` decides
/// through this protocol, so it can be tested with a plain value and no threads.
@usableFromInline
protocol DeliveryRole {
    /// Whether some thread delivers.
    var isDelivering: Bool { get }

    /// Becomes the deliverer if nobody delivers; returns whether it did. Called under the lock.
    func claimIfIdle() -> Bool

    /// Tells the deliverer that an event was queued behind it; if the deliverer had just given up, becomes the
    /// deliverer instead and returns true. Called under the lock.
    func markPendingOrClaim() -> Bool

    /// Gives up the role; called under the lock when the queue is empty.
    func release()
}
