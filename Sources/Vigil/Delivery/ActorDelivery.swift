/// Delivery on an actor: what `subscribe(on: .actor(someActor))` takes, for callbacks isolated to that actor.
///
/// The callbacks receive the actor as an `isolated` parameter, so they read and mutate its state synchronously.
/// Values go through a mailbox of the subscriber's own, exactly as with ``Delivery/queue(_:buffer:)``: a task on
/// the actor drains it in batches (each batch runs without suspending, so other work on the actor waits for it
/// and never interleaves with it), values arrive in publish order, and the buffer policy says what a slow consumer
/// keeps.
///
/// ```swift
/// actor Totals { var sum = 0 }
/// let totals = Totals()
/// let subscription = ages.subscribe(on: .actor(totals)) { totals, age in totals.sum += age }
/// ```
///
/// For the main actor, ``MainActorDelivery`` gives callbacks that are `@MainActor` instead.
public struct ActorDelivery<IsolatedActor: Actor>: Sendable {
    /// The actor the callbacks run on.
    public let actor: IsolatedActor
    /// What the mailbox keeps when values arrive faster than the actor takes them.
    public let buffer: BufferPolicy

    /// On `actor`, keeping what `buffer` says when the actor falls behind.
    ///
    /// - Parameters:
    ///   - actor: The actor the callbacks are isolated to.
    ///   - buffer: The mailbox's policy; see ``BufferPolicy``.
    public static func actor(_ actor: IsolatedActor, buffer: BufferPolicy = .unbounded) -> ActorDelivery {
        ActorDelivery(actor: actor, buffer: buffer)
    }
}
