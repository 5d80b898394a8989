/// A subject that delivers each published value to its current subscribers and caches nothing.
///
/// ```swift
/// let ages = PublishSubject<Int>()
/// let subscription = ages.subscribe { print($0) }
/// ages.publish(18)
/// ages.complete()
/// ```
///
/// Thread-safe: publish, complete, subscribe and dispose from any thread, including from inside a callback.
/// Publishes are serialized: every subscriber sees the same order, subscribers are called in the order they
/// subscribed, and a publish made from inside a callback is delivered after the current value has reached every
/// subscriber, never recursively. When the subject is released, its live subscribers receive `.finished`.
public final class PublishSubject<Element: Sendable>: ObservableType {
    @usableFromInline let engine = SubjectEngine<Element>(current: nil)

    /// Creates a subject with no subscribers.
    @inlinable
    public init() {}

    deinit {
        engine.terminateOnRelease()
    }

    /// Delivers `value` to every current subscriber; ignored once the subject has completed or failed.
    ///
    /// Immediate subscribers are called synchronously, inside this call or, when another thread is delivering at
    /// the same moment (or this is called from inside a callback), inside that delivery, right after the value in
    /// flight. Called from inside a ``BehaviorSubject/modify(_:)`` body, they are called once that step is over,
    /// before `modify` returns. Queue subscribers receive it on their queue.
    ///
    /// Called from inside any Vigil callback it never waits: the value is queued behind the one in flight. Called
    /// from outside while another thread is delivering, it queues the value and waits, asleep and for at most
    /// 2 ms, until the value was delivered: backpressure, so a thread publishing without pause cannot trap the
    /// delivering thread or grow the queue without limit. The bound only matters if the delivering thread is
    /// itself blocked, for example on a lock this caller holds.
    @inlinable
    public func publish(_ value: Element) {
        engine.publish(value)
    }

    /// Ends the subject normally: each subscriber receives `.finished` once, after every value published before.
    ///
    /// Later publishes are ignored, and later subscribers receive `.finished` at once.
    public func complete() {
        engine.terminate(.finished)
    }

    /// Ends the subject with `error`: each subscriber receives `.failed(error)` once, after every earlier value.
    ///
    /// Later publishes are ignored, and later subscribers receive the failure at once.
    public func fail(_ error: any Error) {
        engine.terminate(.failed(error))
    }

    /// How many subscriptions are live: subscribed and not yet disposed; zero once the subject has completed.
    ///
    /// A snapshot: other threads may subscribe or dispose at any moment.
    public var subscriberCount: Int {
        engine.subscriberCount
    }

    @inlinable
    public func subscribe(
        on delivery: Delivery,
        onNext: @escaping @Sendable (Element) -> Void,
        onCompletion: @escaping @Sendable (Completion) -> Void
    ) -> Subscription {
        engine.subscribe(on: delivery, onNext: onNext, onCompletion: onCompletion)
    }
}
