import Dispatch

/// Where a mailbox runs its drain, and so its subscriber's callbacks.
@usableFromInline
enum MailboxExecutor: Sendable {
    /// A `DispatchQueue`.
    case queue(DispatchQueue)
    /// The main actor, through a task isolated to it.
    case mainActor
    /// Any actor, through a task that hops to it; the drain never suspends, so it runs to its end there.
    case actor(any Actor)
}
