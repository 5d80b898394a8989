import Dispatch

/// Where a subscriber's callbacks run.
public enum Delivery: Sendable {
    /// Synchronously, on a thread that is inside some `publish` call of the subject.
    ///
    /// Publishes are serialized per subject: when several threads publish at once, one of them delivers every queued
    /// value in turn, so your callback may run on another publisher's thread, and a value you publish may reach
    /// subscribers before your `publish` returns or just after it, from that other thread. Callbacks never overlap.
    case immediate

    /// On `queue`, through a mailbox of this subscriber's own that is drained in batches.
    ///
    /// Values arrive in publish order. The mailbox holds what the queue has not yet delivered; `buffer` says what it
    /// keeps when the consumer falls behind.
    case queue(DispatchQueue, buffer: BufferPolicy = .unbounded)
}

/// What a queue subscriber's mailbox keeps when values arrive faster than the queue delivers them.
public enum BufferPolicy: Hashable, Sendable {
    /// Keeps every value; nothing is ever dropped.
    case unbounded
    /// Keeps only the newest pending value (conflation): a slow consumer sees the latest reading.
    case latest
    /// Keeps the newest `n` pending values, dropping the oldest pending one when full.
    case newest(Int)
    /// Keeps the oldest `n` pending values, dropping new ones while full.
    case oldest(Int)
}
